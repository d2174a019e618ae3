//! One primitive's node schema: normalizing the declared (derived or given)
//! schema into the standalone node schema, the member the composition
//! schema embeds, and the compiled validator.

use std::sync::OnceLock;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::error::{IsomerError, SURFACE_NAMES};
use crate::node::BODY_NODE_DEF;

/// The message every failure of a node's `id` reads, as upstream words it.
pub(crate) const ID_MESSAGE: &str = "must be a non-empty string";
/// The message of an empty `surfaces` list, as upstream words it.
pub(crate) const SURFACES_EMPTY_MESSAGE: &str = "must contain at least one surface";
/// The keyword carrying a custom message (ours; see `Primitive::builder`).
pub(crate) const ERROR_MESSAGE_KEYWORD: &str = "errorMessage";

/// Numeric `format`s schemars writes for Rust integer and float types; not
/// JSON Schema formats, so they are dropped.
const RUST_NUMBER_FORMATS: [&str; 12] = [
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "uint", "int",
    "float", "double",
];

/// The schema of one primitive in its three forms.
pub(crate) struct NodeSchema {
    /// The node object as the composition schema embeds it (`$defs.<type>`):
    /// refs point at `#/$defs/<name>` of [`NodeSchema::defs`] and at
    /// `#/$defs/bodyNode`.
    pub member: Value,
    /// The primitive's own named sub-schemas (nested structs), without
    /// `bodyNode`.
    pub defs: Map<String, Value>,
    /// The standalone schema: the member plus `$schema`, its `$defs` and a
    /// `bodyNode` that only requires an object, plus the validator-only
    /// custom messages of `id` and `surfaces`.
    pub validator: Value,
    /// Declared field names, declaration order, without type/id/surfaces.
    pub fields: Vec<String>,
    /// The compiled validator of [`NodeSchema::validator`], made by
    /// [`NodeSchema::compiled`] the first time a node of this type is
    /// checked (or the compile error, kept as well).
    compiled: OnceLock<Result<jsonschema::Validator, String>>,
    /// False when `parse` can never drop a key from this node: the schema
    /// has no ordinary (non-strict, non-loose) nested object below the node
    /// itself, so sanitizing is skipped.
    pub strips: bool,
}

/// The schemars settings of node and view input schemas: draft 2020-12.
pub(crate) fn schema_settings() -> SchemaSettings {
    SchemaSettings::draft2020_12()
}

/// The JSON Schema of `T`, as schemars derives it.
pub(crate) fn derive_schema<T: JsonSchema>() -> Value {
    schema_settings()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// Compiles a draft 2020-12 schema. Known `format`s are checked (as Zod's
/// string formats are; unknown ones are ignored). `minLength` and `maxLength` count
/// UTF-16 code units, as Zod (JavaScript `.length`) does, instead of the
/// code points JSON Schema specifies: an emoji counts 2.
pub(crate) fn compile(schema: &Value) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .should_ignore_unknown_formats(true)
        .with_keyword("minLength", |_, value, _| utf16_length(value, true))
        .with_keyword("maxLength", |_, value, _| utf16_length(value, false))
        .build(schema)
        .map_err(|error| error.to_string())
}

/// Checks a draft 2020-12 schema against its meta-schema: the check
/// compiling it starts with, with the same message (`5 is not valid under
/// any of the schemas listed in the 'anyOf' keyword`), for a fraction of
/// the cost of compiling. A schema that passes can still fail to compile
/// only through a `pattern` that is not a regular expression or a `$ref`
/// that points nowhere.
pub(crate) fn check_against_meta_schema(schema: &Value) -> Result<(), String> {
    jsonschema::draft202012::meta::validate(schema).map_err(|error| error.to_string())
}

/// The message prefix of a failed UTF-16 `minLength` (the limit follows).
pub(crate) const MIN_LENGTH_MARK: &str = "isomer:minLength:";
/// The message prefix of a failed UTF-16 `maxLength` (the limit follows).
pub(crate) const MAX_LENGTH_MARK: &str = "isomer:maxLength:";

/// A string length bound in UTF-16 code units.
struct Utf16Length {
    limit: u64,
    minimum: bool,
}

