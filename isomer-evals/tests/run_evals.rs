//! `run_evals` against upstream's stub runtime, plus the newer rules: frames, expected hits, whole-tree selection, errored
//! cases, and payload of the first attempt.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use isomer_evals::{
    AnswerabilityTotals, AnswerabilityVerdict, BoxError, CaseError, CaseStage, EvalCase, EvalFrame,
    ExpectedTotals, Generate, GenerateRequest, Judge, RunEvalsOptions, format_report, run_evals,
};
use isomer_sdk::AuthoringProfile;
use serde_json::{Value, json};
use support::{Replay, StubRuntime, fixture, fixture_value};

fn two_cases() -> Vec<EvalCase> {
    vec![
        EvalCase::new("good", "How many?"),
        EvalCase::new("invented", "Show a trend."),
    ]
}

#[tokio::test]
async fn scores_a_corpus_with_no_model_and_no_credentials() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[
        ("good", 0, &fixture(&["stat"])),
        ("invented", 0, &fixture(&["sparkline"])),
    ]);
    let report = run_evals(RunEvalsOptions::new(
        &runtime,
        two_cases(),
        replay.generate(),
    ))
    .await;
    assert_eq!(report.totals.cases, 2);
    assert_eq!(report.totals.parsed, 2);
    assert_eq!(report.totals.valid, 1);
    assert_eq!(report.totals.valid_after_retry, 1);
    assert_eq!(report.totals.answerability, None);
    assert_eq!(report.totals.errored, 0);
    let ids: Vec<&str> = report.results.iter().map(|r| r.case_id.as_str()).collect();
    assert_eq!(ids, ["good", "invented"]);
}

#[tokio::test]
async fn credits_a_retry_that_fixes_its_own_validation_errors() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[
        ("fix", 0, &fixture(&["sparkline"])),
        ("fix", 1, &fixture(&["stat"])),
    ]);
    let corpus = vec![EvalCase::new("fix", "How many?")];
    let report = run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    assert_eq!(report.totals.valid, 0);
    assert_eq!(report.totals.valid_after_retry, 1);
    let validity = &report.results[0].validity;
    assert_eq!(validity.errors, ["body unknown node type \"sparkline\""]);
    assert_eq!(validity.composition, Some(fixture_value(&["stat"])));
}

#[tokio::test]
async fn hands_the_retry_the_previous_errors() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[
        ("fix", 0, &fixture(&["sparkline"])),
        ("fix", 1, &fixture(&["stat"])),
    ]);
    let corpus = vec![EvalCase::new("fix", "How many?")];
    run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    let calls = replay.calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].attempt, 0);
    assert_eq!(calls[0].previous_errors, None);
    assert_eq!(calls[1].attempt, 1);
    assert_eq!(
        calls[1].previous_errors,
        Some(vec!["body unknown node type \"sparkline\"".to_owned()])
    );
    // Both attempts see the same shared prompt, which holds no case prompt.
    assert_eq!(calls[0].prompt, calls[1].prompt);
    assert!(!calls[0].prompt.contains("How many?"));
    assert_eq!(calls[0].eval_case.id, "fix");
}

#[tokio::test]
async fn does_not_retry_when_the_first_attempt_is_already_valid() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[("good", 0, &fixture(&["stat"]))]);
    let corpus = vec![EvalCase::new("good", "How many?")];
    run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    assert_eq!(replay.calls().len(), 1);
}

#[tokio::test]
async fn never_retries_when_retry_on_invalid_is_false() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[
        ("fix", 0, &fixture(&["sparkline"])),
        ("fix", 1, &fixture(&["stat"])),
    ]);
    let corpus = vec![EvalCase::new("fix", "How many?")];
    let mut options = RunEvalsOptions::new(&runtime, corpus, replay.generate());
    options.retry_on_invalid = false;
    let report = run_evals(options).await;
    assert_eq!(replay.calls().len(), 1);
    assert_eq!(report.totals.valid_after_retry, 0);
}

