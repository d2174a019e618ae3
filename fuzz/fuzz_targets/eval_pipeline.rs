//! Arbitrary bytes as model output through the eval pipeline:
//! `parse_generated` → `check_attempt` (slides runtime and frame rule) →
//! every scorer (validity, payload, selection against a golden and against
//! itself, expected primitives, answerability through the text surface);
//! and the sdk's check of the text read into a `Document` (typed forms
//! sharing its nodes, the budget's walk spared by the read count), which
//! must find and render what a check of a document of the same value with
//! no count does. Any panic, hang, overflow or disagreement is a finding.

#![no_main]

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use isomer_evals::{
    AnswerabilityVerdict, BoxError, EvalCase, Judge, check_attempt, parse_generated,
    score_answerability, score_expected_primitives, score_payload, score_primitive_selection,
    score_validity, strip_code_fence,
};
use isomer_sdk::{Document, Frame, InputBudget, RenderOptions, Runtime, Surface, clone_deep};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

struct Fixture {
    runtime: Runtime,
    frame: Frame,
    known: HashSet<String>,
    golden: Value,
    case: Arc<EvalCase>,
    executor: tokio::runtime::Runtime,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let runtime = isomer_slides::runtime().expect("the slides runtime builds");
        let known = runtime
            .catalog()
            .into_iter()
            .map(|entry| entry.type_name)
            .collect();
        let slide = runtime.primitive("slideFrame").unwrap().examples()[0].clone();
        let golden = json!({"type": "view", "body": [slide]});
        let case = Arc::new(
            EvalCase::new("fuzz", "Anything?")
                .with_golden(golden.clone())
                .with_expected(["slideHeading", "slideTable"]),
        );
        Fixture {
            runtime,
            frame: isomer_slides::slide_deck_frame(),
            known,
            golden,
            case,
            executor: tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("tokio runtime"),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let fixture = fixture();
    let runtime = &fixture.runtime;
    let text = String::from_utf8_lossy(data).into_owned();
    let unlimited = InputBudget {
        depth: usize::MAX,
        values: usize::MAX,
        characters: usize::MAX,
    };
    if let Ok(document) = Document::parse_within(strip_code_fence(&text), unlimited) {
        let uncounted = Document::new(clone_deep(&document));
        let read = runtime.check(&document);
        let borrowed = runtime.check(&uncounted);
        assert_eq!(read.errors(), borrowed.errors());
        assert_eq!(read.warnings(), borrowed.warnings());
        // Within the budget when present, so compared without deep recursion.
        assert_eq!(read.composition(), borrowed.composition());
        let options = RenderOptions::default();
        for surface in Surface::ALL {
            let render = |checked: &isomer_sdk::Checked<'_>| {
                checked.render(surface, &options).ok().map(|rendered| rendered.to_text())
            };
            assert_eq!(render(&read), render(&borrowed), "{surface:?}");
        }
    }
    let first = check_attempt(runtime, parse_generated(text.clone()), Some(&fixture.frame));
    // The same text as a retry, and as the first attempt of a retry pair.
    let retry = check_attempt(runtime, parse_generated(text), None);
    let _ = score_validity(&first, Some(&retry));
    let _ = score_payload(runtime, &first, &fixture.known, Some(&fixture.golden));
    let walker = runtime.walker();
    if let (Some(value), Some(check)) = (first.value(), first.check()) {
        let _ = score_primitive_selection(walker, value, &fixture.golden);
        let _ = score_primitive_selection(walker, &fixture.golden, value);
        let _ = score_primitive_selection(walker, value, value);
        let expected = fixture.case.expected.clone().unwrap_or_default();
        let _ = score_expected_primitives(walker, Some(value), &expected);
        let composition = check.composition.as_ref().unwrap_or(value);
        let judge = Judge::new(|_| async { Ok::<_, BoxError>(AnswerabilityVerdict::Partial) });
        let _ = fixture.executor.block_on(score_answerability(
            runtime,
            &judge,
            Arc::clone(&fixture.case),
            composition,
        ));
    }
});
