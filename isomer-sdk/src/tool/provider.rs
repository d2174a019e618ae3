//! Provider dialects: a [`Tool`] declared the way a model provider's API
//! wants it, by one function, [`provider_tool`].
//!
//! A tool's [`input_schema`](Tool::input_schema) is portable JSON Schema for
//! MCP. Providers that constrain a model's arguments to the schema accept
//! only a subset, each its own; [`provider_tool`] rewrites the schema for
//! the [`Provider`] asked for and wraps it in that provider's tool shape:
//!
//! | provider | tool shape | schema rules applied |
//! |---|---|---|
//! | [`Provider::OpenAi`] (Responses API, strict function calling) | `{"type":"function","name","description","parameters","strict":true}` | [strict](#strict-schemas); `minLength`, `maxLength`, `uniqueItems`, `default`, `title` and any other keyword outside OpenAI's supported list moved into the description |
//! | [`Provider::Anthropic`] (Messages API, tool use) | `{"name","description","input_schema"}` | none: the schema as MCP lists it (any JSON Schema draft 2020-12) |
//! | [`Provider::AnthropicStrict`] (tool use with `strict: true`) | `{"name","description","input_schema","strict":true}` | [strict](#strict-schemas); numeric and string bounds, `minItems` above 1, `maxItems`, `uniqueItems` and other unsupported keywords moved into the description |
//! | [`Provider::Gemini`] (function declarations) | `{"name","description","parameters"?}` | loose objects as JSON text; `type: [t, "null"]`, a `null` in `enum` and a `{"type":"null"}` variant of `anyOf` written as `nullable: true` (Gemini has no `null` type); `oneOf` declared as `anyOf`; optional properties nullable and still optional; `additionalProperties`, `const`, `exclusiveMinimum`, `uniqueItems` and other keywords outside Gemini's `Schema` moved into the description; no `parameters` for a tool without input keys (Gemini refuses an object with no properties) |
//!
//! # Strict schemas
//!
//! OpenAI's strict mode and Anthropic's strict tool use both want, for every
//! object: `additionalProperties: false`, every property listed in
//! `required`, and an optional property expressed as one that may be
//! `null`. So each optional property becomes nullable and is made required.
//!
//! A strict dialect writes every nullable schema one way, as a union with
//! the `null` type: `{"description"?, "anyOf": [schema, {"type":"null"}]}`,
//! the description kept beside `anyOf` and `null` taken out of the schema's
//! `type` list and `enum`. That holds for the optional properties made
//! nullable here and for schemas that already were (schemars writes an
//! `Option<String>` as `type: ["string","null"]`), so no `type` list with
//! `null` is left: Anthropic's SDK, which rewrites a schema for strict tool
//! use, fails on one, and both providers document the `anyOf` form. A
//! schema with a `{"type":"null"}` variant of `anyOf` already is nullable
//! and is kept as it is.
//!
//! In every dialect but [`Provider::Anthropic`], `oneOf` (what schemars
//! writes for a Rust enum whose variants carry data) is declared as
//! `anyOf`, which all of them accept; [`Tool::call`] still checks the
//! arguments against the tool's own `oneOf`.
//!
//! # Loose objects
//!
//! An object whose keys are not listed (no `properties`, or an empty list:
//! the `composition` a model writes, a view's `input`, a map) has no form
//! strict mode accepts, and Gemini refuses an object without properties. In
//! every dialect but [`Provider::Anthropic`] it is declared as a string
//! holding the object's JSON text; its description says so. A model writes
//! `"composition": "{\"type\":\"view\",\"body\":[...]}"`.
//!
//! # Calling a converted tool
//!
//! The handler side takes the provider's argument shape as it is:
//! [`Tool::call`] reads a `null` given for an optional property as the
//! property left out, and a string given for a loose object as that
//! object's JSON text, before checking the arguments against the tool's own
//! schema. So a host passes the provider's arguments to `tool.call` as they
//! come; no conversion back is needed.
//!
//! Nothing here changes [`Tool::input_schema`]: MCP clients keep the
//! portable schema.

use serde_json::{Map, Value, json};

use super::Tool;