#[tokio::test]
async fn retries_a_value_that_parses_but_fails_validation_not_only_a_parse_failure() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[
        ("fix", 0, r#"{"type":"view","title":"Fixture"}"#),
        ("fix", 1, &fixture(&["stat"])),
    ]);
    let corpus = vec![EvalCase::new("fix", "How many?")];
    let report = run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    let calls = replay.calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        calls[1].previous_errors,
        Some(vec!["body is required".to_owned()])
    );
    let validity = &report.results[0].validity;
    assert!(validity.parsed);
    assert!(!validity.valid);
    assert!(validity.valid_after_retry);
}

#[tokio::test]
async fn a_retry_after_a_parse_failure_gets_the_parser_message() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[("fix", 0, "I cannot help with that.")]);
    let corpus = vec![EvalCase::new("fix", "How many?")];
    run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    assert_eq!(
        replay.calls()[1].previous_errors,
        Some(vec!["expected value at line 1 column 1".to_owned()])
    );
}

#[tokio::test]
async fn reports_invented_node_types() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[("invented", 0, &fixture(&["sparkline"]))]);
    let corpus = vec![EvalCase::new("invented", "Show a trend.")];
    let report = run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    assert_eq!(report.results[0].payload.unknown_types, ["sparkline"]);
}

fn stat_judge() -> Judge<'static> {
    Judge::new(|request| async move {
        Ok::<_, BoxError>(if request.rendered.contains("stat") {
            AnswerabilityVerdict::Yes
        } else {
            AnswerabilityVerdict::No
        })
    })
}

#[tokio::test]
async fn scores_answerability_only_when_a_judge_is_supplied() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[
        ("good", 0, &fixture(&["stat"])),
        ("invented", 0, &fixture(&["sparkline"])),
    ]);
    let mut options = RunEvalsOptions::new(&runtime, two_cases(), replay.generate());
    options.judge = Some(stat_judge());
    let report = run_evals(options).await;
    assert_eq!(
        report.totals.answerability,
        Some(AnswerabilityTotals {
            yes: 1,
            partial: 0,
            no: 0
        })
    );
    assert_eq!(report.results[1].answerability, None);
}

#[tokio::test]
async fn survives_output_that_is_not_json() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[
        ("prose", 0, "I cannot help with that."),
        ("prose", 1, "Still no."),
    ]);
    let corpus = vec![EvalCase::new("prose", "How many?")];
    let report = run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    assert_eq!(report.totals.parsed, 0);
    let result = &report.results[0];
    assert!(!result.validity.valid);
    assert!(!result.validity.valid_after_retry);
    assert_eq!(
        result.validity.errors,
        ["expected value at line 1 column 1"]
    );
    assert_eq!(result.payload.raw_bytes, 24);
    assert_eq!(result.error, None);
}

async fn prompt_seen(profile: AuthoringProfile, rules: Option<&str>) -> String {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[]);
    let corpus = vec![EvalCase::new("one", "How many?")];
    let mut options = RunEvalsOptions::new(&runtime, corpus, replay.generate());
    options.profile = profile;
    options.rules = rules.map(str::to_owned);
    run_evals(options).await;
    replay.calls()[0].prompt.to_string()
}

#[tokio::test]
async fn builds_the_prompt_for_the_profile_it_is_given() {
    let prompt = prompt_seen(AuthoringProfile::ComposeFromPrimitives, None).await;
    assert!(
        prompt.contains("You compose views from scratch"),
        "{prompt}"
    );
    assert!(prompt.starts_with("# View authoring\n\n"), "{prompt}");
    assert!(
        prompt.contains("## Primitive catalog\n\n- `stat` \u{2014} A stat."),
        "{prompt}"
    );
    assert!(
        prompt.contains("## JSON Schema\n\n```json\n{\"type\":\"object\"}\n```"),
        "{prompt}"
    );
    assert!(!prompt.contains("## Examples"), "{prompt}");
    let general = prompt_seen(AuthoringProfile::General, None).await;
    assert!(
        !general.contains("You compose views from scratch"),
        "{general}"
    );
    assert!(general.contains(
        "## Guide\n\nAnswer with a single composition. When one primitive can carry the whole \
         answer, use it rather than several primitives that each carry a part."
    ));
}

