//! Record mode: `ISOMER_EVAL_RECORD=missing|all|measure` makes a single-shot trial call the
//! suite's live callbacks for the recordings it lacks (or for all), write them in the replay
//! format through [`Recordings`], and score the run as a replay would.
//!
//! # One call per attempt per process
//!
//! Within one test process the trials share a record session per recordings directory.
//! Every live call is made under its case's lock by whichever trial asks first, and its
//! outcome is kept in the session with what it cost (latency taken around the call, tokens
//! and finish reason as the callback reported them): the answer's text, or its failure. A
//! trial asking for the same attempt or verdict later (the `totals` trial after the case
//! trials, or a case trial after `totals`) gets that outcome and makes no call, so a
//! failing call is made once per run, not once per trial, and both trials report the same
//! failure. Each trial notes every call it asked for in its [`Trace`]; what a live call cost
//! is read from there, so the measures printed and written to the run file are the calls'
//! own whatever the order the trials ran in.
//!
//! # Nothing recorded is lost
//!
//! Every file is written whole to a staged name beside it and renamed into place
//! ([`crate::recordings::STAGED_PREFIX`]). `missing` writes an attempt's answer (and a
//! verdict) as soon as its call succeeds. `all` writes nothing until a run of a case has
//! completed: when every call of the run succeeded, its answers and verdict replace the
//! recorded ones and only then is a recorded retry the new run did not ask for removed;
//! when a call failed, the case's recordings and verdict stay exactly as they were. A
//! staged file left behind by a killed run is removed when record mode first opens the
//! directory (and said so on stderr); a replay skips it (it is hidden) and `totals` names
//! it once.
//!
//! # What a run may spend
//!
//! Each live call is priced where it is made, at its configuration's price (the judge's at
//! the judge's), and counted, calls, tokens and millionths of a dollar, under two keys for
//! the whole process: its suite and its configuration (its recordings directory). Before
//! each call the suite's caps and the configuration's are read against those counts: one
//! at or past its limit refuses the call (no call, nothing noted or kept in the session, so
//! a later trial asking for it meets the same cap) and the attempt or verdict fails naming
//! the cap, its limit and the spend so far. The trial's [`Trace`] keeps the first such
//! message for the run file's `capReached`. Calls already in flight finish and are kept.
//!
//! Agent suites record through `agent_record.rs`, with the same switch and session.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use libtest_mimic::Failed;
use serde_json::{Map, Value};

use super::configuration::{Configuration, Spend};
use super::suite::Suite;
use crate::case::{
    AnswerabilityVerdict, EvalCase, Generate, GenerateRequest, Judge, JudgeRequest, UsageMeter,
};
use crate::html::AnswerLog;
use crate::recordings::{Recordings, remove_staged_leftovers};
use crate::report::{CaseMeasures, EvalReport};
use crate::run_file::{CallRecord, CallSource, Price, RunMode, priced};
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
    /// Records as [`RecordMode::Missing`] does; the trials then check the floors only and
    /// leave the baseline alone (see the [harness docs](super#recording-a-corpus)).
    Measure,
}

impl RecordMode {
    /// The mode a run file names.
    pub(super) fn run_mode(mode: Option<RecordMode>) -> RunMode {
        match mode {
            None => RunMode::Replay,
            Some(RecordMode::Missing) => RunMode::RecordMissing,
            Some(RecordMode::All) => RunMode::RecordAll,
            Some(RecordMode::Measure) => RunMode::Measure,
        }
    }
}

/// Reads [`RECORD_VARIABLE`]: `None` when it is unset or empty (replay).
///
/// # Errors
/// A value other than `missing`, `all` or `measure`, named with what to write instead.
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
        "measure" => Ok(Some(RecordMode::Measure)),
        other => Err(format!(
            "{RECORD_VARIABLE}={other:?} is not a record mode: set `missing` to call the model for the recordings that are missing, `all` to record every one afresh, `measure` to record what is missing and check the floors without the baseline, or unset it to replay"
        )
        .into()),
    }
}

/// What one trial's run asked for: per recording name and attempt (`None`: the judge),
/// where the answer came from and, for a live call, what it cost. Filled by the replay
/// and record callbacks alike; the run file and the printed measures read it.
#[derive(Debug, Default)]
pub(super) struct Trace {
    calls: Mutex<BTreeMap<(String, Option<u32>), CallRecord>>,
    /// The first cap that refused a call of the run, as its message.
    capped: Mutex<Option<String>>,
}

