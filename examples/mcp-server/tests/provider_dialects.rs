//! The six tools the server serves, declared for each provider by
//! `provider_tool`: every emitted declaration is checked against that
//! provider's documented rules (written out below, each with a link to the
//! documentation it comes from), and a call with the provider's argument
//! shape (every key present, `null` for an optional one left out, a loose
//! object as JSON text) goes through the tool's handler and answers what the
//! MCP-shaped call answers.

use std::collections::BTreeSet;

use isomer_mcp_server::slides_server;
use isomer_sdk::tool::provider::{Provider, provider_tool};
use isomer_sdk::{Tool, ToolResult};
use serde_json::{Map, Value, json};

fn tools() -> Vec<Tool> {
    slides_server().unwrap().tools().to_vec()
}

fn call(tool: &Tool, arguments: Value) -> ToolResult {
    futures::executor::block_on(tool.call(arguments))
}

/// Walks every schema in `root` (the root, `properties`, `items`, `anyOf`
/// members) with its path.
fn each_schema(root: &Value, mut visit: impl FnMut(&str, &Map<String, Value>)) {
    let mut pending = vec![("parameters".to_owned(), root)];
    while let Some((path, schema)) = pending.pop() {
        let Value::Object(object) = schema else {
            panic!("{path}: a schema must be an object, got {schema}");
        };
        visit(&path, object);
        if let Some(Value::Object(properties)) = object.get("properties") {
            for (name, property) in properties {
                pending.push((format!("{path}.{name}"), property));
            }
        }
        if let Some(items) = object.get("items") {
            pending.push((format!("{path}[]"), items));
        }
        if let Some(Value::Array(options)) = object.get("anyOf") {
            for (index, option) in options.iter().enumerate() {
                pending.push((format!("{path}|{index}"), option));
            }
        }
    }
}

/// How deep objects nest in `schema` (the root object is 1).
fn object_depth(schema: &Value) -> usize {
    let mut children: Vec<&Value> = Vec::new();
    if let Some(Value::Object(properties)) = schema.get("properties") {
        children.extend(properties.values());
    }
    if let Some(items) = schema.get("items") {
        children.push(items);
    }
    if let Some(Value::Array(options)) = schema.get("anyOf") {
        children.extend(options);
    }
    let own = match schema.get("type") {
        Some(Value::String(ty)) => usize::from(ty == "object"),
        Some(Value::Array(types)) => usize::from(types.iter().any(|ty| ty == "object")),
        _ => 0,
    };
    own + children.into_iter().map(object_depth).max().unwrap_or(0)
}

fn types_of(schema: &Map<String, Value>) -> Vec<String> {
    match schema.get("type") {
        Some(Value::String(ty)) => vec![ty.clone()],
        Some(Value::Array(types)) => types
            .iter()
            .map(|ty| ty.as_str().unwrap().to_owned())
            .collect(),
        _ => Vec::new(),
    }
}

/// OpenAI strict function calling.
///
/// Rules from <https://platform.openai.com/docs/guides/function-calling#strict-mode>
/// and <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>:
/// 1. The tool is `{"type":"function","name","description","parameters","strict":true}`
///    (Responses API function tool).
/// 2. The root of `parameters` is an object, not `anyOf`.
/// 3. Every object sets `additionalProperties: false`.
/// 4. Every property of an object is listed in `required`; an optional
///    field is expressed as a union with `null`.
/// 5. Only the supported types (string, number, boolean, integer, object,
///    array, enum, anyOf, null) and keywords (`pattern`, `format`;
///    `multipleOf`, `maximum`, `exclusiveMaximum`, `minimum`,
///    `exclusiveMinimum`; `minItems`, `maxItems`; plus `description`,
///    `properties`, `required`, `additionalProperties`, `items`, `enum`,
///    `const`, `anyOf`) appear.
/// 6. At most 10 levels of object nesting and 5,000 properties in all.
/// 7. At most 1,000 enum values in all.
fn check_openai(tool: &Value) -> Vec<String> {
    let mut broken = Vec::new();
    let keys: BTreeSet<&str> = tool
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    if keys != BTreeSet::from(["type", "name", "description", "parameters", "strict"])
        || tool["type"] != "function"
        || tool["strict"] != true
    {
        broken.push(format!("rule 1: the tool is {keys:?}"));
    }
    let parameters = &tool["parameters"];
    if parameters["type"] != "object" || parameters.get("anyOf").is_some() {
        broken.push("rule 2: the root is not an object".to_owned());
    }
    let supported_types = [
        "string", "number", "boolean", "integer", "object", "array", "null",
    ];
    let supported_keywords = [
        "type",
        "description",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "pattern",
        "format",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
    ];
    let (mut properties, mut enum_values) = (0, 0);
    each_schema(parameters, |path, schema| {
        if types_of(schema).contains(&"object".to_owned()) {
            if schema.get("additionalProperties") != Some(&json!(false)) {
                broken.push(format!("rule 3: {path} lacks additionalProperties: false"));
            }
            let declared: BTreeSet<&String> = schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|properties| properties.keys().collect())
                .unwrap_or_default();
            let required: BTreeSet<&String> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|keys| {
                    keys.iter()
                        .map(|key| match key {
                            Value::String(key) => key,
                            _ => panic!("{path}: a required key is not a string"),
                        })
                        .collect()
                })
                .unwrap_or_default();
            if declared != required {
                broken.push(format!(
                    "rule 4: {path} requires {required:?} of {declared:?}"
                ));
            }
            properties += declared.len();
        }
        for ty in types_of(schema) {
            if !supported_types.contains(&ty.as_str()) {
                broken.push(format!("rule 5: {path} has type {ty}"));
            }
        }
        for key in schema.keys() {
            if !supported_keywords.contains(&key.as_str()) {
                broken.push(format!("rule 5: {path} has keyword {key}"));
            }
        }
        enum_values += schema
            .get("enum")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
    });
    if object_depth(parameters) > 10 || properties > 5_000 {
        broken.push("rule 6: too deep or too many properties".to_owned());
    }
    if enum_values > 1_000 {
        broken.push("rule 7: too many enum values".to_owned());
    }
    broken
}

