//! A gate written the way the README's "Write an eval gate" tells a new user to: a
//! single-shot suite and an agent suite over the hand-written fixture corpora
//! (`tests/fixtures/eval/mini`, `tests/fixtures/eval/mini-agent`) in one target through
//! `isomer_evals::main!`, plus `moved_baseline`, a second suite over the mini corpus whose
//! baseline `tests/main_macro_gate_cli.rs` edits to check how a moved baseline is reported
//! and accepted. `tests/main_macro_gate_cli.rs` runs this binary and asserts its output.

#[path = "eval_mini/runtime.rs"]
mod runtime;

use isomer_evals::harness::agent::AgentSuite;
use runtime::MiniRuntime;

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini",
    main = false,
    valid_after_retry,
    expected_hit,
    min_valid_ratio = 0.6,
    max_answerability_no = 0
)]
fn combined_mini() -> MiniRuntime {
    MiniRuntime
}

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini-agent",
    agent,
    main = false,
    finished,
    valid,
    min_finished_ratio = 1.0
)]
fn combined_agent() -> AgentSuite {
    AgentSuite::new(std::sync::Arc::new(MiniRuntime), Vec::new())
}

#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", main = false)]
fn moved_baseline() -> MiniRuntime {
    MiniRuntime
}

isomer_evals::main!(combined_mini, combined_agent, moved_baseline);
