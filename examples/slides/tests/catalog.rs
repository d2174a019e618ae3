//! The pack's inventory: every primitive is registered once, grouped once,
//! has a catalog entry whose example validates, and the pack's schema and
//! catalog sizes are measured.

mod common;

use common::{findings, runtime, view};
use isomer_sdk::Surface;
use isomer_sdk::js_parity::compact_json;
use isomer_slides::groups::GROUPS;

const TYPES: [&str; 40] = [
    "slideFrame",
    "slideHeading",
    "slideStatement",
    "slideQuote",
    "slideTitle",
    "slideSection",
    "slideAgenda",
    "slideClosing",
    "slideSource",
    "slideSplit",
    "slideStack",
    "slideWindow",
    "slideList",
    "slideBulletList",
    "slideDefinitions",
    "slideColumns",
    "slideRoadmap",
    "slideTimeline",
    "slidePipeline",
    "slideSequence",
    "slideLanes",
    "slideGraph",
    "slideFanout",
    "slideTree",
    "slideLayers",
    "slideTerritoryGroup",
    "slideQuadrant",
    "slideStat",
    "slideStats",
    "slideDelta",
    "slideBars",
    "slideMatrix",
    "slideTable",
    "slideCode",
    "slideDiff",
    "slideCommand",
    "slideTranscript",
    "slideRender",
    "slideAnnotatedRender",
    "slideRenderGrid",
];

#[test]
fn registers_the_40_primitives_in_group_order() {
    let types: Vec<&str> = runtime()
        .primitives()
        .iter()
        .map(|p| p.type_name())
        .collect();
    assert_eq!(types, TYPES);
}

#[test]
fn groups_cover_every_type_once_with_the_reference_titles() {
    let titles: Vec<&str> = runtime()
        .groups()
        .iter()
        .map(|g| g.title.as_str())
        .collect();
    assert_eq!(
        titles,
        [
            "Slide structure",
            "Layout",
            "Text",
            "Diagrams",
            "Numbers",
            "Code and renders"
        ]
    );
    let grouped: Vec<&str> = GROUPS
        .iter()
        .flat_map(|(_, types)| types.iter().copied())
        .collect();
    assert_eq!(grouped, TYPES);
    for primitive in runtime().primitives() {
        let group = primitive
            .catalog_entry()
            .group
            .as_deref()
            .expect("every entry names its group");
        let (_, members) = GROUPS
            .iter()
            .find(|(title, _)| *title == group)
            .expect("a known group");
        assert!(
            members.contains(&primitive.type_name()),
            "{} in {group}",
            primitive.type_name()
        );
    }
}

#[test]
fn slack_is_native_where_the_reference_gives_blocks_and_a_fallback_elsewhere() {
    let fallback: Vec<&str> = runtime()
        .primitives()
        .iter()
        .filter(|p| !p.has_slack_renderer())
        .map(|p| p.type_name())
        .collect();
    assert_eq!(fallback, ["slideColumns"]);
}

#[test]
fn every_catalog_example_validates() {
    for primitive in runtime().primitives() {
        let example = &primitive.catalog_entry().example;
        assert_eq!(example["type"], primitive.type_name());
        assert_eq!(
            findings(&view(example.clone())),
            vec![],
            "{}",
            primitive.type_name()
        );
    }
}

#[test]
fn every_entry_says_when_to_use_it_and_names_an_alternative() {
    let types: Vec<&str> = runtime()
        .primitives()
        .iter()
        .map(|p| p.type_name())
        .collect();
    for primitive in runtime().primitives() {
        let entry = primitive.catalog_entry();
        assert!(
            !entry.purpose.is_empty() && !entry.use_when.is_empty(),
            "{}",
            entry.type_name
        );
        assert!(!entry.avoid_when.is_empty(), "{}", entry.type_name);
        for avoid in &entry.avoid_when {
            let names_a_primitive = types
                .iter()
                .any(|t| *t != entry.type_name && avoid.contains(t));
            let names_a_remedy = avoid.contains("split") || avoid.contains("cut");
            assert!(
                names_a_primitive || names_a_remedy,
                "{}: {avoid}",
                entry.type_name
            );
        }
    }
}

