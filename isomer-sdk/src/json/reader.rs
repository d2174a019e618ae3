//! The JSON text reader: the one parser behind [`parse_json`](super::parse_json)
//! and [`Document::parse_within`](super::Document::parse_within).
//!
//! It never recurses: open containers are kept in a `Vec` (one byte a level
//! while only checking the text), so any depth reads in memory proportional
//! to the text, and every error costs one scan for its position. It accepts
//! exactly RFC 8259 JSON, as `serde_json` does, builds the `Value`
//! `serde_json` builds (an integer that fits `u64`, or a negative one that
//! fits `i64`, is read here; every other number is read by `serde_json`
//! itself, so `1.0`, `-0`, `18446744073709551616` and `1e400` come out as
//! `serde_json` makes them), and words its errors with `serde_json`'s texts:
//! `EOF while parsing a list`, `expected value`, `trailing comma`, …
//! followed by ` at line L column C` (1-based line, the byte column of the
//! offending character; at the end of the input, the length of the last
//! line).

use serde_json::{Map, Number, Value};

use super::{JsonSyntaxError, drop_deep};
use crate::budget::{Meter, leaf_length};
use crate::js::utf16_len;

/// The kind of a container still open (one byte a level, so reading text
/// nested a million deep without building it costs a megabyte).
#[derive(Clone, Copy)]
enum Kind {
    Array,
    Object,
}

impl Kind {
    /// The byte that closes this kind of container, and `serde_json`'s
    /// words for text that ends, or goes on with something other than `,`
    /// or that byte, after an item.
    fn closing(self) -> (u8, &'static str, &'static str) {
        match self {
            Kind::Array => (b']', "EOF while parsing a list", "expected `,` or `]`"),
            Kind::Object => (b'}', "EOF while parsing an object", "expected `,` or `}`"),
        }
    }
}

/// A container being built: the values read so far and, for an object, the
/// key whose value is being read.
enum Open {
    Array(Vec<Value>),
    Object(Map<String, Value>, String),
}

/// The containers being built; on an early return, or when the reader stops
/// building, their contents (which may be deep) are dropped without
/// recursion.
#[derive(Default)]
struct OpenStack(Vec<Open>);

impl Drop for OpenStack {
    fn drop(&mut self) {
        for open in self.0.drain(..) {
            match open {
                Open::Array(items) => drop_deep(Value::Array(items)),
                Open::Object(map, _) => drop_deep(Value::Object(map)),
            }
        }
    }
}

