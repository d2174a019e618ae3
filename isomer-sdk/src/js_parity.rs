//! The JavaScript-parity helpers a pack or a host needs for its own text:
//! printing numbers and JSON, rounding, trimming, ordering, one-line labels
//! and lengths the way the upstream TypeScript packages do.
//!
//! Public because a pack that prints text of its own (a label, a number on a
//! chart, a URL it trims) must match what upstream prints byte for byte, and
//! a host comparing its output with upstream's needs the same rules. Each
//! function is the crate's one implementation of its rule; the rest of the
//! crate's JavaScript-parity code is internal.
//!
//! ```
//! use isomer_sdk::js_parity::{compact_json, json_stringify, one_line, to_fixed_2};
//! use serde_json::json;
//!
//! assert_eq!(json_stringify(&json!({"b": 1.0, "1": 1e21})), r#"{"1":1e+21,"b":1}"#);
//! assert_eq!(compact_json(&json!("a\u{2028}b")), r#""a\u2028b""#);
//! assert_eq!(to_fixed_2(0.125), "0.13");
//! assert_eq!(one_line("Two\r\nlines"), "Two lines");
//! ```

pub use crate::js::{
    compact_json, format_js_number, format_json_number, is_js_whitespace, js_trim, json_stringify,
    one_line, quote_text, sort_utf16, to_fixed_2, utf16_len,
};
