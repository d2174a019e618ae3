//! JSON Schemas: each primitive's node schema, the composition schema in
//! its two projections (validator and authoring, sdk.md §9), the lookups of
//! the authoring context (`schema_for`, `describe_primitives`) and view
//! input schemas.

pub(crate) mod authoring;
pub(crate) mod composition;
pub(crate) mod describe;
pub(crate) mod input;
pub(crate) mod node;
pub(crate) mod root;
pub(crate) mod slots;

use serde_json::Value;

/// Calls `visit` on every schema object inside `schema` (itself included),
/// parents before children, iteratively. Only JSON Schema positions are
/// visited (`properties`, `$defs`, `items`, unions, …), never the contents
/// of `const`, `enum`, `default` or `examples`.
pub(crate) fn for_each_schema_mut(
    schema: &mut Value,
    mut visit: impl FnMut(&mut serde_json::Map<String, Value>),
) {
    let mut stack: Vec<&mut Value> = vec![schema];
    while let Some(current) = stack.pop() {
        let Value::Object(map) = current else {
            continue;
        };
        visit(map);
        for (key, child) in map.iter_mut() {
            match key.as_str() {
                "properties" | "$defs" | "patternProperties" | "dependentSchemas" => {
                    if let Value::Object(children) = child {
                        stack.extend(children.values_mut());
                    }
                }
                "items"
                | "additionalProperties"
                | "not"
                | "contains"
                | "propertyNames"
                | "if"
                | "then"
                | "else"
                | "unevaluatedProperties"
                | "unevaluatedItems" => stack.push(child),
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

/// Calls `visit` on every `$ref` string inside `schema`, iteratively.
pub(crate) fn for_each_ref_mut(schema: &mut Value, mut visit: impl FnMut(&mut String)) {
    for_each_schema_mut(schema, |map| {
        if let Some(Value::String(reference)) = map.get_mut("$ref") {
            visit(reference);
        }
    });
}

/// Every `#/$defs/<name>` name `schema` references, in first-seen order.
pub(crate) fn referenced_defs(schema: &Value) -> Vec<String> {
    let mut copy = schema.clone();
    let mut names = Vec::new();
    for_each_ref_mut(&mut copy, |reference| {
        if let Some(name) = reference.strip_prefix("#/$defs/")
            && !names.iter().any(|n: &String| n == name)
        {
            names.push(name.to_owned());
        }
    });
    names
}
