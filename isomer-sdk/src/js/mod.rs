//! JavaScript parity: the places where the upstream TypeScript contract
//! counts, prints, rounds, trims or orders things the way a JavaScript engine
//! does, and where Rust's standard behaviour differs.
//!
//! | concept | module | JavaScript it matches |
//! |---|---|---|
//! | number printing | [`number`] | `String(n)` / `Number.prototype.toString` |
//! | JSON text | [`stringify`](mod@stringify) | `JSON.stringify(v)`, `JSON.stringify(v, null, 2)`, the SDK's `compactJson` |
//! | whitespace, spans, names | [`text`] | `\s`, `String.prototype.trim`, the SDK's `oneLine`, `codeSpan`, `keySpan`, `nameText`, `quoteText` |
//! | rounding | [`round`] | `Number.prototype.toFixed`, `Math.round` |
//! | lengths and order | [`order`] | `String.prototype.length`, `Array.prototype.sort`, property order |
//!
//! A report computed with these helpers and one computed by the TypeScript
//! packages on the same input are byte-identical.

pub mod number;
pub mod order;
pub mod round;
pub mod stringify;
pub mod text;

pub use number::{format_js_number, format_json_number};
pub use order::{
    JsPropertyOrder, cmp_utf16, is_array_index_key, js_property_order, sort_utf16, utf16_len,
};
pub use round::{math_round, round_percent, to_fixed, to_fixed_2};
pub use stringify::{
    compact_json, json_stringify, json_stringify_len, json_stringify_pretty, stringify_string,
};
pub use text::{
    code_span, is_js_line_terminator, is_js_whitespace, js_trim, js_trim_end, js_trim_start,
    key_span, name_text, one_line, quote_text,
};
