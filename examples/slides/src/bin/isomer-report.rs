//! `isomer-report`: replay a recorded corpus against the slides pack and
//! print the eval report.
//!
//! ```text
//! cargo run -p isomer-slides --bin isomer-report [-- OPTIONS]
//!
//! Options:
//!       --corpus <DIR>            The corpus directory [default: corpus/slides of this repository]
//!       --json                    Print the EvalReport as JSON instead of the text report
//!       --html <FILE>             Also write the HTML report of the run to FILE
//!       --print-prompt            Print the prompt the harness builds for the slides pack and exit
//!       --compare <RUN> <RUN>...  Compare run files of one suite, each against the first
//!       --merge <RUN>...          Merge the run files of the shards of one run
//!   -o, --output <FILE>           With --merge, write the merged run file to FILE
//!   -h, --help                    Print help
//!   -V, --version                 Print version
//! ```
//!
//! `--compare A.json B.json [...]` and `--merge SHARD.json ... [-o FILE]` read run files
//! (what an eval gate's `totals` trial, or each shard of a sharded run, writes under
//! `target/isomer/<suite>/`) instead of replaying a corpus; see
//! [`isomer_evals::compare`] and [`isomer_evals::merge`] for what they print, and
//! `run_files.rs` beside this file for their exit statuses. With `--compare`, `--html FILE`
//! writes the comparison page ([`isomer_evals::html::ComparePage`]); with `--merge`,
//! `--json` prints the merged run file instead of its summary.
//!
//! The command line is parsed by clap ([`Cli`]): an unknown or repeated option, a
//! missing or empty value, or `--print-prompt` with another option is refused on stderr
//! with one `error:` line, the short usage and "For more information, try '--help'.",
//! and status 2.
//!
//! The run replays `answers/` as the model and `judgments.json` as the
//! judge, with the slides pack's guide and rules, the slides frame's body
//! rule, its pack scorers (`isomer_slides::eval_scorers`: each answer's slide drawn and
//! checked against its frame), and four cases in flight; no model is called. The report goes to
//! stdout, followed by the line `latency and tokens: not measured in replay` (a replay
//! has neither to show); what does not match the recordings goes to stderr:
//!
//! - `prompt.txt` missing or different from the prompt the harness builds
//!   (the answers were written from another prompt);
//! - what the replay noted, in the lines the eval gate's `totals` trial prints
//!   (`isomer_evals::recordings::ReplayFindings`): missing recordings (attempts the
//!   harness asked for with no answer file: they replay as an empty answer, which fails
//!   to parse), cases without a verdict (errored at the judge stage: a replay invents no
//!   verdict), verdicts given for another text rendering, and recorded files that cannot
//!   be used (not UTF-8, unreadable, a code fence cut off), each with its file and
//!   line:column.
//!
//! `--html FILE` writes one self-contained page (`isomer_evals::html`): the totals beside
//! the committed baseline (`tests/snapshots/slides__report.snap`, for the default corpus
//! only), what does not match the recordings, and one row per case with its request,
//! verdict and scores, each attempt rendered through the slides pack's html surface with
//! its validation errors and model text, beside the golden's rendering; each valid attempt
//! and each golden is also drawn as its 1920×1080 slide picture
//! (`isomer_slides::pictures::slide_png`), inline as a PNG `data:` URI, so the answer's and
//! the golden's pictures stand side by side and the page stays one file. The text report
//! still goes to stdout, and the exit status is the same.
//!
//! Answers are read one by one as the run asks for them, so an unusable answer fails its
//! case only and one run reports every fault of the corpus.
//!
//! Exit status: `0` when the recordings match, `1` when anything above is found (the
//! report is still printed), `2` for a bad argument, a corpus whose `corpus.json`,
//! `judgments.json` or `answers/` listing does not load (every fault is listed with file,
//! line and column) or has no cases, or an HTML file that cannot be written.
//!
//! The corpus baseline test (`tests/corpus_baseline.rs`) includes this file
//! and calls [`replay_corpus`], so the command and the committed baseline
//! score with the same options.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use isomer_evals::baseline::{Baseline, PromptMismatch, check_prompt};
use isomer_evals::corpus::Corpus;
use isomer_evals::html::{AnswerLog, ReportPage};
use isomer_evals::recordings::{Recordings, ReplayFindings};
use isomer_evals::{EvalCase, EvalFrame, EvalReport, RunEvalsOptions, eval_prompt, run_evals};
use isomer_sdk::AuthoringProfile;

