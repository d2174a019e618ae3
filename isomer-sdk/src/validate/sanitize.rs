//! The sanitized copy `parse` returns: keys an ordinary
//! (non-strict) nested object's schema does not declare are dropped, as
//! Zod's output drops them. Strict objects never get here with unknown keys
//! (they failed), loose ones (`additionalProperties` true or a schema) keep
//! theirs, and child slots are left to the child's own pass.

use serde_json::Value;

use crate::node::BODY_NODE_REF;
use crate::schema::resolve_refs;

/// The deepest schema nesting followed (input is already within the
/// budget's depth, so this only guards odd schemas).
const MAX_SCHEMA_STEPS: usize = 128;

/// Drops undeclared keys of ordinary nested objects inside `value`, which
/// `schema` (a document resolving its own refs) describes. The value's own
/// top level is left alone when `is_node` (a node object is strict or
/// deliberately loose). Returns true when a key was dropped (false: `value`
/// is unchanged).
pub(crate) fn strip_unknown(
    document: &Value,
    schema: &Value,
    value: &mut Value,
    is_node: bool,
) -> bool {
    strip(document, schema, value, is_node, 0)
}

fn strip(document: &Value, schema: &Value, value: &mut Value, top: bool, steps: usize) -> bool {
    if steps > MAX_SCHEMA_STEPS {
        return false;
    }
    if schema.get("$ref").and_then(Value::as_str) == Some(BODY_NODE_REF) {
        return false;
    }
    let schema = resolve_refs(document, schema);
    let schema = match pick_option(document, schema, value) {
        Some(option) => option,
        None => return false,
    };
    let mut dropped = false;
    match value {
        Value::Object(map) => {
            let Some(Value::Object(properties)) = schema.get("properties") else {
                return false;
            };
            if !top
                && schema.get("additionalProperties").is_none()
                && schema.get("patternProperties").is_none()
            {
                let before = map.len();
                map.retain(|key, _| properties.contains_key(key));
                dropped |= map.len() != before;
            }
            for (key, child) in map.iter_mut() {
                if let Some(child_schema) = properties.get(key) {
                    dropped |= strip(document, child_schema, child, false, steps + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items {
                    dropped |= strip(document, item_schema, item, false, steps + 1);
                }
            }
        }
        _ => {}
    }
    dropped
}

/// For a union schema, the one option whose `type` admits the value's JSON
/// type (or the schema itself when it is no union); `None` when the choice
/// is ambiguous, so nothing is dropped.
fn pick_option<'a>(document: &'a Value, schema: &'a Value, value: &Value) -> Option<&'a Value> {
    let options = ["anyOf", "oneOf"]
        .iter()
        .find_map(|union| schema.get(*union).and_then(Value::as_array));
    let Some(options) = options else {
        return Some(schema);
    };
    let kind = match value {
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        _ => return Some(schema),
    };
    let mut matching = options
        .iter()
        .map(|option| resolve_refs(document, option))
        .filter(|option| match option.get("type") {
            Some(Value::String(t)) => t == kind,
            Some(Value::Array(types)) => types.iter().any(|t| t == kind),
            None => option.get("properties").is_some() == (kind == "object"),
            _ => false,
        });
    let first = matching.next()?;
    if matching.next().is_some() {
        return None;
    }
    Some(first)
}