#[tokio::test]
async fn includes_a_rules_section_only_when_rules_are_given() {
    let with_rules = prompt_seen(AuthoringProfile::General, Some("Never invent a metric.")).await;
    assert!(
        with_rules.contains("## Rules\n\nNever invent a metric."),
        "{with_rules}"
    );
    let without = prompt_seen(AuthoringProfile::General, None).await;
    assert!(!without.contains("## Rules"), "{without}");
}

#[tokio::test]
async fn runs_cases_at_the_requested_concurrency_and_reports_in_corpus_order() {
    let runtime = StubRuntime::new();
    let in_flight = Arc::new(AtomicUsize::new(0));
    let max_in_flight = Arc::new(AtomicUsize::new(0));
    let started = Arc::new(std::sync::Mutex::new(Vec::new()));
    let generate = {
        let (in_flight, max_in_flight, started) =
            (in_flight.clone(), max_in_flight.clone(), started.clone());
        Generate::new(move |request: GenerateRequest| {
            let (in_flight, max_in_flight, started) =
                (in_flight.clone(), max_in_flight.clone(), started.clone());
            async move {
                started.lock().unwrap().push(request.eval_case.id.clone());
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                max_in_flight.fetch_max(now, Ordering::SeqCst);
                // The first case waits longest, so cases finish out of order.
                let yields = 4 - request.eval_case.id.parse::<usize>().unwrap();
                for _ in 0..yields {
                    tokio::task::yield_now().await;
                }
                in_flight.fetch_sub(1, Ordering::SeqCst);
                Ok::<_, BoxError>(fixture(&["stat"]))
            }
        })
    };
    let corpus: Vec<EvalCase> = (0..4).map(|i| EvalCase::new(i.to_string(), "q")).collect();
    let mut options = RunEvalsOptions::new(&runtime, corpus, generate);
    options.concurrency = 4;
    let report = run_evals(options).await;
    assert!(max_in_flight.load(Ordering::SeqCst) > 1);
    assert_eq!(*started.lock().unwrap(), ["0", "1", "2", "3"]);
    let ids: Vec<&str> = report.results.iter().map(|r| r.case_id.as_str()).collect();
    assert_eq!(ids, ["0", "1", "2", "3"]);
}

#[tokio::test]
async fn runs_one_case_at_a_time_by_default() {
    let runtime = StubRuntime::new();
    let in_flight = Arc::new(AtomicUsize::new(0));
    let max_in_flight = Arc::new(AtomicUsize::new(0));
    let generate = {
        let (in_flight, max_in_flight) = (in_flight.clone(), max_in_flight.clone());
        Generate::new(move |_request: GenerateRequest| {
            let (in_flight, max_in_flight) = (in_flight.clone(), max_in_flight.clone());
            async move {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                max_in_flight.fetch_max(now, Ordering::SeqCst);
                tokio::task::yield_now().await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
                Ok::<_, BoxError>(fixture(&["stat"]))
            }
        })
    };
    let corpus: Vec<EvalCase> = (0..4).map(|i| EvalCase::new(i.to_string(), "q")).collect();
    let mut options = RunEvalsOptions::new(&runtime, corpus, generate);
    options.concurrency = 0;
    let report = run_evals(options).await;
    assert_eq!(max_in_flight.load(Ordering::SeqCst), 1);
    assert_eq!(report.totals.valid, 4);
}

#[tokio::test]
async fn an_empty_corpus_gives_an_empty_report() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[]);
    let report = run_evals(RunEvalsOptions::new(&runtime, vec![], replay.generate())).await;
    assert!(report.results.is_empty());
    assert_eq!(report.totals.cases, 0);
    assert_eq!(report.totals.mean_selection_f1, None);
    assert!(replay.calls().is_empty());
}

