//! The `corpus.json` reader: one parser for run time and for compile time.
//!
//! `corpus.json` is `{ "provenance": { ... }, "cases": [ { "id", "prompt",
//! "golden"?, "expected"? }, ... ] }`. [`parse_manifest`] turns its text into a
//! [`Manifest`], or into every [`ManifestFault`] it finds, each with the
//! 1-based line and column where it sits.
//!
//! This file depends on `std` and `serde_json` only, because
//! `isomer-evals-macros` includes the same source with `#[path]` to check a
//! corpus while `#[isomer_eval]` expands. The macro and the loader therefore
//! agree on what a well-formed corpus is, as `serde_derive` and
//! `serde_derive_internals` share one attribute parser. Keep it that way: no
//! `crate::` paths, no other dependency.
//!
//! Rules, in the order they are checked:
//! - the text does not start with a byte order mark (JSON forbids one; named as such
//!   rather than as `expected value` at 1:1);
//! - the text is JSON (`serde_json`'s syntax error, with its line and column;
//!   nesting deeper than 128 levels is refused there too);
//! - the root is an object with exactly the keys `provenance` (an object) and
//!   `cases` (an array);
//! - each case is an object whose keys are among `id`, `prompt`, `golden`,
//!   `expected`; `id` and `prompt` are required strings; `golden`, when
//!   present, is an object; `expected`, when present, is an array of strings;
//! - an `id` is non-empty and made of ASCII letters, digits, `-` and `_`,
//!   because it names the answer files `answers/<id>.<attempt>.txt` and the
//!   test trial `<suite>::<id>`;
//! - no two cases share an `id` (both places are named), nor ids that differ only in
//!   ASCII letter case, which would share answer files on a case-insensitive file system;
//! - no object of that structure (the root, `provenance`, a case) repeats a
//!   key, since JSON keeps only the last value and the first would be lost
//!   silently (both places are named).
//!
//! Columns count bytes from 1, as `serde_json` counts them in its own errors,
//! so a syntax error and a rule fault in the same file read alike.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;

use serde_json::{Map, Value};

/// A place in a text file: 1-based line, 1-based column counted in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, counted in bytes (as `serde_json` does).
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A parsed `corpus.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// Who wrote the cases, when and how (free-form JSON object; the
    /// recorded corpora name the author, the date, the method and that the
    /// recordings are for replay).
    pub provenance: Map<String, Value>,
    /// The cases, in file order.
    pub cases: Vec<ManifestCase>,
}

/// One case of a `corpus.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestCase {
    /// The stable case id: names `answers/<id>.<attempt>.txt` and the trial.
    pub id: String,
    /// The request, in the host's words.
    pub prompt: String,
    /// The composition a good answer resembles, when the corpus has one.
    pub golden: Option<Value>,
    /// Node types any one of which a good answer uses.
    pub expected: Option<Vec<String>>,
    /// Where the case's object starts.
    pub position: Position,
    /// Where the case's `id` value starts.
    pub id_position: Position,
}

/// One thing wrong with a `corpus.json`, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestFault {
    /// Where the fault sits (the offending value, or its key for an unknown
    /// key; for a missing key, the object that lacks it).
    pub position: Position,
    /// What is wrong.
    pub kind: ManifestFaultKind,
}

impl fmt::Display for ManifestFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.kind)
    }
}

