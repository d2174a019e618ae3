//! The run file: what one run of a suite did, per case and attempt, as one JSON document
//! ([`RunFile`]).
//!
//! The eval harness writes one per suite, model configuration and run, replay, record and
//! measure alike, to `target/isomer/<suite>/run-<started>.json`, or
//! `run-<configuration>-<started>.json` for a configuration with a label (see
//! [`crate::harness`] and [`crate::harness::Configuration`]); this module only
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
//!   "configuration": "gpt-4.1",
//!   "label": { "model": "gpt-4.1", "baseUrl": "https://api.openai.com/v1", "client": "isomer-openai 0.1.0" },
//!   "price": { "inputUsdPerMillion": 2.0, "outputUsdPerMillion": 8.0 },
//!   "startedAt": "2026-12-06T19:50:03Z",
//!   "repeat": 1,
//!   "liveCalls": 3,
//!   "costUsd": 0.0213,
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
//! | `configuration` | the label of the model configuration the run went through (`Configuration::new("gpt-4.1")`, see [`crate::harness::Configuration`]); absent for a suite that declares no configuration (its live model set with `Suite::live`), and in run files written before configurations existed |
//! | `label` | what the configuration's live callbacks report of themselves (`Configuration::provenance` or `Suite::provenance`: model, base URL, sampling settings, client), `{}` when none is declared |
//! | `price` | the configuration's price ([`Price`]: `inputUsdPerMillion`, `outputUsdPerMillion`, US dollars per million tokens); absent when it declares none |
//! | `judgePrice` | the price of its judge calls, when it declares one apart from `price` |
//! | `startedAt` | when the run's `totals` trial started, UTC, `YYYY-MM-DDTHH:MM:SSZ` |
//! | `repeat` | runs per case |
//! | `liveCalls` | model and judge calls made live for this suite by this process (a call made by a case trial and read by `totals` counts once) |
//! | `costUsd` | what the live calls of the run cost in US dollars, the sum over `runs` of their `costUsd`; absent when no live call was priced (no price declared, or no call reported tokens) |
//! | `capReached` | why live calls were refused in this run: the cap that was reached, its limit and the spend so far (`max_cost cap of configuration `gpt-4.1` reached: 0.012 USD spent by 3 live calls, cap 0.01 USD; no further live call is made in this run`); absent when no cap stopped a call |
//! | `measured` | latency and tokens over the runs that made a live call ([`MeasuredTotals`]: `runs`, and `generateMs`, `judgeMs`, `inputTokens`, `outputTokens` each as `mean`, `p50`, `p95`); absent when no run made one |
//! | `notMeasured` | present exactly when `measured` is absent: `not measured in replay`, or `no live call in this run` for a record or measure run that had every answer already |
//! | `axes` | per axis, the mean over every run and its standard error across repeats ([`Mean`](crate::report::Mean): `mean`, and `standardError` when `repeat > 1`): `parsed`, `valid`, `validAfterRetry` (flags as `1`/`0`), `selectionF1`, `expectedHit`, `answerabilityYes` (each absent when no run has it), and `scorers`: each pack scorer's by name (absent when the suite has none) |
//! | `passRates` | per case in corpus order, how many of its runs met every case floor the suite declares ([`PassRate`]: `caseId`, `passed`, `runs`, `rate` = `passed / runs`) |
//! | `suiteFloorMisses` | the suite floors the run missed, as the `totals` trial prints them (`min_valid_ratio: 0.5, floor >= 0.9`); empty when all hold |
//! | `runs` | one entry per run of a case, in corpus order, the repeats of a case together ([`CaseRun`]) |
//! | `corpus` | the corpus the run read: `digest` (`sha256:<hex>` of `corpus.json` as the gate compiled it in) and `cases` (every case id, in corpus order); absent in files written before shard merges |
//! | `floors` | the floors the suite declares (each `name`, and `value` for a number or a count), so that a merge checks the suite floors again; empty when none, or in older files |
//!
//! [`RunFile::from_json`] reads a file back, refusing text that is not JSON, JSON that is
//! not a run file and another `format`, each with a clear error; a file written before
//! `corpus` and `floors` existed reads, and merges refuse it.
//!
//! Each entry of `runs` ([`CaseRun`]):
//!
//! | field | what |
//! |---|---|
//! | `caseId`, `repeat` | the case and which of its runs this is (`0 .. repeat`) |
//! | `passed` | whether the run met every case floor the suite declares (`min_pass_rate` aside) |
//! | `floorMisses` | the case floors it missed, as the case trial prints them |
//! | `scores` | [`RunScores`]: `parsed`, `valid`, `validAfterRetry`, `rawBytes` (the first attempt's bytes), and `selectionF1`, `expectedHit`, `answerability` (`yes`, `partial`, `no`) when the run has them, and `scorers`: each pack scorer's value by name (`true`/`false` or a number) when one gave it |
//! | `attempts` | one [`CallRecord`] per `generate` attempt the run asked for (`0`, then `1` for the retry) |
//! | `judge` | the [`CallRecord`] of the judge call, when the run was judged |
//! | `costUsd` | what its live calls cost in US dollars (the sum of their `costUsd`); absent when none was priced |
//! | `error` | why the run did not complete (`generate attempt 1 failed: ...`, or the cap that refused its call), when it did not |
//!
//! Each [`CallRecord`]: `source` (`live`: the model was called in this process, by this
//! trial or another; `recording`: the answer was read from its file), `attempt` (absent for
//! the judge), and for a live call `latencyMs` (wall time from the call's start to its answer
//! or failure, taken where the call was made), `inputTokens` and `outputTokens` (as the
//! callback reported them), `finishReason` (when the callback reported one), `costUsd` (the
//! tokens at the configuration's price, see [`Price::cost_usd`]; absent without a price, or
//! when the call reported no token); `error` when the call failed. A recording has no
//! latency, tokens or cost: a replay measures nothing. A call a cap refused was never made
//! and has no entry; its run's `error` names the cap.
//!
//! Sums of costs (a run's, the whole file's) are added in millionths of a dollar (tokens
//! times the price per million) and divided once, so prices and token counts that are
//! whole numbers give sums with no rounding of their own.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::case::AnswerabilityVerdict;
use crate::floor::Floor;
pub use crate::report::repeats::Axes;
use crate::report::scored_run::ScoredRun;
use crate::report::{CaseMeasures, MeasuredTotals};
use crate::scorer::ScorerValue;
use isomer_corpus::SINGLE_SHOT_FLOORS;

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
    /// The label of the model configuration the run went through; `None` for a suite that
    /// declares no configuration, and in older run files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
    /// What the configuration's live callbacks report of themselves; empty when none.
    pub label: Map<String, Value>,
    /// The configuration's price, when it declares one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// The price of its judge calls, when declared apart from [`RunFile::price`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_price: Option<Price>,
    /// When the `totals` trial started, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub started_at: String,
    /// Runs per case.
    pub repeat: u32,
    /// Live calls made for this suite by this process.
    pub live_calls: usize,
    /// What the run's live calls cost, US dollars; `None` when none was priced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// Why live calls were refused: the cap reached, its limit and the spend so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap_reached: Option<String>,
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
    /// The corpus the run read; absent in files written before shard merges. Read by a
    /// shard merge only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) corpus: Option<CorpusVersion>,
    /// The floors the suite declares; empty in files written before shard merges. Read by
    /// comparisons and shard merges, through [`RunFile::declared_floors`].
    #[serde(default)]
    pub(crate) floors: Vec<DeclaredFloor>,
}

