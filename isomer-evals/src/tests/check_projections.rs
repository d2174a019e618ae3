//! Property tests of the projections of the sdk's one pass, as scoring
//! reads them, over the slides pack:
//!
//! - the sdk runtime's `EvalRuntime::check` (one `Runtime::check`, the
//!   judged text rendered from it) against the same check rebuilt from the
//!   runtime's projections `parse`, `validate` and `render_text`
//!   ([`Steps`]); and `check_composition`, `check_attempt` and a whole
//!   `run_evals` (judged texts and reports) through both;
//! - `Runtime::check` against `parse` then `validate` of the copy, and its
//!   render against `render` on every surface;
//! - `check_input_budget` against a reference walk written here from
//!   upstream's budget rules (the same walk as the sdk's own agreement
//!   test);
//! - the payload's byte counts (`sanitized_bytes`, `size_vs_golden`)
//!   against `json_stringify(..).len()`.
//!
//! Inputs: every example node of every slides primitive wrapped in a
//! view, every single-step mutation of those views, and the synthetic
//! corpus (goldens and every recorded answer).

use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;

use super::axes::score_payload;
use isomer_evals::check::{
    Attempt, CheckedComposition, check_attempt_and_render, check_composition,
};
use isomer_evals::parse::{ParsedAttempt, parse_generated};
use isomer_evals::{
    AnswerabilityVerdict, BoxError, CheckedAttempt, EvalFrame, EvalRuntime, Generate,
    GenerateRequest, Judge, JudgeRequest, RunEvalsOptions, TextCheck, check_attempt, run_evals,
};
use isomer_sdk::js_parity::{format_json_number, json_stringify};
use isomer_sdk::{
    AuthoringContext, ChildWalker, DeepValue, Document, InputBudget, InputUsage, RenderOptions,
    Runtime, Surface, check_input_budget,
};
use isomer_slides::synthetic::synthetic_corpus;
use serde_json::{Map, Value, json};

/// The sdk runtime's check rebuilt from its projections: `parse`, then
/// `validate` of the copy, then `render_text` on demand.
struct Steps<'r>(&'r Runtime);

impl EvalRuntime for Steps<'_> {
    fn walker(&self) -> &dyn ChildWalker {
        <Runtime as EvalRuntime>::walker(self.0)
    }

    fn authoring_context(&self) -> AuthoringContext {
        <Runtime as EvalRuntime>::authoring_context(self.0)
    }

    fn check<'a>(&'a self, value: &'a isomer_sdk::Document) -> TextCheck<'a> {
        let parsed = self.0.parse(value);
        let parsed = match parsed.composition {
            Some(copy) if parsed.valid => Ok(copy),
            _ => Err(parsed.errors),
        };
        TextCheck::from_steps(self, parsed, |copy| {
            let checked = self.0.validate(copy);
            if checked.valid {
                Ok(())
            } else {
                Err(checked.errors)
            }
        })
    }

    fn render_text(&self, composition: &Value) -> Result<String, BoxError> {
        <Runtime as EvalRuntime>::render_text(self.0, composition)
    }
}

/// A rendered text or the surface's error text, comparable.
fn text_of(rendered: Result<String, BoxError>) -> Result<String, String> {
    rendered.map_err(|error| error.to_string())
}

/// What the check made of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Refused,
    Invalid,
    Valid,
    ValidDropped,
}

/// The sdk runtime's check against its projections, for the value as a
/// document (its typed forms share its nodes), and as a document read from
/// its text (the budget's walk is spared when the read count is within the
/// budget; read with no limit here, so a count over it is checked again).
fn assert_check_agrees(rt: &Runtime, value: &Value) {
    let shared = Document::new(value.clone());
    let text = serde_json::to_string(value).unwrap();
    let unlimited = InputBudget {
        depth: usize::MAX,
        values: usize::MAX,
        characters: usize::MAX,
    };
    let read = Document::parse_within(&text, unlimited).unwrap();
    assert_eq!(*read, *value);
    for input in [&shared, &read] {
        assert_input_check_agrees(rt, input);
    }
}

