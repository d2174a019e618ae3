//! `describe_primitives` (upstream `describePrimitives`): the catalog entries of some types, the
//! authoring-schema defs they reach, and each type's fields as
//! [`PropDescriptor`]s; at most [`MAX_DESCRIBED_TYPES`] types per call.
//!
//! # Field descriptors
//!
//! A primitive's fields are the `properties` of its def in the authoring
//! schema, in the schema's order, minus the `type` discriminator (the props
//! map is keyed by it already, and a model never chooses it). Each field's
//! schema is read as follows; `$ref`s into `$defs` are followed, and
//! `bodyNode` (one child node) reads as an object named `BodyNode`:
//!
//! | schema | kind | display |
//! |---|---|---|
//! | `"type": "string"` | string | `string` |
//! | `"type": "number"` or `"integer"` | number | `number` |
//! | `"type": "boolean"` | boolean | `boolean` |
//! | `"enum": ["a", "b"]`, `"const": "a"`, a union of those | enum | `"a" \| "b"` |
//! | `"type": "array", "items": X` | array | `X[]`, `("a" \| "b")[]`, `BodyNode[]` |
//! | `"type": "array", "prefixItems": [X, Y]` | array | `[X, Y]` |
//! | `"type": "object"`, or `properties` | object | `object` |
//! | `{"$ref": "#/$defs/bodyNode"}` | object | `BodyNode` |
//! | `anyOf`/`oneOf`/`type: [...]` with `null` and one other branch | the other branch's | the other branch's |
//! | `allOf` of exactly one schema | that schema's | that schema's |
//! | `{"type": "null"}`, `{"const": null}`, `{"enum": [null]}` | other | `null` |
//! | any other union | other | the branches joined by ` \| ` (`string \| number`) |
//! | a non-string `enum`/`const` | other | JSON literals (`1 \| 2`) |
//! | `{}`, `true`, an `allOf` of two or more schemas, an unresolvable or cyclic `$ref` | other | `unknown` |
//!
//! Display strings follow TypeScript type syntax (strings JSON-quoted), as
//! the upstream runtime's `.d.ts` declarations do, so they read the same to
//! a model and to an editor user.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use crate::catalog::{
    MAX_DESCRIBED_TYPES, PrimitiveDescriptions, PrimitiveProps, PropDescriptor, PropKind,
};
use crate::error::IsomerError;
use crate::js::{compact_json, quote_text};
use crate::node::BODY_NODE_DEF;
use crate::primitive::Primitive;
use crate::schema::{def_name_of, referenced_defs};

/// The stub that stands for the body-node union in a lookup's defs.
pub const BODY_NODE_STUB: &str = "Any primitive in the catalog, as its own object with its type.";

/// How a one-child-node field (`$ref` to `bodyNode`) is displayed: the name
/// of the body-node union in upstream's `.d.ts` declarations.
const BODY_NODE_DISPLAY: &str = "BodyNode";

/// How many `$ref` hops and nested array/union levels a field's shape is
/// followed before it reads as `unknown`: deep enough for any schema a
/// pack declares, and a recursive def cannot loop.
const MAX_SHAPE_DEPTH: usize = 32;

/// Refuses a lookup of more than [`MAX_DESCRIBED_TYPES`] distinct types,
/// counted after deduplication (a repeated type is one type, as the answer
/// holds it once) and before the types are looked up (so a huge request of
/// unknown names costs one pass, not a list of every unknown one).
///
/// # Errors
/// [`IsomerError::TooManyTypes`] with `context`, the distinct count and the
/// limit.
pub(crate) fn check_type_count(types: &[&str], context: &str) -> Result<(), IsomerError> {
    let distinct: HashSet<&str> = types.iter().copied().collect();
    if distinct.len() > MAX_DESCRIBED_TYPES {
        return Err(IsomerError::TooManyTypes {
            context: context.to_owned(),
            count: distinct.len(),
            limit: MAX_DESCRIBED_TYPES,
        });
    }
    Ok(())
}