impl Trace {
    /// The first cap that refused a live call of the run, as its message; `None` when no
    /// cap stopped a call.
    pub(super) fn cap_reached(&self) -> Option<String> {
        self.capped
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn note_capped(&self, message: &str) {
        self.capped
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert_with(|| message.to_owned());
    }

    fn note(&self, recording: &str, attempt: Option<u32>, record: CallRecord) {
        self.calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((recording.to_owned(), attempt), record);
    }

    /// The calls of the run recorded under `recording`: its attempts in order, then the
    /// judge's.
    pub(super) fn calls_of(&self, recording: &str) -> (Vec<CallRecord>, Option<CallRecord>) {
        let calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        let mut attempts = Vec::new();
        let mut judge = None;
        for ((name, attempt), record) in calls.range((recording.to_owned(), None)..) {
            if name != recording {
                break;
            }
            match attempt {
                Some(_) => attempts.push(record.clone()),
                None => judge = Some(record.clone()),
            }
        }
        (attempts, judge)
    }

    /// The number of live calls noted.
    pub(super) fn live_calls(&self) -> usize {
        self.calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .filter(|record| record.source == CallSource::Live)
            .count()
    }

    /// What the live calls of `recording` cost, as the report's measures hold it; `None`
    /// when the run made no live call for it.
    fn measures_of(&self, recording: &str) -> Option<CaseMeasures> {
        let (attempts, judge) = self.calls_of(recording);
        CaseMeasures::of_calls(&attempts, judge.as_ref())
    }

    /// `generate`, each attempt it answers noted as read from its recording.
    fn tap_replay<'a>(&'a self, generate: Generate<'a>) -> Generate<'a> {
        Generate::new(move |request: GenerateRequest| {
            let recording = recording_name(&request.eval_case.id, request.repeat);
            let attempt = request.attempt;
            let call = generate.call(request);
            async move {
                let answer = call.await;
                let error = answer.as_ref().err().map(ToString::to_string);
                self.note(&recording, Some(attempt), replayed(Some(attempt), error));
                answer
            }
        })
    }

    /// `judge`, each verdict noted as read from `judgments.json`.
    fn tap_replay_judge<'a>(&'a self, judge: Judge<'a>) -> Judge<'a> {
        Judge::new(move |request: JudgeRequest| {
            let recording = recording_name(&request.eval_case.id, request.repeat);
            let call = judge.call(request);
            async move {
                let verdict = call.await;
                let error = verdict.as_ref().err().map(ToString::to_string);
                self.note(&recording, None, replayed(None, error));
                verdict
            }
        })
    }
}

/// A call answered from its recording.
fn replayed(attempt: Option<u32>, error: Option<String>) -> CallRecord {
    CallRecord {
        source: CallSource::Recording,
        attempt,
        latency_ms: None,
        input_tokens: None,
        output_tokens: None,
        finish_reason: None,
        cost_usd: None,
        error,
    }
}

/// What a trial's run gives back: the report (each run's `measured` read from the live
/// calls it asked for), what it asked for, and the mode it ran in.
pub(super) struct TrialRun {
    /// The report; with live calls, their measures.
    pub(super) report: EvalReport,
    /// Every call the run asked for.
    pub(super) trace: Trace,
    /// The record mode, `None` in a replay.
    pub(super) mode: Option<RecordMode>,
}

/// Runs `cases` with `suite`'s options over `recordings`, the directory of
/// `configuration`: a strict replay, or in record mode a run that records what it lacks
/// first through the configuration's live callbacks. `name` is the suite's, for messages.
/// `answers`, when given, keeps the text of every attempt (for the HTML report).
pub(super) fn run(
    suite: &'static Suite,
    name: &str,
    configuration: &Configuration,
    cases: Vec<EvalCase>,
    recordings: &Recordings,
    answers: Option<&AnswerLog>,
) -> Result<TrialRun, Failed> {
    let trace = Trace::default();
    let Some(mode) = record_mode()? else {
        let judge = recordings
            .has_judgments()
            .then(|| trace.tap_replay_judge(recordings.judge()));
        let generate = tapped(answers, trace.tap_replay(recordings.generate()));
        let report = suite.run(cases, generate, judge);
        return Ok(TrialRun {
            report,
            trace,
            mode: None,
        });
    };
    let Some(live) = configuration.generate.as_ref() else {
        return Err(match configuration.label() {
            None => format!(
                "{RECORD_VARIABLE} asks suite `{name}` to record, but it declares no live model: return `Suite::new(runtime).live(generate)` from its #[isomer_eval] function (add `.judge(judge)` to record verdicts too; isomer-openai's `ChatClient` gives both), or unset {RECORD_VARIABLE} to replay"
            ),
            Some(label) => format!(
                "{RECORD_VARIABLE} asks suite `{name}` to record, but its configuration `{label}` declares no live model: give it `.live(generate)` (isomer-openai's `ChatClient::configuration` gives one with its judge and provenance), leave it out with {}, or unset {RECORD_VARIABLE} to replay",
                super::configuration::CONFIGURATIONS_VARIABLE
            ),
        }
        .into());
    };
    std::fs::create_dir_all(recordings.dir()).map_err(|error| {
        format!(
            "cannot create the recordings directory {} of {}: {error}",
            recordings.dir().display(),
            configuration.who(name)
        )
    })?;
    open_session(recordings.dir())?;
    let recorder = Recorder {
        mode,
        recordings,
        live,
        live_judge: configuration.judge.as_ref(),
        provenance: provenance(&configuration.provenance),
        timeout: suite.live_timeout(),
        wrote: AtomicBool::new(false),
        trace: &trace,
        spending: Spending {
            suite: name,
            configuration,
            suite_caps: *suite.caps(),
        },
    };
    let judge = match recorder.live_judge {
        Some(_) => Some(recorder.judge()),
        None => recordings
            .has_judgments()
            .then(|| trace.tap_replay_judge(recordings.judge())),
    };
    let report = suite.run(cases, tapped(answers, recorder.generate()), judge);
    if mode == RecordMode::All {
        for result in report
            .results
            .iter()
            .filter(|result| result.error.is_none())
        {
            recorder.commit(&recording_name(&result.case_id, result.repeat))?;
        }
    }
    recorder.finish(&suite.prompt())?;
    // Each run's measures are those of the live calls it asked for, wherever in this
    // process they were made.
    let results = report
        .results
        .into_iter()
        .map(|mut result| {
            result.measured = trace.measures_of(&recording_name(&result.case_id, result.repeat));
            result
        })
        .collect();
    Ok(TrialRun {
        report: EvalReport::new(results),
        trace,
        mode: Some(mode),
    })
}

/// `generate`, kept in `answers` when there is a log.
fn tapped<'a>(answers: Option<&'a AnswerLog>, generate: Generate<'a>) -> Generate<'a> {
    match answers {
        Some(log) => log.tap(generate),
        None => generate,
    }
}

/// One live call made in this process: its outcome (the answer, or the failure's message)
/// and what it cost.
#[derive(Debug, Clone)]
struct LiveCall<T> {
    outcome: Result<T, String>,
    record: CallRecord,
}

/// What a record session keeps for one recordings directory, across the trials of this
/// process.
#[derive(Default)]
struct Session {
    /// Whether the staged leftovers of a killed run were cleaned.
    opened: bool,
    /// Per recording name (a case id, or `<id>.r<k>` for a later repeat), the lock its
    /// recording happens under.
    locks: HashMap<String, Arc<tokio::sync::Mutex<()>>>,
    /// Every `generate` call made live in this process, by recording name and attempt.
    answers: HashMap<(String, u32), LiveCall<String>>,
    /// Every judge call made live in this process, by recording name, with the rendering
    /// it was given.
    verdicts: HashMap<String, LiveCall<(AnswerabilityVerdict, String)>>,
    /// Recording names whose fresh recordings `all` mode has put in place.
    committed: HashSet<String>,
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

/// Opens the record session of `dir` for this process: the first time, removes the staged
/// files a killed run left there, naming them on stderr.
///
/// # Errors
/// A staged file that cannot be removed.
pub(super) fn open_session(dir: &Path) -> Result<(), Failed> {
    with_session(dir, |session| {
        if std::mem::replace(&mut session.opened, true) {
            return Ok(());
        }
        let removed = remove_staged_leftovers(dir)?;
        if !removed.is_empty() {
            let names: Vec<String> = removed
                .iter()
                .map(|path| path.display().to_string())
                .collect();
            eprintln!(
                "removed {} staged file(s) an interrupted run left in {} (never recordings): {}",
                removed.len(),
                dir.display(),
                names.join(", ")
            );
        }
        Ok(())
    })
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
    /// Whether this trial's run holds an answer written in this process (by this trial,
    /// or by the trial whose call it read from the session).
    wrote: AtomicBool,
    /// Where the trial's calls are noted.
    trace: &'a Trace,
    /// What the calls cost and what they may spend.
    spending: Spending<'a>,
}

/// What a recorder's live calls cost and may spend: the configuration's prices and caps,
/// and the suite's caps over every configuration.
struct Spending<'a> {
    /// The suite name.
    suite: &'a str,
    /// The configuration whose calls these are.
    configuration: &'a Configuration,
    /// The caps of the whole run.
    suite_caps: super::configuration::Caps,
}

impl Spending<'_> {
    /// The keys the spend of these calls is counted under: the suite's, and the
    /// configuration's (its recordings directory, one per configuration of a run).
    fn keys(&self, dir: &Path) -> [String; 2] {
        [
            format!("suite\u{0}{}", self.suite),
            format!("configuration\u{0}{}", dir.display()),
        ]
    }

