//! What a single-shot `totals` trial leaves of its run: the run file
//! ([`crate::run_file::RunFile`], written to `target/isomer/<suite>/run-<started>.json`), the
//! pass rate of each case over its repeats, and the floor check of those rates
//! (`min_pass_rate`).

use std::path::{Path, PathBuf};

use super::configuration::Configuration;
use super::record::{RecordMode, Trace};
use crate::floor::{Floor, misses};
use crate::merge::merge_runs;
use crate::report::Percentiles;
use crate::report::{CaseScores, EvalCaseResult, EvalReport};
use crate::report_table::ReportTable;
use crate::run_file::{
    Axes, CaseRun, CorpusVersion, DeclaredFloor, NamedRunFile, PassRate, RUN_FILE_FORMAT, RunFile,
    RunScores, format_usd, not_measured, run_micro_usd,
};
use crate::scorer::{self, Scorer};
use isomer_corpus::{FloorLevel, SINGLE_SHOT_FLOORS};

/// The variable naming the directory run files are written under (`<dir>/<suite>/`);
/// unset or empty, it is the cargo target directory's `isomer/`.
pub(super) const RUNS_VARIABLE: &str = "ISOMER_EVAL_RUNS";

/// The variable that makes a run one shard of a partitioned run: set to the shard's name
/// (`2`, `2of3`, a CI runner's index), each case trial adds its runs to its shard's run
/// file ([`add_to_shard`]) and the `totals` trial runs no case (the merge of every shard's
/// file checks the suite floors). Unset or empty, a run is whole.
pub(super) const SHARD_VARIABLE: &str = "ISOMER_EVAL_SHARD";

/// The variable cargo-nextest sets in every test process it starts: one id per
/// `cargo nextest run` invocation, shared by its processes (the trials of one shard).
pub(super) const NEXTEST_RUN_ID: &str = "NEXTEST_RUN_ID";

/// The shard this process runs, when [`SHARD_VARIABLE`] names one: the file-name part of
/// its shard file, `<name>-<run>`, where `<run>` is the nextest run id ([`NEXTEST_RUN_ID`],
/// shared by the processes of one `cargo nextest run`) or, without nextest (every trial in
/// this one process), `p<process id>-<when this process first asked>`. Every character
/// other than an ASCII letter, a digit, `-` and `_` is written `_`.
pub(super) fn shard() -> Option<String> {
    static RUN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let name = std::env::var_os(SHARD_VARIABLE).filter(|name| !name.is_empty())?;
    let run = RUN.get_or_init(|| {
        std::env::var_os(NEXTEST_RUN_ID)
            .filter(|id| !id.is_empty())
            .map(|id| id.to_string_lossy().into_owned())
            .unwrap_or_else(|| {
                format!(
                    "p{}-{}",
                    std::process::id(),
                    super::record::UtcNow::now().stamp()
                )
            })
    });
    Some(
        format!("{}-{run}", name.to_string_lossy())
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect(),
    )
}

/// The case floors `result` misses, `min_pass_rate` aside (it reads every run of the case),
/// then the case floors of the pack `scorers`.
pub(super) fn run_misses(
    floors: &[Floor],
    scorers: &[Scorer],
    result: &EvalCaseResult,
    has_golden: bool,
) -> Vec<String> {
    let mut found = misses(
        floors,
        SINGLE_SHOT_FLOORS,
        FloorLevel::Case,
        &CaseScores { result, has_golden },
    );
    found.extend(scorer::case_misses(scorers, result));
    found
}

/// The pass rate of each case of `report` in order of first appearance: how many of its
/// runs meet every case floor of `floors`. `has_golden` says which case ids have a golden.
pub(super) fn pass_rates(
    floors: &[Floor],
    scorers: &[Scorer],
    report: &EvalReport,
    has_golden: &dyn Fn(&str) -> bool,
) -> Vec<PassRate> {
    PassRate::tally(report.results.iter().map(|result| {
        let passed = run_misses(floors, scorers, result, has_golden(&result.case_id)).is_empty();
        (result.case_id.as_str(), passed)
    }))
}

/// `  <case>: 4 of 5`, one line per case.
pub(super) fn pass_rate_lines(rates: &[PassRate]) -> String {
    rates
        .iter()
        .map(|rate| format!("  {}: {} of {}\n", rate.case_id, rate.passed, rate.runs))
        .collect()
}

