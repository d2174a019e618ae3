//! The input JSON Schema of a tool, derived from a [`JsonSchema`] type with
//! the shape every tool client accepts (rust-ecosystem.md §2.1, §2.6).
//!
//! [`tool_input_schema`] generates with schemars' draft 2020-12 settings and
//! then makes the result portable:
//!
//! - **Inlined.** Nested types are written in place (`inline_subschemas`), so
//!   no `$ref` or `$defs` remain: Gemini, Copilot CLI and several MCP clients
//!   fail to resolve them, and Claude Code refuses a root `$ref`. A recursive
//!   type cannot be inlined and is refused ([`ToolSchemaError::Recursive`]).
//! - **No `$schema`, no root `title` or `description`.** MCP reads a tool
//!   schema without `$schema` as draft 2020-12; naming the meta-schema broke
//!   Gemini CLI's validator. The root title and description would repeat the
//!   input type's name and doc comment; the tool's own description says what
//!   the tool does (rmcp strips them the same way). Field docs stay as
//!   property descriptions.
//! - **Standard formats only.** schemars' `uint32`, `int64`, `double`, ... are
//!   removed (schemars' `RestrictFormats`); they cause provider 400s. Bounds
//!   such as `minimum: 0` on unsigned integers stay.
//! - **No boolean subschemas** other than `additionalProperties` (`true`
//!   becomes `{}`, schemars' `ReplaceBoolSchemas`), for validators that only
//!   take objects.
//! - **Root `type: "object"` with `properties`.** A type whose schema is not
//!   an object (a string, a number, an enum, a unit struct, a tuple struct) is
//!   refused ([`ToolSchemaError::NotAnObject`]). `properties` is always
//!   present. `required` is present (possibly `[]`) whenever the type has at
//!   least one property, because some providers want the key; a type with no
//!   fields answers exactly `{"type":"object","properties":{}}` (plus
//!   `additionalProperties: false` if it denies unknown fields), the shape
//!   rmcp and the MCP SDKs give a tool without input.
//! - **`additionalProperties: false`** appears exactly where the type, or a
//!   nested type, has `#[serde(deny_unknown_fields)]`, as schemars emits it.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use schemars::transform::{ReplaceBoolSchemas, RestrictFormats};
use serde_json::{Map, Value};

/// Why a type cannot be a tool's input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolSchemaError {
    /// Occurs when the type's schema root is not `"type": "object"` (a
    /// string, number, array, enum, unit struct or newtype struct). Tool
    /// clients call a tool with a JSON object of named arguments.
    #[error(
        "the tool input `{type_name}` is not a JSON object (its schema is {schema}); \
         use a struct with named fields, or `isomer_sdk::NoInput` for a tool without input"
    )]
    NotAnObject {
        /// The Rust type's schema name.
        type_name: String,
        /// The schema that was generated, compact.
        schema: String,
    },
    /// Occurs when a `$ref` remains after inlining, which happens only for
    /// recursive types.
    #[error(
        "the tool input `{type_name}` is recursive (`$ref` \"{reference}\" remains after inlining); \
         tool schemas must be fully inlined, so give the recursive field a finite schema \
         with #[schemars(schema_with = \"...\")]"
    )]
    Recursive {
        /// The Rust type's schema name.
        type_name: String,
        /// The first reference found.
        reference: String,
    },
}

/// The input JSON Schema of a tool taking `T` (draft 2020-12, inlined, root
/// `type: object`; the module docs give every rule and why).
///
/// # Errors
///
/// [`ToolSchemaError::NotAnObject`] when `T`'s schema is not an object, and
/// [`ToolSchemaError::Recursive`] when `T` is recursive.
///
/// ```
/// # use isomer_sdk::tool_input_schema;
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// #[serde(deny_unknown_fields)]
/// struct Render {
///     /// The format to render to.
///     format: String,
///     limit: Option<u32>,
/// }
/// let schema = tool_input_schema::<Render>().unwrap();
/// assert_eq!(
///     serde_json::to_string(&schema).unwrap(),
///     r#"{"type":"object","properties":{"format":{"type":"string","description":"The format to render to."},"limit":{"type":["integer","null"],"minimum":0}},"required":["format"],"additionalProperties":false}"#
/// );
/// ```
pub fn tool_input_schema<T: JsonSchema + ?Sized>() -> Result<Value, ToolSchemaError> {
    let mut replace_bool_schemas = ReplaceBoolSchemas::default();
    replace_bool_schemas.skip_additional_properties = true;
    let generator = SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .with_transform(RestrictFormats::default())
        .with_transform(replace_bool_schemas)
        .into_generator();
    let schema = generator.into_root_schema_for::<T>();
    finish_input_schema(schema.to_value(), &T::schema_name())
}