    /// The message of the first cap the spend so far has reached, suite's first; `None`
    /// while a call may be made.
    fn refused(&self, dir: &Path) -> Option<String> {
        let [suite, configuration] = self.keys(dir).map(|key| spent(&key));
        self.suite_caps
            .reached(&format!("suite `{}`", self.suite), &suite)
            .or_else(|| {
                self.configuration
                    .caps
                    .reached(&self.configuration.who(self.suite), &configuration)
            })
    }

    /// Counts a live call that reported `input` and `output` tokens, at `price`.
    fn add(&self, dir: &Path, input: u64, output: u64, price: Option<Price>) {
        let micro = priced(price, input, output).unwrap_or(0.0);
        let mut spends = SPENDS.lock().unwrap_or_else(PoisonError::into_inner);
        for key in self.keys(dir) {
            let spend = spends.entry(key).or_default();
            spend.calls += 1;
            spend.micro_usd += micro;
            spend.tokens = spend.tokens.saturating_add(input.saturating_add(output));
        }
    }
}

/// What the live calls of each scope (a suite, a configuration) spent in this process.
static SPENDS: std::sync::LazyLock<Mutex<HashMap<String, Spend>>> =
    std::sync::LazyLock::new(Mutex::default);

/// What the calls counted under `key` spent so far.
fn spent(key: &str) -> Spend {
    SPENDS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(key)
        .copied()
        .unwrap_or_default()
}

