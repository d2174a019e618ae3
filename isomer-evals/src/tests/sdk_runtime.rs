//! `run_evals` over the sdk's real runtime with a two-primitive test pack
//! (`note`, and `group` whose `items` are child nodes), as upstream's
//! `runtime.test.ts` does.

use std::sync::{Arc, Mutex};

use super::axes::{check_whole, score_payload};
use isomer_evals::check::check_composition;
use isomer_evals::{
    AnswerabilityTotals, AnswerabilityVerdict, BoxError, EvalCase, EvalFrame, EvalRuntime,
    Generate, GenerateRequest, Judge, JudgeRequest, RunEvalsOptions, format_report, run_evals,
};
use isomer_sdk::{Frame, Markdown, Node, Pack, Primitive, Runtime};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// A short note.
#[derive(Deserialize, JsonSchema)]
struct Note {
    /// The note's text.
    text: String,
}

/// A group of nodes.
#[derive(Deserialize, JsonSchema)]
struct Group {
    /// The nodes in the group.
    items: Vec<Node>,
}

fn test_runtime() -> Runtime {
    let note = Primitive::builder::<Note>("note")
        .purpose("A short note.")
        .example(json!({"type": "note", "text": "Ready"}))
        .text(|node, _| node.text.clone())
        .markdown(|node, _| Markdown::paragraph(node.text.as_str()))
        .build()
        .expect("note builds");
    let group = Primitive::builder::<Group>("group")
        .purpose("Groups nodes.")
        .example(json!({"type": "group", "items": [{"type": "note", "text": "Ready"}]}))
        .text(|node, scope| scope.text_all(node.items.iter().map(|n| &**n), "\n"))
        .markdown(|node, scope| scope.markdown_all(node.items.iter().map(|n| &**n)))
        .build()
        .expect("group builds");
    let pack = Pack::new("test")
        .primitives([note, group])
        .build()
        .expect("pack builds");
    Runtime::builder()
        .pack(pack)
        .build()
        .expect("runtime builds")
}

fn golden() -> Value {
    json!({"type": "view", "body": [{"type": "note", "text": "Ready"}]})
}

fn valid() -> String {
    golden().to_string()
}

fn duplicate_ids() -> String {
    json!({"type": "view", "body": [
        {"type": "note", "id": "dup", "text": "Ready"},
        {"type": "note", "id": "dup", "text": "Ready"}
    ]})
    .to_string()
}