/// The recorded slides corpus of this repository: `corpus/slides` beside
/// `examples/`, found from this crate's manifest directory at build time.
fn default_corpus() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir
        .parent()
        .and_then(Path::parent)
        .unwrap_or(manifest_dir);
    workspace.join("corpus").join("slides")
}

/// Cases in flight at once; the report does not depend on it.
const CONCURRENCY: usize = 4;

/// What `--help` prints after the options: the exit status, as the module docs give it.
const EXIT_STATUS: &str = "\
Exit status:
  0  the recordings match the harness
  1  prompt.txt differs, recordings are missing or judgments are stale (the report is still printed)
  2  a bad argument, a corpus that does not load or has no cases, or an HTML file that cannot be written

With --compare (--html FILE writes the comparison page): 0; 1 when a case that passed in
the first run file fails in a later one; 2 when a run file does not read or the files do
not compare.
With --merge (--json prints the merged run file): 0; 1 when the merged run misses a suite
floor or a case ran in no shard; 2 when a run file does not read, the shards do not merge
or the output cannot be written.";

/// The command line of `isomer-report`.
#[derive(Debug, Parser)]
#[command(
    name = "isomer-report",
    version,
    about = "Replays a recorded corpus against the slides pack and prints the eval report.",
    after_help = EXIT_STATUS
)]
struct Cli {
    /// The corpus directory [default: corpus/slides of this repository]
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Print the EvalReport as JSON instead of the text report
    #[arg(long)]
    json: bool,
    /// Also write the HTML report of the run to FILE
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Print the prompt the harness builds for the slides pack and exit
    #[arg(long, conflicts_with_all = ["corpus", "json", "html", "compare", "merge"])]
    print_prompt: bool,
    /// Compare run files of one suite, each against the first
    #[arg(long, value_name = "RUN", num_args = 2.., conflicts_with_all = ["corpus", "json", "merge"])]
    compare: Vec<PathBuf>,
    /// Merge the run files of the shards of one run
    #[arg(long, value_name = "RUN", num_args = 1.., conflicts_with_all = ["corpus", "html"])]
    merge: Vec<PathBuf>,
    /// With --merge, write the merged run file to FILE
    #[arg(short = 'o', long, value_name = "FILE", requires = "merge")]
    output: Option<PathBuf>,
}

#[path = "isomer-report/run_files.rs"]
mod run_files;

/// What one replay of a corpus produced.
pub struct Replayed {
    /// The report, its text, the prompt hash and the recording lists.
    pub baseline: Baseline,
    /// Whether `prompt.txt` equals `prompt`.
    pub prompt_check: Result<(), PromptMismatch>,
    /// What the replay noted: missing, stale and unusable recordings.
    pub findings: ReplayFindings,
    /// The cases run, in corpus order.
    pub cases: Vec<EvalCase>,
    /// The model text of every attempt the run read, for the HTML report.
    pub answers: AnswerLog,
}

/// The prompt `run_evals` builds for the slides runtime with the options
/// [`replay_corpus`] uses: the general profile, the slides guide and rules.
pub fn slides_prompt() -> Result<String, String> {
    let runtime = slides_runtime()?;
    Ok(eval_prompt(
        &runtime,
        AuthoringProfile::General,
        isomer_slides::AUTHORING_GUIDE,
        Some(isomer_slides::AUTHORING_RULES),
    ))
}

