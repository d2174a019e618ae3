//! Agent gates: `#[isomer_eval(corpus = "...", agent, ...)]` runs a recorded agent corpus
//! (see [`crate::agent`]) as cargo tests, with the agent floors of [`crate::floor`].
//!
//! ```ignore
//! #[isomer_evals::isomer_eval(
//!     corpus = "../corpus/slides-agent",
//!     agent,
//!     finished,
//!     valid,
//!     max_turns = 6,
//!     max_mean_turns = 4.375,
//!     min_expected_hit_ratio = 0.875,
//! )]
//! fn slides_agent() -> isomer_evals::harness::agent::AgentSuite {
//!     let runtime = std::sync::Arc::new(isomer_slides::runtime().expect("the runtime builds"));
//!     let tools = slides_tools(&runtime); // Vec<isomer_sdk::Tool>
//!     AgentSuite::new(runtime, tools).frame(isomer_slides::slide_deck_frame())
//! }
//! ```
//!
//! The function returns an [`AgentSuite`]: the runtime the answers are scored against, the
//! tools offered to the model (the sdk's `Tool`, so this crate needs no dependency on the
//! agent tools) and the [`RunAgentEvalsOptions`] it runs with. The harness supplies the
//! corpus and the step replaying its transcripts itself and never calls a model. The
//! attribute keys are the single-shot ones (`corpus`, `name`, `main`, `snapshots`,
//! `crate`) plus `agent`; with `agent` only the agent floors are accepted, and a
//! single-shot floor name is a compile error (and the other way round).
//!
//! # Trials
//!
//! - `<suite>::<case id>` replays every run of that case (`repeat` runs) from
//!   `transcripts/<case id>.<repeat>.json` alone, opening no other transcript, so
//!   `--exact` and cargo-nextest read one case's recordings. It fails when a run is below a
//!   declared case floor (each miss with its value and the floor), a turn it asked for is
//!   missing, a turn is stale (the tools now answer its calls differently), the run's step
//!   failed, or a transcript cannot be read:
//!
//!   ```text
//!   case `release-plan` is below its floors (finished, valid):
//!     finished: false, floor true
//!     valid: false, floor true
//!   missing turns (the replay answers them with an empty turn, ending the run): transcripts/release-plan.0.json turn 0
//!   the answer's validation errors (1):
//!     EOF while parsing a value at line 1 column 0
//!   ```
//!
//! - `<suite>::totals` replays the whole corpus and fails when a declared suite floor does
//!   not hold, any turn is missing or stale, a run did not complete, the transcripts
//!   directory holds a transcript no replay of the corpus reads (an unknown case id or a
//!   repeat past the suite's), or the baseline moved.
//!
//! # Baseline
//!
//! `totals` compares three snapshot files in the `snapshots` directory, as a single-shot
//! suite does (see [`super`]): `<suite>__report.snap` (the [`AgentEvalReport`] as JSON),
//! `<suite>__report_text.snap`
//! ([`format_agent_report`](crate::agent::format_agent_report)'s text) and
//! `<suite>__baseline.snap` (`{ "missingTurns", "staleTurns" }`, the lists of turns as
//! `{ "caseId", "repeat", "turn" }`, the agent counterpart of the single-shot `missingRecordings` /
//! `staleJudgments`). Accept a moved baseline with
//! `ISOMER_EVAL_ACCEPT=1 cargo test --test <target> -- --exact <suite>::totals`, then read
//! the `.snap` diff.

//! # Variables, several suites
//!
//! `ISOMER_EVAL_RECORDINGS_<SUITE>` (the suite name upper-cased, every other character than an ASCII letter or digit as `_`) names a directory to
//! replay `transcripts/` from instead of the corpus directory. Several agent suites in one
//! target: `main = false` on each and `isomer_evals::main!(a, b);`, which also takes
//! single-shot suites beside agent ones; or
//! `fn main() -> ExitCode { isomer_evals::harness::run(&[isomer_evals::suite!(a), isomer_evals::suite!(b)]) }`
//! ([`super::run`] takes suites of either kind).

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use isomer_sdk::Tool;
use libtest_mimic::Failed;
use serde_json::json;

