//! The recorded slides corpus (`corpus/slides`) against the slides pack:
//! every golden is a valid one-slide composition, `prompt.txt` is the prompt
//! the harness builds, and the replayed run matches the committed baseline.
//!
//! The baseline is the eval gate's (`tests/slides_eval.rs`): three snapshot
//! files in `tests/snapshots/`, `slides__report` (the `EvalReport` as JSON),
//! `slides__report_text` (`format_report`) and `slides__baseline`
//! (`promptSha256`, `missingRecordings`, `staleJudgments`). This test checks
//! that the report command's replay matches them, compared as the gate
//! compares them (`isomer_evals::harness::moved_snapshots`); the gate is
//! their one writer. Regenerate `prompt.txt` first when the prompt changed:
//!
//! ```sh
//! cargo run -p isomer-slides --bin isomer-report -- --print-prompt > corpus/slides/prompt.txt
//! ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-slides --test slides_eval -- --exact slides::totals
//! git diff examples/slides/tests/snapshots corpus/slides   # review what moved
//! ```

use std::collections::BTreeSet;
use std::path::Path;

use isomer_evals::corpus::Corpus;
use serde_json::Value;

/// The report command, whose `replay_corpus` both the command and this
/// test score with, so they agree on every option.
#[allow(dead_code)]
#[path = "../src/bin/isomer-report.rs"]
mod report_command;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/slides");

fn corpus() -> Corpus {
    Corpus::load(Path::new(CORPUS)).unwrap_or_else(|errors| panic!("{errors}"))
}

/// Every node type in a composition, reached through the runtime's child
/// hooks (the way selection and expected hits count nodes).
fn node_types(runtime: &isomer_sdk::Runtime, golden: &Value) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut stack: Vec<&Value> = golden["body"].as_array().into_iter().flatten().collect();
    while let Some(node) = stack.pop() {
        if let Some(t) = node["type"].as_str() {
            found.insert(t.to_owned());
        }
        stack.extend(
            runtime
                .walker()
                .children(node)
                .into_iter()
                .map(|child| child.node),
        );
    }
    found
}

#[test]
fn the_corpus_has_at_least_40_cases_over_every_group() {
    let corpus = corpus();
    assert!(corpus.cases.len() >= 40, "{} cases", corpus.cases.len());
    let provenance = &corpus.provenance;
    assert_eq!(
        provenance["author"],
        "Claude, an AI model by Anthropic, writing through a coding agent"
    );
    assert_eq!(provenance["date"], "2026-12-01");
    assert!(
        provenance["purpose"]
            .as_str()
            .unwrap()
            .starts_with("Replay only")
    );

    // The 40 primitives the pack implements each appear in some golden.
    let runtime = isomer_slides::runtime().unwrap();
    let used: BTreeSet<String> = corpus
        .cases
        .iter()
        .flat_map(|case| node_types(&runtime, case.golden.as_ref().unwrap()))
        .collect();
    let all: BTreeSet<String> = runtime
        .primitives()
        .iter()
        .map(|p| p.type_name().to_owned())
        .collect();
    assert_eq!(used, all);

    // Every group of the pack is what some cases expect: how many
    // cases expect a type of each group.
    let per_group: Vec<(String, usize)> = runtime
        .groups()
        .iter()
        .map(|group| {
            let cases = corpus
                .cases
                .iter()
                .filter(|case| {
                    let expected = case.expected.as_deref().unwrap_or_default();
                    expected.iter().any(|t| group.types.contains(t))
                })
                .count();
            (group.title.clone(), cases)
        })
        .collect();
    let expected_spread: Vec<(String, usize)> = [
        ("Slide structure", 10),
        ("Layout", 3),
        ("Text", 6),
        ("Diagrams", 12),
        ("Numbers", 9),
        ("Code and renders", 9),
    ]
    .into_iter()
    .map(|(title, n)| (title.to_owned(), n))
    .collect();
    assert_eq!(per_group, expected_spread);
}

