//! The one store of a corpus directory's recorded model output, and the replay callbacks
//! that answer from it, so a run is deterministic in CI.
//!
//! [`Recordings`] reads lazily: `answers/<id>.<attempt>.txt` only when a run asks for that
//! attempt (a trial for one case opens that case's files and no other, which is what
//! `--exact` under cargo-nextest needs), and `judgments.json` once, the first time a judge
//! is asked. [`Recordings::generate`] and [`Recordings::judge`] are views of the store
//! that `run_evals` takes as its callbacks. Both the eval gate and the `isomer-report`
//! command replay through it, so both score a corpus alike.
//!
//! Every method that takes a `case_id` takes a recording name there: the case id for a
//! case's only (or first) run, `<id>.r<k>` for repeat `k` of a suite with repeats (see
//! [`isomer_corpus::files`]), so a later repeat's missing answer is listed as
//! `answers/<id>.r<k>.<attempt>.txt`.
//!
//! While a run goes the store notes, without stopping the run:
//!
//! - **missing recordings**: an attempt asked for that has no answer file. The replay
//!   hands back an empty answer, which fails to parse, so the case scores as a model that
//!   said nothing (as upstream's corpus test does).
//! - **stale judgments**: a case whose current text rendering differs from the one its
//!   verdict was given for (the recorded verdict is still returned), and a case the run
//!   asks to judge that has no recorded verdict.
//! - **faults**: a recorded file that exists but cannot be read or is not UTF-8 (named
//!   with the line and column of the first invalid byte), `judgments.json` breaking its
//!   format, and an answer that opens a code fence it never closes (named with where the
//!   fence opens and where the text was cut off).
//!
//! # A missing judgment
//!
//! A case without a recorded verdict gets none: the replayed judge fails for that case, so
//! the case counts as errored at the judge stage with the message
//! ``judgments.json has no verdict for `<id>`: judge its text rendering and record the
//! verdict``, its answerability is absent from the totals, and the case is listed with
//! the stale judgments ([`Recordings::findings`]). A replay never invents a verdict
//! (neither `no` nor `partial`), so the report says what is recorded and nothing else.
//!
//! An answer file that cannot be read fails that `generate` call in the same way (the
//! case is errored with the file and position), and the run goes on with the other cases,
//! so one run reports every fault of a corpus.
//!
//! Every list is sorted, so none depends on the order in which concurrent cases finished.
//! `Recordings` is `Send + Sync`: `run_evals` runs cases concurrently through `&self`.
//!
//! # Writing
//!
//! The harness's record mode writes through the same store, in the format it reads:
//! [`Recordings::write_answer`], [`Recordings::write_verdict`] (through
//! [`Judgments::to_text`]), [`Recordings::write_prompt`] and
//! [`Recordings::write_provenance`]. Nothing else in the library writes a file.

use std::collections::{BTreeSet, HashSet};
use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use isomer_corpus::{
    ANSWERS_DIR, JUDGMENTS_FILE, Judgments, MANIFEST_FILE, PROMPT_FILE, Position, RecordedJudgment,
    answer_file_name, decode_utf8, parse_judgments, recording_name, with_provenance_entry,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::case::{AnswerabilityVerdict, Generate, Judge, Prompt};
use crate::corpus::NOT_UTF8;
use crate::parse::unclosed_fence;
use crate::runtime::BoxError;

/// An attempt a run asked for that has no recorded answer
/// (`answers/<case id>.<attempt>.txt` does not exist).
///
/// Serialized as `{ "caseId": "...", "attempt": 0 }`; ordered by case id, then attempt.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MissingRecording {
    /// The case's id.
    pub(crate) case_id: String,
    /// The attempt: `0` first, `1` the retry.
    pub(crate) attempt: u32,
}

impl fmt::Display for MissingRecording {
    /// Prints the answer file that is missing: `answers/<id>.<attempt>.txt`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{ANSWERS_DIR}/{}",
            answer_file_name(&self.case_id, self.attempt)
        )
    }
}

/// Why a case's recorded judgment cannot stand for its current answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum StaleReason {
    /// `judgments.json` has no verdict for the case.
    Unjudged,
    /// The verdict was given for another text rendering than the current one.
    OtherRendering,
}

/// A case listed as a stale judgment, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct StaleJudgment {
    /// The case's id.
    pub(crate) case_id: String,
    /// Why it is listed.
    pub(crate) reason: StaleReason,
}

