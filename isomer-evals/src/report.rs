//! The outcome of a run: per-case [`EvalCaseResult`]s, the [`EvalTotals`],
//! and [`format_report`], byte-identical to upstream's `formatReport`
//! (its expected-hit and errored-case lines included).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use crate::callback::{CaseError, CaseStage};
use crate::case::AnswerabilityVerdict;
use crate::floor::{Score, Scores};
use crate::report_table::{ABSENT, ReportTable, count, first_error, hits, run_name};
use crate::score::{
    AnswerabilityScore, ExpectedPrimitivesScore, PayloadScore, PrimitiveSelectionScore,
    ValidityScore,
};
use isomer_sdk::js_parity::{one_line, to_fixed_2};

/// The scores of one case (upstream `EvalCaseResult`, plus
/// `expected` and an `error` for a case whose callback failed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalCaseResult {
    /// The case's id.
    pub case_id: String,
    /// Which run of the case this is, `0 .. repeat`; omitted on the wire when `0`, so a
    /// report of a run without repeats reads as before.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub repeat: u32,
    /// The validity axis. For a case whose first `generate` failed: all
    /// false, no errors.
    pub validity: ValidityScore,
    /// Absent without a golden or without a validated composition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<PrimitiveSelectionScore>,
    /// Present exactly when the case lists expected types; a miss when no
    /// composition validated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<ExpectedPrimitivesScore>,
    /// The first attempt's payload. For a case whose first `generate`
    /// failed: all zero.
    pub payload: PayloadScore,
    /// Absent without a judge or without a validated composition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answerability: Option<AnswerabilityScore>,
    /// Present when a step failed; the scores hold what completed before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<CaseError>,
    /// Wall time and tokens of the run's calls; present only when the run measured them
    /// ([`RunEvalsOptions::measure`](crate::RunEvalsOptions::measure), set for a live run;
    /// a replay measures nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<CaseMeasures>,
}

/// What one run of a case cost, measured by [`run_evals`](crate::run_evals) around the
/// caller's callbacks.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseMeasures {
    /// Wall time of the `generate` calls (both attempts when there was a retry), in
    /// milliseconds, from the call's start to its answer (a failed or timed-out call
    /// counts until it failed).
    pub generate_ms: f64,
    /// Wall time of the `judge` call in milliseconds; `0` when the run was not judged.
    pub judge_ms: f64,
    /// Input tokens the calls reported through their [`UsageMeter`](crate::UsageMeter)
    /// (`generate` attempts and `judge` together); `0` when none reported.
    pub input_tokens: u64,
    /// Output tokens, likewise.
    pub output_tokens: u64,
}

/// What the case floors of a single-shot suite read: one case's result, and whether the
/// case has a golden (without one the selection and size floors are exempt).
pub(crate) struct CaseScores<'a> {
    /// The case's result.
    pub(crate) result: &'a EvalCaseResult,
    /// Whether the case has a golden.
    pub(crate) has_golden: bool,
}

impl Scores for CaseScores<'_> {
    fn score(&self, name: &str) -> Option<Score> {
        let result = self.result;
        Some(match name {
            "valid_after_retry" => Score::flag(result.validity.valid_after_retry),
            // Read over the runs of a case, not one run (the harness checks it).
            "min_pass_rate" => Score::Exempt,
            "min_selection_f1" if !self.has_golden => Score::Exempt,
            "min_selection_f1" => match &result.selection {
                Some(selection) => Score::Number(selection.f1),
                None => Score::Missing("no valid composition"),
            },
            "expected_hit" => result
                .expected
                .as_ref()
                .map_or(Score::Exempt, |expected| Score::flag(expected.hit)),
            "no_invented_types" => Score::none_of(result.payload.unknown_types.clone()),
            "max_size_vs_golden" => result
                .payload
                .size_vs_golden
                .map_or(Score::Exempt, Score::Number),
            "answerability_not_no" => match result.answerability {
                None => Score::Exempt,
                Some(score) => Score::Flag {
                    met: score.verdict != AnswerabilityVerdict::No,
                    shown: match score.verdict {
                        AnswerabilityVerdict::Yes => "yes",
                        AnswerabilityVerdict::Partial => "partial",
                        AnswerabilityVerdict::No => "no",
                    }
                    .to_owned(),
                    wanted: "not no",
                },
            },
            _ => return None,
        })
    }

    /// A missed selection F1 names the node types the answer lacks and the ones it adds
    /// against the golden (one entry per node, as the score counts them).
    fn detail(&self, name: &str) -> Option<String> {
        let selection = self
            .result
            .selection
            .as_ref()
            .filter(|_| name == "min_selection_f1")?;
        let list = |types: &[String]| types.join(", ");
        match (selection.missing.is_empty(), selection.extra.is_empty()) {
            (true, true) => None,
            (false, true) => Some(format!("missing {}", list(&selection.missing))),
            (true, false) => Some(format!("extra {}", list(&selection.extra))),
            (false, false) => Some(format!(
                "missing {}; extra {}",
                list(&selection.missing),
                list(&selection.extra)
            )),
        }
    }
}

