//! JSON text exactly as JavaScript's `JSON.stringify` prints it, and the
//! SDK's `compactJson` (the same with U+2028/U+2029 escaped).
//!
//! Differences from `serde_json::to_string` that this module removes
//! so that counts and texts match upstream:
//! - numbers print as JavaScript prints them (`1` for `1.0`, `1e+21`, `-0`
//!   as `0`), see [`format_json_number`];
//! - object keys print in JavaScript property order: array-index keys
//!   (`"0"`, `"12"`) first in ascending numeric order, then the rest in
//!   insertion order (see [`js_property_order`]).
//!   `JSON.parse('{"b":1,"1":2}')` stringifies as `{"1":2,"b":1}`, and so does
//!   [`json_stringify`]. The byte count is the same either way;
//! - string escapes: `"` `\` and C0 controls only (`\b \f \n \r \t` short,
//!   other controls `\u00xx` lowercase); `/`, non-ASCII and U+2028/U+2029
//!   stay raw. Lone surrogates cannot occur in a Rust `String`, so the
//!   `\udxxx` form never appears.

use serde_json::Value;

use super::number::format_json_number;
use super::order::{JsPropertyOrder, js_property_order};
use crate::json::{is_separator_at, plain_end};

/// `JSON.stringify(value)`: compact JSON text, byte for byte as JavaScript
/// prints it (module docs list the rules). U+2028/U+2029 stay raw, so the
/// UTF-8 length of the result is upstream's payload byte count.
pub fn json_stringify(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, None, false);
    out
}

/// `JSON.stringify(value, null, 2)`: two-space indented JSON, each array
/// element and object entry on its own line, `"key": value` with one space
/// after the colon, empty arrays and objects as `[]` and `{}`. Same number,
/// key-order and escaping rules as [`json_stringify`].
pub fn json_stringify_pretty(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, Some("  "), false);
    out
}

/// The SDK's `compactJson(value)`: [`json_stringify`] with U+2028 and U+2029
/// replaced by the six-character escapes `\u2028` and `\u2029`, so the text
/// is always one line. Used in prompts.
pub fn compact_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, None, true);
    out
}

/// `JSON.stringify(s)` for a string: the quoted JSON string literal, with
/// U+2028/U+2029 raw (use [`quote_text`](super::text::quote_text) for the
/// one-line form).
pub fn stringify_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_string(&mut out, s, false);
    out
}

/// Where the writer puts text: a `String`, or a byte counter.
pub(crate) trait JsonSink {
    /// Whether object entries must come in JavaScript property order. A
    /// byte count is the same in any order, so a counter reads each map in
    /// its own order and skips the search for array-index keys.
    const ORDERED: bool = true;

    fn push(&mut self, c: char);
    fn push_str(&mut self, s: &str);
}

impl JsonSink for String {
    fn push(&mut self, c: char) {
        String::push(self, c);
    }

    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
}

/// Counts the UTF-8 bytes that would be written.
struct ByteCount(usize);

impl JsonSink for ByteCount {
    const ORDERED: bool = false;

    fn push(&mut self, c: char) {
        self.0 += c.len_utf8();
    }

    fn push_str(&mut self, s: &str) {
        self.0 += s.len();
    }
}

/// The UTF-8 byte length of [`json_stringify`]`(value)`, computed without
/// building the text and without putting object keys in JavaScript order
/// (the length does not depend on it): upstream's payload byte counts
/// (`sanitizedBytes`, `goldenBytes`: the UTF-8 length of `JSON.stringify`).
pub fn json_stringify_len(value: &Value) -> usize {
    let mut count = ByteCount(0);
    write_json(&mut count, value, None, false);
    count.0
}

/// Appends the JSON string literal of `s` to `out`; `escape_separators`
/// also escapes U+2028/U+2029. Runs of characters that need no escape are
/// appended whole.
pub(crate) fn write_string(out: &mut impl JsonSink, s: &str, escape_separators: bool) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let bytes = s.as_bytes();
    let mut run_start = 0;
    let mut at = 0;
    // Scans bytes, not chars: every character that needs an escape is
    // ASCII, except U+2028/U+2029 (UTF-8 `E2 80 A8` / `E2 80 A9`), and no
    // byte of a multi-byte character is ASCII.
    loop {
        at = plain_end(bytes, at, escape_separators);
        let Some(&byte) = bytes.get(at) else {
            break;
        };
        let (escape, width): (&str, usize) = match byte {
            b'"' => ("\\\"", 1),
            b'\\' => ("\\\\", 1),
            0x08 => ("\\b", 1),
            0x0C => ("\\f", 1),
            b'\n' => ("\\n", 1),
            b'\r' => ("\\r", 1),
            b'\t' => ("\\t", 1),
            0x00..=0x1F => ("", 1),
            // `E2`, asked for with `escape_separators`.
            _ if is_separator_at(bytes, at) => {
                if bytes[at + 2] == 0xA8 {
                    ("\\u2028", 3)
                } else {
                    ("\\u2029", 3)
                }
            }
            // Another character led by `E2`.
            _ => {
                at += 1;
                continue;
            }
        };
        out.push_str(&s[run_start..at]);
        if escape.is_empty() {
            // Another C0 control: `\u00xx`, lowercase hex.
            let code = usize::from(byte);
            out.push_str("\\u00");
            out.push(char::from(HEX[code >> 4]));
            out.push(char::from(HEX[code & 0xF]));
        } else {
            out.push_str(escape);
        }
        at += width;
        run_start = at;
    }
    out.push_str(&s[run_start..]);
    out.push('"');
}

