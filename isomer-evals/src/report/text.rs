//! The report as text: [`format_report`], byte-identical to upstream's `formatReport`, and
//! the rows it lays out ([`report_table`]), which the HTML report reads too.

use super::EvalReport;
use super::case::EvalCaseResult;
use super::repeats::CaseSpread;
use crate::callback::CaseError;
use crate::report_table::{ABSENT, ReportTable, count, first_error, hits, run_name};
use isomer_sdk::js_parity::{one_line, to_fixed_2};

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
/// With repeats (more than one run per case) the counts are over
/// the runs: a `runs  <n> (repeat <k>)` row follows `cases`, percentages are of the runs,
/// `mean selection F1` is followed by ` ± <standard error>`, and after the other rows come
/// `mean parsed`, `mean valid`, `mean valid after retry`, `mean expected hit` (when a case
/// lists expected types) and `mean answerability yes` (when a run was judged), each
/// `<mean> ± <standard error>` as [`Mean`](crate::Mean) defines them, in JS `toFixed(2)`. Runs are named
/// `<caseId>#<repeat>` in the sections, and a last section `spread over repeats (min–max
/// per case):` gives per case `  <caseId>: valid <n>/<runs>, valid after retry <n>/<runs>,
/// selection F1 <min>–<max>, raw bytes <min>–<max>` (the F1 part only when a run has a
/// selection). With one run per case nothing of this appears, and the text is upstream's.
///
/// Pack scorers ([`crate::scorer`]), only when the run has one, add a row each after the
/// others: a flag scorer `<name>  <met> / <runs scored> (<percent>)`, a number scorer
/// `mean <name>  <mean>` (JS `toFixed(2)`); and, before `errored:`, a section `<name>
/// false:` per flag scorer listing each run whose flag does not hold, `  <caseId>:
/// <detail>` (the run alone when the scorer said nothing of it).
/// Latency and tokens are printed by [`format_measurements`](crate::format_measurements), not here.
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
    let f1 = match repeats.and_then(|repeats| repeats.axes.selection_f1) {
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
        let axes = &repeats.axes;
        table.row("mean parsed", axes.parsed.text());
        table.row("mean valid", axes.valid.text());
        table.row("mean valid after retry", axes.valid_after_retry.text());
        if let Some(mean) = axes.expected_hit {
            table.row("mean expected hit", mean.text());
        }
        if let Some(mean) = axes.answerability_yes {
            table.row("mean answerability yes", mean.text());
        }
    }
    // Pack scorers, after every built-in row: a flag as its hits over the runs scored, a
    // number as its mean.
    for scorer in &totals.scorers {
        if scorer.flag {
            table.row(scorer.name.clone(), hits(scorer.met, scorer.runs));
        } else {
            table.row(format!("mean {}", scorer.name), to_fixed_2(scorer.mean));
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

    for scorer in totals.scorers.iter().filter(|scorer| scorer.flag) {
        let unmet: Vec<String> = report
            .results
            .iter()
            .filter_map(|r| {
                let score = r.scorers.iter().find(|score| score.name == scorer.name)?;
                (!score.value.as_flag()).then(|| match &score.detail {
                    Some(detail) => format!("  {}: {}", name(r), one_line(detail)),
                    None => format!("  {}", name(r)),
                })
            })
            .collect();
        table.section(&format!("{} false:", scorer.name), unmet);
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::callback::CaseStage;
    use crate::score::{PayloadScore, ValidityScore};

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
            scorers: Vec::new(),
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
}
