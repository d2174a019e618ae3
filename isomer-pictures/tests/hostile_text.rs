//! Hostile text in every text field of every slides primitive draws: no
//! panic, no hang, no unbounded memory, and a picture of the slide's size.
//!
//! For each example and each hostile text, every string of the example that
//! the composition still validates with is replaced by the text (fields
//! whose schema refuses it, such as enums and URLs, keep their value), and
//! the slide is drawn as PNG and SVG and measured for overflow. The examples
//! are each primitive's catalog example, plus every reference example of
//! the pack's tests that holds a text field the examples before it lack
//! (a pipeline's spans, a table's row groups), so every text field that any
//! example shows gets each hostile text.

use isomer_pictures::Pictures;
use isomer_sdk::{Runtime, SnapshotOptions};
use serde_json::{Value, json};

/// Markup, control characters, a 10,000-character run, right-to-left text
/// with a direction override, and emoji sequences.
fn hostile_texts() -> Vec<(&'static str, String)> {
    vec![
        (
            "html",
            "<script>alert(1)</script><b onclick=\"x()\">&amp;</b><style>*{display:none}</style><!--".to_owned(),
        ),
        (
            "control",
            "a\u{0}b\u{1}\u{7}\u{8}\u{b}\u{c}\u{1b}[31mc\r\n\t\u{7f}\u{85}\u{2028}\u{2029}\u{feff}\u{fffe}d".to_owned(),
        ),
        ("long", "W".repeat(5_000) + &"word ".repeat(1_000)),
        (
            "rtl",
            "مرحبا بالعالم שלום עולם \u{202e}override\u{202c} 123 ١٢٣".to_owned(),
        ),
        (
            "emoji",
            "🚀 👩‍👩‍👧‍👦 🏳️‍🌈 ✅ 🇯🇵 1️⃣ \u{1f3fd}".to_owned(),
        ),
    ]
}

/// The slide a catalog example is drawn on, as the gallery draws it.
fn on_slide(type_name: &str, example: &Value) -> Value {
    if type_name == "slideFrame" {
        return json!({"type": "view", "body": [example]});
    }
    json!({"type": "view", "body": [{"type": "slideFrame", "body": [example]}]})
}

