//! JavaScript parity helpers (sdk.md §12, evals.md §10).

/// JSON-quotes `s` as `JSON.stringify` does, with U+2028/U+2029 escaped.
pub fn quote_text(s: &str) -> String {
    let _ = s;
    todo!("issue 2")
}
