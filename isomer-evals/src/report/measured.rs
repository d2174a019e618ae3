//! What a live run measured: each case's wall time and tokens (`CaseMeasures`), their
//! mean and percentiles over the runs ([`MeasuredTotals`]), and the text that prints them
//! ([`format_measurements`]), kept apart from the report text, which a baseline holds.

use serde::{Deserialize, Serialize};

use super::EvalReport;
use crate::report_table::ReportTable;
use isomer_sdk::js_parity::to_fixed_2;

/// What one run of a case cost, measured by [`run_evals`](crate::run_evals) around the
/// caller's callbacks.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CaseMeasures {
    /// Wall time of the `generate` calls (both attempts when there was a retry), in
    /// milliseconds, from the call's start to its answer (a failed or timed-out call
    /// counts until it failed).
    pub(crate) generate_ms: f64,
    /// Wall time of the `judge` call in milliseconds; `0` when the run was not judged.
    pub(crate) judge_ms: f64,
    /// Input tokens the calls reported through their [`UsageMeter`](crate::UsageMeter)
    /// (`generate` attempts and `judge` together); `0` when none reported.
    pub(crate) input_tokens: u64,
    /// Output tokens, likewise.
    pub(crate) output_tokens: u64,
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

/// Latency and tokens over the measured runs of a report ([`EvalTotals::measured`](crate::EvalTotals::measured)).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeasuredTotals {
    /// Runs measured.
    pub runs: usize,
    /// Wall time of a run's `generate` calls (both attempts when there was a retry), in
    /// milliseconds, from each call's start to its answer (a failed or timed-out call
    /// counts until it failed), per run.
    pub generate_ms: Percentiles,
    /// Wall time of a run's `judge` call in milliseconds (`0` when not judged), per run.
    pub judge_ms: Percentiles,
    /// Input tokens a run's calls reported through their
    /// [`UsageMeter`](crate::UsageMeter) (`generate` attempts and `judge` together), per
    /// run.
    pub input_tokens: Percentiles,
    /// Output tokens, likewise, per run.
    pub output_tokens: Percentiles,
}

impl MeasuredTotals {
    /// The totals over the measures of the runs that carry them; `None` when there is none.
    pub(super) fn from_measures(measured: Vec<CaseMeasures>) -> Option<Self> {
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

/// What [`format_measurements`] prints for a report without measures.
pub(crate) const NOT_MEASURED: &str = "latency and tokens: not measured in replay";

/// Formats the latency and tokens of a measured report (a live run with
/// [`RunEvalsOptions::measure`](crate::RunEvalsOptions::measure)), laid out as
/// [`format_report`](crate::format_report) lays out its rows, each measure's mean, p50 and p95 over the runs
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
/// A report without measures (every replay) prints `latency and tokens: not measured in replay` alone. Kept apart
/// from [`format_report`](crate::format_report), whose text is upstream's and is committed as a baseline: wall
/// time is not deterministic, so no baseline holds it.
pub fn format_measurements(report: &EvalReport) -> String {
    match measured_table(report) {
        Some(table) => table.finish(),
        None => NOT_MEASURED.to_owned(),
    }
}

/// The rows [`format_measurements`] prints, for a caller that adds its own (the harness
/// adds the cost); `None` for a report without measures.
pub(crate) fn measured_table(report: &EvalReport) -> Option<ReportTable> {
    let measured = report.totals.measured.as_ref()?;
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
    Some(table)
}