/// What the suite floors of a single-shot suite read: the totals of the run.
impl Scores for EvalTotals {
    fn score(&self, name: &str) -> Option<Score> {
        Some(match name {
            // Over every run: with repeats, the mean over the repeats.
            "min_valid_ratio" => Score::ratio(self.valid, self.runs(), "no cases"),
            "min_valid_after_retry_ratio" => {
                Score::ratio(self.valid_after_retry, self.runs(), "no cases")
            }
            "min_mean_selection_f1" => self
                .mean_selection_f1
                .map_or(Score::Missing("no case has a selection"), Score::Number),
            "max_answerability_no" => {
                Score::Count(self.answerability.map_or(0, |counts| counts.no as u64))
            }
            _ => return None,
        })
    }
}

/// Verdict counts (upstream `totals.answerability`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AnswerabilityTotals {
    /// Cases judged `yes`.
    pub yes: usize,
    /// Cases judged `partial`.
    pub partial: usize,
    /// Cases judged `no`.
    pub no: usize,
}

/// Expected-primitive hits over the cases that list expected types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ExpectedTotals {
    /// Cases whose answer used one of their expected types.
    pub hits: usize,
    /// Cases that list expected types.
    pub cases: usize,
}

/// What a run adds up to (upstream `EvalReport.totals`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalTotals {
    /// Number of cases: the results, errored ones included, or with repeats the
    /// distinct case ids (the other counts are then over every run, see
    /// [`EvalTotals::runs`]).
    pub cases: usize,
    /// Results whose first attempt was JSON.
    pub parsed: usize,
    /// Results whose first attempt was valid.
    pub valid: usize,
    /// Results valid on the first attempt or the retry.
    pub valid_after_retry: usize,
    /// Mean of `selection.f1` over results that have a selection, summed in
    /// corpus order; absent when none has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_selection_f1: Option<f64>,
    /// Verdict counts over results with a verdict; absent when none has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answerability: Option<AnswerabilityTotals>,
    /// Expected-primitive hits; absent when no case lists expected types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<ExpectedTotals>,
    /// Results with an [`CaseError`]; omitted on the wire when `0`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub errored: usize,
    /// With more than one run per case: the repeats, each axis's mean and standard error
    /// across them, and each case's spread. Absent (and omitted on the wire) with one run
    /// per case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeats: Option<RepeatTotals>,
    /// Latency and tokens over the runs, when the run measured them (a live run with
    /// [`RunEvalsOptions::measure`](crate::RunEvalsOptions::measure)); absent in a replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<MeasuredTotals>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

/// A mean over runs, with its standard error across repeats when the cases ran more
/// than once.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mean {
    /// The sum of the value over every run that has one (corpus order, the repeats of a
    /// case together) divided by the number of those runs.
    pub mean: f64,
    /// With `repeat > 1`: the standard error of the mean across repeats, that is the
    /// sample standard deviation (divisor `n - 1`) of the per-repeat means (each the mean
    /// over the runs with that repeat index that have a value, `n` of them having one)
    /// divided by `sqrt(n)`; `0` when only one repeat has a value. It measures how much
    /// the suite's mean moves from one repeat of the corpus to the next. Absent with one
    /// repeat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard_error: Option<f64>,
}

impl Mean {
    /// The mean of `value` over `runs` (a run whose `value` is `None` is left out), with its
    /// standard error across the `repeat` repeats when `repeat > 1`; `repeat_of` says which
    /// repeat a run is. `None` when no run has a value.
    pub fn over_runs<T>(
        runs: &[T],
        repeat: u32,
        repeat_of: impl Fn(&T) -> u32,
        value: impl Fn(&T) -> Option<f64>,
    ) -> Option<Self> {
        let values: Vec<(u32, f64)> = runs
            .iter()
            .filter_map(|run| Some((repeat_of(run), value(run)?)))
            .collect();
        if values.is_empty() {
            return None;
        }
        let mean = values.iter().fold(0.0, |sum, (_, v)| sum + v) / values.len() as f64;
        let standard_error = (repeat > 1).then(|| {
            let repeat_means: Vec<f64> = (0..repeat)
                .filter_map(|index| {
                    let of_repeat: Vec<f64> = values
                        .iter()
                        .filter(|(r, _)| *r == index)
                        .map(|(_, v)| *v)
                        .collect();
                    (!of_repeat.is_empty()).then(|| {
                        of_repeat.iter().fold(0.0, |sum, v| sum + v) / of_repeat.len() as f64
                    })
                })
                .collect();
            if repeat_means.len() < 2 {
                return 0.0;
            }
            let n = repeat_means.len() as f64;
            let center = repeat_means.iter().fold(0.0, |sum, m| sum + m) / n;
            let squares = repeat_means
                .iter()
                .fold(0.0, |sum, m| sum + (m - center) * (m - center));
            (squares / (n - 1.0)).sqrt() / n.sqrt()
        });
        Some(Mean {
            mean,
            standard_error,
        })
    }