/// [`assert_check_agrees`] for one document.
fn assert_input_check_agrees(rt: &Runtime, input: &Document) {
    let value: &Value = input;
    let slow_rt = Steps(rt);
    let fast = EvalRuntime::check(rt, input);
    let slow = slow_rt.check(input);
    match (fast, slow) {
        (TextCheck::Refused(fast), TextCheck::Refused(slow)) => assert_eq!(fast, slow, "{value}"),
        (
            TextCheck::Invalid {
                composition: fast_copy,
                errors: fast_errors,
            },
            TextCheck::Invalid {
                composition: slow_copy,
                errors: slow_errors,
            },
        ) => {
            // A check may leave out a copy that equals the value.
            let fast_copy = fast_copy.as_ref().unwrap_or(value);
            let slow_copy = slow_copy.as_ref().unwrap_or(value);
            assert_eq!(fast_copy, slow_copy, "{value}");
            assert_eq!(fast_errors, slow_errors, "{value}");
        }
        (TextCheck::Valid(fast), TextCheck::Valid(slow)) => {
            assert_eq!(fast.composition(), slow.composition(), "{value}");
            let fast_text = text_of(fast.render_text());
            assert!(fast_text.is_ok(), "{value}: {fast_text:?}");
            assert_eq!(fast_text, text_of(slow.render_text()), "{value}");
            // Rendering twice gives the same text.
            assert_eq!(fast_text, text_of(fast.render_text()));
            let owned = |copy: Option<Value>| copy.unwrap_or_else(|| value.clone());
            assert_eq!(owned(fast.into_copy()), owned(slow.into_copy()));
        }
        (fast, slow) => panic!("{value}: check gave {fast:?}, its projections {slow:?}"),
    }
}

/// `check_composition` and `check_attempt` through both runtimes, with and
/// without the slides frame.
fn assert_checks_agree(rt: &Runtime, value: &Value) {
    let slow_rt = Steps(rt);
    let frame = isomer_slides::slide_deck_frame();
    for frame in [None, Some(&frame as &dyn EvalFrame)] {
        assert_eq!(
            check_composition(rt, value, frame),
            check_composition(&slow_rt, value, frame),
            "{value}"
        );
    }
}

/// `Runtime::check` against `parse` then `validate` of the copy, and for a
/// valid copy its render against `render` on every surface.
fn assert_check_projects(rt: &Runtime, value: &Value) -> Kind {
    let parsed = rt.parse(value);
    let document = Document::new(value.clone());
    let checked = rt.check(&document);
    let Some(copy) = parsed.composition.as_ref() else {
        assert!(!parsed.valid, "{value}");
        assert_eq!(checked.composition(), None, "{value}");
        assert_eq!(checked.errors(), parsed.errors.as_slice(), "{value}");
        return Kind::Refused;
    };
    assert_eq!(checked.composition(), Some(copy), "{value}");
    let validated = rt.validate(copy);
    assert_eq!(checked.valid(), validated.valid, "{value}");
    assert_eq!(checked.errors(), validated.errors.as_slice(), "{value}");
    if !validated.valid {
        return Kind::Invalid;
    }
    assert_eq!(checked.warnings(), validated.warnings.as_slice());
    for surface in Surface::ALL {
        for options in [
            RenderOptions::default(),
            RenderOptions {
                heading: false,
                minify: true,
                ..RenderOptions::default()
            },
        ] {
            let rendered = rt.render(surface, copy, &options);
            assert!(rendered.is_ok(), "{surface:?} of {copy}: {rendered:?}");
            assert_eq!(checked.render(surface, &options), rendered);
        }
    }
    if copy == value {
        Kind::Valid
    } else {
        Kind::ValidDropped
    }
}

// The reference budget walk, as in the sdk's agreement test.

fn reference_leaf_length(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => format_json_number(n).encode_utf16().count(),
        Value::String(s) => s.encode_utf16().count(),
        Value::Array(_) | Value::Object(_) => 0,
    }
}

fn array_index(key: &str) -> Option<u64> {
    let canonical = !key.is_empty()
        && key.len() <= 10
        && key.bytes().all(|b| b.is_ascii_digit())
        && (key == "0" || !key.starts_with('0'));
    canonical
        .then(|| key.parse::<u64>().ok())
        .flatten()
        .filter(|n| *n < u64::from(u32::MAX))
}

