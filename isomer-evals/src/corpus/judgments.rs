//! The `judgments.json` reader: recorded answerability verdicts.
//!
//! ```json
//! {
//!   "provenance": { "author": "...", "date": "...", "method": "..." },
//!   "judgments": [
//!     { "id": "<case id>", "verdict": "yes", "rendered": "<text rendering judged>" }
//!   ]
//! }
//! ```
//!
//! Each judgment names a case of `corpus.json`, the verdict (`yes`,
//! `partial` or `no`, as upstream `AnswerabilityVerdict`), and the text
//! rendering the judge was shown. Replay returns the verdict and compares
//! the rendering with the current one, to list stale judgments.
//!
//! Every fault is reported with its line and column: malformed JSON, a
//! missing or mistyped field, an unknown key, a judgment for a case the
//! corpus does not have, two judgments for one case.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use serde_json::{Map, Value};

use super::manifest::{
    LineIndex, ManifestFault, ManifestFaultKind, Position, Step, byte_order_mark_fault, scan_spans,
    syntax_fault,
};
use crate::case::AnswerabilityVerdict;

/// One recorded verdict and the rendering it was given for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedJudgment {
    /// The verdict the judge gave.
    pub verdict: AnswerabilityVerdict,
    /// The text rendering of the validated answer the judge read.
    pub rendered: String,
}

/// A parsed `judgments.json`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Judgments {
    /// Who judged, when and how (free-form JSON object).
    pub provenance: Map<String, Value>,
    /// The recorded judgments by case id.
    pub by_case: BTreeMap<String, RecordedJudgment>,
}

/// One thing wrong with a `judgments.json`, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgmentFault {
    /// Where the fault sits (the value, the key of an unknown key, or the
    /// object that lacks a key).
    pub position: Position,
    /// What is wrong.
    pub kind: JudgmentFaultKind,
}

impl fmt::Display for JudgmentFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.kind)
    }
}

/// What is wrong with a `judgments.json`. Messages are lowercase, with no
/// trailing period, and name a judgment by its 0-based index.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JudgmentFaultKind {
    /// Occurs when the text is not JSON (`serde_json`'s message).
    MalformedJson {
        /// The parser's description, e.g. `expected value`.
        message: String,
    },
    /// Occurs when the root is not an object.
    RootNotObject,
    /// Occurs when the root has a key other than `provenance` and `judgments`.
    UnknownRootKey {
        /// The key as written.
        key: String,
    },
    /// Occurs when the root has no `provenance` object.
    MissingProvenance,
    /// Occurs when the root has no `judgments` array.
    MissingJudgments,
    /// Occurs when an element of `judgments` is not an object.
    JudgmentNotObject {
        /// The judgment's index.
        index: usize,
    },
    /// Occurs when a judgment has a key other than `id`, `verdict` and
    /// `rendered`.
    UnknownKey {
        /// The judgment's index.
        index: usize,
        /// The key as written.
        key: String,
    },
    /// Occurs when a judgment has no string `id`.
    MissingId {
        /// The judgment's index.
        index: usize,
    },
    /// Occurs when a judgment's `verdict` is missing or not one of `yes`,
    /// `partial`, `no`.
    BadVerdict {
        /// The judgment's index.
        index: usize,
    },
    /// Occurs when a judgment has no string `rendered`.
    MissingRendered {
        /// The judgment's index.
        index: usize,
    },
    /// Occurs when the root or a judgment repeats a key (JSON keeps only the
    /// last value); the fault sits at the repeat and names the first.
    DuplicateKey {
        /// The repeated key.
        key: String,
        /// Where the first occurrence of the key starts.
        first: Position,
    },
    /// Occurs when a judgment names a case id `corpus.json` does not have.
    UnknownCase {
        /// The id as written.
        id: String,
    },
    /// Occurs when a second judgment names a case an earlier one judged; the
    /// fault sits at the second `id` and names the first.
    DuplicateJudgment {
        /// The shared case id.
        id: String,
        /// Where the first judgment's `id` value starts.
        first: Position,
    },
}