/// Anthropic tool use, without `strict`.
///
/// Rules from <https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools>:
/// 1. The tool is `{"name","description","input_schema"}`.
/// 2. `name` matches `^[a-zA-Z0-9_-]{1,64}$`.
/// 3. `input_schema` is a JSON Schema object (`type: object`) a JSON Schema
///    validator accepts (checked with draft 2020-12).
fn check_anthropic(tool: &Value) -> Vec<String> {
    let mut broken = Vec::new();
    let keys: BTreeSet<&str> = tool
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    if keys != BTreeSet::from(["name", "description", "input_schema"]) {
        broken.push(format!("rule 1: the tool is {keys:?}"));
    }
    broken.extend(check_anthropic_name_and_schema(tool));
    broken
}

fn check_anthropic_name_and_schema(tool: &Value) -> Vec<String> {
    let mut broken = Vec::new();
    let name = tool["name"].as_str().unwrap_or_default();
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if name.is_empty() || name.len() > 64 || !name.chars().all(allowed) {
        broken.push(format!("rule 2: the name {name:?}"));
    }
    let schema = &tool["input_schema"];
    if schema["type"] != "object" {
        broken.push("rule 3: input_schema is not an object schema".to_owned());
    }
    if let Err(error) = jsonschema::draft202012::meta::validate(schema) {
        broken.push(format!(
            "rule 3: input_schema is not valid JSON Schema: {error}"
        ));
    }
    broken
}

/// Anthropic tool use with `strict: true` (structured outputs).
///
/// Rules from <https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations>
/// and <https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools>:
/// 1. The tool is `{"name","description","input_schema","strict":true}`.
/// 2. and 3. as without `strict`.
/// 4. Every object sets `additionalProperties: false`.
/// 5. No numerical constraints (`minimum`, `maximum`, `exclusiveMinimum`,
///    `exclusiveMaximum`, `multipleOf`) and no string constraints
///    (`minLength`, `maxLength`).
/// 6. Arrays: `minItems` only 0 or 1, and no other array constraint
///    (`maxItems`, `uniqueItems`, `contains`).
fn check_anthropic_strict(tool: &Value) -> Vec<String> {
    let mut broken = Vec::new();
    let keys: BTreeSet<&str> = tool
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    if keys != BTreeSet::from(["name", "description", "input_schema", "strict"])
        || tool["strict"] != true
    {
        broken.push(format!("rule 1: the tool is {keys:?}"));
    }
    broken.extend(check_anthropic_name_and_schema(tool));
    each_schema(&tool["input_schema"], |path, schema| {
        if types_of(schema).contains(&"object".to_owned())
            && schema.get("additionalProperties") != Some(&json!(false))
        {
            broken.push(format!("rule 4: {path} lacks additionalProperties: false"));
        }
        for key in [
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
        ] {
            if schema.contains_key(key) {
                broken.push(format!("rule 5: {path} has {key}"));
            }
        }
        for key in ["maxItems", "uniqueItems", "contains"] {
            if schema.contains_key(key) {
                broken.push(format!("rule 6: {path} has {key}"));
            }
        }
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
            && min > 1
        {
            broken.push(format!("rule 6: {path} has minItems {min}"));
        }
    });
    broken
}

