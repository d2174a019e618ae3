//! One measured step over the 10,000-case synthetic slides corpus, for
//! instruction counts under callgrind (stable where wall-clock timings on
//! a busy machine are not). The corpus, the runtime, the case list and the
//! executor are built before the step; only the step is counted (the
//! function `measured`). The run shares the case list (`Arc<EvalCase>`), so
//! the cases are never copied inside the step.
//!
//! Two accountings, chosen by the second argument:
//! - by default (lenient), what a step returns is dropped after it: the
//!   run's report and the case list, and the floor's values, are not
//!   charged;
//! - `strict` (the bar): the run is charged for dropping its report and its
//!   cases (the last holders of the shared case list), and the floor for
//!   dropping the values it read. Each side then pays for everything it
//!   made.
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
//! for step in serde_json_parse run_evals run_evals_no_judge; do
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$step.strict \
//!     --toggle-collect='*measured*' "$BIN" $step strict 2>&1 | grep 'Collected'
//! done
//! ```
//!
//! The ratios the quality bar bounds are `run_evals / serde_json_parse`
//! (with the judge, at most 3×) and `run_evals_no_judge / serde_json_parse`
//! (at most 2.5×), in the strict accounting. Measured at 3d158e1 (release, rustc
//! 1.95): floor 433.5 M lenient / 577.5 M strict; `run_evals` 1,319.5 M / 1,553.6 M
//! (3.04× / 2.69×); `run_evals_no_judge` 1,102.6 M / 1,336.8 M (2.54× / 2.31×).

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
    // `cargo bench` passes `--bench`; the step is the first other argument,
    // `strict` the second.
    let mut args = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"));
    let step = args.next().unwrap_or_else(|| "run_evals".to_owned());
    let strict = match args.next().as_deref() {
        None => false,
        Some("strict") => true,
        Some(other) => panic!("unknown accounting {other:?}: strict, or none for lenient"),
    };
    if step == "runtime" {
        let runtime = measured(isomer_slides::runtime);
        drop(black_box(runtime));
        return;
    }
    if step == "runtime_check_one" {
        let (runtime, valid) = measured(|| {
            let runtime = isomer_slides::runtime().expect("the slides runtime builds");
            let document = runtime.read(ONE_ANSWER).expect("the answer is JSON");
            let valid = runtime.check(&document).valid();
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
            let parse = || {
                texts
                    .iter()
                    .map(|text| serde_json::from_str::<Value>(text).ok())
                    .collect::<Vec<_>>()
            };
            if strict {
                measured(|| drop(black_box(parse())));
            } else {
                drop(black_box(measured(parse)));
            }
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
            if strict {
                measured(move || {
                    let report = executor.block_on(run_evals(options));
                    assert_eq!(report.results.len(), CASES);
                    drop(black_box(report));
                    drop(cases);
                });
            } else {
                let report = measured(|| executor.block_on(run_evals(options)));
                assert_eq!(report.results.len(), CASES);
                drop(black_box(report));
                drop(cases);
            }
        }
        other => panic!(
            "unknown step {other:?}: serde_json_parse, run_evals, run_evals_no_judge, runtime \
             or runtime_check_one"
        ),
    }
}