fn utf16_length<'a>(
    value: &'a Value,
    minimum: bool,
) -> Result<Box<dyn for<'i> jsonschema::Keyword<'i>>, jsonschema::ValidationError<'a>> {
    let limit = value
        .as_u64()
        .or_else(|| {
            value
                .as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                .map(|f| f as u64)
        })
        .ok_or_else(|| {
            jsonschema::ValidationError::custom("a length bound must be a non-negative integer")
        })?;
    Ok(Box::new(Utf16Length { limit, minimum }))
}

impl<'i> jsonschema::Keyword<'i> for Utf16Length {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        if self.is_valid(instance) {
            return Ok(());
        }
        let mark = if self.minimum {
            MIN_LENGTH_MARK
        } else {
            MAX_LENGTH_MARK
        };
        Err(jsonschema::ValidationError::custom(format!(
            "{mark}{}",
            self.limit
        )))
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        let Some(text) = instance.as_str() else {
            return true;
        };
        // A string has at most one UTF-16 code unit per UTF-8 byte and at
        // least one per three bytes, so most bounds hold without counting.
        let bytes = text.len() as u64;
        if self.minimum {
            bytes.div_ceil(3) >= self.limit || crate::js::utf16_len(text) as u64 >= self.limit
        } else {
            bytes <= self.limit || crate::js::utf16_len(text) as u64 <= self.limit
        }
    }
}

/// When a node schema is checked against the draft 2020-12 meta-schema.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum MetaCheck {
    /// While normalizing: a failure is [`IsomerError::InvalidSchema`].
    Now,
    /// Only when the validator compiles (the compiler checks it first),
    /// for schemas derived from a Rust type.
    OnCompile,
}

/// Refuses a primitive whose fields include `id` or `surfaces`, which
/// every node has and the runtime declares itself (the first one found,
/// `id` before `surfaces`).
pub(crate) fn check_reserved_fields<'a>(
    type_name: &str,
    fields: impl IntoIterator<Item = &'a str> + Clone,
) -> Result<(), IsomerError> {
    for reserved in ["id", "surfaces"] {
        if fields.clone().into_iter().any(|field| field == reserved) {
            return Err(IsomerError::ReservedNodeField {
                type_name: type_name.to_owned(),
                field: reserved.to_owned(),
            });
        }
    }
    Ok(())
}

