//! Items the `#[isomer_eval]` expansion names. Not public API: the expansion and this
//! module change together (the macro crate is pinned with `=x.y.z`), so nothing here is
//! covered by semver. Every path the expansion emits goes through here
//! (`::isomer_evals::__private::…`, or `<crate>::__private::…` with `crate = "…"`), so a
//! renamed dependency only needs `crate = "…"`.

pub use crate::floor::{AgentFloor, Floor};
pub use crate::harness::agent::{AgentSuite, AgentSuiteSpec, run as run_agent};
pub use crate::harness::{CaseSpec, CorpusSpec, Suite, SuiteSpec, run};
pub use std::process::ExitCode;
pub use std::{concat, env, include_str};

/// Converts what an `#[isomer_eval]` function returns into a [`Suite`]. The expansion
/// calls it with the span of the function's return type, so a type that does not convert
/// is reported there.
pub fn into_suite<T: Into<Suite>>(value: T) -> Suite {
    value.into()
}

/// Converts what an agent `#[isomer_eval]` function returns into an [`AgentSuite`], with
/// the span of the function's return type.
pub fn into_agent_suite<T: Into<AgentSuite>>(value: T) -> AgentSuite {
    value.into()
}