impl RunFile {
    /// Reads a run file from its JSON `text`.
    ///
    /// # Errors
    /// [`RunFileError`]: text that is not JSON, JSON that is not a run file (a field
    /// missing or of the wrong type, said as serde says it, with line and column), or a
    /// run file of another [`RunFile::format`] than the one this crate writes (1).
    pub fn from_json(text: &str) -> Result<RunFile, RunFileError> {
        parse(text)
    }

    /// The declared floors as the harness checks them.
    ///
    /// # Errors
    /// A floor a single-shot suite does not have, or declared with a value its kind does
    /// not take (a hand-edited file), said as `<name>: ...`.
    pub(crate) fn declared_floors(&self) -> Result<Vec<Floor>, String> {
        self.floors
            .iter()
            .map(|floor| Floor::from_declared(SINGLE_SHOT_FLOORS, &floor.name, floor.value))
            .collect()
    }
}

/// Reads a run file in one pass when it is one; when serde refuses it, the text is read
/// again as plain JSON to say why, the `format` first, so that a file of another format is
/// named as such rather than as a field serde misses, and a field missing or of the wrong
/// type is said as serde says it, with its line and column.
fn parse(text: &str) -> Result<RunFile, RunFileError> {
    let refusal = match serde_json::from_str::<RunFile>(text) {
        Ok(file) if file.format == RUN_FILE_FORMAT => return Ok(file),
        Ok(file) => return Err(RunFileError::OtherFormat(u64::from(file.format))),
        Err(refusal) => refusal,
    };
    let value: Value = serde_json::from_str(text).map_err(RunFileError::NotJson)?;
    let Some(object) = value.as_object() else {
        return Err(RunFileError::NotARunFile(
            "it is not a JSON object".to_owned(),
        ));
    };
    match object.get("format").map(Value::as_u64) {
        None => Err(RunFileError::NotARunFile(
            "it has no `format` field".to_owned(),
        )),
        Some(Some(format)) if format == u64::from(RUN_FILE_FORMAT) => {
            Err(RunFileError::NotARunFile(refusal.to_string()))
        }
        Some(Some(format)) => Err(RunFileError::OtherFormat(format)),
        Some(None) => Err(RunFileError::NotARunFile(
            "its `format` is not a whole number".to_owned(),
        )),
    }
}

