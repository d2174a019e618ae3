//! `Runtime::check`: model output through the engine's one pass, with the
//! findings of `parse` then `validate` of the sanitized copy, and renders
//! equal to `render`'s, read from the typed nodes the pass made (each node
//! deserialized once).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::{runtime, view};
use isomer_sdk::{
    Document, ErrorCode, Markdown, Pack, Primitive, RenderOptions, Rendered, Runtime, Surface,
    ValidationError,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

fn deck() -> Value {
    json!({
        "type": "view",
        "title": "Release",
        "subtitle": "Friday",
        "body": [
            { "type": "note", "text": "Deploys are frozen", "tone": "primary" },
            { "type": "group", "title": "Checks", "items": [
                { "type": "note", "text": "Read the runbook", "href": "/runbook" },
                { "type": "note", "text": "Only text", "surfaces": ["text"] }
            ] }
        ]
    })
}

#[test]
fn a_valid_composition_keeps_validates_warnings() {
    let rt = runtime();
    let deck = deck();
    let document = Document::new(deck.clone());
    let checked = rt.check(&document);
    assert!(checked.valid());
    assert_eq!(checked.composition(), Some(&deck));
    assert_eq!(checked.warnings(), rt.validate(&deck).warnings.as_slice());

    let hidden = view(json!([{ "type": "note", "text": "x", "surfaces": ["text"] }]));
    let document = Document::new(hidden.clone());
    let checked = rt.check(&document);
    assert!(checked.valid(), "warnings do not invalidate");
    let messages: Vec<&str> = checked
        .warnings()
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "composition renders no nodes on surface \"react\"",
            "composition renders no nodes on surface \"snapshot\"",
            "composition renders no nodes on surface \"markdown\"",
            "composition renders no nodes on surface \"slack\"",
        ]
    );
    assert_eq!(checked.warnings(), rt.validate(&hidden).warnings.as_slice());
}

#[test]
fn an_invalid_composition_gets_validates_errors() {
    let rt = runtime();
    let duplicated = view(json!([
        { "type": "note", "id": "a", "text": "one" },
        { "type": "note", "id": "a", "text": "two" }
    ]));
    let document = Document::new(duplicated.clone());
    let checked = rt.check(&document);
    assert!(!checked.valid());
    assert_eq!(
        checked.errors(),
        [
            ValidationError::new("body[1].id", "duplicates id \"a\" first used at body[0]")
                .with_node_type("note")
        ]
    );
    assert_eq!(checked.errors(), rt.validate(&duplicated).errors.as_slice());
    assert_eq!(checked.composition(), Some(&duplicated));

    let missing = view(json!([{ "type": "note" }]));
    assert_eq!(
        rt.check(&Document::new(missing.clone())).errors(),
        rt.validate(&missing).errors.as_slice()
    );

    let mut deep_node = json!([]);
    for _ in 0..64 {
        deep_node = json!([deep_node]);
    }
    let deep = view(json!([deep_node]));
    let document = Document::new(deep.clone());
    let checked = rt.check(&document);
    let refused = checked.errors();
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].path, "");
    assert_eq!(refused[0].message, "input nests deeper than 64 levels");
    assert_eq!(refused[0].code, Some(ErrorCode::InputOverBudget));
    assert_eq!(checked.composition(), None);
    assert_eq!(
        checked
            .render(Surface::Html, &RenderOptions::default())
            .unwrap_err()
            .errors,
        refused
    );
}

#[test]
fn rendering_the_check_equals_render_on_every_surface() {
    let rt = runtime();
    let deck = deck();
    let document = Document::new(deck.clone());
    let checked = rt.check(&document);
    let options = RenderOptions::default();
    for surface in Surface::ALL {
        assert_eq!(
            checked.render(surface, &options).unwrap(),
            rt.render(surface, &deck, &options).unwrap(),
            "{surface:?}"
        );
    }
    let Rendered::Text(text) = checked.render(Surface::Text, &options).unwrap() else {
        panic!("the text surface renders text");
    };
    assert_eq!(
        text,
        "RELEASE\n\nFriday\n\n● Deploys are frozen\n\nChecks\nRead the runbook\nOnly text"
    );
}

