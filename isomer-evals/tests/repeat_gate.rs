//! An `#[isomer_eval]` gate whose suite runs each case three times, over the hand-written
//! fixture `tests/fixtures/eval/mini-repeat` (its recordings: `answers/<id>.<attempt>.txt`
//! for repeat 0, `answers/<id>.r<k>.<attempt>.txt` and verdicts under `<id>.r<k>` for
//! repeat `k`). A plain `cargo test` replays them and compares the baseline
//! (`tests/snapshots/mini_repeat__*.snap`, whose text report shows each axis's mean and
//! standard error); its suite floors read the means over the repeats. The suite's live
//! model and judge are fakes answering what the fixture holds, so `tests/repeat_record.rs`
//! can record the corpus afresh through the harness and compare what it wrote.
//!
//! When `MINI_REPEAT_CALLS` names a file, each live call appends a line to it
//! (`generate <id> <repeat> <attempt>`, `judge <id> <repeat>`), for that test to count.

#[path = "eval_mini/runtime.rs"]
mod runtime;

use std::io::Write as _;

use isomer_evals::agent::AgentUsage;
use isomer_evals::harness::Suite;
use isomer_evals::{
    AnswerabilityVerdict, BoxError, Generate, GenerateRequest, Judge, JudgeRequest,
};
use runtime::MiniRuntime;

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini-repeat",
    min_valid_ratio = 0.8,
    min_mean_selection_f1 = 0.7
)]
fn mini_repeat() -> Suite {
    Suite::new(MiniRuntime)
        .repeat(3)
        .retry_on_invalid(false)
        .live(fake_model())
        .judge(fake_judge())
}

/// Appends `line` to the file `MINI_REPEAT_CALLS` names, if any.
fn note(line: String) {
    if let Some(path) = std::env::var_os("MINI_REPEAT_CALLS") {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("the calls file opens");
        writeln!(file, "{line}").expect("the calls file is written");
    }
}

/// Answers each run as the fixture records it, and reports `100 × (repeat + 1)` input and
/// `10` output tokens.
fn fake_model() -> Generate<'static> {
    Generate::new(|request: GenerateRequest| {
        let id = request.eval_case.id.clone();
        note(format!(
            "generate {id} {} {}",
            request.repeat, request.attempt
        ));
        request.usage.add(AgentUsage {
            input_tokens: 100 * (u64::from(request.repeat) + 1),
            output_tokens: 10,
        });
        let answer = match (id.as_str(), request.repeat) {
            ("a", 0) | ("b", 1) => r#"{"type":"view","body":[{"type":"stat"}]}"#,
            ("a", 1) => r#"{"type":"view","body":[{"type":"callout"}]}"#,
            ("a", _) => "not JSON",
            _ => r#"{"type":"view","body":[{"type":"stat"},{"type":"callout"}]}"#,
        };
        async move { Ok::<_, BoxError>(answer.to_owned()) }
    })
}

/// `no` for repeat 1 of `a`, `partial` for repeat 1 of `b`, `yes` otherwise; 5 input and 1
/// output token.
fn fake_judge() -> Judge<'static> {
    Judge::new(|request: JudgeRequest| {
        let id = request.eval_case.id.clone();
        note(format!("judge {id} {}", request.repeat));
        request.usage.add(AgentUsage {
            input_tokens: 5,
            output_tokens: 1,
        });
        let verdict = match (id.as_str(), request.repeat) {
            ("a", 1) => AnswerabilityVerdict::No,
            ("b", 1) => AnswerabilityVerdict::Partial,
            _ => AnswerabilityVerdict::Yes,
        };
        async move { Ok::<_, BoxError>(verdict) }
    })
}