    /// `0.88 ± 0.04`: the mean, then ` ± ` and the standard error when there is one, each
    /// as JS `toFixed(2)`.
    pub(crate) fn text(&self) -> String {
        match self.standard_error {
            Some(error) => format!("{} \u{b1} {}", to_fixed_2(self.mean), to_fixed_2(error)),
            None => to_fixed_2(self.mean),
        }
    }
}

/// The smallest and largest value of an axis over the runs of one case.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MinMax<T> {
    /// The smallest value.
    pub min: T,
    /// The largest value.
    pub max: T,
}

impl<T: Copy + PartialOrd> MinMax<T> {
    fn over(values: impl IntoIterator<Item = T>) -> Option<Self> {
        values.into_iter().fold(None, |range, value| {
            Some(match range {
                None => MinMax {
                    min: value,
                    max: value,
                },
                Some(MinMax { min, max }) => MinMax {
                    min: if value < min { value } else { min },
                    max: if value > max { value } else { max },
                },
            })
        })
    }
}

/// How the runs of one case differ: counts of the flags, and the smallest and largest
/// value of the numbers (the spread is min–max, not a standard deviation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseSpread {
    /// The case's id.
    pub case_id: String,
    /// Its runs.
    pub runs: usize,
    /// Runs whose first attempt was valid.
    pub valid: usize,
    /// Runs valid on the first attempt or the retry.
    pub valid_after_retry: usize,
    /// Selection F1 over the runs that have one; absent when none has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection_f1: Option<MinMax<f64>>,
    /// The first attempt's bytes as sent (`payload.rawBytes`), over every run.
    pub raw_bytes: MinMax<usize>,
}

/// The repeat statistics of a run with `repeat > 1` ([`EvalTotals::repeats`]).
///
/// Each axis is a [`Mean`] of a per-run value: `1` or `0` for the flags (so the mean is
/// the ratio over every run, and the standard error is taken across the per-repeat
/// ratios), the F1 for the selection. The counts of [`EvalTotals`] are then over every
/// run, and suite floors read them as these means (see [`crate::floor`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepeatTotals {
    /// Runs per case.
    pub repeat: u32,
    /// Runs: cases × repeat.
    pub runs: usize,
    /// Runs whose first attempt was JSON.
    pub parsed: Mean,
    /// Runs whose first attempt was valid.
    pub valid: Mean,
    /// Runs valid on the first attempt or the retry.
    pub valid_after_retry: Mean,
    /// Selection F1 over the runs that have a selection; absent when none has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection_f1: Option<Mean>,
    /// Expected-primitive hits over the runs of cases that list expected types; absent
    /// when none does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_hit: Option<Mean>,
    /// Runs judged `yes` over the judged runs; absent when none was judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answerability_yes: Option<Mean>,
    /// Per case, in corpus order, how its runs differ.
    pub spread: Vec<CaseSpread>,
}

/// The mean and two percentiles of a measure over the runs.
///
/// Percentiles are nearest-rank: the `p`-th percentile of `n` values sorted ascending is
/// the value at 1-based rank `ceil(p / 100 × n)` (p50 of `[1, 2, 3, 4]` is `2`, p95 is `4`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    /// The arithmetic mean.
    pub mean: f64,
    /// The median, nearest-rank.
    pub p50: f64,
    /// The 95th percentile, nearest-rank.
    pub p95: f64,
}

impl Percentiles {
    /// The mean, p50 and p95 of `values` (any order); all `0` when there is none.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Self {
        let mut values: Vec<f64> = values.into_iter().collect();
        if values.is_empty() {
            return Percentiles {
                mean: 0.0,
                p50: 0.0,
                p95: 0.0,
            };
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let rank = |p: usize| values[(p * n).div_ceil(100).clamp(1, n) - 1];
        Percentiles {
            mean: values.iter().fold(0.0, |sum, v| sum + v) / n as f64,
            p50: rank(50),
            p95: rank(95),
        }
    }
}

/// Latency and tokens over the measured runs of a report ([`EvalTotals::measured`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeasuredTotals {
    /// Runs measured.
    pub runs: usize,
    /// [`CaseMeasures::generate_ms`] per run.
    pub generate_ms: Percentiles,
    /// [`CaseMeasures::judge_ms`] per run.
    pub judge_ms: Percentiles,
    /// [`CaseMeasures::input_tokens`] per run.
    pub input_tokens: Percentiles,
    /// [`CaseMeasures::output_tokens`] per run.
    pub output_tokens: Percentiles,
}