#[test]
fn an_invalid_copy_renders_as_render_does_in_each_mode() {
    let rt = runtime();
    let duplicated = view(json!([
        { "type": "note", "id": "a", "text": "one" },
        { "type": "note", "id": "a", "text": "two" }
    ]));
    let document = Document::new(duplicated.clone());
    let checked = rt.check(&document);
    for surface in Surface::ALL {
        assert_eq!(
            checked.render(surface, &RenderOptions::default()),
            rt.render(surface, &duplicated, &RenderOptions::default()),
            "{surface:?}"
        );
    }
    let Rendered::Html(html) = checked
        .render(Surface::Html, &RenderOptions::default())
        .unwrap()
    else {
        panic!("the html surface renders html");
    };
    assert_eq!(html.validation_errors, checked.errors());
}

#[test]
fn check_gives_what_parse_then_validate_give() {
    let rt = runtime();
    // Valid after dropping unknown keys of ordinary nested objects: the
    // copy is checked and rendered as itself.
    let loose = json!({
        "type": "view",
        "body": [ { "type": "group", "title": "t", "items": [ { "type": "note", "text": "x" } ], "layout": { "columns": 2, "gap": 4 } } ],
        "meta": { "source": "s", "color": "red", "provenance": { "query": "q", "extra": 1 } }
    });
    let document = Document::new(loose.clone());
    let checked = rt.check(&document);
    assert!(checked.valid());
    assert!(checked.sanitized());
    let copy = json!({
        "type": "view",
        "body": [ { "type": "group", "title": "t", "items": [ { "type": "note", "text": "x" } ], "layout": { "columns": 2 } } ],
        "meta": { "source": "s", "provenance": { "query": "q" } }
    });
    assert_eq!(checked.composition(), Some(&copy));
    assert_eq!(rt.parse(&loose).composition, Some(copy.clone()));
    assert_eq!(
        checked.render(Surface::Slack, &RenderOptions::default()),
        rt.render(Surface::Slack, &copy, &RenderOptions::default())
    );
    assert_eq!(checked.into_composition(), Some(copy));

    // Parses, then duplicate ids: the copy is kept with validate's errors.
    let duplicated = view(json!([
        { "type": "note", "id": "a", "text": "one" },
        { "type": "group", "title": "g", "items": [ { "type": "note", "id": "a", "text": "two" } ] }
    ]));
    let document = Document::new(duplicated.clone());
    let checked = rt.check(&document);
    assert_eq!(
        checked.errors(),
        [ValidationError::new(
            "body[1].items[0].id",
            "duplicates id \"a\" first used at body[0]"
        )
        .with_node_type("note")]
    );
    // Nothing was dropped: the composition is the checked value itself.
    assert!(!checked.sanitized());
    assert!(std::ptr::eq(checked.composition().unwrap(), &*document));
    assert_eq!(checked.into_composition(), Some(duplicated));

    // Refused by the schema, and by the budget: parse's findings, no copy.
    let missing = view(json!([{ "type": "note" }]));
    let document = Document::new(missing.clone());
    let checked = rt.check(&document);
    assert_eq!(
        checked.errors(),
        [ValidationError::new("body[0].text", "is required").with_node_type("note")]
    );
    assert_eq!(checked.errors(), rt.parse(&missing).errors.as_slice());
    assert!(!checked.sanitized());
    assert_eq!(checked.into_composition(), None);
    let wide = view(json!([{ "type": "note", "text": "x".repeat(1_000_001) }]));
    assert_eq!(
        rt.check(&Document::new(wide.clone())).errors()[0].message,
        "input holds more than 1000000 characters"
    );
}

/// How many `Counted` values were deserialized.
static DESERIALIZED: AtomicUsize = AtomicUsize::new(0);

/// A node whose deserializations are counted.
#[derive(JsonSchema)]
struct Counted {
    /// The text.
    text: String,
}

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Fields {
            text: String,
        }
        DESERIALIZED.fetch_add(1, Ordering::SeqCst);
        Fields::deserialize(deserializer).map(|fields| Counted { text: fields.text })
    }
}

