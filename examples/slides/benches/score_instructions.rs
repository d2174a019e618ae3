//! One measured step over the 10,000-case synthetic slides corpus, for
//! instruction counts under callgrind (stable where wall-clock timings on
//! a busy machine are not). The corpus, the runtime, the case list and the
//! executor are built before the step; only the step is counted (the
//! function `measured`), and what it returns is dropped after it. The run
//! shares the case list (`Arc<EvalCase>`), so the cases are neither copied
//! nor dropped inside the step.
//!
//! Steps (the first argument):
//! - `serde_json_parse`: `serde_json::from_str::<Value>` of every answer,
//!   its code fence stripped before the step (the floor: reading the JSON
//!   at all, and nothing else);
//! - `run_evals`: the whole replayed run with the slides frame rule and a
//!   judge that answers at once (so the text surface is rendered);
//! - `run_evals_no_judge`: the same run without a judge;
//! - `runtime`: building `isomer_slides::runtime()` alone;
//! - `runtime_check_one`: building the runtime, then parsing and checking
//!   one small recorded answer (`corpus/slides/answers/v1-scope.0.txt`, a
//!   frame holding a heading and a bullet list): what a process that checks
//!   one answer pays, validators compiled for the three types it meets.
//!
//! ```sh
//! cargo bench -p isomer-slides --bench score_instructions --no-run
//! BIN=$(ls -t target/release/deps/score_instructions-* | grep -v '\.d$' | head -1)
//! for step in serde_json_parse run_evals run_evals_no_judge runtime runtime_check_one; do
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$step \
//!     --toggle-collect='*measured*' "$BIN" $step 2>&1 | grep 'Collected'
//! done
//! ```
//!
//! The ratios the quality bar bounds are `run_evals / serde_json_parse`
//! (with the judge) and `run_evals_no_judge / serde_json_parse`.

use std::hint::black_box;
use std::sync::Arc;

use isomer_evals::{
    AnswerabilityVerdict, BoxError, EvalCase, Generate, GenerateRequest, Judge, RunEvalsOptions,
    run_evals, strip_code_fence,
};
use isomer_slides::synthetic;
use serde_json::Value;

const CASES: usize = 10_000;

/// The answer `runtime_check_one` checks.
const ONE_ANSWER: &str = include_str!("../../../corpus/slides/answers/v1-scope.0.txt");

/// The counted step: `--toggle-collect='*measured*'` counts only this call.
#[inline(never)]
fn measured<R>(step: impl FnOnce() -> R) -> R {
    black_box(step())
}

fn main() {
    // `cargo bench` passes `--bench`; the step is the first other argument.
    let step = std::env::args()
        .skip(1)
        .find(|arg| !arg.starts_with("--"))
        .unwrap_or_else(|| "run_evals".to_owned());
    if step == "runtime" {
        let runtime = measured(isomer_slides::runtime);
        drop(black_box(runtime));
        return;
    }
    if step == "runtime_check_one" {
        let (runtime, valid) = measured(|| {
            let runtime = isomer_slides::runtime().expect("the slides runtime builds");
            let value = isomer_sdk::parse_json(ONE_ANSWER).expect("the answer is JSON");
            let valid = runtime.check(&value).valid();
            (runtime, valid)
        });
        assert!(valid, "the answer is a valid composition");
        drop(black_box(runtime));
        return;
    }
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    let frame = isomer_slides::slide_deck_frame();
    let corpus = synthetic::synthetic_corpus(&runtime, CASES, 42);
    let executor = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("tokio runtime");
    let answers = &corpus.answers;
    let generate = Generate::new(move |request: GenerateRequest| {
        let text = answers
            .get(&(request.eval_case.id.clone(), request.attempt))
            .cloned()
            .unwrap_or_default();
        async move { Ok::<_, BoxError>(text) }
    });
    match step.as_str() {
        "serde_json_parse" => {
            // The fences come off before the step: it counts serde_json alone.
            let texts: Vec<&str> = corpus.answer_texts().map(strip_code_fence).collect();
            let parsed = measured(|| {
                texts
                    .iter()
                    .map(|text| serde_json::from_str::<Value>(text).ok())
                    .collect::<Vec<_>>()
            });
            drop(black_box(parsed));
        }
        "run_evals" | "run_evals_no_judge" => {
            // Shared cases, made before the step and dropped after it: the
            // step neither copies nor drops a golden.
            let cases: Vec<Arc<EvalCase>> = corpus.cases.iter().cloned().map(Arc::new).collect();
            let mut options = RunEvalsOptions::new(&runtime, Vec::new(), generate);
            options.corpus = cases.clone();
            options.frame = Some(&frame);
            if step == "run_evals" {
                options.judge = Some(Judge::new(|_| async {
                    Ok::<_, BoxError>(AnswerabilityVerdict::Yes)
                }));
            }
            let report = measured(|| executor.block_on(run_evals(options)));
            assert_eq!(report.results.len(), CASES);
            drop(black_box(report));
            drop(cases);
        }
        other => panic!(
            "unknown step {other:?}: serde_json_parse, run_evals, run_evals_no_judge, runtime \
             or runtime_check_one"
        ),
    }
}