/// Reads `text` as one JSON value without recursion, building it when
/// `build` is set and counting every value into `meter` when one is given.
///
/// Once the meter is over its budget the reader stops building (what it had
/// built is dropped) and reads the rest of the text only to check its
/// syntax and count it, keeping one byte per open container: the result is
/// then `Ok(None)`. A syntax error anywhere in the text is an error, as it
/// is when `JSON.parse` runs before upstream's budget check. Every value
/// read is counted, including one that a repeated key later replaces.
pub(super) fn read(
    text: &str,
    mut meter: Option<&mut Meter>,
    build: bool,
) -> Result<Option<Value>, JsonSyntaxError> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    let mut kinds: Vec<Kind> = Vec::new();
    let mut open = OpenStack::default();
    let mut building = build;
    // The UTF-16 length of the key of the value about to be read (0 for an
    // array item and the root); kept only when metering.
    let mut key_units = 0;
    let metered = meter.is_some();
    let key_length = |key: &str| if metered { utf16_len(key) } else { 0 };
    'value: loop {
        // Read one value; containers open here and are completed below.
        let mut value = match parser.skip_whitespace() {
            None => return Err(parser.error_at_end("EOF while parsing a value")),
            Some(b'[') => {
                parser.at += 1;
                let next = parser.skip_whitespace();
                if next.is_none() {
                    return Err(parser.error_at_end("EOF while parsing a list"));
                }
                let within = meter.as_deref_mut().is_none_or(|m| m.open(key_units));
                if !within {
                    stop_building(&mut open, &mut building);
                }
                if next == Some(b']') {
                    parser.at += 1;
                    if let Some(meter) = meter.as_deref_mut() {
                        meter.close();
                    }
                    Value::Array(Vec::new())
                } else {
                    kinds.push(Kind::Array);
                    if building {
                        open.0.push(Open::Array(Vec::new()));
                    }
                    key_units = 0;
                    continue 'value;
                }
            }
            Some(b'{') => {
                parser.at += 1;
                let within = meter.as_deref_mut().is_none_or(|m| m.open(key_units));
                if !within {
                    stop_building(&mut open, &mut building);
                }
                if parser.skip_whitespace() == Some(b'}') {
                    parser.at += 1;
                    if let Some(meter) = meter.as_deref_mut() {
                        meter.close();
                    }
                    Value::Object(Map::new())
                } else {
                    let key = parser.key()?;
                    key_units = key_length(&key);
                    kinds.push(Kind::Object);
                    if building {
                        open.0.push(Open::Object(Map::new(), key));
                    }
                    continue 'value;
                }
            }
            Some(byte) => {
                let leaf = match byte {
                    b'"' => {
                        parser.at += 1;
                        Value::String(parser.string()?)
                    }
                    b't' => parser.literal("true", Value::Bool(true))?,
                    b'f' => parser.literal("false", Value::Bool(false))?,
                    b'n' => parser.literal("null", Value::Null)?,
                    b'-' | b'0'..=b'9' => parser.number()?,
                    _ => return Err(parser.error_here("expected value")),
                };
                if let Some(meter) = meter.as_deref_mut()
                    && !meter.leaf(key_units, leaf_length(&leaf))
                {
                    stop_building(&mut open, &mut building);
                }
                leaf
            }
        };
        // Hand the value to its container; close containers that end here.
        loop {
            match kinds.last() {
                None => {
                    if parser.skip_whitespace().is_some() {
                        drop_deep(value);
                        return Err(parser.error_here("trailing characters"));
                    }
                    return Ok(building.then_some(value));
                }
                Some(&kind) => {
                    let slot = match open.0.last_mut() {
                        Some(Open::Array(items)) => {
                            items.push(value);
                            None
                        }
                        Some(Open::Object(map, key)) => {
                            // A repeated key keeps its first position and
                            // its last value, as JSON.parse does.
                            if let Some(replaced) = map.insert(std::mem::take(key), value) {
                                drop_deep(replaced);
                            }
                            Some(key)
                        }
                        None => None,
                    };
                    let (closer, ended, expected) = kind.closing();
                    match parser.skip_whitespace() {
                        Some(b',') => {
                            parser.at += 1;
                            if parser.skip_whitespace() == Some(closer) {
                                return Err(parser.error_here("trailing comma"));
                            }
                            key_units = match kind {
                                Kind::Array => 0,
                                Kind::Object => {
                                    let key = parser.key()?;
                                    let units = key_length(&key);
                                    if let Some(slot) = slot {
                                        *slot = key;
                                    }
                                    units
                                }
                            };
                            continue 'value;
                        }
                        Some(byte) if byte == closer => {
                            parser.at += 1;
                            value = end_container(&mut kinds, &mut open, meter.as_deref_mut());
                        }
                        None => return Err(parser.error_at_end(ended)),
                        Some(_) => return Err(parser.error_here(expected)),
                    }
                }
            }
        }
    }
}

/// Ends the innermost open container: counts its end and returns its value
/// (`null` standing in for it when nothing is being built).
fn end_container(kinds: &mut Vec<Kind>, open: &mut OpenStack, meter: Option<&mut Meter>) -> Value {
    kinds.pop();
    if let Some(meter) = meter {
        meter.close();
    }
    match open.0.pop() {
        Some(Open::Array(items)) => Value::Array(items),
        Some(Open::Object(map, _)) => Value::Object(map),
        None => Value::Null,
    }
}