#[test]
fn each_node_is_deserialized_once_for_its_refinements_and_every_render() {
    let counted = Primitive::builder::<Counted>("counted")
        .purpose("A counted note.")
        .example(json!({ "type": "counted", "text": "x" }))
        .refine(|node, ctx| {
            if node.text == "bad" {
                ctx.error("text", "is bad");
            }
        })
        .text(|node, _| node.text.clone())
        .markdown(|node, _| Markdown::paragraph(node.text.as_str()))
        .build()
        .unwrap();
    let rt = Runtime::builder()
        .pack(Pack::new("counted").primitive(counted).build().unwrap())
        .build()
        .unwrap();
    let value = view(json!([
        { "type": "counted", "text": "one" },
        { "type": "counted", "text": "two" }
    ]));
    DESERIALIZED.store(0, Ordering::SeqCst);
    let document = Document::new(value.clone());
    let checked = rt.check(&document);
    assert!(checked.valid());
    assert_eq!(DESERIALIZED.load(Ordering::SeqCst), 2, "once per node");
    for surface in Surface::ALL {
        checked.render(surface, &RenderOptions::default()).unwrap();
    }
    assert_eq!(DESERIALIZED.load(Ordering::SeqCst), 2, "renders reuse them");

    DESERIALIZED.store(0, Ordering::SeqCst);
    let text = rt.render_text(&value, &RenderOptions::default()).unwrap();
    assert_eq!(text, "one\n\ntwo");
    assert_eq!(DESERIALIZED.load(Ordering::SeqCst), 2);
}

/// Where the children of the last `Shelf` refined sit in memory (addresses
/// as numbers, compared with the document's own).
static SHELVED: std::sync::Mutex<Vec<usize>> = std::sync::Mutex::new(Vec::new());

/// A container with nested child slots.
#[derive(Deserialize, JsonSchema)]
struct Shelf {
    /// The nodes on the shelf.
    items: Vec<isomer_sdk::Node>,
    /// Rows of nodes.
    rows: Vec<Row>,
}

/// One row of a shelf.
#[derive(Deserialize, JsonSchema)]
struct Row {
    /// The nodes in the row.
    cells: Vec<isomer_sdk::Node>,
}

#[test]
fn the_typed_forms_of_a_document_share_its_child_nodes() {
    let shelf = Primitive::builder::<Shelf>("shelf")
        .purpose("Nodes on a shelf.")
        .example(json!({ "type": "shelf", "items": [], "rows": [] }))
        .refine(|node, _| {
            let nodes = node
                .items
                .iter()
                .chain(node.rows.iter().flat_map(|row| &row.cells));
            *SHELVED.lock().unwrap() = nodes
                .map(|node| std::ptr::from_ref::<Value>(node).addr())
                .collect();
        })
        .text(|node, scope| scope.text_all(node.items.iter().map(|n| &**n), "\n"))
        .markdown(|node, scope| scope.markdown_all(node.items.iter().map(|n| &**n)))
        .build()
        .unwrap();
    let rt = Runtime::builder()
        .packs([
            common::pack(),
            Pack::new("shelf").primitive(shelf).build().unwrap(),
        ])
        .build()
        .unwrap();
    let value = view(json!([
        { "type": "group", "title": "outer", "items": [
            { "type": "shelf",
              "items": [ { "type": "note", "text": "one" } ],
              "rows": [ { "cells": [ { "type": "note", "text": "two" } ] } ] }
        ] }
    ]));
    let address = |value: &Value| std::ptr::from_ref(value).addr();
    let document = Document::new(value.clone());
    let checked = rt.check(&document);
    assert!(checked.valid(), "{:?}", checked.errors());
    let shelf = &document["body"][0]["items"][0];
    assert_eq!(
        *SHELVED.lock().unwrap(),
        [
            address(&shelf["items"][0]),
            address(&shelf["rows"][0]["cells"][0])
        ],
        "the nodes are the document's own values"
    );
    // The same value checked borrowed gives its typed forms copies.
    assert!(rt.parse(&value).valid);
    let copies = SHELVED.lock().unwrap().clone();
    let borrowed = &value["body"][0]["items"][0];
    assert_ne!(copies[0], address(&borrowed["items"][0]));
    drop(checked);
    drop(document);
}