fn slides_runtime() -> Result<isomer_sdk::Runtime, String> {
    isomer_slides::runtime().map_err(|error| format!("the slides runtime does not build: {error}"))
}

/// Replays the corpus at `dir` against the slides runtime: loads it (every
/// fault, or nothing), runs `run_evals` with the replay as model and judge,
/// and gathers the baseline.
pub fn replay_corpus(dir: &Path) -> Result<Replayed, String> {
    refuse_agent_corpus(dir)?;
    let corpus = Corpus::load(dir)
        .map_err(|errors| format!("the corpus at {} does not load:\n{errors}", dir.display()))?;
    // As `#[isomer_eval]` refuses it: a replay of no case measures nothing and would pass.
    if corpus.cases.is_empty() {
        return Err(format!(
            "the corpus at {} has no cases: its corpus.json `cases` array is empty",
            dir.display()
        ));
    }
    let replay = Recordings::new(dir);
    let answers = AnswerLog::new();
    let runtime = slides_runtime()?;
    let frame = slides_frame(&runtime)?;
    let cases = corpus.eval_cases();
    let mut options = RunEvalsOptions::new(&runtime, cases.clone(), answers.tap(replay.generate()));
    options.judge = replay.has_judgments().then(|| replay.judge());
    options.guide = isomer_slides::AUTHORING_GUIDE.to_owned();
    options.rules = Some(isomer_slides::AUTHORING_RULES.to_owned());
    options.concurrency = CONCURRENCY;
    options.frame = Some(frame as &dyn EvalFrame);
    let scorers = isomer_slides::eval_scorers();
    options.scorers = &scorers;
    let prompt = eval_prompt(
        &runtime,
        options.profile,
        &options.guide,
        options.rules.as_deref(),
    );
    let report: EvalReport = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|error| format!("cannot start the async runtime: {error}"))?
        .block_on(run_evals(options));
    // The prompt every `generate` call saw is the one hashed and checked.
    if replay.prompt().is_some_and(|seen| *seen != *prompt) {
        return Err("run_evals handed generate another prompt than eval_prompt builds".to_owned());
    }
    let baseline = Baseline::new(report, &prompt, &replay);
    let prompt_check = check_prompt(&prompt, corpus.prompt.as_deref());
    let findings = replay.findings();
    drop(replay);
    Ok(Replayed {
        baseline,
        prompt_check,
        findings,
        cases,
        answers,
    })
}

/// Refuses an agent corpus (one with `transcripts/`), which this command cannot
/// replay, saying so and where it is replayed, rather than reporting a missing
/// `prompt.txt` and every answer as missing.
fn refuse_agent_corpus(dir: &Path) -> Result<(), String> {
    if dir.join(isomer_corpus::TRANSCRIPTS_DIR).is_dir() {
        return Err(format!(
            "{} is an agent corpus (it holds transcripts/): isomer-report replays single-shot corpora; replay an agent corpus with its #[isomer_eval(agent)] gate (corpus/slides-agent: cargo test -p isomer-evals --test slides_agent_eval)",
            dir.display()
        ));
    }
    Ok(())
}

fn slides_frame(runtime: &isomer_sdk::Runtime) -> Result<&isomer_sdk::Frame, String> {
    runtime
        .frame(Some(isomer_slides::SLIDE_DECK_FRAME))
        .map_err(|error| format!("the slides runtime has no slide frame: {error}"))
}