/// What a run file is built from, beside the report.
pub(super) struct RunContext<'a> {
    /// The suite name.
    pub(super) suite: &'a str,
    /// The record mode, `None` in a replay.
    pub(super) mode: Option<RecordMode>,
    /// The configuration the run went through (its label, what its callbacks report of
    /// themselves, its prices).
    pub(super) configuration: &'a Configuration,
    /// When the `totals` trial started, `YYYY-MM-DDTHH:MM:SSZ` ([`super::record::UtcNow`]).
    pub(super) started_at: String,
    /// Runs per case.
    pub(super) repeat: u32,
    /// The declared floors.
    pub(super) floors: &'a [Floor],
    /// The suite's pack scorers, with their floors.
    pub(super) scorers: &'a [Scorer],
    /// Which case ids have a golden.
    pub(super) has_golden: &'a dyn Fn(&str) -> bool,
    /// The suite floors the run missed.
    pub(super) suite_misses: Vec<String>,
    /// The corpus the run read.
    pub(super) corpus: CorpusVersion,
}

/// The run file of `report`, whose calls `trace` noted.
pub(super) fn run_file(context: RunContext<'_>, report: &EvalReport, trace: &Trace) -> RunFile {
    let RunContext {
        suite,
        mode,
        configuration,
        started_at,
        repeat,
        floors,
        scorers,
        has_golden,
        suite_misses,
        corpus,
    } = context;
    let results = &report.results;
    let axes = Axes::of(results, repeat);
    let mut total_micro_usd: Option<f64> = None;
    let runs = results
        .iter()
        .map(|result| {
            let floor_misses = run_misses(floors, scorers, result, has_golden(&result.case_id));
            let (attempts, judge) = trace.calls_of(&isomer_corpus::recording_name(
                &result.case_id,
                result.repeat,
            ));
            let micro_usd = run_micro_usd(
                configuration.price,
                configuration.judge_price,
                &attempts,
                judge.as_ref(),
            );
            total_micro_usd = match (total_micro_usd, micro_usd) {
                (Some(total), Some(micro)) => Some(total + micro),
                (total, micro) => total.or(micro),
            };
            CaseRun {
                case_id: result.case_id.clone(),
                repeat: result.repeat,
                passed: floor_misses.is_empty(),
                floor_misses,
                scores: RunScores {
                    parsed: result.validity.parsed,
                    valid: result.validity.valid,
                    valid_after_retry: result.validity.valid_after_retry,
                    raw_bytes: result.payload.raw_bytes,
                    selection_f1: result.selection.as_ref().map(|selection| selection.f1),
                    expected_hit: result.expected.as_ref().map(|expected| expected.hit),
                    answerability: result.answerability.map(|score| score.verdict),
                    scorers: result
                        .scorers
                        .iter()
                        .map(|score| (score.name.clone(), score.value))
                        .collect(),
                },
                attempts,
                judge,
                cost_usd: micro_usd.map(|micro| micro / 1_000_000.0),
                error: result.error.as_ref().map(ToString::to_string),
            }
        })
        .collect::<Vec<CaseRun>>();
    let measured = report.totals.measured;
    let mode = RecordMode::run_mode(mode);
    RunFile {
        format: RUN_FILE_FORMAT,
        suite: suite.to_owned(),
        mode,
        configuration: configuration.label().map(str::to_owned),
        label: configuration.provenance.clone(),
        price: configuration.price,
        judge_price: configuration.judge_price,
        started_at,
        repeat,
        live_calls: trace.live_calls(),
        cost_usd: total_micro_usd.map(|micro| micro / 1_000_000.0),
        cap_reached: trace.cap_reached(),
        measured,
        not_measured: not_measured(mode, measured.as_ref()),
        axes,
        pass_rates: PassRate::tally(runs.iter().map(|run| (run.case_id.as_str(), run.passed))),
        suite_floor_misses: suite_misses,
        runs,
        corpus: Some(corpus),
        floors: floors.iter().map(DeclaredFloor::from).collect(),
    }
}

/// The cost rows of a run file, laid out as the measured rows are (`cost usd`, then
/// `cost per case` over the runs that were priced), or no row when nothing was priced:
///
/// ```text
/// cost usd      total 0.018 / 3 priced calls / per call mean 0.006
/// cost per case mean 0.006 / p50 0.006 / p95 0.006
/// ```
pub(super) fn cost_rows(file: &RunFile, table: &mut ReportTable) {
    let Some(total) = file.cost_usd else {
        return;
    };
    let calls: Vec<f64> = file
        .runs
        .iter()
        .flat_map(|run| run.attempts.iter().chain(&run.judge))
        .filter_map(|call| call.cost_usd)
        .collect();
    let per_call = if calls.is_empty() {
        0.0
    } else {
        total / calls.len() as f64
    };
    let priced = match calls.len() {
        1 => "1 priced call".to_owned(),
        n => format!("{n} priced calls"),
    };
    table.row(
        "cost usd",
        format!(
            "total {} / {priced} / per call mean {}",
            format_usd(total),
            format_usd(per_call)
        ),
    );
    let cases = Percentiles::of(file.runs.iter().filter_map(|run| run.cost_usd));
    table.row(
        "cost per case",
        format!(
            "mean {} / p50 {} / p95 {}",
            format_usd(cases.mean),
            format_usd(cases.p50),
            format_usd(cases.p95)
        ),
    );
}