/// The post-processing of [`tool_input_schema`] on an already generated
/// root schema: drops the root `$schema`, `title`, `description` and `$defs`,
/// refuses a remaining `$ref` and a non-object root, and adds `properties`
/// and `required` as the module docs say. `type_name` names the type in
/// errors.
///
/// Formats and boolean subschemas are handled by the generator's
/// transforms, not here.
///
/// # Errors
///
/// As [`tool_input_schema`].
pub fn finish_input_schema(schema: Value, type_name: &str) -> Result<Value, ToolSchemaError> {
    let not_an_object = |schema: &Value| ToolSchemaError::NotAnObject {
        type_name: type_name.to_owned(),
        schema: serde_json::to_string(schema).unwrap_or_default(),
    };
    let Value::Object(mut root) = schema else {
        return Err(not_an_object(&schema));
    };
    for key in ["$schema", "title", "description"] {
        root.shift_remove(key);
    }
    if let Some(reference) = first_ref(&root) {
        return Err(ToolSchemaError::Recursive {
            type_name: type_name.to_owned(),
            reference,
        });
    }
    // Nothing refers to the definitions once no `$ref` is left.
    root.shift_remove("$defs");
    if root.get("type").and_then(Value::as_str) != Some("object") {
        return Err(not_an_object(&Value::Object(root)));
    }
    let has_properties = match root.get("properties") {
        Some(Value::Object(properties)) => !properties.is_empty(),
        _ => {
            insert_after(&mut root, "type", "properties", Value::Object(Map::new()));
            false
        }
    };
    if has_properties && !root.contains_key("required") {
        insert_after(
            &mut root,
            "properties",
            "required",
            Value::Array(Vec::new()),
        );
    }
    Ok(Value::Object(root))
}

/// The first `$ref` value anywhere in the schema, outside `$defs` (which is
/// dropped), found without recursion.
fn first_ref(root: &Map<String, Value>) -> Option<String> {
    let mut stack: Vec<&Value> = root
        .iter()
        .filter(|(key, _)| key.as_str() != "$defs")
        .map(|(_, value)| value)
        .collect();
    if let Some(Value::String(reference)) = root.get("$ref") {
        return Some(reference.clone());
    }
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(reference)) = map.get("$ref") {
                    return Some(reference.clone());
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    None
}