impl MeasuredTotals {
    /// The totals over the results that carry measures; `None` when none does.
    fn from_results(results: &[EvalCaseResult]) -> Option<Self> {
        let measured: Vec<CaseMeasures> = results.iter().filter_map(|r| r.measured).collect();
        if measured.is_empty() {
            return None;
        }
        let of = |value: fn(&CaseMeasures) -> f64| Percentiles::of(measured.iter().map(value));
        Some(MeasuredTotals {
            runs: measured.len(),
            generate_ms: of(|m| m.generate_ms),
            judge_ms: of(|m| m.judge_ms),
            input_tokens: of(|m| m.input_tokens as f64),
            output_tokens: of(|m| m.output_tokens as f64),
        })
    }
}

impl RepeatTotals {
    /// The statistics of `results` over `repeat > 1` runs per case.
    fn from_results(results: &[EvalCaseResult], repeat: u32) -> Self {
        let flag = |value: fn(&EvalCaseResult) -> bool| {
            Mean::over_runs(
                results,
                repeat,
                |r| r.repeat,
                |r| Some(if value(r) { 1.0 } else { 0.0 }),
            )
            .unwrap_or(Mean {
                mean: 0.0,
                standard_error: Some(0.0),
            })
        };
        // The runs of each case, cases in the order they first appear.
        let mut order: Vec<&str> = Vec::new();
        let mut runs_of: HashMap<&str, Vec<&EvalCaseResult>> = HashMap::new();
        for result in results {
            let runs = runs_of.entry(&result.case_id).or_default();
            if runs.is_empty() {
                order.push(&result.case_id);
            }
            runs.push(result);
        }
        let spread = order
            .into_iter()
            .map(|case_id| {
                let runs = &runs_of[case_id];
                CaseSpread {
                    case_id: case_id.to_owned(),
                    runs: runs.len(),
                    valid: runs.iter().filter(|r| r.validity.valid).count(),
                    valid_after_retry: runs.iter().filter(|r| r.validity.valid_after_retry).count(),
                    selection_f1: MinMax::over(
                        runs.iter().filter_map(|r| Some(r.selection.as_ref()?.f1)),
                    ),
                    raw_bytes: MinMax::over(runs.iter().map(|r| r.payload.raw_bytes))
                        .unwrap_or(MinMax { min: 0, max: 0 }),
                }
            })
            .collect();
        RepeatTotals {
            repeat,
            runs: results.len(),
            parsed: flag(|r| r.validity.parsed),
            valid: flag(|r| r.validity.valid),
            valid_after_retry: flag(|r| r.validity.valid_after_retry),
            selection_f1: Mean::over_runs(
                results,
                repeat,
                |r| r.repeat,
                |r| Some(r.selection.as_ref()?.f1),
            ),
            expected_hit: Mean::over_runs(
                results,
                repeat,
                |r| r.repeat,
                |r| Some(if r.expected.as_ref()?.hit { 1.0 } else { 0.0 }),
            ),
            answerability_yes: Mean::over_runs(
                results,
                repeat,
                |r| r.repeat,
                |r| {
                    Some(if r.answerability?.verdict == AnswerabilityVerdict::Yes {
                        1.0
                    } else {
                        0.0
                    })
                },
            ),
            spread,
        }
    }
}

impl EvalTotals {
    /// Adds up `results`: counts of parsed, valid, valid-after-retry and errored cases;
    /// the mean F1 over the cases that have a selection (`None` when none has); verdict
    /// counts over the judged cases and hits over the cases listing `expected` (each
    /// `None` when no case has one).
    ///
    /// With more than one run per case (the largest [`EvalCaseResult::repeat`] is above
    /// `0`), `cases` counts the distinct case ids, every other count is over the runs, and
    /// [`EvalTotals::repeats`] holds the repeat statistics; [`EvalTotals::measured`] is
    /// present when a result carries measures.
    pub fn from_results(results: &[EvalCaseResult]) -> Self {
        let repeat = results
            .iter()
            .map(|r| r.repeat)
            .max()
            .map_or(1, |max| max + 1);
        let count = |keep: fn(&EvalCaseResult) -> bool| results.iter().filter(|r| keep(r)).count();
        let f1s: Vec<f64> = results
            .iter()
            .filter_map(|r| r.selection.as_ref().map(|s| s.f1))
            .collect();
        let mean_selection_f1 =
            (!f1s.is_empty()).then(|| f1s.iter().fold(0.0, |sum, f1| sum + f1) / f1s.len() as f64);
        let mut answerability: Option<AnswerabilityTotals> = None;
        for score in results.iter().filter_map(|r| r.answerability) {
            let counts = answerability.get_or_insert_with(AnswerabilityTotals::default);
            match score.verdict {
                AnswerabilityVerdict::Yes => counts.yes += 1,
                AnswerabilityVerdict::Partial => counts.partial += 1,
                AnswerabilityVerdict::No => counts.no += 1,
            }
        }
        let mut expected: Option<ExpectedTotals> = None;
        for score in results.iter().filter_map(|r| r.expected.as_ref()) {
            let counts = expected.get_or_insert_with(ExpectedTotals::default);
            counts.cases += 1;
            counts.hits += usize::from(score.hit);
        }
        let cases = if repeat > 1 {
            let mut ids: Vec<&str> = results.iter().map(|r| r.case_id.as_str()).collect();
            ids.sort_unstable();
            ids.dedup();
            ids.len()
        } else {
            results.len()
        };
        EvalTotals {
            cases,
            parsed: count(|r| r.validity.parsed),
            valid: count(|r| r.validity.valid),
            valid_after_retry: count(|r| r.validity.valid_after_retry),
            mean_selection_f1,
            answerability,
            expected,
            errored: count(|r| r.error.is_some()),
            repeats: (repeat > 1).then(|| RepeatTotals::from_results(results, repeat)),
            measured: MeasuredTotals::from_results(results),
        }
    }

