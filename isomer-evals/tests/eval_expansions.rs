//! Expansions of `#[isomer_eval]` that must build and whose gate must pass, over the mini
//! fixture corpus: `crate = "..."` naming a re-export of isomer-evals, `name = "..."`, and
//! two suites in one target through `isomer_evals::main!` (each with `main = false`).
//!
//! `crate = "..."` names where the expansion finds isomer-evals, for a renamed or
//! re-exported dependency. Write an absolute path (`::name` or `crate::...`): the
//! expansion uses it from inside a module it generates.

#[path = "eval_mini/runtime.rs"]
mod runtime;

use runtime::MiniRuntime;

mod reexported {
    pub use isomer_evals::*;
}

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini",
    crate = "crate::reexported",
    main = false,
    valid_after_retry
)]
fn mini() -> MiniRuntime {
    MiniRuntime
}

#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", name = "again", main = false)]
fn mini_again() -> isomer_evals::harness::Suite {
    isomer_evals::harness::Suite::new(MiniRuntime)
}

isomer_evals::main!(mini, mini_again);