use super::html;
use super::kind::{SuiteKind, SuiteTrial, write_errored, write_errors, write_misses};
use super::snapshot::conclude_totals;
use crate::agent::{
    AgentEvalCaseResult, AgentEvalReport, AgentRecordingError, AgentReplay, AgentStep,
    DEFAULT_AGENT_SYSTEM, DEFAULT_MAX_TURNS, RunAgentEvalsOptions, TRANSCRIPTS_DIR, TurnKey,
    read_agent_case_recordings, read_agent_recordings, run_agent_evals,
};
use crate::case::{EvalCase, ExpectedTools};
use crate::floor::{Floor, misses};
use crate::html::AgentPage;
use crate::runtime::{EvalFrame, EvalRuntime};
use isomer_corpus::{AGENT_FLOORS, FloorLevel, FloorSpec};

/// What an agent `#[isomer_eval]` function returns: the runtime the answers are scored
/// against, the tools offered to the model, and the run options
/// ([`RunAgentEvalsOptions`]'s defaults unless set). The harness calls the function once
/// per process, when the first trial of the suite runs, as it does for a single-shot
/// [`Suite`](super::Suite).
pub struct AgentSuite {
    runtime: Arc<dyn EvalRuntime + Send + Sync>,
    tools: Vec<Tool>,
    system: String,
    repeat: u32,
    max_turns: u32,
    concurrency: usize,
    frame: Option<Box<dyn EvalFrame + Send>>,
    live: Option<AgentStep<'static>>,
    provenance: serde_json::Map<String, serde_json::Value>,
    timeout: std::time::Duration,
    expected_tools: Option<ExpectedTools>,
}

impl AgentSuite {
    /// A suite scoring against `runtime` and offering `tools` in this order, with the
    /// defaults: the default system prompt of
    /// [`RunAgentEvalsOptions::system`](crate::agent::RunAgentEvalsOptions::system), one run per case, 12 turns, one
    /// run in flight, no frame. The runtime is shared (`Arc`) because the tools usually
    /// wrap the same one.
    pub fn new<R: EvalRuntime + Send + Sync + 'static>(runtime: Arc<R>, tools: Vec<Tool>) -> Self {
        AgentSuite {
            runtime,
            tools,
            system: DEFAULT_AGENT_SYSTEM.to_owned(),
            repeat: 1,
            max_turns: DEFAULT_MAX_TURNS,
            concurrency: 1,
            frame: None,
            live: None,
            provenance: serde_json::Map::new(),
            timeout: super::suite::DEFAULT_LIVE_TIMEOUT,
            expected_tools: None,
        }
    }

    /// The tools every run is expected to call, for the cases whose `corpus.json` entry
    /// states none of its own (`expectedTools` or `expectedToolSet`, which win): scored
    /// per run as `tools_called` and gated by the `tools_called` and
    /// `min_tools_called_ratio` floors (default none, and those floors then exempt every
    /// case that states none).
    ///
    /// ```no_run
    /// # fn example(runtime: std::sync::Arc<isomer_sdk::Runtime>, tools: Vec<isomer_sdk::Tool>) {
    /// use isomer_evals::ExpectedTools;
    /// use isomer_evals::harness::agent::AgentSuite;
    ///
    /// let suite = AgentSuite::new(runtime, tools)
    ///     .expected_tools(ExpectedTools::in_order(["isomer_validate", "isomer_render"]));
    /// # }
    /// ```
    pub fn expected_tools(mut self, expected: ExpectedTools) -> Self {
        self.expected_tools = Some(expected);
        self
    }

    /// The system prompt of every turn (default: that of
    /// [`RunAgentEvalsOptions::system`](crate::agent::RunAgentEvalsOptions::system)).
    pub fn system(mut self, system: impl Into<String>) -> Self {
        self.system = system.into();
        self
    }

    /// Runs per case (default `1`; `0` counts as `1`): transcripts `<id>.0.json` up to
    /// `<id>.<repeat - 1>.json` are replayed.
    pub fn repeat(mut self, repeat: u32) -> Self {
        self.repeat = repeat.max(1);
        self
    }

    /// Model turns a run may take before it ends unfinished (default
    /// 12; `0` counts as `1`).
    pub fn max_turns(mut self, max_turns: u32) -> Self {
        self.max_turns = max_turns;
        self
    }

    /// Runs in flight at once within one trial (default `1`; `0` counts as `1`).
    pub fn concurrency(mut self, concurrency: usize) -> Self {
        self.concurrency = concurrency;
        self
    }

    /// A frame whose body rule every answer must also pass (default none).
    pub fn frame(mut self, frame: impl EvalFrame + Send + 'static) -> Self {
        self.frame = Some(Box::new(frame));
        self
    }

    /// The system prompt of every turn, as set with [`AgentSuite::system`].
    pub(super) fn system_prompt(&self) -> &str {
        &self.system
    }

    /// The live model step record mode calls for each run it records (default none; a
    /// replay never calls it). See [`super`]'s "Recording a corpus": with
    /// `ISOMER_EVAL_RECORD=missing` the runs without `transcripts/<id>.<repeat>.json` are
    /// driven live and their transcripts written, with each turn's tool results, once the
    /// run has ended (a run whose step fails writes nothing); `all` records every run
    /// afresh. The trial then replays what was recorded.
    pub fn live(mut self, step: AgentStep<'static>) -> Self {
        self.live = Some(step);
        self
    }

    /// What the live step reports of itself (model, version, settings), written with the
    /// date into `provenance.recording` of `corpus.json` when record mode writes a turn.
    pub fn provenance(mut self, provenance: serde_json::Map<String, serde_json::Value>) -> Self {
        self.provenance = provenance;
        self
    }

    /// How long one live step may run in record mode before it ends its run with a step
    /// error (default [`super::DEFAULT_LIVE_TIMEOUT`], 120 s).
    pub fn timeout(mut self, timeout: std::time::Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// In record mode, drives `cases` through the live step for the runs to record
    /// (writing their transcripts) before the trial replays them; does nothing otherwise.
    fn record(&self, suite: &str, dir: &Path, cases: &[EvalCase]) -> Result<(), Failed> {
        let Some(mode) = super::record::record_mode()? else {
            return Ok(());
        };
        if mode == super::record::RecordMode::Measure {
            return Err(format!(
                "{}=measure is for single-shot suites, and `{suite}` is an agent suite: record it with `missing` or `all`",
                super::record::RECORD_VARIABLE
            )
            .into());
        }
        super::record::open_session(dir)?;
        let Some(live) = &self.live else {
            return Err(format!(
                "{} asks suite `{suite}` to record, but it declares no live model: return `AgentSuite::new(runtime, tools).live(step)` from its #[isomer_eval] function (isomer-openai's `ChatClient::step` gives one), or unset {} to replay",
                super::record::RECORD_VARIABLE,
                super::record::RECORD_VARIABLE
            )
            .into());
        };
        let recorder = super::agent_record::StepRecorder::new(
            mode,
            dir,
            live,
            self.timeout,
            self.max_turns,
            super::record::provenance(&self.provenance),
        );
        drop(self.run(cases.to_vec(), recorder.step()));
        recorder.finish()?;
        Ok(())
    }

    /// Runs `corpus` through [`run_agent_evals`] with `step`, to completion on the calling
    /// thread.
    fn run(&self, mut corpus: Vec<EvalCase>, step: AgentStep<'_>) -> AgentEvalReport {
        if let Some(expected) = &self.expected_tools {
            for case in corpus
                .iter_mut()
                .filter(|case| case.expected_tools.is_none())
            {
                case.expected_tools = Some(expected.clone());
            }
        }
        let mut options =
            RunAgentEvalsOptions::new(&*self.runtime, self.tools.clone(), corpus, step);
        options.system = self.system.clone();
        options.repeat = self.repeat;
        options.max_turns = self.max_turns;
        options.concurrency = self.concurrency;
        options.frame = self.frame.as_deref().map(|frame| frame as &dyn EvalFrame);
        super::suite::block_on(run_agent_evals(options))
    }
}

