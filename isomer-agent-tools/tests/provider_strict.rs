//! The slides agent tools declared in the strict provider dialects
//! (`isomer_sdk::tool::provider`): no nullable is a `type` list, which
//! Anthropic's SDK fails on when it rewrites a schema for strict tool use
//! (it was found on `isomer_request_view`'s optional `input`); each is
//! `anyOf` with `{"type":"null"}`.

use std::sync::Arc;

use isomer_agent_tools::{IsomerToolsOptions, Tool, create_isomer_tools};
use isomer_sdk::View;
use isomer_sdk::tool::provider::{Provider, provider_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize, JsonSchema)]
struct OneSlideInput {
    title: String,
}

/// The six tools over the slides runtime, with one view so the view tools are offered.
fn tools() -> Vec<Tool> {
    let runtime = isomer_slides::runtime().unwrap();
    runtime
        .views()
        .register(
            View::builder("one-slide", "One slide")
                .answers(["show a slide"])
                .build_with_input(|_: (), input: OneSlideInput| async move {
                    json!({"type": "view", "title": input.title, "body": []})
                }),
        )
        .unwrap();
    let options =
        IsomerToolsOptions::new(Arc::new(runtime)).with_frame(isomer_slides::slide_deck_frame());
    create_isomer_tools(options).unwrap()
}

/// Every `type` in `schema` and below that is a list, with its path.
fn type_lists(path: &str, schema: &Value, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "type" && value.is_array() {
                    found.push(format!("{path}: {value}"));
                }
                type_lists(&format!("{path}.{key}"), value, found);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                type_lists(&format!("{path}[{index}]"), item, found);
            }
        }
        _ => {}
    }
}

#[test]
fn no_strict_declaration_has_a_type_list() {
    let tools = tools();
    assert_eq!(tools.len(), 6);
    let mut found = Vec::new();
    let mut null_variants = 0;
    for provider in [Provider::OpenAi, Provider::AnthropicStrict] {
        for tool in &tools {
            let declaration = provider_tool(tool, provider);
            type_lists(
                &format!("{provider:?} {}", tool.name),
                &declaration,
                &mut found,
            );
            null_variants += declaration
                .to_string()
                .matches(r#"{"type":"null"}"#)
                .count();
        }
    }
    assert_eq!(found, Vec::<String>::new());
    // The two optional properties, render's `theme` and request_view's `input`, are each
    // nullable the one way, in both dialects.
    assert_eq!(null_variants, 4);
    for provider in [Provider::OpenAi, Provider::AnthropicStrict] {
        let render = tools
            .iter()
            .find(|tool| tool.name == "isomer_render")
            .unwrap();
        let declaration = provider_tool(render, provider);
        let schema = declaration
            .get("parameters")
            .or_else(|| declaration.get("input_schema"))
            .unwrap();
        assert_eq!(
            schema["properties"]["theme"]["anyOf"][1],
            json!({ "type": "null" }),
            "{provider:?}"
        );
    }
}

#[test]
fn request_view_declared_for_anthropic_strict() {
    let tools = tools();
    let request_view = tools
        .iter()
        .find(|tool| tool.name == "isomer_request_view")
        .unwrap();
    insta::assert_json_snapshot!(
        "request_view_anthropic_strict",
        provider_tool(request_view, Provider::AnthropicStrict)
    );
}