/// Gemini function declarations.
///
/// Rules from <https://ai.google.dev/gemini-api/docs/function-calling#function_declarations>
/// and the `Schema` object, <https://ai.google.dev/api/caching#Schema>:
/// 1. A declaration is `{"name","description","parameters"?}`.
/// 2. `name` starts with a letter or `_` and holds at most 64 of
///    `a-z A-Z 0-9 _ . -`.
/// 3. A schema holds only `Schema` fields: `type`, `format`, `title`,
///    `description`, `nullable`, `enum`, `maxItems`, `minItems`,
///    `properties`, `required`, `minProperties`, `maxProperties`,
///    `minLength`, `maxLength`, `pattern`, `example`, `anyOf`,
///    `propertyOrdering`, `default`, `items`, `minimum`, `maximum` (so no
///    `$ref`, `$defs`, `$schema`, `additionalProperties`, `const`, `oneOf`,
///    `allOf`, `exclusiveMinimum`).
/// 4. `type` is one type name (string, number, integer, boolean, array,
///    object), never a list; `null` is written `nullable: true`.
/// 5. An object has at least one property (Gemini refuses `properties: {}`),
///    and `required` names only declared properties.
fn check_gemini(tool: &Value) -> Vec<String> {
    let mut broken = Vec::new();
    let keys: BTreeSet<&str> = tool
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    if !keys.is_subset(&BTreeSet::from(["name", "description", "parameters"]))
        || !keys.contains("name")
    {
        broken.push(format!("rule 1: the declaration is {keys:?}"));
    }
    let name = tool["name"].as_str().unwrap_or_default();
    let starts_well = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let allowed = |c: char| c.is_ascii_alphanumeric() || "_.-".contains(c);
    if !starts_well || name.len() > 64 || !name.chars().all(allowed) {
        broken.push(format!("rule 2: the name {name:?}"));
    }
    let Some(parameters) = tool.get("parameters") else {
        return broken;
    };
    let fields = [
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "propertyOrdering",
        "default",
        "items",
        "minimum",
        "maximum",
    ];
    each_schema(parameters, |path, schema| {
        for key in schema.keys() {
            if !fields.contains(&key.as_str()) {
                broken.push(format!("rule 3: {path} has {key}"));
            }
        }
        match schema.get("type") {
            Some(Value::String(ty))
                if ["string", "number", "integer", "boolean", "array", "object"]
                    .contains(&ty.as_str()) => {}
            None if schema.contains_key("anyOf") => {}
            other => broken.push(format!("rule 4: {path} has type {other:?}")),
        }
        if schema.get("type") == Some(&json!("object")) {
            let declared: BTreeSet<&String> = schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|properties| properties.keys().collect())
                .unwrap_or_default();
            if declared.is_empty() {
                broken.push(format!("rule 5: {path} has no properties"));
            }
            for key in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !key
                    .as_str()
                    .is_some_and(|key| declared.contains(&key.to_owned()))
                {
                    broken.push(format!("rule 5: {path} requires undeclared {key}"));
                }
            }
        }
    });
    broken
}

/// A provider's rules: the broken ones, for one declaration.
type RuleCheck = fn(&Value) -> Vec<String>;