/// Inserts `key` right after `anchor` (or last), so the keys read in
/// schemars' order: `type`, `properties`, `required`, the rest.
fn insert_after(map: &mut Map<String, Value>, anchor: &str, key: &str, value: Value) {
    let mut value = Some(value);
    let mut rebuilt = Map::with_capacity(map.len() + 1);
    for (existing, item) in std::mem::take(map) {
        let is_anchor = existing == anchor;
        rebuilt.insert(existing, item);
        if is_anchor && let Some(value) = value.take() {
            rebuilt.insert(key.to_owned(), value);
        }
    }
    if let Some(value) = value {
        rebuilt.insert(key.to_owned(), value);
    }
    *map = rebuilt;
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use schemars::JsonSchema;
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    /// Search the corpus.
    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct SearchArgs {
        /// Full-text query.
        query: String,
        /// Max results.
        limit: Option<u32>,
        filter: Filter,
        mode: Mode,
        weights: Vec<f64>,
        offset: i64,
    }

    /// A filter.
    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    struct Filter {
        tags: Vec<String>,
        since: Option<Since>,
    }

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Since {
        year: u16,
    }

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        Fast,
        Exact,
    }

    #[test]
    fn nested_types_are_inlined_without_formats_or_root_metadata() {
        insta::assert_json_snapshot!(tool_input_schema::<SearchArgs>().unwrap());
    }

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    struct AllOptional {
        a: Option<bool>,
        #[serde(default)]
        b: u8,
    }

    #[test]
    fn required_is_kept_empty_when_every_field_is_optional() {
        assert_eq!(
            tool_input_schema::<AllOptional>().unwrap(),
            json!({
                "type": "object",
                "properties": {
                    "a": { "type": ["boolean", "null"] },
                    "b": { "type": "integer", "minimum": 0, "maximum": 255, "default": 0 }
                },
                "required": []
            })
        );
    }

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    struct Empty {}

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct StrictEmpty {}

    #[test]
    fn a_type_without_fields_is_an_empty_object_without_required() {
        assert_eq!(
            serde_json::to_string(&tool_input_schema::<Empty>().unwrap()).unwrap(),
            r#"{"type":"object","properties":{}}"#
        );
        assert_eq!(
            serde_json::to_string(&tool_input_schema::<StrictEmpty>().unwrap()).unwrap(),
            r#"{"type":"object","properties":{},"additionalProperties":false}"#
        );
    }

    #[test]
    fn a_map_is_an_object_with_empty_properties() {
        assert_eq!(
            tool_input_schema::<BTreeMap<String, u8>>().unwrap(),
            json!({
                "type": "object",
                "properties": {},
                "additionalProperties": { "type": "integer", "minimum": 0, "maximum": 255 }
            })
        );
    }

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    struct Loose {
        /// Any JSON value.
        anything: Value,
        untyped: Value,
    }

    #[test]
    fn any_value_is_an_empty_schema_not_true() {
        assert_eq!(
            tool_input_schema::<Loose>().unwrap(),
            json!({
                "type": "object",
                "properties": {
                    "anything": { "description": "Any JSON value." },
                    "untyped": {}
                },
                "required": ["anything", "untyped"]
            })
        );
    }

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    struct Newtype(String);

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    struct Unit;

    #[test]
    fn a_type_that_is_not_an_object_is_refused_with_its_schema() {
        assert_eq!(
            tool_input_schema::<String>().unwrap_err().to_string(),
            "the tool input `string` is not a JSON object (its schema is {\"type\":\"string\"}); \
             use a struct with named fields, or `isomer_sdk::NoInput` for a tool without input"
        );
        assert_eq!(
            tool_input_schema::<Newtype>().unwrap_err(),
            ToolSchemaError::NotAnObject {
                type_name: "Newtype".into(),
                schema: r#"{"type":"string"}"#.into()
            }
        );
        assert_eq!(
            tool_input_schema::<Unit>().unwrap_err(),
            ToolSchemaError::NotAnObject {
                type_name: "Unit".into(),
                schema: r#"{"type":"null"}"#.into()
            }
        );
        assert!(matches!(
            tool_input_schema::<Mode>().unwrap_err(),
            ToolSchemaError::NotAnObject { type_name, .. } if type_name == "Mode"
        ));
        assert!(matches!(
            tool_input_schema::<Option<Filter>>().unwrap_err(),
            ToolSchemaError::NotAnObject { .. }
        ));
    }

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    struct Tree {
        label: String,
        children: Vec<Tree>,
    }

    #[test]
    fn a_recursive_type_is_refused() {
        assert_eq!(
            tool_input_schema::<Tree>().unwrap_err(),
            ToolSchemaError::Recursive {
                type_name: "Tree".into(),
                reference: "#".into()
            }
        );
    }

    #[test]
    fn finishing_drops_root_metadata_and_adds_properties() {
        let generated = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Args",
            "description": "Doc.",
            "type": "object",
            "properties": { "x": { "type": "string" } },
            "$defs": {}
        });
        assert_eq!(
            serde_json::to_string(&finish_input_schema(generated, "Args").unwrap()).unwrap(),
            r#"{"type":"object","properties":{"x":{"type":"string"}},"required":[]}"#
        );
        let bare = json!({ "type": "object" });
        assert_eq!(
            serde_json::to_string(&finish_input_schema(bare, "Args").unwrap()).unwrap(),
            r#"{"type":"object","properties":{}}"#
        );
    }

    #[test]
    fn finishing_refuses_a_ref_anywhere() {
        let generated = json!({
            "type": "object",
            "properties": { "a": { "items": [{ "$ref": "#/$defs/A" }] } },
            "$defs": { "A": { "$ref": "#/$defs/B" } }
        });
        assert_eq!(
            finish_input_schema(generated, "Args").unwrap_err(),
            ToolSchemaError::Recursive {
                type_name: "Args".into(),
                reference: "#/$defs/A".into()
            }
        );
        assert_eq!(
            finish_input_schema(json!(true), "Args").unwrap_err(),
            ToolSchemaError::NotAnObject {
                type_name: "Args".into(),
                schema: "true".into()
            }
        );
    }
}