/// The entries of `primitives` (already deduplicated, first-seen order),
/// `{ "$defs": … }` (the defs they reach through `#/$defs/` refs, keyed and
/// ordered as in `authoring`, `bodyNode` replaced by [`BODY_NODE_STUB`]),
/// and their fields read from their defs in `authoring`.
pub(crate) fn describe_primitives(
    authoring: &Value,
    primitives: &[Primitive],
) -> PrimitiveDescriptions {
    let all = authoring
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut reached: Vec<String> = primitives
        .iter()
        .map(|p| p.type_name().to_owned())
        .collect();
    let mut next = 0;
    while next < reached.len() {
        if reached[next] != BODY_NODE_DEF
            && let Some(def) = all.get(&reached[next])
        {
            for name in referenced_defs(def) {
                if !reached.contains(&name) {
                    reached.push(name);
                }
            }
        }
        next += 1;
    }
    let mut defs = Map::new();
    for (name, def) in &all {
        if !reached.contains(name) {
            continue;
        }
        if name == BODY_NODE_DEF {
            defs.insert(name.clone(), json!({ "description": BODY_NODE_STUB }));
        } else {
            defs.insert(name.clone(), def.clone());
        }
    }
    let props: PrimitiveProps = primitives
        .iter()
        .map(|p| {
            (
                p.type_name().to_owned(),
                describe_props(&all, p.type_name()),
            )
        })
        .collect();
    PrimitiveDescriptions {
        primitives: primitives
            .iter()
            .map(|p| p.catalog_entry().clone())
            .collect(),
        schema: json!({ "$defs": defs }),
        props,
    }
}

/// The fields of the def `type_name` in `defs`, in property order, without
/// the `type` discriminator; empty when the def is missing or has no
/// `properties`.
fn describe_props(defs: &Map<String, Value>, type_name: &str) -> Vec<PropDescriptor> {
    let Some(def) = defs.get(type_name).map(|def| resolve(defs, def)) else {
        return Vec::new();
    };
    let required: Vec<&str> = def
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = def.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .filter(|(name, _)| name.as_str() != "type")
        .map(|(name, schema)| {
            let shape = shape_of(defs, schema, 0);
            PropDescriptor {
                name: name.clone(),
                type_name: shape.display,
                kind: shape.kind,
                values: shape.values,
                required: required.contains(&name.as_str()),
                description: description_of(defs, schema, 0).unwrap_or_default(),
            }
        })
        .collect()
}

/// `schema` with a chain of `$ref`-only hops into `defs` followed (a def
/// that is itself a bare `$ref`), bounded by [`MAX_SHAPE_DEPTH`].
fn resolve<'a>(defs: &'a Map<String, Value>, mut schema: &'a Value) -> &'a Value {
    for _ in 0..MAX_SHAPE_DEPTH {
        match schema.as_object() {
            Some(map) if map.len() == 1 => match ref_target(defs, schema) {
                Some(target) => schema = target,
                None => break,
            },
            _ => break,
        }
    }
    schema
}

/// The def a schema's `$ref` points at, when it is a `#/$defs/…` ref to a
/// def other than `bodyNode` that `defs` holds.
fn ref_target<'a>(defs: &'a Map<String, Value>, schema: &Value) -> Option<&'a Value> {
    let name = def_name_of(schema.get("$ref")?.as_str()?)?;
    if name == BODY_NODE_DEF {
        return None;
    }
    defs.get(&name)
}

/// True for a `$ref` to `bodyNode`.
fn is_body_node_ref(schema: &Value) -> bool {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(def_name_of)
        .is_some_and(|name| name == BODY_NODE_DEF)
}

/// A field's own description, else the description of the def it
/// references, else that of the one non-null branch of a nullable union.
fn description_of(defs: &Map<String, Value>, schema: &Value, depth: usize) -> Option<String> {
    if depth > MAX_SHAPE_DEPTH {
        return None;
    }
    if let Some(text) = schema.get("description").and_then(Value::as_str) {
        return Some(text.to_owned());
    }
    if let Some(target) = ref_target(defs, schema) {
        return description_of(defs, target, depth + 1);
    }
    match non_null_branches(schema)?.as_slice() {
        [only] => description_of(defs, only, depth + 1),
        _ => None,
    }
}

