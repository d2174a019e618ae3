//! Hostile model answers through the eval pipeline: `parse_generated` →
//! `check_composition` → every scorer → `run_evals`, and a recorded corpus
//! whose answer files are truncated.
//!
//! The runtime is the real sdk runtime over a two-primitive pack (`note`, and
//! `group`, a container whose child hook is `items[i]`). Every test runs on
//! libtest's default 2 MiB thread stack.

use std::collections::HashSet;
use std::fs;
use std::sync::Arc;

use super::axes::{
    check_whole, score_expected_primitives, score_payload, score_primitive_selection,
    score_validity,
};
use isomer_corpus::Position;
use isomer_evals::check::{Attempt, check_composition};
use isomer_evals::corpus::Corpus;
use isomer_evals::parse::{ParsedAttempt, parse_generated};
use isomer_evals::recordings::Recordings;
use isomer_evals::{
    AnswerabilityVerdict, BoxError, CheckedAttempt, EvalCase, Generate, GenerateRequest, Judge,
    RunEvalsOptions, check_attempt, run_evals,
};
use isomer_sdk::{Markdown, Node, Pack, Primitive, Runtime};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// A short note.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Note {
    /// The note's text.
    text: String,
}

/// A titled group of nodes.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Group {
    /// The group's title.
    title: String,
    /// The nodes in the group.
    items: Vec<Node>,
}

fn runtime() -> Runtime {
    let note = Primitive::builder::<Note>("note")
        .purpose("A short note.")
        .example(json!({"type": "note", "text": "Ready"}))
        .text(|node, _| node.text.clone())
        .markdown(|node, _| Markdown::paragraph(node.text.as_str()))
        .build()
        .expect("note builds");
    let group = Primitive::builder::<Group>("group")
        .purpose("Groups nodes under a title.")
        .example(
            json!({"type": "group", "title": "A", "items": [{"type": "note", "text": "Ready"}]}),
        )
        .text(|node, scope| {
            let items = scope.text_all(node.items.iter().map(|n| &**n), "\n");
            format!("{}\n{items}", node.title)
        })
        .markdown(|node, scope| scope.markdown_all(node.items.iter().map(|n| &**n)))
        .build()
        .expect("group builds");
    let pack = Pack::new("hostile")
        .primitives([note, group])
        .build()
        .expect("pack builds");
    Runtime::builder()
        .pack(pack)
        .build()
        .expect("runtime builds")
}

fn known_types() -> HashSet<String> {
    ["note", "group"].map(String::from).into()
}

const TOO_DEEP: &str = "input nests deeper than 64 levels";
const VALID: &str = r#"{"type":"view","body":[{"type":"note","text":"Ready"}]}"#;

