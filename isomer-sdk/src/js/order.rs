//! JavaScript lengths and orders: UTF-16 code units and property order.
//!
//! JavaScript strings are sequences of UTF-16 code units: `"😀".length` is 2
//! and `Array.prototype.sort` compares code units, so `"😀" < "\u{FFFF}"` in
//! JavaScript while Rust's `str` order (by code point) says the reverse
//! JavaScript objects list integer-like keys first.

use std::cmp::Ordering;

use serde_json::{Map, Value};

/// The length of `s` in UTF-16 code units, as JavaScript's `s.length`
/// (an emoji counts 2, `é` counts 1). Upstream counts every string length
/// this way: the input budget, `min`/`max` length checks.
///
/// Counted from the UTF-8 bytes without decoding: ASCII text is one code
/// unit a byte; otherwise every character has one leading byte (not
/// `10xxxxxx`) and is one code unit, except a four-byte character (leading
/// byte `11110xxx`), which is a surrogate pair.
pub fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    s.as_bytes()
        .iter()
        .map(|&byte| usize::from(!is_continuation(byte)) + usize::from(byte >= 0xF0))
        .sum()
}

/// True for a UTF-8 continuation byte (`10xxxxxx`).
const fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Compares `a` and `b` by UTF-16 code units, as JavaScript's default
/// `sort()` and `<` on strings do.
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Sorts strings in place by UTF-16 code units (JavaScript's default
/// `Array.prototype.sort` for strings); stable.
pub fn sort_utf16<S: AsRef<str>>(items: &mut [S]) {
    items.sort_by(|a, b| cmp_utf16(a.as_ref(), b.as_ref()));
}

/// True when `key` is an array index in ECMAScript's sense: the canonical
/// decimal form (`"0"`, `"12"`, not `"01"`, `"+1"` or `"1.0"`) of an integer
/// from 0 to 2³² − 2. JavaScript objects list such keys before all others,
/// in ascending numeric order.
pub fn is_array_index_key(key: &str) -> bool {
    array_index(key).is_some()
}

/// The numeric value of an array-index key, or `None` (see
/// [`is_array_index_key`]).
fn array_index(key: &str) -> Option<u32> {
    let bytes = key.as_bytes();
    if bytes.is_empty() || bytes.len() > 10 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if bytes.len() > 1 && bytes[0] == b'0' {
        return None;
    }
    let n: u64 = key.parse().ok()?;
    if n <= u64::from(u32::MAX - 1) {
        u32::try_from(n).ok()
    } else {
        None
    }
}

/// The entries of `map` in JavaScript property order: array-index keys
/// (see [`is_array_index_key`]) first in ascending numeric order, then every
/// other key in insertion order. This is the order `JSON.stringify`,
/// `Object.keys` and the upstream input budget walk use.
///
/// `serde_json` (with `preserve_order`) keeps insertion order only, so a
/// document `{"b":1,"1":2}` prints `{"1":2,"b":1}` in JavaScript; this
/// function gives that order. A map without array-index keys (the usual
/// case) is read in place; only one with such keys is sorted into a list.
pub fn js_property_order(map: &Map<String, Value>) -> JsPropertyOrder<'_> {
    if !map.keys().any(|key| array_index(key).is_some()) {
        return JsPropertyOrder(Entries::Insertion(map.iter()));
    }
    let mut indexed: Vec<(u32, &String, &Value)> = Vec::new();
    let mut named: Vec<(&String, &Value)> = Vec::with_capacity(map.len());
    for (key, value) in map {
        match array_index(key) {
            Some(index) => indexed.push((index, key, value)),
            None => named.push((key, value)),
        }
    }
    indexed.sort_by_key(|(index, _, _)| *index);
    let mut ordered: Vec<(&String, &Value)> = indexed
        .into_iter()
        .map(|(_, key, value)| (key, value))
        .collect();
    ordered.extend(named);
    JsPropertyOrder(Entries::Sorted(ordered.into_iter()))
}

/// The iterator [`js_property_order`] returns: `(key, value)` pairs in
/// JavaScript property order, from either end.
#[derive(Debug, Clone)]
pub struct JsPropertyOrder<'a>(Entries<'a>);

#[derive(Debug, Clone)]
enum Entries<'a> {
    /// No array-index key: the map's own order.
    Insertion(serde_json::map::Iter<'a>),
    /// Array-index keys first, sorted.
    Sorted(std::vec::IntoIter<(&'a String, &'a Value)>),
}

impl<'a> Iterator for JsPropertyOrder<'a> {
    type Item = (&'a String, &'a Value);

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            Entries::Insertion(entries) => entries.next(),
            Entries::Sorted(entries) => entries.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            Entries::Insertion(entries) => entries.size_hint(),
            Entries::Sorted(entries) => entries.size_hint(),
        }
    }
}

impl DoubleEndedIterator for JsPropertyOrder<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            Entries::Insertion(entries) => entries.next_back(),
            Entries::Sorted(entries) => entries.next_back(),
        }
    }
}

impl ExactSizeIterator for JsPropertyOrder<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counts_utf16_code_units() {
        assert_eq!(utf16_len(""), 0);
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("é"), 1);
        assert_eq!(utf16_len("😀"), 2);
        assert_eq!(utf16_len("a😀b"), 4);
        assert_eq!(utf16_len("\u{FFFF}"), 1);
        // One character of each UTF-8 width: 1 + 1 + 1 + 2 code units.
        assert_eq!(utf16_len("a\u{E9}\u{20AC}\u{10348}"), 5);
        assert_eq!(
            utf16_len("\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}"),
            9
        );
    }

    #[test]
    fn orders_by_code_units_not_code_points() {
        // JavaScript: "😀" (D83D DE00) < "\uFFFF"; Rust's str order says the reverse.
        assert_eq!(cmp_utf16("😀", "\u{FFFF}"), Ordering::Less);
        assert_eq!("😀".cmp("\u{FFFF}"), Ordering::Greater);
        assert_eq!(cmp_utf16("a", "b"), Ordering::Less);
        assert_eq!(cmp_utf16("ab", "a"), Ordering::Greater);
        assert_eq!(cmp_utf16("Z", "a"), Ordering::Less);
        let mut items = vec!["\u{FFFF}", "b", "😀", "B", "a"];
        sort_utf16(&mut items);
        assert_eq!(items, ["B", "a", "b", "😀", "\u{FFFF}"]);
    }

    #[test]
    fn recognises_array_index_keys() {
        for key in ["0", "1", "12", "4294967294"] {
            assert!(is_array_index_key(key), "{key}");
        }
        for key in [
            "",
            "01",
            "-1",
            "+1",
            "1.0",
            "1e3",
            " 1",
            "4294967295",
            "99999999999",
            "a",
        ] {
            assert!(!is_array_index_key(key), "{key}");
        }
    }

    #[test]
    fn lists_index_keys_first_then_insertion_order() {
        let value = json!({"b": 1, "10": 2, "a": 3, "2": 4, "01": 5, "4294967295": 6});
        let keys: Vec<&str> = js_property_order(value.as_object().unwrap())
            .map(|(key, _)| key.as_str())
            .collect();
        assert_eq!(keys, ["2", "10", "b", "a", "01", "4294967295"]);
    }
}