/// A run file as read from somewhere, with the name messages give it: what comparisons
/// and shard merges take.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedRunFile {
    /// Where it was read from, as messages name it (a path as given).
    pub origin: String,
    /// The run file.
    pub file: RunFile,
}

impl NamedRunFile {
    /// Reads the run file `text`, read from `origin`.
    ///
    /// # Errors
    /// As [`RunFile::from_json`].
    pub fn from_json(origin: impl Into<String>, text: &str) -> Result<Self, RunFileError> {
        Ok(NamedRunFile::new(origin, parse(text)?))
    }

    /// A run file kept with its origin.
    pub fn new(origin: impl Into<String>, file: RunFile) -> Self {
        NamedRunFile {
            origin: origin.into(),
            file,
        }
    }

    /// What a comparison heads this run's column with: its configuration's label
    /// ([`RunFile::configuration`]), else its label's `model`, else the last part of its
    /// origin (the file name).
    pub fn header(&self) -> String {
        self.file
            .configuration
            .as_deref()
            .or_else(|| self.file.label.get("model").and_then(Value::as_str))
            .filter(|label| !label.is_empty())
            .map_or_else(
                || {
                    std::path::Path::new(&self.origin).file_name().map_or_else(
                        || self.origin.clone(),
                        |name| name.to_string_lossy().into_owned(),
                    )
                },
                str::to_owned,
            )
    }
}

/// Why a text is not a run file this version reads ([`RunFile::from_json`]).
#[derive(Debug, thiserror::Error)]
pub enum RunFileError {
    /// Not JSON at all.
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    /// JSON, but not a run file.
    #[error("not a run file: {0}")]
    NotARunFile(String),
    /// A run file of another format version.
    #[error("a run file of format {0}; this version reads format {RUN_FILE_FORMAT}")]
    OtherFormat(u64),
}

/// The corpus a run read: what tells two runs of one suite over the same cases apart from
/// runs over an edited corpus.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CorpusVersion {
    /// `sha256:<64 lowercase hex>` of `corpus.json` as the gate compiled it in: any edit of
    /// a case (its id, prompt, golden or expected types) or of the provenance changes it.
    pub(crate) digest: String,
    /// Every case id of the corpus, in corpus order: the order a merge puts the runs in,
    /// and the cases it can tell no shard ran.
    pub(crate) cases: Vec<String>,
}

impl CorpusVersion {
    /// The version of the corpus whose `corpus.json` text is `manifest` and whose case
    /// ids are `cases`, in corpus order.
    pub(crate) fn of(manifest: &str, cases: Vec<String>) -> CorpusVersion {
        use sha2::Digest as _;
        let hash = sha2::Sha256::digest(manifest.as_bytes());
        let hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
        CorpusVersion {
            digest: format!("sha256:{hex}"),
            cases,
        }
    }
}

/// A floor the suite declares, as a run file keeps it: `{ "name": "min_valid_ratio",
/// "value": 0.9 }`, or `{ "name": "valid_after_retry" }` for a flag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct DeclaredFloor {
    /// The floor's name in the single-shot floor table.
    pub(crate) name: String,
    /// Its number or count; absent for a flag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) value: Option<f64>,
}

impl From<&Floor> for DeclaredFloor {
    fn from(floor: &Floor) -> Self {
        DeclaredFloor {
            name: floor.name().to_owned(),
            value: floor.declared_value(),
        }
    }
}

