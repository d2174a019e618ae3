//! Recorded corpora: a directory of cases and the model output recorded for
//! them, loaded with every fault reported.
//!
//! A corpus directory (`corpus/<pack>/` in this repository) holds:
//!
//! | file | required | what |
//! |---|---|---|
//! | `corpus.json` | yes | `{ "provenance": {...}, "cases": [ { "id", "prompt", "golden"?, "expected"? } ] }` ([`isomer_corpus::manifest`]) |
//! | `prompt.txt` | no | the shared authoring prompt the answers were written from |
//! | `answers/<id>.<attempt>.txt` | no | the raw model text of each attempt, `0` first, `1` the retry ([`isomer_corpus::files`]) |
//! | `judgments.json` | no | per case the verdict and the text rendering it was given for ([`isomer_corpus::judgments`]) |
//!
//! [`Corpus::load`] reads `corpus.json`, `prompt.txt`, `judgments.json` and
//! the *names* in `answers/`; answer texts are read on demand by the one recordings
//! store, [`crate::recordings::Recordings`], so running one case of a large corpus reads
//! one case's answers.
//!
//! Nothing is skipped silently: malformed JSON, a case without `id` or
//! `prompt`, a duplicate id, an unknown key, an answer file for an unknown
//! case or with a name no replay reads, a file that is not UTF-8 or cannot be
//! read: each is a fault naming the file and, inside a file, the line and
//! column. A load reports all of them at once ([`CorpusErrors`]).
//! The one exception is a hidden entry of `answers/` (a name starting with
//! `.`, such as `.DS_Store` or `.gitkeep`), which no case id can name and which
//! is not read.
//!
//! The loader reads files and never writes one.

mod error;