/// The `slideXxx` words of `text`.
fn primitive_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (start, _) in text.match_indices("slide") {
        let word: String = text[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if word.len() > 5 && word[5..].starts_with(|c: char| c.is_ascii_uppercase()) {
            names.push(word);
        }
    }
    names
}

#[test]
fn the_catalog_guide_rules_and_schema_name_only_registered_primitives() {
    let mut texts = vec![
        isomer_slides::AUTHORING_GUIDE.to_owned(),
        isomer_slides::AUTHORING_RULES.to_owned(),
        compact_json(runtime().authoring_schema()),
    ];
    texts.extend(
        runtime()
            .catalog()
            .iter()
            .map(|entry| serde_json::to_string(entry).expect("serializes")),
    );
    for text in &texts {
        for name in primitive_names(text) {
            assert!(TYPES.contains(&name.as_str()), "{name} is not registered");
        }
    }
}

#[test]
fn the_authoring_schema_describes_every_type() {
    let schema = runtime().authoring_schema();
    let defs = schema["$defs"].as_object().expect("$defs");
    for type_name in TYPES {
        assert!(defs.contains_key(type_name), "{type_name}");
    }
    assert!(defs.contains_key("bodyNode"));
    // Every def carries the pack's description, restating its cross-field
    // rules (JSON Schema cannot say them).
    let described: Vec<&str> = isomer_slides::schema::DESCRIBE
        .iter()
        .map(|(t, _)| *t)
        .collect();
    let mut sorted_types = TYPES.to_vec();
    sorted_types.sort_unstable();
    let mut sorted_described = described.clone();
    sorted_described.sort_unstable();
    assert_eq!(sorted_described, sorted_types);
    for (type_name, description) in isomer_slides::schema::DESCRIBE {
        assert_eq!(defs[*type_name]["description"], *description, "{type_name}");
    }
    assert_eq!(
        defs["slideFrame"]["description"],
        "One whole slide; a composition's body is exactly one slideFrame. Frames never nest. url must be an absolute http or https URL."
    );
}

/// Prints the two sizes the project reports (run with `--nocapture`):
/// the authoring schema as compact JSON, and the full catalog (every
/// entry, as compact JSON) — both in UTF-8 bytes. The ceilings keep an
/// accidental blow-up (an un-inlined def per field, say) from passing.
#[test]
fn measures_the_authoring_schema_and_the_catalog() {
    let schema = compact_json(runtime().authoring_schema()).len();
    let catalog_value = serde_json::to_value(runtime().catalog()).expect("entries serialize");
    let catalog = compact_json(&catalog_value).len();
    println!("authoring schema: {schema} bytes (compact JSON)");
    println!("full catalog: {catalog} bytes (compact JSON of 40 entries)");
    assert!(schema > 10_000 && schema < 120_000, "schema {schema}");
    assert!(catalog > 10_000 && catalog < 60_000, "catalog {catalog}");
}

/// A primitive's text and Markdown renderers default to its list
/// (`SlideNode::as_list`), which is empty for a primitive that has none:
/// every catalog example must print something on every string surface.
#[test]
fn every_catalog_example_prints_on_every_string_surface() {
    for primitive in runtime().primitives() {
        let node = &primitive.catalog_entry().example;
        for surface in [Surface::Text, Surface::Markdown] {
            let rendered = common::render_node(surface, node);
            assert!(
                !rendered.is_empty(),
                "{} on {surface:?}",
                primitive.type_name()
            );
        }
        let slack: serde_json::Value =
            serde_json::from_str(&common::render_node(Surface::Slack, node)).expect("JSON");
        assert_ne!(
            slack["blocks"],
            serde_json::json!([]),
            "{}",
            primitive.type_name()
        );
    }
}
