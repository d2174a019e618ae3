//! The one trait every kind of suite implements ([`SuiteKind`]: build the suite, check the
//! recordings directory, run one case, run the totals), and what both kinds share to do
//! so: the suite's trials, reading a case or every case of the compiled-in corpus,
//! refusing a recordings path that is not a directory, and the errors section of a case's
//! failure message.
//!
//! The single-shot kind is implemented in `outcome.rs`, the agent kind in `agent.rs`;
//! `gate.rs` builds the trials of any kind, and `any.rs` holds a target that mixes them.

use std::fmt::{Display, Write as _};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use isomer_corpus::{FloorSpec, parse_manifest};
use libtest_mimic::{Failed, Trial};

use super::failure::ci_native;
use super::spec::{CaseSpec, CorpusSpec, Spec, recordings_variable};
use crate::case::{EvalCase, ExpectedTools};

/// A kind of suite, implemented by what its function returns ([`Suite`](super::Suite) or
/// [`AgentSuite`](super::agent::AgentSuite)): what its recordings directory holds, its
/// floor table, and its two trials. A [`Spec`] of the kind supplies the rest (name,
/// corpus, build).
pub(super) trait SuiteKind: Send + Sync + Sized + 'static {
    /// What the recordings directory of this kind holds, for the message of
    /// [`check_dir`] (`answers/, judgments.json and prompt.txt`).
    const HOLDING: &'static str;
    /// The floor table of this kind ([`isomer_corpus::SINGLE_SHOT_FLOORS`] or
    /// [`isomer_corpus::AGENT_FLOORS`]): the floors its suites declare, and how each compares.
    const FLOORS: &'static [FloorSpec];
    /// The `<suite>::<case id>` trial of `case`, read from the compiled-in manifest by
    /// [`case_of`].
    fn run_case(trial: SuiteTrial<Self>, case: EvalCase) -> Result<(), Failed>;
    /// The `<suite>::totals` trial of every case of the corpus ([`cases_of`]), in file order.
    fn run_totals(trial: SuiteTrial<Self>, cases: Vec<EvalCase>) -> Result<(), Failed>;
}

/// What each trial of a suite runs with, once its recordings directory is known to be one
/// and the suite is built.
pub(super) struct SuiteTrial<K: 'static> {
    /// The suite as the expansion describes it.
    pub(super) suite: &'static Spec<K>,
    /// What the suite's function built, shared by the suite's trials.
    pub(super) built: &'static K,
    /// The recordings directory: the corpus directory, or the one the suite's
    /// `ISOMER_EVAL_RECORDINGS_<SUITE>` names.
    pub(super) dir: &'static Path,
}

/// The trials of one suite: one per case in corpus order, then `totals`.
///
/// With `exact` (`--exact <name>` without `--list`) only the trial of that name is built;
/// every other trial is a [`placeholder`]. The suite's function is called once, by the
/// first trial that runs, and what it built is shared by the suite's other trials and kept
/// until the process exits, as a `static` would be (dropping a runtime at the end of a
/// one-case process would cost more than the case).
pub(super) fn suite_trials<K: SuiteKind>(
    suite: Spec<K>,
    dir: PathBuf,
    overridden: bool,
    exact: Option<&str>,
) -> Vec<Trial> {
    let wanted = |name: &str| exact.is_none_or(|exact| exact == name);
    let suite: &'static Spec<K> = Box::leak(Box::new(suite));
    let built: &'static OnceLock<K> = Box::leak(Box::new(OnceLock::new()));
    let dir: &'static Path = Box::leak(dir.into_boxed_path());
    // Every trial first refuses a recordings path that is not a directory, then builds the
    // suite (the first trial that runs calls its function).
    let open = move || {
        check_dir(suite.name, &suite.corpus, dir, overridden, K::HOLDING)?;
        let built = built.get_or_init(suite.build);
        Ok::<_, Failed>(SuiteTrial { suite, built, dir })
    };
    let mut trials = Vec::with_capacity(suite.corpus.cases.len() + 1);
    for case in suite.corpus.cases {
        let name = trial_name(suite.name, case.id);
        if !wanted(&name) {
            trials.push(placeholder(name));
            continue;
        }
        trials.push(Trial::test(name, move || {
            open()
                .and_then(|trial| K::run_case(trial, case_of(&suite.corpus, case)?))
                .map_err(ci_native)
        }));
    }
    let name = trial_name(suite.name, "totals");
    if wanted(&name) {
        trials.push(Trial::test(name, move || {
            open()
                .and_then(|trial| K::run_totals(trial, cases_of(&suite.corpus)?))
                .map_err(ci_native)
        }));
    } else {
        trials.push(placeholder(name));
    }
    trials
}

