//! The input JSON Schema of a tool, derived from a [`JsonSchema`] type with
//! the shape every tool client accepts.
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
//! - **Standard formats only, integer ranges kept.** schemars' `uint32`,
//!   `int64`, `double`, ... are removed (schemars' `RestrictFormats`); they
//!   cause provider 400s. Before that, an integer field gets the full range
//!   of its Rust type as `minimum` and `maximum` (`u32`: 0 to 4,294,967,295;
//!   `i64`: -9,223,372,036,854,775,808 to 9,223,372,036,854,775,807; `usize`
//!   and `isize` as 64-bit), so the schema refuses what serde would refuse.
//!   128-bit integers keep only schemars' bounds.
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
//! - **Unknown keys refused.** Every object schema that lists `properties`
//!   and says nothing about other keys gets `additionalProperties: false`,
//!   whether or not the type has
//!   `#[serde(deny_unknown_fields)]`: a model that misspells a key learns it
//!   from the refusal instead of having the key dropped. Maps and
//!   `serde_json::Value` fields stay open. A host that wants leniency calls
//!   [`Tool::allow_unknown_keys`](super::Tool::allow_unknown_keys).

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use schemars::transform::{ReplaceBoolSchemas, RestrictFormats, Transform, transform_subschemas};
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
///     r#"{"type":"object","properties":{"format":{"type":"string","description":"The format to render to."},"limit":{"type":["integer","null"],"maximum":4294967295,"minimum":0}},"required":["format"],"additionalProperties":false}"#
/// );
/// ```
pub fn tool_input_schema<T: JsonSchema + ?Sized>() -> Result<Value, ToolSchemaError> {
    let mut schema = finish_input_schema(generate::<T>(), &T::schema_name())?;
    refuse_unknown_keys(&mut schema);
    Ok(schema)
}

/// The output JSON Schema of a tool answering `T` as structured content
/// (`Json<T>`): generated and made portable as [`tool_input_schema`] does,
/// except that unknown keys are not refused (an output may grow). `None`
/// when `T` is not an object (an array, a string): MCP's structured content
/// is an object, so such a tool answers text only.
pub(crate) fn tool_output_schema<T: JsonSchema + ?Sized>() -> Option<Value> {
    finish_input_schema(generate::<T>(), &T::schema_name()).ok()
}

/// The schema of `T` with schemars' draft 2020-12 settings, inlined, with
/// integer ranges added and formats and boolean subschemas removed.
fn generate<T: JsonSchema + ?Sized>() -> Value {
    let mut replace_bool_schemas = ReplaceBoolSchemas::default();
    replace_bool_schemas.skip_additional_properties = true;
    let generator = SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .with_transform(IntegerRanges)
        .with_transform(RestrictFormats::default())
        .with_transform(replace_bool_schemas)
        .into_generator();
    generator.into_root_schema_for::<T>().to_value()
}

/// Adds the range of the Rust integer type schemars names in `format`
/// (module docs), keeping a bound schemars already wrote.
#[derive(Debug, Clone, Copy)]
struct IntegerRanges;

impl Transform for IntegerRanges {
    fn transform(&mut self, schema: &mut schemars::Schema) {
        transform_subschemas(self, schema);
        let range: Option<(Value, Value)> = match schema.get("format").and_then(Value::as_str) {
            Some("int8") => Some((i8::MIN.into(), i8::MAX.into())),
            Some("uint8") => Some((u8::MIN.into(), u8::MAX.into())),
            Some("int16") => Some((i16::MIN.into(), i16::MAX.into())),
            Some("uint16") => Some((u16::MIN.into(), u16::MAX.into())),
            Some("int32") => Some((i32::MIN.into(), i32::MAX.into())),
            Some("uint32") => Some((u32::MIN.into(), u32::MAX.into())),
            Some("int64" | "int") => Some((i64::MIN.into(), i64::MAX.into())),
            Some("uint64" | "uint") => Some((u64::MIN.into(), u64::MAX.into())),
            _ => None,
        };
        if let (Some((minimum, maximum)), Some(object)) = (range, schema.as_object_mut()) {
            object.entry("minimum").or_insert(minimum);
            object.entry("maximum").or_insert(maximum);
        }
    }
}

