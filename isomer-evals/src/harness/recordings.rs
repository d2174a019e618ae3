//! Strict replay of one corpus directory's recordings, read file by file on demand.
//!
//! The harness reads `answers/<id>.<attempt>.txt` only when `run_evals` asks for that
//! attempt, so a trial for one case opens that case's answer files and no other
//! (`--exact` under cargo-nextest starts one process per case). `judgments.json` is read
//! once, the first time a judge is asked, and only if it exists; without it the
//! answerability axis is skipped. Every attempt asked for without a file is listed in
//! [`Recordings::missing`] and answered with an empty text (which fails to parse); every
//! case whose recorded rendering differs from the current one, or that has no judgment, is
//! listed in [`Recordings::stale`]. The harness fails a trial on either list, which is what
//! "strict" means here: a recording is never invented and never silently skipped.

use std::collections::HashSet;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use crate::case::{AnswerabilityVerdict, Generate, Judge};
use crate::corpus::{NOT_UTF8, decode_utf8};
use crate::replay::MissingRecording;
use crate::runtime::BoxError;
use isomer_corpus::answer_file_name;
use isomer_corpus::{Judgments, parse_judgments};

/// Why a case's recorded judgment cannot be trusted for its current answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Stale {
    /// `judgments.json` has no verdict for the case.
    Missing,
    /// The verdict was given for another text rendering than the current one.
    OtherRendering,
}

/// The recordings of one corpus directory, with what the replay found missing or stale.
#[derive(Debug)]
pub(crate) struct Recordings {
    dir: PathBuf,
    judgments: OnceLock<Result<Option<Judgments>, String>>,
    missing: Mutex<Vec<MissingRecording>>,
    stale: Mutex<Vec<(String, Stale)>>,
}

impl Recordings {
    /// Recordings under `dir` (the corpus directory holding `answers/` and `judgments.json`).
    pub(crate) fn new(dir: impl Into<PathBuf>) -> Self {
        Recordings {
            dir: dir.into(),
            judgments: OnceLock::new(),
            missing: Mutex::new(Vec::new()),
            stale: Mutex::new(Vec::new()),
        }
    }

    /// The corpus directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether `judgments.json` exists (the harness passes a judge only then).
    pub(crate) fn has_judgments(&self) -> bool {
        self.dir.join("judgments.json").is_file()
    }

    /// The recorded text of `attempt` of `case_id`; an empty text, listed as missing, when
    /// the file does not exist.
    ///
    /// # Errors
    /// A file that exists but cannot be read (`"cannot read <path>: <io error>"`) or is not
    /// UTF-8 text (`"<path>:<line>:<column>: is not UTF-8 text (first invalid byte here)"`,
    /// as the corpus loader words it).
    pub(crate) fn answer(&self, case_id: &str, attempt: u32) -> Result<String, String> {
        let path = self
            .dir
            .join("answers")
            .join(answer_file_name(case_id, attempt));
        match read_text(&path)? {
            Some(text) => Ok(text),
            None => {
                lock(&self.missing).push(MissingRecording {
                    case_id: case_id.to_owned(),
                    attempt,
                });
                Ok(String::new())
            }
        }
    }

    /// The recorded verdict for `case_id`. A judgment given for another rendering still
    /// answers, and the case is listed as stale; a case without a judgment is listed as
    /// stale and answered `partial` so the run completes (the trial fails on the list).
    ///
    /// # Errors
    /// `judgments.json` unreadable or malformed, with its faults and their line:column.
    pub(crate) fn verdict(
        &self,
        case_id: &str,
        rendered: &str,
    ) -> Result<AnswerabilityVerdict, String> {
        let judgments = self.judgments.get_or_init(|| self.read_judgments());
        let judgments = match judgments {
            Ok(Some(judgments)) => judgments,
            Ok(None) => return Err("no judgments.json, so no case can be judged".into()),
            Err(error) => return Err(error.clone()),
        };
        match judgments.by_case.get(case_id) {
            Some(recorded) => {
                if recorded.rendered != rendered {
                    lock(&self.stale).push((case_id.to_owned(), Stale::OtherRendering));
                }
                Ok(recorded.verdict)
            }
            None => {
                lock(&self.stale).push((case_id.to_owned(), Stale::Missing));
                Ok(AnswerabilityVerdict::Partial)
            }
        }
    }

