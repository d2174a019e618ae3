//! The one reader both JSON formats of a corpus (`corpus.json`, `judgments.json`) are
//! written on: it parses the text, then lets a format walk the value while it collects every
//! [`Fault`] with the line and column where it sits, so one reading names every problem.
//!
//! What every format gets from it, in this order:
//! - a text that starts with a byte order mark (U+FEFF, as some Windows editors save UTF-8)
//!   is refused as such: JSON forbids one and `serde_json` would only say `expected value`
//!   at 1:1, which does not say why;
//! - a text that is not JSON is one fault, `serde_json`'s message at its line and column
//!   (nesting deeper than 128 levels is refused there too); reading stops there;
//! - a root that is not an object is one fault; reading stops there;
//! - an object of the first three levels that repeats a key is a fault at the repeat naming
//!   the first, since JSON keeps only the last value and the first would be lost silently;
//! - then the format's own rules, through [`ObjectReader::unknown_keys`],
//!   [`ObjectReader::member`] and [`ObjectReader::objects`].
//!
//! Faults come back sorted by position.

use std::fmt;

use serde_json::{Map, Value};

use crate::position::{LineIndex, Position, Spans, Step, scan_spans};

/// One thing wrong with a JSON file of a corpus, and where: [`crate::ManifestFault`] and
/// [`crate::JudgmentFault`] are this with their format's kinds.
///
/// `Display` prints `<line>:<column>: <message>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault<K> {
    /// Where the fault sits: the offending value, the key of an unknown or repeated key, or
    /// the object that lacks a required key.
    pub position: Position,
    /// What is wrong.
    pub kind: K,
}

impl<K: fmt::Display> fmt::Display for Fault<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.kind)
    }
}

/// The faults every JSON format of a corpus shares, built into the format's own kind.
pub(crate) trait FormatFault: Sized {
    /// The text is not JSON; `message` is the parser's, without a position suffix.
    fn malformed_json(message: String) -> Self;
    /// An object repeats `key`, first written at `first`.
    fn duplicate_key(key: String, first: Position) -> Self;
}

/// A JSON object as `serde_json` parses it.
type JsonObject = Map<String, Value>;

/// How deep [`scan_spans`] records places: the root, its members, their elements, and the
/// elements' members (`cases[3].id`, `judgments[0].verdict`).
const SPAN_DEPTH: usize = 3;

/// A parsed JSON text and the faults found in it so far.
pub(crate) struct ObjectReader<K> {
    lines: LineIndex,
    spans: Spans,
    faults: Vec<Fault<K>>,
}

impl<K: FormatFault> ObjectReader<K> {
    /// Parses `text` and checks it is an object; records every repeated key. Errors: the
    /// one fault that stops the reading (a byte order mark, a syntax error, a root that is
    /// not an object, which is reported as `root_not_object`).
    pub(crate) fn open(
        text: &str,
        root_not_object: K,
    ) -> Result<(Self, JsonObject), Vec<Fault<K>>> {
        let lines = LineIndex::new(text);
        if text.starts_with('\u{feff}') {
            let message = "the file starts with a byte order mark (U+FEFF), which JSON does not allow; save it as UTF-8 without a BOM";
            return Err(vec![Fault {
                position: Position { line: 1, column: 1 },
                kind: K::malformed_json(message.to_owned()),
            }]);
        }
        let root = match serde_json::from_str::<Value>(text) {
            Ok(root) => root,
            Err(error) => {
                // `Display` appends " at line L column C", which the position carries.
                let full = error.to_string();
                let suffix = format!(" at line {} column {}", error.line(), error.column());
                let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
                return Err(vec![Fault {
                    position: Position {
                        line: error.line(),
                        column: error.column().max(1),
                    },
                    kind: K::malformed_json(message),
                }]);
            }
        };
        let spans = scan_spans(text, SPAN_DEPTH);
        let mut reader = Self {
            lines,
            spans,
            faults: Vec::new(),
        };
        let Value::Object(root) = root else {
            let position = reader.at(&[]);
            return Err(vec![Fault {
                position,
                kind: root_not_object,
            }]);
        };
        let repeats: Vec<Fault<K>> = reader
            .spans
            .duplicate_keys()
            .iter()
            .map(|(key, first, repeat)| Fault {
                position: reader.lines.position(*repeat),
                kind: K::duplicate_key(key.clone(), reader.lines.position(*first)),
            })
            .collect();
        reader.faults.extend(repeats);
        Ok((reader, root))
    }