/// A recorded file that could not be used, and why.
///
/// `Display` prints `<path>:<line>:<column>: <message>` when the fault has a position,
/// else `<path>: <message>`, the way compilers print diagnostics. Ordered by path, then
/// position.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RecordingFault {
    /// The file, as the store's directory joined with its name.
    pub path: PathBuf,
    /// Where in the file the fault sits (1-based line, 1-based byte column), when known.
    pub position: Option<Position>,
    /// What is wrong, lowercase, without a trailing period.
    pub message: String,
}

impl fmt::Display for RecordingFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(position) => write!(f, "{}:{position}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for RecordingFault {}

/// What a replay noted, for a report: [`Recordings::findings`].
///
/// `Display` prints one line per kind that is not empty (a fault per indented line), in
/// this order, the lines the eval gate's `totals` trial and `isomer-report` both print:
///
/// ```text
/// missing recordings (strict replay answers them with empty text): answers/a.1.txt
/// cases without a verdict in judgments.json: b
/// verdicts given for another text rendering (re-judge them): c
/// recordings that cannot be used:
///   answers/d.0.txt:1:4: is not UTF-8 text (first invalid byte here)
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplayFindings {
    /// Attempts asked for without a file, sorted.
    pub(crate) missing_recordings: Vec<MissingRecording>,
    /// Cases whose judgment is absent or was given for another rendering, sorted.
    pub(crate) stale_judgments: Vec<StaleJudgment>,
    /// Files that could not be used, sorted.
    pub(crate) faults: Vec<RecordingFault>,
}

impl ReplayFindings {
    /// True when nothing was noted: the recordings match what the run asked for.
    pub fn is_empty(&self) -> bool {
        self.missing_recordings.is_empty()
            && self.stale_judgments.is_empty()
            && self.faults.is_empty()
    }
}

impl fmt::Display for ReplayFindings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.missing_recordings.is_empty() {
            let files: Vec<String> = self
                .missing_recordings
                .iter()
                .map(ToString::to_string)
                .collect();
            writeln!(
                f,
                "missing recordings (strict replay answers them with empty text): {}",
                files.join(", ")
            )?;
        }
        for (reason, what) in [
            (
                StaleReason::Unjudged,
                "cases without a verdict in judgments.json",
            ),
            (
                StaleReason::OtherRendering,
                "verdicts given for another text rendering (re-judge them)",
            ),
        ] {
            let ids: Vec<&str> = self
                .stale_judgments
                .iter()
                .filter(|stale| stale.reason == reason)
                .map(|stale| stale.case_id.as_str())
                .collect();
            if !ids.is_empty() {
                writeln!(f, "{what}: {}", ids.join(", "))?;
            }
        }
        if !self.faults.is_empty() {
            writeln!(f, "recordings that cannot be used:")?;
            for fault in &self.faults {
                writeln!(f, "  {fault}")?;
            }
        }
        Ok(())
    }
}

#[derive(Debug, Default)]
struct Notes {
    missing: BTreeSet<MissingRecording>,
    stale: BTreeSet<StaleJudgment>,
    faults: BTreeSet<RecordingFault>,
}

/// The recordings of one corpus directory, read on demand, with what the replay found
/// missing, stale or unusable. See the module docs.
#[derive(Debug)]
pub struct Recordings {
    dir: PathBuf,
    judgments: OnceLock<Result<Option<Judgments>, ()>>,
    notes: Mutex<Notes>,
    prompt: OnceLock<Prompt>,
}