    /// The runs the counts are over: [`EvalTotals::cases`] times the repeat.
    pub fn runs(&self) -> usize {
        self.repeats
            .as_ref()
            .map_or(self.cases, |repeats| repeats.runs)
    }
}

/// The outcome of [`run_evals`](crate::run_evals) (upstream `EvalReport`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalReport {
    /// One result per corpus case, in corpus order.
    pub results: Vec<EvalCaseResult>,
    /// What they add up to.
    pub totals: EvalTotals,
}

impl EvalReport {
    /// A report over `results`, with its totals.
    pub fn new(results: Vec<EvalCaseResult>) -> Self {
        let totals = EvalTotals::from_results(&results);
        EvalReport { results, totals }
    }
}

/// Formats a report as text (upstream `formatReport`), byte-identical to the
/// TypeScript package's on the same report when nothing errored and no case
/// lists expected types. Lines are joined with `\n`, with no trailing
/// newline.
///
/// Header rows, each label padded with spaces to one more than the longest
/// label (always 18 columns):
///
/// ```text
/// cases             2
/// parsed            2 (100%)
/// valid             1 (50%)
/// valid after retry 1 (50%)
/// mean selection F1 0.50
/// answerability     yes 1 / partial 0 / no 0
/// expected hits     1 / 2 (50%)
/// errored           1 (50%)
/// ```
///
/// Percentages are JS `Math.round(part / cases * 100)` (halves up: 1/8 is
/// `13%`), or an em dash alone when there is no case; F1 is JS `toFixed(2)`
/// (exact half up: 0.125 is `0.13`), or an em dash when absent. The
/// `answerability` row appears only with verdicts, `expected hits` (over the
/// cases listing expected types) only when a case lists them, `errored` only
/// when a case errored.
///
/// Then, each only when non-empty, after a blank line: `invalid:` with
/// `  <caseId>: <first error>` (plus ` (+<n-1>)` for more errors, or `did
/// not parse` when the list is empty) for every case whose first attempt
/// was not valid (a case whose first `generate` failed has no first attempt
/// and is listed only under `errored:`); `invented node types:` with
/// `  <caseId>: <types joined by ", ">`; `errored:` with `  <caseId>:
/// <error>`, the error on one line (each whitespace run holding a line
/// break printed as one space, as the sdk's `one_line` does). All in
/// corpus order.
///
/// With repeats ([`EvalTotals::repeats`], more than one run per case) the counts are over
/// the runs: a `runs  <n> (repeat <k>)` row follows `cases`, percentages are of the runs,
/// `mean selection F1` is followed by ` ± <standard error>`, and after the other rows come
/// `mean parsed`, `mean valid`, `mean valid after retry`, `mean expected hit` (when a case
/// lists expected types) and `mean answerability yes` (when a run was judged), each
/// `<mean> ± <standard error>` as [`Mean`] defines them, in JS `toFixed(2)`. Runs are named
/// `<caseId>#<repeat>` in the sections, and a last section `spread over repeats (min–max
/// per case):` gives per case `  <caseId>: valid <n>/<runs>, valid after retry <n>/<runs>,
/// selection F1 <min>–<max>, raw bytes <min>–<max>` (the F1 part only when a run has a
/// selection). With one run per case nothing of this appears, and the text is upstream's.
/// Latency and tokens are printed by [`format_measurements`], not here.
pub fn format_report(report: &EvalReport) -> String {
    report_table(report).finish()
}