/// A model provider's tool dialect (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI's Responses API, function tools with `strict: true`.
    OpenAi,
    /// Anthropic's Messages API tool use, without `strict`.
    Anthropic,
    /// Anthropic's Messages API tool use with `strict: true`.
    AnthropicStrict,
    /// Google Gemini function declarations.
    Gemini,
}

/// The keywords a strict schema is made of, kept by both strict dialects
/// ([`Provider::OpenAi`], [`Provider::AnthropicStrict`]): the strict rewrite
/// writes `required` and `additionalProperties` anew and expresses an
/// optional property with `type`, `enum` or `anyOf` (module docs).
const STRICT_KEYWORDS: [&str; 9] = [
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
];

impl Provider {
    /// Every dialect, in the order above.
    pub const ALL: [Provider; 4] = [
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::AnthropicStrict,
        Provider::Gemini,
    ];

    /// Whether this dialect keeps `keyword` in a schema; others move into
    /// the description. [`Provider::Anthropic`] keeps every keyword.
    fn keeps(self, keyword: &str) -> bool {
        let listed = |extra: &[&str]| extra.contains(&keyword);
        match self {
            Provider::OpenAi => {
                STRICT_KEYWORDS.contains(&keyword)
                    || listed(&[
                        "pattern",
                        "format",
                        "minimum",
                        "maximum",
                        "exclusiveMinimum",
                        "exclusiveMaximum",
                        "multipleOf",
                        "minItems",
                        "maxItems",
                    ])
            }
            Provider::Anthropic => true,
            Provider::AnthropicStrict => {
                STRICT_KEYWORDS.contains(&keyword) || listed(&["format", "minItems"])
            }
            Provider::Gemini => listed(&[
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
                "anyOf",
                "default",
                "items",
                "minimum",
                "maximum",
            ]),
        }
    }

    fn is_strict(self) -> bool {
        matches!(self, Provider::OpenAi | Provider::AnthropicStrict)
    }
}

/// `tool` declared in `provider`'s dialect, as that provider's API takes a
/// tool (the module docs give each shape and every schema rule). The name
/// and description are the tool's own.
///
/// ```
/// # use isomer_sdk::tool::provider::{Provider, provider_tool};
/// # use isomer_sdk::Tool;
/// # use serde_json::json;
/// let tool = Tool::new(
///     "render",
///     "Renders a composition.",
///     json!({
///         "type": "object",
///         "properties": {
///             "composition": { "type": "object", "description": "The composition." },
///             "theme": { "type": "string", "enum": ["light", "dark"] }
///         },
///         "required": ["composition"]
///     }),
///     |_| unimplemented!(),
/// );
/// assert_eq!(
///     provider_tool(&tool, Provider::OpenAi),
///     json!({
///         "type": "function",
///         "name": "render",
///         "description": "Renders a composition.",
///         "parameters": {
///             "type": "object",
///             "properties": {
///                 "composition": {
///                     "type": "string",
///                     "description": "The composition. Write the JSON object as JSON text, in a string."
///                 },
///                 "theme": {
///                     "anyOf": [
///                         { "type": "string", "enum": ["light", "dark"] },
///                         { "type": "null" }
///                     ]
///                 }
///             },
///             "required": ["composition", "theme"],
///             "additionalProperties": false
///         },
///         "strict": true
///     })
/// );
/// ```
pub fn provider_tool(tool: &Tool, provider: Provider) -> Value {
    let parameters = provider_schema(&tool.input_schema, provider);
    match provider {
        Provider::OpenAi => json!({
            "type": "function",
            "name": tool.name,
            "description": tool.description,
            "parameters": parameters,
            "strict": true,
        }),
        Provider::Anthropic => json!({
            "name": tool.name,
            "description": tool.description,
            "input_schema": parameters,
        }),
        Provider::AnthropicStrict => json!({
            "name": tool.name,
            "description": tool.description,
            "input_schema": parameters,
            "strict": true,
        }),
        Provider::Gemini => {
            let mut declaration = Map::new();
            declaration.insert("name".to_owned(), json!(tool.name));
            declaration.insert("description".to_owned(), json!(tool.description));
            if has_properties(&parameters) {
                declaration.insert("parameters".to_owned(), parameters);
            }
            Value::Object(declaration)
        }
    }
}