/// Adds `additionalProperties: false` to every object schema in `schema`
/// that has `properties` and no `additionalProperties` (nor
/// `unevaluatedProperties`), the root included, without recursion. Values
/// under `enum`, `const`, `default` and `examples` are data, not schemas,
/// and are left alone.
pub(crate) fn refuse_unknown_keys(schema: &mut Value) {
    for_each_schema(schema, &mut |object| {
        if object.contains_key("properties")
            && !object.contains_key("additionalProperties")
            && !object.contains_key("unevaluatedProperties")
        {
            object.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
    });
}

/// Removes every `additionalProperties: false` from `schema` (the opposite
/// of [`refuse_unknown_keys`], for `Tool::allow_unknown_keys`).
pub(crate) fn open_objects(schema: &mut Value) {
    for_each_schema(schema, &mut |object| {
        if object.get("additionalProperties") == Some(&Value::Bool(false)) {
            object.shift_remove("additionalProperties");
        }
    });
}

/// Calls `visit` on every object schema in `schema` (the root and every
/// subschema, not the data under `enum`, `const`, `default`, `examples`),
/// with a heap stack.
fn for_each_schema(schema: &mut Value, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
    let mut pending = vec![schema];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(object) => {
                visit(object);
                pending.extend(
                    object
                        .iter_mut()
                        .filter(|(key, _)| {
                            !matches!(key.as_str(), "enum" | "const" | "default" | "examples")
                        })
                        .map(|(_, value)| value),
                );
            }
            Value::Array(items) => pending.extend(items.iter_mut()),
            _ => {}
        }
    }
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
                    "b": { "type": "integer", "default": 0, "minimum": 0, "maximum": 255 }
                },
                "required": [],
                "additionalProperties": false
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
    fn a_type_without_fields_is_an_empty_closed_object_without_required() {
        assert_eq!(
            serde_json::to_string(&tool_input_schema::<Empty>().unwrap()).unwrap(),
            r#"{"type":"object","properties":{},"additionalProperties":false}"#
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
                "required": ["anything", "untyped"],
                "additionalProperties": false
            })
        );
    }

    #[allow(dead_code)]
    #[derive(Deserialize, JsonSchema)]
    struct Counts {
        small: i8,
        medium: u32,
        large: u64,
        index: usize,
        offset: Option<i32>,
    }

    #[test]
    fn integers_get_the_full_range_of_their_rust_type() {
        let schema = tool_input_schema::<Counts>().unwrap();
        let range = |field: &str| {
            let field = &schema["properties"][field];
            (field["minimum"].clone(), field["maximum"].clone())
        };
        assert_eq!(range("small"), (json!(-128), json!(127)));
        assert_eq!(range("medium"), (json!(0), json!(4_294_967_295_u64)));
        assert_eq!(range("large"), (json!(0), json!(u64::MAX)));
        assert_eq!(range("index"), (json!(0), json!(u64::MAX)));
        assert_eq!(range("offset"), (json!(i32::MIN), json!(i32::MAX)));
        assert!(!serde_json::to_string(&schema).unwrap().contains("format"));
    }

    #[test]
    fn unknown_keys_are_refused_in_every_object_but_maps_and_data() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "nested": { "type": "object", "properties": { "x": {} } },
                "map": { "type": "object", "additionalProperties": { "type": "integer" } },
                "choice": { "anyOf": [{ "properties": { "y": {} } }, { "type": "null" }] },
                "fixed": { "const": { "properties": {} }, "default": { "properties": {} } }
            }
        });
        refuse_unknown_keys(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "nested": { "type": "object", "properties": { "x": {} }, "additionalProperties": false },
                    "map": { "type": "object", "additionalProperties": { "type": "integer" } },
                    "choice": { "anyOf": [{ "properties": { "y": {} }, "additionalProperties": false }, { "type": "null" }] },
                    "fixed": { "const": { "properties": {} }, "default": { "properties": {} } }
                },
                "additionalProperties": false
            })
        );
        open_objects(&mut schema);
        assert!(!serde_json::to_string(&schema).unwrap().contains("false"));
    }

    #[test]
    fn an_output_schema_is_an_object_schema_or_none() {
        assert_eq!(
            tool_output_schema::<Since>(),
            Some(json!({
                "type": "object",
                "properties": { "year": { "type": "integer", "maximum": 65535, "minimum": 0 } },
                "required": ["year"],
                "additionalProperties": false
            }))
        );
        assert_eq!(tool_output_schema::<Vec<String>>(), None);
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
