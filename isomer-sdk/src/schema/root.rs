//! The composition root: `type`, `version`, `title`,
//! `subtitle`, `theme`, `body`, `meta`, strict at the root, `meta` and its
//! sub-objects ordinary (unknown keys dropped by `parse`).

use serde_json::{Value, json};

use crate::composition::THEMES;
use crate::schema::node::ERROR_MESSAGE_KEYWORD;

/// The message of an empty `body`, as upstream words it.
pub(crate) const BODY_EMPTY_MESSAGE: &str = "must contain at least one node";

/// The `meta` object schema (every field optional, plain strings except
/// `stale`, `degraded` (booleans) and `ttlSeconds` (a number)).
pub(crate) fn meta_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "source": { "type": "string" },
            "generatedAt": { "type": "string" },
            "ariaLabel": { "type": "string" },
            "provenance": {
                "type": "object",
                "properties": {
                    "source": { "type": "string" },
                    "query": { "type": "string" },
                    "provider": { "type": "string" }
                }
            },
            "freshness": {
                "type": "object",
                "properties": {
                    "asOf": { "type": "string" },
                    "stale": { "type": "boolean" },
                    "ttlSeconds": { "type": "number" }
                }
            },
            "partialFailure": {
                "type": "object",
                "properties": {
                    "degraded": { "type": "boolean" },
                    "reason": { "type": "string" }
                }
            }
        }
    })
}

/// The root's properties, schema order, with `body.items` = `node`.
pub(crate) fn root_properties(node: Value) -> Value {
    json!({
        "type": { "type": "string", "const": "view" },
        "version": { "type": "number", "const": 1 },
        "title": { "type": "string" },
        "subtitle": { "type": "string" },
        "theme": { "type": "string", "enum": THEMES },
        "body": { "type": "array", "minItems": 1, "items": node },
        "meta": meta_schema()
    })
}

/// The validator's root schema: body items only have to be objects (each
/// node is then checked against its own primitive).
pub(crate) fn validator_root_schema() -> Value {
    let mut properties = root_properties(json!({ "type": "object" }));
    properties["body"][ERROR_MESSAGE_KEYWORD] = json!({ "minItems": BODY_EMPTY_MESSAGE });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": properties,
        "required": ["type", "body"],
        "additionalProperties": false
    })
}
