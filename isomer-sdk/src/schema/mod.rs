//! JSON Schemas: each primitive's node schema, the composition schema in
//! its two projections (validator and authoring), the lookups of
//! the authoring context (`schema_for`, `describe_primitives`) and view
//! input schemas.

pub(crate) mod authoring;
pub(crate) mod composition;
pub(crate) mod describe;
pub(crate) mod input;
pub(crate) mod node;
pub(crate) mod root;
pub(crate) mod shape;
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

/// The `$ref` of the def `name`: `#/$defs/<name>`, the name escaped as a
/// JSON pointer token (`~` → `~0`, `/` → `~1`) and percent-encoded where a
/// URI fragment needs it (a type `my kpi` is `#/$defs/my%20kpi`).
pub(crate) fn def_ref(name: &str) -> String {
    let token = name.replace('~', "~0").replace('/', "~1");
    let mut out = String::from("#/$defs/");
    for byte in token.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~$".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The def name a `#/$defs/…` reference points at (the inverse of
/// [`def_ref`]); `None` for any other reference.
pub(crate) fn def_name_of(reference: &str) -> Option<String> {
    let token = percent_decode(reference.strip_prefix("#/$defs/")?)?;
    if token.contains('/') {
        return None;
    }
    Some(token.replace("~1", "/").replace("~0", "~"))
}

/// Decodes `%XX` escapes; `None` when they do not form UTF-8.
pub(crate) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' && index + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[index + 1..index + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Every `#/$defs/<name>` name `schema` references, in first-seen order.
pub(crate) fn referenced_defs(schema: &Value) -> Vec<String> {
    let mut copy = schema.clone();
    let mut names = Vec::new();
    for_each_ref_mut(&mut copy, |reference| {
        if let Some(name) = def_name_of(reference)
            && !names.contains(&name)
        {
            names.push(name);
        }
    });
    names
}

/// The target of a local `$ref` (`#/$defs/name`, `#` for the root).
pub(crate) fn follow_ref<'a>(document: &'a Value, schema: &Value) -> Option<&'a Value> {
    let reference = schema.get("$ref")?.as_str()?;
    let pointer = percent_decode(reference.strip_prefix('#')?)?;
    document.pointer(&pointer)
}

/// Follows `$ref`s until a schema without one (at most 32 hops).
pub(crate) fn resolve_refs<'a>(document: &'a Value, mut schema: &'a Value) -> &'a Value {
    for _ in 0..32 {
        match follow_ref(document, schema) {
            Some(target) => schema = target,
            None => break,
        }
    }
    schema
}