/// The tools' declarations in `provider`'s dialect, in order
/// ([`provider_tool`] for each).
pub fn provider_tools(tools: &[Tool], provider: Provider) -> Vec<Value> {
    tools
        .iter()
        .map(|tool| provider_tool(tool, provider))
        .collect()
}

/// The input schema rewritten for `provider` (the `parameters` or
/// `input_schema` of [`provider_tool`]).
pub(crate) fn provider_schema(schema: &Value, provider: Provider) -> Value {
    if provider == Provider::Anthropic {
        return schema.clone();
    }
    rewrite(schema, provider, true)
}

/// What a loose object's description gains in the dialects that declare it
/// as a string.
const AS_JSON_TEXT: &str = "Write the JSON object as JSON text, in a string.";

/// `schema` rewritten for `provider`; the root (`is_root`) stays an object
/// even when it lists no keys.
fn rewrite(schema: &Value, provider: Provider, is_root: bool) -> Value {
    let Value::Object(schema) = schema else {
        return schema.clone();
    };
    if !is_root && is_loose_object(schema) {
        return loose_object(schema, provider);
    }
    let mut out = Map::new();
    let mut moved: Vec<String> = Vec::new();
    for (key, value) in schema {
        match key.as_str() {
            "properties" => {
                let properties = value.as_object().cloned().unwrap_or_default();
                let required: Vec<&str> = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|keys| keys.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut rewritten = Map::new();
                for (name, property) in &properties {
                    let mut property = rewrite(property, provider, false);
                    if !required.contains(&name.as_str()) {
                        property = nullable(property, provider);
                    }
                    rewritten.insert(name.clone(), property);
                }
                out.insert(key.clone(), Value::Object(rewritten));
            }
            "items" => {
                out.insert(key.clone(), rewrite(value, provider, false));
            }
            // `oneOf` (a data-carrying Rust enum) is in no dialect's list;
            // its variants are declared as `anyOf`, which every dialect
            // takes (the handler still checks `oneOf`).
            "anyOf" | "oneOf"
                if key == "anyOf"
                    || (provider != Provider::Anthropic && !schema.contains_key("anyOf")) =>
            {
                let options = value
                    .as_array()
                    .map(|options| {
                        options
                            .iter()
                            .map(|option| rewrite(option, provider, false))
                            .collect()
                    })
                    .unwrap_or_default();
                let mut options: Vec<Value> = options;
                // Gemini has no `null` type: a `null` variant is `nullable: true`.
                if provider == Provider::Gemini {
                    let before = options.len();
                    options.retain(|option| *option != json!({ "type": "null" }));
                    if options.len() < before {
                        out.insert("nullable".to_owned(), Value::Bool(true));
                    }
                }
                out.insert("anyOf".to_owned(), Value::Array(options));
            }
            // Strict dialects write both anew below; Gemini has no such keyword
            // (the handler still refuses unknown keys).
            "required" | "additionalProperties" if provider.is_strict() => {}
            "additionalProperties" if provider == Provider::Gemini => {}
            // Gemini's `enum` holds strings only: a `null` option is written
            // `nullable: true`, as a `null` type is.
            "enum" if provider == Provider::Gemini && value.is_array() => {
                let options = value.as_array().map(Vec::as_slice).unwrap_or_default();
                if options.contains(&Value::Null) {
                    out.insert("nullable".to_owned(), Value::Bool(true));
                }
                let options = options.iter().filter(|option| !option.is_null()).cloned();
                out.insert(key.clone(), Value::Array(options.collect()));
            }
            "type" if provider == Provider::Gemini => match value {
                Value::Array(types) => {
                    let concrete: Vec<&Value> = types.iter().filter(|ty| *ty != "null").collect();
                    if concrete.len() < types.len() {
                        out.insert("nullable".to_owned(), Value::Bool(true));
                    }
                    match concrete.as_slice() {
                        [one] => {
                            out.insert(key.clone(), (*one).clone());
                        }
                        many => {
                            let options = many.iter().map(|ty| json!({ "type": ty })).collect();
                            out.insert("anyOf".to_owned(), Value::Array(options));
                        }
                    }
                }
                other => {
                    out.insert(key.clone(), other.clone());
                }
            },
            _ if provider.keeps(key) => {
                out.insert(key.clone(), value.clone());
            }
            _ => moved.push(format!("{key}: {}", compact(value))),
        }
    }
    if provider.is_strict()
        && let Some(Value::Object(properties)) = out.get("properties")
    {
        let every: Vec<Value> = properties.keys().map(|name| json!(name)).collect();
        out.insert("required".to_owned(), Value::Array(every));
        out.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    if !moved.is_empty() {
        let note = format!("({})", moved.join("; "));
        let description = match out.get("description").and_then(Value::as_str) {
            Some(description) => format!("{description} {note}"),
            None => note,
        };
        out.insert("description".to_owned(), Value::String(description));
    }
    if provider.is_strict() && take_null_type(&mut out) {
        return nullable(Value::Object(out), provider);
    }
    Value::Object(out)
}

/// Takes `null` out of `schema`'s `type` list (a lone type left is written as
/// a string) and out of its `enum`; whether the list held `null`. A strict
/// dialect then writes the schema as a union with `null` ([`nullable`]).
fn take_null_type(schema: &mut Map<String, Value>) -> bool {
    let Some(Value::Array(types)) = schema.get_mut("type") else {
        return false;
    };
    let before = types.len();
    types.retain(|ty| ty != "null");
    if types.len() == before {
        return false;
    }
    if let [one] = types.as_slice() {
        let one = one.clone();
        schema.insert("type".to_owned(), one);
    }
    if let Some(Value::Array(options)) = schema.get_mut("enum") {
        options.retain(|option| !option.is_null());
    }
    true
}

/// An object schema that lists no keys yet takes some: `type: object`
/// (alone or with `null`), no or empty `properties`, and
/// `additionalProperties` other than `false`.
pub(crate) fn is_loose_object(schema: &Map<String, Value>) -> bool {
    let is_object = match schema.get("type") {
        Some(Value::String(ty)) => ty == "object",
        Some(Value::Array(types)) => types.iter().any(|ty| ty == "object"),
        _ => false,
    };
    is_object
        && schema
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
        && schema.get("additionalProperties") != Some(&Value::Bool(false))
}

/// A loose object declared as a string of JSON text, keeping its
/// description, and its nullability as `provider` writes it.
fn loose_object(schema: &Map<String, Value>, provider: Provider) -> Value {
    let description = match schema.get("description").and_then(Value::as_str) {
        Some(description) => format!("{description} {AS_JSON_TEXT}"),
        None => AS_JSON_TEXT.to_owned(),
    };
    let text = json!({ "type": "string", "description": description });
    let nullable_object = matches!(schema.get("type"), Some(Value::Array(types)) if types.iter().any(|ty| ty == "null"));
    if nullable_object {
        nullable(text, provider)
    } else {
        text
    }
}

/// `schema` made to accept `null` as the provider writes it: `nullable: true`
/// for Gemini; for a strict dialect `{"description"?, "anyOf": [schema,
/// {"type":"null"}]}`, unless `anyOf` already holds a `{"type":"null"}`
/// variant (module docs).
fn nullable(schema: Value, provider: Provider) -> Value {
    let Value::Object(mut schema) = schema else {
        return schema;
    };
    if provider == Provider::Gemini {
        schema.insert("nullable".to_owned(), Value::Bool(true));
        return Value::Object(schema);
    }
    let null_type = json!({ "type": "null" });
    let has_null_variant =
        matches!(schema.get("anyOf"), Some(Value::Array(options)) if options.contains(&null_type));
    if has_null_variant {
        return Value::Object(schema);
    }
    let mut union = Map::new();
    if let Some(description) = schema.remove("description") {
        union.insert("description".to_owned(), description);
    }
    union.insert(
        "anyOf".to_owned(),
        Value::Array(vec![Value::Object(schema), null_type]),
    );
    Value::Object(union)
}

fn has_properties(schema: &Value) -> bool {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|properties| !properties.is_empty())
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