    fn read_judgments(&self) -> Result<Option<Judgments>, String> {
        let path = self.dir.join("judgments.json");
        let Some(text) = read_text(&path)? else {
            return Ok(None);
        };
        parse_judgments(&text, None::<&HashSet<&str>>)
            .map(Some)
            .map_err(|faults| {
                let faults: Vec<String> = faults
                    .iter()
                    .map(|fault| format!("{}:{fault}", path.display()))
                    .collect();
                faults.join("\n")
            })
    }

    /// A `generate` that replays `answers/<id>.<attempt>.txt`.
    pub(crate) fn generate(&self) -> Generate<'_> {
        Generate::new(move |request| {
            let answer = self.answer(&request.eval_case.id, request.attempt);
            async move { answer.map_err(BoxError::from) }
        })
    }

    /// A `judge` that replays `judgments.json`.
    pub(crate) fn judge(&self) -> Judge<'_> {
        Judge::new(move |request| {
            let verdict = self.verdict(&request.eval_case.id, &request.rendered);
            async move { verdict.map_err(BoxError::from) }
        })
    }

    /// Attempts asked for that had no file, sorted by case id, then attempt.
    pub(crate) fn missing(&self) -> Vec<MissingRecording> {
        let mut missing = lock(&self.missing).clone();
        missing.sort();
        missing.dedup();
        missing
    }

    /// Cases whose judgment is absent or was given for another rendering, sorted by id
    /// (the baseline's `staleJudgments`).
    pub(crate) fn stale(&self) -> Vec<String> {
        let mut stale: Vec<String> = self
            .stale_with_reasons()
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        stale.dedup();
        stale
    }

    /// [`Recordings::stale`] with why each case is listed, sorted by id then reason.
    pub(crate) fn stale_with_reasons(&self) -> Vec<(String, Stale)> {
        let mut stale = lock(&self.stale).clone();
        stale.sort();
        stale.dedup();
        stale
    }
}

/// Locks a list, recovering it if a panicking trial poisoned the lock.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Reads a recorded text file: `Ok(None)` when it does not exist.
///
/// # Errors
/// `"cannot read <path>: <io error>"` when it exists but cannot be read, and
/// `"<path>:<line>:<column>: is not UTF-8 text (first invalid byte here)"` when its bytes are
/// not UTF-8, with the position the corpus loader and the transcript reader report.
fn read_text(path: &Path) -> Result<Option<String>, String> {
    match std::fs::read(path) {
        Ok(bytes) => decode_utf8(bytes)
            .map(Some)
            .map_err(|position| format!("{}:{position}: {NOT_UTF8}", path.display())),
        Err(error) if error.kind() == ErrorKind::NotFound => Ok(None),
        Err(error) => Err(format!("cannot read {}: {error}", path.display())),
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
            .missing()
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
        let error = recordings.answer("dir", 0).unwrap_err();
        let expected = format!("cannot read {}: ", dir.join("answers/dir.0.txt").display());
        assert!(error.starts_with(&expected), "{error}");
        assert_eq!(recordings.missing(), Vec::new());
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
        assert_eq!(
            recordings.answer("good", 0).unwrap_err(),
            format!(
                "{}:2:12: is not UTF-8 text (first invalid byte here)",
                dir.path().join("answers/good.0.txt").display()
            )
        );
        assert_eq!(recordings.missing(), Vec::new());
    }

    #[test]
    fn verdicts_replay_and_stale_renderings_are_listed() {
        let recordings = Recordings::new(fixture());
        assert!(recordings.has_judgments());
        assert_eq!(
            recordings.verdict("good", "Open: 12").unwrap(),
            AnswerabilityVerdict::Yes
        );
        assert_eq!(
            recordings.verdict("good", "Open: 13").unwrap(),
            AnswerabilityVerdict::Yes
        );
        assert_eq!(
            recordings.verdict("unjudged", "x").unwrap(),
            AnswerabilityVerdict::Partial
        );
        assert_eq!(recordings.stale(), ["good", "unjudged"]);
        assert_eq!(
            recordings.stale_with_reasons(),
            [
                ("good".to_owned(), Stale::OtherRendering),
                ("unjudged".to_owned(), Stale::Missing)
            ]
        );
    }
}