/// An open container of the iterative writer: the entries it has left to
/// print, and whether it has printed none yet (so the next one takes no
/// comma).
enum Open<'a> {
    Array {
        items: std::slice::Iter<'a, Value>,
        first: bool,
    },
    Object {
        entries: Entries<'a>,
        first: bool,
    },
}

/// An object's entries in the order the sink asks for.
enum Entries<'a> {
    /// JavaScript property order (text).
    Ordered(JsPropertyOrder<'a>),
    /// The map's own order (a byte count, which does not depend on it).
    Own(serde_json::map::Iter<'a>),
}

impl<'a> Iterator for Entries<'a> {
    type Item = (&'a String, &'a Value);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Entries::Ordered(entries) => entries.next(),
            Entries::Own(entries) => entries.next(),
        }
    }
}

/// Writes `value` without recursion (a 100,000-deep value prints without
/// growing the call stack). `indent` is `None` for compact output.
///
/// The stack holds one entry per open container, its level the stack's
/// length: a scalar is printed where it is met, and a container's next
/// entry is taken from its iterator when the one before is done.
fn write_json<S: JsonSink>(
    out: &mut S,
    value: &Value,
    indent: Option<&str>,
    escape_separators: bool,
) {
    // The line break and indent before an element at `level`; nothing when
    // compact.
    let newline = |out: &mut S, level: usize| {
        if let Some(unit) = indent {
            JsonSink::push(out, '\n');
            for _ in 0..level {
                JsonSink::push_str(out, unit);
            }
        }
    };
    let colon = if indent.is_some() { ": " } else { ":" };
    // Room for a few levels of containers before the first growth.
    let mut stack: Vec<Open<'_>> = Vec::with_capacity(16);
    let mut next = Some(value);
    loop {
        if let Some(value) = next.take() {
            match value {
                Value::Null => out.push_str("null"),
                Value::Bool(true) => out.push_str("true"),
                Value::Bool(false) => out.push_str("false"),
                Value::Number(n) => out.push_str(&format_json_number(n)),
                Value::String(s) => write_string(out, s, escape_separators),
                Value::Array(items) if items.is_empty() => out.push_str("[]"),
                Value::Object(map) if map.is_empty() => out.push_str("{}"),
                Value::Array(items) => {
                    out.push('[');
                    stack.push(Open::Array {
                        items: items.iter(),
                        first: true,
                    });
                }
                Value::Object(map) => {
                    out.push('{');
                    let entries = if S::ORDERED {
                        Entries::Ordered(js_property_order(map))
                    } else {
                        Entries::Own(map.iter())
                    };
                    stack.push(Open::Object {
                        entries,
                        first: true,
                    });
                }
            }
        }
        let level = stack.len();
        let Some(open) = stack.last_mut() else {
            break;
        };
        match open {
            Open::Array { items, first } => match items.next() {
                Some(item) => {
                    if !std::mem::replace(first, false) {
                        out.push(',');
                    }
                    newline(out, level);
                    next = Some(item);
                }
                None => {
                    stack.pop();
                    newline(out, level - 1);
                    out.push(']');
                }
            },
            Open::Object { entries, first } => match entries.next() {
                Some((key, item)) => {
                    if !std::mem::replace(first, false) {
                        out.push(',');
                    }
                    newline(out, level);
                    write_string(out, key, escape_separators);
                    out.push_str(colon);
                    next = Some(item);
                }
                None => {
                    stack.pop();
                    newline(out, level - 1);
                    out.push('}');
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn compact_output_matches_json_stringify() {
        let value = json!({
            "type": "view",
            "n": [1.0, 1.5, -0.0, 1e21, 1e-7, 0.30000000000000004, 42],
            "t": true, "f": false, "z": null,
            "s": "a\"b\\c/d\u{8}\u{c}\n\r\t\u{1}\u{1f}\u{7f}é😀\u{2028}\u{2029}",
            "e": [], "o": {}
        });
        assert_eq!(
            json_stringify(&value),
            "{\"type\":\"view\",\"n\":[1,1.5,0,1e+21,1e-7,0.30000000000000004,42],\
             \"t\":true,\"f\":false,\"z\":null,\
             \"s\":\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\\u0001\\u001f\u{7f}é😀\u{2028}\u{2029}\",\
             \"e\":[],\"o\":{}}"
        );
    }

    #[test]
    fn compact_json_escapes_line_and_paragraph_separators() {
        let value = json!({"k\u{2028}": "a\u{2029}b"});
        assert_eq!(compact_json(&value), "{\"k\\u2028\":\"a\\u2029b\"}");
        assert_eq!(json_stringify(&value), "{\"k\u{2028}\":\"a\u{2029}b\"}");
        // Characters whose UTF-8 starts with the same bytes stay raw.
        let neighbours = json!("\u{2027}\u{202a}\u{2030}\u{2080}\u{2028}");
        assert_eq!(
            compact_json(&neighbours),
            "\"\u{2027}\u{202a}\u{2030}\u{2080}\\u2028\""
        );
    }

    #[test]
    fn escapes_are_found_at_every_offset_of_a_word() {
        // The scan reads eight bytes at a time: an escape in each position
        // of the first three words, and in the tail after the last word.
        for offset in 0..24 {
            let (head, tail) = ("a".repeat(offset), "b".repeat(23 - offset));
            let text = format!("{head}\"{tail}");
            assert_eq!(stringify_string(&text), format!("\"{head}\\\"{tail}\""));
            let text = format!("{head}\u{1}{tail}");
            assert_eq!(stringify_string(&text), format!("\"{head}\\u0001{tail}\""));
            let value = Value::String(format!("{head}\u{2029}{tail}"));
            assert_eq!(compact_json(&value), format!("\"{head}\\u2029{tail}\""));
            assert_eq!(json_stringify_len(&value), 24 + 2 + 2);
        }
        // Bytes at and around the marks' edges stay raw: 0x20, 0x21, 0x23,
        // 0x5B, 0x5D, 0x7F, and the other characters led by `E2`.
        let raw = " !#[]\u{7f}\u{2000}\u{20AC}\u{2027}";
        assert_eq!(compact_json(&json!(raw)), format!("\"{raw}\""));
    }

    #[test]
    fn integer_like_keys_come_first() {
        let value: Value = serde_json::from_str(r#"{"b":1,"1":2,"a":{"z":0,"0":1}}"#).unwrap();
        assert_eq!(json_stringify(&value), r#"{"1":2,"b":1,"a":{"0":1,"z":0}}"#);
    }

    #[test]
    fn pretty_output_matches_json_stringify_with_two_spaces() {
        let value = json!({"a": [1, {"b": null}, []], "c": {}, "d": "x"});
        assert_eq!(
            json_stringify_pretty(&value),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    },\n    []\n  ],\n  \"c\": {},\n  \"d\": \"x\"\n}"
        );
        assert_eq!(json_stringify_pretty(&json!([])), "[]");
        assert_eq!(json_stringify_pretty(&json!(1.0)), "1");
    }

    #[test]
    fn byte_length_matches_the_text() {
        let value = json!({"é": ["😀", 1.5, null, "\u{2028}\n"], "1": {}});
        assert_eq!(json_stringify_len(&value), json_stringify(&value).len());
        // {"1":{},"é":["😀",1.5,null,"<U+2028>\n"]}: é 2 bytes, 😀 4, U+2028 3 raw.
        assert_eq!(json_stringify_len(&value), 39);
        assert_eq!(json_stringify_len(&json!([])), 2);
    }

    #[test]
    fn strings_and_scalars_print_alone() {
        assert_eq!(stringify_string("a\u{2028}"), "\"a\u{2028}\"");
        assert_eq!(json_stringify(&json!("x")), "\"x\"");
        assert_eq!(json_stringify(&json!(null)), "null");
    }

    #[test]
    fn deep_values_print_without_recursion() {
        let depth = 100_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let value = crate::json::parse_json(&text).unwrap();
        assert_eq!(json_stringify(&value), text);
        let nested = crate::json::parse_json("[[[]]]").unwrap();
        assert_eq!(json_stringify_pretty(&nested), "[\n  [\n    []\n  ]\n]");
    }

    proptest::proptest! {
        /// serde_json escapes a string's `"`, `\` and C0 controls as
        /// `JSON.stringify` does (short forms, else lowercase `\u00xx`) and
        /// leaves the rest raw, so the two print any string alike; the byte
        /// counter agrees with the text. The strings mix every C0 control,
        /// the characters escaped or not, and the neighbours of U+2028.
        #[test]
        fn a_string_prints_as_serde_json_prints_it(
            text in "[\\x00-\\x20\"\\\\/a-z\u{7f}-\u{ff}\u{2027}-\u{202a}\u{1F600}]{0,32}",
        ) {
            let printed = stringify_string(&text);
            proptest::prop_assert_eq!(&printed, &serde_json::to_string(&text).unwrap());
            proptest::prop_assert_eq!(json_stringify_len(&Value::String(text)), printed.len());
        }
    }
}