/// What [`RunFile::not_measured`] says for a run in `mode` whose `measured` is absent:
/// [`NOT_MEASURED_IN_REPLAY`] for a replay, [`NO_LIVE_CALL`] otherwise; `None` when
/// something was measured. The harness and a shard merge both say it from here.
pub(crate) fn not_measured(mode: RunMode, measured: Option<&MeasuredTotals>) -> Option<String> {
    match (measured, mode) {
        (Some(_), _) => None,
        (None, RunMode::Replay) => Some(NOT_MEASURED_IN_REPLAY.to_owned()),
        (None, _) => Some(NO_LIVE_CALL.to_owned()),
    }
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

impl PassRate {
    /// The pass rate of each case over its runs, `(case id, whether the run met every
    /// case floor)`, cases in order of first appearance. The run file of a run and a shard
    /// merge both count them here.
    pub(crate) fn tally<'a>(runs: impl IntoIterator<Item = (&'a str, bool)>) -> Vec<PassRate> {
        let mut rates: Vec<PassRate> = Vec::new();
        let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (case_id, passed) in runs {
            let at = *index.entry(case_id).or_insert_with(|| {
                rates.push(PassRate {
                    case_id: case_id.to_owned(),
                    passed: 0,
                    runs: 0,
                    rate: 0.0,
                });
                rates.len() - 1
            });
            rates[at].runs += 1;
            rates[at].passed += usize::from(passed);
        }
        for rate in &mut rates {
            rate.rate = rate.passed as f64 / rate.runs as f64;
        }
        rates
    }
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
    /// What its live calls cost, US dollars; `None` when none was priced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
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
    /// Each pack scorer's value for the run, by scorer name, when a scorer gave one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scorers: BTreeMap<String, ScorerValue>,
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
    /// What a live call cost, US dollars: its tokens at the configuration's price; `None`
    /// without a price, or when the call reported no token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// Why the call failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The price a call is charged at: a judge call's is `judge_price` when declared, else
/// `price`; a `generate` call's is `price`. The harness prices each live call here, and a
/// shard merge its runs again from a run file's `price` and `judgePrice`.
pub(crate) fn price_of(
    price: Option<Price>,
    judge_price: Option<Price>,
    judge: bool,
) -> Option<Price> {
    if judge { judge_price.or(price) } else { price }
}

/// What a model's tokens cost: US dollars per million input (prompt) tokens and per
/// million output (completion) tokens, as providers list their prices.
///
/// ```
/// use isomer_evals::run_file::Price;
///
/// let price = Price::per_million(2.0, 8.0);
/// assert_eq!(price.cost_usd(1000, 500), 0.006);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Price {
    /// US dollars per million input tokens.
    pub input_usd_per_million: f64,
    /// US dollars per million output tokens.
    pub output_usd_per_million: f64,
}

impl Price {
    /// A price of `input` US dollars per million input tokens and `output` per million
    /// output tokens.
    pub const fn per_million(input: f64, output: f64) -> Self {
        Price {
            input_usd_per_million: input,
            output_usd_per_million: output,
        }
    }

    /// What `input_tokens` and `output_tokens` cost, in millionths of a dollar (tokens
    /// times the price per million): the unit sums are kept in, so whole prices and token
    /// counts add with no rounding.
    pub fn micro_usd(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        input_tokens as f64 * self.input_usd_per_million
            + output_tokens as f64 * self.output_usd_per_million
    }

    /// What `input_tokens` and `output_tokens` cost, in US dollars:
    /// [`Price::micro_usd`] divided by a million.
    pub fn cost_usd(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        self.micro_usd(input_tokens, output_tokens) / 1_000_000.0
    }
}

/// US dollars as the harness prints them: at most six decimals (a millionth of a dollar,
/// the unit costs are added in), trailing zeros dropped (`0.012`, `1.5`, `0`).
pub(crate) fn format_usd(usd: f64) -> String {
    let fixed = format!("{usd:.6}");
    let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
    if trimmed == "-0" {
        "0".to_owned()
    } else {
        trimmed.to_owned()
    }
}

/// What a call that reported `input` and `output` tokens cost at `price`, in millionths
/// of a US dollar ([`Price::micro_usd`]); `None` without a price or without a token.
pub(crate) fn priced(price: Option<Price>, input: u64, output: u64) -> Option<f64> {
    let price = price?;
    (input > 0 || output > 0).then(|| price.micro_usd(input, output))
}

