//! A target that holds suites of both kinds: [`AnySuiteSpec`], what
//! [`main!`](crate::main) passes to [`run`](super::run).

use std::path::Path;

use libtest_mimic::Failed;

use super::agent::AgentSuiteSpec;
use super::kind::SuiteKind;
use super::{CaseSpec, CorpusSpec, SuiteSpec};

/// A suite of either kind, for a target that holds both: what
/// [`main!`](crate::main) passes to [`run`](super::run). Both spec types convert
/// into it with `From`.
#[derive(Debug, Clone, Copy)]
pub enum AnySuiteSpec {
    /// A single-shot suite (`#[isomer_eval(corpus = ...)]`).
    Single(SuiteSpec),
    /// An agent suite (`#[isomer_eval(corpus = ..., agent)]`).
    Agent(AgentSuiteSpec),
}

impl From<SuiteSpec> for AnySuiteSpec {
    /// The single-shot suite as [`AnySuiteSpec::Single`].
    fn from(suite: SuiteSpec) -> Self {
        AnySuiteSpec::Single(suite)
    }
}

impl From<AgentSuiteSpec> for AnySuiteSpec {
    /// The agent suite as [`AnySuiteSpec::Agent`].
    fn from(suite: AgentSuiteSpec) -> Self {
        AnySuiteSpec::Agent(suite)
    }
}

impl SuiteKind for AnySuiteSpec {
    fn name(&self) -> &'static str {
        match self {
            AnySuiteSpec::Single(suite) => suite.name,
            AnySuiteSpec::Agent(suite) => suite.name,
        }
    }
    fn corpus(&self) -> &CorpusSpec {
        match self {
            AnySuiteSpec::Single(suite) => &suite.corpus,
            AnySuiteSpec::Agent(suite) => &suite.corpus,
        }
    }
    fn holding(&self) -> &'static str {
        match self {
            AnySuiteSpec::Single(suite) => suite.holding(),
            AnySuiteSpec::Agent(suite) => suite.holding(),
        }
    }
    fn run_case(&self, dir: &Path, case: &'static CaseSpec) -> Result<(), Failed> {
        match self {
            AnySuiteSpec::Single(suite) => suite.run_case(dir, case),
            AnySuiteSpec::Agent(suite) => suite.run_case(dir, case),
        }
    }
    fn run_totals(&self, dir: &Path) -> Result<(), Failed> {
        match self {
            AnySuiteSpec::Single(suite) => suite.run_totals(dir),
            AnySuiteSpec::Agent(suite) => suite.run_totals(dir),
        }
    }
}
