// Two suites in one target: `main = false` on each attribute, and `isomer_evals::main!`
// writes the `main` that runs both, in the order named.
#[path = "../../eval_mini/runtime.rs"]
mod runtime;

use runtime::MiniRuntime;

#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", main = false, valid_after_retry)]
fn mini() -> MiniRuntime {
    MiniRuntime
}

#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", name = "again", main = false)]
fn mini_again() -> isomer_evals::harness::Suite {
    isomer_evals::harness::Suite::new(MiniRuntime)
}

isomer_evals::main!(mini, mini_again);
