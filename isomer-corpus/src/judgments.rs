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
//! Each judgment names a case of `corpus.json` (for repeat `k ≥ 1` of a suite with
//! repeats, the run's [`recording_name`](crate::recording_name) `<id>.r<k>`), the verdict (`yes`,
//! `partial` or `no`, as upstream `AnswerabilityVerdict`), and the text
//! rendering the judge was shown. Replay returns the verdict and compares
//! the rendering with the current one, to list stale judgments.
//!
//! Every fault is reported with its line and column: malformed JSON, a
//! missing or mistyped field, an unknown key, a judgment for a case the
//! corpus does not have, two judgments for one case.
//!
//! [`Judgments::to_text`] writes the same format back (what record mode
//! writes), so the one reader and the one writer live side by side.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::position::{Position, Step};
use crate::reader::{Fault, FormatFault, ObjectReader, child, pretty, quote};

/// The answerability verdict (upstream `AnswerabilityVerdict`): `"yes"`,
/// `"partial"` or `"no"` on the wire and in `judgments.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnswerabilityVerdict {
    /// The rendered answer answers the question.
    Yes,
    /// It answers part of it.
    Partial,
    /// It does not answer it.
    No,
}

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
    /// The recorded judgments by case id (by recording name for a later repeat, see
    /// [`recording_name`](crate::recording_name)).
    pub by_case: BTreeMap<String, RecordedJudgment>,
}

impl Judgments {
    /// The `judgments.json` text of these judgments: the layout above, two-space
    /// indented as `serde_json`'s pretty printer writes it, `provenance` first, the
    /// judgments ordered by case id (byte order) with the keys `id`, `verdict`,
    /// `rendered`, and a final newline. [`parse_judgments`] reads it back equal.
    pub fn to_text(&self) -> String {
        let judgments: Vec<Value> = self
            .by_case
            .iter()
            .map(|(id, judgment)| {
                let mut entry = Map::new();
                entry.insert("id".to_owned(), Value::String(id.clone()));
                entry.insert(
                    "verdict".to_owned(),
                    serde_json::to_value(judgment.verdict).unwrap_or(Value::Null),
                );
                entry.insert(
                    "rendered".to_owned(),
                    Value::String(judgment.rendered.clone()),
                );
                Value::Object(entry)
            })
            .collect();
        let mut root = Map::new();
        root.insert(
            "provenance".to_owned(),
            Value::Object(self.provenance.clone()),
        );
        root.insert("judgments".to_owned(), Value::Array(judgments));
        pretty(&Value::Object(root))
    }
}

/// One thing wrong with a `judgments.json`, and where.
pub type JudgmentFault = Fault<JudgmentFaultKind>;

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

impl FormatFault for JudgmentFaultKind {
    fn malformed_json(message: String) -> Self {
        Self::MalformedJson { message }
    }

    fn duplicate_key(key: String, first: Position) -> Self {
        Self::DuplicateKey { key, first }
    }
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
    use JudgmentFaultKind as Kind;
    let (mut reader, root) = ObjectReader::open(text, Kind::RootNotObject)?;
    reader.unknown_keys(&root, &[], &["provenance", "judgments"], |key| {
        Kind::UnknownRootKey { key }
    });
    let provenance = reader
        .member(
            &root,
            &[],
            "provenance",
            |value| value.as_object().cloned(),
            Some(Kind::MissingProvenance),
            Kind::MissingProvenance,
        )
        .unwrap_or_default();
    let elements: &[Value] = reader
        .member(
            &root,
            &[],
            "judgments",
            |value| value.as_array().map(Vec::as_slice),
            Some(Kind::MissingJudgments),
            Kind::MissingJudgments,
        )
        .unwrap_or_default();

    let mut by_case = BTreeMap::new();
    let mut first_at: HashMap<&str, Position> = HashMap::new();
    let judgments_path = [Step::Key("judgments")];
    for (index, object) in reader.objects(elements, &judgments_path, |index| {
        Kind::JudgmentNotObject { index }
    }) {
        let path = [Step::Key("judgments"), Step::Index(index)];
        let before = reader.fault_count();
        reader.unknown_keys(object, &path, &["id", "verdict", "rendered"], |key| {
            Kind::UnknownKey { index, key }
        });
        let id = reader.member(
            object,
            &path,
            "id",
            Value::as_str,
            Some(Kind::MissingId { index }),
            Kind::MissingId { index },
        );
        if let Some(id) = id {
            let position = reader.at(&child(&path, "id"));
            match first_at.get(id) {
                Some(&first) => {
                    let kind = Kind::DuplicateJudgment {
                        id: id.to_owned(),
                        first,
                    };
                    reader.fault(position, kind);
                }
                None => {
                    first_at.insert(id, position);
                }
            }
            // A later repeat's verdict is filed under `<id>.r<k>`: its case is `<id>`.
            let case_id = crate::parse_recording_name(id).map_or(id, |(case_id, _)| case_id);
            if case_ids.is_some_and(|ids| !ids.contains(case_id)) {
                reader.fault(position, Kind::UnknownCase { id: id.to_owned() });
            }
        }
        let verdict = reader.member(
            object,
            &path,
            "verdict",
            |value| match value.as_str()? {
                "yes" => Some(AnswerabilityVerdict::Yes),
                "partial" => Some(AnswerabilityVerdict::Partial),
                "no" => Some(AnswerabilityVerdict::No),
                _ => None,
            },
            Some(Kind::BadVerdict { index }),
            Kind::BadVerdict { index },
        );
        let rendered = reader.member(
            object,
            &path,
            "rendered",
            |value| value.as_str().map(str::to_owned),
            Some(Kind::MissingRendered { index }),
            Kind::MissingRendered { index },
        );
        if let (Some(id), Some(verdict), Some(rendered), true) =
            (id, verdict, rendered, reader.fault_count() == before)
        {
            by_case.insert(id.to_owned(), RecordedJudgment { verdict, rendered });
        }
    }
    reader.finish(Judgments {
        provenance,
        by_case,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRITTEN: &str = "{
  \"provenance\": {
    \"author\": \"a judge\",
    \"date\": \"2026-12-01\"
  },
  \"judgments\": [
    {
      \"id\": \"a-case\",
      \"verdict\": \"partial\",
      \"rendered\": \"OPEN\\n12 → 13\"
    },
    {
      \"id\": \"b-case\",
      \"verdict\": \"yes\",
      \"rendered\": \"\"
    }
  ]
}
";

    #[test]
    fn the_writer_writes_what_the_reader_reads_back_equal() {
        let judgments = parse_judgments(WRITTEN, None).unwrap();
        assert_eq!(judgments.by_case["a-case"].rendered, "OPEN\n12 → 13");
        assert_eq!(judgments.to_text(), WRITTEN);
    }

    #[test]
    fn written_judgments_are_ordered_by_case_id() {
        let mut judgments = Judgments::default();
        for (id, verdict) in [
            ("b-case", AnswerabilityVerdict::Yes),
            ("a-case", AnswerabilityVerdict::Partial),
        ] {
            judgments.by_case.insert(
                id.to_owned(),
                RecordedJudgment {
                    verdict,
                    rendered: if id == "a-case" {
                        "OPEN\n12 → 13"
                    } else {
                        ""
                    }
                    .to_owned(),
                },
            );
        }
        judgments
            .provenance
            .insert("author".to_owned(), "a judge".into());
        judgments
            .provenance
            .insert("date".to_owned(), "2026-12-01".into());
        assert_eq!(judgments.to_text(), WRITTEN);
    }
}
