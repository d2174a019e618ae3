//! An `#[isomer_eval]` gate over the hand-written fixture corpus `tests/fixtures/eval/mini`,
//! against a small stub runtime. It declares every floor, so a floor the macro knows and
//! the harness lacks fails to compile here. Beside it, an agent suite over
//! `tests/fixtures/eval/mini-agent` shares the target through `isomer_evals::main!`, so a
//! target holding both kinds of suite is built and run here. `tests/harness_cli.rs` runs this binary with
//! `--list`, `--exact`, `--format json` and a regressed recordings directory, and asserts
//! its output line by line.

#[path = "eval_mini/runtime.rs"]
mod runtime;

use runtime::MiniRuntime;

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini",
    main = false,
    valid_after_retry,
    min_selection_f1 = 0.6,
    expected_hit,
    no_invented_types,
    max_size_vs_golden = 1.5,
    answerability_not_no,
    min_valid_ratio = 0.6,
    min_valid_after_retry_ratio = 1.0,
    min_mean_selection_f1 = 0.8,
    max_answerability_no = 0
)]
fn mini() -> MiniRuntime {
    MiniRuntime
}

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini-agent",
    agent,
    main = false,
    finished,
    valid,
    expected_hit,
    max_turns = 1,
    min_finished_ratio = 1.0
)]
fn mini_agent() -> isomer_evals::harness::agent::AgentSuite {
    isomer_evals::harness::agent::AgentSuite::new(std::sync::Arc::new(MiniRuntime), Vec::new())
}

isomer_evals::main!(mini, mini_agent);