/// The branches of an `anyOf`/`oneOf` other than `null` ones; `None` when
/// the schema has neither keyword.
fn non_null_branches(schema: &Value) -> Option<Vec<&Value>> {
    let branches = schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))?
        .as_array()?;
    Some(branches.iter().filter(|branch| !is_null(branch)).collect())
}

/// True for a schema that admits only `null` (`{"type": "null"}`,
/// `{"const": null}`, `{"enum": [null]}`).
fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
        || schema.get("const").is_some_and(Value::is_null)
        || schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.len() == 1 && values[0].is_null())
}

/// What a field's schema reads as: its display string, kind and enum
/// choices.
#[derive(Debug, Clone, PartialEq)]
struct Shape {
    display: String,
    kind: PropKind,
    values: Option<Vec<String>>,
    /// The display is a top-level ` | ` union, so an array of it needs
    /// parentheses (`("a" | "b")[]`).
    union: bool,
}

impl Shape {
    fn plain(display: &str, kind: PropKind) -> Shape {
        Shape {
            display: display.to_owned(),
            kind,
            values: None,
            union: false,
        }
    }

    fn unknown() -> Shape {
        Shape::plain("unknown", PropKind::Other)
    }

    /// The alternatives `displays` joined as `a | b`: a union when there
    /// are two or more.
    fn alternatives(displays: Vec<String>, kind: PropKind, values: Option<Vec<String>>) -> Shape {
        Shape {
            union: displays.len() > 1,
            display: displays.join(" | "),
            kind,
            values,
        }
    }

    /// The string choices `values` as an enum (`"a" | "b"`).
    fn string_enum(values: Vec<String>) -> Shape {
        let displays = values.iter().map(|value| quote_text(value)).collect();
        Shape::alternatives(displays, PropKind::Enum, Some(values))
    }

    /// Non-string literals: kind other, displayed as JSON.
    fn literals(values: &[&Value]) -> Shape {
        let displays = values.iter().map(|value| compact_json(value)).collect();
        Shape::alternatives(displays, PropKind::Other, None)
    }

    /// One of `shapes` (at least two): an enum when every one is an enum
    /// (choices merged in order, repeats dropped), else kind other with the
    /// distinct displays joined.
    fn union_of(shapes: Vec<Shape>) -> Shape {
        if shapes.iter().all(|shape| shape.kind == PropKind::Enum) {
            let mut values: Vec<String> = Vec::new();
            for value in shapes.into_iter().flat_map(|shape| shape.values) {
                for choice in value {
                    if !values.contains(&choice) {
                        values.push(choice);
                    }
                }
            }
            return Shape::string_enum(values);
        }
        let mut displays: Vec<String> = Vec::new();
        for shape in shapes {
            if !displays.contains(&shape.display) {
                displays.push(shape.display);
            }
        }
        Shape::alternatives(displays, PropKind::Other, None)
    }

    /// This shape as an array item: `X[]`, parenthesized when `X` is a union.
    fn array_of(self) -> Shape {
        let display = if self.union {
            format!("({})[]", self.display)
        } else {
            format!("{}[]", self.display)
        };
        Shape {
            display,
            kind: PropKind::Array,
            values: None,
            union: false,
        }
    }
}