/// The HTML report of a replay of the corpus at `dir`: the run's report, findings and
/// answers, rendered through the slides runtime and drawn as slide pictures, each of the
/// slides gate's floors ([`isomer_slides::EVAL_FLOORS`]) met or missed, with the committed
/// baseline beside the totals when `baseline` is given.
fn html_page(
    dir: &Path,
    replayed: &Replayed,
    baseline: Option<&EvalReport>,
) -> Result<String, String> {
    let runtime = slides_runtime()?;
    let frame = slides_frame(&runtime)?;
    let scorers = isomer_slides::eval_scorers();
    let name = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    let mut page = ReportPage::new(&name, &replayed.baseline.report, &replayed.cases, &runtime)
        .frame(frame)
        .answers(&replayed.answers)
        .findings(&replayed.findings)
        .floors(isomer_slides::EVAL_FLOORS)
        .scorers(&scorers)
        .pictures(&isomer_slides::pictures::slide_png);
    if let Some(baseline) = baseline {
        page = page.baseline(baseline);
    }
    if let Err(mismatch) = &replayed.prompt_check {
        page = page.note(format!("{}: {mismatch}", dir.join("prompt.txt").display()));
    }
    Ok(page.to_html())
}

/// The committed report of the slides gate, the baseline of the default corpus.
fn committed_slides_report() -> Option<EvalReport> {
    let snapshots = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("snapshots");
    isomer_evals::harness::committed_report(&snapshots, "slides")
}

fn main() -> ExitCode {
    run(&Cli::parse())
}

/// Runs the command `cli` describes: prints the prompt, or replays the corpus, writes the
/// HTML page when asked, prints the report and says on stderr what does not match the
/// recordings. The exit status is the module docs'.
fn run(cli: &Cli) -> ExitCode {
    if !cli.compare.is_empty() {
        return run_files::compare(&cli.compare, cli.html.as_deref());
    }
    if !cli.merge.is_empty() {
        return run_files::merge(&cli.merge, cli.output.as_deref(), cli.json);
    }
    if cli.print_prompt {
        // Exactly the prompt text: `> corpus/slides/prompt.txt` writes the file.
        return match slides_prompt() {
            Ok(prompt) => match write_stdout(&prompt) {
                Ok(()) => ExitCode::SUCCESS,
                Err(code) => code,
            },
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        };
    }
    let corpus = cli.corpus.clone().unwrap_or_else(default_corpus);
    let replayed = match replay_corpus(&corpus) {
        Ok(replayed) => replayed,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    if let Some(file) = &cli.html {
        // The committed baseline is the default corpus's only.
        let committed = cli.corpus.is_none().then(committed_slides_report).flatten();
        let written = html_page(&corpus, &replayed, committed.as_ref()).and_then(|page| {
            std::fs::write(file, page)
                .map_err(|error| format!("cannot write {}: {error}", file.display()))
        });
        if let Err(message) = written {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    }
    let baseline = &replayed.baseline;
    let output = if cli.json {
        match serde_json::to_string_pretty(&baseline.report) {
            Ok(json) => json,
            Err(error) => {
                eprintln!("error: cannot print the report as JSON: {error}");
                return ExitCode::from(2);
            }
        }
    } else {
        // A replay calls no model, so it has no latency or tokens to show: the text says
        // so under the report (the JSON leaves `measured` out).
        format!(
            "{}\n\n{}",
            baseline.report_text,
            isomer_evals::format_measurements(&baseline.report)
        )
    };
    if let Err(code) = write_stdout(&format!("{output}\n")) {
        return code;
    }

    let mut matches = true;
    if let Err(mismatch) = &replayed.prompt_check {
        eprintln!("\n{}: {mismatch}", corpus.display());
        matches = false;
    }
    if !replayed.findings.is_empty() {
        eprint!("\nin {}:\n{}", corpus.display(), replayed.findings);
        matches = false;
    }
    if matches {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "\nthe recordings no longer match the harness; re-record them (see corpus/slides/README.md)"
        );
        ExitCode::from(1)
    }
}

/// Writes `text` to stdout.
///
/// A reader that closes the pipe early (`isomer-report --json | head`) is not an error:
/// the rest of the output is dropped and the command goes on, so its exit status still
/// says whether the recordings match. Any other write error ends the command with
/// status 2 and a message on stderr.
fn write_stdout(text: &str) -> Result<(), ExitCode> {
    use std::io::Write;

    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(error) => {
            eprintln!("error: cannot write to stdout: {error}");
            Err(ExitCode::from(2))
        }
    }
}
