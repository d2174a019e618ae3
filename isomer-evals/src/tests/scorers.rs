//! Each scoring axis on its own, against upstream's stub runtime
//! and upstream's worked payload numbers.

use super::support;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use super::axes::{
    check_whole, score_answerability, score_expected_primitives, score_payload,
    score_primitive_selection,
};
use isomer_evals::{
    AnswerabilityScore, AnswerabilityVerdict, BoxError, CheckedAttempt, EvalCase, EvalRuntime,
    Judge, JudgeRequest, PrimitiveSelectionScore,
};
use isomer_sdk::{ChildRef, ChildWalker};
use serde_json::{Value, json};
use support::{StubRuntime, fixture_value};

fn known(runtime: &dyn EvalRuntime) -> HashSet<String> {
    runtime
        .authoring_context()
        .primitives
        .into_iter()
        .map(|entry| entry.type_name)
        .collect()
}

fn checked(runtime: &StubRuntime, raw: &str) -> CheckedAttempt {
    check_whole(runtime, raw)
}

fn body(types: &[&str]) -> Value {
    json!({"type": "view", "body": types.iter().map(|t| json!({"type": t})).collect::<Vec<_>>()})
}

#[test]
fn selection_scores_an_exact_match_as_1() {
    let runtime = StubRuntime::new();
    let score = score_primitive_selection(
        runtime.walker(),
        &body(&["stat", "callout"]),
        &body(&["stat", "callout"]),
    );
    assert_eq!(
        score,
        PrimitiveSelectionScore {
            precision: 1.0,
            recall: 1.0,
            f1: 1.0,
            extra: vec![],
            missing: vec![],
        }
    );
}

#[test]
fn selection_counts_repeats_rather_than_deduplicating() {
    let runtime = StubRuntime::new();
    let score = score_primitive_selection(
        runtime.walker(),
        &body(&["stat"]),
        &body(&["stat", "stat", "stat"]),
    );
    assert_eq!(score.precision, 1.0);
    assert_eq!(score.recall, 1.0 / 3.0);
    assert_eq!(score.f1, 0.5);
    assert_eq!(score.extra, Vec::<String>::new());
    assert_eq!(score.missing, ["stat", "stat"]);
}

#[test]
fn selection_names_what_was_used_and_what_was_wanted() {
    let runtime = StubRuntime::new();
    let score = score_primitive_selection(runtime.walker(), &body(&["callout"]), &body(&["stat"]));
    assert_eq!(
        score,
        PrimitiveSelectionScore {
            precision: 0.0,
            recall: 0.0,
            f1: 0.0,
            extra: vec!["callout".to_owned()],
            missing: vec!["stat".to_owned()],
        }
    );
}

#[test]
fn selection_of_two_empty_bodies_is_0() {
    let runtime = StubRuntime::new();
    let score = score_primitive_selection(runtime.walker(), &body(&[]), &body(&[]));
    assert_eq!(score.f1, 0.0);
}

#[test]
fn selection_counts_a_frame_wrapper_once_on_each_side() {
    let runtime = StubRuntime::new().with_container("slideFrame", "content");
    let answer =
        json!({"type": "view", "body": [{"type": "slideFrame", "content": [{"type": "callout"}]}]});
    let golden =
        json!({"type": "view", "body": [{"type": "slideFrame", "content": [{"type": "stat"}]}]});
    let score = score_primitive_selection(runtime.walker(), &answer, &golden);
    // Shared only the wrapper: 1 of 2 on each side, above zero.
    assert_eq!(score.precision, 0.5);
    assert_eq!(score.recall, 0.5);
    assert_eq!(score.f1, 0.5);
    assert_eq!(score.extra, ["callout"]);
    assert_eq!(score.missing, ["stat"]);
}

#[test]
fn selection_sorts_by_utf16_code_units_as_js_does() {
    let runtime = StubRuntime::new();
    // U+1F600 is D83D DE00 in UTF-16, below U+FF5E; by code point it is above.
    let score = score_primitive_selection(
        runtime.walker(),
        &body(&["\u{FF5E}", "\u{1F600}", "b", "B"]),
        &body(&[]),
    );
    assert_eq!(score.extra, ["B", "b", "\u{1F600}", "\u{FF5E}"]);
}

#[test]
fn expected_hits_anywhere_in_the_tree_and_ignores_data_fields() {
    let runtime = StubRuntime::new().with_container("group", "items");
    let composition = json!({"type": "view", "body": [
        {"type": "group", "items": [{"type": "group", "items": [{"type": "stat"}]}]},
        {"type": "callout", "series": [{"type": "bar"}]}
    ]});
    let expected = ["bar".to_owned(), "stat".to_owned(), "stat".to_owned()];
    let score = score_expected_primitives(runtime.walker(), Some(&composition), &expected);
    assert!(score.hit);
    assert_eq!(score.found, ["stat"]);
    let only_data = ["bar".to_owned()];
    assert!(!score_expected_primitives(runtime.walker(), Some(&composition), &only_data).hit);
    assert!(!score_expected_primitives(runtime.walker(), None, &expected).hit);
}

#[test]
fn payload_scores_sanitized_size_against_the_golden_not_raw_size() {
    let runtime = StubRuntime::dropping_unknown_keys();
    let raw = format!(
        r#"{{"type":"view","body":[{{"type":"stat"}}],"extra":"{}"}}"#,
        "x".repeat(100)
    );
    let golden = fixture_value(&["stat"]);
    let score = score_payload(
        &runtime,
        &checked(&runtime, &raw),
        &known(&runtime),
        Some(&golden),
    );
    assert_eq!(score.raw_bytes, 151);
    assert_eq!(score.sanitized_bytes, 40);
    assert!(score.raw_bytes > score.sanitized_bytes);
    assert_eq!(score.size_vs_golden, Some(40.0 / 58.0));
    assert_eq!(score.unknown_types, Vec::<String>::new());
}