#[tokio::test]
async fn a_generate_or_judge_that_fails_or_panics_marks_its_case_and_the_run_goes_on() {
    let runtime = StubRuntime::new();
    let generate = Generate::new(|request: GenerateRequest| async move {
        match (request.eval_case.id.as_str(), request.attempt) {
            ("down", _) => Err::<String, BoxError>("connection reset".into()),
            ("boom", _) => panic!("model client bug"),
            ("retry-down", 0) => Ok(fixture(&["sparkline"])),
            ("retry-down", _) => Err("rate limited".into()),
            _ => Ok(fixture(&["stat"])),
        }
    });
    let judge = Judge::new(|request| async move {
        if request.eval_case.id == "judge-down" {
            Err::<AnswerabilityVerdict, BoxError>("judge offline".into())
        } else {
            Ok(AnswerabilityVerdict::Yes)
        }
    });
    let corpus = ["down", "boom", "retry-down", "judge-down", "good"]
        .map(|id| EvalCase::new(id, "q").with_expected(["stat"]))
        .to_vec();
    let mut options = RunEvalsOptions::new(&runtime, corpus, generate);
    options.judge = Some(judge);
    options.concurrency = 2;
    let report = run_evals(options).await;

    let errors: Vec<Option<CaseError>> = report.results.iter().map(|r| r.error.clone()).collect();
    assert_eq!(
        errors,
        [
            Some(CaseError {
                stage: CaseStage::Generate,
                attempt: Some(0),
                panicked: false,
                message: "connection reset".to_owned()
            }),
            Some(CaseError {
                stage: CaseStage::Generate,
                attempt: Some(0),
                panicked: true,
                message: "model client bug".to_owned()
            }),
            Some(CaseError {
                stage: CaseStage::Generate,
                attempt: Some(1),
                panicked: false,
                message: "rate limited".to_owned()
            }),
            Some(CaseError {
                stage: CaseStage::Judge,
                attempt: None,
                panicked: false,
                message: "judge offline".to_owned()
            }),
            None,
        ]
    );
    let totals = &report.totals;
    assert_eq!(totals.cases, 5);
    assert_eq!(totals.errored, 4);
    assert_eq!(totals.parsed, 3);
    assert_eq!(totals.valid, 2);
    assert_eq!(totals.expected, Some(ExpectedTotals { hits: 2, cases: 5 }));
    assert_eq!(
        totals.answerability,
        Some(AnswerabilityTotals {
            yes: 1,
            partial: 0,
            no: 0
        })
    );
    // The judge failed after validity was known: that score is kept.
    assert!(report.results[3].validity.valid);
    assert_eq!(
        format_report(&report),
        "cases             5\n\
         parsed            3 (60%)\n\
         valid             2 (40%)\n\
         valid after retry 2 (40%)\n\
         mean selection F1 \u{2014}\n\
         answerability     yes 1 / partial 0 / no 0\n\
         expected hits     2 / 5 (40%)\n\
         errored           4 (80%)\n\
         \n\
         invalid:\n  \
         retry-down: body unknown node type \"sparkline\"\n\
         \n\
         invented node types:\n  \
         retry-down: sparkline\n\
         \n\
         errored:\n  \
         down: generate attempt 0 failed: connection reset\n  \
         boom: generate attempt 0 panicked: model client bug\n  \
         retry-down: generate attempt 1 failed: rate limited\n  \
         judge-down: judge failed: judge offline"
    );
}

/// The slides frame's rule in miniature: exactly one body node.
fn one_node_frame(body: &[Value]) -> Vec<String> {
    if body.len() == 1 {
        vec![]
    } else {
        vec![format!(
            "a snapshot render needs exactly one \"slideFrame\" node, got {} nodes; render one slide per spec",
            body.len()
        )]
    }
}