    /// Where the value at `path` starts (its nearest recorded ancestor when deeper than
    /// the scan goes).
    pub(crate) fn at(&self, path: &[Step<'_>]) -> Position {
        self.lines.position(self.spans.value_offset(path))
    }

    /// Notes a fault.
    pub(crate) fn fault(&mut self, position: Position, kind: K) {
        self.faults.push(Fault { position, kind });
    }

    /// How many faults are noted so far; an element is kept only when reading it added
    /// none.
    pub(crate) fn fault_count(&self) -> usize {
        self.faults.len()
    }

    /// Notes every key of `object` (at `path`) that is not in `allowed`, at the key.
    pub(crate) fn unknown_keys(
        &mut self,
        object: &Map<String, Value>,
        path: &[Step<'_>],
        allowed: &[&str],
        kind: impl Fn(String) -> K,
    ) {
        for key in object.keys() {
            if !allowed.contains(&key.as_str()) {
                let member: Vec<Step<'_>> = child(path, key);
                let position = self.lines.position(self.spans.key_offset(&member));
                self.fault(position, kind(key.clone()));
            }
        }
    }

    /// Reads member `key` of `object` (at `path`) with `read`.
    ///
    /// A member `read` refuses is a fault `wrong` at its value; an absent member is a fault
    /// `missing` at the object, or no fault when `missing` is `None` (an optional member).
    pub(crate) fn member<'v, T>(
        &mut self,
        object: &'v Map<String, Value>,
        path: &[Step<'_>],
        key: &str,
        read: impl FnOnce(&'v Value) -> Option<T>,
        missing: Option<K>,
        wrong: K,
    ) -> Option<T> {
        match object.get(key) {
            Some(value) => {
                let read = read(value);
                if read.is_none() {
                    let position = self.at(&child(path, key));
                    self.fault(position, wrong);
                }
                read
            }
            None => {
                if let Some(missing) = missing {
                    let position = self.at(path);
                    self.fault(position, missing);
                }
                None
            }
        }
    }

    /// The elements of `items` (the array at `path`) that are objects, with their indices;
    /// each other element is a fault `not_object(index)` at it.
    pub(crate) fn objects<'v>(
        &mut self,
        items: &'v [Value],
        path: &[Step<'_>],
        not_object: impl Fn(usize) -> K,
    ) -> Vec<(usize, &'v Map<String, Value>)> {
        let mut objects = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            match item {
                Value::Object(object) => objects.push((index, object)),
                _ => {
                    let mut element = path.to_vec();
                    element.push(Step::Index(index));
                    let position = self.at(&element);
                    self.fault(position, not_object(index));
                }
            }
        }
        objects
    }

    /// The value read, or every fault noted, sorted by position.
    pub(crate) fn finish<T>(mut self, value: T) -> Result<T, Vec<Fault<K>>> {
        if self.faults.is_empty() {
            Ok(value)
        } else {
            self.faults.sort_by_key(|fault| fault.position);
            Err(self.faults)
        }
    }
}

/// `path` followed by member `key`.
pub(crate) fn child<'a>(path: &[Step<'a>], key: &'a str) -> Vec<Step<'a>> {
    let mut member = path.to_vec();
    member.push(Step::Key(key));
    member
}

/// `text` as a JSON string literal, the way fault messages quote names and ids.
pub(crate) fn quote(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}
/// `value` as `serde_json`'s pretty printer writes it (two-space indent), plus a final
/// newline: the layout the corpus files are committed in.
pub(crate) fn pretty(value: &Value) -> String {
    // Serializing a `Value` to a `String` cannot fail: its keys are strings and
    // its numbers finite.
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}
