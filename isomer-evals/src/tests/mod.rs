//! Tests that exercise crate-private steps (each scoring axis on its own) beside the public
//! path. They were integration tests; they name this crate `isomer_evals`, as its users
//! do, through `extern crate self as isomer_evals` in the crate root (for tests only), and
//! reach the private steps under their module paths (`isomer_evals::score::...`).

#[path = "../../tests/support/mod.rs"]
mod support;

pub(crate) mod axes;
mod check_projections;
mod hostile_answers;
mod scorers;
mod sdk_runtime;