/// Stops building: drops the containers built so far (without recursion).
fn stop_building(open: &mut OpenStack, building: &mut bool) {
    *building = false;
    drop(std::mem::take(open));
}

/// The read position over the text.
struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    /// Skips JSON whitespace and returns the next byte without consuming it.
    fn skip_whitespace(&mut self) -> Option<u8> {
        while let Some(&byte) = self.bytes.get(self.at) {
            if matches!(byte, b' ' | b'\n' | b'\t' | b'\r') {
                self.at += 1;
            } else {
                return Some(byte);
            }
        }
        None
    }

    /// Moves the read position to the next byte that ends a run of plain
    /// string text: a quote, a backslash or a control character (below
    /// 0x20), or to the end of the text.
    fn skip_plain(&mut self) {
        self.at = super::plain_end(self.bytes, self.at, false);
    }

    /// Reads `"key"` then `:` (whitespace allowed around the colon).
    fn key(&mut self) -> Result<String, JsonSyntaxError> {
        match self.skip_whitespace() {
            Some(b'"') => self.at += 1,
            None => return Err(self.error_at_end("EOF while parsing an object")),
            Some(_) => return Err(self.error_here("key must be a string")),
        }
        let key = self.string()?;
        match self.skip_whitespace() {
            Some(b':') => {
                self.at += 1;
                Ok(key)
            }
            None => Err(self.error_at_end("EOF while parsing an object")),
            Some(_) => Err(self.error_here("expected `:`")),
        }
    }

    /// Reads the rest of a string whose opening quote was consumed.
    fn string(&mut self) -> Result<String, JsonSyntaxError> {
        let mut start = self.at;
        // `skip_plain` stops only at ASCII bytes, so every slice below
        // starts and ends on a char boundary.
        self.skip_plain();
        if self.bytes.get(self.at) == Some(&b'"') {
            // No escape (the usual string): one allocation of its size.
            let text = self.text[start..self.at].to_owned();
            self.at += 1;
            return Ok(text);
        }
        let mut out = String::with_capacity(self.at - start + 16);
        loop {
            out.push_str(&self.text[start..self.at]);
            match self.bytes.get(self.at) {
                None => return Err(self.error_at_end("EOF while parsing a string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    out.push(self.escape()?);
                }
                Some(_) => {
                    return Err(self.error_here(
                        "control character (\\u0000-\\u001F) found while parsing a string",
                    ));
                }
            }
            start = self.at;
            self.skip_plain();
        }
    }

    /// Reads one escape after its backslash.
    fn escape(&mut self) -> Result<char, JsonSyntaxError> {
        let Some(&byte) = self.bytes.get(self.at) else {
            return Err(self.error_at_end("EOF while parsing a string"));
        };
        self.at += 1;
        Ok(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => {
                self.at -= 1;
                return Err(self.error_here("invalid escape"));
            }
        })
    }

    /// Reads `XXXX` after `\u`, joining a surrogate pair. A lone surrogate
    /// is an error: a Rust string cannot hold one.
    fn unicode_escape(&mut self) -> Result<char, JsonSyntaxError> {
        let first = self.hex4()?;
        match first {
            0xD800..=0xDBFF => {
                if self.bytes.get(self.at..self.at + 2) != Some(b"\\u") {
                    return Err(self.error_here("unexpected end of hex escape"));
                }
                self.at += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error_at(self.at, "lone leading surrogate in hex escape"));
                }
                let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                Ok(char::from_u32(code).unwrap_or('\u{FFFD}'))
            }
            0xDC00..=0xDFFF => Err(self.error_at(self.at, "lone leading surrogate in hex escape")),
            code => Ok(char::from_u32(code).unwrap_or('\u{FFFD}')),
        }
    }

    /// Four hex digits. Like `serde_json`, a bad digit is reported after
    /// the four bytes.
    fn hex4(&mut self) -> Result<u32, JsonSyntaxError> {
        let Some(four) = self.bytes.get(self.at..self.at + 4) else {
            return Err(self.error_at_end("EOF while parsing a string"));
        };
        let code = four.iter().try_fold(0, |code, &byte| {
            (byte as char).to_digit(16).map(|digit| code * 16 + digit)
        });
        self.at += 4;
        code.ok_or_else(|| self.error_at(self.at, "invalid escape"))
    }

    /// `true`, `false` or `null`.
    fn literal(&mut self, word: &str, value: Value) -> Result<Value, JsonSyntaxError> {
        for expected in word.bytes() {
            match self.bytes.get(self.at) {
                None => return Err(self.error_at_end("EOF while parsing a value")),
                Some(&byte) if byte == expected => self.at += 1,
                Some(_) => return Err(self.error_here("expected ident")),
            }
        }
        Ok(value)
    }

    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`,
    /// as the `Number` `serde_json` reads from it ([`integer`] for the
    /// integers it reads as integers, `serde_json` itself for the rest).
    fn number(&mut self) -> Result<Value, JsonSyntaxError> {
        let start = self.at;
        let negative = self.bytes.get(self.at) == Some(&b'-');
        if negative {
            self.at += 1;
        }
        let digits_start = self.at;
        match self.bytes.get(self.at) {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            None => return Err(self.error_at_end("EOF while parsing a value")),
            Some(_) => return Err(self.error_here("invalid number")),
        }
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            self.required_digits()?;
        }
        if matches!(self.bytes.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.bytes.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.required_digits()?;
        }
        if matches!(self.bytes.get(self.at), Some(b'0'..=b'9')) {
            // A digit after a leading zero (`01`).
            return Err(self.error_here("invalid number"));
        }
        if let Some(number) = self
            .text
            .get(digits_start..self.at)
            .and_then(|digits| integer(negative, digits))
        {
            return Ok(Value::Number(number));
        }
        match serde_json::from_str::<Number>(&self.text[start..self.at]) {
            Ok(number) => Ok(Value::Number(number)),
            Err(_) => {
                self.at -= 1;
                Err(self.error_here("number out of range"))
            }
        }
    }

    fn digits(&mut self) {
        while matches!(self.bytes.get(self.at), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    fn required_digits(&mut self) -> Result<(), JsonSyntaxError> {
        match self.bytes.get(self.at) {
            Some(b'0'..=b'9') => {
                self.digits();
                Ok(())
            }
            None => Err(self.error_at_end("EOF while parsing a value")),
            Some(_) => Err(self.error_here("invalid number")),
        }
    }

    /// An error about the character at the read position.
    fn error_here(&self, message: &str) -> JsonSyntaxError {
        self.error_at(self.at + 1, message)
    }

    /// An error about the end of the input.
    fn error_at_end(&self, message: &str) -> JsonSyntaxError {
        self.error_at(self.bytes.len(), message)
    }

    /// `message at line L column C`, where the column counts the bytes of
    /// the line up to and including the character before `end`.
    fn error_at(&self, end: usize, message: &str) -> JsonSyntaxError {
        let end = end.min(self.bytes.len());
        let before = &self.bytes[..end];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |newline| newline + 1);
        let line = 1 + before[..line_start].iter().filter(|&&b| b == b'\n').count();
        let column = end - line_start;
        JsonSyntaxError {
            message: format!("{message} at line {line} column {column}"),
            line,
            column,
        }
    }
}

/// The `Number` `serde_json` reads from the ASCII `digits` of an integer
/// (after its `-` when `negative`), when it reads one as an integer: a
/// magnitude that fits `u64`, or a negative integer from -1 down to
/// `i64::MIN`. `None` for the others, which `serde_json` reads as doubles
/// (`-0`, a magnitude past `u64::MAX`, a negative one below `i64::MIN`).
fn integer(negative: bool, digits: &str) -> Option<Number> {
    let magnitude: u64 = digits.parse().ok()?;
    if !negative {
        return Some(magnitude.into());
    }
    let value = 0i64.checked_sub_unsigned(magnitude)?;
    (value != 0).then(|| value.into())
}