/// The directory run files of `suite` go to: `<ISOMER_EVAL_RUNS>/<suite>` when the
/// variable is set and not empty, else `<target>/isomer/<suite>` ([`target_isomer_dir`]).
pub(super) fn runs_dir(suite: &str) -> PathBuf {
    let base = std::env::var_os(RUNS_VARIABLE)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(target_isomer_dir);
    base.join(suite)
}

/// `<target>/isomer`, where `<target>` is the cargo target directory this test executable
/// was built into (`<target>/<profile>/deps/<executable>`), or `target/isomer` under the
/// working directory when the executable is elsewhere: where the harness writes what a
/// run leaves behind (run files, the whole diff of a moved baseline).
pub(super) fn target_isomer_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            let deps = exe.parent()?;
            (deps.file_name()? == "deps")
                .then(|| Some(deps.parent()?.parent()?.join("isomer")))
                .flatten()
        })
        .unwrap_or_else(|| PathBuf::from("target").join("isomer"))
}

/// Writes `file` as pretty JSON to `dir/run-<stamp>.json`, or
/// `dir/run-<configuration>-<stamp>.json` when the file names its configuration (creating
/// `dir`), whole and atomically (staged beside it, then renamed; an existing file is
/// never replaced: a second run within the same millisecond gets `-2`, `-3`, ...), and
/// returns its absolute path. `stamp` is the start time without separators
/// (`20261206T195003.123Z`).
///
/// # Errors
/// The directory or the file cannot be written, named with the path.
pub(super) fn write_run_file(dir: &Path, stamp: &str, file: &RunFile) -> Result<PathBuf, String> {
    // A label is letters, digits, `.`, `-` and `_` (see `configuration.rs`).
    let stamp = match &file.configuration {
        Some(label) => format!("{label}-{stamp}"),
        None => stamp.to_owned(),
    };
    use std::io::Write as _;
    std::fs::create_dir_all(dir).map_err(|error| {
        format!(
            "cannot create the run file directory {}: {error}",
            dir.display()
        )
    })?;
    let text = serde_json::to_string_pretty(file)
        .map_err(|error| format!("cannot serialize the run file: {error}"))?;
    let mut staged = tempfile::Builder::new()
        .prefix(crate::recordings::STAGED_PREFIX)
        .tempfile_in(dir)
        .map_err(|error| format!("cannot write a run file in {}: {error}", dir.display()))?;
    let cannot = |path: &Path, error: std::io::Error| {
        format!("cannot write the run file {}: {error}", path.display())
    };
    staged
        .write_all(format!("{text}\n").as_bytes())
        .and_then(|()| staged.as_file().sync_all())
        .map_err(|error| cannot(dir, error))?;
    let mut suffix = 1;
    loop {
        let name = if suffix == 1 {
            format!("run-{stamp}.json")
        } else {
            format!("run-{stamp}-{suffix}.json")
        };
        let path = dir.join(name);
        match staged.persist_noclobber(&path) {
            Ok(_) => return Ok(std::path::absolute(&path).unwrap_or(path)),
            Err(error) if error.error.kind() == std::io::ErrorKind::AlreadyExists => {
                staged = error.file;
                suffix += 1;
            }
            Err(error) => return Err(cannot(&path, error.error)),
        }
    }
}

/// The part of a shard file's name after `shard-`: the configuration's label and the
/// shard ([`shard`]), `gpt-4.1-2-<run>`, or the shard alone for a suite without labelled
/// configurations. A label is letters, digits, `.`, `-` and `_` (see `configuration.rs`).
pub(super) fn shard_file_part(label: Option<&str>, shard: &str) -> String {
    match label {
        Some(label) => format!("{label}-{shard}"),
        None => shard.to_owned(),
    }
}