/// What is wrong with a `corpus.json`. Messages are lowercase, without a
/// trailing period, and name the case by its 0-based index in `cases`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ManifestFaultKind {
    /// Occurs when the text is not JSON; `message` is `serde_json`'s, without
    /// its "at line L column C" suffix (the fault's position carries that).
    MalformedJson {
        /// The parser's description, e.g. `expected value`.
        message: String,
    },
    /// Occurs when the root value is not an object.
    RootNotObject,
    /// Occurs when the root object has a key other than `provenance` and
    /// `cases`.
    UnknownRootKey {
        /// The key as written.
        key: String,
    },
    /// Occurs when the root object has no `provenance`.
    MissingProvenance,
    /// Occurs when `provenance` is not an object.
    ProvenanceNotObject,
    /// Occurs when the root object has no `cases`.
    MissingCases,
    /// Occurs when `cases` is not an array.
    CasesNotArray,
    /// Occurs when an element of `cases` is not an object.
    CaseNotObject {
        /// The case's index in `cases`.
        index: usize,
    },
    /// Occurs when a case has a key other than `id`, `prompt`, `golden` and
    /// `expected` (a misspelt `golden` would otherwise be dropped silently).
    UnknownCaseKey {
        /// The case's index in `cases`.
        index: usize,
        /// The key as written.
        key: String,
    },
    /// Occurs when a case has no `id`, or its `id` is not a string.
    MissingId {
        /// The case's index in `cases`.
        index: usize,
    },
    /// Occurs when an `id` is empty or has a character other than ASCII
    /// letters, digits, `-` and `_`.
    BadId {
        /// The case's index in `cases`.
        index: usize,
        /// The id as written.
        id: String,
    },
    /// Occurs when a case has no `prompt`, or its `prompt` is not a string.
    MissingPrompt {
        /// The case's index in `cases`.
        index: usize,
    },
    /// Occurs when a case's `golden` is present but not an object.
    GoldenNotObject {
        /// The case's index in `cases`.
        index: usize,
    },
    /// Occurs when a case's `expected` is present but not an array of
    /// strings.
    ExpectedNotStrings {
        /// The case's index in `cases`.
        index: usize,
    },
    /// Occurs when an object of the manifest's structure (the root or a case)
    /// repeats a key: JSON keeps only the last value, so the first would be
    /// dropped silently. The fault sits at the repeat and names the first.
    DuplicateKey {
        /// The repeated key.
        key: String,
        /// Where the first occurrence of the key starts.
        first: Position,
    },
    /// Occurs when a second case uses an id an earlier case already uses; the
    /// fault sits at the second `id`, and names the first.
    DuplicateId {
        /// The shared id.
        id: String,
        /// Where the first case's `id` value starts.
        first: Position,
    },
    /// Occurs when a case's id differs from an earlier case's only in ASCII letter case
    /// (`Chart`, `chart`): on a case-insensitive file system (the macOS and Windows
    /// defaults) both would read and write the same `answers/<id>.<attempt>.txt`. The
    /// fault sits at the second `id` and names the first.
    IdDiffersOnlyInCase {
        /// The id as written in this case.
        id: String,
        /// The earlier case's id.
        other: String,
        /// Where the earlier case's `id` value starts.
        first: Position,
    },
}

impl fmt::Display for ManifestFaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MalformedJson { message } => write!(f, "malformed JSON: {message}"),
            Self::RootNotObject => {
                f.write_str("the corpus must be an object with `provenance` and `cases`")
            }
            Self::UnknownRootKey { key } => write!(
                f,
                "unknown key {}; the corpus has only `provenance` and `cases`",
                quote(key)
            ),
            Self::MissingProvenance => {
                f.write_str("the corpus has no `provenance`; say who wrote the cases, when and how")
            }
            Self::ProvenanceNotObject => f.write_str("`provenance` must be an object"),
            Self::MissingCases => f.write_str("the corpus has no `cases` array"),
            Self::CasesNotArray => f.write_str("`cases` must be an array"),
            Self::CaseNotObject { index } => write!(f, "case {index} must be an object"),
            Self::UnknownCaseKey { index, key } => write!(
                f,
                "case {index} has unknown key {}; a case has `id`, `prompt`, `golden` and `expected`",
                quote(key)
            ),
            Self::MissingId { index } => write!(f, "case {index} needs a string `id`"),
            Self::BadId { index, id } => write!(
                f,
                "case {index} has id {}; use ASCII letters, digits, `-` and `_` (it names answer files)",
                quote(id)
            ),
            Self::MissingPrompt { index } => write!(f, "case {index} needs a string `prompt`"),
            Self::GoldenNotObject { index } => {
                write!(
                    f,
                    "case {index} has a `golden` that is not a composition object"
                )
            }
            Self::ExpectedNotStrings { index } => {
                write!(
                    f,
                    "case {index} has an `expected` that is not an array of node types"
                )
            }
            Self::DuplicateKey { key, first } => write!(
                f,
                "duplicate key {}, first at {first}; JSON keeps only the last value",
                quote(key)
            ),
            Self::DuplicateId { id, first } => {
                write!(f, "duplicate case id {}, first used at {first}", quote(id))
            }
            Self::IdDiffersOnlyInCase { id, other, first } => write!(
                f,
                "case id {} differs from {} (at {first}) only in letter case; on a case-insensitive file system both would use the same answer files",
                quote(id),
                quote(other)
            ),
        }
    }
}

