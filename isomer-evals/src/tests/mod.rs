//! Tests that exercise crate-private steps (each scoring axis on its own) beside the public
//! path. They were integration tests; they name this crate `isomer_evals`, as its users
//! do, through `extern crate self as isomer_evals` in the crate root (for tests only), and
//! reach the private steps under their module paths (`isomer_evals::score::...`).

use std::path::PathBuf;

use libtest_mimic::{Arguments, Conclusion};

use crate::harness::any::AnySuiteSpec;
use crate::harness::gate::run_gates;

#[path = "../../tests/support/mod.rs"]
mod support;

#[path = "../../tests/agent_support/mod.rs"]
pub(crate) mod agent_support;

#[path = "../../tests/eval_mini/runtime.rs"]
mod runtime;

mod agent_run;
pub(crate) mod axes;
mod check_projections;
mod hostile_answers;
mod pack_scorers;
mod scorers;
mod sdk_runtime;
mod suite_kinds;

/// Runs `suites` (of either kind) under `args`, with `recordings[i]` (when given) replacing
/// suite `i`'s recordings directory, as a target's `main` runs them under its command
/// line: a gate run in process.
fn run_with<S: Copy + Into<AnySuiteSpec>>(
    suites: &[S],
    recordings: &[Option<PathBuf>],
    args: &Arguments,
) -> Conclusion {
    let suites: Vec<AnySuiteSpec> = suites.iter().map(|suite| (*suite).into()).collect();
    run_gates(&suites, recordings, args)
}