/// `body` holding one group chain `depth` groups deep (each group's only
/// item is the next), ending in a note. Built as text: the value is parsed
/// by the deep-safe parser, as model output is.
fn group_chain_text(depth: usize) -> String {
    let mut text = String::from(r#"{"type":"view","body":["#);
    text.push_str(&r#"{"type":"group","title":"g","items":["#.repeat(depth));
    text.push_str(r#"{"type":"note","text":"leaf"}"#);
    text.push_str(&"]}".repeat(depth));
    text.push_str("]}");
    text
}

fn checked(runtime: &Runtime, raw: String) -> CheckedAttempt {
    check_whole(runtime, raw)
}

fn unparsed_error(raw: &str) -> String {
    match parse_generated(raw) {
        ParsedAttempt::Unparsed { error, .. } => error,
        ParsedAttempt::Parsed { value, .. } => panic!("parsed: {value:?}"),
    }
}

#[test]
fn a_million_deep_fenced_answer_is_refused_by_every_axis_and_drops() {
    let runtime = runtime();
    let deep = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
    let raw = format!("Here it is:\n```json\n{{\"type\":\"view\",\"body\":[{deep}]}}\n```\n");
    let raw_bytes = raw.len();
    let attempt = checked(&runtime, raw);
    let check = attempt.check().expect("the text is JSON");
    assert!(!check.valid);
    assert_eq!(check.errors, [TOO_DEEP]);
    assert_eq!(check.composition, None);
    assert_eq!(attempt.failures(), [TOO_DEEP]);
    let validity = score_validity(&attempt, None);
    assert_eq!(
        (validity.parsed, validity.valid, validity.valid_after_retry),
        (true, false, false)
    );
    assert_eq!(validity.errors, [TOO_DEEP]);
    let payload = score_payload(&runtime, &attempt, &known_types(), None);
    assert_eq!(payload.raw_bytes, raw_bytes);
    assert_eq!(payload.sanitized_bytes, 0);
    assert_eq!(payload.unknown_types, Vec::<String>::new());
    drop(attempt);
    // A million-deep object, bare (no fence).
    let deep = format!(
        "{}null{}",
        "{\"a\":".repeat(1_000_000),
        "}".repeat(1_000_000)
    );
    let attempt = checked(&runtime, deep);
    assert_eq!(attempt.failures(), [TOO_DEEP]);
}

#[test]
fn a_deep_chain_of_real_containers_is_walked_by_the_scorers_without_recursion() {
    // 100,000 groups: every level is a node the child hooks reach, so the
    // payload, selection and expected walks visit each one (sized for a
    // debug build; the walks are iterative, the million-deep tests above
    // cover parse, check and drop).
    let runtime = runtime();
    let depth = 100_000;
    let attempt = checked(&runtime, group_chain_text(depth));
    assert_eq!(attempt.failures(), [TOO_DEEP]);
    let ParsedAttempt::Parsed { value, .. } = parse_generated(group_chain_text(depth)) else {
        panic!("the chain is JSON");
    };
    let payload = score_payload(&runtime, &attempt, &known_types(), None);
    assert_eq!(payload.unknown_types, Vec::<String>::new());
    let mut unknown = HashSet::new();
    unknown.insert("note".to_owned());
    let payload = score_payload(&runtime, &attempt, &unknown, None);
    assert_eq!(payload.unknown_types, ["group"]);
    let golden = json!({"type": "view", "body": [{"type": "note", "text": "x"}]});
    let selection = score_primitive_selection(runtime.walker(), &value, &golden);
    assert_eq!(selection.precision, 1.0 / 100_001.0);
    assert_eq!(selection.recall, 1.0);
    assert_eq!(selection.missing, Vec::<String>::new());
    assert_eq!(selection.extra.len(), depth);
    let expected = score_expected_primitives(runtime.walker(), Some(&value), &["note".to_owned()]);
    assert!(expected.hit);
    assert_eq!(expected.found, ["note"]);
}

#[test]
fn a_ten_megabyte_string_and_a_hundred_thousand_keys_are_refused() {
    let runtime = runtime();
    let ten_mb = format!(
        r#"{{"type":"view","body":[{{"type":"note","text":"{}"}}]}}"#,
        "x".repeat(10 * 1024 * 1024)
    );
    let attempt = checked(&runtime, ten_mb);
    assert_eq!(
        attempt.failures(),
        ["input holds more than 1000000 characters"]
    );
    let mut wide = String::from(r#"{"type":"view","body":[{"type":"note","text":"x"}],"meta":{"#);
    for key in 0..100_000 {
        if key > 0 {
            wide.push(',');
        }
        wide.push_str(&format!("\"k{key}\":true"));
    }
    wide.push_str("}}");
    let attempt = checked(&runtime, wide);
    assert_eq!(attempt.failures(), ["input holds more than 20000 values"]);
}

#[test]
fn text_level_hostility_gets_the_parsers_exact_words() {
    assert_eq!(
        unparsed_error(r#"{"type":"view","title":"\ud800","body":[]}"#),
        "unexpected end of hex escape at line 1 column 31"
    );
    assert_eq!(
        unparsed_error(r#"{"type":"view","body":[],"meta":{"n":1e400}}"#),
        "number out of range at line 1 column 42"
    );
    // A fence with nothing inside, and no text at all.
    assert_eq!(
        unparsed_error("```json\n\n```"),
        "EOF while parsing a value at line 1 column 0"
    );
    assert_eq!(
        unparsed_error(""),
        "EOF while parsing a value at line 1 column 0"
    );
    // Prose only.
    assert_eq!(
        unparsed_error("I cannot help with that."),
        "expected value at line 1 column 1"
    );
}

#[test]
fn a_byte_order_mark_is_trimmed_as_javascript_trims_it() {
    // `String.prototype.trim` removes U+FEFF, so upstream parses this; so
    // does `parse_generated` (the sdk's `parse_json` alone refuses it).
    let raw = format!("\u{feff}{VALID}");
    let ParsedAttempt::Parsed { value, raw: kept } = parse_generated(raw.clone()) else {
        panic!("a BOM before the JSON is trimmed");
    };
    assert_eq!(kept, raw);
    assert_eq!(
        *value,
        json!({"type": "view", "body": [{"type": "note", "text": "Ready"}]})
    );
    // Inside a fence too.
    let fenced = format!("```json\n\u{feff}{VALID}\n```");
    assert!(matches!(
        parse_generated(fenced),
        ParsedAttempt::Parsed { .. }
    ));
}

#[test]
fn duplicate_keys_score_the_last_value() {
    let runtime = runtime();
    // The model wrote `text` twice and `type` twice; JSON.parse keeps the
    // last of each, so this node is a valid note with the second text.
    let raw =
        r#"{"type":"view","body":[{"type":"group","text":"first","type":"note","text":"second"}]}"#;
    let attempt = checked(&runtime, raw.to_owned());
    assert!(attempt.is_valid(), "{:?}", attempt.failures());
    assert_eq!(
        attempt.check().unwrap().composition,
        Some(json!({"type": "view", "body": [{"type": "note", "text": "second"}]}))
    );
    let payload = score_payload(&runtime, &attempt, &known_types(), None);
    assert_eq!(payload.raw_bytes, raw.len());
    assert_eq!(
        payload.sanitized_bytes,
        r#"{"type":"view","body":[{"type":"note","text":"second"}]}"#.len()
    );
}

#[test]
fn malformed_containers_are_findings_and_their_payload_walk_stops_there() {
    let runtime = runtime();
    let value = json!({"type": "view", "body": [
        {"type": "group", "title": "t", "items": {"type": "sparkline"}},
        {"type": "group", "title": "t", "items": [{"type": "sparkline"}, 42]},
    ]});
    let check = check_composition(&runtime, &value, None);
    assert!(!check.valid);
    assert_eq!(
        check.errors,
        [
            "body[0].items (in group) Invalid input: expected array, received object",
            // Inside a node of unknown type there is no node type to name.
            "body[1].items[0].type must be one of: note, group",
            "body[1].items[1] (in group) Invalid input: expected object, received number",
        ]
    );
    let attempt = CheckedAttempt(Attempt::Parsed {
        raw: value.to_string(),
        value: Some(value.clone().into()),
        check,
    });
    // Only the well-formed container's child is reached.
    let payload = score_payload(&runtime, &attempt, &known_types(), None);
    assert_eq!(payload.unknown_types, ["sparkline"]);
}

/// Runs `answers` (first attempts; every retry answers `VALID`) as one
/// corpus and returns each case's first-attempt failures and whether the
/// retry validated.
fn run(answers: Vec<(&'static str, String)>) -> Vec<(String, Vec<String>, bool, bool)> {
    let runtime = runtime();
    let corpus: Vec<EvalCase> = answers
        .iter()
        .map(|(id, _)| {
            EvalCase::new(*id, "Show me anything.")
                .with_golden(serde_json::from_str(VALID).unwrap())
                .with_expected(["note"])
        })
        .collect();
    let answers = Arc::new(answers);
    let generate = Generate::new(move |request: GenerateRequest| {
        let answers = Arc::clone(&answers);
        async move {
            if request.attempt > 0 {
                return Ok::<_, BoxError>(VALID.to_owned());
            }
            let (_, text) = answers
                .iter()
                .find(|(id, _)| *id == request.eval_case.id)
                .expect("every case has an answer");
            Ok(text.clone())
        }
    });
    let mut options = RunEvalsOptions::new(&runtime, corpus, generate);
    options.judge = Some(Judge::new(|_| async {
        Ok::<_, BoxError>(AnswerabilityVerdict::Yes)
    }));
    options.concurrency = 4;
    let report = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(run_evals(options));
    assert_eq!(report.totals.errored, 0);
    report
        .results
        .into_iter()
        .map(|result| {
            (
                result.case_id,
                result.validity.errors,
                result.validity.parsed,
                result.validity.valid_after_retry,
            )
        })
        .collect()
}

#[test]
fn run_evals_loses_no_case_to_hostile_answers() {
    let results = run(vec![
        (
            "deep",
            format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000)),
        ),
        ("surrogate", r#""\udfff""#.to_owned()),
        ("huge-number", "-1e400".to_owned()),
        ("bom", format!("\u{feff}{VALID}")),
        ("not-an-object", "[]".to_owned()),
        (
            "html",
            r#"{"type":"view","body":[{"type":"<script>","text":"x"}]}"#.to_owned(),
        ),
    ]);
    let expected: Vec<(String, Vec<String>, bool, bool)> = vec![
        ("deep".into(), vec![TOO_DEEP.into()], true, true),
        (
            "surrogate".into(),
            // serde_json's words for a lone *trailing* surrogate too.
            vec!["lone leading surrogate in hex escape at line 1 column 7".into()],
            false,
            true,
        ),
        (
            "huge-number".into(),
            vec!["number out of range at line 1 column 6".into()],
            false,
            true,
        ),
        ("bom".into(), vec![], true, true),
        (
            "not-an-object".into(),
            vec!["Invalid input: expected object, received array".into()],
            true,
            true,
        ),
        (
            "html".into(),
            vec!["body[0].type must be one of: note, group".into()],
            true,
            true,
        ),
    ];
    assert_eq!(results, expected);
}

#[test]
fn run_evals_stops_reading_an_answer_at_its_first_value_over_the_budget() {
    // Sixty-five groups deep, then a node of a type no pack registers: the
    // run reads the answer under the runtime's budget, so nothing past the
    // 65th level is built. The attempt is invalid with the budget's own
    // message, the payload's bytes are the text's, and no invented type is
    // found (the node that would be one was never built). Checking the value
    // built whole (`parse_generated`, no budget) would find it.
    let answer = {
        let mut text = String::from(r#"{"type":"view","body":["#);
        text.push_str(&r#"{"type":"group","title":"g","items":["#.repeat(65));
        text.push_str(r#"{"type":"invented"}"#);
        text.push_str(&"]}".repeat(65));
        text.push_str("]}");
        text
    };
    let runtime = runtime();
    let corpus = vec![EvalCase::new("deep", "Show me anything.")];
    let answers = Arc::new(answer.clone());
    let generate = Generate::new(move |_request: GenerateRequest| {
        let answers = Arc::clone(&answers);
        async move { Ok::<_, BoxError>((*answers).clone()) }
    });
    let mut options = RunEvalsOptions::new(&runtime, corpus, generate);
    options.retry_on_invalid = false;
    let report = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(run_evals(options));
    let result = &report.results[0];
    assert_eq!(result.error, None);
    assert!(result.validity.parsed);
    assert!(!result.validity.valid);
    assert_eq!(result.validity.errors, [TOO_DEEP]);
    assert_eq!(result.validity.composition, None);
    assert_eq!(result.payload.raw_bytes, answer.len());
    assert_eq!(result.payload.sanitized_bytes, 0);
    assert_eq!(result.payload.unknown_types, Vec::<String>::new());
    // `check_attempt` reads it as the run does: the budget's finding, and no
    // value past it to walk.
    let budgeted = check_attempt(&runtime, answer.clone(), None);
    assert_eq!(budgeted.failures(), [TOO_DEEP]);
    assert!(budgeted.value().is_none());
    let payload = score_payload(&runtime, &budgeted, &known_types(), None);
    assert_eq!(payload.unknown_types, Vec::<String>::new());
    assert_eq!(payload.raw_bytes, answer.len());
    // The same text parsed whole, then checked: the same finding, and the
    // payload walk reaches the node the run never built.
    let attempt = checked(&runtime, answer);
    assert_eq!(attempt.failures(), [TOO_DEEP]);
    let payload = score_payload(&runtime, &attempt, &known_types(), None);
    assert_eq!(payload.unknown_types, ["invented"]);
}

/// A fresh directory holding an empty `answers/`, under cargo's per-target temp dir:
/// `hostile_answers/<name>-<random>`, unique to this call (two `cargo test` runs at
/// once must not share it), removed when the returned guard drops.
fn fresh_dir(name: &str) -> tempfile::TempDir {
    let base = std::env::temp_dir().join("isomer-evals-hostile_answers");
    fs::create_dir_all(&base).unwrap();
    let dir = tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .tempdir_in(base)
        .unwrap();
    fs::create_dir_all(dir.path().join("answers")).unwrap();
    dir
}

const MANIFEST: &str = r#"{
  "provenance": {"author": "hostile test"},
  "cases": [
    {"id": "cut-json", "prompt": "One note?"},
    {"id": "cut-utf8", "prompt": "One note?"},
    {"id": "empty", "prompt": "One note?"}
  ]
}
"#;

#[test]
fn a_corpus_with_truncated_answer_files_reports_each_exactly() {
    let scratch = fresh_dir("truncated");
    let dir = scratch.path().to_path_buf();
    fs::write(dir.join("corpus.json"), MANIFEST).unwrap();
    // Cut in the middle of a key.
    fs::write(
        dir.join("answers/cut-json.0.txt"),
        &VALID.as_bytes()[..VALID.len() - 12],
    )
    .unwrap();
    // Cut in the middle of a two-byte character (`é` is C3 A9).
    let text = r#"{"type":"view","body":[{"type":"note","text":"café"}]}"#;
    let cut = text.find('é').unwrap() + 1;
    fs::write(dir.join("answers/cut-utf8.0.txt"), &text.as_bytes()[..cut]).unwrap();
    fs::write(dir.join("answers/empty.0.txt"), b"").unwrap();

    // Loading lists the names only, so it succeeds; reading the answers
    // names the file that is not UTF-8 and where.
    Corpus::load(&dir).unwrap();
    let replay = Recordings::new(&dir);
    let fault = replay.answer("cut-utf8", 0).unwrap_err();
    assert_eq!(fault.path, dir.join("answers/cut-utf8.0.txt"));
    assert_eq!(
        fault.position,
        Some(Position {
            line: 1,
            column: 50
        })
    );
    assert_eq!(
        fault
            .to_string()
            .replace(&dir.display().to_string(), "<dir>"),
        "<dir>/answers/cut-utf8.0.txt:1:50: is not UTF-8 text (first invalid byte here)"
    );

    // The other two replay as the parser's exact complaint.
    assert_eq!(
        unparsed_error(&replay.answer("cut-json", 0).unwrap()),
        "EOF while parsing a string at line 1 column 43"
    );
    assert_eq!(
        unparsed_error(&replay.answer("empty", 0).unwrap()),
        "EOF while parsing a value at line 1 column 0"
    );
}