#[test]
fn every_golden_is_a_valid_slide_that_uses_an_expected_type() {
    let corpus = corpus();
    let runtime = isomer_slides::runtime().unwrap();
    let frame = runtime
        .frame(Some(isomer_slides::SLIDE_DECK_FRAME))
        .unwrap();
    let known: BTreeSet<String> = runtime
        .primitives()
        .iter()
        .map(|p| p.type_name().to_owned())
        .collect();
    let mut faults = Vec::new();
    for case in &corpus.cases {
        let golden = case
            .golden
            .as_ref()
            .expect("every slides case has a golden");
        let checked = runtime.validate(golden);
        for error in &checked.errors {
            faults.push(format!(
                "{}: {}",
                case.id,
                isomer_sdk::format_validation_error(error)
            ));
        }
        let parsed = runtime.parse(golden);
        if !parsed.valid {
            faults.push(format!("{}: parse refuses the golden", case.id));
        }
        let body = golden["body"].as_array().cloned().unwrap_or_default();
        for message in frame.validate_body(&body) {
            faults.push(format!("{}: frame: {message}", case.id));
        }
        let expected = case
            .expected
            .as_ref()
            .expect("every slides case lists expected types");
        for t in expected {
            if !known.contains(t) {
                faults.push(format!(
                    "{}: expected type {t} is not in the catalog",
                    case.id
                ));
            }
        }
        let types = node_types(&runtime, golden);
        if !expected.iter().any(|t| types.contains(t)) {
            faults.push(format!("{}: the golden uses none of {expected:?}", case.id));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_golden_checks_refuse_a_broken_golden() {
    // The checks above can fail: an unknown field, a missing field and a
    // second frame are each refused.
    let runtime = isomer_slides::runtime().unwrap();
    let frame = runtime
        .frame(Some(isomer_slides::SLIDE_DECK_FRAME))
        .unwrap();
    let mut golden = corpus().cases[0].golden.clone().unwrap();
    golden["body"][0]["body"][0]["subtitle"] = Value::from("Not a field");
    let messages: Vec<String> = runtime
        .validate(&golden)
        .errors
        .iter()
        .map(isomer_sdk::format_validation_error)
        .collect();
    assert_eq!(
        messages,
        [
            "body[0].body[0] (in slideTitle) has unrecognized key(s): subtitle; its fields are eyebrow, title, tagline, definition, aside, size"
        ]
    );
    let mut golden = corpus().cases[0].golden.clone().unwrap();
    golden["body"][0]["body"][0]
        .as_object_mut()
        .unwrap()
        .remove("title");
    assert!(!runtime.validate(&golden).valid);
    let body = golden["body"].as_array().unwrap();
    let two_frames = [body[0].clone(), body[0].clone()];
    assert_eq!(frame.validate_body(&two_frames).len(), 1);
}

#[test]
fn prompt_txt_is_the_prompt_the_harness_builds() {
    let replayed =
        report_command::replay_corpus(Path::new(CORPUS)).unwrap_or_else(|m| panic!("{m}"));
    if let Err(mismatch) = replayed.prompt_check {
        panic!(
            "{mismatch}\nregenerate it: cargo run -p isomer-slides --bin isomer-report -- --print-prompt > corpus/slides/prompt.txt"
        );
    }
    // The baseline's record holds the hash of the prompt the run was handed (the unit
    // tests of `isomer_evals::baseline`), and the replay matches the committed baseline
    // (`the_replayed_run_matches_the_committed_baseline`).
}

#[test]
fn replaying_twice_gives_identical_reports() {
    let first = report_command::replay_corpus(Path::new(CORPUS)).unwrap_or_else(|m| panic!("{m}"));
    let second = report_command::replay_corpus(Path::new(CORPUS)).unwrap_or_else(|m| panic!("{m}"));
    assert_eq!(
        serde_json::to_string(&first.baseline.report).unwrap(),
        serde_json::to_string(&second.baseline.report).unwrap()
    );
    assert_eq!(first.baseline, second.baseline);
}

#[test]
fn the_replayed_run_matches_the_committed_baseline() {
    let replayed =
        report_command::replay_corpus(Path::new(CORPUS)).unwrap_or_else(|m| panic!("{m}"));
    let snapshots = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots");
    let moved =
        isomer_evals::harness::moved_snapshots("slides", Path::new(snapshots), &replayed.baseline);
    assert_eq!(
        moved,
        Vec::<String>::new(),
        "the report command's replay differs from the gate's baseline (diff on stderr)"
    );
}

mod command {
    //! The report command as a user runs it: arguments, exit status, output.

    use std::fs;
    use std::path::Path;
    use std::process::{Command, Output};

    use tempfile::TempDir;

    fn run(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_isomer-report"))
            .args(args)
            .output()
            .expect("the report command runs")
    }

    /// A reader that closes the pipe before the command writes (`| head`) ends
    /// nothing early: no panic, status 0 for the committed corpus, stderr empty.
    #[test]
    fn a_closed_stdout_pipe_is_not_an_error() {
        for args in [&["--json"][..], &["--print-prompt"], &[]] {
            let mut child = Command::new(env!("CARGO_BIN_EXE_isomer-report"))
                .args(args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("the report command starts");
            drop(child.stdout.take());
            let output = child.wait_with_output().unwrap();
            assert_eq!(stderr(&output), "", "{args:?}");
            assert_eq!(output.status.code(), Some(0), "{args:?}");
        }
    }

    fn stderr(output: &Output) -> String {
        String::from_utf8(output.stderr.clone()).unwrap()
    }

    /// A one-case corpus (`heading`) with its answer, prompt and judgment
    /// recorded, in a fresh directory under cargo's per-target temp dir:
    /// `isomer_report/<name>-<random>`, unique to this call (two `cargo test`
    /// runs at once must not share it), removed when the returned guard drops.
    fn recorded_corpus(name: &str) -> TempDir {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("isomer_report");
        fs::create_dir_all(&base).unwrap();
        let scratch = tempfile::Builder::new()
            .prefix(&format!("{name}-"))
            .tempdir_in(base)
            .unwrap();
        let dir = scratch.path().to_path_buf();
        fs::create_dir_all(dir.join("answers")).unwrap();
        let answer = r#"{"type":"view","title":"Settlement","body":[{"type":"slideFrame","brand":"Ledger","body":[{"type":"slideStatement","text":"Refunds settle **nightly**."}]}]}"#;
        fs::write(
            dir.join("corpus.json"),
            format!(
                r#"{{"provenance": {{"author": "test"}}, "cases": [{{"id": "heading", "prompt": "One sentence: refunds settle nightly.", "golden": {answer}, "expected": ["slideStatement"]}}]}}"#
            ),
        )
        .unwrap();
        fs::write(dir.join("answers/heading.0.txt"), answer).unwrap();
        fs::write(
            dir.join("prompt.txt"),
            super::report_command::slides_prompt().unwrap(),
        )
        .unwrap();
        let runtime = isomer_slides::runtime().unwrap();
        let rendered = isomer_evals::EvalRuntime::render_text(
            &runtime,
            &serde_json::from_str(answer).unwrap(),
        )
        .unwrap();
        let judgments = serde_json::json!({
            "provenance": {"judge": "test"},
            "judgments": [{"id": "heading", "verdict": "yes", "rendered": rendered}]
        });
        fs::write(dir.join("judgments.json"), judgments.to_string()).unwrap();
        scratch
    }

    #[test]
    fn a_matching_corpus_prints_the_report_and_exits_zero() {
        let scratch = recorded_corpus("matching");
        let dir = scratch.path().to_path_buf();
        let output = run(&["--corpus", dir.to_str().unwrap()]);
        assert_eq!(stderr(&output), "");
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            "cases             1\nparsed            1 (100%)\nvalid             1 (100%)\nvalid after retry 1 (100%)\nmean selection F1 1.00\nanswerability     yes 1 / partial 0 / no 0\nexpected hits     1 / 1 (100%)\nfits_frame        1 / 1 (100%)\n\nlatency and tokens: not measured in replay\n"
        );
    }

    /// `--html=FILE` works as `--corpus=DIR` does (it was an unknown argument).
    #[test]
    fn html_takes_its_file_after_an_equals_sign() {
        let scratch = recorded_corpus("html-equals");
        let dir = scratch.path().to_path_buf();
        let page = dir.join("report.html");
        let output = run(&[
            &format!("--html={}", page.display()),
            "--corpus",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(stderr(&output), "");
        assert_eq!(output.status.code(), Some(0));
        let html = fs::read_to_string(&page).unwrap();
        // The slides gate's floors decide the case: it passes, so it is collapsed.
        assert!(html.contains("<details class=\"case passed\" id=\"case-heading\"><summary>"));
    }

    #[test]
    fn json_prints_the_eval_report() {
        let scratch = recorded_corpus("json");
        let dir = scratch.path().to_path_buf();
        let output = run(&["--json", &format!("--corpus={}", dir.display())]);
        assert_eq!(output.status.code(), Some(0));
        let report: isomer_evals::EvalReport = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report.totals.cases, 1);
        assert_eq!(report.results[0].case_id, "heading");
    }

    #[test]
    fn missing_recordings_and_stale_judgments_exit_one() {
        let scratch = recorded_corpus("drifted");
        let dir = scratch.path().to_path_buf();
        fs::remove_file(dir.join("answers/heading.0.txt")).unwrap();
        let output = run(&["--corpus", dir.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(
            stderr(&output),
            format!(
                "\nin {}:\nmissing recordings (strict replay answers them with empty text): answers/heading.0.txt, answers/heading.1.txt\n\nthe recordings no longer match the harness; re-record them (see corpus/slides/README.md)\n",
                dir.display()
            )
        );

        let scratch = recorded_corpus("stale");
        let dir = scratch.path().to_path_buf();
        fs::write(
            dir.join("judgments.json"),
            r#"{"provenance": {}, "judgments": [{"id": "heading", "verdict": "no", "rendered": "an older rendering"}]}"#,
        )
        .unwrap();
        fs::write(dir.join("prompt.txt"), "an older prompt\n").unwrap();
        let output = run(&["--corpus", dir.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(1));
        let stderr = stderr(&output);
        assert!(
            stderr.starts_with(&format!(
                "\n{}: prompt.txt differs from the prompt the harness builds at line 1, column 1: built \"# View authoring\", recorded \"an older prompt\"",
                dir.display()
            )),
            "{stderr}"
        );
        assert!(
            stderr.ends_with(&format!(
                "\n\nin {}:\nverdicts given for another text rendering (re-judge them): heading\n\nthe recordings no longer match the harness; re-record them (see corpus/slides/README.md)\n",
                dir.display()
            )),
            "{stderr}"
        );
    }

    /// The whole stderr of a refused command line: clap's `error:` line, the short usage
    /// when clap gives one, and the pointer to `--help`; never the whole help.
    fn refused(error: &str, usage: Option<&str>) -> String {
        match usage {
            Some(usage) => {
                format!("error: {error}\n\nUsage: {usage}\n\nFor more information, try '--help'.\n")
            }
            None => format!("error: {error}\n\nFor more information, try '--help'.\n"),
        }
    }

    #[test]
    fn bad_arguments_and_directories_exit_two_with_a_reason() {
        let cases: [(&[&str], String); 9] = [
            (
                &["--verbose"],
                refused(
                    "unexpected argument '--verbose' found\n\n  tip: a similar argument exists: '--version'",
                    Some("isomer-report --version"),
                ),
            ),
            (
                &["--corpus"],
                refused(
                    "a value is required for '--corpus <DIR>' but none was supplied",
                    None,
                ),
            ),
            (
                &["--corpus", "a", "--corpus", "b"],
                refused(
                    "the argument '--corpus <DIR>' cannot be used multiple times",
                    Some("isomer-report [OPTIONS]"),
                ),
            ),
            // An empty value is no value, given after the flag or after `=`.
            (
                &["--html", ""],
                refused(
                    "a value is required for '--html <FILE>' but none was supplied",
                    None,
                ),
            ),
            (
                &["--html="],
                refused(
                    "a value is required for '--html <FILE>' but none was supplied",
                    None,
                ),
            ),
            (
                &["--corpus="],
                refused(
                    "a value is required for '--corpus <DIR>' but none was supplied",
                    None,
                ),
            ),
            (
                &["--html=a.html", "--html", "b.html"],
                refused(
                    "the argument '--html <FILE>' cannot be used multiple times",
                    Some("isomer-report [OPTIONS]"),
                ),
            ),
            (
                &["--json=yes"],
                refused(
                    "unexpected value 'yes' for '--json' found; no more were expected",
                    Some("isomer-report --json"),
                ),
            ),
            // The prompt is the same for every corpus: another option with it is a mistake.
            (
                &["--print-prompt", "--corpus", "corpus/slides"],
                refused(
                    "the argument '--print-prompt' cannot be used with '--corpus <DIR>'",
                    Some("isomer-report --print-prompt"),
                ),
            ),
        ];
        for (args, expected) in cases {
            let output = run(args);
            assert_eq!(stderr(&output), expected, "{args:?}");
            assert_eq!(output.status.code(), Some(2), "{args:?}");
            assert!(output.stdout.is_empty(), "{args:?}");
        }

        let missing = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-such-corpus");
        let output = run(&["--corpus", missing.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            format!(
                "error: the corpus at {0} does not load:\n{0}: is not a corpus directory (expected a directory holding corpus.json)\n",
                missing.display()
            )
        );

        let scratch = recorded_corpus("empty");
        let dir = scratch.path().to_path_buf();
        fs::write(
            dir.join("corpus.json"),
            r#"{"provenance": {"author": "test"}, "cases": []}"#,
        )
        .unwrap();
        fs::remove_file(dir.join("answers/heading.0.txt")).unwrap();
        fs::remove_file(dir.join("judgments.json")).unwrap();
        let output = run(&["--corpus", dir.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            format!(
                "error: the corpus at {} has no cases: its corpus.json `cases` array is empty\n",
                dir.display()
            )
        );
        drop(scratch);

        let scratch = recorded_corpus("broken");
        let dir = scratch.path().to_path_buf();
        fs::write(dir.join("answers/ghost.0.txt"), "{}").unwrap();
        let output = run(&["--corpus", dir.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            stderr(&output),
            format!(
                "error: the corpus at {0} does not load:\n{0}/answers/ghost.0.txt: records an answer for case \"ghost\", which corpus.json does not have\n",
                dir.display()
            )
        );
    }

    #[test]
    fn help_version_and_print_prompt_exit_zero() {
        let output = run(&["--help"]);
        assert_eq!(stderr(&output), "");
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            "\
Replays a recorded corpus against the slides pack and prints the eval report.

Usage: isomer-report [OPTIONS]

Options:
      --corpus <DIR>            The corpus directory [default: corpus/slides of this repository]
      --json                    Print the EvalReport as JSON instead of the text report
      --html <FILE>             Also write the HTML report of the run to FILE
      --print-prompt            Print the prompt the harness builds for the slides pack and exit
      --compare <RUN> <RUN>...  Compare run files of one suite, each against the first
      --merge <RUN>...          Merge the run files of the shards of one run
  -o, --output <FILE>           With --merge, write the merged run file to FILE
  -h, --help                    Print help
  -V, --version                 Print version

Exit status:
  0  the recordings match the harness
  1  prompt.txt differs, recordings are missing or judgments are stale (the report is still printed)
  2  a bad argument, a corpus that does not load or has no cases, or an HTML file that cannot be written

With --compare (--html FILE writes the comparison page): 0; 1 when a case that passed in
the first run file fails in a later one; 2 when a run file does not read or the files do
not compare.
With --merge (--json prints the merged run file): 0; 1 when the merged run misses a suite
floor or a case ran in no shard; 2 when a run file does not read, the shards do not merge
or the output cannot be written.
"
        );
        // `-h` is the same help.
        assert_eq!(run(&["-h"]).stdout, run(&["--help"]).stdout);

        for flag in ["--version", "-V"] {
            let output = run(&[flag]);
            assert_eq!(stderr(&output), "", "{flag}");
            assert_eq!(output.status.code(), Some(0), "{flag}");
            assert_eq!(
                String::from_utf8(output.stdout).unwrap(),
                concat!("isomer-report ", env!("CARGO_PKG_VERSION"), "\n"),
                "{flag}"
            );
        }

        let output = run(&["--print-prompt"]);
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            super::report_command::slides_prompt().unwrap()
        );
    }
}
