//! The `corpus.json` format: one reader for run time and for compile time.
//!
//! `corpus.json` is `{ "provenance": { ... }, "cases": [ { "id", "prompt",
//! "golden"?, "expected"? }, ... ] }`. [`parse_manifest`] turns its text into a
//! [`Manifest`], or into every [`ManifestFault`] it finds, each with the
//! 1-based line and column where it sits. `#[isomer_eval]` reads the file with it while it
//! expands and the harness reads it with it at run time, so both agree on what a
//! well-formed corpus is.
//!
//! Rules, beyond the ones every corpus JSON file has (no byte order mark, JSON syntax, a
//! root object, no repeated key; see [`crate::Fault`]):
//! - the root has exactly the keys `provenance` (an object) and `cases` (an array);
//! - each case is an object whose keys are among `id`, `prompt`, `golden`,
//!   `expected`, `expectedTools`, `expectedToolSet`; `id` and `prompt` are required
//!   strings; `golden`, when present, is an object; `expected`, `expectedTools` and
//!   `expectedToolSet`, when present, are arrays of strings, and a case has at most one
//!   of the last two (tool names an agent run calls in that order, or each in any order);
//! - an `id` is non-empty and made of ASCII letters, digits, `-` and `_`,
//!   because it names the answer files `answers/<id>.<attempt>.txt` and the
//!   test trial `<suite>::<id>`;
//! - no two cases share an `id` (both places are named), nor ids that differ only in
//!   ASCII letter case, which would share answer files on a case-insensitive file system.

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use crate::files::is_case_id;
use crate::position::{Position, Step};
use crate::reader::{Fault, FormatFault, ObjectReader, child, pretty, quote};

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
    /// Tool names an agent run is expected to call: `(names, in_order)`, from
    /// `expectedTools` (in order, `true`) or `expectedToolSet` (any order, `false`).
    pub expected_tools: Option<(Vec<String>, bool)>,
    /// Where the case's object starts.
    pub position: Position,
    /// Where the case's `id` value starts.
    pub id_position: Position,
}

