//! Arbitrary bytes as model output through the eval pipeline:
//! `parse_generated` → `check_attempt` (slides runtime and frame rule) →
//! every scorer (validity, payload, selection against a golden and against
//! itself, expected primitives, answerability through the text surface).
//! Any panic, hang or overflow is a finding.

#![no_main]

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use isomer_evals::{
    AnswerabilityVerdict, BoxError, EvalCase, Judge, check_attempt, parse_generated,
    score_answerability, score_expected_primitives, score_payload, score_primitive_selection,
    score_validity,
};
use isomer_sdk::{Frame, Runtime};
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