/// What the live calls of one run cost, in millionths of a dollar, each at its price (the
/// judge's at the judge's); `None` when none was priced. Added in that unit so whole prices
/// and tokens sum without rounding.
///
/// `price` and `judge_price` are the configuration's (the judge's falls back to `price`,
/// [`price_of`]); a shard merge prices its runs again here from the
/// run file's.
pub(crate) fn run_micro_usd(
    price: Option<Price>,
    judge_price: Option<Price>,
    attempts: &[CallRecord],
    judge: Option<&CallRecord>,
) -> Option<f64> {
    attempts
        .iter()
        .map(|call| (call, false))
        .chain(judge.map(|call| (call, true)))
        .filter(|(call, _)| call.source == CallSource::Live)
        .filter_map(|(call, is_judge)| {
            priced(
                price_of(price, judge_price, is_judge),
                call.input_tokens.unwrap_or(0),
                call.output_tokens.unwrap_or(0),
            )
        })
        .reduce(|total, micro| total + micro)
}

// A run file's case runs are read as the report's results are, and a run's measures
// come from its call records: both here, beside the records, so the report reads no
// run-file type.
impl ScoredRun for CaseRun {
    fn case_id(&self) -> &str {
        &self.case_id
    }
    fn repeat(&self) -> u32 {
        self.repeat
    }
    fn parsed(&self) -> bool {
        self.scores.parsed
    }
    fn valid(&self) -> bool {
        self.scores.valid
    }
    fn valid_after_retry(&self) -> bool {
        self.scores.valid_after_retry
    }
    fn selection_f1(&self) -> Option<f64> {
        self.scores.selection_f1
    }
    fn expected_hit(&self) -> Option<bool> {
        self.scores.expected_hit
    }
    fn verdict(&self) -> Option<AnswerabilityVerdict> {
        self.scores.answerability
    }
    fn raw_bytes(&self) -> usize {
        self.scores.raw_bytes
    }
    fn errored(&self) -> bool {
        self.error.is_some()
    }
    /// Read from its live call records, as the harness reads a run's measures
    /// ([`CaseMeasures::of_calls`]).
    fn measures(&self) -> Option<CaseMeasures> {
        CaseMeasures::of_calls(&self.attempts, self.judge.as_ref())
    }
    /// In scorer name order (the run file keeps them by name).
    fn scorer_values(&self) -> Vec<(&str, ScorerValue)> {
        self.scores
            .scorers
            .iter()
            .map(|(name, value)| (name.as_str(), *value))
            .collect()
    }
}

impl CaseMeasures {
    /// What the live calls among a run's `attempts` and `judge` cost: their latencies
    /// summed into [`CaseMeasures::generate_ms`] and [`CaseMeasures::judge_ms`], their
    /// tokens summed (saturating); `None` when none of them was live (a replay, or a run
    /// whose every answer was recorded already). The harness reads a run's measures from
    /// here, and so does a shard merge from a run file's call records.
    pub(crate) fn of_calls(attempts: &[CallRecord], judge: Option<&CallRecord>) -> Option<Self> {
        let mut measures: Option<CaseMeasures> = None;
        let live = attempts
            .iter()
            .map(|record| (record, false))
            .chain(judge.map(|record| (record, true)))
            .filter(|(record, _)| record.source == CallSource::Live);
        for (record, is_judge) in live {
            let measures = measures.get_or_insert_with(CaseMeasures::default);
            let ms = record.latency_ms.unwrap_or(0.0);
            if is_judge {
                measures.judge_ms += ms;
            } else {
                measures.generate_ms += ms;
            }
            measures.input_tokens = measures
                .input_tokens
                .saturating_add(record.input_tokens.unwrap_or(0));
            measures.output_tokens = measures
                .output_tokens
                .saturating_add(record.output_tokens.unwrap_or(0));
        }
        measures
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_of_the_wrong_type_is_named_with_its_line_and_column() {
        let text = "{\n  \"format\": 1,\n  \"suite\": \"slides\",\n  \"mode\": \"replay\",\n  \"repeat\": \"many\"\n}";
        let error = RunFile::from_json(text).unwrap_err();
        assert_eq!(
            error.to_string(),
            "not a run file: invalid type: string \"many\", expected u32 at line 5 column 18"
        );
    }

    #[test]
    fn another_format_and_a_non_object_are_named_before_any_field() {
        assert_eq!(
            RunFile::from_json("{\"format\": 2, \"repeat\": \"many\"}")
                .unwrap_err()
                .to_string(),
            "a run file of format 2; this version reads format 1"
        );
        assert_eq!(
            RunFile::from_json("[1, 2]").unwrap_err().to_string(),
            "not a run file: it is not a JSON object"
        );
    }
}