impl NodeSchema {
    /// Normalizes `raw` for the primitive `type_name`, checking it against
    /// the meta-schema now or leaving that to the compiler (`meta`).
    pub fn new(type_name: &str, raw: Value, meta: MetaCheck) -> Result<NodeSchema, IsomerError> {
        let invalid = |reason: &str| IsomerError::InvalidSchema {
            type_name: type_name.to_owned(),
            reason: reason.to_owned(),
        };
        let Value::Object(mut raw) = raw else {
            return Err(invalid("the schema is not a JSON object"));
        };
        match raw.get("type") {
            None => {}
            Some(Value::String(kind)) if kind == "object" => {}
            Some(_) => return Err(invalid("the schema does not describe an object")),
        }
        let mut defs = match raw.remove("$defs") {
            None => Map::new(),
            Some(Value::Object(defs)) => defs,
            Some(_) => return Err(invalid("$defs is not an object")),
        };
        defs.remove(BODY_NODE_DEF);
        let mut properties = match raw.remove("properties") {
            None => Map::new(),
            Some(Value::Object(properties)) => properties,
            Some(_) => return Err(invalid("properties is not an object")),
        };
        check_reserved_fields(type_name, properties.keys().map(String::as_str))?;
        properties.remove("type");
        let mut required: Vec<Value> = match raw.remove("required") {
            None => Vec::new(),
            Some(Value::Array(items)) => items,
            Some(_) => return Err(invalid("required is not an array")),
        };
        required.retain(|key| key.as_str() != Some("type"));
        let loose = raw.remove("additionalProperties") == Some(Value::Bool(true));
        for key in ["$schema", "title", "type", "$id"] {
            raw.remove(key);
        }
        let fields: Vec<String> = properties.keys().cloned().collect();

        let mut member_properties = Map::new();
        member_properties.insert(
            "type".into(),
            json!({ "type": "string", "const": type_name }),
        );
        member_properties.extend(properties);
        member_properties.insert("id".into(), json!({ "type": "string", "minLength": 1 }));
        member_properties.insert(
            "surfaces".into(),
            json!({ "type": "array", "minItems": 1, "items": { "enum": SURFACE_NAMES } }),
        );
        let mut member = Map::new();
        member.insert("type".into(), json!("object"));
        if let Some(description) = raw.remove("description") {
            member.insert("description".into(), description);
        }
        member.insert("properties".into(), Value::Object(member_properties));
        let mut all_required = vec![json!("type")];
        all_required.extend(required);
        member.insert("required".into(), Value::Array(all_required));
        member.insert("additionalProperties".into(), Value::Bool(loose));
        member.extend(raw);
        let mut member = Value::Object(member);
        // The validator also bounds Rust integer fields by their type's range
        // (read from schemars' `format` before normalizing drops it): a value
        // the struct cannot hold is refused with `must be at most N` instead
        // of failing to deserialize later (a node the renderers would drop).
        // Exported schemas keep upstream's shape, without these bounds.
        let mut validator = member.clone();
        let mut validator_defs = defs.clone();
        bound_rust_integers(&mut validator);
        for def in validator_defs.values_mut() {
            bound_rust_integers(def);
        }
        normalize(&mut member);
        normalize(&mut validator);
        for def in defs.values_mut() {
            normalize(def);
        }
        for def in validator_defs.values_mut() {
            normalize(def);
        }

        if let Some(properties) = validator
            .get_mut("properties")
            .and_then(Value::as_object_mut)
        {
            if let Some(id) = properties.get_mut("id").and_then(Value::as_object_mut) {
                id.insert(ERROR_MESSAGE_KEYWORD.into(), json!(ID_MESSAGE));
            }
            if let Some(surfaces) = properties
                .get_mut("surfaces")
                .and_then(Value::as_object_mut)
            {
                surfaces.insert(
                    ERROR_MESSAGE_KEYWORD.into(),
                    json!({ "minItems": SURFACES_EMPTY_MESSAGE }),
                );
            }
        }
        validator_defs.insert(BODY_NODE_DEF.into(), json!({ "type": "object" }));
        if let Value::Object(map) = &mut validator {
            map.insert(
                "$schema".into(),
                json!("https://json-schema.org/draft/2020-12/schema"),
            );
            map.insert("$defs".into(), Value::Object(validator_defs));
        }
        // Compiling waits for the first node of this type (a process that
        // checks one answer pays only for the types it meets); the
        // meta-schema check catches the malformed schemas now.
        if meta == MetaCheck::Now {
            check_against_meta_schema(&validator).map_err(|reason| invalid(&reason))?;
        }
        let strips = has_ordinary_object(&validator);
        Ok(NodeSchema {
            member,
            defs,
            validator,
            fields,
            compiled: OnceLock::new(),
            strips,
        })
    }

    /// The compiled validator, compiled on the first call (thread-safe;
    /// later calls share it). `Err` holds the compiler's message for a
    /// schema that passed the meta-schema check but does not compile (a
    /// `pattern` that is no regular expression, a `$ref` to nothing).
    pub fn compiled(&self) -> Result<&jsonschema::Validator, &str> {
        self.compiled
            .get_or_init(|| compile(&self.validator))
            .as_ref()
            .map_err(String::as_str)
    }

    /// Whether [`NodeSchema::compiled`] has run.
    #[cfg(test)]
    pub fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }
}