/// The name of the trial `<suite>::<last>`, built with one allocation of its exact size:
/// every process builds one per case (a `--exact` one too, for libtest-mimic to count as
/// filtered out), so this is most of what listing a large gate costs.
fn trial_name(suite: &str, last: &str) -> String {
    let mut name = String::with_capacity(suite.len() + 2 + last.len());
    name.push_str(suite);
    name.push_str("::");
    name.push_str(last);
    name
}

/// A trial excluded by `--exact`: its name, so libtest-mimic counts it as filtered out,
/// and a body that is never run (libtest-mimic drops it before running anything); were it
/// run, it would fail rather than pass unchecked.
fn placeholder(name: String) -> Trial {
    Trial::test(name, || {
        Err("this trial was excluded by --exact and was not built".into())
    })
}

/// How many of a case's first-attempt errors a failure message shows.
const ERRORS_SHOWN: usize = 3;

/// Fails a trial whose recordings directory `dir` is not a directory, instead of
/// replaying every recording as missing, saying where the path came from: when
/// `overridden`, the suite's `ISOMER_EVAL_RECORDINGS_<SUITE>` (a typo there is the likely
/// cause; `holding` names what the directory should hold), else the corpus directory
/// compiled into the gate (moved or deleted since the build).
pub(super) fn check_dir(
    suite: &'static str,
    corpus: &CorpusSpec,
    dir: &Path,
    overridden: bool,
    holding: &str,
) -> Result<(), Failed> {
    if dir.is_dir() {
        return Ok(());
    }
    let message = if overridden {
        format!(
            "{} names {}, which is not a directory: point it at a directory holding {holding}, or unset it to replay {}",
            recordings_variable(suite),
            dir.display(),
            corpus.path
        )
    } else {
        format!(
            "the corpus directory {} is not a directory any more: the gate was built when it held corpus.json; restore it, or rebuild after moving it",
            dir.display()
        )
    };
    Err(message.into())
}

/// The case `spec` of the compiled-in corpus: only its own bytes of the manifest are
/// parsed (the macro checked the whole text at compile time).
fn case_of(corpus: &CorpusSpec, spec: &CaseSpec) -> Result<EvalCase, Failed> {
    let case_id = spec.id;
    corpus
        .manifest
        .get(spec.start..spec.end)
        .and_then(|text| serde_json::from_str(text).ok())
        .filter(|case: &EvalCase| case.id == case_id)
        .ok_or_else(|| {
            Failed::from(format!(
                "case `{case_id}` is not where the macro found it in {}/corpus.json",
                corpus.path
            ))
        })
}

/// Every case of the compiled-in `corpus.json`, in file order.
fn cases_of(corpus: &CorpusSpec) -> Result<Vec<EvalCase>, Failed> {
    let manifest = parse_manifest(corpus.manifest).map_err(|faults| {
        let faults: Vec<String> = faults.iter().map(ToString::to_string).collect();
        Failed::from(format!(
            "{}/corpus.json no longer reads as it did at compile time:\n  {}",
            corpus.path,
            faults.join("\n  ")
        ))
    })?;
    Ok(manifest
        .cases
        .into_iter()
        .map(|case| EvalCase {
            id: case.id,
            prompt: case.prompt,
            golden: case.golden,
            expected: case.expected,
            expected_tools: ExpectedTools::from_manifest(case.expected_tools),
        })
        .collect())
}

/// Appends `<who> is below its floors:` and each of `misses` on its own indented line;
/// nothing when there is no miss. `who` is `case `<id>`` or `suite `<name>``.
pub(super) fn write_misses(out: &mut String, who: &str, misses: &[String]) {
    if misses.is_empty() {
        return;
    }
    let _ = writeln!(out, "{who} is below its floors:");
    for miss in misses {
        let _ = writeln!(out, "  {miss}");
    }
}

/// Appends `<heading>:` and `  <name>: <error>` for each of `errored` (a run that did not
/// complete, named as its kind names it, and its error), in order; nothing when every run
/// completed. The first section of a `totals` trial's failure message, single-shot and
/// agent alike.
pub(super) fn write_errored<E: Display>(
    out: &mut String,
    heading: &str,
    errored: impl Iterator<Item = (String, E)>,
) {
    let mut errored = errored.peekable();
    if errored.peek().is_none() {
        return;
    }
    let _ = writeln!(out, "{heading}:");
    for (name, error) in errored {
        let _ = writeln!(out, "  {name}: {error}");
    }
}

/// Appends `<heading> (<count>):` and the first [`ERRORS_SHOWN`] of `errors`, each on its
/// own indented line, then `(+N more)` when there are more; the errors section of a case
/// trial's failure message, single-shot and agent alike.
pub(super) fn write_errors(out: &mut String, heading: &str, errors: &[String]) {
    let _ = writeln!(out, "{heading} ({}):", errors.len());
    for error in errors.iter().take(ERRORS_SHOWN) {
        let _ = writeln!(out, "  {error}");
    }
    if errors.len() > ERRORS_SHOWN {
        let _ = writeln!(out, "  (+{} more)", errors.len() - ERRORS_SHOWN);
    }
}
