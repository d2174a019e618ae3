//! Record mode: `ISOMER_EVAL_RECORD=missing|all` makes a single-shot trial call the suite's
//! live callbacks for the recordings it lacks (or for all), write them in the replay format
//! through [`Recordings`], and score the run as a replay would.
//!
//! Within one test process the trials share a record session per recordings directory: a
//! case is recorded under its own lock, and an attempt or verdict recorded by one trial is
//! replayed by every other (the `totals` trial and a case trial running at once call the
//! model once per attempt, not twice). Agent suites record through `agent_record.rs`,
//! with the same switch and session.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use libtest_mimic::Failed;
use serde_json::{Map, Value};

use super::suite::Suite;
use crate::case::{AnswerabilityVerdict, EvalCase, Generate, GenerateRequest, Judge, JudgeRequest};
use crate::html::AnswerLog;
use crate::recordings::Recordings;
use crate::report::EvalReport;
use crate::runtime::BoxError;
use isomer_corpus::recording_name;

/// The variable that switches record mode on.
pub(super) const RECORD_VARIABLE: &str = "ISOMER_EVAL_RECORD";

/// The key of the provenance entry record mode writes in `corpus.json` and
/// `judgments.json`.
pub(super) const PROVENANCE_KEY: &str = "recording";

/// Which recordings record mode writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RecordMode {
    /// Only attempts without an answer file, and verdicts absent or given for another
    /// rendering.
    Missing,
    /// Every attempt and verdict the run asks for, afresh.
    All,
}

/// Reads [`RECORD_VARIABLE`]: `None` when it is unset or empty (replay).
///
/// # Errors
/// A value other than `missing` or `all`, named with what to write instead.
pub(super) fn record_mode() -> Result<Option<RecordMode>, Failed> {
    let value = match std::env::var(RECORD_VARIABLE) {
        Err(std::env::VarError::NotPresent) => return Ok(None),
        Err(std::env::VarError::NotUnicode(value)) => value.to_string_lossy().into_owned(),
        Ok(value) => value,
    };
    match value.as_str() {
        "" => Ok(None),
        "missing" => Ok(Some(RecordMode::Missing)),
        "all" => Ok(Some(RecordMode::All)),
        other => Err(format!(
            "{RECORD_VARIABLE}={other:?} is not a record mode: set `missing` to call the model for the recordings that are missing, `all` to record every one afresh, or unset it to replay"
        )
        .into()),
    }
}

/// Runs `cases` with `suite`'s options over `recordings`: a strict replay, or in record
/// mode a run that records what it lacks first. `name` is the suite's, for messages.
/// `answers`, when given, keeps the text of every attempt (for the HTML report).
pub(super) fn run(
    suite: &'static Suite,
    name: &str,
    cases: Vec<EvalCase>,
    recordings: &Recordings,
    answers: Option<&AnswerLog>,
) -> Result<EvalReport, Failed> {
    let Some(mode) = record_mode()? else {
        let judge = recordings.has_judgments().then(|| recordings.judge());
        return Ok(suite.run(cases, tapped(answers, recordings.generate()), judge, false));
    };
    let callbacks = suite.live_callbacks();
    let Some(live) = callbacks.generate.as_ref() else {
        return Err(format!(
            "{RECORD_VARIABLE} asks suite `{name}` to record, but it declares no live model: return `Suite::new(runtime).live(generate)` from its #[isomer_eval] function (add `.judge(judge)` to record verdicts too; isomer-openai's `ChatClient` gives both), or unset {RECORD_VARIABLE} to replay"
        )
        .into());
    };
    let recorder = Recorder {
        mode,
        recordings,
        live,
        live_judge: callbacks.judge.as_ref(),
        provenance: provenance(&callbacks.provenance),
        timeout: callbacks.timeout,
        wrote: AtomicBool::new(false),
    };
    let judge = match recorder.live_judge {
        Some(_) => Some(recorder.judge()),
        None => recordings.has_judgments().then(|| recordings.judge()),
    };
    // A live run measures latency and tokens (attempts replayed from files count as
    // what they cost: next to nothing).
    let report = suite.run(cases, tapped(answers, recorder.generate()), judge, true);
    recorder.finish(&suite.prompt())?;
    Ok(report)
}