/// One thing wrong with a `corpus.json`, and where.
pub type ManifestFault = Fault<ManifestFaultKind>;

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
    /// Occurs when a case's `expectedTools` or `expectedToolSet` is present but not an
    /// array of strings.
    ExpectedToolsNotStrings {
        /// The case's index in `cases`.
        index: usize,
        /// The key as written.
        key: &'static str,
    },
    /// Occurs when a case has both `expectedTools` and `expectedToolSet`.
    ExpectedToolsTwice {
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
                "case {index} has unknown key {}; a case has `id`, `prompt`, `golden`, `expected`, `expectedTools` and `expectedToolSet`",
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
            Self::ExpectedToolsNotStrings { index, key } => {
                write!(
                    f,
                    "case {index} has an `{key}` that is not an array of tool names"
                )
            }
            Self::ExpectedToolsTwice { index } => write!(
                f,
                "case {index} has both `expectedTools` and `expectedToolSet`; give the tools in order or as a set, not both"
            ),
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

impl FormatFault for ManifestFaultKind {
    fn malformed_json(message: String) -> Self {
        Self::MalformedJson { message }
    }

    fn duplicate_key(key: String, first: Position) -> Self {
        Self::DuplicateKey { key, first }
    }
}

/// The text of `corpus.json` with `provenance.<key>` set to `value` (added at the end of
/// the provenance object, or replaced where it stands), every other key and case kept in
/// its order, written back two-space indented as `serde_json`'s pretty printer writes it,
/// with a final newline. Record mode notes the model and date of fresh recordings with it.
///
/// # Errors
/// The faults of [`parse_manifest`] when `text` is not a well-formed manifest (nothing is
/// rewritten then).
pub fn with_provenance_entry(
    text: &str,
    key: &str,
    value: Value,
) -> Result<String, Vec<ManifestFault>> {
    parse_manifest(text)?;
    let mut root: Value = serde_json::from_str(text).map_err(|error| {
        vec![ManifestFault {
            position: Position {
                line: error.line(),
                column: error.column(),
            },
            kind: ManifestFaultKind::MalformedJson {
                message: error.to_string(),
            },
        }]
    })?;
    if let Some(provenance) = root.get_mut("provenance").and_then(Value::as_object_mut) {
        provenance.insert(key.to_owned(), value);
    }
    Ok(pretty(&root))
}

/// Parses the text of a `corpus.json`.
///
/// Returns the manifest, or every fault found (in file order; never empty).
/// A syntax error stops the reading there, so it comes alone.
pub fn parse_manifest(text: &str) -> Result<Manifest, Vec<ManifestFault>> {
    use ManifestFaultKind as Kind;
    let (mut reader, root) = ObjectReader::open(text, Kind::RootNotObject)?;
    reader.unknown_keys(&root, &[], &["provenance", "cases"], |key| {
        Kind::UnknownRootKey { key }
    });
    let provenance = reader
        .member(
            &root,
            &[],
            "provenance",
            |value| value.as_object().cloned(),
            Some(Kind::MissingProvenance),
            Kind::ProvenanceNotObject,
        )
        .unwrap_or_default();
    let elements: &[Value] = reader
        .member(
            &root,
            &[],
            "cases",
            |value| value.as_array().map(Vec::as_slice),
            Some(Kind::MissingCases),
            Kind::CasesNotArray,
        )
        .unwrap_or_default();

    let cases_path = [Step::Key("cases")];
    let mut cases = Vec::with_capacity(elements.len());
    for (index, object) in
        reader.objects(elements, &cases_path, |index| Kind::CaseNotObject { index })
    {
        let path = [Step::Key("cases"), Step::Index(index)];
        let before = reader.fault_count();
        reader.unknown_keys(
            object,
            &path,
            &[
                "id",
                "prompt",
                "golden",
                "expected",
                "expectedTools",
                "expectedToolSet",
            ],
            |key| Kind::UnknownCaseKey { index, key },
        );
        let id = match object.get("id") {
            Some(Value::String(id)) if !is_case_id(id) => {
                let position = reader.at(&child(&path, "id"));
                let kind = Kind::BadId {
                    index,
                    id: id.clone(),
                };
                reader.fault(position, kind);
                None
            }
            _ => reader.member(
                object,
                &path,
                "id",
                |value| value.as_str().map(str::to_owned),
                Some(Kind::MissingId { index }),
                Kind::MissingId { index },
            ),
        };
        let prompt = reader.member(
            object,
            &path,
            "prompt",
            |value| value.as_str().map(str::to_owned),
            Some(Kind::MissingPrompt { index }),
            Kind::MissingPrompt { index },
        );
        let golden = reader.member(
            object,
            &path,
            "golden",
            |value| value.is_object().then(|| value.clone()),
            None,
            Kind::GoldenNotObject { index },
        );
        let expected = reader.member(
            object,
            &path,
            "expected",
            |value| {
                value
                    .as_array()?
                    .iter()
                    .map(|item| item.as_str().map(str::to_owned))
                    .collect::<Option<Vec<String>>>()
            },
            None,
            Kind::ExpectedNotStrings { index },
        );
        let names = |reader: &mut ObjectReader<Kind>, key: &'static str| {
            reader.member(
                object,
                &path,
                key,
                |value| {
                    value
                        .as_array()?
                        .iter()
                        .map(|item| item.as_str().map(str::to_owned))
                        .collect::<Option<Vec<String>>>()
                },
                None,
                Kind::ExpectedToolsNotStrings { index, key },
            )
        };
        let in_order = names(&mut reader, "expectedTools");
        let any_order = names(&mut reader, "expectedToolSet");
        let expected_tools = match (in_order, any_order) {
            (Some(_), Some(_)) => {
                let position = reader.at(&child(&path, "expectedToolSet"));
                reader.fault(position, Kind::ExpectedToolsTwice { index });
                None
            }
            (Some(names), None) => Some((names, true)),
            (None, Some(names)) => Some((names, false)),
            (None, None) => None,
        };
        if let (Some(id), Some(prompt), true) = (id, prompt, reader.fault_count() == before) {
            cases.push(ManifestCase {
                id,
                prompt,
                golden,
                expected,
                expected_tools,
                position: reader.at(&path),
                id_position: reader.at(&child(&path, "id")),
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
        let position = reader.at(&[Step::Key("cases"), Step::Index(index), Step::Key("id")]);
        if let Some(&first) = seen.get(id.as_str()) {
            reader.fault(
                position,
                Kind::DuplicateId {
                    id: id.clone(),
                    first,
                },
            );
            continue;
        }
        seen.insert(id, position);
        match folded.get(&id.to_ascii_lowercase()) {
            Some(&(other, first)) => {
                let kind = Kind::IdDiffersOnlyInCase {
                    id: id.clone(),
                    other: other.to_owned(),
                    first,
                };
                reader.fault(position, kind);
            }
            None => {
                folded.insert(id.to_ascii_lowercase(), (id, position));
            }
        }
    }
    reader.finish(Manifest { provenance, cases })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_provenance_entry_is_set_in_place_and_the_rest_kept() {
        let text = "{\"provenance\": {\"author\": \"me\", \"recording\": 1, \"z\": 2},\n \"cases\": [{\"id\": \"b\", \"prompt\": \"x\"}, {\"id\": \"a\", \"prompt\": \"y\"}]}";
        let written =
            with_provenance_entry(text, "recording", serde_json::json!({"model": "m"})).unwrap();
        assert_eq!(
            written,
            "{\n  \"provenance\": {\n    \"author\": \"me\",\n    \"recording\": {\n      \"model\": \"m\"\n    },\n    \"z\": 2\n  },\n  \"cases\": [\n    {\n      \"id\": \"b\",\n      \"prompt\": \"x\"\n    },\n    {\n      \"id\": \"a\",\n      \"prompt\": \"y\"\n    }\n  ]\n}\n"
        );
        assert_eq!(
            with_provenance_entry(&written, "recording", serde_json::json!({"model": "m"}))
                .unwrap(),
            written
        );
    }

    #[test]
    fn a_malformed_manifest_gets_no_provenance_entry() {
        let faults =
            with_provenance_entry("{\"cases\": []}", "recording", Value::Null).unwrap_err();
        assert_eq!(
            faults[0].to_string(),
            "1:1: the corpus has no `provenance`; say who wrote the cases, when and how"
        );
    }

    use super::*;

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
    fn expected_tools_are_read_in_order_or_as_a_set_and_never_both() {
        let text = "{\"provenance\": {}, \"cases\": [\n{\"id\": \"a\", \"prompt\": \"x\", \"expectedTools\": [\"isomer_validate\", \"isomer_render\"]},\n{\"id\": \"b\", \"prompt\": \"y\", \"expectedToolSet\": [\"isomer_render\"]},\n{\"id\": \"c\", \"prompt\": \"z\"}]}";
        let manifest = parse_manifest(text).unwrap();
        let tools: Vec<Option<(Vec<String>, bool)>> = manifest
            .cases
            .into_iter()
            .map(|case| case.expected_tools)
            .collect();
        assert_eq!(
            tools,
            [
                Some((vec!["isomer_validate".into(), "isomer_render".into()], true)),
                Some((vec!["isomer_render".into()], false)),
                None,
            ]
        );
        let wrong = "{\"provenance\": {}, \"cases\": [\n{\"id\": \"a\", \"prompt\": \"x\", \"expectedTools\": \"isomer_render\"},\n{\"id\": \"b\", \"prompt\": \"y\", \"expectedTools\": [], \"expectedToolSet\": []}]}";
        let shown: Vec<String> = parse_manifest(wrong)
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            shown,
            [
                "2:45: case 0 has an `expectedTools` that is not an array of tool names",
                "3:68: case 1 has both `expectedTools` and `expectedToolSet`; give the tools in order or as a set, not both",
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
        let inner = "{\"provenance\": {\"note\": \"\u{feff}\"}, \"cases\": []}";
        assert_eq!(parse_manifest(inner).map(|m| m.cases.len()), Ok(0));
    }
}
