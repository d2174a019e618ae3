//! At least three example nodes per primitive, written from upstream's
//! description of each (fields, marks, tones, placeholders, and the cases
//! where upstream's output differs from the obvious one), rendered alone
//! (`render_node`) on the text, Markdown and Slack surfaces. Each example's
//! three outputs are one insta snapshot, `reference_examples__<name>`, and
//! were checked by hand against the pack's rules for that primitive.
//!
//! The examples live in `tests/examples/reference.json` as
//! `[{ "name": …, "node": … }]`.

mod common;

use std::collections::BTreeMap;

use common::{render_node, runtime};
use isomer_sdk::Surface;
use serde_json::Value;

/// The examples file, parsed.
fn examples() -> Vec<(String, Value)> {
    let examples: Vec<Value> =
        serde_json::from_str(include_str!("examples/reference.json")).expect("the examples parse");
    examples
        .into_iter()
        .map(|example| {
            let name = example["name"].as_str().expect("every example has a name");
            (name.to_owned(), example["node"].clone())
        })
        .collect()
}

/// `node` on the three string surfaces, as one document: a `--- text`,
/// `--- markdown` and `--- slack` section each (Slack as its blocks,
/// pretty-printed JSON).
fn three_surfaces(node: &Value) -> String {
    let slack: Value =
        serde_json::from_str(&render_node(Surface::Slack, node)).expect("slack renders JSON");
    format!(
        "--- text\n{}\n--- markdown\n{}\n--- slack\n{}",
        render_node(Surface::Text, node),
        render_node(Surface::Markdown, node),
        serde_json::to_string_pretty(&slack["blocks"]).expect("blocks serialize")
    )
}

#[test]
fn every_primitive_has_three_reference_examples() {
    let mut per_type: BTreeMap<String, usize> = BTreeMap::new();
    for (_, node) in examples() {
        *per_type
            .entry(node["type"].as_str().unwrap_or_default().to_owned())
            .or_default() += 1;
    }
    for primitive in runtime().primitives() {
        let count = per_type.get(primitive.type_name()).copied().unwrap_or(0);
        assert!(count >= 3, "{} has {count} examples", primitive.type_name());
    }
}

#[test]
fn reference_examples_render_on_every_string_surface() {
    let mut names = Vec::new();
    for (name, node) in examples() {
        assert!(!names.contains(&name), "{name} is used twice");
        insta::assert_snapshot!(name.clone(), three_surfaces(&node));
        names.push(name);
    }
}
