//! The outcome of a run, one file per thing it writes:
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | the [`EvalReport`] itself |
//! | `case.rs` | one case's result ([`EvalCaseResult`]) |
//! | `totals.rs` | what the results add up to ([`EvalTotals`]) and what the floors read |
//! | `repeats.rs` | statistics over repeats ([`Mean`], [`CaseSpread`]) |
//! | `scored_run.rs` | what those read of one run, from a report or a run file |
//! | `measured.rs` | wall time and tokens of a live run, and [`format_measurements`] |
//! | `text.rs` | [`format_report`], byte-identical to upstream's `formatReport` (its expected-hit and errored-case lines included) |

mod case;
mod measured;
pub(crate) mod repeats;
pub(crate) mod scored_run;
mod text;
mod totals;

use serde::{Deserialize, Serialize};

pub use crate::callback::{CaseError, CaseStage};
pub use case::EvalCaseResult;
pub(crate) use measured::CaseMeasures;
pub(crate) use measured::measured_table;
pub use measured::{MeasuredTotals, Percentiles, format_measurements};
pub use repeats::Mean;
pub use text::format_report;
pub(crate) use text::report_table;
pub(crate) use totals::CaseScores;
#[cfg(test)]
pub(crate) use totals::floor_tests;
pub use totals::{AnswerabilityTotals, EvalTotals, ExpectedTotals};

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

impl EvalReport {
    /// The same report without its measures (each result's and
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
}