fn reference_key_order(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut indexed: Vec<(u64, &String, &Value)> = map
        .iter()
        .filter_map(|(k, v)| array_index(k).map(|n| (n, k, v)))
        .collect();
    indexed.sort_by_key(|(n, _, _)| *n);
    let mut ordered: Vec<(&String, &Value)> = indexed.into_iter().map(|(_, k, v)| (k, v)).collect();
    ordered.extend(map.iter().filter(|(k, _)| array_index(k).is_none()));
    ordered
}

fn reference_budget(value: &Value, budget: InputBudget) -> Result<InputUsage, String> {
    let values_message = format!("input holds more than {} values", budget.values);
    let characters_message = format!("input holds more than {} characters", budget.characters);
    let mut usage = InputUsage::default();
    let mut stack: Vec<(&Value, usize)> = Vec::new();
    let enqueue = |value: &'_ Value, key: usize, usage: &mut InputUsage| {
        usage.values += 1;
        if usage.values > budget.values {
            return Err(values_message.clone());
        }
        usage.characters += key + reference_leaf_length(value);
        if usage.characters > budget.characters {
            return Err(characters_message.clone());
        }
        Ok(())
    };
    enqueue(value, 0, &mut usage)?;
    if matches!(value, Value::Array(_) | Value::Object(_)) {
        stack.push((value, 1));
    }
    while let Some((container, depth)) = stack.pop() {
        if depth > budget.depth {
            return Err(format!("input nests deeper than {} levels", budget.depth));
        }
        usage.depth = usage.depth.max(depth);
        let children: Vec<(usize, &Value)> = match container {
            Value::Array(items) => items.iter().map(|item| (0, item)).collect(),
            Value::Object(map) => reference_key_order(map)
                .into_iter()
                .map(|(key, item)| (key.encode_utf16().count(), item))
                .collect(),
            _ => Vec::new(),
        };
        if usage.values + children.len() > budget.values {
            return Err(values_message.clone());
        }
        for (key, child) in children {
            // A container is pushed before its characters are checked, as
            // upstream does; a refusal ends the walk either way.
            enqueue(child, key, &mut usage)?;
            if matches!(child, Value::Array(_) | Value::Object(_)) {
                stack.push((child, depth + 1));
            }
        }
    }
    Ok(usage)
}

/// `check_input_budget` against the reference under the default budget,
/// the input's own usage, and one below it on each axis.
fn assert_budget_agrees(value: &Value) {
    let mut budgets = vec![InputBudget::default()];
    if let Ok(usage) = reference_budget(value, InputBudget::default()) {
        let exact = InputBudget {
            depth: usage.depth,
            values: usage.values,
            characters: usage.characters,
        };
        budgets.extend([
            exact,
            InputBudget {
                depth: usage.depth.saturating_sub(1),
                ..exact
            },
            InputBudget {
                values: usage.values - 1,
                ..exact
            },
            InputBudget {
                characters: usage.characters.saturating_sub(1),
                ..exact
            },
            InputBudget {
                depth: usage.depth.saturating_sub(1),
                values: usage.values - 1,
                characters: usage.characters.saturating_sub(1),
            },
        ]);
    }
    for budget in budgets {
        let fast = check_input_budget(value, budget).map_err(|error| error.message);
        assert_eq!(fast, reference_budget(value, budget), "{value} {budget:?}");
    }
}

/// The payload's byte counts against `json_stringify`: `value` scored as
/// the sanitized copy of a valid attempt, `golden` as the golden; and the
/// real check of `value` scored as it comes.
fn assert_payload_bytes_agree(rt: &Runtime, value: &Value, golden: &Value) {
    let known: HashSet<String> = rt
        .authoring_context()
        .primitives
        .iter()
        .map(|entry| entry.type_name.clone())
        .collect();
    let as_copy = CheckedAttempt(Attempt::Parsed {
        raw: String::new(),
        value: Some(DeepValue::from(value.clone())),
        check: CheckedComposition {
            valid: true,
            errors: Vec::new(),
            composition: Some(value.clone()),
        },
    });
    let score = score_payload(rt, &as_copy, &known, Some(golden));
    let bytes = json_stringify(value).len();
    assert_eq!(score.sanitized_bytes, bytes, "{value}");
    assert_eq!(
        score.size_vs_golden,
        Some(bytes as f64 / json_stringify(golden).len() as f64),
        "{golden}"
    );

    let parsed = ParsedAttempt::Parsed {
        raw: value.to_string(),
        value: DeepValue::from(value.clone()),
    };
    let (checked, _) = check_attempt_and_render(rt, parsed.into(), None, false);
    let expected = match checked.check() {
        Some(CheckedComposition {
            valid: true,
            composition: Some(copy),
            ..
        }) => json_stringify(copy).len(),
        _ => 0,
    };
    assert_eq!(
        score_payload(rt, &checked, &known, None).sanitized_bytes,
        expected,
        "{value}"
    );
}