/// The rows and sections [`format_report`] prints, before they are laid out; the HTML
/// report reads the same rows.
pub(crate) fn report_table(report: &EvalReport) -> ReportTable {
    let totals = &report.totals;
    let runs = totals.runs();
    let repeats = totals.repeats.as_ref();
    let mut table = ReportTable::default();
    table.row("cases", totals.cases.to_string());
    if let Some(repeats) = repeats {
        table.row(
            "runs",
            format!("{} (repeat {})", repeats.runs, repeats.repeat),
        );
    }
    table.row("parsed", count(totals.parsed, runs));
    table.row("valid", count(totals.valid, runs));
    table.row("valid after retry", count(totals.valid_after_retry, runs));
    let f1 = match repeats.and_then(|repeats| repeats.selection_f1) {
        Some(mean) => mean.text(),
        None => totals
            .mean_selection_f1
            .map_or_else(|| ABSENT.to_owned(), to_fixed_2),
    };
    table.row("mean selection F1", f1);
    if let Some(a) = totals.answerability {
        table.row(
            "answerability",
            format!("yes {} / partial {} / no {}", a.yes, a.partial, a.no),
        );
    }
    if let Some(e) = totals.expected {
        table.row("expected hits", hits(e.hits, e.cases));
    }
    if totals.errored > 0 {
        table.row("errored", count(totals.errored, runs));
    }
    if let Some(repeats) = repeats {
        table.row("mean parsed", repeats.parsed.text());
        table.row("mean valid", repeats.valid.text());
        table.row("mean valid after retry", repeats.valid_after_retry.text());
        if let Some(mean) = repeats.expected_hit {
            table.row("mean expected hit", mean.text());
        }
        if let Some(mean) = repeats.answerability_yes {
            table.row("mean answerability yes", mean.text());
        }
    }
    let name = |r: &EvalCaseResult| run_name(&r.case_id, r.repeat, repeats.is_some());

    let invalid: Vec<String> = report
        .results
        .iter()
        .filter(|r| !r.validity.valid)
        .filter(|r| {
            !r.error
                .as_ref()
                .is_some_and(CaseError::before_first_attempt)
        })
        .map(|r| first_error(&name(r), &r.validity.errors))
        .collect();
    table.section("invalid:", invalid);

    let invented: Vec<String> = report
        .results
        .iter()
        .filter(|r| !r.payload.unknown_types.is_empty())
        .map(|r| format!("  {}: {}", name(r), r.payload.unknown_types.join(", ")))
        .collect();
    table.section("invented node types:", invented);

    let errored: Vec<String> = report
        .results
        .iter()
        .filter_map(|r| {
            // A callback's message may span lines (an HTTP error body); one
            // line per case keeps the section readable line by line.
            r.error
                .as_ref()
                .map(|e| format!("  {}: {}", name(r), one_line(&e.to_string())))
        })
        .collect();
    table.section("errored:", errored);

    if let Some(repeats) = repeats {
        let spread: Vec<String> = repeats.spread.iter().map(spread_line).collect();
        table.section("spread over repeats (min\u{2013}max per case):", spread);
    }
    table
}

/// `  <case>: valid 2/3, valid after retry 3/3, selection F1 0.50–1.00, raw bytes 80–120`
/// (the F1 part only when a run has a selection).
fn spread_line(spread: &CaseSpread) -> String {
    let mut line = format!(
        "  {}: valid {}/{}, valid after retry {}/{}",
        spread.case_id, spread.valid, spread.runs, spread.valid_after_retry, spread.runs
    );
    if let Some(f1) = spread.selection_f1 {
        line.push_str(&format!(
            ", selection F1 {}\u{2013}{}",
            to_fixed_2(f1.min),
            to_fixed_2(f1.max)
        ));
    }
    line.push_str(&format!(
        ", raw bytes {}\u{2013}{}",
        spread.raw_bytes.min, spread.raw_bytes.max
    ));
    line
}

/// What [`format_measurements`] prints for a report without measures.
pub const NOT_MEASURED: &str = "latency and tokens: not measured in replay";

/// Formats the latency and tokens of a measured report (a live run with
/// [`RunEvalsOptions::measure`](crate::RunEvalsOptions::measure)), laid out as
/// [`format_report`] lays out its rows, each measure's mean, p50 and p95 over the runs
/// (nearest-rank, see [`Percentiles`]), milliseconds and tokens as JS `toFixed(2)`:
///
/// ```text
/// measured runs 3
/// generate ms   mean 812.40 / p50 790.00 / p95 901.10
/// judge ms      mean 95.00 / p50 95.00 / p95 120.00
/// input tokens  mean 2000.00 / p50 2000.00 / p95 2400.00
/// output tokens mean 300.00 / p50 280.00 / p95 350.00
/// ```
///
/// A report without measures (every replay) prints [`NOT_MEASURED`] alone. Kept apart
/// from [`format_report`], whose text is upstream's and is committed as a baseline: wall
/// time is not deterministic, so no baseline holds it.
pub fn format_measurements(report: &EvalReport) -> String {
    let Some(measured) = &report.totals.measured else {
        return NOT_MEASURED.to_owned();
    };
    let line = |p: &Percentiles| {
        format!(
            "mean {} / p50 {} / p95 {}",
            to_fixed_2(p.mean),
            to_fixed_2(p.p50),
            to_fixed_2(p.p95)
        )
    };
    let mut table = ReportTable::default();
    table.row("measured runs", measured.runs.to_string());
    table.row("generate ms", line(&measured.generate_ms));
    table.row("judge ms", line(&measured.judge_ms));
    table.row("input tokens", line(&measured.input_tokens));
    table.row("output tokens", line(&measured.output_tokens));
    table.finish()
}