use std::collections::{BTreeMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

pub use error::CorpusErrors;
pub(crate) use error::NOT_UTF8;
pub(crate) use error::{CorpusError, CorpusErrorKind};
use isomer_corpus::{
    ANSWERS_DIR, JUDGMENTS_FILE, Judgments, MANIFEST_FILE, ManifestCase, PROMPT_FILE,
    answer_file_name, decode_utf8, parse_judgments, parse_manifest,
};

use crate::case::{EvalCase, ExpectedTools};

/// A loaded corpus directory: its cases, its recorded prompt and judgments,
/// and an index of its answer files (their texts are read on demand).
#[derive(Debug, Clone)]
pub struct Corpus {
    dir: PathBuf,
    /// The `provenance` object of `corpus.json`.
    pub provenance: Map<String, Value>,
    /// The cases, in file order, with where each sits in `corpus.json`.
    pub cases: Vec<ManifestCase>,
    /// The text of `prompt.txt`; `None` when the file does not exist (a
    /// corpus whose answers are not recorded yet).
    pub prompt: Option<String>,
    /// The recorded judgments; `None` when `judgments.json` does not exist.
    pub judgments: Option<Judgments>,
    answer_files: BTreeMap<(String, u32), PathBuf>,
}

impl Corpus {
    /// Loads the corpus directory `dir`.
    ///
    /// Reads `corpus.json` (required), `prompt.txt` and `judgments.json`
    /// (each when present) and lists `answers/` (when present) without
    /// reading the answers. Returns every fault found; see the module docs.
    pub fn load(dir: impl AsRef<Path>) -> Result<Self, CorpusErrors> {
        let dir = dir.as_ref();
        if !dir.is_dir() {
            return Err(CorpusError::new(dir, CorpusErrorKind::NotADirectory).into());
        }
        let mut errors = Vec::new();

        let manifest_path = dir.join(MANIFEST_FILE);
        // The case ids answer files and judgments are checked against: every
        // string `id` in `cases`, even when some case has another fault, so
        // one load also names orphaned recordings. Unknown only when the
        // manifest is not JSON at all.
        let mut known_ids: Option<HashSet<String>> = None;
        let manifest = match read_text(&manifest_path) {
            Ok(Some(text)) => match parse_manifest(&text) {
                Ok(manifest) => Some(manifest),
                Err(faults) => {
                    known_ids = string_ids(&text);
                    errors.extend(faults.into_iter().map(|fault| {
                        CorpusError::new(&manifest_path, CorpusErrorKind::Manifest(fault))
                    }));
                    None
                }
            },
            Ok(None) => {
                errors.push(CorpusError::new(
                    &manifest_path,
                    CorpusErrorKind::MissingManifest,
                ));
                None
            }
            Err(error) => {
                errors.push(error);
                None
            }
        };
        if let Some(manifest) = &manifest {
            known_ids = Some(manifest.cases.iter().map(|case| case.id.clone()).collect());
        }
        let ids: Option<HashSet<&str>> = known_ids
            .as_ref()
            .map(|ids| ids.iter().map(String::as_str).collect());

        let prompt = match read_text(&dir.join(PROMPT_FILE)) {
            Ok(prompt) => prompt,
            Err(error) => {
                errors.push(error);
                None
            }
        };

        let answer_files = list_answers(&dir.join(ANSWERS_DIR), ids.as_ref(), &mut errors);

        let judgments_path = dir.join(JUDGMENTS_FILE);
        let judgments = match read_text(&judgments_path) {
            Ok(Some(text)) => match parse_judgments(&text, ids.as_ref()) {
                Ok(judgments) => Some(judgments),
                Err(faults) => {
                    errors.extend(faults.into_iter().map(|fault| {
                        CorpusError::new(&judgments_path, CorpusErrorKind::Judgments(fault))
                    }));
                    None
                }
            },
            Ok(None) => None,
            Err(error) => {
                errors.push(error);
                None
            }
        };

        if let Some(errors) = CorpusErrors::from_vec(errors) {
            return Err(errors);
        }
        let manifest = manifest.expect("a load without faults has a manifest");
        Ok(Corpus {
            dir: dir.to_path_buf(),
            provenance: manifest.provenance,
            cases: manifest.cases,
            prompt,
            judgments,
            answer_files,
        })
    }

    /// The directory the corpus was loaded from, as the caller gave it.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of `corpus.json`.
    pub fn manifest_path(&self) -> PathBuf {
        self.dir.join(MANIFEST_FILE)
    }

    /// The path of `prompt.txt` (which may not exist yet).
    pub fn prompt_path(&self) -> PathBuf {
        self.dir.join(PROMPT_FILE)
    }

    /// The path where the answer to `attempt` of case `id` is, or would be,
    /// recorded: `answers/<id>.<attempt>.txt`.
    pub fn answer_path(&self, id: &str, attempt: u32) -> PathBuf {
        self.dir
            .join(ANSWERS_DIR)
            .join(answer_file_name(id, attempt))
    }

    /// True when an answer to `attempt` of case `id` is recorded.
    pub fn has_answer(&self, id: &str, attempt: u32) -> bool {
        self.answer_files.contains_key(&(id.to_owned(), attempt))
    }

    /// The case with id `id`.
    pub fn case(&self, id: &str) -> Option<&ManifestCase> {
        self.cases.iter().find(|case| case.id == id)
    }

    /// The cases as `run_evals` takes them, in file order.
    pub fn eval_cases(&self) -> Vec<EvalCase> {
        self.cases
            .iter()
            .map(|case| EvalCase {
                id: case.id.clone(),
                prompt: case.prompt.clone(),
                golden: case.golden.clone(),
                expected: case.expected.clone(),
                expected_tools: ExpectedTools::from_manifest(case.expected_tools.clone()),
            })
            .collect()
    }
}

/// Checks a recordings directory against the case ids `ids` without reading an answer:
/// lists `answers/` (every entry must be named `<case id>.<attempt>.txt` with attempt `0`
/// or `1`, be a file, and name a case in `ids`) and parses `judgments.json` when present
/// (every judgment must name a case in `ids`, once, with a valid verdict and rendering).
///
/// This is the part of [`Corpus::load`] that finds recordings no replay would ever read,
/// for a caller that has its cases from elsewhere (the eval harness compiles `corpus.json`
/// in and may replay from another directory). A missing `answers/` or `judgments.json` is
/// no fault. Errors: every fault found, in the order of [`CorpusErrors`].
pub(crate) fn check_recordings(dir: &Path, ids: &HashSet<&str>) -> Result<(), CorpusErrors> {
    let mut errors = Vec::new();
    list_answers(&dir.join(ANSWERS_DIR), Some(ids), &mut errors);
    let judgments_path = dir.join(JUDGMENTS_FILE);
    match read_text(&judgments_path) {
        Ok(Some(text)) => {
            if let Err(faults) = parse_judgments(&text, Some(ids)) {
                errors.extend(faults.into_iter().map(|fault| {
                    CorpusError::new(&judgments_path, CorpusErrorKind::Judgments(fault))
                }));
            }
        }
        Ok(None) => {}
        Err(error) => errors.push(error),
    }
    match CorpusErrors::from_vec(errors) {
        Some(errors) => Err(errors),
        None => Ok(()),
    }
}

/// Every string `cases[*].id` of a manifest text that is JSON but breaks
/// another rule; `None` when it is not JSON or has no `cases` array.
fn string_ids(text: &str) -> Option<HashSet<String>> {
    let root: Value = serde_json::from_str(text).ok()?;
    let cases = root.get("cases")?.as_array()?;
    Some(
        cases
            .iter()
            .filter_map(|case| case.get("id")?.as_str().map(str::to_owned))
            .collect(),
    )
}

/// Reads a UTF-8 text file; `Ok(None)` when it does not exist.
fn read_text(path: &Path) -> Result<Option<String>, CorpusError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(CorpusError::new(
                path,
                CorpusErrorKind::Unreadable { source },
            ));
        }
    };
    decode_utf8(bytes)
        .map(Some)
        .map_err(|position| CorpusError::new(path, CorpusErrorKind::NotUtf8 { position }))
}

