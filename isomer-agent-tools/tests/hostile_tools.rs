//! Hostile tool input: every agent tool (the slides runtime with one
//! registered view, so all six exist) called with input a model could send:
//! non-objects, wrong types, unknown fields, markup in names, a 10 MB
//! string, 100,000 keys, and compositions and view inputs 1,000,000 levels
//! deep. Each call answers a result, never a panic or a crash;
//! the asserted text is the exact answer.
//!
//! The calls run on the test thread through a current-thread executor, so
//! the deep cases prove nothing in the tool path recurses once per level on
//! libtest's default 2 MiB stack.

use std::future::Future;
use std::sync::Arc;

use isomer_agent_tools::{IsomerToolsOptions, Tool, ToolContent, ToolResult, create_isomer_tools};
use isomer_sdk::{Runtime, View, parse_json};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

const TOO_DEEP: &str = "input nests deeper than 64 levels";

/// The input of the `echo` view.
#[derive(Deserialize, JsonSchema)]
struct EchoInput {
    title: String,
}

fn tools() -> Vec<Tool> {
    let runtime: Runtime = isomer_slides::runtime().unwrap();
    runtime
        .views()
        .register(
            View::builder("echo", "Echo")
                .answers(["echo a title"])
                .build_with_input(|_: (), input: EchoInput| async move {
                    json!({"type": "view", "body": [{"type": "slideFrame", "body": [
                        {"type": "slideStatement", "text": input.title}
                    ]}]})
                }),
        )
        .unwrap();
    let options =
        IsomerToolsOptions::new(Arc::new(runtime)).with_frame(isomer_slides::slide_deck_frame());
    create_isomer_tools(options).unwrap()
}

fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

fn call(tools: &[Tool], name: &str, input: Value) -> ToolResult {
    let tool = tools
        .iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"));
    block_on(tool.call(input))
}

fn text(result: &ToolResult) -> &str {
    match result.content.as_slice() {
        [ToolContent::Text { text }] => text,
        other => panic!("not one text: {other:?}"),
    }
}

/// `(is_error, text)` of a call.
fn answer(tools: &[Tool], name: &str, input: Value) -> (bool, String) {
    let result = call(tools, name, input);
    (result.is_error, text(&result).to_owned())
}

/// `{"composition": {"type": "view", "body": [<deep>]}}` with `depth`
/// nested arrays, parsed by the deep-safe parser (building it with
/// `json!` would recurse).
fn deep_composition_input(depth: usize) -> Value {
    let text = format!(
        "{{\"composition\":{{\"type\":\"view\",\"body\":[{}{}]}}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    parse_json(&text).unwrap().into_inner()
}

#[test]
fn every_tool_answers_non_object_input_as_a_failed_call() {
    let tools = tools();
    let names: Vec<String> = tools.iter().map(|tool| tool.name.clone()).collect();
    assert_eq!(
        names,
        [
            "isomer_authoring_guide",
            "isomer_describe_primitives",
            "isomer_validate",
            "isomer_render",
            "isomer_list_views",
            "isomer_request_view",
        ]
    );
    for name in &names {
        for input in [json!(42), json!("<script>"), json!([{}])] {
            assert_eq!(
                answer(&tools, name, input.clone()),
                refused(
                    name,
                    &[&format!("at the root: {input} is not of type \"object\"")]
                ),
            );
        }
        // `null` is read as absent arguments, the same as `{}`.
        assert_eq!(
            answer(&tools, name, json!(null)),
            answer(&tools, name, json!({})),
            "{name}"
        );
    }
}

/// `the input does not match …` as `Tool::call` words a schema refusal.
fn refused(name: &str, lines: &[&str]) -> (bool, String) {
    let mut text = format!("the input does not match the input schema of tool \"{name}\":");
    for line in lines {
        text.push_str("\n- ");
        text.push_str(line);
    }
    (true, text)
}

#[test]
fn wrong_types_unknown_fields_and_markup_get_exact_answers() {
    let tools = tools();
    let empty = json!({"type": "view", "body": []});
    let many: Vec<String> = (0..100_000).map(|i| format!("t{i}")).collect();
    let cases: Vec<(&str, Value, (bool, String))> = vec![
        (
            "isomer_validate",
            json!({"composition": 42}),
            refused(
                "isomer_validate",
                &["at composition: 42 is not of type \"object\""],
            ),
        ),
        (
            "isomer_validate",
            json!({}),
            refused(
                "isomer_validate",
                &["at the root: \"composition\" is a required property"],
            ),
        ),
        (
            "isomer_render",
            json!({"composition": empty, "format": "<script>"}),
            refused(
                "isomer_render",
                &[
                    "at format: \"<script>\" is not one of \"text\", \"markdown\", \"html\", \"slack\"",
                ],
            ),
        ),
        (
            "isomer_render",
            json!({"composition": empty, "format": "html", "theme": "\"><script>"}),
            refused(
                "isomer_render",
                &["at theme: \"\\\"><script>\" is not one of \"auto\", \"light\", \"dark\""],
            ),
        ),
        (
            "isomer_describe_primitives",
            json!({"types": []}),
            refused(
                "isomer_describe_primitives",
                &["at types: [] has less than 1 item"],
            ),
        ),
        (
            "isomer_describe_primitives",
            json!({"types": many}),
            refused(
                "isomer_describe_primitives",
                &["at types: value has more than 12 items"],
            ),
        ),
        (
            "isomer_request_view",
            json!({"id": "<script>"}),
            (true, "Unknown view \"<script>\"".to_owned()),
        ),
        (
            "isomer_request_view",
            json!({"id": "echo", "input": {"title": 42}}),
            (
                true,
                serde_json::to_string_pretty(&json!({
                    "error": "Invalid input for view \"echo\":",
                    "errors": ["title Invalid input: expected string, received number"]
                }))
                .unwrap(),
            ),
        ),
    ];
    let mut wrong = Vec::new();
    for (name, input, expected) in cases {
        let got = answer(&tools, name, input.clone());
        if got != expected {
            wrong.push(format!(
                "{name} {input:.200}:\n  got {got:?}\n want {expected:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));

    // An unknown type, however it is spelled, is named back as JSON data
    // beside the known ones.
    let known: Vec<String> = isomer_slides::runtime()
        .unwrap()
        .catalog()
        .into_iter()
        .map(|entry| entry.type_name)
        .collect();
    assert_eq!(
        answer(
            &tools,
            "isomer_describe_primitives",
            json!({"types": ["<script>alert(1)</script>"]})
        ),
        (
            true,
            serde_json::to_string_pretty(&json!({
                "error": "Unknown primitive types.",
                "unknown": ["<script>alert(1)</script>"],
                "known": known,
            }))
            .unwrap()
        )
    );
    // The guide takes no input: an unknown key is refused by name, as on
    // every tool.
    assert_eq!(
        answer(
            &tools,
            "isomer_authoring_guide",
            json!({"extra": "<script>"}),
        ),
        (
            true,
            "the input does not match the input schema of tool \"isomer_authoring_guide\":\n\
             - at the root: Additional properties are not allowed ('extra' was unexpected)"
                .to_owned()
        )
    );
    assert!(!answer(&tools, "isomer_authoring_guide", json!({})).0);
}

#[test]
fn a_deep_composition_is_refused_by_validate_and_render() {
    // 1,000 levels: the handlers' own path (the million-deep versions
    // below go through the sdk guard's deep-input thread).
    let tools = tools();
    let (is_error, text) = answer(&tools, "isomer_validate", deep_composition_input(1_000));
    assert!(!is_error);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"valid": false, "errors": [TOO_DEEP], "warnings": []})
    );
    let mut input = deep_composition_input(1_000);
    input["format"] = json!("html");
    let (is_error, text) = answer(&tools, "isomer_render", input);
    assert!(is_error);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"valid": false, "errors": [TOO_DEEP]})
    );
}

