//! What a case trial and a totals trial run, and the failure message each writes.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

use libtest_mimic::Failed;

use super::html;
use super::kind::{self, SuiteKind, write_errors};
use super::snapshot::{DiffOutput, Findings, ReplayState, conclude_totals};
use super::{CaseSpec, CorpusSpec, SuiteSpec};
use crate::baseline::{BaselineRecord, PromptMismatch, check_prompt};
use crate::case::{AnswerabilityVerdict, EvalCase};
use crate::corpus::{CorpusErrors, check_recordings};
use crate::floor::{CaseScores, FloorLevel, FloorMiss, SuiteTotals};
use crate::html::AnswerLog;
use crate::recordings::{MissingRecording, RecordingFault, Recordings, StaleJudgment, StaleReason};
use crate::report::{EvalCaseResult, EvalReport, EvalTotals, format_report};

impl SuiteKind for SuiteSpec {
    fn name(&self) -> &'static str {
        self.name
    }
    fn corpus(&self) -> &CorpusSpec {
        &self.corpus
    }
    fn holding(&self) -> &'static str {
        "answers/, judgments.json and prompt.txt"
    }
    fn run_case(&self, dir: &Path, case: &'static CaseSpec) -> Result<(), Failed> {
        run_case(self, dir, case)
    }
    fn run_totals(&self, dir: &Path, diffs: DiffOutput) -> Result<(), Failed> {
        run_totals(self, dir, diffs)
    }
}

/// Runs `cases` with the suite's options, replaying `recordings`.
fn evaluate(suite: &SuiteSpec, cases: Vec<EvalCase>, recordings: &Recordings) -> EvalReport {
    let built = (suite.build)();
    let judge = recordings.has_judgments().then(|| recordings.judge());
    built.run(cases, recordings.generate(), judge)
}

/// The `<suite>::<case id>` trial. Parses only the case's own bytes of the manifest (the
/// macro checked the whole text at compile time) and reads only its own recordings.
fn run_case(suite: &SuiteSpec, dir: &Path, spec: &CaseSpec) -> Result<(), Failed> {
    let case_id = spec.id;
    let case = kind::case_of(&suite.corpus, spec)?;
    let has_golden = case.golden.is_some();
    let recordings = Recordings::new(dir);
    let report = evaluate(suite, vec![case], &recordings);
    let result = report
        .results
        .first()
        .ok_or("run_evals returned no result for the case")?;
    let scores = case_scores(result, has_golden);
    let misses: Vec<FloorMiss> = suite
        .floors
        .iter()
        .filter_map(|floor| floor.check_case(&scores))
        .collect();
    let message = case_message(
        case_id,
        result,
        &scores,
        &misses,
        &recordings.missing_recordings(),
        &recordings.stale_judgments(),
        &recordings.faults(),
    );
    match message {
        None => Ok(()),
        Some(message) => Err(message.into()),
    }
}

/// What the case floors read of one result.
pub(crate) fn case_scores(result: &EvalCaseResult, has_golden: bool) -> CaseScores {
    CaseScores {
        parsed: result.validity.parsed,
        valid: result.validity.valid,
        valid_after_retry: result.validity.valid_after_retry,
        errors: result.validity.errors.clone(),
        has_golden,
        selection_f1: result.selection.as_ref().map(|selection| selection.f1),
        expected_hit: result.expected.as_ref().map(|expected| expected.hit),
        unknown_types: result.payload.unknown_types.clone(),
        size_vs_golden: result.payload.size_vs_golden,
        answerability: result.answerability.map(|score| {
            match score.verdict {
                AnswerabilityVerdict::Yes => "yes",
                AnswerabilityVerdict::Partial => "partial",
                AnswerabilityVerdict::No => "no",
            }
            .to_owned()
        }),
    }
}

/// The failure message of a case trial, or `None` when it passes.
fn case_message(
    case_id: &str,
    result: &EvalCaseResult,
    scores: &CaseScores,
    misses: &[FloorMiss],
    missing: &[MissingRecording],
    stale: &[StaleJudgment],
    faults: &[RecordingFault],
) -> Option<String> {
    let mut out = String::new();
    if let Some(error) = &result.error {
        let _ = writeln!(out, "case `{case_id}` did not complete: {error}");
    }
    if !misses.is_empty() {
        let _ = writeln!(out, "case `{case_id}` is below its floors:");
        for miss in misses {
            let _ = writeln!(out, "  {miss}");
        }
    }
    if !missing.is_empty() {
        let _ = writeln!(
            out,
            "missing recordings (strict replay answers them with empty text): {}",
            list(missing)
        );
    }
    // A case without a verdict is errored at the judge stage, which the first line says.
    if stale
        .iter()
        .any(|stale| stale.reason == StaleReason::OtherRendering)
    {
        let _ = writeln!(
            out,
            "the verdict for `{case_id}` in judgments.json was given for another text rendering: re-judge it on the current one"
        );
    }
    // An unreadable file already failed the case; a cut-off fence did not.
    for fault in faults {
        if result
            .error
            .as_ref()
            .is_none_or(|error| !error.message.contains(&fault.message))
        {
            let _ = writeln!(out, "{fault}");
        }
    }
    if out.is_empty() {
        return None;
    }
    if !scores.parsed {
        // One JSON syntax error; an empty text is what a missing recording replays as. No
        // error means no text was parsed at all (the first `generate` failed, which the
        // `did not complete` line above already says), so there is nothing to add.
        if let Some(error) = scores.errors.first() {
            let _ = writeln!(out, "first attempt is not JSON: {error}");
        }
    } else if !scores.errors.is_empty() {
        write_errors(
            &mut out,
            "first attempt's validation errors",
            &scores.errors,
        );
    }
    Some(out.trim_end().to_owned())
}

