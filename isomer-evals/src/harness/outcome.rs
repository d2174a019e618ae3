//! What a case trial and a totals trial run, and the failure message each writes.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

use libtest_mimic::Failed;

use super::configuration::{CONFIGURATIONS_VARIABLE, Selected, directories, select};
use super::html;
use super::kind::{SuiteKind, SuiteTrial, write_errored, write_errors, write_misses};
use super::record::{self, RecordMode, TrialRun, UtcNow};
use super::run_log::{self, RunContext, run_misses};
use super::snapshot::{conclude_totals, this_gate_command};
use super::spec::SuiteSpec;
use super::suite::Suite;
use crate::baseline::{BaselineRecord, PromptMismatch, check_prompt};
use crate::case::EvalCase;
use crate::corpus::{CorpusErrors, check_recordings};
use crate::floor::misses;
use crate::floor::{gates_on_pass_rate, pass_rate_miss};
use crate::html::AnswerLog;
use crate::recordings::{
    MissingRecording, RecordingFault, Recordings, StaleJudgment, StaleReason, staged_leftovers,
};
use crate::report::{EvalCaseResult, measured_table};
use crate::report_table::run_name;
use crate::run_file::NO_LIVE_CALL;
use crate::scorer;
use isomer_corpus::{
    ANSWERS_DIR, FloorLevel, FloorSpec, JUDGMENTS_FILE, MANIFEST_FILE, SINGLE_SHOT_FLOORS,
    answer_file_name, finding_position, parse_answer_file_name, parse_judgments,
    parse_recording_name, recording_name,
};

impl SuiteKind for Suite {
    const HOLDING: &'static str = "answers/, judgments.json and prompt.txt";
    const FLOORS: &'static [FloorSpec] = SINGLE_SHOT_FLOORS;

    /// The `<suite>::<case id>` trial. Parses only the case's own bytes of the manifest (the
    /// macro checked the whole text at compile time) and reads only its own recordings.
    fn run_case(trial: SuiteTrial<Self>, case: EvalCase) -> Result<(), Failed> {
        let SuiteTrial { suite, built, dir } = trial;
        over_configurations(suite, built, dir, |selected| {
            built.case_under(suite, selected, case.clone())
        })
    }

    /// The `<suite>::totals` trial.
    fn run_totals(trial: SuiteTrial<Self>, cases: Vec<EvalCase>) -> Result<(), Failed> {
        let SuiteTrial { suite, built, dir } = trial;
        // A shard runs its own cases only: the whole corpus is the merge's to add up.
        if let Some(shard) = run_log::shard() {
            let runs_dir = run_log::runs_dir(suite.name);
            let files: Vec<String> = built
                .configurations(suite.name)?
                .iter()
                .map(|configuration| {
                    let part = run_log::shard_file_part(configuration.label(), &shard);
                    runs_dir
                        .join(format!("shard-{part}.json"))
                        .display()
                        .to_string()
                })
                .collect();
            eprintln!(
                "{}::totals: {} is set, so this is one shard of a partitioned run: no case runs here; this shard's case trials write their runs to {}; merge every shard's file with `isomer-report --merge`, which checks the suite floors",
                suite.name,
                run_log::SHARD_VARIABLE,
                files.join(", "),
            );
            return Ok(());
        }
        over_configurations(suite, built, dir, |selected| {
            built.totals_under(suite, selected, cases.clone())
        })
    }
}