#[test]
fn every_declaration_keeps_its_providers_documented_rules() {
    let tools = tools();
    assert_eq!(tools.len(), 6);
    let checks: [(Provider, RuleCheck); 4] = [
        (Provider::OpenAi, check_openai),
        (Provider::Anthropic, check_anthropic),
        (Provider::AnthropicStrict, check_anthropic_strict),
        (Provider::Gemini, check_gemini),
    ];
    let mut broken = Vec::new();
    for (provider, check) in checks {
        for tool in &tools {
            let declared = provider_tool(tool, provider);
            for rule in check(&declared) {
                broken.push(format!("{provider:?} {}: {rule}", tool.name));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));

    // The checks bite: the portable MCP schema of validate, declared as is,
    // breaks the strict and Gemini rules where the issue found it broken.
    let validate = tools
        .iter()
        .find(|tool| tool.name == "isomer_validate")
        .unwrap();
    let as_is = |wrapper: Value| {
        let mut wrapper = wrapper;
        for key in ["parameters", "input_schema"] {
            if wrapper.get(key).is_some() {
                wrapper[key] = validate.input_schema.clone();
            }
        }
        wrapper
    };
    assert_eq!(
        check_openai(&as_is(provider_tool(validate, Provider::OpenAi))),
        ["rule 3: parameters.composition lacks additionalProperties: false"]
    );
    assert_eq!(
        check_gemini(&as_is(provider_tool(validate, Provider::Gemini))),
        [
            "rule 3: parameters has additionalProperties",
            "rule 3: parameters.composition has additionalProperties",
            "rule 5: parameters.composition has no properties"
        ]
    );
}

#[test]
fn gemini_declares_the_keyless_tools_without_parameters() {
    let tools = tools();
    let without: Vec<&str> = tools
        .iter()
        .filter(|tool| {
            provider_tool(tool, Provider::Gemini)
                .get("parameters")
                .is_none()
        })
        .map(|tool| tool.name.as_str())
        .collect();
    assert_eq!(without, ["isomer_authoring_guide", "isomer_list_views"]);
}

/// A one-slide composition the slides pack accepts.
fn slide() -> Value {
    json!({
        "type": "view",
        "title": "Ledger",
        "body": [{ "type": "slideFrame", "tone": "inverse", "body": [
            { "type": "slideTitle", "title": "Ledger" }
        ] }]
    })
}

/// For each tool: the arguments an MCP client sends, and the arguments the
/// strict dialects (and Gemini) send for the same call.
fn calls() -> Vec<(&'static str, Value, Value)> {
    let slide_text = slide().to_string();
    vec![
        ("isomer_authoring_guide", json!({}), json!({})),
        (
            "isomer_describe_primitives",
            json!({"types": ["slideTitle"]}),
            json!({"types": ["slideTitle"]}),
        ),
        (
            "isomer_validate",
            json!({"composition": slide()}),
            json!({"composition": slide_text}),
        ),
        (
            "isomer_render",
            json!({"composition": slide(), "format": "markdown"}),
            json!({"composition": slide_text, "format": "markdown", "theme": null}),
        ),
        ("isomer_list_views", json!({}), json!({})),
        (
            "isomer_request_view",
            json!({"id": "title-slide", "input": {"title": "Ledger"}}),
            json!({"id": "title-slide", "input": "{\"title\":\"Ledger\"}"}),
        ),
    ]
}

#[test]
fn calls_in_each_providers_argument_shape_answer_as_mcp_calls_do() {
    let tools = tools();
    for (name, mcp_arguments, provider_arguments) in calls() {
        let tool = tools.iter().find(|tool| tool.name == name).unwrap();
        let expected = call(tool, mcp_arguments.clone());
        assert!(!expected.is_error, "{name}: {expected:?}");
        for provider in Provider::ALL {
            let declared = provider_tool(tool, provider);
            let arguments = match provider {
                // The plain dialect declares the tool's own schema.
                Provider::Anthropic => mcp_arguments.clone(),
                _ => provider_arguments.clone(),
            };
            // The arguments are what the declaration lets a model write.
            let schema = declared
                .get("parameters")
                .or_else(|| declared.get("input_schema"));
            if let Some(schema) = schema
                && provider != Provider::Gemini
            {
                let validator = jsonschema::draft202012::new(schema).unwrap();
                let problems: Vec<String> = validator
                    .iter_errors(&arguments)
                    .map(|e| e.to_string())
                    .collect();
                assert!(problems.is_empty(), "{provider:?} {name}: {problems:?}");
            }
            assert_eq!(call(tool, arguments), expected, "{provider:?} {name}");
        }
    }
}

#[test]
fn a_strict_declaration_reads_null_and_json_text_back_and_refuses_the_rest() {
    let tools = tools();
    let render = tools
        .iter()
        .find(|tool| tool.name == "isomer_render")
        .unwrap();
    let not_an_object = call(
        render,
        json!({"composition": "[1, 2]", "format": "markdown", "theme": null}),
    );
    assert_eq!(
        not_an_object,
        ToolResult::error(
            "the input does not match the input schema of tool \"isomer_render\":\n\
             - at composition: \"[1, 2]\" is not of type \"object\""
        )
    );
    let required_null = call(render, json!({"composition": slide(), "format": null}));
    assert_eq!(
        required_null,
        ToolResult::error(
            "the input does not match the input schema of tool \"isomer_render\":\n\
             - at format: null is not of type \"string\"\n\
             - at format: null is not one of \"text\", \"markdown\", \"html\", \"slack\", \"png\", \"svg\", \"pdf\""
        )
    );
}