/// True when some subschema below the root of `schema` declares
/// `properties` without `additionalProperties` or `patternProperties`: an
/// ordinary object whose unknown keys `parse` drops. Over-approximates (a
/// property *named* `properties` counts too), which only costs a useless
/// sanitizing pass. Iterative.
fn has_ordinary_object(schema: &Value) -> bool {
    let mut pending: Vec<&Value> = match schema {
        Value::Object(map) => map.values().collect(),
        _ => return false,
    };
    while let Some(current) = pending.pop() {
        match current {
            Value::Object(map) => {
                if map.contains_key("properties")
                    && !map.contains_key("additionalProperties")
                    && !map.contains_key("patternProperties")
                {
                    return true;
                }
                pending.extend(map.values());
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    false
}

/// Adds `minimum`/`maximum` (where absent) to every subschema whose
/// schemars `format` names a Rust integer type: the range that type holds.
/// Iterative.
fn bound_rust_integers(schema: &mut Value) {
    let mut stack: Vec<&mut Value> = vec![schema];
    while let Some(current) = stack.pop() {
        match current {
            Value::Object(map) => {
                let bounds: Option<(Value, Value)> = match map.get("format").and_then(Value::as_str)
                {
                    Some("int8") => Some((json!(i8::MIN), json!(i8::MAX))),
                    Some("uint8") => Some((json!(0), json!(u8::MAX))),
                    Some("int16") => Some((json!(i16::MIN), json!(i16::MAX))),
                    Some("uint16") => Some((json!(0), json!(u16::MAX))),
                    Some("int32") => Some((json!(i32::MIN), json!(i32::MAX))),
                    Some("uint32") => Some((json!(0), json!(u32::MAX))),
                    Some("int64" | "int") => Some((json!(i64::MIN), json!(i64::MAX))),
                    Some("uint64" | "uint") => Some((json!(0), json!(u64::MAX))),
                    _ => None,
                };
                if let Some((minimum, maximum)) = bounds {
                    map.entry("minimum").or_insert(minimum);
                    map.entry("maximum").or_insert(maximum);
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// Rewrites schemars output to the conventions of Isomer schemas, in place
/// and over every subschema: optional properties lose their `null`
/// alternative (absent, not null, as Zod's `.optional()`), and Rust numeric
/// `format`s are dropped. Iterative.
pub(crate) fn normalize(schema: &mut Value) {
    let mut stack: Vec<&mut Value> = vec![schema];
    while let Some(current) = stack.pop() {
        let Value::Object(map) = current else {
            continue;
        };
        collapse_const_union(map);
        if map
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|format| RUST_NUMBER_FORMATS.contains(&format))
        {
            map.remove("format");
        }
        let required: Vec<String> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(Value::Object(properties)) = map.get_mut("properties") {
            for (key, property) in properties.iter_mut() {
                if !required.contains(key) {
                    drop_null_alternative(property);
                }
            }
        }
        for (key, child) in map.iter_mut() {
            match key.as_str() {
                "properties" | "$defs" | "patternProperties" => {
                    if let Value::Object(children) = child {
                        stack.extend(children.values_mut());
                    }
                }
                "items" | "additionalProperties" | "not" | "contains" | "propertyNames" => {
                    stack.push(child)
                }
                "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                    if let Value::Array(children) = child {
                        stack.extend(children.iter_mut());
                    }
                }
                _ => {}
            }
        }
    }
}

/// A `oneOf`/`anyOf` whose options are all `const`s (what schemars derives
/// for a documented unit enum) becomes one `enum` (declaration order), so
/// a mismatch reads `must be one of: …` as Zod's enum does. The options'
/// descriptions are dropped; the union's own keys are kept.
fn collapse_const_union(map: &mut Map<String, Value>) {
    for union in ["oneOf", "anyOf"] {
        let Some(Value::Array(options)) = map.get(union) else {
            continue;
        };
        if options.is_empty() || !options.iter().all(|o| o.get("const").is_some()) {
            continue;
        }
        let values: Vec<Value> = options.iter().map(|o| o["const"].clone()).collect();
        let strings = values.iter().all(Value::is_string);
        map.remove(union);
        if strings {
            map.entry("type").or_insert_with(|| json!("string"));
        }
        map.insert("enum".into(), Value::Array(values));
    }
}

/// `{"type": ["string", "null"]}` → `{"type": "string"}`;
/// `{"anyOf": [X, {"type": "null"}]}` → X (the property's own keys kept).
fn drop_null_alternative(property: &mut Value) {
    let Value::Object(map) = property else {
        return;
    };
    let mut had_null_type = false;
    if let Some(Value::Array(types)) = map.get_mut("type") {
        let before = types.len();
        types.retain(|t| t.as_str() != Some("null"));
        had_null_type = types.len() < before;
        if types.len() == 1 {
            let only = types.remove(0);
            map.insert("type".into(), only);
        }
    }
    // An optional enum (`Option<Size>`) also lists `null` among its values.
    if had_null_type && let Some(Value::Array(values)) = map.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    for union in ["anyOf", "oneOf"] {
        let Some(Value::Array(options)) = map.get(union) else {
            continue;
        };
        let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
        if options.len() == 2 && options.iter().any(is_null) {
            let Some(Value::Array(options)) = map.remove(union) else {
                continue;
            };
            let kept = options
                .into_iter()
                .find(|v| !is_null(v))
                .unwrap_or(Value::Null);
            if let Value::Object(kept) = kept {
                for (key, value) in kept {
                    map.entry(key).or_insert(value);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_validator_compiles_on_first_use_only() {
        let schema = NodeSchema::new(
            "note",
            json!({ "type": "object", "properties": { "text": { "type": "string" } } }),
            MetaCheck::Now,
        )
        .unwrap();
        assert!(!schema.is_compiled());
        let validator = schema.compiled().unwrap();
        assert!(validator.is_valid(&json!({ "type": "note", "text": "x" })));
        assert!(!validator.is_valid(&json!({ "type": "note", "text": 5 })));
        assert!(schema.is_compiled());
    }

    #[test]
    fn optional_properties_lose_null_and_rust_formats() {
        let mut schema = json!({
            "properties": {
                "a": { "type": ["string", "null"] },
                "b": { "anyOf": [ { "$ref": "#/$defs/X" }, { "type": "null" } ], "description": "B" },
                "c": { "type": ["integer", "null"], "format": "uint32", "minimum": 0 },
                "d": { "type": ["string", "null"] },
                "e": { "oneOf": [ { "const": "x", "description": "X" }, { "const": "y" } ] },
                "f": { "type": ["string", "null"], "enum": ["l", "m", null] }
            },
            "required": ["d"]
        });
        normalize(&mut schema);
        assert_eq!(
            schema["properties"],
            json!({
                "a": { "type": "string" },
                "b": { "$ref": "#/$defs/X", "description": "B" },
                "c": { "type": "integer", "minimum": 0 },
                "d": { "type": ["string", "null"] },
                "e": { "type": "string", "enum": ["x", "y"] },
                "f": { "type": "string", "enum": ["l", "m"] }
            })
        );
    }

    #[test]
    fn node_schemas_add_type_id_surfaces_and_close_the_object() {
        let schema = NodeSchema::new(
            "kpi",
            json!({ "title": "Kpi", "type": "object", "properties": { "type": { "type": "string" }, "label": { "type": "string" } },
                    "required": ["type", "label"] }),
            MetaCheck::Now,
        )
        .unwrap();
        assert_eq!(schema.fields, vec!["label".to_owned()]);
        let keys: Vec<&String> = schema.member["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(keys, vec!["type", "label", "id", "surfaces"]);
        assert_eq!(schema.member["required"], json!(["type", "label"]));
        assert_eq!(schema.member["additionalProperties"], json!(false));
        assert!(schema.member.get("title").is_none());
        assert_eq!(
            schema.validator["$defs"]["bodyNode"],
            json!({ "type": "object" })
        );
        assert_eq!(
            schema.validator["properties"]["id"]["errorMessage"],
            json!(ID_MESSAGE)
        );
    }

    #[test]
    fn lengths_count_utf16_code_units() {
        let validator = compile(&json!({ "minLength": 2, "maxLength": 3 })).unwrap();
        assert!(!validator.is_valid(&json!("a")));
        assert!(validator.is_valid(&json!("😀")));
        assert!(!validator.is_valid(&json!("😀😀")));
        // Two- and three-byte characters are one code unit each: the byte
        // length alone decides neither bound.
        assert!(!validator.is_valid(&json!("é")));
        assert!(!validator.is_valid(&json!("€")));
        assert!(validator.is_valid(&json!("éé")));
        assert!(validator.is_valid(&json!("€€€")));
        assert!(!validator.is_valid(&json!("€€€€")));
        assert!(!validator.is_valid(&json!("ab😀")));
        assert!(validator.is_valid(&json!(5)));
        assert!(compile(&json!({ "minLength": "x" })).is_err());
    }
}
