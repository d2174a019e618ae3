//! Issue order: Zod reports issues in traversal order, that is
//! object keys in *schema* order (not input order), array elements in index
//! order, and an object's unrecognized-keys issue after its field issues.
//! Findings collected per node are sorted by a key built here: one number
//! per path step (a key's position among the schema's `properties`, or the
//! array index), compared lexicographically.

use serde_json::Value;

use crate::schema::resolve_refs;

/// One step of a path inside a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// The rank of a key the schema does not declare: after every declared one.
const UNDECLARED: u64 = u64::MAX - 2;

/// The traversal-order key of `segments` under `schema` (a document whose
/// `$ref`s resolve inside itself).
pub(crate) fn key_for(schema: &Value, segments: &[Seg]) -> Vec<u64> {
    let mut key = Vec::with_capacity(segments.len());
    let mut current = Some(schema);
    for segment in segments {
        let here = current.map(|s| resolve_refs(schema, s));
        match segment {
            Seg::Key(name) => {
                let found = here.and_then(|s| property_position(schema, s, name));
                match found {
                    Some((position, next)) => {
                        key.push(position);
                        current = Some(next);
                    }
                    None => {
                        key.push(UNDECLARED);
                        current = None;
                    }
                }
            }
            Seg::Index(index) => {
                key.push(*index as u64);
                current = here.and_then(|s| {
                    s.get("items")
                        .or_else(|| s.get("prefixItems").and_then(|p| p.get(*index)))
                });
            }
        }
    }
    key
}

/// The position of `name` among `schema`'s properties and its subschema,
/// looking through `anyOf` / `oneOf` / `allOf` options when the schema
/// itself does not declare it.
fn property_position<'a>(
    document: &'a Value,
    schema: &'a Value,
    name: &str,
) -> Option<(u64, &'a Value)> {
    if let Some(Value::Object(properties)) = schema.get("properties")
        && let Some(position) = properties.keys().position(|key| key == name)
    {
        return Some((position as u64, &properties[name]));
    }
    for union in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(options)) = schema.get(union) {
            for option in options {
                let option = resolve_refs(document, option);
                if let Some(found) = property_position(document, option, name) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// Parses a child path (`items[0]`, `panes[1].items[0]`) into steps.
/// Unsupported text yields the steps read so far.
pub(crate) fn parse_child_path(path: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (head, mut rest) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        if !head.is_empty() {
            out.push(Seg::Key(head.to_owned()));
        }
        while let Some(stripped) = rest.strip_prefix('[') {
            let Some(end) = stripped.find(']') else {
                return out;
            };
            let Ok(index) = stripped[..end].parse::<usize>() else {
                return out;
            };
            out.push(Seg::Index(index));
            rest = &stripped[end + 1..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_follow_schema_order_and_indexes() {
        let schema = json!({
            "properties": { "b": { "type": "string" }, "a": { "items": { "$ref": "#/$defs/I" } } },
            "$defs": { "I": { "properties": { "y": {}, "x": {} } } }
        });
        let segments = [Seg::Key("a".into()), Seg::Index(3), Seg::Key("x".into())];
        assert_eq!(key_for(&schema, &segments), vec![1, 3, 1]);
        assert_eq!(key_for(&schema, &[Seg::Key("zz".into())]), vec![UNDECLARED]);
    }

    #[test]
    fn parses_child_paths() {
        assert_eq!(
            parse_child_path("panes[1].items[0]"),
            vec![
                Seg::Key("panes".into()),
                Seg::Index(1),
                Seg::Key("items".into()),
                Seg::Index(0)
            ]
        );
        assert_eq!(parse_child_path("aside"), vec![Seg::Key("aside".into())]);
    }
}