#[test]
fn a_million_deep_composition_is_refused_by_validate() {
    let tools = tools();
    let (is_error, text) = answer(&tools, "isomer_validate", deep_composition_input(1_000_000));
    assert!(!is_error);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"valid": false, "errors": [TOO_DEEP], "warnings": []})
    );
}

#[test]
fn a_million_deep_composition_is_refused_by_render() {
    let tools = tools();
    let mut input = deep_composition_input(1_000_000);
    input["format"] = json!("html");
    let (is_error, text) = answer(&tools, "isomer_render", input);
    assert!(is_error);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"valid": false, "errors": [TOO_DEEP]})
    );
}

/// `{"id": "echo", "input": {"title": <depth nested arrays>}}`.
fn deep_view_input(depth: usize) -> Value {
    let text = format!(
        "{{\"id\":\"echo\",\"input\":{{\"title\":{}{}}}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    parse_json(&text).unwrap().into_inner()
}

/// How `isomer_request_view` refuses an input over the depth budget.
fn view_input_too_deep() -> (bool, String) {
    (
        true,
        serde_json::to_string_pretty(&json!({
            "error": "Invalid input for view \"echo\":",
            "errors": [TOO_DEEP]
        }))
        .unwrap(),
    )
}

#[test]
fn a_deep_view_input_is_refused_by_the_budget() {
    let tools = tools();
    assert_eq!(
        answer(&tools, "isomer_request_view", deep_view_input(1_000)),
        view_input_too_deep()
    );
}

#[test]
fn a_million_deep_view_input_is_refused() {
    let tools = tools();
    assert_eq!(
        answer(&tools, "isomer_request_view", deep_view_input(1_000_000)),
        view_input_too_deep()
    );
}

#[test]
fn huge_and_wide_compositions_are_refused_by_the_budget() {
    let tools = tools();
    let huge =
        json!({"composition": {"type": "view", "title": "x".repeat(10 * 1024 * 1024), "body": []}});
    let (_, text) = answer(&tools, "isomer_validate", huge);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"valid": false, "errors": ["input holds more than 1000000 characters"], "warnings": []})
    );
    let meta: serde_json::Map<String, Value> =
        (0..100_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let wide = json!({"composition": {"type": "view", "body": [], "meta": meta}});
    let (_, text) = answer(&tools, "isomer_validate", wide);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"valid": false, "errors": ["input holds more than 20000 values"], "warnings": []})
    );
}