impl std::fmt::Debug for AgentSuite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentSuite")
            .field(
                "tools",
                &self.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
            )
            .field("system", &self.system)
            .field("repeat", &self.repeat)
            .field("max_turns", &self.max_turns)
            .field("concurrency", &self.concurrency)
            .field("frame", &self.frame.is_some())
            .field("live", &self.live.is_some())
            .field("provenance", &self.provenance)
            .field("timeout", &self.timeout)
            .field("expected_tools", &self.expected_tools)
            .finish_non_exhaustive()
    }
}

impl SuiteKind for AgentSuite {
    const HOLDING: &'static str = "transcripts/";
    const FLOORS: &'static [FloorSpec] = AGENT_FLOORS;

    /// The `<suite>::<case id>` trial: only this case's bytes of the manifest and only its
    /// own transcripts are read.
    fn run_case(trial: SuiteTrial<Self>, case: EvalCase) -> Result<(), Failed> {
        let SuiteTrial { suite, built, dir } = trial;
        built.record(suite.name, dir, std::slice::from_ref(&case))?;
        let recordings = read_agent_case_recordings(dir, &case.id, built.repeat)
            .map_err(|errors| recording_errors(&errors))?;
        let replay = AgentReplay::new(recordings);
        let case_id = case.id.clone();
        let report = built.run(vec![case], replay.step());
        let message = case_message(
            &case_id,
            suite.floors,
            built.repeat,
            &report.results,
            &replay.missing_turns(),
            &replay.stale_turns(),
        );
        match message {
            None => Ok(()),
            Some(message) => Err(message.into()),
        }
    }