/// Every comparison on one input; its kind.
fn assert_all_agree(rt: &Runtime, value: &Value, golden: &Value) -> Kind {
    assert_budget_agrees(value);
    assert_check_agrees(rt, value);
    assert_checks_agree(rt, value);
    assert_payload_bytes_agree(rt, value, golden);
    assert_check_projects(rt, value)
}

fn tally(kinds: &[Kind]) -> BTreeMap<Kind, usize> {
    let mut counts = BTreeMap::new();
    for kind in kinds {
        *counts.entry(*kind).or_insert(0) += 1;
    }
    counts
}

fn slides() -> Runtime {
    isomer_slides::runtime().expect("the slides runtime builds")
}

/// Every example node of every slides primitive, each alone in a view.
fn example_views(rt: &Runtime) -> Vec<Value> {
    rt.primitives()
        .iter()
        .flat_map(|primitive| primitive.examples().iter())
        .map(|node| json!({ "type": "view", "body": [node] }))
        .collect()
}

#[test]
fn every_slides_example_agrees() {
    let rt = slides();
    let views = example_views(&rt);
    let golden = views[0].clone();
    let kinds: Vec<Kind> = views
        .iter()
        .map(|view| assert_all_agree(&rt, view, &golden))
        .collect();
    eprintln!(
        "slides examples: {} cases, {:?}",
        kinds.len(),
        tally(&kinds)
    );
    assert!(kinds.len() >= rt.primitives().len());
    assert!(kinds.iter().all(|kind| *kind == Kind::Valid), "{kinds:?}");
}

/// A replacement of every JSON type, for wrong-type mutations.
fn wrong_values() -> [Value; 6] {
    [
        json!(null),
        json!(false),
        json!(-0.0),
        json!("x"),
        json!([]),
        json!({}),
    ]
}

/// Every single-step edit of `value`, applied to a copy each: in every
/// object an unknown key added, each key dropped, each value replaced by
/// one of every type; in every array each element dropped or duplicated.
fn mutations(value: &Value) -> Vec<Value> {
    let mut paths: Vec<Vec<PathStep>> = Vec::new();
    collect_paths(value, &mut Vec::new(), &mut paths);
    let mut out = Vec::new();
    for path in paths {
        let target = resolve(value, &path);
        match target {
            Value::Object(map) => {
                let mut added = value.clone();
                resolve_mut(&mut added, &path)
                    .as_object_mut()
                    .unwrap()
                    .insert("zUnknown".into(), json!({ "deep": [1, "é"] }));
                out.push(added);
                for key in map.keys() {
                    let mut dropped = value.clone();
                    resolve_mut(&mut dropped, &path)
                        .as_object_mut()
                        .unwrap()
                        .shift_remove(key);
                    out.push(dropped);
                    for wrong in wrong_values() {
                        let mut retyped = value.clone();
                        resolve_mut(&mut retyped, &path)[key] = wrong;
                        out.push(retyped);
                    }
                }
            }
            Value::Array(items) => {
                for at in 0..items.len() {
                    let mut removed = value.clone();
                    resolve_mut(&mut removed, &path)
                        .as_array_mut()
                        .unwrap()
                        .remove(at);
                    out.push(removed);
                    let mut doubled = value.clone();
                    let items = resolve_mut(&mut doubled, &path).as_array_mut().unwrap();
                    items.insert(at, items[at].clone());
                    out.push(doubled);
                }
            }
            _ => {}
        }
    }
    out
}