/// Parses the text of a `corpus.json`.
///
/// Returns the manifest, or every fault found (in file order; never empty).
/// A syntax error stops the reading there, so it comes alone.
pub fn parse_manifest(text: &str) -> Result<Manifest, Vec<ManifestFault>> {
    if let Some(fault) = byte_order_mark_fault(text) {
        return Err(vec![fault]);
    }
    let lines = LineIndex::new(text);
    let root: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => return Err(vec![syntax_fault(&error)]),
    };
    let spans = scan_spans(text, 3);
    let at = |path: &[Step<'_>]| lines.position(spans.value_offset(path));
    let key_at = |path: &[Step<'_>]| lines.position(spans.key_offset(path));
    let mut faults = Vec::new();
    let fault = |position: Position, kind: ManifestFaultKind| ManifestFault { position, kind };

    let Value::Object(root) = root else {
        return Err(vec![fault(at(&[]), ManifestFaultKind::RootNotObject)]);
    };
    for (key, first, second) in spans.duplicate_keys() {
        let kind = ManifestFaultKind::DuplicateKey {
            key: key.clone(),
            first: lines.position(*first),
        };
        faults.push(fault(lines.position(*second), kind));
    }
    for key in root.keys() {
        if key != "provenance" && key != "cases" {
            let kind = ManifestFaultKind::UnknownRootKey { key: key.clone() };
            faults.push(fault(key_at(&[Step::Key(key)]), kind));
        }
    }
    let provenance = match root.get("provenance") {
        None => {
            faults.push(fault(at(&[]), ManifestFaultKind::MissingProvenance));
            Map::new()
        }
        Some(Value::Object(map)) => map.clone(),
        Some(_) => {
            let position = at(&[Step::Key("provenance")]);
            faults.push(fault(position, ManifestFaultKind::ProvenanceNotObject));
            Map::new()
        }
    };
    let elements: &[Value] = match root.get("cases") {
        None => {
            faults.push(fault(at(&[]), ManifestFaultKind::MissingCases));
            &[]
        }
        Some(Value::Array(elements)) => elements,
        Some(_) => {
            faults.push(fault(
                at(&[Step::Key("cases")]),
                ManifestFaultKind::CasesNotArray,
            ));
            &[]
        }
    };

    let mut cases = Vec::with_capacity(elements.len());
    for (index, element) in elements.iter().enumerate() {
        let case_path = [Step::Key("cases"), Step::Index(index)];
        let field = |key: &'static str| [Step::Key("cases"), Step::Index(index), Step::Key(key)];
        let Value::Object(object) = element else {
            faults.push(fault(
                at(&case_path),
                ManifestFaultKind::CaseNotObject { index },
            ));
            continue;
        };
        let before = faults.len();
        for key in object.keys() {
            if !matches!(key.as_str(), "id" | "prompt" | "golden" | "expected") {
                let kind = ManifestFaultKind::UnknownCaseKey {
                    index,
                    key: key.clone(),
                };
                let path = [Step::Key("cases"), Step::Index(index), Step::Key(key)];
                faults.push(fault(key_at(&path), kind));
            }
        }
        let id = match object.get("id") {
            Some(Value::String(id)) if is_case_id(id) => Some(id.clone()),
            Some(Value::String(id)) => {
                let kind = ManifestFaultKind::BadId {
                    index,
                    id: id.clone(),
                };
                faults.push(fault(at(&field("id")), kind));
                None
            }
            Some(_) => {
                faults.push(fault(
                    at(&field("id")),
                    ManifestFaultKind::MissingId { index },
                ));
                None
            }
            None => {
                faults.push(fault(
                    at(&case_path),
                    ManifestFaultKind::MissingId { index },
                ));
                None
            }
        };
        let prompt = match object.get("prompt") {
            Some(Value::String(prompt)) => Some(prompt.clone()),
            Some(_) => {
                let kind = ManifestFaultKind::MissingPrompt { index };
                faults.push(fault(at(&field("prompt")), kind));
                None
            }
            None => {
                let kind = ManifestFaultKind::MissingPrompt { index };
                faults.push(fault(at(&case_path), kind));
                None
            }
        };
        let golden = match object.get("golden") {
            None => None,
            Some(golden @ Value::Object(_)) => Some(golden.clone()),
            Some(_) => {
                let kind = ManifestFaultKind::GoldenNotObject { index };
                faults.push(fault(at(&field("golden")), kind));
                None
            }
        };
        let expected = match object.get("expected") {
            None => None,
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => Some(
                items
                    .iter()
                    .filter_map(|item| item.as_str().map(str::to_owned))
                    .collect(),
            ),
            Some(_) => {
                let kind = ManifestFaultKind::ExpectedNotStrings { index };
                faults.push(fault(at(&field("expected")), kind));
                None
            }
        };
        if let (Some(id), Some(prompt), true) = (id, prompt, faults.len() == before) {
            cases.push(ManifestCase {
                id,
                prompt,
                golden,
                expected,
                position: at(&case_path),
                id_position: at(&field("id")),
            });
        }
    }

    // Duplicates are checked over every string id, including those of cases
    // with other faults, so one reading names every problem.
    // Ids are also compared folded to lowercase, because each names answer files.
    let mut seen: HashMap<&str, Position> = HashMap::new();
    let mut folded: HashMap<String, (&str, Position)> = HashMap::new();
    for (index, element) in elements.iter().enumerate() {
        let Some(Value::String(id)) = element.get("id") else {
            continue;
        };
        let position = at(&[Step::Key("cases"), Step::Index(index), Step::Key("id")]);
        match seen.get(id.as_str()) {
            Some(&first) => {
                let kind = ManifestFaultKind::DuplicateId {
                    id: id.clone(),
                    first,
                };
                faults.push(fault(position, kind));
            }
            None => {
                seen.insert(id, position);
                match folded.get(&id.to_ascii_lowercase()) {
                    Some(&(other, first)) => {
                        let kind = ManifestFaultKind::IdDiffersOnlyInCase {
                            id: id.clone(),
                            other: other.to_owned(),
                            first,
                        };
                        faults.push(fault(position, kind));
                    }
                    None => {
                        folded.insert(id.to_ascii_lowercase(), (id, position));
                    }
                }
            }
        }
    }

    if faults.is_empty() {
        Ok(Manifest { provenance, cases })
    } else {
        faults.sort_by_key(|fault| fault.position);
        Err(faults)
    }
}

/// True when `id` can name a case: non-empty ASCII letters, digits, `-` and
/// `_` (safe as a file name on every OS, and in a test name).
pub fn is_case_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// The fault of a text that starts with a byte order mark (U+FEFF, as some Windows editors
/// save UTF-8): JSON forbids it (RFC 8259 §8.1) and `serde_json` would only say
/// `expected value` at 1:1, which does not say why. `None` without one.
pub fn byte_order_mark_fault(text: &str) -> Option<ManifestFault> {
    text.starts_with('\u{feff}').then(|| ManifestFault {
        position: Position { line: 1, column: 1 },
        kind: ManifestFaultKind::MalformedJson {
            message: "the file starts with a byte order mark (U+FEFF), which JSON does not allow; save it as UTF-8 without a BOM".to_owned(),
        },
    })
}

/// Turns a `serde_json` error into a fault at its line and column, dropping
/// the " at line L column C" suffix its `Display` appends.
pub fn syntax_fault(error: &serde_json::Error) -> ManifestFault {
    let full = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    ManifestFault {
        position: Position {
            line: error.line(),
            column: error.column().max(1),
        },
        kind: ManifestFaultKind::MalformedJson { message },
    }
}

fn quote(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

/// Byte offsets of line starts, to turn an offset into a [`Position`].
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the line starts of `text` (lines end at `\n`, as in
    /// `serde_json`).
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Self { starts }
    }

    /// The position of byte `offset` (1-based line and byte column).
    pub fn position(&self, offset: usize) -> Position {
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line.saturating_sub(1)];
        Position {
            line,
            column: offset - start + 1,
        }
    }
}