impl EvalReport {
    /// The same report without its measures ([`EvalCaseResult::measured`],
    /// [`EvalTotals::measured`]): what a baseline holds, since wall time is not
    /// deterministic.
    pub fn without_measures(mut self) -> Self {
        for result in &mut self.results {
            result.measured = None;
        }
        self.totals.measured = None;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_errors_display_the_step_the_attempt_and_the_outcome() {
        let cases = [
            (
                CaseError::failed(CaseStage::Generate, Some(1), &"rate limited"),
                "generate attempt 1 failed: rate limited",
            ),
            (
                CaseError::panicked(CaseStage::Judge, None, "bug"),
                "judge panicked: bug",
            ),
            (
                CaseError::failed(
                    CaseStage::Render,
                    None,
                    &"Invalid Composition:\n  body is required",
                ),
                "text render failed: Invalid Composition:\n  body is required",
            ),
            (
                CaseError::panicked(CaseStage::Score, None, "hook bug"),
                "scoring panicked: hook bug",
            ),
        ];
        for (error, text) in cases {
            assert_eq!(error.to_string(), text);
        }
    }

    #[test]
    fn case_errors_serialize_with_camel_case_keys_and_no_absent_attempt() {
        let error = CaseError::failed(CaseStage::Judge, None, &"offline");
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"stage":"judge","panicked":false,"message":"offline"}"#
        );
    }

    #[test]
    fn a_multi_line_case_error_prints_on_one_line() {
        let result = EvalCaseResult {
            case_id: "c1".to_owned(),
            repeat: 0,
            measured: None,
            validity: ValidityScore {
                parsed: false,
                valid: false,
                valid_after_retry: false,
                errors: Vec::new(),
                composition: None,
            },
            selection: None,
            expected: None,
            payload: PayloadScore {
                raw_bytes: 0,
                sanitized_bytes: 0,
                size_vs_golden: None,
                unknown_types: Vec::new(),
            },
            answerability: None,
            error: Some(CaseError::failed(
                CaseStage::Generate,
                Some(0),
                &"HTTP 429: {\n  \"error\": \"rate limited\"\r\n}",
            )),
        };
        let report = EvalReport::new(vec![result]);
        assert_eq!(
            format_report(&report),
            "cases             1\n\
             parsed            0 (0%)\n\
             valid             0 (0%)\n\
             valid after retry 0 (0%)\n\
             mean selection F1 \u{2014}\n\
             errored           1 (100%)\n\
             \n\
             errored:\n  \
             c1: generate attempt 0 failed: HTTP 429: { \"error\": \"rate limited\" }"
        );
    }

    #[test]
    fn totals_omit_absent_and_zero_fields_on_the_wire() {
        let totals = EvalTotals::from_results(&[]);
        assert_eq!(
            serde_json::to_string(&totals).unwrap(),
            r#"{"cases":0,"parsed":0,"valid":0,"validAfterRetry":0}"#
        );
    }
}

/// The floors of a single-shot suite, read through [`CaseScores`] and [`EvalTotals`].
#[cfg(test)]
pub(crate) mod floor_tests {
    use super::*;
    use crate::floor::{Floor, misses};
    use isomer_corpus::{FloorLevel, SINGLE_SHOT_FLOORS};
    use serde_json::json;

    /// A result as it reads on the wire.
    pub(crate) fn result(value: serde_json::Value) -> EvalCaseResult {
        serde_json::from_value(value).unwrap()
    }

    /// The misses of the case `floors` on `result`, of a case with or without a golden.
    pub(crate) fn case_misses(
        floors: &[Floor],
        result: &EvalCaseResult,
        has_golden: bool,
    ) -> Vec<String> {
        let scores = CaseScores { result, has_golden };
        misses(floors, SINGLE_SHOT_FLOORS, FloorLevel::Case, &scores)
    }

    /// A case that meets every case floor, with a golden, expected types and a verdict.
    fn good() -> serde_json::Value {
        json!({
            "caseId": "good",
            "validity": { "parsed": true, "valid": true, "validAfterRetry": true, "errors": [] },
            "selection": { "precision": 1.0, "recall": 1.0, "f1": 1.0, "extra": [], "missing": [] },
            "expected": { "hit": true, "found": ["slideStats"] },
            "payload": { "rawBytes": 10, "sanitizedBytes": 10, "sizeVsGolden": 1.0, "unknownTypes": [] },
            "answerability": { "verdict": "yes" }
        })
    }