/// Reads `schema` (a field's, or an item's) as a [`Shape`]; see the module
/// table for the rules. `depth` counts `$ref` hops and nesting.
fn shape_of(defs: &Map<String, Value>, schema: &Value, depth: usize) -> Shape {
    if depth > MAX_SHAPE_DEPTH {
        return Shape::unknown();
    }
    let Some(map) = schema.as_object() else {
        return Shape::unknown();
    };
    if map.contains_key("$ref") {
        if is_body_node_ref(schema) {
            return Shape::plain(BODY_NODE_DISPLAY, PropKind::Object);
        }
        return match ref_target(defs, schema) {
            Some(target) => shape_of(defs, target, depth + 1),
            None => Shape::unknown(),
        };
    }
    if let Some(value) = map.get("const") {
        return match value {
            Value::String(text) => Shape::string_enum(vec![text.clone()]),
            other => Shape::literals(&[other]),
        };
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        let values: Vec<&Value> = values.iter().filter(|value| !value.is_null()).collect();
        if values.is_empty() {
            // `enum: [null]` admits only null, as `const: null` does.
            return Shape::plain("null", PropKind::Other);
        }
        let strings: Option<Vec<String>> = values
            .iter()
            .map(|value| value.as_str().map(str::to_owned))
            .collect();
        return match strings {
            Some(strings) if !strings.is_empty() => Shape::string_enum(strings),
            _ => Shape::literals(&values),
        };
    }
    if let Some(branches) = non_null_branches(schema) {
        let mut shapes: Vec<Shape> = branches
            .into_iter()
            .map(|branch| shape_of(defs, branch, depth + 1))
            .collect();
        return match shapes.len() {
            0 => Shape::plain("null", PropKind::Other),
            1 => shapes.remove(0),
            _ => Shape::union_of(shapes),
        };
    }
    if let Some(Value::Array(parts)) = map.get("allOf")
        && let [only] = parts.as_slice()
    {
        return shape_of(defs, only, depth + 1);
    }
    match map.get("type") {
        Some(Value::String(name)) => shape_of_type(defs, map, name, depth),
        Some(Value::Array(names)) => {
            let names: Vec<&str> = names
                .iter()
                .filter_map(Value::as_str)
                .filter(|name| *name != "null")
                .collect();
            let mut shapes: Vec<Shape> = names
                .iter()
                .map(|name| shape_of_type(defs, map, name, depth))
                .collect();
            match shapes.len() {
                0 => Shape::plain("null", PropKind::Other),
                1 => shapes.remove(0),
                _ => Shape::union_of(shapes),
            }
        }
        _ if map.contains_key("properties") => Shape::plain("object", PropKind::Object),
        _ => Shape::unknown(),
    }
}

