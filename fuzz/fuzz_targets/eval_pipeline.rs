//! Arbitrary bytes as model output through the eval pipeline:
//! `check_attempt` (fence stripping, parse, slides runtime and frame rule), and
//! `run_evals` answering with the bytes (first attempt and retry) and scoring
//! every axis (validity, payload, selection against a golden and, for a valid
//! answer, against itself, expected primitives, answerability through the
//! text surface);
//! and the sdk's check of the text read into a `Document` (typed forms
//! sharing its nodes, the budget's walk spared by the read count), which
//! must find and render what a check of a document of the same value with
//! no count does. Any panic, hang, overflow or disagreement is a finding.

#![no_main]

use std::sync::{Arc, OnceLock};

use isomer_evals::{
    AnswerabilityVerdict, BoxError, EvalCase, Generate, Judge, RunEvalsOptions, check_attempt,
    run_evals, strip_code_fence,
};
use isomer_sdk::{Document, Frame, InputBudget, RenderOptions, Runtime, Surface, clone_deep};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

struct Fixture {
    runtime: Runtime,
    frame: Frame,
    case: Arc<EvalCase>,
    executor: tokio::runtime::Runtime,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let runtime = isomer_slides::runtime().expect("the slides runtime builds");
        let slide = runtime.primitive("slideFrame").unwrap().examples()[0].clone();
        let golden = json!({"type": "view", "body": [slide]});
        let case = Arc::new(
            EvalCase::new("fuzz", "Anything?")
                .with_golden(golden)
                .with_expected(["slideHeading", "slideTable"]),
        );
        Fixture {
            runtime,
            frame: isomer_slides::slide_deck_frame(),
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
    let first = check_attempt(runtime, text.clone(), Some(&fixture.frame));
    let _ = check_attempt(runtime, text.clone(), None);
    // Every axis through the run: the text answers the first attempt and its retry. A
    // valid answer (so one within the runtime's depth budget, safe to clone) is also the
    // golden of a second case, scoring its selection against itself.
    let mut corpus = vec![Arc::clone(&fixture.case)];
    if let (true, Some(value)) = (first.is_valid(), first.value()) {
        corpus.push(Arc::new(
            EvalCase::new("fuzz-self", "Anything?").with_golden(value.clone()),
        ));
    }
    let generate = Generate::new(move |_| {
        let answer = text.clone();
        async move { Ok::<_, BoxError>(answer) }
    });
    let judge = Judge::new(|_| async { Ok::<_, BoxError>(AnswerabilityVerdict::Partial) });
    let mut options = RunEvalsOptions::new(runtime, Vec::new(), generate);
    options.corpus = corpus;
    options.judge = Some(judge);
    options.frame = Some(&fixture.frame);
    let cases = options.corpus.len();
    let report = fixture.executor.block_on(run_evals(options));
    assert_eq!(report.results.len(), cases);
});