#[derive(Debug, Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn collect_paths(value: &Value, at: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    match value {
        Value::Object(map) => {
            out.push(at.clone());
            for (key, child) in map {
                at.push(PathStep::Key(key.clone()));
                collect_paths(child, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            out.push(at.clone());
            for (index, child) in items.iter().enumerate() {
                at.push(PathStep::Index(index));
                collect_paths(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn resolve<'v>(value: &'v Value, path: &[PathStep]) -> &'v Value {
    path.iter().fold(value, |value, step| match step {
        PathStep::Key(key) => &value[key],
        PathStep::Index(index) => &value[*index],
    })
}

fn resolve_mut<'v>(value: &'v mut Value, path: &[PathStep]) -> &'v mut Value {
    path.iter().fold(value, |value, step| match step {
        PathStep::Key(key) => &mut value[key],
        PathStep::Index(index) => &mut value[*index],
    })
}

#[test]
fn every_mutation_of_every_slides_example_agrees() {
    let rt = slides();
    let views = example_views(&rt);
    let mut kinds = Vec::new();
    for view in &views {
        // Meta with unknown keys at two levels, so the drop path is taken.
        let mut with_meta = view.clone();
        with_meta["meta"] = json!({ "source": "s", "provenance": { "query": "q" } });
        for mutated in mutations(view).iter().chain(&mutations(&with_meta)) {
            kinds.push(assert_all_agree(&rt, mutated, view));
        }
        // The node twice with one id (duplicate ids), and the same after an
        // unknown meta key was dropped.
        let mut node = view["body"][0].clone();
        node["id"] = json!("twin");
        let mut twins = json!({ "type": "view", "body": [node.clone(), node] });
        kinds.push(assert_all_agree(&rt, &twins, view));
        twins["meta"] = json!({ "zUnknown": 1 });
        kinds.push(assert_all_agree(&rt, &twins, view));
    }
    let counts = tally(&kinds);
    eprintln!("slides mutations: {} cases, {counts:?}", kinds.len());
    for kind in [
        Kind::Refused,
        Kind::Invalid,
        Kind::Valid,
        Kind::ValidDropped,
    ] {
        assert!(counts.get(&kind).copied().unwrap_or(0) > 0, "{counts:?}");
    }
}

/// The synthetic corpus: every golden, and every recorded answer text as
/// the harness reads it (fence stripped, parsed).
#[test]
fn the_synthetic_corpus_agrees() {
    let rt = slides();
    let corpus = synthetic_corpus(&rt, 200, 42);
    let mut kinds = Vec::new();
    let goldens: BTreeMap<&str, &Value> = corpus
        .cases
        .iter()
        .map(|case| (case.id.as_str(), case.golden.as_ref().expect("a golden")))
        .collect();
    for case in &corpus.cases {
        let golden = goldens[case.id.as_str()];
        kinds.push(assert_all_agree(&rt, golden, golden));
    }
    let mut unparsed = 0;
    for ((id, _), text) in &corpus.answers {
        let golden = goldens[id.as_str()];
        match parse_generated(text.clone()) {
            ParsedAttempt::Parsed { value, .. } => {
                kinds.push(assert_all_agree(&rt, &value, golden));
            }
            ParsedAttempt::Unparsed { .. } => unparsed += 1,
        }
        // The whole attempt check, through both runtimes.
        let frame = isomer_slides::slide_deck_frame();
        assert_eq!(
            check_attempt(&rt, text.clone(), Some(&frame)),
            check_attempt(&Steps(&rt), text.clone(), Some(&frame)),
            "{text}"
        );
    }
    eprintln!(
        "synthetic corpus: {} values ({} goldens, {} parsed answers; {unparsed} answers not JSON), {:?}",
        kinds.len(),
        corpus.cases.len(),
        kinds.len() - corpus.cases.len(),
        tally(&kinds)
    );
    assert!(unparsed > 0);
    assert!(tally(&kinds).contains_key(&Kind::Refused));
}

/// A whole run over the synthetic corpus through the sdk runtime and
/// through its projections ([`Steps`]): the same judged texts and the same
/// report.
#[test]
fn run_evals_judges_the_same_text_and_reports_the_same() {
    let rt = slides();
    let frame = isomer_slides::slide_deck_frame();
    let corpus = synthetic_corpus(&rt, 120, 7);
    let run = |runtime: &dyn EvalRuntime| {
        let judged: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
        let answers = &corpus.answers;
        let generate = Generate::new(move |request: GenerateRequest| {
            let text = answers
                .get(&(request.eval_case.id.clone(), request.attempt))
                .cloned()
                .unwrap_or_default();
            async move { Ok::<_, BoxError>(text) }
        });
        let judged_ref = &judged;
        let judge = Judge::new(move |request: JudgeRequest| {
            // The verdict depends on the text, so a different text shows in
            // the report too.
            let verdict = match request.rendered.len() % 3 {
                0 => AnswerabilityVerdict::Yes,
                1 => AnswerabilityVerdict::Partial,
                _ => AnswerabilityVerdict::No,
            };
            judged_ref
                .lock()
                .unwrap()
                .push((request.eval_case.id.clone(), request.rendered));
            async move { Ok::<_, BoxError>(verdict) }
        });
        // The slides pack builds its cases with isomer-evals as its own dependency, a crate
        // apart from this unit-test build: the same cases, carried over on their wire form.
        let cases = corpus
            .cases
            .iter()
            .map(|case| serde_json::from_value(serde_json::to_value(case).unwrap()).unwrap())
            .collect();
        let mut options = RunEvalsOptions::new(runtime, cases, generate);
        options.judge = Some(judge);
        options.frame = Some(&frame);
        let report = futures::executor::block_on(run_evals(options));
        let mut judged = judged.into_inner().unwrap();
        judged.sort();
        (report, judged)
    };
    let (fast_report, fast_judged) = run(&rt);
    let (slow_report, slow_judged) = run(&Steps(&rt));
    assert_eq!(fast_judged, slow_judged);
    assert_eq!(fast_report, slow_report);
    let judged = corpus
        .kinds
        .iter()
        .filter(|kind| **kind != isomer_slides::synthetic::AnswerKind::InvalidTwice)
        .count();
    assert_eq!(fast_judged.len(), judged);
    eprintln!(
        "run_evals: {} cases, {judged} judged texts",
        corpus.cases.len()
    );
}

/// SplitMix64 (Steele, Lea, Flood 2014): a seeded stream for the generated
/// inputs below, so a failure reproduces from its case number.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Numbers where printing and counting are easy to get wrong.
fn generated_number(rng: &mut SplitMix64) -> Value {
    const TWO_53: i64 = 1 << 53;
    match rng.below(6) {
        0 => json!(*rng.pick(&[
            0.0,
            -0.0,
            1e21,
            1e-7,
            -1.5e-7,
            0.1,
            123.25,
            f64::MAX,
            5e-324,
            9_007_199_254_740_992.0,
            1.0,
        ])),
        1 => json!(*rng.pick(&[
            TWO_53 - 1,
            TWO_53,
            TWO_53 + 1,
            -TWO_53 - 1,
            i64::MIN,
            i64::MAX,
            -1,
            0,
        ])),
        2 => json!(*rng.pick(&[u64::MAX, 99_999_999_999_999_999, 1 << 63])),
        3 => json!(rng.next() as i64 >> rng.below(64)),
        4 => {
            let float = f64::from_bits(rng.next());
            if float.is_finite() {
                json!(float)
            } else {
                json!(rng.below(1000) as f64 / 8.0)
            }
        }
        _ => json!(rng.below(2000) as i64 - 1000),
    }
}

/// Short strings of escapes, controls, astral characters and separators.
fn generated_string(rng: &mut SplitMix64) -> String {
    const CHARS: &[char] = &[
        'a',
        'b',
        'Z',
        '0',
        ' ',
        '"',
        '\\',
        '/',
        '\u{0}',
        '\u{8}',
        '\u{c}',
        '\n',
        '\r',
        '\t',
        '\u{1f}',
        '\u{7f}',
        '\u{80}',
        'é',
        '😀',
        '\u{2028}',
        '\u{2029}',
        '\u{feff}',
        '\u{10ffff}',
    ];
    (0..rng.below(9)).map(|_| *rng.pick(CHARS)).collect()
}

/// Any JSON value, at most `depth` containers deep, with the slides keys
/// among random ones.
fn generated_json(rng: &mut SplitMix64, depth: usize) -> Value {
    const KEYS: &[&str] = &[
        "type", "body", "meta", "id", "title", "items", "text", "0", "7", "01", "source",
    ];
    let kinds = if depth == 0 { 4 } else { 6 };
    match rng.below(kinds) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => generated_number(rng),
        3 => Value::String(generated_string(rng)),
        4 => Value::Array(
            (0..rng.below(5))
                .map(|_| generated_json(rng, depth - 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(5))
                .map(|_| {
                    let key = if rng.below(2) == 0 {
                        (*rng.pick(KEYS)).to_owned()
                    } else {
                        generated_string(rng)
                    };
                    (key, generated_json(rng, depth - 1))
                })
                .collect(),
        ),
    }
}

/// `value` with one random place replaced by random JSON, or given a random
/// key.
fn randomly_mutated(rng: &mut SplitMix64, value: &Value) -> Value {
    let mut paths = Vec::new();
    collect_paths(value, &mut Vec::new(), &mut paths);
    let path = rng.pick(&paths).clone();
    let mut copy = value.clone();
    let target = resolve_mut(&mut copy, &path);
    let replacement = generated_json(rng, 3);
    match target {
        Value::Object(map) if rng.below(2) == 0 => {
            map.insert(generated_string(rng), replacement);
        }
        Value::Object(map) if !map.is_empty() => {
            let at = rng.below(map.len());
            *map.values_mut().nth(at).unwrap() = replacement;
        }
        Value::Array(items) if !items.is_empty() => {
            let at = rng.below(items.len());
            items[at] = replacement;
        }
        other => *other = replacement,
    }
    copy
}

/// How many generated inputs of each kind.
const GENERATED: usize = 256;

#[test]
fn generated_json_agrees() {
    let rt = slides();
    let mut rng = SplitMix64(20_261_130);
    let mut kinds = Vec::new();
    for _ in 0..GENERATED {
        let value = generated_json(&mut rng, 5);
        let golden = generated_json(&mut rng, 3);
        kinds.push(assert_all_agree(&rt, &value, &golden));
        kinds.push(assert_all_agree(
            &rt,
            &json!({ "type": "view", "body": [value] }),
            &golden,
        ));
    }
    eprintln!("generated JSON: {} cases, {:?}", kinds.len(), tally(&kinds));
}

/// The paths of every string leaf of `value`.
fn string_paths(value: &Value) -> Vec<Vec<PathStep>> {
    let mut containers = Vec::new();
    collect_paths(value, &mut Vec::new(), &mut containers);
    let mut out = Vec::new();
    for path in containers {
        let step = |step: PathStep| {
            let mut leaf = path.clone();
            leaf.push(step);
            leaf
        };
        match resolve(value, &path) {
            Value::Object(map) => out.extend(
                map.iter()
                    .filter(|(_, child)| child.is_string())
                    .map(|(key, _)| step(PathStep::Key(key.clone()))),
            ),
            Value::Array(items) => out.extend(
                items
                    .iter()
                    .enumerate()
                    .filter(|(_, child)| child.is_string())
                    .map(|(at, _)| step(PathStep::Index(at))),
            ),
            _ => {}
        }
    }
    out
}

/// Every string of every example in turn replaced by generated text
/// (escapes, controls, astral characters, separators): mostly still valid,
/// so every surface renders hostile text through both paths.
#[test]
fn hostile_text_in_slides_examples_agrees() {
    let rt = slides();
    let mut rng = SplitMix64(7);
    let mut kinds = Vec::new();
    for view in example_views(&rt) {
        for path in string_paths(&view) {
            if matches!(path.last(), Some(PathStep::Key(key)) if key == "type") {
                continue;
            }
            let mut copy = view.clone();
            let text = format!("x{}", generated_string(&mut rng));
            *resolve_mut(&mut copy, &path) = Value::String(text);
            kinds.push(assert_all_agree(&rt, &copy, &view));
        }
    }
    let counts = tally(&kinds);
    eprintln!("hostile text: {} cases, {counts:?}", kinds.len());
    assert!(counts.get(&Kind::Valid).copied().unwrap_or(0) > kinds.len() / 2);
}

#[test]
fn randomly_mutated_slides_examples_agree() {
    let rt = slides();
    let views = example_views(&rt);
    let mut rng = SplitMix64(42);
    let kinds: Vec<Kind> = (0..GENERATED)
        .map(|_| {
            let view = rng.pick(&views);
            let mutated = randomly_mutated(&mut rng, view);
            assert_all_agree(&rt, &mutated, view)
        })
        .collect();
    eprintln!(
        "randomly mutated examples: {} cases, {:?}",
        kinds.len(),
        tally(&kinds)
    );
}