    /// The `<suite>::totals` trial.
    fn run_totals(trial: SuiteTrial<Self>, cases: Vec<EvalCase>) -> Result<(), Failed> {
        let SuiteTrial { suite, built, dir } = trial;
        built.record(suite.name, dir, &cases)?;
        let recordings = read_agent_recordings(dir).map_err(|errors| recording_errors(&errors))?;
        let ids: HashSet<&str> = suite.corpus.cases.iter().map(|case| case.id).collect();
        let unread: Vec<String> = recordings
            .keys()
            .filter(|(id, repeat)| !ids.contains(id.as_str()) || *repeat >= built.repeat)
            .map(|(id, repeat)| format!("{TRANSCRIPTS_DIR}/{id}.{repeat}.json"))
            .collect();
        let replay = AgentReplay::new(recordings);
        let html = html::html_dir();
        let page_cases = html.as_ref().map(|_| cases.clone());
        let report = built.run(cases, replay.step());
        let (missing, stale) = (replay.missing_turns(), replay.stale_turns());

        let mut out = String::new();
        let errored = report.results.iter().filter_map(|run| {
            let error = run.error.as_ref()?;
            Some((format!("{} run {}", run.case_id, run.repeat), error))
        });
        write_errored(&mut out, "runs that did not complete", errored);
        turn_lines(&mut out, &missing, &stale);
        if !unread.is_empty() {
            let _ = writeln!(
                out,
                "transcripts no replay of the corpus reads (an unknown case id, or a repeat past the suite's {}; rename or delete them): {}",
                built.repeat,
                unread.join(", ")
            );
        }
        let baseline = json!({ "missingTurns": missing, "staleTurns": stale });
        if let (Some(html), Some(cases)) = (&html, &page_cases) {
            let page = AgentPage::new(suite.name, &report, cases, &*built.runtime)
                .transcripts(replay.recordings())
                .floors(suite.floors)
                .turns(&missing, &stale);
            html::write_report_page(html, suite, page, &mut out);
        }
        conclude_totals(suite, &report.totals, &[], out, &report, &baseline)
    }
}

fn recording_errors(errors: &[AgentRecordingError]) -> String {
    let mut out = String::from("transcripts that cannot be replayed:");
    for error in errors {
        let _ = write!(out, "\n  {error}");
    }
    out
}

/// The failure message of a case trial over its runs, or `None` when it passes.
fn case_message(
    case_id: &str,
    floors: &[Floor],
    repeat: u32,
    runs: &[AgentEvalCaseResult],
    missing: &[TurnKey],
    stale: &[TurnKey],
) -> Option<String> {
    let mut out = String::new();
    let mut below = Vec::new();
    for run in runs {
        let prefix = if repeat > 1 {
            format!("run {}: ", run.repeat)
        } else {
            String::new()
        };
        for miss in misses(floors, AGENT_FLOORS, FloorLevel::Case, run) {
            below.push(format!("{prefix}{miss}"));
        }
        if let Some(error) = &run.error {
            let _ = writeln!(out, "case `{case_id}` {prefix}did not complete: {error}");
        }
    }
    write_misses(&mut out, &format!("case `{case_id}`"), &below);
    turn_lines(&mut out, missing, stale);
    if out.is_empty() {
        return None;
    }
    for run in runs.iter().filter(|run| !run.errors.is_empty()) {
        let prefix = if repeat > 1 {
            format!("run {}: ", run.repeat)
        } else {
            String::new()
        };
        write_errors(
            &mut out,
            &format!("{prefix}the answer's validation errors"),
            &run.errors,
        );
    }
    Some(out.trim_end().to_owned())
}

