//! Statistics over the repeats of a run (`repeat = n`): the mean of each axis with its
//! standard error ([`Mean`]), and how the runs of one case differ ([`CaseSpread`]).

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::scored_run::ScoredRun;
use crate::case::AnswerabilityVerdict;
use isomer_sdk::js_parity::to_fixed_2;

/// The axes of a run, each a [`Mean`] over every run (flags count `1` or `0`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Axes {
    /// First attempt was JSON.
    pub parsed: Mean,
    /// First attempt was valid.
    pub valid: Mean,
    /// Valid on the first attempt or the retry.
    pub valid_after_retry: Mean,
    /// Selection F1 over the runs that have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection_f1: Option<Mean>,
    /// Expected-primitive hit over the runs of cases listing expected types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_hit: Option<Mean>,
    /// Verdict `yes` over the judged runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answerability_yes: Option<Mean>,
    /// Each pack scorer's value over the runs it scored, by scorer name (flags as `1` /
    /// `0`); omitted on the wire when the run has no scorer ([`crate::scorer`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scorers: BTreeMap<String, Mean>,
}

impl Axes {
    /// The axes of `results`, `repeat` runs per case: each flag the [`Mean`] of `1` or `0`
    /// over every run (`0` with no run), each score the mean over the runs that have one.
    /// The run file, a shard merge (over a run file's runs) and the report's repeat
    /// statistics read the axes from here.
    pub(crate) fn of<R: ScoredRun>(results: &[R], repeat: u32) -> Axes {
        let mean = |value: &dyn Fn(&R) -> Option<f64>| {
            Mean::over_runs(results, repeat, |r| r.repeat(), value)
        };
        let flag = |value: fn(&R) -> bool| {
            mean(&|r| Some(if value(r) { 1.0 } else { 0.0 })).unwrap_or(Mean {
                mean: 0.0,
                standard_error: (repeat > 1).then_some(0.0),
            })
        };
        Axes {
            parsed: flag(|r| r.parsed()),
            valid: flag(|r| r.valid()),
            valid_after_retry: flag(|r| r.valid_after_retry()),
            selection_f1: mean(&|r| r.selection_f1()),
            expected_hit: mean(&|r| Some(if r.expected_hit()? { 1.0 } else { 0.0 })),
            answerability_yes: mean(&|r| {
                let verdict = r.verdict()?;
                Some(if verdict == AnswerabilityVerdict::Yes {
                    1.0
                } else {
                    0.0
                })
            }),
            scorers: results
                .iter()
                .flat_map(|r| r.scorer_values())
                .map(|(name, _)| name)
                .collect::<std::collections::BTreeSet<&str>>()
                .into_iter()
                .filter_map(|name| {
                    let value = mean(&|r| {
                        let (_, value) = r.scorer_values().into_iter().find(|(n, _)| *n == name)?;
                        Some(value.as_f64())
                    })?;
                    Some((name.to_owned(), value))
                })
                .collect(),
        }
    }
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
pub(crate) struct MinMax<T> {
    /// The smallest value.
    pub(crate) min: T,
    /// The largest value.
    pub(crate) max: T,
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
pub(crate) struct CaseSpread {
    /// The case's id.
    pub(crate) case_id: String,
    /// Its runs.
    pub(crate) runs: usize,
    /// Runs whose first attempt was valid.
    pub(crate) valid: usize,
    /// Runs valid on the first attempt or the retry.
    pub(crate) valid_after_retry: usize,
    /// Selection F1 over the runs that have one; absent when none has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) selection_f1: Option<MinMax<f64>>,
    /// The first attempt's bytes as sent (`payload.rawBytes`), over every run.
    pub(crate) raw_bytes: MinMax<usize>,
}

/// The repeat statistics of a run with `repeat > 1` ([`EvalTotals::repeats`](crate::EvalTotals::repeats)).
///
/// Each axis ([`Axes`], the same the run file records) is a [`Mean`] of a per-run value:
/// `1` or `0` for the flags (so the mean is the ratio over every run, and the standard
/// error is taken across the per-repeat ratios), the F1 for the selection. The counts of
/// [`EvalTotals`](crate::EvalTotals) are then over every run, and suite floors read them
/// as these means (see [`crate::floor`]). Serialized with the axes' fields in line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RepeatTotals {
    /// Runs per case.
    pub(crate) repeat: u32,
    /// Runs: cases × repeat.
    pub(crate) runs: usize,
    /// The mean of each axis over every run (an optional axis is absent when no run has
    /// it: no selection, no expected types, nothing judged).
    #[serde(flatten)]
    pub(crate) axes: Axes,
    /// Per case, in corpus order, how its runs differ.
    pub(crate) spread: Vec<CaseSpread>,
}

impl RepeatTotals {
    /// The statistics of `results` over `repeat > 1` runs per case.
    pub(super) fn from_results<R: ScoredRun>(results: &[R], repeat: u32) -> Self {
        // The runs of each case, cases in the order they first appear.
        let mut order: Vec<&str> = Vec::new();
        let mut runs_of: HashMap<&str, Vec<&R>> = HashMap::new();
        for result in results {
            let runs = runs_of.entry(result.case_id()).or_default();
            if runs.is_empty() {
                order.push(result.case_id());
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
                    valid: runs.iter().filter(|r| r.valid()).count(),
                    valid_after_retry: runs.iter().filter(|r| r.valid_after_retry()).count(),
                    selection_f1: MinMax::over(runs.iter().filter_map(|r| r.selection_f1())),
                    raw_bytes: MinMax::over(runs.iter().map(|r| r.raw_bytes()))
                        .unwrap_or(MinMax { min: 0, max: 0 }),
                }
            })
            .collect();
        RepeatTotals {
            repeat,
            runs: results.len(),
            axes: Axes::of(results, repeat),
            spread,
        }
    }
}
