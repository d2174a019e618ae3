//! Hostile JSON text and values against the sdk's front door: `parse_json`,
//! `check_input_budget`, the runtime's `parse`, `validate` and surfaces, and
//! the walker's child hooks.
//!
//! Every test runs on libtest's default thread stack (2 MiB), not a grown
//! one: a 1,000,000-deep value that parses, is refused and is dropped here
//! proves that no step recurses once per level.

mod common;

use common::{runtime, view};
use isomer_sdk::{
    DeepValue, ErrorCode, InputBudget, RenderOptions, Surface, ValidationError, ValidationMode,
    check_input_budget, drop_deep, parse_json,
};
use serde_json::{Value, json};

const MILLION: usize = 1_000_000;

/// The one finding every budget refusal is.
fn over_budget(message: &str) -> Vec<ValidationError> {
    vec![ValidationError::new("", message).with_code(ErrorCode::InputOverBudget)]
}

/// `[[[…]]]`, `depth` levels.
fn deep_array_text(depth: usize) -> String {
    let mut text = String::with_capacity(2 * depth);
    text.push_str(&"[".repeat(depth));
    text.push_str(&"]".repeat(depth));
    text
}

/// `{"a":{"a":…null…}}`, `depth` objects.
fn deep_object_text(depth: usize) -> String {
    let mut text = String::with_capacity(6 * depth + 4);
    text.push_str(&"{\"a\":".repeat(depth));
    text.push_str("null");
    text.push_str(&"}".repeat(depth));
    text
}

/// Checks a deep value through every entry point that takes a value, then
/// drops it (the caller's drop of the `DeepValue` is the last step).
fn refused_everywhere(value: &Value, message: &str) {
    let refusal = check_input_budget(value, InputBudget::default()).unwrap_err();
    assert_eq!(vec![refusal], over_budget(message));
    let runtime = runtime();
    let parsed = runtime.parse(value);
    assert!(!parsed.valid);
    assert_eq!(parsed.errors, over_budget(message));
    assert_eq!(parsed.composition, None);
    let checked = runtime.validate(value);
    assert!(!checked.valid);
    assert_eq!(checked.errors, over_budget(message));
    assert_eq!(checked.composition, None);
    // The html surface collects findings by default, but a budget refusal
    // refuses on every surface and in every mode.
    for surface in Surface::ALL {
        let error = runtime
            .render(
                surface,
                value,
                &RenderOptions {
                    on_validation_error: Some(ValidationMode::Collect),
                    ..RenderOptions::default()
                },
            )
            .unwrap_err();
        assert_eq!(error.errors, over_budget(message), "{surface:?}");
    }
}

#[test]
fn a_million_deep_array_parses_is_refused_and_drops() {
    let value = parse_json(&deep_array_text(MILLION)).unwrap();
    refused_everywhere(&value, "input nests deeper than 64 levels");
    drop(value);
}

#[test]
fn a_million_deep_object_parses_is_refused_and_drops() {
    let value = parse_json(&deep_object_text(MILLION)).unwrap();
    refused_everywhere(&value, "input nests deeper than 64 levels");
    drop(value);
}

#[test]
fn a_million_deep_body_node_is_refused_and_drops() {
    let text = format!(
        "{{\"type\":\"view\",\"body\":[{{\"type\":\"group\",\"title\":\"t\",\"items\":[{}]}}]}}",
        deep_array_text(MILLION)
    );
    let value = parse_json(&text).unwrap();
    refused_everywhere(&value, "input nests deeper than 64 levels");
}

#[test]
fn a_million_deep_value_unwrapped_is_dropped_by_drop_deep() {
    let value: DeepValue = parse_json(&deep_object_text(MILLION)).unwrap();
    drop_deep(value.into_inner());
}

#[test]
fn a_million_unclosed_brackets_are_a_syntax_error_and_drop_what_was_read() {
    let error = parse_json(&"[".repeat(MILLION)).unwrap_err();
    assert_eq!(
        error.message,
        "EOF while parsing a list at line 1 column 1000000"
    );
    assert_eq!((error.line, error.column), (1, MILLION));
    let error = parse_json(&format!("{}1,]", "[".repeat(MILLION))).unwrap_err();
    assert_eq!(error.message, "trailing comma at line 1 column 1000003");
}

#[test]
fn a_ten_megabyte_string_is_refused_by_the_character_budget() {
    let ten_mb = 10 * 1024 * 1024;
    let text = format!(
        "{{\"type\":\"view\",\"title\":\"{}\",\"body\":[]}}",
        "x".repeat(ten_mb)
    );
    let value = parse_json(&text).unwrap();
    assert_eq!(value["title"].as_str().map(str::len), Some(ten_mb));
    refused_everywhere(&value, "input holds more than 1000000 characters");
}