/// The paths (object keys and array indexes) of every string leaf of
/// `value` but a node's `type`.
fn string_paths(value: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match value {
        Value::String(_) => out.push(path.clone()),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(json!(index));
                string_paths(item, path, out);
                path.pop();
            }
        }
        Value::Object(fields) => {
            for (key, field) in fields {
                if key == "type" {
                    continue;
                }
                path.push(json!(key));
                string_paths(field, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The shape of a string leaf's path: keys, and `[]` for any index.
fn shape(path: &[Value]) -> Vec<String> {
    path.iter()
        .map(|step| match step {
            Value::String(key) => key.clone(),
            _ => "[]".to_owned(),
        })
        .collect()
}

/// The (type, node) pairs hostile text goes into: each catalog example, then
/// each reference example with a text field (a string the schema accepts any
/// text in) that the examples of its type before it do not have.
fn examples(runtime: &Runtime) -> Vec<(String, Value)> {
    let reference: Value = serde_json::from_str(include_str!(
        "../../examples/slides/tests/examples/reference.json"
    ))
    .expect("the reference examples parse");
    let mut covered = std::collections::HashSet::new();
    let mut out = Vec::new();
    for entry in runtime.catalog() {
        let mut paths = Vec::new();
        string_paths(&entry.example, &mut Vec::new(), &mut paths);
        for path in paths {
            covered.insert((entry.type_name.clone(), shape(&path)));
        }
        out.push((entry.type_name, entry.example));
    }
    for named in reference.as_array().expect("a list of named examples") {
        let node = &named["node"];
        let type_name = node["type"].as_str().unwrap_or_default().to_owned();
        let mut paths = Vec::new();
        string_paths(node, &mut Vec::new(), &mut paths);
        let mut adds_a_text_field = false;
        for path in paths {
            let key = (type_name.clone(), shape(&path));
            if covered.contains(&key) {
                continue;
            }
            let mut candidate = node.clone();
            *at(&mut candidate, &path) = json!("any text");
            if runtime.validate(on_slide(&type_name, &candidate)).valid {
                covered.insert(key);
                adds_a_text_field = true;
            }
        }
        if adds_a_text_field {
            out.push((type_name, node.clone()));
        }
    }
    out
}

fn at<'v>(value: &'v mut Value, path: &[Value]) -> &'v mut Value {
    path.iter().fold(value, |value, step| match step {
        Value::String(key) => &mut value[key.as_str()],
        Value::Number(index) => &mut value[index.as_u64().unwrap() as usize],
        _ => unreachable!("paths hold keys and indexes"),
    })
}

/// `example` with every string the runtime accepts `text` in replaced by
/// it, and how many were.
fn poisoned(runtime: &Runtime, type_name: &str, example: &Value, text: &str) -> (Value, usize) {
    let mut paths = Vec::new();
    string_paths(example, &mut Vec::new(), &mut paths);
    let mut current = example.clone();
    let mut replaced = 0;
    for path in paths {
        let mut candidate = current.clone();
        *at(&mut candidate, &path) = json!(text);
        if runtime.validate(on_slide(type_name, &candidate)).valid {
            current = candidate;
            replaced += 1;
        }
    }
    (current, replaced)
}

/// Draws every example with hostile text `kind` in each of its text fields.
fn hostile_text_of_kind_draws(kind: &str) {
    let (kind, text) = hostile_texts()
        .into_iter()
        .find(|(name, _)| *name == kind)
        .expect("a hostile text of that kind");
    let runtime = isomer_slides::runtime().unwrap();
    let snapshot = runtime.snapshot().unwrap();
    let pictures = Pictures::new().unwrap();
    let examples = examples(&runtime);
    let mut drawn = 0;
    for (type_name, example) in &examples {
        let (example, replaced) = poisoned(&runtime, type_name, example, &text);
        if replaced == 0 {
            continue;
        }
        let slide = on_slide(type_name, &example);
        let render = snapshot
            .render(&slide, &SnapshotOptions::default())
            .unwrap_or_else(|error| panic!("{type_name} {kind}: {error}"));
        let png = pictures
            .png(&render)
            .unwrap_or_else(|error| panic!("{type_name} {kind}: {error}"));
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let svg = pictures
            .svg(&render)
            .unwrap_or_else(|error| panic!("{type_name} {kind}: {error}"));
        svg2pdf::usvg::Tree::from_str(&svg, &svg2pdf::usvg::Options::default())
            .unwrap_or_else(|error| panic!("{type_name} {kind}: the SVG does not parse: {error}"));
        pictures
            .overflow(&render)
            .unwrap_or_else(|error| panic!("{type_name} {kind}: {error}"));
        drawn += 1;
    }
    // Every example has at least one text field, so the text reaches each
    // example; the reference examples add to the 40 catalog ones.
    assert_eq!(runtime.catalog().len(), 40);
    assert!(examples.len() > 40, "{} examples", examples.len());
    assert_eq!(drawn, examples.len(), "{kind}");
}

// One test per kind of hostile text, so the test threads share them out.

#[test]
fn markup_in_every_field_of_every_primitive_draws() {
    hostile_text_of_kind_draws("html");
}

#[test]
fn control_characters_in_every_field_of_every_primitive_draw() {
    hostile_text_of_kind_draws("control");
}

#[test]
fn ten_thousand_characters_in_every_field_of_every_primitive_draw() {
    hostile_text_of_kind_draws("long");
}

#[test]
fn right_to_left_text_in_every_field_of_every_primitive_draws() {
    hostile_text_of_kind_draws("rtl");
}

#[test]
fn emoji_in_every_field_of_every_primitive_draw() {
    hostile_text_of_kind_draws("emoji");
}