impl fmt::Display for JudgmentFaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MalformedJson { message } => write!(f, "malformed JSON: {message}"),
            Self::RootNotObject => f.write_str(
                "the judgments file must be an object with `provenance` and `judgments`",
            ),
            Self::UnknownRootKey { key } => write!(
                f,
                "unknown key {}; the judgments file has only `provenance` and `judgments`",
                quote(key)
            ),
            Self::MissingProvenance => f.write_str(
                "the judgments file needs a `provenance` object; say who judged, when and how",
            ),
            Self::MissingJudgments => f.write_str("the judgments file needs a `judgments` array"),
            Self::JudgmentNotObject { index } => write!(f, "judgment {index} must be an object"),
            Self::UnknownKey { index, key } => write!(
                f,
                "judgment {index} has unknown key {}; a judgment has `id`, `verdict` and `rendered`",
                quote(key)
            ),
            Self::MissingId { index } => write!(f, "judgment {index} needs a string `id`"),
            Self::BadVerdict { index } => write!(
                f,
                "judgment {index} needs a `verdict` of \"yes\", \"partial\" or \"no\""
            ),
            Self::MissingRendered { index } => write!(
                f,
                "judgment {index} needs a string `rendered` (the text rendering it judged)"
            ),
            Self::DuplicateKey { key, first } => write!(
                f,
                "duplicate key {}, first at {first}; JSON keeps only the last value",
                quote(key)
            ),
            Self::UnknownCase { id } => {
                write!(
                    f,
                    "judgment for case {}, which corpus.json does not have",
                    quote(id)
                )
            }
            Self::DuplicateJudgment { id, first } => {
                write!(
                    f,
                    "second judgment for case {}, first at {first}",
                    quote(id)
                )
            }
        }
    }
}

