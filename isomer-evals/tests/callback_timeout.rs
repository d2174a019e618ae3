//! A callback that never answers: with `RunEvalsOptions::timeout` set, its case fails at
//! that stage once the timeout ends, and every other case is still scored and reported.

mod support;

use std::time::{Duration, Instant};

use isomer_evals::{
    AnswerabilityVerdict, BoxError, CaseError, CaseStage, EvalCase, Generate, GenerateRequest,
    Judge, JudgeRequest, RunEvalsOptions, format_report, run_evals,
};
use support::{StubRuntime, fixture};

const TIMEOUT: Duration = Duration::from_millis(500);

/// Four cases; `stuck` never gets an answer from `generate`, the others answer at once.
fn corpus() -> Vec<EvalCase> {
    ["first", "stuck", "third", "fourth"]
        .into_iter()
        .map(|id| EvalCase::new(id, "How many?"))
        .collect()
}

fn generate() -> Generate<'static> {
    Generate::new(|request: GenerateRequest| async move {
        if request.eval_case.id == "stuck" {
            futures::future::pending::<()>().await;
        }
        Ok::<_, BoxError>(fixture(&["stat"]))
    })
}

fn run(concurrency: usize, judge: Option<Judge<'static>>) -> (isomer_evals::EvalReport, Duration) {
    let runtime = StubRuntime::new();
    let mut options = RunEvalsOptions::new(&runtime, corpus(), generate());
    options.timeout = Some(TIMEOUT);
    options.concurrency = concurrency;
    options.judge = judge;
    let started = Instant::now();
    let report = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
        .block_on(run_evals(options));
    (report, started.elapsed())
}

fn assert_stuck_case_timed_out(concurrency: usize) {
    let (report, elapsed) = run(concurrency, None);
    assert!(
        elapsed < TIMEOUT + Duration::from_secs(1),
        "concurrency {concurrency}: the run took {elapsed:?}"
    );
    let ids: Vec<&str> = report.results.iter().map(|r| r.case_id.as_str()).collect();
    assert_eq!(ids, ["first", "stuck", "third", "fourth"]);
    assert_eq!(report.totals.cases, 4);
    assert_eq!(report.totals.valid, 3);
    assert_eq!(report.totals.errored, 1);
    let error = report.results[1].error.clone().unwrap();
    assert_eq!(
        error,
        CaseError {
            stage: CaseStage::Generate,
            attempt: Some(0),
            panicked: false,
            message: "timed out after 500ms".to_owned(),
        }
    );
    assert!(
        format_report(&report)
            .ends_with("errored:\n  stuck: generate attempt 0 failed: timed out after 500ms"),
        "{}",
        format_report(&report)
    );
    assert_eq!(
        serde_json::to_value(&error).unwrap(),
        serde_json::json!({
            "stage": "generate",
            "attempt": 0,
            "panicked": false,
                        "message": "timed out after 500ms",
        })
    );
}

#[test]
fn a_generate_that_never_answers_times_out_one_case_at_a_time() {
    assert_stuck_case_timed_out(1);
}

#[test]
fn a_generate_that_never_answers_times_out_four_cases_at_a_time() {
    assert_stuck_case_timed_out(4);
}

#[test]
fn a_judge_that_never_answers_times_out_its_case_only() {
    let judge = Judge::new(|request: JudgeRequest| async move {
        if request.eval_case.id == "third" {
            futures::future::pending::<()>().await;
        }
        Ok::<_, BoxError>(AnswerabilityVerdict::Yes)
    });
    let (report, elapsed) = run(4, Some(judge));
    assert!(elapsed < TIMEOUT + Duration::from_secs(1), "{elapsed:?}");
    let errors: Vec<Option<String>> = report
        .results
        .iter()
        .map(|r| r.error.as_ref().map(ToString::to_string))
        .collect();
    assert_eq!(
        errors,
        [
            None,
            Some("generate attempt 0 failed: timed out after 500ms".to_owned()),
            Some("judge failed: timed out after 500ms".to_owned()),
            None,
        ]
    );
    assert_eq!(report.totals.answerability.unwrap().yes, 2);
}

#[test]
fn a_timeout_outside_a_tokio_runtime_fails_the_call_and_says_why() {
    let runtime = StubRuntime::new();
    let mut options =
        RunEvalsOptions::new(&runtime, vec![EvalCase::new("a", "How many?")], generate());
    options.timeout = Some(TIMEOUT);
    let report = futures::executor::block_on(run_evals(options));
    assert_eq!(
        report.results[0].error.as_ref().unwrap().to_string(),
        "generate attempt 0 failed: a timeout of 500ms needs a Tokio runtime with its time driver \
         enabled, and this call runs outside any; run the evals inside one, or set no timeout"
    );
}

#[test]
fn an_agent_step_that_never_answers_ends_its_run_only() {
    use isomer_evals::agent::{
        AgentStep, AgentStepRequest, AgentStepResult, RunAgentEvalsOptions, run_agent_evals,
    };
    let runtime = StubRuntime::new();
    let step = AgentStep::new(|request: AgentStepRequest| async move {
        if request.eval_case.id == "stuck" {
            futures::future::pending::<()>().await;
        }
        Ok::<_, BoxError>(AgentStepResult {
            text: fixture(&["stat"]),
            tool_calls: Vec::new(),
            usage: Default::default(),
            raw: None,
        })
    });
    let mut options = RunAgentEvalsOptions::new(&runtime, Vec::new(), corpus(), step);
    options.timeout = Some(TIMEOUT);
    options.concurrency = 4;
    let started = Instant::now();
    let report = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
        .block_on(run_agent_evals(options));
    assert!(started.elapsed() < TIMEOUT + Duration::from_secs(1));
    let outcomes: Vec<(&str, bool, Option<String>)> = report
        .results
        .iter()
        .map(|r| {
            (
                r.case_id.as_str(),
                r.valid,
                r.error.as_ref().map(ToString::to_string),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("first", true, None),
            (
                "stuck",
                false,
                Some("step turn 0 failed: timed out after 500ms".to_owned())
            ),
            ("third", true, None),
            ("fourth", true, None),
        ]
    );
}
