//! Proc macros for Isomer. This crate only parses attributes and emits
//! tokens; the behaviour lives in the runtime crates that re-export the
//! macros (`isomer-agent-tools` re-exports [`macro@isomer_tool`]), and the
//! expansions reach them only through `<crate>::__private`.
//!
//! # `#[isomer_tool]`
//!
//! Its manual (keys, the handler, what the constructor builds, compile errors, known
//! limitations, a tested example) is the documentation of the re-export,
//! `isomer_agent_tools::isomer_tool`, where a host finds it.
//!
//! # `#[isomer_eval]`
//!
//! Turns a function returning the runtime under test (or an
//! `isomer_evals::harness::Suite`) into the `main` of a `harness = false` test
//! target: one test per case of `<corpus>/corpus.json`, named
//! `<suite>::<case id>`, plus `<suite>::totals`. `isomer_evals` re-exports it,
//! and its `harness` module is the manual (trials, replay, baseline, accept
//! flow, limitations); `isomer_evals::floor` documents every floor.
//!
//! ```ignore
//! #[isomer_evals::isomer_eval(corpus = "../../corpus/slides", valid_after_retry, min_mean_selection_f1 = 0.98)]
//! fn slides() -> isomer_sdk::Runtime {
//!     isomer_slides::runtime().unwrap()
//! }
//! ```
//!
//! ## Keys
//!
//! | key | type | usage | default |
//! |---|---|---|---|
//! | `corpus` | string | the directory holding `corpus.json`, relative to the package root | required |
//! | `name` | string | the suite name, first part of every trial name | the function's name |
//! | `main` | bool | `false` emits no `main`; name the suites in `isomer_evals::main!(a, b)` | `true` |
//! | `snapshots` | string | the baseline snapshot directory, relative to the package root | `"tests/snapshots"` |
//! | `crate` | string path | where isomer-evals is, as an absolute path | `"::isomer_evals"` |
//! | `valid_after_retry`, `expected_hit`, `no_invented_types`, `answerability_not_no` | flag | case floors | off |
//! | `min_selection_f1` (0–1), `max_size_vs_golden` (> 0) | number | case floors | off |
//! | `min_valid_ratio`, `min_valid_after_retry_ratio`, `min_mean_selection_f1` (0–1) | number | suite floors | off |
//! | `max_answerability_no` | integer | suite floor | off |
//!
//! ## At compile time
//!
//! The corpus path resolves against `ISOMER_EVAL_MANIFEST_DIR` when set (for
//! trybuild, whose copy of the package has another `CARGO_MANIFEST_DIR`), else
//! against `CARGO_MANIFEST_DIR`. `corpus.json` is read with the same reader the
//! harness uses at run time (`isomer_corpus::parse_manifest`, a dependency of both)
//! and tracked with `include_str!`, so editing it rebuilds the target. An
//! unknown floor is an error at its key, a bad value at its literal, and a
//! missing file, malformed JSON (line:column), a case fault or a duplicate case
//! id (both places) at `corpus = "..."`; one build shows every problem, and the
//! fallback still emits the function and an empty `main`, so only the real
//! errors show. The expansion is data: the function unchanged, a module
//! `__isomer_eval_<fn>` (never the function's own name, which would shadow a crate
//! of that name in the file) holding a `SuiteSpec` constant (name, corpus text, case ids and
//! byte ranges, floors, build fn), and `fn main() { harness::run(&[SUITE]) }` with a guard
//! test that fails a target built without `harness = false`.
//!
//! Put the attribute on a module-level function. The generated module calls the function
//! as `super::<name>`, which does not reach a function declared inside another function's
//! body; a proc macro attribute sees only its item, not where it stands, so that case is
//! rustc's ``cannot find function `<name>` in module `super` ``, not an error of its own.

#![forbid(unsafe_code)]

mod ctxt;
mod eval;
mod tool;

/// Declares an agent tool from a handler function: the handler is kept, and
/// `<fn>_tool(context...)` builds its `isomer_sdk::Tool`.
#[proc_macro_attribute]
pub fn isomer_tool(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    tool::expand(args.into(), item.into()).into()
}

/// Turns a function returning a runtime into the `main` of a `harness = false` eval gate:
/// one test per case of `corpus.json`, named `<suite>::<case id>`, plus `<suite>::totals`,
/// with the floors given as keys. `isomer_evals` re-exports it; its `harness` module
/// documents every key, the floors, the trials and the baseline.
#[proc_macro_attribute]
pub fn isomer_eval(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    eval::expand::isomer_eval(args.into(), item.into()).into()
}

/// The `SUITE` constant `#[isomer_eval]` wrote for the function named in the input:
/// `suite_spec!(slides)` is `__isomer_eval_slides::SUITE`. Not public API: reached
/// through `isomer_evals::main!` and `isomer_evals::suite!`.
#[doc(hidden)]
#[proc_macro]
pub fn __suite_spec(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    eval::expand::suite_spec(input.into()).into()
}