/// Locks the notes, recovering them if a panicking call poisoned the lock (each update is
/// one insert, so they stay consistent).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Recordings {
    /// The recordings under `dir`, the directory holding `answers/` and `judgments.json`.
    /// Reads nothing yet.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Recordings {
            dir: dir.into(),
            judgments: OnceLock::new(),
            notes: Mutex::new(Notes::default()),
            prompt: OnceLock::new(),
        }
    }

    /// The directory, as given.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether `judgments.json` exists. Without it there is nothing to judge with, and a
    /// run skips the answerability axis (pass no judge).
    pub fn has_judgments(&self) -> bool {
        self.dir.join(JUDGMENTS_FILE).is_file()
    }

    /// The recorded text of `attempt` of case `case_id`; an empty text, noted as missing,
    /// when the file does not exist.
    ///
    /// A text that opens a code fence and never closes it is returned as it is and noted
    /// as a fault naming where the fence opens and where the text ends.
    ///
    /// # Errors
    /// A file that exists but cannot be read, or is not UTF-8; the fault is also noted.
    pub fn answer(&self, case_id: &str, attempt: u32) -> Result<String, RecordingFault> {
        let path = self
            .dir
            .join(ANSWERS_DIR)
            .join(answer_file_name(case_id, attempt));
        match read_text(&path) {
            Ok(Some(text)) => {
                if let Some((opened, end)) = unclosed_fence(&text) {
                    self.note_fault(RecordingFault {
                        path,
                        position: Some(opened),
                        message: format!(
                            "the code fence opened here is never closed: the answer is cut off at {end}"
                        ),
                    });
                }
                Ok(text)
            }
            Ok(None) => {
                lock(&self.notes).missing.insert(MissingRecording {
                    case_id: case_id.to_owned(),
                    attempt,
                });
                Ok(String::new())
            }
            Err(fault) => {
                self.note_fault(fault.clone());
                Err(fault)
            }
        }
    }

    /// Whether `answers/<case_id>.<attempt>.txt` exists (record mode calls the model only
    /// for attempts without one). Notes nothing.
    pub fn has_answer(&self, case_id: &str, attempt: u32) -> bool {
        self.dir
            .join(ANSWERS_DIR)
            .join(answer_file_name(case_id, attempt))
            .is_file()
    }

    /// The recorded judgment of `case_id` (verdict and the rendering it was given for),
    /// when `judgments.json` holds one; notes nothing but the faults of a malformed file.
    pub fn judgment(&self, case_id: &str) -> Option<RecordedJudgment> {
        let path = self.dir.join(JUDGMENTS_FILE);
        let judgments = self.judgments.get_or_init(|| self.read_judgments(&path));
        match judgments {
            Ok(Some(judgments)) => judgments.by_case.get(case_id).cloned(),
            _ => None,
        }
    }

    /// The recorded verdict for case `case_id`, whose validated answer renders as
    /// `rendered`. A verdict given for another rendering is still returned, and the case
    /// is noted as stale.
    ///
    /// # Errors
    /// No verdict for the case (noted as a stale judgment; see the module docs),
    /// or `judgments.json` missing, unreadable or malformed (its faults are noted once,
    /// with their line and column).
    pub fn verdict(&self, case_id: &str, rendered: &str) -> Result<AnswerabilityVerdict, String> {
        let path = self.dir.join(JUDGMENTS_FILE);
        let judgments = self.judgments.get_or_init(|| self.read_judgments(&path));
        let judgments = match judgments {
            Ok(Some(judgments)) => judgments,
            Ok(None) => return Err(format!("{} does not exist", path.display())),
            Err(()) => {
                return Err(format!(
                    "{} cannot be used (its faults are listed with the recordings)",
                    path.display()
                ));
            }
        };
        match judgments.by_case.get(case_id) {
            Some(recorded) => {
                if recorded.rendered != rendered {
                    self.note_stale(case_id, StaleReason::OtherRendering);
                }
                Ok(recorded.verdict)
            }
            None => {
                self.note_stale(case_id, StaleReason::Unjudged);
                Err(format!(
                    "{JUDGMENTS_FILE} has no verdict for `{case_id}`: judge its text rendering and record the verdict"
                ))
            }
        }
    }

    fn read_judgments(&self, path: &Path) -> Result<Option<Judgments>, ()> {
        let text = match read_text(path) {
            Ok(Some(text)) => text,
            Ok(None) => return Ok(None),
            Err(fault) => {
                self.note_fault(fault);
                return Err(());
            }
        };
        parse_judgments(&text, None::<&HashSet<&str>>)
            .map(Some)
            .map_err(|faults| {
                for fault in faults {
                    self.note_fault(RecordingFault {
                        path: path.to_owned(),
                        position: Some(fault.position),
                        message: fault.kind.to_string(),
                    });
                }
            })
    }

    fn note_stale(&self, case_id: &str, reason: StaleReason) {
        lock(&self.notes).stale.insert(StaleJudgment {
            case_id: case_id.to_owned(),
            reason,
        });
    }

    fn note_fault(&self, fault: RecordingFault) {
        lock(&self.notes).faults.insert(fault);
    }

    /// A `generate` that replays `answers/<id>.<attempt>.txt` through [`Recordings::answer`]
    /// (for repeat `k ≥ 1`, `answers/<id>.r<k>.<attempt>.txt`: the run's
    /// [`recording_name`]), and keeps the shared prompt of the first request for
    /// [`Recordings::prompt`].
    pub fn generate(&self) -> Generate<'_> {
        Generate::new(move |request| {
            let _ = self.prompt.set(request.prompt.clone());
            let recording = recording_name(&request.eval_case.id, request.repeat);
            let answer = self.answer(&recording, request.attempt);
            async move { answer.map_err(|fault| BoxError::from(fault.to_string())) }
        })
    }

    /// A `judge` that replays `judgments.json` through [`Recordings::verdict`], under the
    /// run's [`recording_name`] (the case id for repeat `0`).
    pub fn judge(&self) -> Judge<'_> {
        Judge::new(move |request| {
            let recording = recording_name(&request.eval_case.id, request.repeat);
            let verdict = self.verdict(&recording, &request.rendered);
            async move { verdict.map_err(BoxError::from) }
        })
    }

    /// The attempts asked for so far that have no file, sorted by case id, then attempt.
    pub(crate) fn missing_recordings(&self) -> Vec<MissingRecording> {
        lock(&self.notes).missing.iter().cloned().collect()
    }

    /// The cases judged so far whose verdict is absent or was given for another
    /// rendering, sorted by id (byte order), then reason.
    pub(crate) fn stale_judgments(&self) -> Vec<StaleJudgment> {
        lock(&self.notes).stale.iter().cloned().collect()
    }

    /// The files found unusable so far, sorted by path, then position.
    pub(crate) fn faults(&self) -> Vec<RecordingFault> {
        lock(&self.notes).faults.iter().cloned().collect()
    }

    /// Everything noted so far, for a report.
    pub fn findings(&self) -> ReplayFindings {
        ReplayFindings {
            missing_recordings: self.missing_recordings(),
            stale_judgments: self.stale_judgments(),
            faults: self.faults(),
        }
    }

    /// The shared authoring prompt of the first `generate` request: the exact text the
    /// run built (built when first read), which `prompt.txt` must equal. `None` before
    /// any request.
    pub fn prompt(&self) -> Option<Prompt> {
        self.prompt.get().cloned()
    }

    /// Writes `text` as `answers/<case_id>.<attempt>.txt`, exactly as given (creating
    /// `answers/` when needed), for [`Recordings::answer`] to read back.
    ///
    /// # Errors
    /// The directory or the file cannot be written; the message names the path.
    pub fn write_answer(&self, case_id: &str, attempt: u32, text: &str) -> Result<(), String> {
        let dir = self.dir.join(ANSWERS_DIR);
        std::fs::create_dir_all(&dir)
            .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
        write_file(&dir.join(answer_file_name(case_id, attempt)), text)
    }

    /// Removes `answers/<case_id>.<attempt>.txt` when it exists. Record mode calls it only
    /// after the attempts recorded afresh are in place: a retry recorded for an older first
    /// attempt must not outlive it, and nothing is removed before its replacement exists.
    ///
    /// # Errors
    /// The file exists and cannot be removed.
    pub fn remove_answer(&self, case_id: &str, attempt: u32) -> Result<(), String> {
        let path = self
            .dir
            .join(ANSWERS_DIR)
            .join(answer_file_name(case_id, attempt));
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(error) if error.kind() == ErrorKind::NotFound => Ok(()),
            Err(error) => Err(format!("cannot remove {}: {error}", path.display())),
        }
    }

    /// Records `verdict` for `case_id`, given for the text rendering `rendered`, in
    /// `judgments.json` (created when missing, with an empty provenance), replacing the
    /// case's earlier verdict. With `provenance`, `provenance.<key>` is set to the value.
    ///
    /// The file is read, changed and written back under one lock held by every store of
    /// the process, so concurrent trials of one test binary lose no verdict. (Processes
    /// writing one directory at once, as cargo-nextest would, are not serialized.) This
    /// store's own cached judgments are not refreshed.
    ///
    /// # Errors
    /// `judgments.json` exists and cannot be read or breaks its format (the first fault,
    /// with its line and column), or cannot be written.
    pub fn write_verdict(
        &self,
        case_id: &str,
        verdict: AnswerabilityVerdict,
        rendered: &str,
        provenance: Option<(&str, Value)>,
    ) -> Result<(), String> {
        static WRITING: Mutex<()> = Mutex::new(());
        let _writing = lock(&WRITING);
        let path = self.dir.join(JUDGMENTS_FILE);
        let mut judgments = match read_text(&path).map_err(|fault| fault.to_string())? {
            None => Judgments::default(),
            Some(text) => parse_judgments(&text, None::<&HashSet<&str>>).map_err(|faults| {
                let first = faults.first().map(ToString::to_string).unwrap_or_default();
                format!("{}:{first}", path.display())
            })?,
        };
        judgments.by_case.insert(
            case_id.to_owned(),
            RecordedJudgment {
                verdict,
                rendered: rendered.to_owned(),
            },
        );
        if let Some((key, value)) = provenance {
            judgments.provenance.insert(key.to_owned(), value);
        }
        write_file(&path, &judgments.to_text())
    }

    /// Writes `prompt` as `prompt.txt`, the prompt the recorded answers were written from.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write_prompt(&self, prompt: &str) -> Result<(), String> {
        write_file(&self.dir.join(PROMPT_FILE), prompt)
    }

    /// Sets `provenance.<key>` of the directory's `corpus.json` to `value` (see
    /// [`with_provenance_entry`]), noting who recorded its answers. Does nothing when the
    /// directory holds no `corpus.json` (recordings kept apart from their corpus).
    ///
    /// # Errors
    /// `corpus.json` cannot be read, breaks its format, or cannot be written.
    pub fn write_provenance(&self, key: &str, value: Value) -> Result<(), String> {
        static WRITING: Mutex<()> = Mutex::new(());
        let _writing = lock(&WRITING);
        let path = self.dir.join(MANIFEST_FILE);
        let Some(text) = read_text(&path).map_err(|fault| fault.to_string())? else {
            return Ok(());
        };
        let text = with_provenance_entry(&text, key, value).map_err(|faults| {
            let first = faults.first().map(ToString::to_string).unwrap_or_default();
            format!("{}:{first}", path.display())
        })?;
        write_file(&path, &text)
    }
}

