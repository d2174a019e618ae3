//! The payload axis: how big the first attempt was, and which node types it
//! invented (evals.md §5.3 as changed by seed 001).

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::check::CheckedAttempt;
use crate::runtime::EvalRuntime;
use crate::score::tree::{body_of, for_each_node_type};
use isomer_sdk::budget::leaf_length;
use isomer_sdk::js::sort_utf16;

/// The size and the invented node types of the first attempt (upstream
/// `PayloadScore`). It always describes the first attempt, also when a
/// retry succeeded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayloadScore {
    /// UTF-8 bytes of the model's text as sent, code fence and prose
    /// included.
    pub raw_bytes: usize,
    /// UTF-8 bytes of the compact JSON (as `JSON.stringify` prints it) of the
    /// sanitized copy the check validated; `0` when the first attempt did
    /// not validate (seed 001).
    pub sanitized_bytes: usize,
    /// `sanitizedBytes` over the golden's compact JSON bytes; absent without
    /// a golden. `0` when the first attempt did not validate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_vs_golden: Option<f64>,
    /// Distinct node types in the first attempt's *unvalidated* tree that
    /// the catalog does not list, sorted by UTF-16 code units. An entry is a
    /// catalog gap or the model reaching past it. A malformed container's
    /// descendants cannot be reached, so an empty list does not prove the
    /// payload valid.
    pub unknown_types: Vec<String>,
}

/// Scores the payload of one checked attempt (upstream `scorePayload`; the
/// harness passes the first attempt).
///
/// `known_types` are the catalog's types (the authoring context's
/// `primitives`). Invented types are collected by walking the attempt's raw
/// JSON value: the elements of its `body` (when it is an object with a
/// `body` array) and whatever the runtime's child hooks return for them,
/// iteratively, each node once, so a 10,000-deep tree, a hook that returns
/// nothing for a malformed container, and a data field named `type` are all
/// handled. The root `view` is never collected.
pub fn score_payload<R>(
    runtime: &R,
    attempt: &CheckedAttempt,
    known_types: &HashSet<String>,
    golden: Option<&Value>,
) -> PayloadScore
where
    R: EvalRuntime + ?Sized,
{
    let raw_bytes = attempt.raw().len();
    let (sanitized_bytes, unknown_types) = match attempt {
        CheckedAttempt::Parsed { value, check, .. } => {
            let sanitized_bytes = match &check.composition {
                Some(composition) if check.valid => stringified_len(composition),
                _ => 0,
            };
            let mut unknown: BTreeSet<&str> = BTreeSet::new();
            for_each_node_type(runtime.walker(), body_of(value), |type_name| {
                if !known_types.contains(type_name) {
                    unknown.insert(type_name);
                }
            });
            let mut unknown: Vec<String> = unknown.into_iter().map(str::to_owned).collect();
            sort_utf16(&mut unknown);
            (sanitized_bytes, unknown)
        }
        CheckedAttempt::Unparsed { .. } => (0, Vec::new()),
    };
    let size_vs_golden = golden
        .map(stringified_len)
        .filter(|bytes| *bytes > 0)
        .map(|golden_bytes| sanitized_bytes as f64 / golden_bytes as f64);
    PayloadScore {
        raw_bytes,
        sanitized_bytes,
        size_vs_golden,
        unknown_types,
    }
}

/// The UTF-8 byte length of `JSON.stringify(value)` (the payload's byte
/// counts, evals.md §10.2), counted without printing: key order does not
/// change the count, so values are visited in storage order with nothing
/// allocated but the stack. Strings count their quotes, the two-byte
/// escapes of `"` `\` `\b` `\f` `\n` `\r` `\t`, six bytes for another C0
/// control, and every other byte raw (U+2028/U+2029 included, as
/// `JSON.stringify` leaves them); numbers, `true`, `false` and `null` count
/// the length of their JavaScript text ([`leaf_length`]).
fn stringified_len(value: &Value) -> usize {
    let mut total = 0;
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        total += match value {
            Value::String(s) => string_literal_len(s),
            Value::Array(items) => {
                stack.extend(items);
                2 + items.len().saturating_sub(1)
            }
            Value::Object(map) => {
                let keys: usize = map.keys().map(|key| string_literal_len(key) + 1).sum();
                stack.extend(map.values());
                2 + map.len().saturating_sub(1) + keys
            }
            leaf => leaf_length(leaf),
        };
    }
    total
}

/// The UTF-8 byte length of the JSON string literal of `s`, as
/// `JSON.stringify` escapes it.
fn string_literal_len(s: &str) -> usize {
    // Every byte prints as itself but `"`, `\` and C0 controls, which add
    // one byte (two-byte escapes) or five (`\u00xx`).
    let escapes: usize = s
        .bytes()
        .filter(|byte| *byte < 0x20 || *byte == b'"' || *byte == b'\\')
        .map(|byte| match byte {
            b'"' | b'\\' | 0x08 | 0x0C | b'\n' | b'\r' | b'\t' => 1,
            _ => 5,
        })
        .sum();
    s.len() + escapes + 2
}

#[cfg(test)]
mod tests {
    use isomer_sdk::js::json_stringify;
    use serde_json::json;

    use super::*;

    #[test]
    fn the_counted_length_is_the_printed_length() {
        let values = [
            json!(null),
            json!(true),
            json!(false),
            json!(0),
            json!(-0.0),
            json!(1.0),
            json!(1e21),
            json!(-1.5e-7),
            json!(0.30000000000000004),
            json!(9_007_199_254_740_993_u64),
            json!(""),
            json!("a\"b\\c/d\u{8}\u{c}\n\r\t\u{0}\u{1f}\u{7f}é😀\u{2028}\u{2029}"),
            json!([]),
            json!({}),
            json!([[], {}, [1, [2, [3]]]]),
            json!({"type": "view", "1": {"é\n": ["x", null]}, "body": [{"type": "slideFrame"}]}),
        ];
        for value in values {
            assert_eq!(
                stringified_len(&value),
                json_stringify(&value).len(),
                "{value}"
            );
        }
        assert_eq!(stringified_len(&json!({"a": [1, "é"]})), 14);
    }
}