/// Lists `answers/`, checking each name; reads no file.
fn list_answers(
    dir: &Path,
    ids: Option<&HashSet<&str>>,
    errors: &mut Vec<CorpusError>,
) -> BTreeMap<(String, u32), PathBuf> {
    let mut found = BTreeMap::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return found,
        Err(source) => {
            errors.push(CorpusError::new(
                dir,
                CorpusErrorKind::Unreadable { source },
            ));
            return found;
        }
    };
    let mut listed = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => listed.push(entry),
            Err(source) => {
                errors.push(CorpusError::new(
                    dir,
                    CorpusErrorKind::Unreadable { source },
                ));
            }
        }
    }
    listed.sort_by_key(|entry| entry.file_name());
    for entry in listed {
        let path = entry.path();
        let name = entry.file_name();
        // Hidden entries (`.DS_Store` from macOS Finder, `.gitkeep`, an editor's swap file)
        // are no recording: a case id cannot start with `.`, so none could be one.
        if name.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let Some((id, attempt)) = name
            .to_str()
            .and_then(isomer_corpus::parse_answer_file_name)
        else {
            errors.push(CorpusError::new(path, CorpusErrorKind::BadAnswerName));
            continue;
        };
        // A symlink to a file is a file; `metadata` follows links.
        if !std::fs::metadata(&path).is_ok_and(|meta| meta.is_file()) {
            errors.push(CorpusError::new(path, CorpusErrorKind::AnswerNotAFile));
            continue;
        }
        // `id` is a recording name: a later repeat's (`<id>.r<k>`) belongs to case `<id>`.
        let case_id = isomer_corpus::parse_recording_name(id).map_or(id, |(case_id, _)| case_id);
        if ids.is_some_and(|ids| !ids.contains(case_id)) {
            let kind = CorpusErrorKind::AnswerForUnknownCase {
                id: case_id.to_owned(),
            };
            errors.push(CorpusError::new(path, kind));
            continue;
        }
        found.insert((id.to_owned(), attempt), path);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, relative: &str, contents: impl AsRef<[u8]>) {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }

    #[test]
    fn unreadable_and_non_utf8_files_are_faults_of_their_kind() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        std::fs::create_dir_all(dir.join("corpus.json")).unwrap();
        write(dir, "prompt.txt", b"line one\nbad \xff byte");
        let errors = Corpus::load(dir).unwrap_err();
        let errors = errors.errors();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].path, dir.join("corpus.json"));
        assert!(matches!(errors[0].kind, CorpusErrorKind::Unreadable { .. }));
        assert_eq!(errors[1].path, dir.join("prompt.txt"));
        assert!(matches!(
            errors[1].kind,
            CorpusErrorKind::NotUtf8 {
                position: isomer_corpus::Position { line: 2, column: 5 }
            }
        ));
    }

    #[test]
    fn check_recordings_names_what_no_replay_of_the_cases_reads() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        write(dir, "answers/alpha.0.txt", "{}");
        write(dir, "answers/ghost.0.txt", "{}");
        write(dir, "answers/alpha.2.txt", "{}");
        write(dir, "answers/notes.md", "x");
        // Hidden entries are no recording, and no fault.
        write(dir, "answers/.DS_Store", [0u8, 1, 2]);
        write(dir, "answers/.gitkeep", "");
        write(
            dir,
            "judgments.json",
            r#"{"provenance": {}, "judgments": [{"id": "alpha", "verdict": "yes", "rendered": "a"}, {"id": "ghost", "verdict": "no", "rendered": "g"}]}"#,
        );
        let ids = ["alpha", "beta"].into_iter().collect();
        let errors = check_recordings(dir, &ids)
            .expect_err("orphans are faults")
            .to_string()
            .replace(&dir.display().to_string(), "<dir>");
        assert_eq!(
            errors,
            "<dir>/answers/alpha.2.txt: is not named `<case id>.<attempt>.txt` with attempt 0 or 1, so no replay reads it\n\
             <dir>/answers/ghost.0.txt: records an answer for case \"ghost\", which corpus.json does not have\n\
             <dir>/answers/notes.md: is not named `<case id>.<attempt>.txt` with attempt 0 or 1, so no replay reads it\n\
             <dir>/judgments.json:1:93: judgment for case \"ghost\", which corpus.json does not have"
        );
        // Nothing recorded yet is no fault, and neither is a case without answers.
        let empty = tempfile::tempdir().unwrap();
        assert!(check_recordings(empty.path(), &ids).is_ok());
    }
}