/// The name every file the store writes is staged under first (every write of
/// [`Recordings`], and the harness's run files), in the directory of the file it
/// will replace: `.isomer-staged-` and random characters (from [`tempfile`]).
///
/// A file of this name is never a recording: it is hidden, so the corpus checks skip it as
/// they skip every hidden entry, and no replay reads it. A run killed between writing a
/// staged file and renaming it leaves one behind; [`staged_leftovers`] finds them and the
/// harness's record mode removes them (see [`remove_staged_leftovers`]).
pub(crate) const STAGED_PREFIX: &str = ".isomer-staged-";

/// Writes `text` to `path` whole and atomically: into a file staged beside it (named
/// [`STAGED_PREFIX`] and random characters, in the same directory, so the rename never
/// crosses a file system), flushed to disk, then renamed over `path`. A reader sees the old
/// file or the new one, never a part; a failure leaves the old file as it was and removes
/// the staged one.
///
/// # Errors
/// `cannot write <path>: <error>`.
pub(crate) fn write_file(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write as _;
    let cannot_write = |error: std::io::Error| format!("cannot write {}: {error}", path.display());
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut staged = tempfile::Builder::new()
        .prefix(STAGED_PREFIX)
        .tempfile_in(dir)
        .map_err(cannot_write)?;
    staged.write_all(text.as_bytes()).map_err(cannot_write)?;
    staged.as_file().sync_all().map_err(cannot_write)?;
    staged
        .persist(path)
        .map(|_| ())
        .map_err(|error| cannot_write(error.error))
}