    const EVERY_CASE_FLOOR: [Floor; 6] = [
        Floor::flag("valid_after_retry"),
        Floor::number("min_selection_f1", 1.0),
        Floor::flag("expected_hit"),
        Floor::flag("no_invented_types"),
        Floor::number("max_size_vs_golden", 1.0),
        Floor::flag("answerability_not_no"),
    ];

    #[test]
    fn every_floor_of_the_table_has_a_score() {
        let good = result(good());
        let case = CaseScores {
            result: &good,
            has_golden: true,
        };
        let totals = EvalTotals::from_results(std::slice::from_ref(&good));
        for spec in SINGLE_SHOT_FLOORS {
            let scores: &dyn Scores = match spec.level {
                FloorLevel::Case => &case,
                FloorLevel::Suite => &totals,
            };
            assert!(scores.score(spec.name).is_some(), "{}", spec.name);
        }
        assert_eq!(
            case_misses(&EVERY_CASE_FLOOR, &good, true),
            Vec::<String>::new()
        );
    }

    #[test]
    fn case_floors_read_the_result() {
        let mut bad = good();
        bad["validity"] =
            json!({ "parsed": true, "valid": false, "validAfterRetry": false, "errors": [] });
        bad["selection"]["f1"] = json!(2.0 / 3.0);
        bad["expected"] = json!({ "hit": false, "found": [] });
        bad["payload"]["unknownTypes"] = json!(["sparkline", "gauge"]);
        bad["payload"]["sizeVsGolden"] = json!(1.75);
        bad["answerability"] = json!({ "verdict": "no" });
        let floors = [
            Floor::flag("valid_after_retry"),
            Floor::number("min_selection_f1", 0.8),
            Floor::flag("expected_hit"),
            Floor::flag("no_invented_types"),
            Floor::number("max_size_vs_golden", 1.5),
            Floor::flag("answerability_not_no"),
        ];
        assert_eq!(
            case_misses(&floors, &result(bad), true),
            [
                "valid_after_retry: false, floor true",
                "min_selection_f1: 0.6667, floor >= 0.8",
                "expected_hit: false, floor true",
                "no_invented_types: [sparkline, gauge], floor []",
                "max_size_vs_golden: 1.75, floor <= 1.5",
                "answerability_not_no: no, floor not no",
            ]
        );
    }

    #[test]
    fn a_case_without_what_a_floor_reads_is_exempt() {
        let mut bare = good();
        for key in ["selection", "expected", "answerability"] {
            bare.as_object_mut().unwrap().remove(key);
        }
        bare["payload"]
            .as_object_mut()
            .unwrap()
            .remove("sizeVsGolden");
        let floors = [
            Floor::number("min_selection_f1", 0.9),
            Floor::flag("expected_hit"),
            Floor::number("max_size_vs_golden", 0.1),
            Floor::flag("answerability_not_no"),
        ];
        let bare = result(bare);
        assert_eq!(case_misses(&floors, &bare, false), Vec::<String>::new());
        // With a golden but no valid composition there is no selection: that fails.
        assert_eq!(
            case_misses(&floors, &bare, true),
            ["min_selection_f1: none (no valid composition), floor >= 0.9"]
        );
    }

    #[test]
    fn suite_floors_read_the_totals() {
        let totals: EvalTotals = serde_json::from_value(json!({
            "cases": 8, "parsed": 8, "valid": 7, "validAfterRetry": 8,
            "meanSelectionF1": 0.8125,
            "answerability": { "yes": 6, "partial": 1, "no": 1 },
            "errored": 0
        }))
        .unwrap();
        let floors = [
            Floor::number("min_valid_ratio", 0.875),
            Floor::number("min_valid_ratio", 0.9),
            Floor::number("min_valid_after_retry_ratio", 1.0),
            Floor::number("min_mean_selection_f1", 0.85),
            Floor::count("max_answerability_no", 0),
            Floor::count("max_answerability_no", 1),
            Floor::flag("valid_after_retry"),
        ];
        assert_eq!(
            misses(&floors, SINGLE_SHOT_FLOORS, FloorLevel::Suite, &totals),
            [
                "min_valid_ratio: 0.875, floor >= 0.9",
                "min_mean_selection_f1: 0.8125, floor >= 0.85",
                "max_answerability_no: 1, floor <= 0",
            ]
        );
        let empty = EvalTotals::from_results(&[]);
        assert_eq!(
            misses(
                &[
                    Floor::number("min_valid_ratio", 0.0),
                    Floor::number("min_mean_selection_f1", 0.0)
                ],
                SINGLE_SHOT_FLOORS,
                FloorLevel::Suite,
                &empty
            ),
            [
                "min_valid_ratio: none (no cases), floor >= 0",
                "min_mean_selection_f1: none (no case has a selection), floor >= 0",
            ]
        );
    }
}
