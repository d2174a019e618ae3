//! The run of a target: its trial list over suites of any kind, `--exact`, refused
//! arguments and clashing trial names, once.

use std::collections::HashMap;
use std::path::PathBuf;

use libtest_mimic::{Arguments, Conclusion, Trial};

use super::any::AnySuiteSpec;
use super::spec::{CorpusSpec, recordings_variable};

/// Reads `ISOMER_EVAL_RECORDINGS_<SUITE>` for each suite, in order.
pub(super) fn recordings_overrides(suites: &[AnySuiteSpec]) -> Vec<Option<PathBuf>> {
    suites
        .iter()
        .map(|suite| std::env::var_os(recordings_variable(suite.name())).map(PathBuf::from))
        .collect()
}

/// Refuses `--test-threads 0` and clashing trial names (each printed to stderr as
/// `error: ...`, one failure, nothing run), else runs the trials under `args`.
///
/// libtest refuses `--test-threads 0` when it parses its options; libtest-mimic 0.8 takes
/// it and starts no worker, then waits forever for the first result, so the gate refuses
/// it here.
pub(crate) fn run_gates(
    suites: &[AnySuiteSpec],
    recordings: &[Option<PathBuf>],
    args: &Arguments,
) -> Conclusion {
    let refused = Conclusion {
        num_filtered_out: 0,
        num_passed: 0,
        num_failed: 1,
        num_ignored: 0,
        num_measured: 0,
    };
    if args.test_threads == Some(0) {
        eprintln!("error: {ZERO_THREADS}");
        return refused;
    }
    let named: Vec<(&'static str, &CorpusSpec)> = suites
        .iter()
        .map(|suite| (suite.name(), suite.corpus()))
        .collect();
    let conflicts = name_conflicts(&named, exact_trial(args));
    if !conflicts.is_empty() {
        for conflict in &conflicts {
            eprintln!("error: {conflict}");
        }
        return refused;
    }
    let trials = gate_trials(suites, recordings, args);
    if args.list {
        return list_trials(args, &trials, &mut std::io::stdout().lock());
    }
    if let Some(note) = no_exact_match(args, &trials) {
        eprintln!("{note}");
    }
    libtest_mimic::run(args, trials)
}

/// The note for `--exact <name>` when no trial of this target has that name (a typo runs
/// nothing and libtest still exits `0`, since `cargo test -- --exact` passes the same
/// filter to every test binary): said on stderr, leaving the exit status to libtest.
fn no_exact_match(args: &Arguments, trials: &[Trial]) -> Option<String> {
    let name = exact_trial(args)?;
    if trials.iter().any(|trial| trial.name() == name) {
        return None;
    }
    let suites: Vec<&str> = trials
        .iter()
        .filter_map(|trial| trial.name().strip_suffix("::totals"))
        .collect();
    Some(format!(
        "note: no trial of this target is named `{name}` (its suites: {}; `-- --list` names every trial)",
        suites.join(", ")
    ))
}

/// `--list`: writes `<name>: test` for each trial `args` does not filter out, as
/// libtest-mimic lists them, to `out`, and concludes with nothing run. A reader that
/// closes the pipe early (`--list | head`) ends the listing quietly; libtest-mimic's own
/// listing panics on the broken pipe. Any other write error is printed to stderr and
/// concludes with one failure. None of the gate's trials is ignored, so `--ignored` lists
/// nothing.
fn list_trials(args: &Arguments, trials: &[Trial], out: &mut dyn std::io::Write) -> Conclusion {
    let listed = trials
        .iter()
        .filter(|trial| !args.ignored && !args.is_filtered_out(trial))
        .try_for_each(|trial| writeln!(out, "{}: test", trial.name()))
        .and_then(|()| out.flush());
    match listed {
        Ok(()) => empty_list(),
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => empty_list(),
        Err(error) => {
            eprintln!("error: cannot write the trial list: {error}");
            Conclusion {
                num_failed: 1,
                ..empty_list()
            }
        }
    }
}

/// A [`Conclusion`] with every count zero, as libtest-mimic concludes a `--list`.
const fn empty_list() -> Conclusion {
    Conclusion {
        num_filtered_out: 0,
        num_passed: 0,
        num_failed: 0,
        num_ignored: 0,
        num_measured: 0,
    }
}

/// Why `--test-threads 0` is refused (printed after `error: `).
const ZERO_THREADS: &str =
    "--test-threads must be at least 1: with 0 no trial would run and the gate would wait forever";

/// The trials of `suites`: per suite, one per case in corpus order, then `totals` (see
/// [`suite_trials`](super::kind::suite_trials)).
///
/// With `--exact <name>` (and no `--list`) only the trial of that name does any work when
/// run: every other trial is a placeholder that reads nothing and that libtest-mimic's own
/// `--exact` filter drops, so it is counted as filtered out (the closing line counts every
/// trial the filter excluded, as libtest does) and never run.
pub(super) fn gate_trials(
    suites: &[AnySuiteSpec],
    recordings: &[Option<PathBuf>],
    args: &Arguments,
) -> Vec<Trial> {
    let exact = exact_trial(args);
    let mut trials = Vec::new();
    for (index, suite) in suites.iter().enumerate() {
        let overridden = recordings.get(index).is_some_and(Option::is_some);
        let dir = recordings
            .get(index)
            .cloned()
            .flatten()
            .unwrap_or_else(|| PathBuf::from(suite.corpus().dir));
        trials.extend(suite.trials(dir, overridden, exact));
    }
    trials
}

/// The one trial `args` runs: the filter of `--exact <name>` without `--list`.
fn exact_trial(args: &Arguments) -> Option<&str> {
    match (&args.filter, args.exact, args.list) {
        (Some(filter), true, false) => Some(filter.as_str()),
        _ => None,
    }
}

/// Every way two trials of the suites `(name, corpus)` would get one name (see
/// [`super::run`]). Suite names and their variables are few and checked
/// with hash lookups; each suite's case ids are sorted (O(n log n) in the number of cases)
/// and compared with their neighbours. Conflicts are listed suite by suite, a suite's case
/// conflicts in id order.
///
/// With `exact` (the one trial a `--exact` process runs, as cargo-nextest starts each
/// case), only the case conflicts that would make that trial ambiguous are looked for: of
/// the cases of its suite, only those whose id is its case id are sorted, so a case of a
/// 1,000-case gate pays one comparison per case instead of sorting every id. Suite names
/// are checked in full either way; `--list` (which nextest runs first) checks every case.
pub(super) fn name_conflicts(suites: &[(&str, &CorpusSpec)], exact: Option<&str>) -> Vec<String> {
    let mut conflicts = Vec::new();
    let mut names: HashMap<&str, &CorpusSpec> = HashMap::with_capacity(suites.len());
    let mut variables: HashMap<String, &str> = HashMap::with_capacity(suites.len());
    for &(name, corpus) in suites {
        if let Some(first) = names.get(name) {
            conflicts.push(format!(
                "two suites in this target are named `{name}` (over {} and {}): their trials would share names; give one of them `name = \"...\"`",
                first.path, corpus.path
            ));
            continue;
        }
        names.insert(name, corpus);
        let variable = recordings_variable(name);
        if let Some(first) = variables.get(&variable) {
            conflicts.push(format!(
                "suites `{first}` and `{name}` in this target would both replay from {variable} (the suite name upper-cased, other characters as `_`): give one of them another `name = \"...\"`"
            ));
            continue;
        }
        variables.insert(variable, name);
        // Under `--exact <suite>::<id>`, the ids that could clash with that trial's name;
        // under `--exact` of another suite's trial, none.
        let only = exact.map(|exact| {
            exact
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix("::"))
        });
        let mut ids: Vec<&str> = corpus
            .cases
            .iter()
            .map(|case| case.id)
            .filter(|id| only.is_none_or(|only| only == Some(*id)))
            .collect();
        ids.sort_unstable();
        for (index, id) in ids.iter().enumerate() {
            let repeated = index > 0 && ids[index - 1] == *id;
            if *id == "totals" && !repeated {
                conflicts.push(format!(
                    "case `totals` of suite `{name}` ({}/corpus.json) has the name of the suite's `{name}::totals` trial; rename the case",
                    corpus.path
                ));
            } else if repeated && ids.get(index + 1) != Some(id) {
                let times = match ids[..index]
                    .iter()
                    .rev()
                    .take_while(|other| *other == id)
                    .count()
                {
                    1 => "twice".to_owned(),
                    earlier => format!("{} times", earlier + 1),
                };
                conflicts.push(format!(
                    "case id `{id}` is used {times} in suite `{name}` ({}/corpus.json)",
                    corpus.path
                ));
            }
        }
    }
    conflicts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::agent::AgentSuite;
    use crate::harness::any::AgentSuiteSpec;
    use crate::harness::spec::{CaseSpec, SuiteSpec};
    use crate::harness::suite::Suite;

    fn never_built() -> Suite {
        unreachable!("building the trial list builds no suite")
    }

    fn never_built_agent() -> AgentSuite {
        unreachable!("building the trial list builds no suite")
    }

    /// A case of the given id (no manifest bytes: listing reads none).
    const fn case(id: &'static str) -> CaseSpec {
        CaseSpec {
            id,
            start: 0,
            end: 0,
        }
    }

    const CASES: &[CaseSpec] = &[case("x"), case("y")];

    const fn corpus(path: &'static str) -> CorpusSpec {
        CorpusSpec {
            path,
            dir: "/nowhere",
            manifest: "",
            cases: CASES,
        }
    }

    const SINGLE: SuiteSpec = SuiteSpec {
        name: "a",
        corpus: corpus("corpus/a"),
        build: never_built,
        floors: &[],
        snapshots: "/nowhere",
    };

    const AGENT: AgentSuiteSpec = AgentSuiteSpec {
        name: "b",
        corpus: corpus("corpus/b"),
        build: never_built_agent,
        floors: &[],
        snapshots: "/nowhere",
    };

    #[test]
    fn exact_keeps_every_name_and_libtest_mimic_filters_all_but_one() {
        let suites = [AnySuiteSpec::from(SINGLE), AnySuiteSpec::from(AGENT)];
        let args = Arguments::from_iter(["gate", "--exact", "b::y"]);
        let trials = gate_trials(&suites, &[], &args);
        let names: Vec<&str> = trials.iter().map(Trial::name).collect();
        assert_eq!(
            names,
            ["a::x", "a::y", "a::totals", "b::x", "b::y", "b::totals"]
        );
        let kept: Vec<&str> = trials
            .iter()
            .filter(|trial| !args.is_filtered_out(trial))
            .map(Trial::name)
            .collect();
        assert_eq!(kept, ["b::y"]);
        assert_eq!(no_exact_match(&args, &trials), None);
        let args = Arguments::from_iter(["gate", "--exact", "b::nope"]);
        let trials = gate_trials(&suites, &[], &args);
        assert_eq!(trials.len(), 6);
        assert!(trials.iter().all(|trial| args.is_filtered_out(trial)));
        assert_eq!(
            no_exact_match(&args, &trials).as_deref(),
            Some(
                "note: no trial of this target is named `b::nope` (its suites: a, b; `-- --list` names every trial)"
            )
        );
        // A plain filter is a substring match that may rightly match nothing here.
        let args = Arguments::from_iter(["gate", "nope"]);
        assert_eq!(
            no_exact_match(&args, &gate_trials(&suites, &[], &args)),
            None
        );
    }

    /// `--exact` looks only for the clashes of the trial it runs: its case id used again,
    /// or a case named `totals` when it runs `totals`; every suite name still counts.
    #[test]
    fn exact_looks_only_for_its_own_trials_clashes() {
        const CLASHING: &[CaseSpec] = &[case("x"), case("totals"), case("y"), case("x")];
        let clashing = CorpusSpec {
            cases: CLASHING,
            ..corpus("corpus/a")
        };
        let other = corpus("corpus/b");
        let named = [("a", &clashing), ("b", &other)];
        assert_eq!(
            name_conflicts(&named, Some("a::x")),
            ["case id `x` is used twice in suite `a` (corpus/a/corpus.json)"]
        );
        assert_eq!(
            name_conflicts(&named, Some("a::totals")),
            [
                "case `totals` of suite `a` (corpus/a/corpus.json) has the name of the suite's `a::totals` trial; rename the case"
            ]
        );
        for exact in ["a::y", "b::x", "ab::x", "a", "nope"] {
            assert_eq!(name_conflicts(&named, Some(exact)), Vec::<String>::new());
        }
        assert_eq!(
            name_conflicts(&named, None),
            [
                "case `totals` of suite `a` (corpus/a/corpus.json) has the name of the suite's `a::totals` trial; rename the case",
                "case id `x` is used twice in suite `a` (corpus/a/corpus.json)",
            ]
        );
        let twice = [("a", &clashing), ("a", &other)];
        assert_eq!(
            name_conflicts(&twice, Some("b::x")),
            [
                "two suites in this target are named `a` (over corpus/a and corpus/b): their trials would share names; give one of them `name = \"...\"`"
            ]
        );
    }

    #[test]
    fn names_clash_across_kinds_of_suite() {
        let agent = AgentSuiteSpec { name: "a", ..AGENT };
        let named = [(SINGLE.name, &SINGLE.corpus), (agent.name, &agent.corpus)];
        assert_eq!(
            name_conflicts(&named, None),
            [
                "two suites in this target are named `a` (over corpus/a and corpus/b): their trials would share names; give one of them `name = \"...\"`"
            ]
        );
        let args = Arguments::from_iter(["gate", "--list"]);
        let conclusion = run_gates(
            &[AnySuiteSpec::from(SINGLE), AnySuiteSpec::from(agent)],
            &[],
            &args,
        );
        assert_eq!(conclusion.num_failed, 1);
        assert_eq!(conclusion.num_passed, 0);
    }

    /// `moved_baseline` and `moved-baseline` (or `Slides` and `slides`) are two trial prefixes, but one
    /// `ISOMER_EVAL_RECORDINGS_` variable would redirect both suites at once.
    #[test]
    fn names_that_share_a_recordings_variable_clash() {
        let dashed = AgentSuiteSpec {
            name: "a-b",
            ..AGENT
        };
        let snake = SuiteSpec {
            name: "a_b",
            ..SINGLE
        };
        let upper = SuiteSpec {
            name: "A_b",
            ..SINGLE
        };
        let named = [
            (snake.name, &snake.corpus),
            (dashed.name, &dashed.corpus),
            (upper.name, &upper.corpus),
        ];
        assert_eq!(
            name_conflicts(&named, None),
            [
                "suites `a_b` and `a-b` in this target would both replay from ISOMER_EVAL_RECORDINGS_A_B (the suite name upper-cased, other characters as `_`): give one of them another `name = \"...\"`",
                "suites `a_b` and `A_b` in this target would both replay from ISOMER_EVAL_RECORDINGS_A_B (the suite name upper-cased, other characters as `_`): give one of them another `name = \"...\"`",
            ]
        );
        let args = Arguments::from_iter(["gate", "--list"]);
        let conclusion = run_gates(
            &[AnySuiteSpec::from(snake), AnySuiteSpec::from(dashed)],
            &[],
            &args,
        );
        assert_eq!((conclusion.num_passed, conclusion.num_failed), (0, 1));
    }

    /// libtest-mimic would start no worker and wait forever; the gate fails at once. (With
    /// `--list` a regression fails here instead of hanging: listing runs nothing.)
    #[test]
    fn zero_test_threads_are_refused() {
        for extra in [&["--list"][..], &["--list", "--format", "terse"]] {
            let args =
                Arguments::from_iter(["gate", "--test-threads", "0"].iter().chain(extra).copied());
            let conclusion = run_gates(&[AnySuiteSpec::from(SINGLE)], &[], &args);
            assert_eq!(
                (
                    conclusion.num_passed,
                    conclusion.num_failed,
                    conclusion.num_filtered_out
                ),
                (0, 1, 0),
                "{extra:?}"
            );
        }
    }

    /// A writer whose reader went away after `room` bytes, as `| head` leaves stdout.
    struct ClosedAfter {
        written: Vec<u8>,
        room: usize,
    }

    impl std::io::Write for ClosedAfter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.written.len() + buf.len() > self.room {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            self.written.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_list_ends_quietly_on_a_closed_pipe() {
        let suites = [AnySuiteSpec::from(SINGLE), AnySuiteSpec::from(AGENT)];
        let args = Arguments::from_iter(["gate", "--list"]);
        let trials = gate_trials(&suites, &[], &args);
        // What the list writes to a reader that goes away after `room` bytes; the list
        // itself ends quietly every time.
        let listed = |args: &Arguments, room: usize| {
            let mut out = ClosedAfter {
                written: Vec::new(),
                room,
            };
            assert_eq!(list_trials(args, &trials, &mut out), empty_list());
            String::from_utf8(out.written).unwrap()
        };
        assert_eq!(
            listed(&args, usize::MAX),
            "a::x: test\na::y: test\na::totals: test\nb::x: test\nb::y: test\nb::totals: test\n"
        );
        assert_eq!(listed(&args, 22), "a::x: test\na::y: test\n");
        let filtered = Arguments::from_iter(["gate", "--list", "totals"]);
        assert_eq!(
            listed(&filtered, usize::MAX),
            "a::totals: test\nb::totals: test\n"
        );
    }
}