#[test]
fn payload_measures_the_output_as_sent_code_fence_included() {
    let runtime = StubRuntime::new();
    let raw = "```json\n{\"type\":\"view\",\"body\":[{\"type\":\"stat\"}]}\n```";
    let score = score_payload(&runtime, &checked(&runtime, raw), &known(&runtime), None);
    assert_eq!(score.raw_bytes, 52);
    assert_eq!(score.sanitized_bytes, 40);
    assert_eq!(score.size_vs_golden, None);
}

#[test]
fn payload_measures_output_that_is_not_json_by_its_own_bytes() {
    let runtime = StubRuntime::new();
    let golden = fixture_value(&["stat"]);
    let attempt = checked(&runtime, "I cannot help with that.");
    let score = score_payload(&runtime, &attempt, &known(&runtime), Some(&golden));
    assert_eq!(score.raw_bytes, 24);
    assert_eq!(score.sanitized_bytes, 0);
    assert_eq!(score.size_vs_golden, Some(0.0));
    assert_eq!(score.unknown_types, Vec::<String>::new());
}

#[test]
fn payload_does_not_flag_a_data_field_named_type_as_an_invented_node() {
    let runtime = StubRuntime::new();
    let raw = r#"{"type":"view","body":[{"type":"stat","series":[{"type":"bar"}]}]}"#;
    let score = score_payload(&runtime, &checked(&runtime, raw), &known(&runtime), None);
    assert_eq!(score.unknown_types, Vec::<String>::new());
}

#[test]
fn payload_flags_a_genuinely_unknown_top_level_node_type() {
    let runtime = StubRuntime::new();
    let raw =
        r#"{"type":"view","body":[{"type":"sparkline"},{"type":"stat"},{"type":"sparkline"}]}"#;
    let score = score_payload(&runtime, &checked(&runtime, raw), &known(&runtime), None);
    assert_eq!(score.unknown_types, ["sparkline"]);
    // Not valid: nothing sanitized to measure.
    assert_eq!(score.sanitized_bytes, 0);
}

#[test]
fn payload_counts_utf8_bytes_and_js_number_form() {
    let runtime = StubRuntime::new();
    // `1.0` prints as `1` in JavaScript; "é" is 2 bytes.
    let raw = r#"{"type":"view","title":"é","body":[{"type":"stat","value":1.0}]}"#;
    let score = score_payload(&runtime, &checked(&runtime, raw), &known(&runtime), None);
    assert_eq!(score.raw_bytes, raw.len());
    assert_eq!(
        score.sanitized_bytes,
        r#"{"type":"view","title":"é","body":[{"type":"stat","value":1}]}"#.len()
    );
}

#[test]
fn payload_walks_a_10000_deep_tree_without_recursing() {
    let runtime = StubRuntime::new().with_container("group", "items");
    let mut raw = String::from(r#"{"type":"view","body":["#);
    for _ in 0..10_000 {
        raw.push_str(r#"{"type":"group","items":["#);
    }
    raw.push_str(r#"{"type":"invented"}"#);
    for _ in 0..10_000 {
        raw.push_str("]}");
    }
    raw.push_str("]}");
    // Run on a small stack to prove the walk and the drop are iterative.
    let score = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let runtime = StubRuntime::new().with_container("group", "items");
            let attempt = checked(&runtime, &raw);
            score_payload(&runtime, &attempt, &known(&runtime), None)
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(score.unknown_types, ["invented"]);
    // The runtime refused the depth, so nothing validated.
    assert_eq!(score.sanitized_bytes, 0);
    drop(runtime);
}

/// A hook that returns the node itself, and a sibling twice.
struct LoopingWalker;

impl ChildWalker for LoopingWalker {
    fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        let mut refs = vec![ChildRef {
            node,
            path: "self".to_owned(),
        }];
        if let Some(item) = node.get("items").and_then(|items| items.get(0)) {
            refs.push(ChildRef {
                node: item,
                path: "items[0]".to_owned(),
            });
            refs.push(ChildRef {
                node: item,
                path: "items[0]".to_owned(),
            });
        }
        refs
    }
}

#[test]
fn a_hook_that_cycles_is_walked_once_per_node() {
    let walker = LoopingWalker;
    let answer = json!({"type": "view", "body": [{"type": "group", "items": [{"type": "stat"}]}]});
    let score = score_primitive_selection(&walker, &answer, &answer);
    assert_eq!(score.f1, 1.0);
    let expected = ["stat".to_owned()];
    assert!(score_expected_primitives(&walker, Some(&answer), &expected).hit);
}

#[tokio::test]
async fn answerability_renders_through_the_text_surface_and_asks_the_judge() {
    let runtime = StubRuntime::new();
    let seen: Arc<Mutex<Vec<JudgeRequest>>> = Arc::default();
    let judge = {
        let seen = Arc::clone(&seen);
        Judge::new(move |request| {
            seen.lock().unwrap().push(request);
            async { Ok::<_, BoxError>(AnswerabilityVerdict::Partial) }
        })
    };
    let eval_case = Arc::new(EvalCase::new("one", "How many?"));
    let score = score_answerability(&runtime, &judge, Arc::clone(&eval_case), &body(&["stat"]))
        .await
        .unwrap();
    assert_eq!(
        score,
        AnswerabilityScore {
            verdict: AnswerabilityVerdict::Partial
        }
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].rendered, "stat");
    assert_eq!(seen[0].eval_case, eval_case);
}