/// The shape of `map` read as JSON Schema type `name`.
fn shape_of_type(
    defs: &Map<String, Value>,
    map: &Map<String, Value>,
    name: &str,
    depth: usize,
) -> Shape {
    match name {
        "string" => Shape::plain("string", PropKind::String),
        "number" | "integer" => Shape::plain("number", PropKind::Number),
        "boolean" => Shape::plain("boolean", PropKind::Boolean),
        "object" => Shape::plain("object", PropKind::Object),
        "null" => Shape::plain("null", PropKind::Other),
        "array" => {
            if let Some(Value::Array(items)) = map.get("prefixItems") {
                let parts: Vec<String> = items
                    .iter()
                    .map(|item| shape_of(defs, item, depth + 1).display)
                    .collect();
                return Shape {
                    display: format!("[{}]", parts.join(", ")),
                    kind: PropKind::Array,
                    values: None,
                    union: false,
                };
            }
            match map.get("items") {
                Some(items) if items.is_object() => shape_of(defs, items, depth + 1).array_of(),
                _ => Shape::unknown().array_of(),
            }
        }
        _ => Shape::unknown(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(schema: Value) -> Shape {
        let defs = json!({
            "Tone": { "type": "string", "enum": ["a", "b"] },
            "Alias": { "$ref": "#/$defs/Tone" },
            "Loop": { "$ref": "#/$defs/Loop" },
            "Tree": { "type": "array", "items": { "$ref": "#/$defs/Tree" } },
        });
        shape_of(defs.as_object().unwrap(), &schema, 0)
    }

    fn display(schema: Value) -> (String, PropKind) {
        let shape = shape(schema);
        (shape.display, shape.kind)
    }

    #[test]
    fn scalars_and_literals() {
        use PropKind::*;
        assert_eq!(
            display(json!({"type": "integer"})),
            ("number".into(), Number)
        );
        assert_eq!(
            display(json!({"type": "boolean"})),
            ("boolean".into(), Boolean)
        );
        assert_eq!(display(json!({"const": "x"})), ("\"x\"".into(), Enum));
        assert_eq!(display(json!({"const": 3})), ("3".into(), Other));
        assert_eq!(
            display(json!({"enum": [1, 2.5]})),
            ("1 | 2.5".into(), Other)
        );
        assert_eq!(
            display(json!({"enum": ["a", null]})),
            ("\"a\"".into(), Enum)
        );
        assert_eq!(display(json!({"type": "null"})), ("null".into(), Other));
        assert_eq!(display(json!({})), ("unknown".into(), Other));
        assert_eq!(
            display(json!({"type": "object", "properties": {"a": {}}})),
            ("object".into(), Object)
        );
        assert_eq!(
            display(json!({"properties": {}})),
            ("object".into(), Object)
        );
        assert_eq!(display(json!(true)), ("unknown".into(), Other));
    }

    #[test]
    fn unions_drop_null_and_merge_string_choices() {
        use PropKind::*;
        assert_eq!(
            display(json!({"type": ["string", "null"]})),
            ("string".into(), String)
        );
        assert_eq!(
            display(json!({"type": ["string", "number"]})),
            ("string | number".into(), Other)
        );
        assert_eq!(
            display(json!({"anyOf": [{"$ref": "#/$defs/Tone"}, {"type": "null"}]})),
            ("\"a\" | \"b\"".into(), Enum)
        );
        let merged = shape(json!({"oneOf": [{"const": "x"}, {"const": "y"}, {"const": "x"}]}));
        assert_eq!(merged.display, "\"x\" | \"y\"");
        assert_eq!(merged.values, Some(vec!["x".to_owned(), "y".to_owned()]));
        assert_eq!(
            display(
                json!({"anyOf": [{"type": "string"}, {"type": "string"}, {"type": "integer"}]})
            ),
            ("string | number".into(), Other)
        );
        assert_eq!(
            display(json!({"anyOf": [{"type": "null"}]})),
            ("null".into(), Other)
        );
    }

    #[test]
    fn arrays_parenthesize_unions_and_read_tuples() {
        use PropKind::*;
        assert_eq!(
            display(json!({"type": "array", "items": {"$ref": "#/$defs/Alias"}})),
            ("(\"a\" | \"b\")[]".into(), Array)
        );
        assert_eq!(
            display(
                json!({"type": "array", "items": {"type": "array", "items": {"type": "string"}}})
            ),
            ("string[][]".into(), Array)
        );
        assert_eq!(
            display(
                json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}]})
            ),
            ("[number, string]".into(), Array)
        );
        assert_eq!(
            display(json!({"type": "array"})),
            ("unknown[]".into(), Array)
        );
        assert_eq!(
            display(json!({"type": "array", "items": {"$ref": "#/$defs/bodyNode"}})),
            ("BodyNode[]".into(), Array)
        );
    }

    #[test]
    fn recursive_and_broken_refs_end_as_unknown() {
        assert_eq!(
            display(json!({"$ref": "#/$defs/Loop"})),
            ("unknown".into(), PropKind::Other)
        );
        assert_eq!(
            display(json!({"$ref": "#/$defs/Missing"})),
            ("unknown".into(), PropKind::Other)
        );
        assert_eq!(
            display(json!({"$ref": "https://example.test/schema"})),
            ("unknown".into(), PropKind::Other)
        );
        let tree = shape(json!({"$ref": "#/$defs/Tree"}));
        assert_eq!(tree.kind, PropKind::Array);
        // Each level is a `$ref` hop and an item: 16 levels fit in the 32.
        assert_eq!(tree.display, format!("unknown{}", "[]".repeat(16)));
    }

    #[test]
    fn the_count_check_counts_distinct_types() {
        let hundred: Vec<String> = (0..100).map(|i| format!("t{i}")).collect();
        let mut types: Vec<&str> = hundred.iter().map(String::as_str).collect();
        types.extend(["t0", "t1", "t0"]);
        assert_eq!(check_type_count(&types, "lookup"), Ok(()));
        types.push("extra");
        assert_eq!(
            check_type_count(&types, "lookup"),
            Err(IsomerError::TooManyTypes {
                context: "lookup".into(),
                count: 101,
                limit: 100
            })
        );
    }
}