/// Runs `under` for each configuration of `built` the run goes over (see
/// [`super::configuration`]), in order, and fails with the failure of each that failed:
/// alone when the run goes over one configuration, else each led by the configuration it
/// is of (`configuration `gpt-4.1`: the baseline moved (...):`), so a failure's first line
/// still sums it up.
fn over_configurations(
    suite: &'static SuiteSpec,
    built: &'static Suite,
    dir: &Path,
    mut under: impl FnMut(Selected<'_>) -> Result<(), Failed>,
) -> Result<(), Failed> {
    let configurations = built.configurations(suite.name)?;
    let dirs = directories(configurations, dir);
    let wanted = std::env::var(CONFIGURATIONS_VARIABLE).ok();
    let selected = select(
        suite.name,
        configurations,
        &dirs,
        built.caps(),
        wanted.as_deref(),
    )?;
    let replay = record::record_mode()?.is_none();
    let several = selected.len() > 1;
    let mut failures = Vec::new();
    for selected in selected {
        let who = selected.configuration.who(suite.name);
        let outcome = if replay
            && selected.configuration.recordings.is_some()
            && !selected.dir.is_dir()
        {
            Err(Failed::from(format!(
                "the recordings directory {} of {who} is not a directory: record it first (`{}=missing`), or leave it out with {CONFIGURATIONS_VARIABLE}",
                selected.dir.display(),
                record::RECORD_VARIABLE
            )))
        } else {
            under(selected)
        };
        if let Err(failed) = outcome {
            let message = failed.message().unwrap_or("failed").to_owned();
            failures.push(if several {
                format!("{who}: {message}")
            } else {
                message
            });
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

impl Suite {
    /// The case trial of `case` under one configuration: its recordings, its live
    /// callbacks.
    fn case_under(
        &'static self,
        suite: &'static SuiteSpec,
        selected: Selected<'_>,
        case: EvalCase,
    ) -> Result<(), Failed> {
        let (built, dir) = (self, selected.dir);
        let case_id = case.id.clone();
        let has_golden = case.golden.is_some();
        let refused_golden = case
            .golden
            .as_ref()
            .map(|golden| built.golden_errors(golden))
            .unwrap_or_default();
        let expected = case.expected.clone().unwrap_or_default();
        let recordings = Recordings::new(dir);
        let started = UtcNow::now();
        let TrialRun {
            report,
            mode,
            trace,
        } = record::run(
            built,
            suite.name,
            selected.configuration,
            vec![case],
            &recordings,
            None,
        )?;
        if report.results.is_empty() {
            return Err("run_evals returned no result for the case".into());
        }
        // In a shard of a partitioned run the case's runs go to the shard's run file (one
        // per configuration), which `isomer-report --merge` joins with the other shards'.
        let shard = run_log::shard().map(|shard| {
            let has_golden = |_: &str| has_golden;
            let file = run_log::run_file(
                RunContext {
                    suite: suite.name,
                    mode,
                    configuration: selected.configuration,
                    started_at: started.rfc3339(),
                    repeat: built.repeat_count(),
                    floors: suite.floors,
                    scorers: built.pack_scorers(),
                    has_golden: &has_golden,
                    // The merge into the shard file checks the suite floors over its runs.
                    suite_misses: Vec::new(),
                    corpus: suite.corpus.version(),
                },
                &report,
                &trace,
            );
            run_log::add_to_shard(
                &run_log::runs_dir(suite.name),
                &run_log::shard_file_part(selected.configuration.label(), &shard),
                file,
            )
        });
        // Faults of the case's own entry in corpus.json come first: no recording fixes them.
        let entry = CaseEntry::find(suite, &case_id);
        let mut messages = Vec::new();
        if let Some(Err(error)) = shard {
            messages.push(error);
        }
        if !refused_golden.is_empty() {
            messages.push(entry.refused_golden(&refused_golden));
        }
        // Only a miss is worth the catalog's list of types: a passing case keeps a trial cheap.
        if report
            .results
            .iter()
            .any(|result| result.expected.as_ref().is_some_and(|score| !score.hit))
        {
            let unknown = built.unknown_expected(&expected);
            if !unknown.is_empty() {
                messages.push(entry.unknown_expected(&unknown));
            }
        }
        // Measure mode checks the floors only: what the recordings lack is what it recorded
        // or failed to, and the run file names it.
        let floors_only = mode == Some(RecordMode::Measure);
        // With `min_pass_rate` a run below the other case floors counts against the rate
        // instead of failing the case by itself.
        let by_rate = gates_on_pass_rate(suite.floors);
        // With repeats each run is checked against the case floors and named `<id>#<repeat>`,
        // with what its own recordings lack (noted under its recording name, `<id>.r<k>`); a
        // fault of a shared file goes with the first run.
        let repeated = report.results.len() > 1;
        let (missing, stale, faults) = (
            recordings.missing_recordings(),
            recordings.stale_judgments(),
            recordings.faults(),
        );
        let mut failed_runs = Vec::new();
        for (index, result) in report.results.iter().enumerate() {
            let misses = run_misses(suite.floors, built.pack_scorers(), result, has_golden);
            let name = run_name(&case_id, result.repeat, repeated);
            if !misses.is_empty() {
                failed_runs.push(format!("{name}: {}", misses.join("; ")));
            }
            let misses = if by_rate { Vec::new() } else { misses };
            if floors_only {
                let mut out = String::new();
                // A run a cap stopped was not measured at all: it fails, naming the cap.
                if let (Some(_), Some(error)) = (trace.cap_reached(), &result.error) {
                    let _ = writeln!(out, "case `{name}` did not complete: {error}");
                }
                write_misses(&mut out, &format!("case `{name}`"), &misses);
                if !out.is_empty() {
                    messages.push(out.trim_end().to_owned());
                }
                continue;
            }
            let recording = recording_name(&case_id, result.repeat);
            let missing: Vec<MissingRecording> = missing
                .iter()
                .filter(|m| !repeated || m.case_id == recording)
                .cloned()
                .collect();
            let stale: Vec<StaleJudgment> = stale
                .iter()
                .filter(|s| !repeated || s.case_id == recording)
                .cloned()
                .collect();
            let faults = if index == 0 {
                faults.clone()
            } else {
                Vec::new()
            };
            let answer = AnswerFile::new(dir, &recording);
            let message = case_message(&name, result, &misses, &missing, &stale, &faults, &answer);
            // Every line of a run's message is about that run: one that does not start by
            // naming it gets a heading that does.
            messages.extend(message.map(|message| {
                if repeated && !message.starts_with(&format!("case `{name}`")) {
                    format!("case `{name}`:\n{message}")
                } else {
                    message
                }
            }));
        }
        let runs = report.results.len();
        if let Some(miss) = pass_rate_miss(suite.floors, runs - failed_runs.len(), runs) {
            let mut out = format!(
                "case `{case_id}` met its case floors in {} of {runs} runs:\n  {miss}\n",
                runs - failed_runs.len()
            );
            for run in &failed_runs {
                let _ = writeln!(out, "  {run}");
            }
            messages.insert(0, out.trim_end().to_owned());
        }
        if messages.is_empty() {
            Ok(())
        } else {
            Err(messages.join("\n").into())
        }
    }

    /// The totals trial under one configuration: its recordings, its live callbacks, its
    /// run file; compared with the baseline only when it is the suite's first
    /// configuration.
    fn totals_under(
        &'static self,
        suite: &'static SuiteSpec,
        selected: Selected<'_>,
        cases: Vec<EvalCase>,
    ) -> Result<(), Failed> {
        let built = self;
        let dir = selected.dir;
        let configuration = selected.configuration;
        // `models::totals`, or `models::totals, configuration `gpt-4.1``.
        let heading = match configuration.label() {
            Some(label) => format!("{}::totals, configuration `{label}`", suite.name),
            None => format!("{}::totals", suite.name),
        };
        // A configuration's HTML report is `<suite>-<label>.html`, titled `<suite> (<label>)`.
        let (page_name, page_title) = match configuration.label() {
            Some(label) => (
                format!("{}-{label}", suite.name),
                format!("{} ({label})", suite.name),
            ),
            None => (suite.name.to_owned(), suite.name.to_owned()),
        };
        let started = UtcNow::now();
        let recordings = Recordings::new(dir);
        let invalid_goldens = invalid_goldens(built, &cases);
        let goldens: HashSet<String> = cases
            .iter()
            .filter(|case| case.golden.is_some())
            .map(|case| case.id.clone())
            .collect();
        let has_golden = |id: &str| goldens.contains(id);
        // The HTML report, when asked (and always in measure mode), needs the cases and
        // the text of every attempt.
        let measuring = record::record_mode()? == Some(RecordMode::Measure);
        let runs_dir = run_log::runs_dir(suite.name);
        let html = html::html_dir().or_else(|| measuring.then(|| runs_dir.clone()));
        let answers = AnswerLog::new();
        let page_cases = html.as_ref().map(|_| cases.clone());
        let tap = html.as_ref().map(|_| &answers);
        let TrialRun {
            report,
            trace,
            mode,
        } = record::run(built, suite.name, configuration, cases, &recordings, tap)?;
        let rates = run_log::pass_rates(suite.floors, built.pack_scorers(), &report, &has_golden);
        if built.repeat_count() > 1 {
            eprintln!(
                "{heading}, runs of each case that met its case floors:\n{}",
                run_log::pass_rate_lines(&rates).trim_end()
            );
        }
        let mut suite_misses = misses(
            suite.floors,
            SINGLE_SHOT_FLOORS,
            FloorLevel::Suite,
            &report.totals,
        );
        suite_misses.extend(scorer::suite_misses(built.pack_scorers(), &report.totals));
        let run_file = run_log::run_file(
            RunContext {
                suite: suite.name,
                mode,
                configuration,
                started_at: started.rfc3339(),
                repeat: built.repeat_count(),
                floors: suite.floors,
                scorers: built.pack_scorers(),
                has_golden: &has_golden,
                suite_misses: suite_misses.clone(),
                corpus: suite.corpus.version(),
            },
            &report,
            &trace,
        );
        // A live run's calls were measured where they were made, by this trial or a case
        // trial of this process, and priced there: shown here and on the HTML report, and
        // kept out of the baseline, since wall time is not deterministic. A replay
        // measures nothing.
        let measured = measured_table(&report).map(|mut table| {
            run_log::cost_rows(&run_file, &mut table);
            table
        });
        let measured_rows = measured
            .as_ref()
            .map(|table| table.rows().to_vec())
            .unwrap_or_default();
        if mode.is_some() {
            match measured {
                Some(table) => eprintln!(
                    "{heading}, the live calls of this run ({} calls):\n{}",
                    trace.live_calls(),
                    table.finish()
                ),
                None => eprintln!("{heading}: {NO_LIVE_CALL} (every answer was recorded already)"),
            }
        }
        if let Some(cap) = &run_file.cap_reached {
            eprintln!("{heading}: {cap}");
        }
        let mut out = String::new();
        match run_log::write_run_file(&runs_dir, &started.stamp(), &run_file) {
            Ok(path) => eprintln!("{}: wrote the run file {}", suite.name, path.display()),
            Err(error) => {
                let _ = writeln!(out, "{error}");
            }
        }
        let leftovers = staged_leftovers(recordings.dir());
        if mode.is_none() && !leftovers.is_empty() {
            let names: Vec<String> = leftovers
                .iter()
                .map(|path| path.display().to_string())
                .collect();
            eprintln!(
                "{}::totals: ignored {} staged file(s) an interrupted run left (never read as recordings; the next record run removes them): {}",
                suite.name,
                leftovers.len(),
                names.join(", ")
            );
        }
        let report = report.without_measures();
        if measuring {
            // Measure mode: the floors decide, the baseline is neither compared nor written;
            // but runs a cap stopped were not measured at all, and fail naming the cap.
            if trace.cap_reached().is_some() {
                let repeated = report.totals.repeats.is_some();
                let errored = report.results.iter().filter_map(|result| {
                    let error = result.error.as_ref()?;
                    Some((run_name(&result.case_id, result.repeat, repeated), error))
                });
                write_errored(&mut out, "cases that did not complete", errored);
            }
            write_misses(&mut out, &format!("suite `{}`", suite.name), &suite_misses);
            if let (Some(html), Some(cases)) = (&html, &page_cases) {
                let findings = recordings.findings();
                let page = built
                    .page(&page_title, &report, cases)
                    .answers(&answers)
                    .floors(suite.floors)
                    .findings(&findings)
                    .measured(measured_rows.clone());
                html::write_named_page(html, suite, &page_name, selected.baseline, page, &mut out);
            }
            return if out.is_empty() {
                Ok(())
            } else {
                Err(out.trim_end().to_owned().into())
            };
        }
        // The prompt the run handed its requests (built once, here), or, with no case, the
        // one the options build.
        let prompt = recordings
            .prompt()
            .map_or_else(|| built.prompt(), |prompt| prompt.to_string());

        let repeated = report.totals.repeats.is_some();
        let errored = report.results.iter().filter_map(|result| {
            let error = result.error.as_ref()?;
            Some((run_name(&result.case_id, result.repeat, repeated), error))
        });
        write_errored(&mut out, "cases that did not complete", errored);
        if !invalid_goldens.is_empty() {
            let _ = writeln!(
                out,
                "goldens the runtime refuses, to fix in {}/corpus.json:",
                suite.corpus.path
            );
            for line in &invalid_goldens {
                let _ = writeln!(out, "  {line}");
            }
        }
        let findings = recordings.findings();
        let _ = write!(out, "{findings}");
        if let Err(errors) = unreplayed_recordings(suite, recordings.dir()) {
            let _ = writeln!(
                out,
                "recordings that do not match the corpus (fix, rename or delete them):"
            );
            for error in errors.errors() {
                let _ = writeln!(out, "  {error}");
            }
        }
        let past = recordings_past_repeat(recordings.dir(), built.repeat_count());
        if !past.is_empty() {
            let _ = writeln!(
                out,
                "recordings of a repeat past the suite's {} (no replay reads them; rename or delete them): {}",
                built.repeat_count(),
                past.join(", ")
            );
        }
        let prompt_path = recordings.dir().join("prompt.txt");
        let checked = match std::fs::read_to_string(&prompt_path) {
            Ok(recorded) => Ok(check_prompt(&prompt, Some(&recorded))),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                Ok(check_prompt(&prompt, None))
            }
            Err(error) => Err(error),
        };
        match checked {
            Ok(Ok(())) => {}
            Err(error) => {
                let _ = writeln!(out, "cannot read {}: {error}", prompt_path.display());
            }
            Ok(Err(PromptMismatch::Missing)) => {
                let _ = writeln!(
                    out,
                    "{} does not exist: write the prompt the suite builds there (`{} -- --print-prompt {}` prints it), then record the answers from it",
                    prompt_path.display(),
                    this_gate_command(),
                    suite.name
                );
            }
            Ok(Err(mismatch)) => {
                let _ = writeln!(out, "{}: {mismatch}", prompt_path.display());
            }
        }
        let baseline = BaselineRecord::new(&prompt, &recordings);
        if let (Some(html), Some(cases)) = (&html, &page_cases) {
            let page = built
                .page(&page_title, &report, cases)
                .answers(&answers)
                .floors(suite.floors)
                .findings(&findings)
                .measured(measured_rows);
            html::write_named_page(html, suite, &page_name, selected.baseline, page, &mut out);
        }
        if !selected.baseline {
            // The baseline pins the suite's first configuration; another one is checked
            // on its floors and its recordings alone.
            let mut failure = String::new();
            write_misses(
                &mut failure,
                &format!("suite `{}`", suite.name),
                &suite_misses,
            );
            failure.push_str(&out);
            return if failure.is_empty() {
                Ok(())
            } else {
                Err(failure.trim_end().to_owned().into())
            };
        }
        conclude_totals(
            suite,
            &report.totals,
            &scorer::suite_misses(built.pack_scorers(), &report.totals),
            out,
            &report,
            &baseline,
        )
    }
}

/// The failure message of a case trial, or `None` when it passes. The first attempt's
/// findings are placed in `answer`, its file.
fn case_message(
    case_id: &str,
    result: &EvalCaseResult,
    misses: &[String],
    missing: &[MissingRecording],
    stale: &[StaleJudgment],
    faults: &[RecordingFault],
    answer: &AnswerFile,
) -> Option<String> {
    let mut out = String::new();
    if let Some(error) = &result.error {
        let _ = writeln!(out, "case `{case_id}` did not complete: {error}");
    }
    write_misses(&mut out, &format!("case `{case_id}`"), misses);
    if !missing.is_empty() {
        let _ = writeln!(
            out,
            "missing recordings (strict replay answers them with empty text): {}",
            list(missing)
        );
    }
    // A case without a verdict is errored at the judge stage, which the first line says.
    if stale
        .iter()
        .any(|stale| stale.reason == StaleReason::OtherRendering)
    {
        let _ = writeln!(
            out,
            "the verdict for `{case_id}` in judgments.json was given for another text rendering: re-judge it on the current one"
        );
    }
    // An unreadable file already failed the case; a cut-off fence did not.
    for fault in faults {
        if result
            .error
            .as_ref()
            .is_none_or(|error| !error.message.contains(&fault.message))
        {
            let _ = writeln!(out, "{fault}");
        }
    }
    if out.is_empty() {
        return None;
    }
    let validity = &result.validity;
    let first_missing = missing.iter().any(|missing| missing.attempt == 0);
    if !validity.parsed {
        // One JSON syntax error. A missing first recording is replayed as empty text, which
        // the line above already names: its "EOF while parsing" would only mislead. No
        // error means no text was parsed at all (the first `generate` failed, which the
        // `did not complete` line above already says), so there is nothing to add.
        if let Some(error) = validity.errors.first().filter(|_| !first_missing) {
            let _ = writeln!(out, "first attempt ({}) is not JSON: {error}", answer.shown);
        }
    } else if !validity.errors.is_empty() {
        let placed: Vec<String> = validity
            .errors
            .iter()
            .map(|error| format!("{}{error}", answer.at(error)))
            .collect();
        write_errors(&mut out, "first attempt's validation errors", &placed);
    }
    Some(out.trim_end().to_owned())
}

/// A first attempt's answer file, to place its findings by line and column.
struct AnswerFile {
    /// `answers/<recording>.0.txt`, as messages name it.
    shown: String,
    /// The file, in the recordings directory.
    path: std::path::PathBuf,
    /// The file's text, read the first time a finding is placed (never for a passing
    /// case); `None` inside when it cannot be read.
    text: std::cell::OnceCell<Option<String>>,
}

impl AnswerFile {
    /// The first attempt of `recording` in the recordings directory `dir`.
    fn new(dir: &Path, recording: &str) -> AnswerFile {
        let shown = format!("{ANSWERS_DIR}/{}", answer_file_name(recording, 0));
        AnswerFile {
            path: dir.join(&shown),
            shown,
            text: std::cell::OnceCell::new(),
        }
    }

    /// `answers/<recording>.0.txt:3:15: ` for the value a finding's path names in the
    /// answer's JSON (inside its code fence, when it has one); `answers/<recording>.0.txt: `
    /// when the finding cannot be placed.
    fn at(&self, finding: &str) -> String {
        let text = self
            .text
            .get_or_init(|| std::fs::read_to_string(&self.path).ok());
        let placed = text.as_deref().and_then(|text| {
            let json = crate::parse::strip_code_fence(text);
            // `strip_code_fence` returns a slice of its input, so the pointers give its start.
            let start = json.as_ptr() as usize - text.as_ptr() as usize;
            finding_position(text, start..start + json.len(), finding)
        });
        match placed {
            Some(position) => format!("{}:{position}: ", self.shown),
            None => format!("{}: ", self.shown),
        }
    }
}

/// A case's entry in the suite's `corpus.json`, to name its faults by file, line and column.
struct CaseEntry {
    /// `<corpus path as written>/corpus.json`.
    file: String,
    /// The manifest text.
    manifest: &'static str,
    /// The case object's bytes in `manifest`; `None` when the id is not found.
    span: Option<std::ops::Range<usize>>,
    /// The case id.
    id: String,
}

impl CaseEntry {
    fn find(suite: &SuiteSpec, id: &str) -> CaseEntry {
        let span = suite
            .corpus
            .cases
            .iter()
            .find(|case| case.id == id)
            .map(|case| case.start..case.end);
        CaseEntry {
            file: format!("{}/{MANIFEST_FILE}", suite.corpus.path),
            manifest: suite.corpus.manifest,
            span,
            id: id.to_owned(),
        }
    }

    /// `corpus/corpus.json:14:39: ` for the value at `path` (a finding path) inside the
    /// case object, or `corpus/corpus.json: ` when it cannot be placed.
    fn at(&self, path: &str) -> String {
        let span = self.span.clone();
        match span.and_then(|span| finding_position(self.manifest, span, path)) {
            Some(position) => format!("{}:{position}: ", self.file),
            None => format!("{}: ", self.file),
        }
    }

    /// The runtime's findings on the case's golden, each where it sits in the file.
    fn refused_golden(&self, errors: &[String]) -> String {
        let mut out = format!("case `{}`: the runtime refuses its golden:", self.id);
        for error in errors {
            let _ = write!(
                out,
                "\n  {}golden.{error}",
                self.at(&format!("golden.{error}"))
            );
        }
        out
    }

    /// The `expected` entries no catalog type has, each where it sits in the file.
    fn unknown_expected(&self, unknown: &[(usize, &str)]) -> String {
        let mut out = format!(
            "case `{}`: `expected` names types the catalog does not have:",
            self.id
        );
        for (index, name) in unknown {
            let _ = write!(
                out,
                "\n  {}`{name}` is not a type of the catalog",
                self.at(&format!("expected[{index}]"))
            );
        }
        out
    }
}

/// Every finding of the runtime (and the suite's frame) on the cases' goldens, as
/// `case `<id>`: <path> <message>`, in case order; cases without a golden have none.
fn invalid_goldens(suite: &Suite, cases: &[EvalCase]) -> Vec<String> {
    cases
        .iter()
        .filter_map(|case| Some((&case.id, case.golden.as_ref()?)))
        .flat_map(|(id, golden)| {
            suite
                .golden_errors(golden)
                .into_iter()
                .map(move |error| format!("case `{id}`: {error}"))
        })
        .collect()
}

/// Checks that the recordings directory holds nothing a replay of the compiled-in cases
/// would never read: answer files for unknown cases or with names no replay asks for, and
/// judgments for unknown cases (a deleted or renamed case leaves these behind, and a
/// strict gate must not pass over them silently).
fn unreplayed_recordings(suite: &SuiteSpec, dir: &Path) -> Result<(), CorpusErrors> {
    let ids: HashSet<&str> = suite.corpus.cases.iter().map(|case| case.id).collect();
    check_recordings(dir, &ids)
}

/// The answer files and verdicts in `dir` recorded for a repeat the suite does not run
/// (`answers/<id>.r<k>.<attempt>.txt` and judgments under `<id>.r<k>` with `k >= repeat`),
/// sorted: left behind when a suite's repeat is lowered, and read by no replay. Files that
/// cannot be listed or parsed are named by the other checks.
fn recordings_past_repeat(dir: &Path, repeat: u32) -> Vec<String> {
    let past_repeat =
        |recording: &str| parse_recording_name(recording).is_some_and(|(_, k)| k >= repeat);
    let mut past = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir.join(ANSWERS_DIR)) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            if let Some(name) = name.to_str()
                && parse_answer_file_name(name).is_some_and(|(recording, _)| past_repeat(recording))
            {
                past.push(format!("{ANSWERS_DIR}/{name}"));
            }
        }
    }
    if let Ok(text) = std::fs::read_to_string(dir.join(JUDGMENTS_FILE))
        && let Ok(judgments) = parse_judgments(&text, None)
    {
        for id in judgments.by_case.keys().filter(|id| past_repeat(id)) {
            past.push(format!("the verdict for `{id}` in {JUDGMENTS_FILE}"));
        }
    }
    past.sort();
    past
}

