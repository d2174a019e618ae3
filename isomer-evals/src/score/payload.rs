//! The payload axis: how big the first attempt was, and which node types it
//! invented. Byte counts are the UTF-8 length of `JSON.stringify` of the value, as
//! upstream counts them, and a composition that did not validate counts `0` sanitized
//! bytes.

use std::collections::HashSet;
use std::hash::BuildHasher;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::check::CheckedAttempt;
use crate::score::tree::NodeTypes;
use isomer_sdk::__private::js::json_stringify_len;
use isomer_sdk::js_parity::sort_utf16;

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
    /// not validate.
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
/// run passes the first attempt), given the node types of the attempt's value
/// (`None` when the text was not JSON), over a set of known types with any
/// hasher (the run's uses a fast one).
///
/// `known_types` are the catalog's types (the authoring context's
/// `primitives`). Invented types are the node types of the attempt's raw
/// JSON value ([`NodeTypes::of`]: the elements of its `body` and whatever the
/// runtime's child hooks return for them, iteratively, each node once, so a
/// 10,000-deep tree, a hook that returns nothing for a malformed container,
/// and a data field named `type` are all handled) the catalog lacks. The root
/// `view` is never collected.
pub(crate) fn payload_of<S: BuildHasher>(
    attempt: &CheckedAttempt,
    types: Option<&NodeTypes<'_>>,
    known_types: &HashSet<String, S>,
    golden: Option<&Value>,
) -> PayloadScore {
    let raw_bytes = attempt.raw().len();
    let sanitized_bytes = match attempt.check() {
        Some(check) if check.valid => check.composition.as_ref().map_or(0, json_stringify_len),
        _ => 0,
    };
    let mut unknown_types: Vec<String> = types
        .into_iter()
        .flat_map(|types| types.counts.keys())
        .filter(|type_name| !known_types.contains(**type_name))
        .map(|type_name| (*type_name).to_owned())
        .collect();
    sort_utf16(&mut unknown_types);
    let size_vs_golden = golden
        .map(json_stringify_len)
        .filter(|bytes| *bytes > 0)
        .map(|golden_bytes| sanitized_bytes as f64 / golden_bytes as f64);
    PayloadScore {
        raw_bytes,
        sanitized_bytes,
        size_vs_golden,
        unknown_types,
    }
}