/// The `<suite>::totals` trial; a moved baseline's diff goes where `diffs` says.
fn run_totals(suite: &SuiteSpec, dir: &Path, diffs: DiffOutput) -> Result<(), Failed> {
    let cases = kind::cases_of(&suite.corpus)?;
    let recordings = Recordings::new(dir);
    let answers = AnswerLog::new();
    let built = (suite.build)();
    let prompt = built.prompt();
    let judge = recordings.has_judgments().then(|| recordings.judge());
    // The HTML report, when asked, needs the cases and the text of every attempt.
    let html = html::html_dir();
    let page_cases = html.as_ref().map(|_| cases.clone());
    let generate = match html {
        Some(_) => answers.tap(recordings.generate()),
        None => recordings.generate(),
    };
    let report = built.run(cases, generate, judge);

    let mut out = String::new();
    let totals = suite_totals(&report.totals);
    let misses: Vec<FloorMiss> = suite
        .floors
        .iter()
        .filter(|floor| floor.level() == FloorLevel::Suite)
        .filter_map(|floor| floor.check_suite(&totals))
        .collect();
    if !misses.is_empty() {
        let _ = writeln!(out, "suite `{}` is below its floors:", suite.name);
        for miss in &misses {
            let _ = writeln!(out, "  {miss}");
        }
    }
    // Everything written from here on is a fault of the recordings.
    let after_floors = out.len();
    let errored: Vec<String> = report
        .results
        .iter()
        .filter_map(|result| {
            let error = result.error.as_ref()?;
            Some(format!("  {}: {error}", result.case_id))
        })
        .collect();
    if !errored.is_empty() {
        let _ = writeln!(out, "cases that did not complete:\n{}", errored.join("\n"));
    }
    let findings = recordings.findings();
    let _ = write!(out, "{findings}");
    if let Err(errors) = unreplayed_recordings(suite, recordings.dir()) {
        let _ = writeln!(
            out,
            "recordings that do not match the corpus (fix, rename or delete them):"
        );
        for error in errors.errors() {
            let _ = writeln!(out, "  {error}");
        }
    }
    let prompt_path = recordings.dir().join("prompt.txt");
    let checked = match std::fs::read_to_string(&prompt_path) {
        Ok(recorded) => Ok(check_prompt(&prompt, Some(&recorded))),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            Ok(check_prompt(&prompt, None))
        }
        Err(error) => Err(error),
    };
    match checked {
        Ok(Ok(())) => {}
        Err(error) => {
            let _ = writeln!(out, "cannot read {}: {error}", prompt_path.display());
        }
        Ok(Err(PromptMismatch::Missing)) => {
            let _ = writeln!(
                out,
                "{} does not exist: write the prompt the suite builds there (`Suite::prompt()` returns it), then record the answers from it",
                prompt_path.display()
            );
        }
        Ok(Err(mismatch)) => {
            let _ = writeln!(out, "{}: {mismatch}", prompt_path.display());
        }
    }
    let baseline = BaselineRecord::new(&prompt, &recordings);
    let replay_state = if out.len() > after_floors {
        ReplayState::Faulty
    } else {
        ReplayState::Sound
    };
    if let (Some(html), Some(cases)) = (&html, &page_cases) {
        let committed: Option<EvalReport> =
            html::committed_report(Path::new(suite.snapshots), suite.name);
        let findings = recordings.findings();
        let mut page = built
            .page(suite.name, &report, cases)
            .answers(&answers)
            .floors(suite.floors)
            .findings(&findings);
        if let Some(committed) = &committed {
            page = page.baseline(committed);
        }
        for line in out[after_floors..].lines() {
            page = page.note(line);
        }
        if let Err(error) = html::write_page(html, suite.name, &page.to_html()) {
            let _ = writeln!(out, "{error}");
        }
    }
    drop(built);
    conclude_totals(
        Findings {
            text: out,
            replay_state,
        },
        suite.name,
        Path::new(suite.snapshots),
        &report,
        &format_report(&report),
        &baseline,
        diffs,
    )
}

/// Checks that the recordings directory holds nothing a replay of the compiled-in cases
/// would never read: answer files for unknown cases or with names no replay asks for, and
/// judgments for unknown cases (a deleted or renamed case leaves these behind, and a
/// strict gate must not pass over them silently).
fn unreplayed_recordings(suite: &SuiteSpec, dir: &Path) -> Result<(), CorpusErrors> {
    let ids: HashSet<&str> = suite.corpus.cases.iter().map(|case| case.id).collect();
    check_recordings(dir, &ids)
}

