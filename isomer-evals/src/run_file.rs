//! The run file: what one run of a suite did, per case and attempt, as one JSON document
//! ([`RunFile`]).
//!
//! The eval harness writes one per suite and run, replay, record and measure alike, to
//! `target/isomer/<suite>/run-<started>.json` (see [`crate::harness`]); this module only
//! defines the document, and writes no file. It reads back with `serde_json` into the same
//! types, so reports, comparisons between runs and shard merges can read it.
//!
//! # The document, field by field
//!
//! ```json
//! {
//!   "format": 1,
//!   "suite": "slides",
//!   "mode": "record-missing",
//!   "label": { "model": "gpt-4.1", "baseUrl": "https://api.openai.com/v1", "client": "isomer-openai 0.1.0" },
//!   "startedAt": "2026-12-06T19:50:03Z",
//!   "repeat": 1,
//!   "liveCalls": 3,
//!   "measured": { "runs": 2, "generateMs": { "mean": 812.4, "p50": 790.0, "p95": 901.1 }, "...": "..." },
//!   "axes": { "valid": { "mean": 0.5 }, "...": "..." },
//!   "passRates": [ { "caseId": "events-stat", "passed": 1, "runs": 1, "rate": 1.0 } ],
//!   "suiteFloorMisses": [],
//!   "runs": [ { "caseId": "events-stat", "repeat": 0, "passed": true, "...": "..." } ]
//! }
//! ```
//!
//! | field | what |
//! |---|---|
//! | `format` | the version of this format, `1` |
//! | `suite` | the suite name (the first part of its trial names) |
//! | `mode` | how the run got its answers ([`RunMode`]): `replay`, `record-missing`, `record-all` or `measure` |
//! | `label` | the configuration: what the suite's live callbacks report of themselves (`Suite::provenance`: model, base URL, sampling settings, client), `{}` when the suite declares none |
//! | `startedAt` | when the run's `totals` trial started, UTC, `YYYY-MM-DDTHH:MM:SSZ` |
//! | `repeat` | runs per case |
//! | `liveCalls` | model and judge calls made live for this suite by this process (a call made by a case trial and read by `totals` counts once) |
//! | `measured` | latency and tokens over the runs that made a live call ([`MeasuredTotals`]: `runs`, and `generateMs`, `judgeMs`, `inputTokens`, `outputTokens` each as `mean`, `p50`, `p95`); absent when no run made one |
//! | `notMeasured` | present exactly when `measured` is absent: `not measured in replay`, or `no live call in this run` for a record or measure run that had every answer already |
//! | `axes` | per axis, the mean over every run and its standard error across repeats ([`Mean`](crate::report::Mean): `mean`, and `standardError` when `repeat > 1`): `parsed`, `valid`, `validAfterRetry` (flags as `1`/`0`), `selectionF1`, `expectedHit`, `answerabilityYes` (each absent when no run has it) |
//! | `passRates` | per case in corpus order, how many of its runs met every case floor the suite declares ([`PassRate`]: `caseId`, `passed`, `runs`, `rate` = `passed / runs`) |
//! | `suiteFloorMisses` | the suite floors the run missed, as the `totals` trial prints them (`min_valid_ratio: 0.5, floor >= 0.9`); empty when all hold |
//! | `runs` | one entry per run of a case, in corpus order, the repeats of a case together ([`CaseRun`]) |
//!
//! Each entry of `runs` ([`CaseRun`]):
//!
//! | field | what |
//! |---|---|
//! | `caseId`, `repeat` | the case and which of its runs this is (`0 .. repeat`) |
//! | `passed` | whether the run met every case floor the suite declares (`min_pass_rate` aside) |
//! | `floorMisses` | the case floors it missed, as the case trial prints them |
//! | `scores` | [`RunScores`]: `parsed`, `valid`, `validAfterRetry`, `rawBytes` (the first attempt's bytes), and `selectionF1`, `expectedHit`, `answerability` (`yes`, `partial`, `no`) when the run has them |
//! | `attempts` | one [`CallRecord`] per `generate` attempt the run asked for (`0`, then `1` for the retry) |
//! | `judge` | the [`CallRecord`] of the judge call, when the run was judged |
//! | `error` | why the run did not complete (`generate attempt 1 failed: ...`), when it did not |
//!
//! Each [`CallRecord`]: `source` (`live`: the model was called in this process, by this
//! trial or another; `recording`: the answer was read from its file), `attempt` (absent for
//! the judge), and for a live call `latencyMs` (wall time from the call's start to its answer
//! or failure, taken where the call was made), `inputTokens` and `outputTokens` (as the
//! callback reported them), `finishReason` (when the callback reported one); `error` when
//! the call failed. A recording has no latency or tokens: a replay measures nothing.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::case::AnswerabilityVerdict;
use crate::report::MeasuredTotals;
pub use crate::report::repeats::Axes;

