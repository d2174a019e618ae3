//! Provider dialects of a typed tool with nested optionals, an optional
//! enum, an optional integer and an array of maps: each declaration, and
//! each called back with that provider's argument shape.

// The handlers echo their input with `Debug`, which the dead-code lint does
// not count as reading the fields.
#![allow(dead_code)]

use isomer_sdk::Tool;
use isomer_sdk::tool::provider::{Provider, provider_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Plain,
    Bold,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Label {
    text: Option<String>,
    kind: Option<Kind>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Input {
    label: Option<Label>,
    rows: Vec<Map<String, Value>>,
}

fn tool() -> Tool {
    Tool::from_fn("shape", "Echoes its input.", |input: Input| async move {
        format!("{input:?}")
    })
    .unwrap()
}

fn call(tool: &Tool, arguments: Value) -> (bool, String) {
    let result = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(tool.call(arguments));
    (result.is_error, result.first_text().unwrap().to_owned())
}

#[test]
fn gemini_writes_an_optional_enum_as_nullable_with_string_options_only() {
    let declaration = provider_tool(&tool(), Provider::Gemini);
    assert_eq!(
        declaration["parameters"]["properties"]["label"]["properties"]["kind"],
        json!({ "nullable": true, "type": "string", "enum": ["plain", "bold"] })
    );
}

#[test]
fn strict_arguments_with_maps_in_an_array_as_json_text_are_read_as_objects() {
    let tool = tool();
    for provider in [
        Provider::OpenAi,
        Provider::AnthropicStrict,
        Provider::Gemini,
    ] {
        let declaration = provider_tool(&tool, provider);
        let schema = declaration
            .get("parameters")
            .or_else(|| declaration.get("input_schema"))
            .unwrap();
        assert_eq!(
            schema["properties"]["rows"]["items"],
            json!({ "type": "string", "description": "Write the JSON object as JSON text, in a string." }),
            "{provider:?}"
        );
    }
    // All keys present, `null` for the optional ones, each map as JSON text.
    assert_eq!(
        call(
            &tool,
            json!({
                "label": { "text": null, "kind": null },
                "rows": ["{\"a\":1}", "{}"]
            })
        ),
        (
            false,
            "Input { label: Some(Label { text: None, kind: None }), rows: [{\"a\": Number(1)}, {}] }"
                .to_owned()
        )
    );
    // Text that is not an object is left for the schema check.
    assert_eq!(
        call(&tool, json!({ "label": null, "rows": ["[1]"] })),
        (
            true,
            "the input does not match the input schema of tool \"shape\":\n- at rows[0]: \"[1]\" is not of type \"object\""
                .to_owned()
        )
    );
}

#[test]
fn loose_objects_and_nulls_inside_an_any_of_variant_are_read() {
    let schema = json!({
        "type": "object",
        "properties": {
            "target": {
                "anyOf": [
                    { "type": "string" },
                    {
                        "type": "object",
                        "properties": {
                            "note": { "type": "string" },
                            "data": { "type": "object" }
                        },
                        "additionalProperties": false
                    }
                ]
            }
        },
        "required": ["target"],
        "additionalProperties": false
    });
    let tool = Tool::new("any", "Echoes its input.", schema, |input| {
        Box::pin(async move { isomer_sdk::ToolResult::text(input.to_string()) })
    });
    assert_eq!(
        call(
            &tool,
            json!({ "target": { "note": null, "data": "{\"x\":true}" } })
        ),
        (false, "{\"target\":{\"data\":{\"x\":true}}}".to_owned())
    );
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Shape {
    Circle { radius: u8 },
    Square(u8),
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Drawing {
    shape: Option<Shape>,
}

#[test]
fn a_data_carrying_enum_is_declared_as_any_of_in_every_restricted_dialect() {
    let tool = Tool::from_fn("draw", "Draws a shape.", |input: Drawing| async move {
        format!("{input:?}")
    })
    .unwrap();
    assert_eq!(
        tool.input_schema["properties"]["shape"]["anyOf"][0]["oneOf"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    let square = json!({
        "type": "object",
        "properties": { "square": { "type": "integer", "minimum": 0, "maximum": 255 } },
        "required": ["square"]
    });
    for provider in [
        Provider::OpenAi,
        Provider::AnthropicStrict,
        Provider::Gemini,
    ] {
        let declaration = provider_tool(&tool, provider);
        assert!(!declaration.to_string().contains("oneOf"), "{provider:?}");
        let shape = &declaration
            .get("parameters")
            .or_else(|| declaration.get("input_schema"))
            .unwrap()["properties"]["shape"];
        // schemars already wrote the `null` variant: no dialect adds a second one.
        let variants = &shape["anyOf"][0]["anyOf"];
        assert_eq!(variants.as_array().map(Vec::len), Some(2), "{provider:?}");
        if provider == Provider::Gemini {
            assert_eq!(variants[1], square);
            // Gemini has no `null` type: the `null` variant is `nullable`.
            assert_eq!(shape["nullable"], json!(true));
            assert_eq!(shape["anyOf"].as_array().map(Vec::len), Some(1));
            assert!(!declaration.to_string().contains("\"null\""));
        }
    }
    assert_eq!(
        call(&tool, json!({ "shape": { "circle": { "radius": 3 } } })),
        (
            false,
            "Drawing { shape: Some(Circle { radius: 3 }) }".to_owned()
        )
    );
    assert_eq!(
        call(&tool, json!({ "shape": null })),
        (false, "Drawing { shape: None }".to_owned())
    );
}

/// Strict dialects write every nullable as a union with the `null` type, never
/// a `type` list (Anthropic's SDK fails on `type: ["string","null"]` when it
/// rewrites a schema for strict tool use): the optional properties made
/// nullable, schemars' `Option` fields, and the optional enum alike.
#[test]
fn strict_dialects_write_nullables_as_any_of_with_the_null_type() {
    let tool = tool();
    for provider in [Provider::OpenAi, Provider::AnthropicStrict] {
        let declaration = provider_tool(&tool, provider);
        let schema = declaration
            .get("parameters")
            .or_else(|| declaration.get("input_schema"))
            .unwrap();
        assert_eq!(
            schema["properties"]["label"]["anyOf"][0]["properties"],
            json!({
                "text": { "anyOf": [{ "type": "string" }, { "type": "null" }] },
                "kind": {
                    "anyOf": [
                        { "type": "string", "enum": ["plain", "bold"] },
                        { "type": "null" }
                    ]
                }
            }),
            "{provider:?}"
        );
        let text = declaration.to_string();
        assert!(!text.contains("\"type\":["), "{provider:?}: {text}");
        assert!(!text.contains("null]"), "{provider:?}: {text}");
    }
    insta::assert_json_snapshot!(
        "anthropic_strict_shape",
        provider_tool(&tool, Provider::AnthropicStrict)
    );
    // The arguments in that shape are read back as the tool's own.
    assert_eq!(
        call(
            &tool,
            json!({ "label": { "text": "Hi", "kind": "bold" }, "rows": [] })
        ),
        (
            false,
            "Input { label: Some(Label { text: Some(\"Hi\"), kind: Some(Bold) }), rows: [] }"
                .to_owned()
        )
    );
}

/// A loose object that may be `null` stays nullable as JSON text, in each
/// dialect's own form (Gemini has no `null` type and no `type` list).
#[test]
fn a_nullable_loose_object_is_nullable_json_text_in_each_dialect() {
    let schema = json!({
        "type": "object",
        "properties": {
            "input": { "type": ["object", "null"], "description": "The view's input." }
        },
        "required": ["input"]
    });
    let tool = Tool::new("view", "Builds a view.", schema, |input| {
        Box::pin(async move { isomer_sdk::ToolResult::text(input.to_string()) })
    });
    let input = |provider| {
        let declaration = provider_tool(&tool, provider);
        let schema = declaration
            .get("parameters")
            .or_else(|| declaration.get("input_schema"))
            .unwrap()
            .clone();
        schema["properties"]["input"].clone()
    };
    let description = "The view's input. Write the JSON object as JSON text, in a string.";
    for provider in [Provider::OpenAi, Provider::AnthropicStrict] {
        assert_eq!(
            input(provider),
            json!({ "description": description, "anyOf": [{ "type": "string" }, { "type": "null" }] }),
            "{provider:?}"
        );
    }
    assert_eq!(
        input(Provider::Gemini),
        json!({ "type": "string", "description": description, "nullable": true })
    );
}