#[tokio::test]
async fn a_frame_finding_makes_the_attempt_invalid_and_reaches_the_retry_as_a_bare_message() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[
        ("two", 0, &fixture(&["stat", "callout"])),
        ("two", 1, &fixture(&["stat"])),
    ]);
    let corpus = vec![EvalCase::new("two", "q")];
    let mut options = RunEvalsOptions::new(&runtime, corpus, replay.generate());
    let frame = one_node_frame;
    options.frame = Some(&frame as &dyn EvalFrame);
    let report = run_evals(options).await;
    let message = "a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec";
    assert_eq!(
        replay.calls()[1].previous_errors,
        Some(vec![message.to_owned()])
    );
    let result = &report.results[0];
    assert!(result.validity.parsed);
    assert!(!result.validity.valid);
    assert!(result.validity.valid_after_retry);
    assert_eq!(result.validity.errors, [message]);
    // The first attempt passed the schema but not the frame: it did not
    // validate, so its sanitized size is 0.
    assert_eq!(result.payload.sanitized_bytes, 0);
}

#[tokio::test]
async fn payload_describes_the_first_attempt_even_when_the_retry_succeeds() {
    let runtime = StubRuntime::new();
    let first = fixture(&["sparkline"]);
    let replay = Replay::new(&[("fix", 0, &first), ("fix", 1, &fixture(&["stat"]))]);
    let corpus = vec![EvalCase::new("fix", "q").with_golden(fixture_value(&["stat"]))];
    let report = run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    let result = &report.results[0];
    assert_eq!(result.payload.raw_bytes, first.len());
    assert_eq!(result.payload.sanitized_bytes, 0);
    assert_eq!(result.payload.size_vs_golden, Some(0.0));
    assert_eq!(result.payload.unknown_types, ["sparkline"]);
    // Selection reads the retry that validated.
    assert_eq!(result.selection.as_ref().map(|s| s.f1), Some(1.0));
    assert_eq!(report.totals.mean_selection_f1, Some(1.0));
}

#[tokio::test]
async fn selection_and_expected_hits_read_the_whole_tree_of_the_validated_answer() {
    let runtime = StubRuntime::new().with_container("slideFrame", "content");
    let answer = json!({"type": "view", "body": [
        {"type": "slideFrame", "content": [{"type": "callout"}, {"type": "stat", "series": [{"type": "bar"}]}]}
    ]});
    let golden = json!({"type": "view", "body": [
        {"type": "slideFrame", "content": [{"type": "stat"}, {"type": "stat"}]}
    ]});
    let replay = Replay::new(&[("deck", 0, &answer.to_string())]);
    let corpus = vec![
        EvalCase::new("deck", "q")
            .with_golden(golden)
            .with_expected(["chart", "stat"]),
    ];
    let report = run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    let result = &report.results[0];
    let selection = result.selection.as_ref().unwrap();
    // Answer nodes: slideFrame, callout, stat (the series' `bar` is data).
    // Golden nodes: slideFrame, stat, stat. Shared: slideFrame, stat.
    assert_eq!(selection.precision, 2.0 / 3.0);
    assert_eq!(selection.recall, 2.0 / 3.0);
    assert_eq!(selection.extra, ["callout"]);
    assert_eq!(selection.missing, ["stat"]);
    let expected = result.expected.as_ref().unwrap();
    assert!(expected.hit);
    assert_eq!(expected.found, ["stat"]);
    assert_eq!(
        report.totals.expected,
        Some(ExpectedTotals { hits: 1, cases: 1 })
    );
}

#[tokio::test]
async fn a_case_that_never_validates_misses_its_expected_types() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[("bad", 0, &fixture(&["sparkline"]))]);
    let corpus = vec![EvalCase::new("bad", "q").with_expected(["sparkline"])];
    let report = run_evals(RunEvalsOptions::new(&runtime, corpus, replay.generate())).await;
    let expected = report.results[0].expected.as_ref().unwrap();
    assert!(!expected.hit);
    assert!(expected.found.is_empty());
    assert_eq!(report.results[0].selection, None);
}

#[test]
fn the_run_future_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[]);
    let future = run_evals(RunEvalsOptions::new(&runtime, vec![], replay.generate()));
    assert_send(&future);
}

/// The stub, except that one step panics.
struct Panicking {
    inner: StubRuntime,
    in_render: bool,
}