fn quote(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

/// Parses the text of a `judgments.json`.
///
/// `case_ids` is the corpus's set of ids; `None` skips the unknown-case
/// check (for when `corpus.json` itself could not be read, whose faults are
/// reported on their own). Returns every fault found, sorted by position.
pub fn parse_judgments(
    text: &str,
    case_ids: Option<&HashSet<&str>>,
) -> Result<Judgments, Vec<JudgmentFault>> {
    let lines = LineIndex::new(text);
    let parsed = match byte_order_mark_fault(text) {
        Some(fault) => Err(fault),
        None => serde_json::from_str(text).map_err(|error| syntax_fault(&error)),
    };
    let root: Value = match parsed {
        Ok(value) => value,
        Err(fault) => {
            // Shares the manifest's reading of a BOM and of serde_json errors.
            let fault: ManifestFault = fault;
            let message = match fault.kind {
                ManifestFaultKind::MalformedJson { message } => message,
                other => other.to_string(),
            };
            return Err(vec![JudgmentFault {
                position: fault.position,
                kind: JudgmentFaultKind::MalformedJson { message },
            }]);
        }
    };
    let spans = scan_spans(text, 3);
    let at = |path: &[Step<'_>]| lines.position(spans.value_offset(path));
    let key_at = |path: &[Step<'_>]| lines.position(spans.key_offset(path));
    let fault = |position: Position, kind: JudgmentFaultKind| JudgmentFault { position, kind };
    let mut faults = Vec::new();

    let Value::Object(root) = root else {
        return Err(vec![fault(at(&[]), JudgmentFaultKind::RootNotObject)]);
    };
    for (key, first, second) in spans.duplicate_keys() {
        let kind = JudgmentFaultKind::DuplicateKey {
            key: key.clone(),
            first: lines.position(*first),
        };
        faults.push(fault(lines.position(*second), kind));
    }
    for key in root.keys() {
        if key != "provenance" && key != "judgments" {
            let kind = JudgmentFaultKind::UnknownRootKey { key: key.clone() };
            faults.push(fault(key_at(&[Step::Key(key)]), kind));
        }
    }
    let provenance = match root.get("provenance") {
        Some(Value::Object(map)) => map.clone(),
        Some(_) => {
            faults.push(fault(
                at(&[Step::Key("provenance")]),
                JudgmentFaultKind::MissingProvenance,
            ));
            Map::new()
        }
        None => {
            faults.push(fault(at(&[]), JudgmentFaultKind::MissingProvenance));
            Map::new()
        }
    };
    let elements: &[Value] = match root.get("judgments") {
        Some(Value::Array(elements)) => elements,
        Some(_) => {
            faults.push(fault(
                at(&[Step::Key("judgments")]),
                JudgmentFaultKind::MissingJudgments,
            ));
            &[]
        }
        None => {
            faults.push(fault(at(&[]), JudgmentFaultKind::MissingJudgments));
            &[]
        }
    };

    let mut by_case = BTreeMap::new();
    let mut first_at: HashMap<&str, Position> = HashMap::new();
    for (index, element) in elements.iter().enumerate() {
        let item = [Step::Key("judgments"), Step::Index(index)];
        let field =
            |key: &'static str| [Step::Key("judgments"), Step::Index(index), Step::Key(key)];
        let Value::Object(object) = element else {
            faults.push(fault(
                at(&item),
                JudgmentFaultKind::JudgmentNotObject { index },
            ));
            continue;
        };
        let before = faults.len();
        for key in object.keys() {
            if !matches!(key.as_str(), "id" | "verdict" | "rendered") {
                let path = [Step::Key("judgments"), Step::Index(index), Step::Key(key)];
                let kind = JudgmentFaultKind::UnknownKey {
                    index,
                    key: key.clone(),
                };
                faults.push(fault(key_at(&path), kind));
            }
        }
        let id = match object.get("id") {
            Some(Value::String(id)) => {
                let position = at(&field("id"));
                if let Some(&first) = first_at.get(id.as_str()) {
                    let kind = JudgmentFaultKind::DuplicateJudgment {
                        id: id.clone(),
                        first,
                    };
                    faults.push(fault(position, kind));
                } else {
                    first_at.insert(id, position);
                }
                if case_ids.is_some_and(|ids| !ids.contains(id.as_str())) {
                    faults.push(fault(
                        position,
                        JudgmentFaultKind::UnknownCase { id: id.clone() },
                    ));
                }
                Some(id.clone())
            }
            Some(_) => {
                faults.push(fault(
                    at(&field("id")),
                    JudgmentFaultKind::MissingId { index },
                ));
                None
            }
            None => {
                faults.push(fault(at(&item), JudgmentFaultKind::MissingId { index }));
                None
            }
        };
        let verdict = match object.get("verdict").and_then(Value::as_str) {
            Some("yes") => Some(AnswerabilityVerdict::Yes),
            Some("partial") => Some(AnswerabilityVerdict::Partial),
            Some("no") => Some(AnswerabilityVerdict::No),
            _ => {
                let position = if object.contains_key("verdict") {
                    at(&field("verdict"))
                } else {
                    at(&item)
                };
                faults.push(fault(position, JudgmentFaultKind::BadVerdict { index }));
                None
            }
        };
        let rendered = match object.get("rendered") {
            Some(Value::String(rendered)) => Some(rendered.clone()),
            Some(_) => {
                let kind = JudgmentFaultKind::MissingRendered { index };
                faults.push(fault(at(&field("rendered")), kind));
                None
            }
            None => {
                faults.push(fault(
                    at(&item),
                    JudgmentFaultKind::MissingRendered { index },
                ));
                None
            }
        };
        if let (Some(id), Some(verdict), Some(rendered), true) =
            (id, verdict, rendered, faults.len() == before)
        {
            by_case.insert(id, RecordedJudgment { verdict, rendered });
        }
    }

    if faults.is_empty() {
        Ok(Judgments {
            provenance,
            by_case,
        })
    } else {
        faults.sort_by_key(|fault| fault.position);
        Err(faults)
    }
}
