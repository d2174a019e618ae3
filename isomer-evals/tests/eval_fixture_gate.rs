//! An `#[isomer_eval]` gate over the hand-written fixture corpus `tests/fixtures/eval/mini`,
//! against a small stub runtime. It declares every floor, so a floor the macro knows and
//! the harness lacks fails to compile here. `tests/harness_cli.rs` runs this binary with
//! `--list`, `--exact`, `--format json` and a regressed recordings directory, and asserts
//! its output line by line.

#[path = "eval_mini/runtime.rs"]
mod runtime;

use runtime::MiniRuntime;

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini",
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
