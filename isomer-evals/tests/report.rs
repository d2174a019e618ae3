//! `format_report`, byte for byte as upstream's `formatReport` prints, and the wire
//! shape of a report.

mod support;

use isomer_evals::{
    AnswerabilityScore, AnswerabilityVerdict, CaseError, CaseStage, EvalCase, EvalCaseResult,
    EvalReport, ExpectedPrimitivesScore, PrimitiveSelectionScore, RunEvalsOptions, format_report,
    run_evals,
};
use serde_json::json;
use support::{Replay, StubRuntime, fixture};

/// A result that parsed and validated, with nothing else scored, read from its wire shape
/// (a result's measures are its run's own, so outside a run a result is read, not built).
fn result(id: &str) -> EvalCaseResult {
    serde_json::from_value(json!({
        "caseId": id,
        "validity": {
            "parsed": true,
            "valid": true,
            "validAfterRetry": true,
            "errors": [],
            "composition": {"type": "view", "body": []}
        },
        "payload": {"rawBytes": 31, "sanitizedBytes": 27, "unknownTypes": []}
    }))
    .unwrap()
}

fn invalid(id: &str, errors: &[&str]) -> EvalCaseResult {
    let mut r = result(id);
    r.validity.valid = false;
    r.validity.valid_after_retry = false;
    r.validity.composition = None;
    r.validity.errors = errors.iter().map(|e| (*e).to_owned()).collect();
    r
}

fn with_f1(mut r: EvalCaseResult, f1: f64) -> EvalCaseResult {
    r.selection = Some(PrimitiveSelectionScore {
        precision: f1,
        recall: f1,
        f1,
        extra: vec![],
        missing: vec![],
    });
    r
}

#[tokio::test]
async fn lists_invalid_cases_and_invented_types() {
    // The run of upstream's formatReport test.
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[("invented", 0, &fixture(&["sparkline"]))]);
    let corpus = vec![EvalCase::new("invented", "Show a trend.")];
    let report = run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    let text = format_report(&report);
    assert_eq!(
        text,
        "cases             1\n\
         parsed            1 (100%)\n\
         valid             0 (0%)\n\
         valid after retry 0 (0%)\n\
         mean selection F1 \u{2014}\n\
         \n\
         invalid:\n  \
         invented: body unknown node type \"sparkline\"\n\
         \n\
         invented node types:\n  \
         invented: sparkline"
    );
    insta::assert_snapshot!("upstream_format_report_example", text);
}

#[test]
fn pads_every_label_to_18_columns_and_prints_answerability() {
    let mut yes = with_f1(result("a"), 1.0);
    yes.answerability = Some(AnswerabilityScore {
        verdict: AnswerabilityVerdict::Yes,
    });
    let mut no = with_f1(result("b"), 0.5);
    no.answerability = Some(AnswerabilityScore {
        verdict: AnswerabilityVerdict::No,
    });
    let text = format_report(&EvalReport::new(vec![yes, no]));
    assert_eq!(
        text,
        "cases             2\n\
         parsed            2 (100%)\n\
         valid             2 (100%)\n\
         valid after retry 2 (100%)\n\
         mean selection F1 0.75\n\
         answerability     yes 1 / partial 0 / no 1"
    );
}

#[test]
fn rounds_percentages_half_up_as_math_round_does() {
    // 1/8 = 12.5% → 13%, 3/8 → 38%, 5/8 → 63%.
    let mut results: Vec<EvalCaseResult> = (0..8).map(|i| invalid(&i.to_string(), &[])).collect();
    results[0].validity.valid = true;
    results[0].validity.valid_after_retry = true;
    for r in &mut results[..3] {
        r.validity.valid_after_retry = true;
    }
    for r in &mut results[5..] {
        r.validity.parsed = false;
    }
    let report = EvalReport::new(results);
    let text = format_report(&report);
    let head: Vec<&str> = text.lines().take(4).collect();
    assert_eq!(
        head,
        [
            "cases             8",
            "parsed            5 (63%)",
            "valid             1 (13%)",
            "valid after retry 3 (38%)",
        ]
    );
    // 1/200 = 0.5% → 1%.
    let mut results: Vec<EvalCaseResult> =
        (0..200).map(|i| invalid(&i.to_string(), &["x"])).collect();
    results[0] = result("0");
    let text = format_report(&EvalReport::new(results));
    assert!(text.contains("\nvalid             1 (1%)\n"), "{text}");
}