/// `answers/a.1.txt, answers/b.0.txt`.
fn list(missing: &[MissingRecording]) -> String {
    missing
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::Floor;
    use crate::report::floor_tests::{case_misses, result};
    use serde_json::json;

    /// A case's own faults in `corpus.json` are named by file, line and column: each
    /// finding on its golden at the value its path names, each unknown `expected` entry
    /// at that entry.
    #[test]
    fn a_case_entry_names_its_golden_and_expected_faults_where_they_sit() {
        fn never_built() -> Suite {
            unreachable!("naming a case's faults builds no suite")
        }
        const MANIFEST: &str = r#"{ "cases": [
  { "id": "other", "prompt": "p" },
  { "id": "one-chore", "prompt": "Water the plants.",
    "golden": { "type": "view", "body": [
      { "type": "todoList", "title": "Reminder", "items": [
        { "type": "todoItem", "text": "" }
      ] }
    ] },
    "expected": ["todoItem", "todoItm"] }
] }"#;
        let start = MANIFEST.find(r#"{ "id": "one-chore""#).unwrap();
        let end = MANIFEST.rfind(']').unwrap() - 1;
        let cases: &'static [crate::harness::spec::CaseSpec] = Box::leak(Box::new([
            crate::harness::spec::CaseSpec {
                id: "other",
                start: MANIFEST.find(r#"{ "id": "other""#).unwrap(),
                end: start - 4,
            },
            crate::harness::spec::CaseSpec {
                id: "one-chore",
                start,
                end,
            },
        ]));
        let suite = SuiteSpec {
            name: "todo_pack",
            corpus: crate::harness::spec::CorpusSpec {
                path: "corpus",
                dir: "/nowhere",
                manifest: MANIFEST,
                cases,
            },
            build: never_built,
            floors: &[],
            snapshots: "/nowhere",
        };
        let entry = CaseEntry::find(&suite, "one-chore");
        assert_eq!(
            entry.refused_golden(&[
                "body[0].items[0].text (in todoItem) must not be empty".to_owned(),
                "body must hold one slideFrame".to_owned(),
            ]),
            "case `one-chore`: the runtime refuses its golden:
  corpus/corpus.json:6:39: golden.body[0].items[0].text (in todoItem) must not be empty
  corpus/corpus.json:4:41: golden.body must hold one slideFrame"
        );
        assert_eq!(
            entry.unknown_expected(&[(1, "todoItm")]),
            "case `one-chore`: `expected` names types the catalog does not have:
  corpus/corpus.json:9:30: `todoItm` is not a type of the catalog"
        );
        // A case the spec does not list is still named, without a place.
        assert_eq!(
            CaseEntry::find(&suite, "gone").unknown_expected(&[(0, "x")]),
            "case `gone`: `expected` names types the catalog does not have:
  corpus/corpus.json: `x` is not a type of the catalog"
        );
    }

    /// A recordings directory holding `answers/<name>` with `text`.
    fn answers(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(ANSWERS_DIR)).unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(ANSWERS_DIR).join(name), text).unwrap();
        }
        dir
    }

    #[test]
    fn case_message_names_every_miss_and_the_first_errors() {
        let result = result(json!({
            "caseId": "chart-q3",
            "validity": { "parsed": true, "valid": false, "validAfterRetry": false, "errors": [
                "body[0].type must be one of: slideFrame, slideHeading",
                "body[1].items (in slideList) must not be empty",
                "body[2].label is required",
                "body[3].value is required",
                "body[4] has unrecognized key(s): x; its fields are a, b"
            ] },
            "selection": { "precision": 1.0, "recall": 0.5, "f1": 2.0 / 3.0,
                "extra": ["sparkline"], "missing": ["slideStat", "slideStat"] },
            "payload": { "rawBytes": 10, "sanitizedBytes": 0, "unknownTypes": ["sparkline"] }
        }));
        let misses = case_misses(
            &[
                Floor::flag("valid_after_retry"),
                Floor::number("min_selection_f1", 0.8),
                Floor::flag("no_invented_types"),
            ],
            &result,
            true,
        );
        let dir = answers(&[(
            "chart-q3.0.txt",
            "Here it is:\n```json\n{ \"type\": \"view\", \"body\": [\n  { \"type\": \"sparkline\" },\n  { \"type\": \"slideList\", \"items\": [] }\n] }\n```\n",
        )]);
        let message = case_message(
            "chart-q3",
            &result,
            &misses,
            &[MissingRecording {
                case_id: "chart-q3".into(),
                attempt: 1,
            }],
            &[],
            &[],
            &AnswerFile::new(dir.path(), "chart-q3"),
        )
        .unwrap();
        assert_eq!(
            message,
            "case `chart-q3` is below its floors:
  valid_after_retry: false, floor true
  min_selection_f1: 0.6667, floor >= 0.8 (missing slideStat, slideStat; extra sparkline)
  no_invented_types: [sparkline], floor []
missing recordings (strict replay answers them with empty text): answers/chart-q3.1.txt
first attempt's validation errors (5):
  answers/chart-q3.0.txt:4:13: body[0].type must be one of: slideFrame, slideHeading
  answers/chart-q3.0.txt:5:35: body[1].items (in slideList) must not be empty
  answers/chart-q3.0.txt:3:27: body[2].label is required
  (+2 more)"
        );
        let passing = AnswerFile::new(dir.path(), "chart-q3");
        assert_eq!(
            case_message("chart-q3", &result, &[], &[], &[], &[], &passing),
            None
        );
        assert_eq!(passing.text.get(), None, "a passing case reads no answer");
    }

    /// A pack scorer's case floor is checked with the declared floors and its miss
    /// printed after theirs, with what the scorer said of the value.
    #[test]
    fn case_message_names_a_pack_scorer_miss_after_the_declared_floors() {
        use crate::scorer::{Scored, Scorer, ScorerScore, ScorerValue};
        let mut result = result(json!({
            "caseId": "tall",
            "validity": { "parsed": true, "valid": true, "validAfterRetry": true, "errors": [] },
            "payload": { "rawBytes": 10, "sanitizedBytes": 10, "unknownTypes": ["gauge"] }
        }));
        result.scorers = vec![ScorerScore {
            name: "fits_frame".into(),
            value: ScorerValue::Flag(false),
            detail: Some("bottom 78 px, right 0 px past the 1920×1080 frame".into()),
        }];
        let scorers = [Scorer::flag("fits_frame", |_| Some(Scored::flag(true))).required()];
        let misses = super::super::run_log::run_misses(
            &[Floor::flag("no_invented_types")],
            &scorers,
            &result,
            true,
        );
        let dir = answers(&[]);
        assert_eq!(
            case_message(
                "tall",
                &result,
                &misses,
                &[],
                &[],
                &[],
                &AnswerFile::new(dir.path(), "tall")
            )
            .unwrap(),
            "case `tall` is below its floors:
  no_invented_types: [gauge], floor []
  fits_frame: false, floor true (bottom 78 px, right 0 px past the 1920×1080 frame)"
        );
    }

    /// An attempt that is not JSON is named as such, with its file; a missing first
    /// recording, which strict replay answers with empty text, is named as missing, without
    /// the "EOF while parsing" its empty text gives.
    #[test]
    fn case_message_of_an_attempt_that_is_not_json() {
        let unparsed = |error: &str| {
            result(json!({
                "caseId": "chart-q3",
                "validity": { "parsed": false, "valid": false, "validAfterRetry": false,
                    "errors": [error] },
                "payload": { "rawBytes": 0, "sanitizedBytes": 0, "unknownTypes": [] }
            }))
        };
        let missing = unparsed("EOF while parsing a value at line 1 column 0");
        let misses = case_misses(&[Floor::flag("valid_after_retry")], &missing, true);
        let dir = answers(&[]);
        assert_eq!(
            case_message(
                "chart-q3",
                &missing,
                &misses,
                &[MissingRecording {
                    case_id: "chart-q3".into(),
                    attempt: 0,
                }],
                &[],
                &[],
                &AnswerFile::new(dir.path(), "chart-q3"),
            )
            .unwrap(),
            "case `chart-q3` is below its floors:
  valid_after_retry: false, floor true
missing recordings (strict replay answers them with empty text): answers/chart-q3.0.txt"
        );
        let prose = unparsed("expected value at line 1 column 1");
        let dir = answers(&[("chart-q3.0.txt", "Sure! Here is a slide.")]);
        assert_eq!(
            case_message(
                "chart-q3",
                &prose,
                &misses,
                &[],
                &[],
                &[],
                &AnswerFile::new(dir.path(), "chart-q3"),
            )
            .unwrap(),
            "case `chart-q3` is below its floors:
  valid_after_retry: false, floor true
first attempt (answers/chart-q3.0.txt) is not JSON: expected value at line 1 column 1"
        );
    }

    /// A first `generate` that failed (an unreadable answer file) leaves no text and no
    /// error to show: the message says why the case did not complete and what its floors
    /// read, and claims no JSON error.
    #[test]
    fn case_message_of_a_failed_generate_claims_no_json_error() {
        let result = result(json!({
            "caseId": "good",
            "validity": { "parsed": false, "valid": false, "validAfterRetry": false, "errors": [] },
            "payload": { "rawBytes": 0, "sanitizedBytes": 0, "unknownTypes": [] },
            "error": {
                "stage": "generate",
                "attempt": 0,
                "panicked": false,
                "message": "answers/good.0.txt:1:51: is not UTF-8 text (first invalid byte here)"
            }
        }));
        let misses = case_misses(&[Floor::flag("valid_after_retry")], &result, true);
        assert_eq!(
            case_message(
                "good",
                &result,
                &misses,
                &[],
                &[],
                &[],
                &AnswerFile::new(Path::new("/nowhere"), "good"),
            )
            .unwrap(),
            "case `good` did not complete: generate attempt 0 failed: answers/good.0.txt:1:51: is not UTF-8 text (first invalid byte here)
case `good` is below its floors:
  valid_after_retry: false, floor true"
        );
    }
}