/// `generate`, kept in `answers` when there is a log.
fn tapped<'a>(answers: Option<&'a AnswerLog>, generate: Generate<'a>) -> Generate<'a> {
    match answers {
        Some(log) => log.tap(generate),
        None => generate,
    }
}

/// What a record session keeps for one recordings directory, across the trials of this
/// process.
#[derive(Default)]
struct Session {
    /// Per recording name (a case id, or `<id>.r<k>` for a later repeat), the lock its
    /// recording happens under.
    locks: HashMap<String, Arc<tokio::sync::Mutex<()>>>,
    /// Recording names whose older answers `all` mode has removed.
    cleared: HashSet<String>,
    /// Verdicts recorded in this process by recording name, with the rendering each was
    /// given for.
    judged: HashMap<String, (AnswerabilityVerdict, String)>,
    /// Per agent run (case id, repeat), the lock it is recorded under.
    run_locks: HashMap<(String, u32), Arc<tokio::sync::Mutex<()>>>,
    /// Agent runs recorded to their last turn in this process.
    recorded_runs: HashSet<(String, u32)>,
}

type Sessions = Mutex<HashMap<PathBuf, Session>>;

fn with_session<T>(dir: &Path, f: impl FnOnce(&mut Session) -> T) -> T {
    static SESSIONS: std::sync::OnceLock<Sessions> = std::sync::OnceLock::new();
    let sessions = SESSIONS.get_or_init(Sessions::default);
    let mut sessions = sessions.lock().unwrap_or_else(PoisonError::into_inner);
    f(sessions.entry(dir.to_owned()).or_default())
}

fn case_lock(dir: &Path, case_id: &str) -> Arc<tokio::sync::Mutex<()>> {
    with_session(dir, |session| {
        Arc::clone(session.locks.entry(case_id.to_owned()).or_default())
    })
}

/// The lock agent run `repeat` of `case_id` is recorded under.
pub(super) fn run_lock(dir: &Path, case_id: &str, repeat: u32) -> Arc<tokio::sync::Mutex<()>> {
    with_session(dir, |session| {
        Arc::clone(
            session
                .run_locks
                .entry((case_id.to_owned(), repeat))
                .or_default(),
        )
    })
}

/// Notes that this process recorded agent run `repeat` of `case_id` to its last turn.
pub(super) fn note_recorded_run(dir: &Path, case_id: &str, repeat: u32) {
    with_session(dir, |session| {
        session.recorded_runs.insert((case_id.to_owned(), repeat));
    });
}

/// Whether this process recorded agent run `repeat` of `case_id`.
pub(super) fn recorded_run(dir: &Path, case_id: &str, repeat: u32) -> bool {
    with_session(dir, |session| {
        session
            .recorded_runs
            .contains(&(case_id.to_owned(), repeat))
    })
}

/// The live callbacks and the store one trial records with.
struct Recorder<'a> {
    mode: RecordMode,
    recordings: &'a Recordings,
    live: &'a Generate<'static>,
    live_judge: Option<&'a Judge<'static>>,
    /// The provenance entry: the date, then what the suite reports of its callbacks.
    provenance: Value,
    timeout: std::time::Duration,
    /// Whether this trial wrote an answer.
    wrote: AtomicBool,
}