/// A live call that ended after `started`, with what its meter was told.
/// The call is priced at `price`.
fn live_record(
    attempt: Option<u32>,
    started: Instant,
    usage: &UsageMeter,
    price: Option<Price>,
    error: Option<String>,
) -> CallRecord {
    let tokens = usage.total();
    CallRecord {
        source: CallSource::Live,
        attempt,
        latency_ms: Some(started.elapsed().as_secs_f64() * 1000.0),
        input_tokens: Some(tokens.input_tokens),
        output_tokens: Some(tokens.output_tokens),
        finish_reason: usage.finish_reason(),
        cost_usd: priced(price, tokens.input_tokens, tokens.output_tokens)
            .map(|micro| micro / 1_000_000.0),
        error,
    }
}

impl Recorder<'_> {
    /// A `generate` that answers an attempt called live in this process with that call's
    /// outcome, replays one whose answer file exists (not in `all` mode), and otherwise
    /// calls the live model (see the [module docs](self)).
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
        let key = (case_id.clone(), attempt);
        if let Some(call) = with_session(dir, |session| session.answers.get(&key).cloned()) {
            self.trace.note(&case_id, Some(attempt), call.record);
            // The trial that made the call wrote its answer before sharing it (outside
            // `all`): this run holds an answer written now, so it writes `prompt.txt` when
            // it is missing too, whichever of the two trials finishes first.
            if call.outcome.is_ok() && self.mode != RecordMode::All {
                self.wrote.store(true, Ordering::Relaxed);
            }
            return call.outcome.map_err(BoxError::from);
        }
        if self.mode != RecordMode::All && self.recordings.has_answer(&case_id, attempt) {
            // Through the generate of the store, so the prompt is kept as in a replay.
            return self
                .trace
                .tap_replay(self.recordings.generate())
                .call(request)
                .await;
        }
        if let Some(refused) = self.spending.refused(dir) {
            // No call is made, so nothing is noted or kept: a later trial asking for this
            // attempt meets the same cap.
            self.trace.note_capped(&refused);
            return Err(refused.into());
        }
        let usage = UsageMeter::default();
        let request = GenerateRequest {
            usage: usage.clone(),
            ..request
        };
        let started = Instant::now();
        let answer = self.live.call_within(request, Some(self.timeout)).await;
        let price = self.spending.configuration.price_of(false);
        let tokens = usage.total();
        self.spending
            .add(dir, tokens.input_tokens, tokens.output_tokens, price);
        let mut outcome = answer.map_err(|failure| live_failure("generate", failure).to_string());
        if let Ok(text) = &outcome
            && self.mode != RecordMode::All
        {
            match self.recordings.write_answer(&case_id, attempt, text) {
                Ok(()) => self.wrote.store(true, Ordering::Relaxed),
                Err(error) => outcome = Err(error),
            }
        }
        let record = live_record(
            Some(attempt),
            started,
            &usage,
            price,
            outcome.as_ref().err().cloned(),
        );
        self.trace.note(&case_id, Some(attempt), record.clone());
        with_session(dir, |session| {
            session.answers.insert(
                key,
                LiveCall {
                    outcome: outcome.clone(),
                    record,
                },
            );
        });
        outcome.map_err(BoxError::from)
    }

    /// A `judge` that answers a verdict given live in this process for the same rendering
    /// with that call's outcome, replays one recorded for it (not in `all` mode), and
    /// otherwise asks the live judge.
    fn judge(&self) -> Judge<'_> {
        Judge::new(move |request: JudgeRequest| self.verdict(request))
    }

    async fn verdict(&self, request: JudgeRequest) -> Result<AnswerabilityVerdict, BoxError> {
        let dir = self.recordings.dir();
        let case_id = recording_name(&request.eval_case.id, request.repeat);
        let lock = case_lock(dir, &case_id);
        let _recording = lock.lock().await;
        let judged = with_session(dir, |session| session.verdicts.get(&case_id).cloned());
        if let Some(call) = judged {
            let same_rendering = match &call.outcome {
                Ok((_, rendered)) => *rendered == request.rendered,
                Err(_) => true,
            };
            if same_rendering {
                self.trace.note(&case_id, None, call.record);
                return call
                    .outcome
                    .map(|(verdict, _)| verdict)
                    .map_err(BoxError::from);
            }
        }
        let replay = self.mode != RecordMode::All
            && self
                .recordings
                .judgment(&case_id)
                .is_some_and(|recorded| recorded.rendered == request.rendered);
        let Some(live_judge) = self.live_judge.filter(|_| !replay) else {
            return self
                .trace
                .tap_replay_judge(self.recordings.judge())
                .call(request)
                .await;
        };
        if let Some(refused) = self.spending.refused(dir) {
            self.trace.note_capped(&refused);
            return Err(refused.into());
        }
        let rendered = request.rendered.clone();
        let usage = UsageMeter::default();
        let request = JudgeRequest {
            usage: usage.clone(),
            ..request
        };
        let started = Instant::now();
        let verdict = live_judge.call_within(request, Some(self.timeout)).await;
        let price = self.spending.configuration.price_of(true);
        let tokens = usage.total();
        self.spending
            .add(dir, tokens.input_tokens, tokens.output_tokens, price);
        let mut outcome = verdict.map_err(|failure| live_failure("judge", failure).to_string());
        if let Ok(verdict) = &outcome
            && self.mode != RecordMode::All
            && let Err(error) = self.recordings.write_verdict(
                &case_id,
                *verdict,
                &rendered,
                Some((PROVENANCE_KEY, self.provenance.clone())),
            )
        {
            outcome = Err(error);
        }
        let record = live_record(
            None,
            started,
            &usage,
            price,
            outcome.as_ref().err().cloned(),
        );
        self.trace.note(&case_id, None, record.clone());
        with_session(dir, |session| {
            session.verdicts.insert(
                case_id,
                LiveCall {
                    outcome: outcome.clone().map(|verdict| (verdict, rendered)),
                    record,
                },
            );
        });
        outcome.map_err(BoxError::from)
    }

    /// `all` mode, after a run of `recording` whose every call succeeded: puts the answers
    /// and the verdict recorded afresh in place (each written whole, then renamed over the
    /// old file), then removes a recorded attempt the new run did not ask for. Once per
    /// recording per process.
    fn commit(&self, recording: &str) -> Result<(), String> {
        let dir = self.recordings.dir();
        let lock = case_lock(dir, recording);
        let _recording = lock.blocking_lock();
        let (fresh, verdict) = with_session(dir, |session| {
            if session.committed.contains(recording) {
                return (Vec::new(), None);
            }
            let fresh: Vec<(u32, String)> = [0, 1]
                .into_iter()
                .filter_map(|attempt| {
                    let call = session.answers.get(&(recording.to_owned(), attempt))?;
                    Some((attempt, call.outcome.clone().ok()?))
                })
                .collect();
            let verdict = session
                .verdicts
                .get(recording)
                .and_then(|call| call.outcome.clone().ok());
            (fresh, verdict)
        });
        if fresh.is_empty() {
            return Ok(());
        }
        for (attempt, text) in &fresh {
            self.recordings.write_answer(recording, *attempt, text)?;
        }
        for attempt in [0, 1] {
            if !fresh.iter().any(|(fresh, _)| *fresh == attempt) {
                self.recordings.remove_answer(recording, attempt)?;
            }
        }
        if let Some((verdict, rendered)) = verdict {
            self.recordings.write_verdict(
                recording,
                verdict,
                &rendered,
                Some((PROVENANCE_KEY, self.provenance.clone())),
            )?;
        }
        self.wrote.store(true, Ordering::Relaxed);
        with_session(dir, |session| {
            session.committed.insert(recording.to_owned());
        });
        Ok(())
    }

    /// After the run: when this trial's run holds an answer written in this process, notes
    /// the provenance in `corpus.json` and writes `prompt.txt` (in `all` mode, or when it
    /// is missing; in `missing` mode a differing `prompt.txt` is kept, and `totals` names
    /// the mismatch, since the older answers were written from it).
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
    UtcNow::now().date()
}

