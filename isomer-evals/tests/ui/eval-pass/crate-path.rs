// `crate = "..."` names where the expansion finds isomer-evals, for a renamed or
// re-exported dependency. Write an absolute path (`::name` or `crate::...`): the
// expansion uses it from inside a module it generates.
#[path = "../../eval_mini/runtime.rs"]
mod runtime;

mod reexported {
    pub use isomer_evals::*;
}

#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", crate = "crate::reexported")]
fn mini() -> runtime::MiniRuntime {
    runtime::MiniRuntime
}