impl Recorder<'_> {
    /// A `generate` that replays an attempt whose answer file exists (in `all` mode, one
    /// written by this process), and otherwise calls the live model and writes its answer.
    fn generate(&self) -> Generate<'_> {
        Generate::new(move |request: GenerateRequest| self.answer(request))
    }

    async fn answer(&self, request: GenerateRequest) -> Result<String, BoxError> {
        let dir = self.recordings.dir();
        // Each repeat of a case is recorded under its own name (the case id for repeat 0).
        let case_id = recording_name(&request.eval_case.id, request.repeat);
        let attempt = request.attempt;
        let lock = case_lock(dir, &case_id);
        let _recording = lock.lock().await;
        if self.mode == RecordMode::All
            && with_session(dir, |session| session.cleared.insert(case_id.clone()))
        {
            self.recordings.remove_answers(&case_id)?;
        }
        if self.recordings.has_answer(&case_id, attempt) {
            // Through the generate of the store, so the prompt is kept as in a replay.
            return self.recordings.generate().call(request).await;
        }
        let text = self
            .live
            .call_within(request, Some(self.timeout))
            .await
            .map_err(|failure| live_failure("generate", failure))?;
        self.recordings.write_answer(&case_id, attempt, &text)?;
        self.wrote.store(true, Ordering::Relaxed);
        Ok(text)
    }

    /// A `judge` that replays a verdict given for the same rendering (in `all` mode, one
    /// given in this process), and otherwise asks the live judge and records its verdict.
    fn judge(&self) -> Judge<'_> {
        Judge::new(move |request: JudgeRequest| self.verdict(request))
    }

    async fn verdict(&self, request: JudgeRequest) -> Result<AnswerabilityVerdict, BoxError> {
        let dir = self.recordings.dir();
        let case_id = recording_name(&request.eval_case.id, request.repeat);
        let lock = case_lock(dir, &case_id);
        let _recording = lock.lock().await;
        let judged = with_session(dir, |session| session.judged.get(&case_id).cloned());
        if let Some((verdict, rendered)) = judged
            && rendered == request.rendered
        {
            return Ok(verdict);
        }
        if self.mode == RecordMode::Missing
            && self
                .recordings
                .judgment(&case_id)
                .is_some_and(|recorded| recorded.rendered == request.rendered)
        {
            return self.recordings.judge().call(request).await;
        }
        let Some(live_judge) = self.live_judge else {
            return self.recordings.judge().call(request).await;
        };
        let rendered = request.rendered.clone();
        let verdict = live_judge
            .call_within(request, Some(self.timeout))
            .await
            .map_err(|failure| live_failure("judge", failure))?;
        self.recordings.write_verdict(
            &case_id,
            verdict,
            &rendered,
            Some((PROVENANCE_KEY, self.provenance.clone())),
        )?;
        with_session(dir, |session| {
            session.judged.insert(case_id, (verdict, rendered));
        });
        Ok(verdict)
    }

    /// After the run: when this trial wrote an answer, notes the provenance in
    /// `corpus.json` and writes `prompt.txt` (in `all` mode, or when it is missing; in
    /// `missing` mode a differing `prompt.txt` is kept, and `totals` names the mismatch,
    /// since the older answers were written from it).
    fn finish(&self, prompt: &str) -> Result<(), Failed> {
        if !self.wrote.load(Ordering::Relaxed) {
            return Ok(());
        }
        let prompt_path = self.recordings.dir().join(isomer_corpus::PROMPT_FILE);
        if self.mode == RecordMode::All || !prompt_path.exists() {
            self.recordings.write_prompt(prompt)?;
        }
        self.recordings
            .write_provenance(PROVENANCE_KEY, self.provenance.clone())?;
        Ok(())
    }
}

/// The error a failed live call becomes (the case's `CaseError` message).
pub(super) fn live_failure(stage: &str, failure: crate::CallFailure) -> BoxError {
    if failure.panicked {
        format!("the live {stage} panicked: {}", failure.message).into()
    } else {
        failure.message.into()
    }
}

/// The provenance entry: `{"date": "<today, UTC>", ...reported}`.
pub(super) fn provenance(reported: &Map<String, Value>) -> Value {
    let mut entry = Map::new();
    entry.insert("date".to_owned(), Value::String(today()));
    for (key, value) in reported {
        entry.insert(key.clone(), value.clone());
    }
    Value::Object(entry)
}

/// Today's date in UTC as `YYYY-MM-DD` (the proleptic Gregorian calendar).
fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let (year, month, day) = civil_from_days(seconds / 86_400);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The calendar date `days` days after 1970-01-01 (Howard Hinnant's `civil_from_days`,
/// for non-negative days).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_since_the_epoch_are_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
    }
}