/// One step of a path into a JSON document: an object key or an array index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// A member of an object.
    Key(&'a str),
    /// An element of an array.
    Index(usize),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum OwnedStep {
    Key(String),
    Index(usize),
}

impl From<&Step<'_>> for OwnedStep {
    fn from(step: &Step<'_>) -> Self {
        match step {
            Step::Key(key) => Self::Key((*key).to_owned()),
            Step::Index(index) => Self::Index(*index),
        }
    }
}

/// Where the shallow values of a JSON text start: for each value at most
/// `depth` steps below the root, its path, the byte offset of its first
/// character, and (for object members) the offset of its key.
pub struct Spans {
    /// Path → (key offset for object members, value offset).
    entries: HashMap<Vec<OwnedStep>, (Option<usize>, usize)>,
    /// Repeated keys among the recorded members: (key, offset of the first
    /// key, offset of the repeat), in text order.
    duplicates: Vec<(String, usize, usize)>,
}

impl Spans {
    fn find(&self, path: &[Step<'_>]) -> Option<&(Option<usize>, usize)> {
        let owned: Vec<OwnedStep> = path.iter().map(OwnedStep::from).collect();
        self.entries.get(&owned)
    }

    /// The offset where the value at `path` starts; for a path the scan did
    /// not record, the offset of its nearest recorded ancestor (0 at worst).
    pub fn value_offset(&self, path: &[Step<'_>]) -> usize {
        (0..=path.len())
            .rev()
            .find_map(|len| self.find(&path[..len]).map(|entry| entry.1))
            .unwrap_or(0)
    }

    /// Keys an object repeats, among the recorded (shallow) members: the key,
    /// the offset of its first occurrence and of the repeat, in text order.
    /// JSON parsers keep only the last value, so a repeat hides a value.
    pub fn duplicate_keys(&self) -> &[(String, usize, usize)] {
        &self.duplicates
    }

    /// The offset of the key of the member at `path` (its opening quote); the
    /// value's offset when the path is not an object member.
    pub fn key_offset(&self, path: &[Step<'_>]) -> usize {
        match self.find(path) {
            Some((Some(key), _)) => *key,
            _ => self.value_offset(path),
        }
    }
}

/// Records where each value at most `depth` steps below the root starts.
///
/// Expects text that `serde_json` already accepted; on anything else it
/// records what it can and never panics. The scan is a single loop with an
/// explicit stack, so nesting depth costs no call stack. When an object
/// repeats a key, the first member's offsets are kept.
pub fn scan_spans(text: &str, depth: usize) -> Spans {
    struct Open {
        object: bool,
        index: usize,
        key: Option<(String, usize)>,
    }
    let bytes = text.as_bytes();
    let mut stack: Vec<Open> = Vec::new();
    let mut entries = HashMap::new();
    let mut duplicates = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if byte.is_ascii_whitespace() || byte == b':' {
            i += 1;
            continue;
        }
        if byte == b',' {
            if let Some(top) = stack.last_mut() {
                top.index += 1;
                top.key = None;
            }
            i += 1;
            continue;
        }
        if byte == b'}' || byte == b']' {
            stack.pop();
            i += 1;
            continue;
        }
        let start = i;
        let end = if byte == b'"' {
            string_end(bytes, i)
        } else {
            scalar_end(bytes, i)
        };
        let is_key = byte == b'"'
            && matches!(
                stack.last(),
                Some(Open {
                    object: true,
                    key: None,
                    ..
                })
            );
        if is_key {
            let key = serde_json::from_str::<String>(&text[start..end]).unwrap_or_default();
            if let Some(top) = stack.last_mut() {
                top.key = Some((key, start));
            }
            i = end;
            continue;
        }
        // A value starts here: record it when shallow enough.
        if stack.len() <= depth {
            let mut path = Vec::with_capacity(stack.len());
            let mut key_offset = None;
            for open in &stack {
                match &open.key {
                    Some((key, offset)) if open.object => {
                        path.push(OwnedStep::Key(key.clone()));
                        key_offset = Some(*offset);
                    }
                    _ => {
                        path.push(OwnedStep::Index(open.index));
                        key_offset = None;
                    }
                }
            }
            match entries.entry(path) {
                Entry::Vacant(vacant) => {
                    vacant.insert((key_offset, start));
                }
                // Array indices never repeat: this is an object's key again.
                Entry::Occupied(first) => {
                    if let (Some(OwnedStep::Key(key)), (Some(first_key), _), Some(second)) =
                        (first.key().last(), first.get(), key_offset)
                    {
                        duplicates.push((key.clone(), *first_key, second));
                    }
                }
            }
        }
        if byte == b'{' || byte == b'[' {
            stack.push(Open {
                object: byte == b'{',
                index: 0,
                key: None,
            });
            i += 1;
        } else {
            i = end.max(i + 1);
        }
    }
    Spans {
        entries,
        duplicates,
    }
}

/// The offset just past the string starting at `start` (an opening quote).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The offset just past the number or literal starting at `start`.
fn scalar_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < bytes.len()
        && !matches!(bytes[i], b',' | b'}' | b']' | b':' | b'"')
        && !bytes[i].is_ascii_whitespace()
    {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_spans_records_shallow_values_and_keys() {
        let text = "{\"a\": [1, {\"b\": 2}],\n \"c\": \"x\"}";
        let spans = scan_spans(text, 3);
        assert_eq!(spans.value_offset(&[]), 0);
        assert_eq!(spans.value_offset(&[Step::Key("a")]), 6);
        assert_eq!(spans.value_offset(&[Step::Key("a"), Step::Index(1)]), 10);
        assert_eq!(
            spans.value_offset(&[Step::Key("a"), Step::Index(1), Step::Key("b")]),
            16
        );
        assert_eq!(spans.key_offset(&[Step::Key("c")]), 22);
        assert_eq!(spans.value_offset(&[Step::Key("c")]), 27);
        // Unrecorded paths fall back to the nearest ancestor.
        assert_eq!(spans.value_offset(&[Step::Key("a"), Step::Index(7)]), 6);
    }

    #[test]
    fn line_index_counts_bytes_from_one() {
        let lines = LineIndex::new("ab\ncd\n");
        assert_eq!(lines.position(0), Position { line: 1, column: 1 });
        assert_eq!(lines.position(4), Position { line: 2, column: 2 });
        assert_eq!(lines.position(6), Position { line: 3, column: 1 });
    }

    #[test]
    fn ids_that_differ_only_in_case_would_share_answer_files() {
        let text = "{\"provenance\": {}, \"cases\": [\n{\"id\": \"chart\", \"prompt\": \"a\"},\n{\"id\": \"Chart\", \"prompt\": \"b\"}]}";
        let faults = parse_manifest(text).unwrap_err();
        let shown: Vec<String> = faults.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "3:8: case id \"Chart\" differs from \"chart\" (at 2:8) only in letter case; on a case-insensitive file system both would use the same answer files"
            ]
        );
    }

    #[test]
    fn a_byte_order_mark_is_named_as_such() {
        let faults = parse_manifest("\u{feff}{\"provenance\": {}, \"cases\": []}").unwrap_err();
        let shown: Vec<String> = faults.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "1:1: malformed JSON: the file starts with a byte order mark (U+FEFF), which JSON does not allow; save it as UTF-8 without a BOM"
            ]
        );
        // A BOM anywhere else is an ordinary (if odd) character.
        assert_eq!(byte_order_mark_fault("{\"a\": \"\u{feff}\"}"), None);
    }

    #[test]
    fn case_ids_are_file_safe() {
        assert!(is_case_id("quarterly-revenue_2"));
        assert!(!is_case_id(""));
        assert!(!is_case_id("a/b"));
        assert!(!is_case_id("a.b"));
        assert!(!is_case_id("naïve"));
    }
}