fn join(keys: &[TurnKey]) -> String {
    keys.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn turn_lines(out: &mut String, missing: &[TurnKey], stale: &[TurnKey]) {
    if !missing.is_empty() {
        let _ = writeln!(
            out,
            "missing turns (the replay answers them with an empty turn, ending the run): {}",
            join(missing)
        );
    }
    if !stale.is_empty() {
        let _ = writeln!(
            out,
            "stale turns (the tools now answer the calls before them differently; re-record): {}",
            join(stale)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(value: serde_json::Value) -> AgentEvalCaseResult {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn case_message_names_misses_per_run_missing_turns_and_errors() {
        let run = |repeat: u32, finished: bool| -> AgentEvalCaseResult {
            run(json!({
                "caseId": "a", "repeat": repeat, "finished": finished, "turns": 7,
                "usage": { "inputTokens": 0, "outputTokens": 0 }, "toolResultBytes": 0,
                "calls": [], "answer": "", "parsed": false, "valid": false,
                "errors": ["EOF while parsing a value at line 1 column 0"]
            }))
        };
        let missing = [TurnKey {
            case_id: "a".into(),
            repeat: 1,
            turn: 0,
        }];
        let floors = [Floor::flag("finished"), Floor::count("max_turns", 6)];
        assert_eq!(
            case_message("a", &floors, 2, &[run(0, true), run(1, false)], &missing, &[]).unwrap(),
            "case `a` is below its floors:
  run 0: max_turns: 7, floor <= 6
  run 1: finished: false, floor true
  run 1: max_turns: 7, floor <= 6
missing turns (the replay answers them with an empty turn, ending the run): transcripts/a.1.json turn 0
run 0: the answer's validation errors (1):
  EOF while parsing a value at line 1 column 0
run 1: the answer's validation errors (1):
  EOF while parsing a value at line 1 column 0"
        );
        assert_eq!(case_message("a", &[], 1, &[run(0, false)], &[], &[]), None);
    }

    /// The `tools_called` floor: a run whose calls meet its case's expected tools passes,
    /// one whose calls do not fails its case trial naming both; a case that states none is
    /// exempt; `min_tools_called_ratio` reads the runs of the cases that state some.
    #[test]
    fn the_tools_called_floor_names_the_calls_and_the_expectation() {
        let run = |case_id: &str, calls: &[&str], expected: Option<serde_json::Value>| {
            let mut value = json!({
                "caseId": case_id, "repeat": 0, "finished": true, "turns": 2,
                "usage": { "inputTokens": 0, "outputTokens": 0 }, "toolResultBytes": 0,
                "calls": calls.iter().map(|name| json!({
                    "turn": 0, "name": name, "isError": false, "resultBytes": 1
                })).collect::<Vec<_>>(),
                "answer": "", "parsed": true, "valid": true, "errors": []
            });
            if let Some(expected) = expected {
                value["toolsCalled"] = expected;
            }
            run(value)
        };
        let floors = [Floor::flag("tools_called")];
        let in_order = json!({
            "met": true,
            "expected": { "names": ["isomer_validate", "isomer_render"], "order": "inOrder" }
        });
        let passed = run(
            "ordered",
            &[
                "isomer_validate",
                "isomer_describe_primitives",
                "isomer_render",
            ],
            Some(in_order),
        );
        assert_eq!(
            case_message("ordered", &floors, 1, &[passed], &[], &[]),
            None
        );
        let as_set = json!({
            "met": false,
            "expected": { "names": ["isomer_render", "isomer_authoring_guide"], "order": "anyOrder" }
        });
        let failed = run(
            "as-set",
            &["isomer_validate", "isomer_render"],
            Some(as_set),
        );
        assert_eq!(
            case_message("as-set", &floors, 1, std::slice::from_ref(&failed), &[], &[]).unwrap(),
            "case `as-set` is below its floors:
  tools_called: false, floor true (called [isomer_validate, isomer_render]; expected in any order [isomer_render, isomer_authoring_guide])"
        );
        let unstated = run("unstated", &[], None);
        assert_eq!(
            case_message("unstated", &floors, 1, &[unstated], &[], &[]),
            None
        );

        let totals = crate::agent::AgentEvalTotals::from_results(
            &[
                run(
                    "ordered",
                    &["isomer_validate", "isomer_render"],
                    Some(json!({
                        "met": true,
                        "expected": { "names": ["isomer_validate", "isomer_render"], "order": "inOrder" }
                    })),
                ),
                failed,
                run("unstated", &[], None),
            ],
            1,
            &[],
        );
        assert_eq!(
            misses(
                &[Floor::number("min_tools_called_ratio", 0.75)],
                AGENT_FLOORS,
                FloorLevel::Suite,
                &totals
            ),
            ["min_tools_called_ratio: 0.5, floor >= 0.75"]
        );
        let none = crate::agent::AgentEvalTotals::from_results(&[], 1, &[]);
        assert_eq!(
            misses(
                &[Floor::number("min_tools_called_ratio", 0.0)],
                AGENT_FLOORS,
                FloorLevel::Suite,
                &none
            ),
            ["min_tools_called_ratio: none (no case states expected tools), floor >= 0"]
        );
    }
}
