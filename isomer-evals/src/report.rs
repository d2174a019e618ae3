//! The outcome of a run: per-case [`EvalCaseResult`]s, the [`EvalTotals`],
//! and [`format_report`], byte-identical to upstream's `formatReport`
//! (its expected-hit and errored-case lines included).

use serde::{Deserialize, Serialize};

pub use crate::callback::{CaseError, CaseStage};
use crate::case::AnswerabilityVerdict;
use crate::floor::{Score, Scores};
use crate::report_table::{ABSENT, ReportTable, count, first_error, hits};
use crate::score::{
    AnswerabilityScore, ExpectedPrimitivesScore, PayloadScore, PrimitiveSelectionScore,
    ValidityScore,
};
use isomer_sdk::js::{one_line, to_fixed_2};

/// The scores of one case (upstream `EvalCaseResult`, plus the seed's
/// `expected` and an `error` for a case whose callback failed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalCaseResult {
    /// The case's id.
    pub case_id: String,
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
    /// Number of results, errored ones included.
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
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl EvalTotals {
    /// Adds up `results`: counts of parsed, valid, valid-after-retry and errored cases;
    /// the mean F1 over the cases that have a selection (`None` when none has); verdict
    /// counts over the judged cases and hits over the cases listing `expected` (each
    /// `None` when no case has one).
    pub fn from_results(results: &[EvalCaseResult]) -> Self {
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
        EvalTotals {
            cases: results.len(),
            parsed: count(|r| r.validity.parsed),
            valid: count(|r| r.validity.valid),
            valid_after_retry: count(|r| r.validity.valid_after_retry),
            mean_selection_f1,
            answerability,
            expected,
            errored: count(|r| r.error.is_some()),
        }
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
pub fn format_report(report: &EvalReport) -> String {
    report_table(report).finish()
}

/// The rows and sections [`format_report`] prints, before they are laid out; the HTML
/// report reads the same rows.
pub(crate) fn report_table(report: &EvalReport) -> ReportTable {
    let totals = &report.totals;
    let mut table = ReportTable::default();
    table.row("cases", totals.cases.to_string());
    table.row("parsed", count(totals.parsed, totals.cases));
    table.row("valid", count(totals.valid, totals.cases));
    table.row(
        "valid after retry",
        count(totals.valid_after_retry, totals.cases),
    );
    table.row(
        "mean selection F1",
        totals
            .mean_selection_f1
            .map_or_else(|| ABSENT.to_owned(), to_fixed_2),
    );
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
        table.row("errored", count(totals.errored, totals.cases));
    }

    let invalid: Vec<String> = report
        .results
        .iter()
        .filter(|r| !r.validity.valid)
        .filter(|r| {
            !r.error
                .as_ref()
                .is_some_and(CaseError::before_first_attempt)
        })
        .map(|r| first_error(&r.case_id, &r.validity.errors))
        .collect();
    table.section("invalid:", invalid);

    let invented: Vec<String> = report
        .results
        .iter()
        .filter(|r| !r.payload.unknown_types.is_empty())
        .map(|r| format!("  {}: {}", r.case_id, r.payload.unknown_types.join(", ")))
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
                .map(|e| format!("  {}: {}", r.case_id, one_line(&e.to_string())))
        })
        .collect();
    table.section("errored:", errored);
    table
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