/// A moment in UTC, to the millisecond, as the run file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct UtcNow {
    millis: u128,
}

impl UtcNow {
    /// Now, by the system clock (the epoch when the clock is set before it).
    pub(super) fn now() -> Self {
        let millis = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_millis());
        UtcNow { millis }
    }

    fn parts(self) -> (u64, u64, u64, u64, u64, u64, u64) {
        let seconds = u64::try_from(self.millis / 1000).unwrap_or(u64::MAX);
        let (year, month, day) = civil_from_days(seconds / 86_400);
        let of_day = seconds % 86_400;
        let millis = u64::try_from(self.millis % 1000).unwrap_or(0);
        (
            year,
            month,
            day,
            of_day / 3600,
            of_day / 60 % 60,
            of_day % 60,
            millis,
        )
    }

    /// `YYYY-MM-DD`.
    fn date(self) -> String {
        let (year, month, day, ..) = self.parts();
        format!("{year:04}-{month:02}-{day:02}")
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339).
    pub(super) fn rfc3339(self) -> String {
        let (year, month, day, hour, minute, second, _) = self.parts();
        format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
    }

    /// `YYYYMMDDTHHMMSS.mmmZ`, for a file name.
    pub(super) fn stamp(self) -> String {
        let (year, month, day, hour, minute, second, millis) = self.parts();
        format!("{year:04}{month:02}{day:02}T{hour:02}{minute:02}{second:02}.{millis:03}Z")
    }
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

    #[test]
    fn moments_print_as_rfc3339_and_as_a_file_stamp() {
        // 2026-12-06T19:50:03.045Z
        let moment = UtcNow {
            millis: (20_793 * 86_400 + 19 * 3600 + 50 * 60 + 3) * 1000 + 45,
        };
        assert_eq!(moment.rfc3339(), "2026-12-06T19:50:03Z");
        assert_eq!(moment.stamp(), "20261206T195003.045Z");
        assert_eq!(moment.date(), "2026-12-06");
    }
}