/// Adds `file`, the run file of one case trial, to the file of shard `shard` ([`shard`]) in
/// `dir` (`dir/shard-<shard>.json`, created by the first trial of the shard that gets
/// here) and returns the shard file's absolute path.
///
/// Under nextest the trials of a shard are separate processes, often in flight together:
/// each holds an exclusive lock on `dir/.isomer-shard-<shard>.lock` while it reads the shard
/// file, merges its runs in ([`crate::merge::merge_runs`], which puts them in corpus order
/// and recomputes the axes, pass rates and suite floors over every run the file holds)
/// and writes it back whole (staged beside it, then renamed over it). A case already in
/// the file (a retried trial) has its runs replaced. So the shard file always holds
/// exactly the cases its run's case trials ran, and nothing else.
///
/// # Errors
/// The directory, lock or file cannot be read or written, or the shard file is not a run
/// file of the same run (another suite, corpus version, mode, ...), said with the path.
pub(super) fn add_to_shard(dir: &Path, shard: &str, file: RunFile) -> Result<PathBuf, String> {
    use std::io::Write as _;
    std::fs::create_dir_all(dir).map_err(|error| {
        format!(
            "cannot create the run file directory {}: {error}",
            dir.display()
        )
    })?;
    let lock_path = dir.join(format!(".isomer-shard-{shard}.lock"));
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .and_then(|lock| lock.lock().map(|()| lock))
        .map_err(|error| format!("cannot lock {}: {error}", lock_path.display()))?;
    let path = dir.join(format!("shard-{shard}.json"));
    let shown = path.display().to_string();
    let mut shards = Vec::with_capacity(2);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let mut earlier = NamedRunFile::from_json(shown.clone(), &text)
                .map_err(|error| format!("cannot add to the shard file {shown}: {error}"))?;
            // A retried trial replaces its case's runs.
            earlier
                .file
                .runs
                .retain(|run| !file.runs.iter().any(|new| new.case_id == run.case_id));
            shards.push(earlier);
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => return Err(format!("cannot read the shard file {shown}: {error}")),
    }
    shards.push(NamedRunFile::new("this trial's run", file));
    let merged = merge_runs(&shards)
        .map_err(|error| format!("cannot add to the shard file {shown}: {error}"))?;
    let text = serde_json::to_string_pretty(&merged.file)
        .map_err(|error| format!("cannot serialize the run file: {error}"))?;
    let cannot = |error: std::io::Error| format!("cannot write the shard file {shown}: {error}");
    let mut staged = tempfile::Builder::new()
        .prefix(crate::recordings::STAGED_PREFIX)
        .tempfile_in(dir)
        .map_err(cannot)?;
    staged
        .write_all(format!("{text}\n").as_bytes())
        .and_then(|()| staged.as_file().sync_all())
        .map_err(cannot)?;
    staged.persist(&path).map_err(|error| cannot(error.error))?;
    drop(lock);
    Ok(std::path::absolute(&path).unwrap_or(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_rate_lines_give_k_of_n_per_case() {
        let rates = [PassRate {
            case_id: "a".into(),
            passed: 4,
            runs: 5,
            rate: 0.8,
        }];
        assert_eq!(pass_rate_lines(&rates), "  a: 4 of 5\n");
    }

    /// A pack scorer's values are in each run's scores and its mean among the axes; its
    /// case floor decides `passed` and the pass rates as the declared floors do.
    #[test]
    fn the_run_file_holds_each_pack_scorer_and_its_case_floor() {
        use crate::report::floor_tests::result;
        use crate::scorer::{Scored, ScorerScore, ScorerValue};
        use serde_json::json;

        let run = |id: &str, fits: bool| {
            let mut result = result(json!({
                "caseId": id,
                "validity": { "parsed": true, "valid": true, "validAfterRetry": true, "errors": [] },
                "payload": { "rawBytes": 10, "sanitizedBytes": 10, "unknownTypes": [] }
            }));
            result.scorers = vec![ScorerScore {
                name: "fits_frame".into(),
                value: ScorerValue::Flag(fits),
                detail: None,
            }];
            result
        };
        let report = EvalReport::new(vec![run("a", true), run("b", false)]);
        let scorers = [Scorer::flag("fits_frame", |_| Some(Scored::flag(true))).required()];
        let configuration = Configuration::unlabeled();
        let file = run_file(
            RunContext {
                suite: "s",
                mode: None,
                configuration: &configuration,
                started_at: "2026-12-06T23:00:00Z".into(),
                repeat: 1,
                floors: &[],
                scorers: &scorers,
                has_golden: &|_| false,
                suite_misses: Vec::new(),
                corpus: CorpusVersion::of("{}", vec!["a".into(), "b".into()]),
            },
            &report,
            &Trace::default(),
        );
        let wire = serde_json::to_value(&file).unwrap();
        assert_eq!(
            wire["axes"]["scorers"],
            json!({ "fits_frame": { "mean": 0.5 } })
        );
        assert_eq!(
            wire["runs"][0]["scores"]["scorers"],
            json!({ "fits_frame": true })
        );
        assert_eq!(
            wire["runs"][1]["scores"]["scorers"],
            json!({ "fits_frame": false })
        );
        assert_eq!(wire["runs"][1]["passed"], json!(false));
        assert_eq!(
            wire["runs"][1]["floorMisses"],
            json!(["fits_frame: false, floor true"])
        );
        assert_eq!(
            file.pass_rates
                .iter()
                .map(|rate| (rate.case_id.as_str(), rate.passed))
                .collect::<Vec<_>>(),
            [("a", 1), ("b", 0)]
        );
    }
}
