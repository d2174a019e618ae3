//! An iterative JSON parser for deeply nested text.
//!
//! `serde_json` recurses once per nesting level. On a heap-grown stack that
//! is safe but costly: a 1,000,000-deep array needs gigabytes of stack
//! segments, and each open container re-scans the text for an error's
//! position. This parser keeps open containers in a `Vec` instead, so memory
//! is the value itself and every error costs one scan.
//!
//! It accepts exactly RFC 8259 JSON, as `serde_json` does, builds the same
//! `Value` (numbers are read by `serde_json` itself, so `1`, `1.0`, `-0`,
//! `18446744073709551616` come out identical), and words its errors with
//! `serde_json`'s texts: `EOF while parsing a list`, `expected value`,
//! `trailing comma`, … followed by ` at line L column C` (1-based line, the
//! byte column of the offending character; at the end of the input, the
//! length of the last line).

use serde_json::{Map, Number, Value};

use super::{JsonSyntaxError, drop_deep};

/// A container still open: the values read so far and, for an object, the
/// key whose value is being read.
enum Open {
    Array(Vec<Value>),
    Object(Map<String, Value>, String),
}

/// The open containers; on an early return their contents (which may be
/// deep) are dropped without recursion.
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

/// Parses `text` as one JSON value without recursion.
pub(super) fn parse(text: &str) -> Result<Value, JsonSyntaxError> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    let mut open = OpenStack(Vec::new());
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
                if next == Some(b']') {
                    parser.at += 1;
                    Value::Array(Vec::new())
                } else {
                    open.0.push(Open::Array(Vec::new()));
                    continue 'value;
                }
            }
            Some(b'{') => {
                parser.at += 1;
                if parser.skip_whitespace() == Some(b'}') {
                    parser.at += 1;
                    Value::Object(Map::new())
                } else {
                    let key = parser.key()?;
                    open.0.push(Open::Object(Map::new(), key));
                    continue 'value;
                }
            }
            Some(b'"') => {
                parser.at += 1;
                Value::String(parser.string()?)
            }
            Some(b't') => parser.literal("true", Value::Bool(true))?,
            Some(b'f') => parser.literal("false", Value::Bool(false))?,
            Some(b'n') => parser.literal("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => parser.number()?,
            Some(_) => return Err(parser.error_here("expected value")),
        };
        // Hand the value to its container; close containers that end here.
        loop {
            match open.0.last_mut() {
                None => {
                    if parser.skip_whitespace().is_some() {
                        drop_deep(value);
                        return Err(parser.error_here("trailing characters"));
                    }
                    return Ok(value);
                }
                Some(Open::Array(items)) => {
                    items.push(value);
                    match parser.skip_whitespace() {
                        Some(b',') => {
                            parser.at += 1;
                            if parser.skip_whitespace() == Some(b']') {
                                return Err(parser.error_here("trailing comma"));
                            }
                            continue 'value;
                        }
                        Some(b']') => {
                            parser.at += 1;
                            let Some(Open::Array(items)) = open.0.pop() else {
                                unreachable!("the last open container is this array");
                            };
                            value = Value::Array(items);
                        }
                        None => return Err(parser.error_at_end("EOF while parsing a list")),
                        Some(_) => return Err(parser.error_here("expected `,` or `]`")),
                    }
                }
                Some(Open::Object(map, key)) => {
                    // A repeated key keeps its first position and its last
                    // value, as JSON.parse does.
                    if let Some(replaced) = map.insert(std::mem::take(key), value) {
                        drop_deep(replaced);
                    }
                    match parser.skip_whitespace() {
                        Some(b',') => {
                            parser.at += 1;
                            if parser.skip_whitespace() == Some(b'}') {
                                return Err(parser.error_here("trailing comma"));
                            }
                            *key = parser.key()?;
                            continue 'value;
                        }
                        Some(b'}') => {
                            parser.at += 1;
                            let Some(Open::Object(map, _)) = open.0.pop() else {
                                unreachable!("the last open container is this object");
                            };
                            value = Value::Object(map);
                        }
                        None => return Err(parser.error_at_end("EOF while parsing an object")),
                        Some(_) => return Err(parser.error_here("expected `,` or `}`")),
                    }
                }
            }
        }
    }
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
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(&byte) = self.bytes.get(self.at) {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // Stops only at ASCII bytes, so both ends are char boundaries.
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
    /// converted by `serde_json` so both parsers agree on its `Number`.
    fn number(&mut self) -> Result<Value, JsonSyntaxError> {
        let start = self.at;
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
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