#[test]
fn prints_mean_f1_with_to_fixed_2_ties_half_up() {
    for (f1, printed) in [
        (0.125, "0.13"),
        (0.375, "0.38"),
        (1.005, "1.00"),
        (0.045, "0.04"),
        (0.995, "0.99"),
        (0.0, "0.00"),
    ] {
        let text = format_report(&EvalReport::new(vec![with_f1(result("a"), f1)]));
        assert_eq!(
            text.lines().nth(4),
            Some(&*format!("mean selection F1 {printed}"))
        );
    }
}

#[test]
fn an_empty_report_prints_em_dashes() {
    let text = format_report(&EvalReport::new(vec![]));
    assert_eq!(
        text,
        "cases             0\n\
         parsed            0 (\u{2014})\n\
         valid             0 (\u{2014})\n\
         valid after retry 0 (\u{2014})\n\
         mean selection F1 \u{2014}"
    );
}

#[test]
fn counts_more_errors_and_says_did_not_parse_for_an_empty_list() {
    let mut retried = invalid(
        "retried",
        &[
            "body[0].label (in kpi) is required",
            "body[1] is bad",
            "body[2] is bad",
        ],
    );
    retried.validity.valid_after_retry = true;
    let silent = invalid("silent", &[]);
    let text = format_report(&EvalReport::new(vec![retried, silent]));
    assert!(
        text.ends_with(
            "\n\ninvalid:\n  retried: body[0].label (in kpi) is required (+2)\n  silent: did not parse"
        ),
        "{text}"
    );
}

#[test]
fn prints_expected_hits_and_errored_cases_only_when_present() {
    let plain = format_report(&EvalReport::new(vec![result("a")]));
    assert!(!plain.contains("expected hits"), "{plain}");
    assert!(!plain.contains("errored"), "{plain}");

    let mut hit = result("hit");
    hit.expected = Some(ExpectedPrimitivesScore {
        hit: true,
        found: vec!["stat".to_owned()],
    });
    let mut miss = invalid("miss", &["body is required"]);
    miss.expected = Some(ExpectedPrimitivesScore {
        hit: false,
        found: vec![],
    });
    miss.payload.unknown_types = vec!["sparkline".to_owned(), "spiral".to_owned()];
    let mut down = invalid("down", &[]);
    down.validity.parsed = false;
    down.error = Some(CaseError {
        stage: CaseStage::Generate,
        attempt: Some(0),
        panicked: false,
        message: "connection reset".to_owned(),
    });
    let mut judged = result("judged");
    judged.error = Some(CaseError {
        stage: CaseStage::Judge,
        attempt: None,
        panicked: true,
        message: "judge bug".to_owned(),
    });
    let text = format_report(&EvalReport::new(vec![hit, miss, down, judged]));
    assert_eq!(
        text,
        "cases             4\n\
         parsed            3 (75%)\n\
         valid             2 (50%)\n\
         valid after retry 2 (50%)\n\
         mean selection F1 \u{2014}\n\
         expected hits     1 / 2 (50%)\n\
         errored           2 (50%)\n\
         \n\
         invalid:\n  \
         miss: body is required\n\
         \n\
         invented node types:\n  \
         miss: sparkline, spiral\n\
         \n\
         errored:\n  \
         down: generate attempt 0 failed: connection reset\n  \
         judged: judge panicked: judge bug"
    );
    insta::assert_snapshot!("expected_hits_and_errored", text);
}

#[test]
fn a_report_serializes_with_upstream_camel_case_keys() {
    let mut r = with_f1(result("a"), 1.0);
    r.expected = Some(ExpectedPrimitivesScore {
        hit: true,
        found: vec!["stat".to_owned()],
    });
    r.payload.size_vs_golden = Some(0.5);
    insta::assert_json_snapshot!("report_wire_shape", EvalReport::new(vec![r]));
}