/// A `generate` answering each (case, attempt) from a table; every request
/// is kept.
fn scripted(
    answers: Vec<(&'static str, u32, String)>,
) -> (Generate<'static>, Arc<Mutex<Vec<GenerateRequest>>>) {
    let calls: Arc<Mutex<Vec<GenerateRequest>>> = Arc::default();
    let seen = Arc::clone(&calls);
    let generate = Generate::new(move |request: GenerateRequest| {
        let answer = answers
            .iter()
            .find(|(id, attempt, _)| *id == request.eval_case.id && *attempt == request.attempt)
            .map(|(_, _, text)| text.clone())
            .unwrap_or_default();
        seen.lock().unwrap().push(request);
        async move { Ok::<_, BoxError>(answer) }
    });
    (generate, calls)
}

fn always_yes() -> (Judge<'static>, Arc<Mutex<Vec<JudgeRequest>>>) {
    let calls: Arc<Mutex<Vec<JudgeRequest>>> = Arc::default();
    let seen = Arc::clone(&calls);
    let judge = Judge::new(move |request| {
        seen.lock().unwrap().push(request);
        async { Ok::<_, BoxError>(AnswerabilityVerdict::Yes) }
    });
    (judge, calls)
}

#[test]
fn the_sdk_runtime_is_an_eval_runtime() {
    let runtime = test_runtime();
    let as_eval: &dyn EvalRuntime = &runtime;
    let known: Vec<String> = as_eval
        .authoring_context()
        .primitives
        .into_iter()
        .map(|entry| entry.type_name)
        .collect();
    assert_eq!(known, ["note", "group"]);
    assert_eq!(as_eval.render_text(&golden()).unwrap(), "Ready");
    let check = check_composition(
        as_eval,
        &json!({"type": "view", "body": [{"type": "note"}]}),
        None,
    );
    assert!(!check.valid);
    assert_eq!(check.errors, ["body[0].text (in note) is required"]);
    assert_eq!(check.composition, None);
}

#[tokio::test]
async fn reports_a_malformed_container_even_when_its_retry_succeeds() {
    for items in [None, Some(json!(null)), Some(json!(42)), Some(json!({}))] {
        let runtime = test_runtime();
        let mut malformed = json!({"type": "group"});
        if let Some(items) = &items {
            malformed["items"] = items.clone();
        }
        let raw = json!({"type": "view", "body": [
            malformed,
            {"type": "invented"},
            {"type": "group", "items": [{"type": "nested-invention"}]}
        ]})
        .to_string();
        let (generate, _) = scripted(vec![
            ("malformed", 0, raw.clone()),
            ("malformed", 1, valid()),
        ]);
        let (judge, judged) = always_yes();
        let corpus = vec![EvalCase::new("malformed", "Is it ready?").with_golden(golden())];
        let mut options = RunEvalsOptions::new(&runtime, corpus.clone(), generate);
        options.judge = Some(judge);
        let report = run_evals(options).await;

        let totals = &report.totals;
        assert_eq!(totals.cases, 1, "items {items:?}");
        assert_eq!(totals.valid, 0, "items {items:?}");
        assert_eq!(totals.valid_after_retry, 1, "items {items:?}");
        assert_eq!(totals.mean_selection_f1, Some(1.0), "items {items:?}");
        assert_eq!(
            totals.answerability,
            Some(AnswerabilityTotals {
                yes: 1,
                partial: 0,
                no: 0
            }),
            "items {items:?}"
        );
        let payload = &report.results[0].payload;
        assert_eq!(payload.raw_bytes, raw.len(), "items {items:?}");
        assert_eq!(payload.sanitized_bytes, 0, "items {items:?}");
        assert_eq!(
            payload.unknown_types,
            ["invented", "nested-invention"],
            "items {items:?}"
        );
        let judged = judged.lock().unwrap();
        assert_eq!(judged.len(), 1, "items {items:?}");
        assert_eq!(*judged[0].eval_case, corpus[0]);
        assert_eq!(judged[0].rendered, "Ready");
    }
}

#[tokio::test]
async fn skips_judgment_for_a_case_that_never_validates_and_completes_the_corpus() {
    let invalid = json!({"type": "view", "body": [{"type": "note"}]}).to_string();
    let rows: [(&str, bool, Option<String>, Option<String>); 3] = [
        (
            "invalid first attempt without retry",
            false,
            Some(invalid.clone()),
            None,
        ),
        (
            "invalid first and invalid retry",
            true,
            Some(invalid.clone()),
            Some(invalid.clone()),
        ),
        (
            "unparseable first and invalid retry",
            true,
            Some("not json".to_owned()),
            Some(invalid.clone()),
        ),
    ];
    for (label, retry_on_invalid, first, retry) in rows {
        let runtime = test_runtime();
        let mut answers = vec![("good", 0, valid())];
        answers.extend(first.map(|text| ("bad", 0, text)));
        answers.extend(retry.map(|text| ("bad", 1, text)));
        let (generate, _) = scripted(answers);
        let (judge, judged) = always_yes();
        let corpus = vec![
            EvalCase::new("bad", "Is it ready?").with_golden(golden()),
            EvalCase::new("good", "Is it ready?").with_golden(golden()),
        ];
        let mut options = RunEvalsOptions::new(&runtime, corpus, generate);
        options.judge = Some(judge);
        options.retry_on_invalid = retry_on_invalid;
        let report = run_evals(options).await;

        let bad = &report.results[0];
        assert!(!bad.validity.valid, "{label}");
        assert!(!bad.validity.valid_after_retry, "{label}");
        assert_eq!(bad.validity.composition, None, "{label}");
        assert_eq!(bad.selection, None, "{label}");
        assert_eq!(bad.answerability, None, "{label}");
        assert_eq!(report.totals.cases, 2, "{label}");
        assert_eq!(report.totals.valid, 1, "{label}");
        assert_eq!(report.totals.valid_after_retry, 1, "{label}");
        assert_eq!(
            report.totals.answerability,
            Some(AnswerabilityTotals {
                yes: 1,
                partial: 0,
                no: 0
            }),
            "{label}"
        );
        assert_eq!(judged.lock().unwrap().len(), 1, "{label}");
    }
}

#[tokio::test]
async fn judges_the_valid_retry_of_a_semantic_failure() {
    let runtime = test_runtime();
    let (generate, calls) = scripted(vec![("dup", 0, duplicate_ids()), ("dup", 1, valid())]);
    let (judge, _) = always_yes();
    let corpus = vec![EvalCase::new("dup", "Is it ready?")];
    let mut options = RunEvalsOptions::new(&runtime, corpus, generate);
    options.judge = Some(judge);
    let report = run_evals(options).await;
    assert_eq!(report.totals.valid, 0);
    assert_eq!(report.totals.valid_after_retry, 1);
    assert_eq!(
        report.totals.answerability,
        Some(AnswerabilityTotals {
            yes: 1,
            partial: 0,
            no: 0
        })
    );
    assert_eq!(report.results[0].validity.composition, Some(golden()));
    // The duplicate passed the schema but failed validation: the retry was
    // told why, with the node type.
    let duplicate = "body[1].id (in note) duplicates id \"dup\" first used at body[0]";
    assert_eq!(report.results[0].validity.errors, [duplicate]);
    assert_eq!(
        calls.lock().unwrap()[1].previous_errors,
        Some(vec![duplicate.to_owned()])
    );
    // The first attempt did not validate, so its sanitized size is 0.
    assert_eq!(report.results[0].payload.sanitized_bytes, 0);
}

#[test]
fn the_payload_walk_does_not_recurse_after_the_input_budget_refuses_a_deep_tree() {
    let mut raw = String::from(r#"{"type":"view","body":["#);
    for _ in 0..10_000 {
        raw.push_str(r#"{"type":"group","items":["#);
    }
    raw.push_str(r#"{"type":"invented"}"#);
    for _ in 0..10_000 {
        raw.push_str("]}");
    }
    raw.push_str("]}");
    let runtime = test_runtime();
    let attempt = check_whole(&runtime, raw);
    let check = attempt.check().expect("the deep text is JSON");
    assert!(!check.valid);
    assert_eq!(check.errors, ["input nests deeper than 64 levels"]);
    let known = ["note".to_owned(), "group".to_owned()]
        .into_iter()
        .collect();
    let payload = score_payload(&runtime, &attempt, &known, None);
    assert_eq!(payload.unknown_types, ["invented"]);
    assert_eq!(payload.sanitized_bytes, 0);
}

#[tokio::test]
async fn a_runtime_frame_refuses_a_body_with_two_nodes() {
    let frame = Frame::new("one").body_rule(|body: &[Value]| {
        if body.len() == 1 {
            vec![]
        } else {
            vec![format!("expected one node, got {}", body.len())]
        }
    });
    let runtime = test_runtime();
    let two = json!({"type": "view", "body": [
        {"type": "note", "text": "Ready"}, {"type": "note", "text": "Set"}
    ]})
    .to_string();
    let (generate, _) = scripted(vec![("two", 0, two), ("two", 1, valid())]);
    let corpus = vec![EvalCase::new("two", "Is it ready?")];
    let mut options = RunEvalsOptions::new(&runtime, corpus, generate);
    options.frame = Some(&frame as &dyn EvalFrame);
    let report = run_evals(options).await;
    assert_eq!(
        report.results[0].validity.errors,
        ["expected one node, got 2"]
    );
    assert_eq!(
        format_report(&report),
        "cases             1\n\
         parsed            1 (100%)\n\
         valid             0 (0%)\n\
         valid after retry 1 (100%)\n\
         mean selection F1 \u{2014}\n\
         \n\
         invalid:\n  \
         two: expected one node, got 2"
    );
}