/// The format version [`RunFile::format`] holds.
pub(crate) const RUN_FILE_FORMAT: u32 = 1;

/// What [`RunFile::not_measured`] says of a replay.
pub(crate) const NOT_MEASURED_IN_REPLAY: &str = "not measured in replay";

/// What [`RunFile::not_measured`] says of a record or measure run that made no live call.
pub(crate) const NO_LIVE_CALL: &str = "no live call in this run";

/// One run of one suite. See the [module docs](self) for every field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunFile {
    /// The format version, `1`.
    pub format: u32,
    /// The suite name.
    pub suite: String,
    /// How the run got its answers.
    pub mode: RunMode,
    /// What the suite's live callbacks report of themselves; empty when none.
    pub label: Map<String, Value>,
    /// When the `totals` trial started, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub started_at: String,
    /// Runs per case.
    pub repeat: u32,
    /// Live calls made for this suite by this process.
    pub live_calls: usize,
    /// Latency and tokens over the runs that made a live call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<MeasuredTotals>,
    /// Why nothing was measured (`not measured in replay` or `no live call in this run`), exactly
    /// when `measured` is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_measured: Option<String>,
    /// Per axis, the mean and its standard error across repeats.
    pub axes: Axes,
    /// Per case, the runs that met its case floors.
    pub pass_rates: Vec<PassRate>,
    /// The suite floors the run missed.
    pub suite_floor_misses: Vec<String>,
    /// Every run of every case.
    pub runs: Vec<CaseRun>,
}

/// How a run got its answers: the harness's `ISOMER_EVAL_RECORD` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunMode {
    /// Every answer read from its recording (the variable unset).
    Replay,
    /// `missing`: the model called for the attempts without a recording.
    RecordMissing,
    /// `all`: every attempt recorded afresh.
    RecordAll,
    /// `measure`: recorded as `missing`, checked against the floors, the baseline left
    /// alone.
    Measure,
}

/// How many runs of one case met its case floors: `k of n`.
///
/// `rate` is the empirical per-run pass rate `passed / runs`, what the `min_pass_rate`
/// floor reads. It is neither pass@k (the chance that at least one of `k` tries passes)
/// nor pass^k (the chance that all `k` pass), which are estimated from it: a rate of
/// `1.0` over `n` runs is the pass^n requirement (every run passed), and any rate above
/// `0` means pass@n held (some run passed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PassRate {
    /// The case's id.
    pub case_id: String,
    /// Runs that met every case floor.
    pub passed: usize,
    /// Runs of the case.
    pub runs: usize,
    /// `passed / runs`.
    pub rate: f64,
}

/// One run of one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseRun {
    /// The case's id.
    pub case_id: String,
    /// Which run of the case, `0 .. repeat`.
    pub repeat: u32,
    /// Whether the run met every case floor (`min_pass_rate` aside).
    pub passed: bool,
    /// The case floors it missed, as printed.
    pub floor_misses: Vec<String>,
    /// Its scores.
    pub scores: RunScores,
    /// The `generate` attempts it asked for, in order.
    pub attempts: Vec<CallRecord>,
    /// The judge call, when the run was judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<CallRecord>,
    /// Why the run did not complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The scores of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunScores {
    /// The first attempt was JSON.
    pub parsed: bool,
    /// The first attempt was valid.
    pub valid: bool,
    /// Valid on the first attempt or the retry.
    pub valid_after_retry: bool,
    /// The first attempt's bytes as sent.
    pub raw_bytes: usize,
    /// Selection F1 against the golden, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection_f1: Option<f64>,
    /// Whether an expected type was used, when the case lists some.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_hit: Option<bool>,
    /// The judge's verdict, when judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answerability: Option<AnswerabilityVerdict>,
}

/// Where a call's answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CallSource {
    /// The model (or judge) was called in this process.
    Live,
    /// The answer was read from its recording.
    Recording,
}

/// One `generate` attempt or judge call of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallRecord {
    /// Where the answer came from.
    pub source: CallSource,
    /// The attempt (`0`, `1`); absent for the judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt: Option<u32>,
    /// Wall time of a live call in milliseconds, taken where it was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<f64>,
    /// Input tokens a live call reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Output tokens a live call reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// The finish reason a live call reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// Why the call failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
