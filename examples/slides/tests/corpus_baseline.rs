//! The recorded slides corpus (`corpus/slides`) against the slides pack:
//! every golden is a valid one-slide composition, `prompt.txt` is the prompt
//! the harness builds, and the replayed run matches the committed baseline.
//!
//! The baseline is three insta snapshots in `tests/snapshots/`, named
//! without the module prefix so the eval gate's totals trial can share them:
//! `slides__report` (the `EvalReport` as JSON), `slides__report_text`
//! (`format_report`) and `slides__baseline` (`promptSha256`,
//! `missingRecordings`, `staleJudgments`). To accept a change that moves
//! them, and to regenerate `prompt.txt` first when the prompt changed:
//!
//! ```sh
//! cargo run -p isomer-slides --bin isomer-report -- --print-prompt > corpus/slides/prompt.txt
//! INSTA_UPDATE=always cargo test -p isomer-slides --test corpus_baseline
//! git diff examples/slides/tests/snapshots corpus/slides   # review what moved
//! ```

use std::collections::BTreeSet;
use std::path::Path;

use isomer_evals::corpus::Corpus;
use serde_json::Value;

/// The report command, whose `replay_corpus` both the command and this
/// test score with, so they agree on every option.
#[allow(dead_code)]
#[path = "../src/bin/isomer-report.rs"]
mod report_command;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/slides");

fn corpus() -> Corpus {
    Corpus::load(Path::new(CORPUS)).unwrap_or_else(|errors| panic!("{errors}"))
}

/// Every node type in a composition, reached through the runtime's child
/// hooks (the way selection and expected hits count nodes).
fn node_types(runtime: &isomer_sdk::Runtime, golden: &Value) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut stack: Vec<&Value> = golden["body"].as_array().into_iter().flatten().collect();
    while let Some(node) = stack.pop() {
        if let Some(t) = node["type"].as_str() {
            found.insert(t.to_owned());
        }
        stack.extend(
            runtime
                .walker()
                .children(node)
                .into_iter()
                .map(|child| child.node),
        );
    }
    found
}

#[test]
fn the_corpus_has_at_least_24_cases_over_every_group() {
    let corpus = corpus();
    assert_eq!(corpus.cases.len(), 27);
    let provenance = &corpus.provenance;
    assert_eq!(
        provenance["author"],
        "Claude, an AI model by Anthropic, writing through a coding agent"
    );
    assert_eq!(provenance["date"], "2026-11-29");
    assert!(
        provenance["purpose"]
            .as_str()
            .unwrap()
            .starts_with("Replay only")
    );

    // The 27 primitives the pack implements each appear in some golden.
    let runtime = isomer_slides::runtime().unwrap();
    let used: BTreeSet<String> = corpus
        .cases
        .iter()
        .flat_map(|case| node_types(&runtime, case.golden.as_ref().unwrap()))
        .collect();
    let all: BTreeSet<String> = runtime
        .primitives()
        .iter()
        .map(|p| p.type_name().to_owned())
        .collect();
    assert_eq!(used, all);
}

#[test]
fn every_golden_is_a_valid_slide_that_uses_an_expected_type() {
    let corpus = corpus();
    let runtime = isomer_slides::runtime().unwrap();
    let frame = runtime
        .frame(Some(isomer_slides::SLIDE_DECK_FRAME))
        .unwrap();
    let known: BTreeSet<String> = runtime
        .primitives()
        .iter()
        .map(|p| p.type_name().to_owned())
        .collect();
    let mut faults = Vec::new();
    for case in &corpus.cases {
        let golden = case
            .golden
            .as_ref()
            .expect("every slides case has a golden");
        let checked = runtime.validate(golden);
        for error in &checked.errors {
            faults.push(format!(
                "{}: {}",
                case.id,
                isomer_sdk::format_validation_error(error)
            ));
        }
        let parsed = runtime.parse(golden);
        if !parsed.valid {
            faults.push(format!("{}: parse refuses the golden", case.id));
        }
        let body = golden["body"].as_array().cloned().unwrap_or_default();
        for message in frame.validate_body(&body) {
            faults.push(format!("{}: frame: {message}", case.id));
        }
        let expected = case
            .expected
            .as_ref()
            .expect("every slides case lists expected types");
        for t in expected {
            if !known.contains(t) {
                faults.push(format!(
                    "{}: expected type {t} is not in the catalog",
                    case.id
                ));
            }
        }
        let types = node_types(&runtime, golden);
        if !expected.iter().any(|t| types.contains(t)) {
            faults.push(format!("{}: the golden uses none of {expected:?}", case.id));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_golden_checks_refuse_a_broken_golden() {
    // The checks above can fail: an unknown field, a missing field and a
    // second frame are each refused.
    let runtime = isomer_slides::runtime().unwrap();
    let frame = runtime
        .frame(Some(isomer_slides::SLIDE_DECK_FRAME))
        .unwrap();
    let mut golden = corpus().cases[0].golden.clone().unwrap();
    golden["body"][0]["body"][0]["subtitle"] = Value::from("Not a field");
    let messages: Vec<String> = runtime
        .validate(&golden)
        .errors
        .iter()
        .map(isomer_sdk::format_validation_error)
        .collect();
    assert_eq!(
        messages,
        [
            "body[0].body[0] (in slideTitle) has unrecognized key(s): subtitle; its fields are eyebrow, title, tagline, definition, aside, size"
        ]
    );
    let mut golden = corpus().cases[0].golden.clone().unwrap();
    golden["body"][0]["body"][0]
        .as_object_mut()
        .unwrap()
        .remove("title");
    assert!(!runtime.validate(&golden).valid);
    let body = golden["body"].as_array().unwrap();
    let two_frames = [body[0].clone(), body[0].clone()];
    assert_eq!(frame.validate_body(&two_frames).len(), 1);
}

#[test]
fn prompt_txt_is_the_prompt_the_harness_builds() {
    let replayed =
        report_command::replay_corpus(Path::new(CORPUS)).unwrap_or_else(|m| panic!("{m}"));
    if let Err(mismatch) = replayed.prompt_check {
        panic!(
            "{mismatch}\nregenerate it: cargo run -p isomer-slides --bin isomer-report -- --print-prompt > corpus/slides/prompt.txt"
        );
    }
    let prompt = report_command::slides_prompt().unwrap();
    assert_eq!(
        replayed.baseline.record.prompt_sha256,
        isomer_evals::baseline::prompt_sha256(&prompt)
    );
}

#[test]
fn replaying_twice_gives_identical_reports() {
    let first = report_command::replay_corpus(Path::new(CORPUS)).unwrap_or_else(|m| panic!("{m}"));
    let second = report_command::replay_corpus(Path::new(CORPUS)).unwrap_or_else(|m| panic!("{m}"));
    assert_eq!(
        serde_json::to_string(&first.baseline.report).unwrap(),
        serde_json::to_string(&second.baseline.report).unwrap()
    );
    assert_eq!(first.baseline, second.baseline);
}

#[test]
fn the_replayed_run_matches_the_committed_baseline() {
    let replayed =
        report_command::replay_corpus(Path::new(CORPUS)).unwrap_or_else(|m| panic!("{m}"));
    let baseline = replayed.baseline;
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::assert_json_snapshot!("slides__report", baseline.report);
        insta::assert_snapshot!("slides__report_text", baseline.report_text);
        insta::assert_json_snapshot!("slides__baseline", baseline.record);
    });
}