#[test]
fn a_hundred_thousand_keys_are_refused_by_the_value_budget() {
    let mut text = String::from("{\"type\":\"view\",\"body\":[],\"meta\":{");
    for key in 0..100_000 {
        if key > 0 {
            text.push(',');
        }
        text.push_str(&format!("\"k{key}\":{key}"));
    }
    text.push_str("}}");
    let value = parse_json(&text).unwrap();
    assert_eq!(
        value["meta"].as_object().map(|meta| meta.len()),
        Some(100_000)
    );
    // Insertion order survives: the last key is the last written.
    assert_eq!(
        value["meta"]
            .as_object()
            .unwrap()
            .keys()
            .next_back()
            .map(String::as_str),
        Some("k99999")
    );
    refused_everywhere(&value, "input holds more than 20000 values");
}

#[test]
fn lone_surrogate_escapes_are_syntax_errors_and_pairs_decode() {
    assert_eq!(
        parse_json(r#""\ud800""#).unwrap_err().message,
        "unexpected end of hex escape at line 1 column 8"
    );
    assert_eq!(
        parse_json(r#"{"type":"view","title":"a\udc00b","body":[]}"#)
            .unwrap_err()
            .message,
        "lone leading surrogate in hex escape at line 1 column 31"
    );
    // A high surrogate followed by something other than a low one.
    assert_eq!(
        parse_json(r#""\ud83d\u0041""#).unwrap_err().message,
        "lone leading surrogate in hex escape at line 1 column 13"
    );
    // A proper pair is one character (2 UTF-16 units for the budget).
    let value = parse_json(r#""\ud83d\ude00""#).unwrap();
    assert_eq!(*value, json!("😀"));
    assert_eq!(
        check_input_budget(&value, InputBudget::default())
            .unwrap()
            .characters,
        2
    );
    // The same escape inside 200 levels: same words, shifted by the 200
    // brackets.
    let deep = format!("{}\"\\ud800\"{}", "[".repeat(200), "]".repeat(200));
    assert_eq!(
        parse_json(&deep).unwrap_err().message,
        "unexpected end of hex escape at line 1 column 208"
    );
}

#[test]
fn a_byte_order_mark_before_the_json_is_a_syntax_error() {
    let error = parse_json("\u{feff}{\"type\":\"view\",\"body\":[]}").unwrap_err();
    assert_eq!(error.message, "expected value at line 1 column 1");
    assert_eq!((error.line, error.column), (1, 1));
}

#[test]
fn numbers_beyond_a_double_are_errors_and_tiny_ones_are_zero() {
    assert_eq!(
        parse_json("1e400").unwrap_err().message,
        "number out of range at line 1 column 5"
    );
    assert_eq!(
        parse_json(r#"{"type":"view","body":[],"meta":{"n":-1e400}}"#)
            .unwrap_err()
            .message,
        "number out of range at line 1 column 43"
    );
    assert_eq!(*parse_json("1e-400").unwrap(), json!(0.0));
    // Huge integers become doubles rather than errors.
    assert_eq!(
        *parse_json("123456789012345678901234567890").unwrap(),
        json!(1.2345678901234568e29)
    );
}

#[test]
fn duplicate_keys_keep_the_first_position_and_the_last_value() {
    let runtime = runtime();
    // A duplicated `type` on a node: the last one is the node's type.
    let value = parse_json(
        r#"{"type":"view","body":[{"type":"note","text":"a","type":"group","text":"b"}]}"#,
    )
    .unwrap();
    assert_eq!(
        *value,
        json!({"type": "view", "body": [{"type": "group", "text": "b"}]})
    );
    let keys: Vec<&str> = value["body"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["type", "text"]);
    let checked = runtime.validate(&value);
    assert_eq!(
        checked.errors,
        vec![
            ValidationError::new("body[0].title", "is required").with_node_type("group"),
            ValidationError::new("body[0].items", "is required").with_node_type("group"),
            ValidationError::new(
                "body[0]",
                "has unrecognized key(s): text; its fields are title, items, layout"
            )
            .with_node_type("group"),
        ]
    );
    // A duplicated root `type` that ends on something else than `view`.
    let value = parse_json(r#"{"type":"view","body":[],"type":"deck"}"#).unwrap();
    assert_eq!(
        runtime.validate(&value).errors,
        vec![
            ValidationError::new("type", "must be one of: view"),
            ValidationError::new("body", "must contain at least one node"),
        ]
    );
}

#[test]
fn child_hooks_fed_malformed_containers_yield_no_children() {
    let runtime = runtime();
    let walker = runtime.walker();
    let malformed = [
        json!({"type": "group", "title": "t"}),
        json!({"type": "group", "title": "t", "items": "not a list"}),
        json!({"type": "group", "title": "t", "items": {"type": "note", "text": "x"}}),
        json!({"type": "group", "title": "t", "items": null}),
        json!({"type": "group", "title": "t", "items": 42}),
        json!({"type": "group", "title": 7, "items": [{"type": "note", "text": "x"}], "layout": "wide"}),
        json!({"type": 42, "items": [{"type": "note", "text": "x"}]}),
        json!(["group"]),
    ];
    for node in &malformed {
        let children: Vec<String> = walker
            .children(node)
            .into_iter()
            .map(|child| child.path)
            .collect();
        // A group whose `items` is a list keeps its children even when other
        // fields are wrong; anything else yields none.
        let expected: Vec<&str> = if node["items"].is_array() && node["type"] == "group" {
            vec!["items[0]"]
        } else {
            vec![]
        };
        assert_eq!(children, expected, "{node}");
    }
    // A list holding non-nodes: the hook hands over only the objects, and
    // the validator reports every element with its full path.
    let odd =
        json!({"type": "group", "title": "t", "items": [42, "x", null, {"text": "no type"}, []]});
    let paths: Vec<String> = walker
        .children(&odd)
        .into_iter()
        .map(|child| child.path)
        .collect();
    assert_eq!(paths, ["items[3]"]);
    let checked = runtime.validate(&view(json!([odd])));
    let findings: Vec<(&str, &str)> = checked
        .errors
        .iter()
        .map(|error| (error.path.as_str(), error.message.as_str()))
        .collect();
    assert_eq!(
        findings,
        [
            (
                "body[0].items[0]",
                "Invalid input: expected object, received number"
            ),
            (
                "body[0].items[1]",
                "Invalid input: expected object, received string"
            ),
            (
                "body[0].items[2]",
                "Invalid input: expected object, received null"
            ),
            ("body[0].items[3].type", "must be one of: note, group"),
            (
                "body[0].items[4]",
                "Invalid input: expected object, received array"
            ),
            ("body[0].items", "must have at most 3 items"),
        ]
    );
    // A malformed container validates to findings, never a panic, and the
    // html surface (which collects) still renders the envelope.
    for node in malformed {
        let composition = view(json!([node]));
        assert!(!runtime.validate(&composition).valid, "{composition}");
        let html = runtime
            .render_html(&composition, &RenderOptions::default())
            .unwrap();
        assert!(
            html.html
                .starts_with("<section class=\"isomer framed\" role=\"group\""),
            "{}",
            html.html
        );
        assert!(html.html.ends_with("</div></section>"), "{}", html.html);
        assert!(!html.validation_errors.is_empty());
    }
}

#[test]
fn hostile_text_is_refused_by_validate_json_before_it_is_built() {
    let runtime = runtime();
    let numbers: Vec<String> = (0..200_000).map(|n| n.to_string()).collect();
    let cases = [
        (
            deep_object_text(MILLION),
            "input nests deeper than 64 levels",
        ),
        (
            deep_array_text(MILLION),
            "input nests deeper than 64 levels",
        ),
        (
            format!("[{}]", numbers.join(",")),
            "input holds more than 20000 values",
        ),
        (
            format!(
                "{{\"type\":\"view\",\"title\":\"{}\",\"body\":[]}}",
                "x".repeat(MILLION)
            ),
            "input holds more than 1000000 characters",
        ),
    ];
    for (text, message) in cases {
        let checked = runtime.validate_json(&text).unwrap();
        assert!(!checked.valid);
        assert_eq!(checked.errors, over_budget(message));
        assert!(checked.warnings.is_empty());
        assert_eq!(checked.composition, None);
    }
}

#[test]
fn validate_json_within_the_budget_is_validate_of_the_value() {
    let runtime = runtime();
    for text in [
        r#"{"type":"view","body":[{"type":"note","text":"a"}]}"#,
        r#"{"type":"view","body":[{"type":"note","text":""},{"type":"group"}]}"#,
        r#"{"type":"view","body":[{"type":"group","title":"g","items":[]}]}"#,
    ] {
        let value = parse_json(text).unwrap();
        assert_eq!(
            runtime.validate_json(text).unwrap(),
            runtime.validate(&value)
        );
    }
    // At the value limit (the root, `"view"`, `body`, `extra` and its
    // zeros: 20,000 values), one past it, and a repeated key whose first
    // value the reader counted but the value no longer holds.
    let zeros = |count: usize| vec!["0"; count].join(",");
    let with_extra =
        |count: usize| format!(r#"{{"type":"view","body":[],"extra":[{}]}}"#, zeros(count));
    for (text, refused) in [
        (with_extra(19_996), false),
        (with_extra(19_997), true),
        (
            format!(
                r#"{{"type":"view","body":[],"a":[{}],"a":1}}"#,
                zeros(19_990)
            ),
            false,
        ),
    ] {
        let value = parse_json(&text).unwrap();
        let checked = runtime.validate_json(&text).unwrap();
        assert_eq!(checked, runtime.validate(&value));
        let messages: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages.contains(&"input holds more than 20000 values"),
            refused,
            "{messages:?}"
        );
    }
    // Not JSON: parse_json's error, even past a limit.
    let text = format!("{}x", deep_object_text(MILLION));
    assert_eq!(
        runtime.validate_json(&text).unwrap_err(),
        parse_json(&text).unwrap_err()
    );
}
