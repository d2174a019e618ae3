//! A target that holds suites of both kinds: [`AnySuiteSpec`], what
//! [`main!`](crate::main) passes to [`run`](super::run), and the agent suite's spec
//! ([`AgentSuiteSpec`]) beside the single-shot one.

use std::path::PathBuf;

use libtest_mimic::Trial;

use super::agent::AgentSuite;
use super::kind::suite_trials;
use super::spec::{CorpusSpec, Spec, SuiteSpec};

/// An agent suite as the expansion describes it (`#[isomer_eval(corpus = ..., agent)]`).
pub type AgentSuiteSpec = Spec<AgentSuite>;

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

impl AnySuiteSpec {
    /// The suite name, the first part of each trial name.
    pub(super) fn name(&self) -> &'static str {
        match self {
            AnySuiteSpec::Single(suite) => suite.name,
            AnySuiteSpec::Agent(suite) => suite.name,
        }
    }

    /// The compiled-in corpus.
    pub(super) fn corpus(&self) -> &CorpusSpec {
        match self {
            AnySuiteSpec::Single(suite) => &suite.corpus,
            AnySuiteSpec::Agent(suite) => &suite.corpus,
        }
    }

    /// The suite's trials, by kind; see [`suite_trials`].
    pub(super) fn trials(&self, dir: PathBuf, overridden: bool, exact: Option<&str>) -> Vec<Trial> {
        match *self {
            AnySuiteSpec::Single(suite) => suite_trials(suite, dir, overridden, exact),
            AnySuiteSpec::Agent(suite) => suite_trials(suite, dir, overridden, exact),
        }
    }
}
