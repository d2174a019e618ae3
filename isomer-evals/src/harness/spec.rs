//! What `#[isomer_eval]` compiles into a gate, as data built in constants: the suite
//! ([`Spec`], [`SuiteSpec`]), its corpus ([`CorpusSpec`]) and each case's place in the
//! manifest text ([`CaseSpec`]); and the variable named after a suite
//! ([`recordings_variable`]). Every other part of the harness reads these; they read
//! nothing of the harness but the suite types they name.

use crate::floor::Floor;

use super::suite::Suite;

/// A suite as the expansion describes it: data only, built as a constant. `B` is what the
/// suite's function returns, converted: a [`Suite`] ([`SuiteSpec`]) or an
/// [`AgentSuite`](super::agent::AgentSuite) ([`AgentSuiteSpec`](super::any::AgentSuiteSpec)).
/// Only [`SuiteSpec`] is public API (re-exported from
/// [`crate::harness`]); the rest is plumbing the expansion reaches through
/// `crate::__private`.
#[derive(Debug)]
pub struct Spec<B: 'static> {
    /// The suite name: the first part of each trial name (`<name>::<case id>`).
    pub name: &'static str,
    /// The corpus, compiled in (its recordings are read at run time).
    pub corpus: CorpusSpec,
    /// The `#[isomer_eval]` function, converted; called once per process, by the first
    /// trial of the suite that runs.
    pub build: fn() -> B,
    /// The declared floors, case and suite ones, in attribute order: names of the floor
    /// table of the suite's kind ([`isomer_corpus::SINGLE_SHOT_FLOORS`] or
    /// [`isomer_corpus::AGENT_FLOORS`]).
    pub floors: &'static [Floor],
    /// Absolute directory of the baseline snapshots.
    pub snapshots: &'static str,
}

/// A single-shot suite as the expansion describes it (`#[isomer_eval(corpus = ...)]`).
pub type SuiteSpec = Spec<Suite>;

impl<B> Clone for Spec<B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B> Copy for Spec<B> {}

/// A corpus as compiled into a gate.
#[derive(Debug, Clone, Copy)]
pub struct CorpusSpec {
    /// The path as written in the attribute, for messages.
    pub path: &'static str,
    /// The absolute corpus directory (`CARGO_MANIFEST_DIR` joined with `path`).
    pub dir: &'static str,
    /// The text of `corpus.json` (from `include_str!`, which also makes cargo rebuild the
    /// target when the file changes).
    pub manifest: &'static str,
    /// The cases in file order, as the macro read them: trial names come from here, so
    /// `--list` parses nothing, and a case trial parses only its own case's bytes.
    pub cases: &'static [CaseSpec],
}

impl CorpusSpec {
    /// The version of this corpus a run file names: the digest of `corpus.json` as
    /// compiled in, and its case ids in file order.
    pub(crate) fn version(&self) -> crate::run_file::CorpusVersion {
        crate::run_file::CorpusVersion::of(
            self.manifest,
            self.cases.iter().map(|case| case.id.to_owned()).collect(),
        )
    }
}

/// One case of a compiled-in corpus: its id and where its object sits in the manifest text.
#[derive(Debug, Clone, Copy)]
pub struct CaseSpec {
    /// The case id (the second part of its trial name).
    pub id: &'static str,
    /// Byte offset of the case object's `{` in [`CorpusSpec::manifest`].
    pub start: usize,
    /// Byte offset just past the case object's `}`.
    pub end: usize,
}

/// The name of the variable that overrides where `suite` replays its recordings from:
/// `ISOMER_EVAL_RECORDINGS_` and the suite name upper-cased, with every character other
/// than an ASCII letter or digit written `_` (`slides` → `ISOMER_EVAL_RECORDINGS_SLIDES`).
pub(crate) fn recordings_variable(suite: &str) -> String {
    let name: String = suite
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("ISOMER_EVAL_RECORDINGS_{name}")
}
