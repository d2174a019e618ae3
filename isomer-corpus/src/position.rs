//! Places in a JSON text: [`Position`] (line and column), [`LineIndex`] (byte offset to
//! position) and [`scan_spans`] (where each shallow value and key starts), so a fault found
//! on a parsed `serde_json::Value` can still be shown where it sits in the file.
//!
//! Columns count bytes from 1, as `serde_json` counts them in its own errors, so a syntax
//! error and a rule fault in the same file read alike.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;
use std::ops::Range;

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

/// Byte offsets of line starts, to turn an offset into a [`Position`].
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the line starts of `text` (lines end at `\n`, as in
    /// `serde_json`).
    pub fn new(text: &str) -> Self {
        Self::new_bytes(text.as_bytes())
    }

    /// Indexes the line starts of `bytes`, which need not be UTF-8.
    fn new_bytes(bytes: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            bytes
                .iter()
                .copied()
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

/// Where the finding printed as `finding` sits in the file `file`: the line and column of
/// the value its path names inside the JSON value at `file[value]`, or of its nearest
/// ancestor that the text has. `None` when `finding` does not start with a path or `value`
/// is not a range of `file`.
///
/// A finding prints as `<path> <message>` or `<path> (in <type>) <message>` (the sdk's
/// `format_validation_error`), where a path is a first key, then `.<key>` or `[<index>]`
/// steps (`body[1].items[0].label`). Keys are printed raw, so only paths whose keys are
/// made of ASCII letters, digits, `_`, `$` and `-` are read; a finding with an empty path
/// starts with its message, whose first word is then read as a key the value does not
/// have, which places the finding at the value itself. The value is expected to be JSON
/// that `serde_json` accepted; on anything else the position is still in `value`.
pub fn finding_position(file: &str, value: Range<usize>, finding: &str) -> Option<Position> {
    let text = file.get(value.clone())?;
    let path = finding.split(' ').next()?;
    let steps = path_steps(path)?;
    let offset = scan_spans(text, steps.len()).value_offset(&steps);
    Some(LineIndex::new(file).position(value.start + offset))
}

/// The steps of a printed finding path (see [`finding_position`]), or `None` when `path`
/// is not one.
fn path_steps(path: &str) -> Option<Vec<Step<'_>>> {
    let is_key_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-');
    let bytes = path.as_bytes();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'[' => {
                let close = i + path[i..].find(']')?;
                steps.push(Step::Index(path[i + 1..close].parse().ok()?));
                i = close + 1;
            }
            b'.' if !steps.is_empty() => i += 1,
            _ if i > 0 && bytes[i - 1] != b'.' => return None,
            _ => {
                let end = i + bytes[i..].iter().take_while(|&&b| is_key_byte(b)).count();
                if end == i {
                    return None;
                }
                steps.push(Step::Key(&path[i..end]));
                i = end;
            }
        }
    }
    (!steps.is_empty()).then_some(steps)
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

/// Where the first byte that is not UTF-8 sits in `bytes`, or `Ok` with the text.
///
/// Every text file of a corpus (manifest, prompt, answers, judgments, transcripts) is read
/// with this, so each reports a bad byte at the same 1-based line and byte column.
pub fn decode_utf8(bytes: Vec<u8>) -> Result<String, Position> {
    String::from_utf8(bytes).map_err(|error| {
        let offset = error.utf8_error().valid_up_to();
        LineIndex::new_bytes(error.as_bytes()).position(offset)
    })
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
    fn a_bad_byte_is_placed_by_line_and_byte_column() {
        assert_eq!(
            decode_utf8(b"ok\nab\xffc".to_vec()),
            Err(Position { line: 2, column: 3 })
        );
        assert_eq!(decode_utf8(b"fine".to_vec()).as_deref(), Ok("fine"));
    }

    #[test]
    fn a_finding_is_placed_at_the_value_its_path_names() {
        let file = "```json\n{\"body\": [\n  {\"type\": \"a\",\n   \"items\": [1, {\"label\": 2}]}\n]}\n```";
        let value = 8..file.len() - 4;
        let at = |finding| finding_position(file, value.clone(), finding);
        assert_eq!(
            at("body[0].items[1].label (in a) must be a string"),
            Some(Position {
                line: 4,
                column: 27
            })
        );
        assert_eq!(
            at("body[0] has unrecognized key(s): x"),
            Some(Position { line: 3, column: 3 })
        );
        // A step the text does not have falls back to its nearest ancestor.
        assert_eq!(
            at("body[0].items[7] is required"),
            Some(Position {
                line: 4,
                column: 13
            })
        );
        // A finding without a path sits at the value itself.
        assert_eq!(
            at("input nests deeper than 64 levels"),
            Some(Position { line: 2, column: 1 })
        );
        // Not a path: a key with other characters, an unclosed or non-numeric index.
        assert_eq!(at("a/b must be a string"), None);
        assert_eq!(at("body[0 is required"), None);
        assert_eq!(at("body[x] is required"), None);
        assert_eq!(finding_position(file, 0..file.len() + 1, "body"), None);
    }
}