impl Panicking {
    fn parse(&self, value: &Value) -> Result<Value, Vec<isomer_sdk::ValidationError>> {
        if !self.in_render && value.to_string().contains("callout") {
            panic!("parse bug");
        }
        self.inner.parse(value)
    }

    fn validate(&self, composition: &Value) -> Result<(), Vec<isomer_sdk::ValidationError>> {
        self.inner.validate(composition)
    }
}

impl isomer_evals::EvalRuntime for Panicking {
    fn walker(&self) -> &dyn isomer_sdk::ChildWalker {
        self.inner.walker()
    }

    fn authoring_context(&self) -> isomer_sdk::AuthoringContext {
        self.inner.authoring_context()
    }

    fn check<'a>(&'a self, value: &'a isomer_sdk::Document) -> isomer_evals::TextCheck<'a> {
        isomer_evals::TextCheck::from_steps(self, self.parse(value), |copy| self.validate(copy))
    }

    fn render_text(&self, composition: &Value) -> Result<String, BoxError> {
        if self.in_render {
            panic!("render bug");
        }
        self.inner.render_text(composition)
    }
}

#[tokio::test]
async fn a_runtime_that_panics_marks_only_its_case() {
    let replay = Replay::new(&[
        ("panics", 0, &fixture(&["callout"])),
        ("fine", 0, &fixture(&["stat"])),
    ]);
    let corpus = vec![EvalCase::new("panics", "q"), EvalCase::new("fine", "q")];

    let in_parse = Panicking {
        inner: StubRuntime::new(),
        in_render: false,
    };
    let report = run_evals(RunEvalsOptions::new(
        &in_parse,
        corpus.clone(),
        replay.generate(),
    ))
    .await;
    assert_eq!(
        report.results[0].error,
        Some(CaseError::panicked(CaseStage::Score, None, "parse bug"))
    );
    assert_eq!(report.results[1].error, None);
    assert_eq!(report.totals.valid, 1);
    assert!(
        format_report(&report).ends_with("\n\nerrored:\n  panics: scoring panicked: parse bug")
    );

    let in_render = Panicking {
        inner: StubRuntime::new(),
        in_render: true,
    };
    let mut options = RunEvalsOptions::new(&in_render, corpus, replay.generate());
    options.judge = Some(stat_judge());
    let report = run_evals(options).await;
    assert_eq!(
        report.results[0].error,
        Some(CaseError::panicked(CaseStage::Render, None, "render bug"))
    );
    // Validity was known before the render: it is kept.
    assert!(report.results[0].validity.valid);
    assert_eq!(report.totals.errored, 2);
}

#[tokio::test]
async fn eval_prompt_is_the_prompt_a_run_hands_generate() {
    let runtime = StubRuntime::new();
    let replay = Replay::new(&[]);
    let mut options =
        RunEvalsOptions::new(&runtime, vec![EvalCase::new("one", "q")], replay.generate());
    options.rules = Some("Never invent a metric.".to_owned());
    let guide = options.guide.clone();
    run_evals(options).await;
    let expected = isomer_evals::eval_prompt(
        &runtime,
        AuthoringProfile::General,
        &guide,
        Some("Never invent a metric."),
    );
    assert_eq!(&*replay.calls()[0].prompt, expected);
}

#[test]
fn an_eval_case_reads_and_writes_the_corpus_wire_shape() {
    let text = r#"{"id":"queue-health","prompt":"How many items are open right now?","golden":{"type":"view","body":[{"type":"stat"}]},"expected":["stat","statGroup"]}"#;
    let case: EvalCase = serde_json::from_str(text).unwrap();
    assert_eq!(
        case,
        EvalCase::new("queue-health", "How many items are open right now?")
            .with_golden(json!({"type": "view", "body": [{"type": "stat"}]}))
            .with_expected(["stat", "statGroup"])
    );
    assert_eq!(serde_json::to_string(&case).unwrap(), text);
    let bare: EvalCase = serde_json::from_str(r#"{"id":"a","prompt":"b"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&bare).unwrap(),
        r#"{"id":"a","prompt":"b"}"#
    );
}