/// The staged files (named `.isomer-staged-…`) under `dir` and its `answers/` and `transcripts/`
/// directories, sorted: what a run killed while it wrote left behind. Unreadable
/// directories count as empty.
pub(crate) fn staged_leftovers(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in [
        dir.to_path_buf(),
        dir.join(ANSWERS_DIR),
        dir.join(isomer_corpus::TRANSCRIPTS_DIR),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry
                .file_name()
                .as_encoded_bytes()
                .starts_with(STAGED_PREFIX.as_bytes())
            {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    found
}

/// Removes the [`staged_leftovers`] of `dir` and returns the ones removed. A staged file is
/// never a recording, so removing it loses nothing; only the harness's record mode calls
/// this, before it writes (one process records a directory at a time).
///
/// # Errors
/// A staged file that exists and cannot be removed.
pub(crate) fn remove_staged_leftovers(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let leftovers = staged_leftovers(dir);
    for path in &leftovers {
        match std::fs::remove_file(path) {
            Ok(()) => {}
            Err(error) if error.kind() == ErrorKind::NotFound => {}
            Err(error) => return Err(format!("cannot remove {}: {error}", path.display())),
        }
    }
    Ok(leftovers)
}

/// Reads a recorded text file: `Ok(None)` when it does not exist.
fn read_text(path: &Path) -> Result<Option<String>, RecordingFault> {
    let fault = |position, message: String| RecordingFault {
        path: path.to_owned(),
        position,
        message,
    };
    match std::fs::read(path) {
        Ok(bytes) => decode_utf8(bytes)
            .map(Some)
            .map_err(|position| fault(Some(position), NOT_UTF8.to_owned())),
        Err(error) if error.kind() == ErrorKind::NotFound => Ok(None),
        Err(error) => Err(fault(None, format!("cannot be read: {error}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval/mini")
    }

    #[test]
    fn answers_are_read_on_demand_and_missing_ones_listed() {
        let recordings = Recordings::new(fixture());
        assert_eq!(
            recordings.answer("good", 0).unwrap(),
            "{\"type\":\"view\",\"body\":[{\"type\":\"stat\",\"label\":\"Open\",\"value\":12}]}\n"
        );
        assert_eq!(recordings.answer("good", 1).unwrap(), "");
        assert_eq!(recordings.answer("nope", 0).unwrap(), "");
        let missing: Vec<String> = recordings
            .missing_recordings()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(missing, ["answers/good.1.txt", "answers/nope.0.txt"]);
    }

    #[test]
    fn unreadable_answer_is_an_error_naming_the_file() {
        // `answers/dir.0.txt` is a directory there: it exists, and reading it fails.
        let dir = fixture().with_file_name("unreadable");
        let recordings = Recordings::new(&dir);
        let error = recordings.answer("dir", 0).unwrap_err().to_string();
        let expected = format!(
            "{}: cannot be read: ",
            dir.join("answers/dir.0.txt").display()
        );
        assert!(error.starts_with(&expected), "{error}");
        assert_eq!(recordings.missing_recordings(), Vec::new());
        assert_eq!(recordings.faults().len(), 1);
    }

    #[test]
    fn an_answer_that_is_not_utf8_names_the_first_invalid_byte() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("answers")).unwrap();
        std::fs::write(
            dir.path().join("answers/good.0.txt"),
            b"{\n  \"a\": \"Caf\xe9\"\n}",
        )
        .unwrap();
        let recordings = Recordings::new(dir.path());
        let expected = format!(
            "{}:2:12: is not UTF-8 text (first invalid byte here)",
            dir.path().join("answers/good.0.txt").display()
        );
        assert_eq!(
            recordings.answer("good", 0).unwrap_err().to_string(),
            expected
        );
        assert_eq!(recordings.missing_recordings(), Vec::new());
        assert_eq!(
            recordings.findings().to_string(),
            format!("recordings that cannot be used:\n  {expected}\n")
        );
    }

    #[test]
    fn a_fence_cut_off_is_named_with_where_it_opens_and_ends() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("answers")).unwrap();
        let text = "Here it is:\n```json\n{\"type\": \"view\",\n \"body\": [";
        std::fs::write(dir.path().join("answers/cut.0.txt"), text).unwrap();
        let recordings = Recordings::new(dir.path());
        assert_eq!(recordings.answer("cut", 0).unwrap(), text);
        let faults: Vec<String> = recordings
            .faults()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            faults,
            [format!(
                "{}:2:1: the code fence opened here is never closed: the answer is cut off at 4:11",
                dir.path().join("answers/cut.0.txt").display()
            )]
        );
    }

    #[test]
    fn verdicts_replay_stale_renderings_are_listed_and_no_verdict_is_invented() {
        let recordings = Recordings::new(fixture());
        assert!(recordings.has_judgments());
        assert_eq!(
            recordings.verdict("good", "Open: 12"),
            Ok(AnswerabilityVerdict::Yes)
        );
        assert_eq!(
            recordings.verdict("good", "Open: 13"),
            Ok(AnswerabilityVerdict::Yes)
        );
        assert_eq!(
            recordings.verdict("unjudged", "x"),
            Err("judgments.json has no verdict for `unjudged`: judge its text rendering and record the verdict".to_owned())
        );
        assert_eq!(
            recordings.stale_judgments(),
            [
                StaleJudgment {
                    case_id: "good".to_owned(),
                    reason: StaleReason::OtherRendering
                },
                StaleJudgment {
                    case_id: "unjudged".to_owned(),
                    reason: StaleReason::Unjudged
                },
            ]
        );
        assert_eq!(
            recordings.findings().to_string(),
            "cases without a verdict in judgments.json: unjudged\nverdicts given for another text rendering (re-judge them): good\n"
        );
    }

    /// A staged file a killed run left is no recording: the replay does not read it, the
    /// corpus checks skip it, and record mode's cleaning removes only such files.
    #[test]
    fn staged_leftovers_are_found_never_read_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let recordings = Recordings::new(dir.path());
        recordings.write_answer("a", 0, "{}").unwrap();
        assert_eq!(staged_leftovers(dir.path()), Vec::<PathBuf>::new());
        let torn = dir
            .path()
            .join("answers")
            .join(format!("{STAGED_PREFIX}x1"));
        let top = dir.path().join(format!("{STAGED_PREFIX}x2"));
        std::fs::write(&torn, "{\"type\": \"vi").unwrap();
        std::fs::write(&top, "{").unwrap();
        assert_eq!(staged_leftovers(dir.path()), [top.clone(), torn.clone()]);
        let ids: HashSet<&str> = ["a"].into_iter().collect();
        assert!(crate::corpus::check_recordings(dir.path(), &ids).is_ok());
        assert_eq!(recordings.answer("a", 0).unwrap(), "{}");
        assert_eq!(remove_staged_leftovers(dir.path()).unwrap(), [top, torn]);
        assert_eq!(staged_leftovers(dir.path()), Vec::<PathBuf>::new());
        assert!(recordings.has_answer("a", 0));
    }

    #[test]
    fn what_record_mode_writes_the_replay_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("corpus.json"),
            "{\"provenance\": {\"author\": \"me\"}, \"cases\": [{\"id\": \"a\", \"prompt\": \"p\"}]}",
        )
        .unwrap();
        let writer = Recordings::new(dir.path());
        writer.write_answer("a", 0, "```json\n{}\n```").unwrap();
        writer
            .write_verdict("a", AnswerabilityVerdict::No, "OLD", None)
            .unwrap();
        writer
            .write_verdict(
                "a",
                AnswerabilityVerdict::Partial,
                "OPEN 12",
                Some(("recording", Value::from("m"))),
            )
            .unwrap();
        writer
            .write_provenance("recording", Value::from("m"))
            .unwrap();
        writer.write_prompt("PROMPT").unwrap();

        let reader = Recordings::new(dir.path());
        assert!(reader.has_answer("a", 0));
        assert!(!reader.has_answer("a", 1));
        assert_eq!(reader.answer("a", 0).unwrap(), "```json\n{}\n```");
        assert_eq!(
            reader.verdict("a", "OPEN 12"),
            Ok(AnswerabilityVerdict::Partial)
        );
        assert_eq!(reader.findings(), ReplayFindings::default());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("judgments.json")).unwrap(),
            "{\n  \"provenance\": {\n    \"recording\": \"m\"\n  },\n  \"judgments\": [\n    {\n      \"id\": \"a\",\n      \"verdict\": \"partial\",\n      \"rendered\": \"OPEN 12\"\n    }\n  ]\n}\n"
        );
        let corpus = std::fs::read_to_string(dir.path().join("corpus.json")).unwrap();
        assert!(
            corpus.starts_with(
                "{\n  \"provenance\": {\n    \"author\": \"me\",\n    \"recording\": \"m\"\n  },"
            ),
            "{corpus}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("prompt.txt")).unwrap(),
            "PROMPT"
        );
        writer.remove_answer("a", 0).unwrap();
        assert!(!reader.has_answer("a", 0));
        assert_eq!(staged_leftovers(dir.path()), Vec::<PathBuf>::new());
        // Nothing staged is left behind.
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["answers", "corpus.json", "judgments.json", "prompt.txt"]
        );
    }
}
