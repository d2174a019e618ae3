//! What `parse` sanitizes: keys an ordinary
//! (non-strict) nested object's schema does not declare are dropped, as
//! Zod's output drops them. Strict objects never get here with unknown keys
//! (they failed), loose ones (`additionalProperties` true or a schema) keep
//! theirs, and child slots are left to the child's own pass.

use serde_json::Value;

use super::order::Seg;
use crate::node::BODY_NODE_REF;
use crate::schema::resolve_refs;

/// The deepest schema nesting followed (input is already within the
/// budget's depth, so this only guards odd schemas).
const MAX_SCHEMA_STEPS: usize = 128;

/// An object sanitizing changes: where it is, and the keys it loses.
#[derive(Debug)]
pub(crate) struct Undeclared {
    /// The steps from the composition root to the object.
    pub path: Vec<Seg>,
    /// Its keys that its schema does not declare, in the object's order.
    pub keys: Vec<String>,
}

impl Undeclared {
    /// Drops the keys from the object at `path` inside `composition`, and
    /// says whether one was there to drop: nothing changes when the path no
    /// longer leads to an object (an earlier entry dropped an enclosing
    /// key, or a key name holds `.` or `[`, which a path cannot spell).
    pub(crate) fn apply(&self, composition: &mut Value) -> bool {
        let mut current = composition;
        for segment in &self.path {
            current = match (segment, current) {
                (Seg::Key(key), Value::Object(map)) => match map.get_mut(key) {
                    Some(child) => child,
                    None => return false,
                },
                (Seg::Index(index), Value::Array(items)) => match items.get_mut(*index) {
                    Some(child) => child,
                    None => return false,
                },
                _ => return false,
            };
        }
        let Value::Object(map) = current else {
            return false;
        };
        // A set, so an object with thousands of undeclared keys is not
        // quadratic; `retain` keeps the order of the keys that stay.
        let drop: foldhash::HashSet<&str> = self.keys.iter().map(String::as_str).collect();
        let before = map.len();
        map.retain(|key, _| !drop.contains(key.as_str()));
        map.len() != before
    }
}

/// One step down from the walked value, borrowed while walking.
#[derive(Clone, Copy)]
enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

/// Finds the keys of ordinary nested objects inside `value`, which
/// `schema` (a document resolving its own refs) describes, that the schema
/// does not declare: what `parse` drops, as Zod's output drops them. Each
/// object with such keys is pushed to `found`, its path starting with
/// `prefix` (the steps to `value`). The value's own top level is left
/// alone when `is_node` (a node object is strict or deliberately loose).
/// Reads `value` only; nothing is built for an object that keeps its keys.
pub(crate) fn undeclared_keys<'v>(
    document: &'v Value,
    schema: &'v Value,
    value: &'v Value,
    is_node: bool,
    prefix: impl Fn() -> Vec<Seg>,
    found: &mut Vec<Undeclared>,
) {
    let mut walk = Walk {
        document,
        prefix: &prefix,
        steps: Vec::new(),
        found,
    };
    walk.visit(schema, value, is_node);
}

struct Walk<'a, 'v> {
    document: &'v Value,
    prefix: &'a dyn Fn() -> Vec<Seg>,
    /// The steps from the walked value to the current one.
    steps: Vec<Step<'v>>,
    found: &'a mut Vec<Undeclared>,
}

impl<'v> Walk<'_, 'v> {
    fn visit(&mut self, schema: &'v Value, value: &'v Value, top: bool) {
        if self.steps.len() > MAX_SCHEMA_STEPS {
            return;
        }
        if schema.get("$ref").and_then(Value::as_str) == Some(BODY_NODE_REF) {
            return;
        }
        let schema = resolve_refs(self.document, schema);
        let Some(schema) = pick_option(self.document, schema, value) else {
            return;
        };
        match value {
            Value::Object(map) => {
                let Some(Value::Object(properties)) = schema.get("properties") else {
                    return;
                };
                if !top
                    && schema.get("additionalProperties").is_none()
                    && schema.get("patternProperties").is_none()
                {
                    let keys: Vec<String> = map
                        .keys()
                        .filter(|key| !properties.contains_key(*key))
                        .cloned()
                        .collect();
                    if !keys.is_empty() {
                        let mut path = (self.prefix)();
                        path.extend(self.steps.iter().map(|step| match *step {
                            Step::Key(key) => Seg::Key(key.to_owned()),
                            Step::Index(index) => Seg::Index(index),
                        }));
                        self.found.push(Undeclared { path, keys });
                    }
                }
                for (key, child) in map {
                    if let Some(child_schema) = properties.get(key) {
                        self.steps.push(Step::Key(key));
                        self.visit(child_schema, child, false);
                        self.steps.pop();
                    }
                }
            }
            Value::Array(items) => {
                if let Some(item_schema) = schema.get("items") {
                    for (index, item) in items.iter().enumerate() {
                        self.steps.push(Step::Index(index));
                        self.visit(item_schema, item, false);
                        self.steps.pop();
                    }
                }
            }
            _ => {}
        }
    }
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn finds_undeclared_keys_in_ordinary_objects_and_drops_them_from_a_copy() {
        let schema = json!({
            "type": "object",
            "properties": {
                "rows": {
                    "type": "array",
                    "items": { "type": "object", "properties": { "a": { "type": "number" } } }
                },
                "style": {
                    "type": "object",
                    "properties": { "tone": { "type": "string" } },
                    "additionalProperties": true
                },
                "child": { "$ref": BODY_NODE_REF }
            }
        });
        let value = json!({
            "extra": 0,
            "rows": [{ "x": 2, "a": 1, "y": 3 }, { "a": 4 }],
            "style": { "tone": "calm", "kept": true },
            "child": { "type": "note", "zzz": 1 }
        });
        let mut found = Vec::new();
        let prefix = || vec![Seg::Key("body".into()), Seg::Index(3)];
        undeclared_keys(&schema, &schema, &value, true, prefix, &mut found);
        // The node's own keys, a loose object's and a child slot's are kept.
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].path,
            [
                Seg::Key("body".into()),
                Seg::Index(3),
                Seg::Key("rows".into()),
                Seg::Index(0)
            ]
        );
        assert_eq!(found[0].keys, ["x", "y"]);

        let mut composition = json!({ "body": [0, 1, 2, value.clone()] });
        assert!(found[0].apply(&mut composition));
        assert_eq!(
            composition["body"][3]["rows"],
            json!([{ "a": 1 }, { "a": 4 }])
        );
        assert_eq!(composition["body"][3]["extra"], 0);
        // Applied again, there is nothing left to drop.
        assert!(!found[0].apply(&mut composition));
        // A path that no longer leads to an object changes nothing.
        let mut other = json!({ "body": [] });
        assert!(!found[0].apply(&mut other));
        assert_eq!(other, json!({ "body": [] }));
    }

    #[test]
    fn finds_nothing_in_a_value_with_only_declared_keys() {
        let schema = json!({
            "type": "object",
            "properties": {
                "meta": { "type": "object", "properties": { "source": { "type": "string" } } }
            }
        });
        let value = json!({ "meta": { "source": "s" } });
        let mut found = Vec::new();
        undeclared_keys(&schema, &schema, &value, true, Vec::new, &mut found);
        assert!(found.is_empty(), "{found:?}");
    }
}