/// What the suite floors read of the totals.
pub(crate) fn suite_totals(totals: &EvalTotals) -> SuiteTotals {
    SuiteTotals {
        cases: totals.cases as u64,
        valid: totals.valid as u64,
        valid_after_retry: totals.valid_after_retry as u64,
        mean_selection_f1: totals.mean_selection_f1,
        answerability_no: totals.answerability.map_or(0, |counts| counts.no as u64),
    }
}

/// `answers/a.1.txt, answers/b.0.txt`.
fn list(missing: &[MissingRecording]) -> String {
    missing
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::Floor;

    #[test]
    fn case_message_names_every_miss_and_the_first_errors() {
        let scores = CaseScores {
            parsed: true,
            errors: vec![
                "body[0]: unknown node type \"sparkline\"".into(),
                "body[1].items: must not be empty".into(),
                "body[2].label: is required".into(),
                "body[3].value: is required".into(),
                "body[4]: has unrecognized key(s): x; its fields are a, b".into(),
            ],
            has_golden: true,
            selection_f1: Some(2.0 / 3.0),
            unknown_types: vec!["sparkline".into()],
            ..CaseScores::default()
        };
        let misses: Vec<FloorMiss> = [
            Floor::ValidAfterRetry,
            Floor::MinSelectionF1(0.8),
            Floor::NoInventedTypes,
        ]
        .iter()
        .filter_map(|floor| floor.check_case(&scores))
        .collect();
        let result: EvalCaseResult = serde_json::from_value(serde_json::json!({
            "caseId": "chart-q3",
            "validity": { "parsed": true, "valid": false, "validAfterRetry": false, "errors": [] },
            "payload": { "rawBytes": 10, "sanitizedBytes": 0, "unknownTypes": ["sparkline"] }
        }))
        .unwrap();
        let message = case_message(
            "chart-q3",
            &result,
            &scores,
            &misses,
            &[MissingRecording {
                case_id: "chart-q3".into(),
                attempt: 1,
            }],
            &[],
            &[],
        )
        .unwrap();
        assert_eq!(
            message,
            "case `chart-q3` is below its floors:
  valid_after_retry: false, floor true
  min_selection_f1: 0.6667, floor >= 0.8
  no_invented_types: [sparkline], floor []
missing recordings (strict replay answers them with empty text): answers/chart-q3.1.txt
first attempt's validation errors (5):
  body[0]: unknown node type \"sparkline\"
  body[1].items: must not be empty
  body[2].label: is required
  (+2 more)"
        );
        assert_eq!(
            case_message("chart-q3", &result, &scores, &[], &[], &[], &[]),
            None
        );

        // An attempt that is not JSON (here: a missing recording, replayed as empty text)
        // is named as such, not as a validation error.
        let unparsed = CaseScores {
            parsed: false,
            errors: vec!["EOF while parsing a value at line 1 column 0".into()],
            has_golden: true,
            ..CaseScores::default()
        };
        let misses: Vec<FloorMiss> = [Floor::ValidAfterRetry]
            .iter()
            .filter_map(|floor| floor.check_case(&unparsed))
            .collect();
        assert_eq!(
            case_message(
                "chart-q3",
                &result,
                &unparsed,
                &misses,
                &[MissingRecording {
                    case_id: "chart-q3".into(),
                    attempt: 0,
                }],
                &[],
                &[],
            )
            .unwrap(),
            "case `chart-q3` is below its floors:
  valid_after_retry: false, floor true
missing recordings (strict replay answers them with empty text): answers/chart-q3.0.txt
first attempt is not JSON: EOF while parsing a value at line 1 column 0"
        );
    }

    /// A first `generate` that failed (an unreadable answer file) leaves no text and no
    /// error to show: the message says why the case did not complete and what its floors
    /// read, and claims no JSON error.
    #[test]
    fn case_message_of_a_failed_generate_claims_no_json_error() {
        let result: EvalCaseResult = serde_json::from_value(serde_json::json!({
            "caseId": "good",
            "validity": { "parsed": false, "valid": false, "validAfterRetry": false, "errors": [] },
            "payload": { "rawBytes": 0, "sanitizedBytes": 0, "unknownTypes": [] },
            "error": {
                "stage": "generate",
                "attempt": 0,
                "panicked": false,
                "message": "answers/good.0.txt:1:51: is not UTF-8 text (first invalid byte here)"
            }
        }))
        .unwrap();
        let scores = case_scores(&result, true);
        let misses: Vec<FloorMiss> = [Floor::ValidAfterRetry]
            .iter()
            .filter_map(|floor| floor.check_case(&scores))
            .collect();
        assert_eq!(
            case_message("good", &result, &scores, &misses, &[], &[], &[]).unwrap(),
            "case `good` did not complete: generate attempt 0 failed: answers/good.0.txt:1:51: is not UTF-8 text (first invalid byte here)
case `good` is below its floors:
  valid_after_retry: false, floor true"
        );
    }
}
