//! Runs the built slides gate (`tests/slides_eval.rs`) as cargo, nextest and a person do,
//! and asserts its lines exactly (after datatest-stable's `tests/integration.rs`). Timings
//! are masked as `<t>`. The gate's binary is located by asking cargo to build it
//! (`--no-run --message-format=json`), a no-op once `cargo test` has built it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

#[path = "../../../isomer-evals/tests/gate_support/mod.rs"]
mod gate_support;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("slides_eval", Path::new(MANIFEST_DIR)))
}

fn run(args: &[&str], recordings: Option<&Path>) -> Output {
    let mut command = Command::new(gate());
    command
        .args(args)
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove("ISOMER_EVAL_RECORDINGS_SLIDES");
    if let Some(dir) = recordings {
        command.env("ISOMER_EVAL_RECORDINGS_SLIDES", dir);
    }
    command.output().expect("the gate runs")
}

/// Stdout, with `finished in 0.12s` and `"exec_time": 0.01` masked.
fn stdout(output: &Output) -> String {
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    let mut masked: Vec<String> = text
        .split('\n')
        .map(|line| {
            if let Some(at) = line.find("finished in ") {
                format!("{}finished in <t>", &line[..at])
            } else if let Some(at) = line.find("\"exec_time\": ") {
                format!("{}\"exec_time\": <t> }}", &line[..at])
            } else {
                line.to_owned()
            }
        })
        .collect();
    if masked.last().is_some_and(String::is_empty) {
        masked.pop();
    }
    masked.join("\n")
}

/// The case ids of corpus/slides, in file order.
fn case_ids() -> Vec<String> {
    let text =
        std::fs::read_to_string(Path::new(MANIFEST_DIR).join("../../corpus/slides/corpus.json"))
            .unwrap();
    let corpus: serde_json::Value = serde_json::from_str(&text).unwrap();
    corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn list_prints_every_case_then_totals() {
    let output = run(&["--list"], None);
    assert!(output.status.success());
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 50);
    assert_eq!(lines[0], "slides::ledger-title: test");
    assert_eq!(lines[18], "slides::events-stat: test");
    assert_eq!(lines[26], "slides::assistant-exchange: test");
    assert_eq!(lines[49], "slides::totals: test");
    let expected: Vec<String> = case_ids()
        .iter()
        .map(|id| format!("slides::{id}: test"))
        .chain(["slides::totals: test".to_owned()])
        .collect();
    assert_eq!(lines, expected);
}

#[test]
fn exact_runs_one_case() {
    let output = run(&["--exact", "slides::events-stat"], None);
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "\nrunning 1 test\ntest slides::events-stat ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 49 filtered out; finished in <t>\n"
    );
}

#[test]
fn json_format_reports_each_event() {
    let output = run(
        &["--format", "json", "--exact", "slides::retro-takeaways"],
        None,
    );
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        r#"{ "type": "suite", "event": "started", "test_count": 1 }
{ "type": "test", "event": "started", "name": "slides::retro-takeaways" }
{ "type": "test", "name": "slides::retro-takeaways", "event": "ok" }
{ "type": "suite", "event": "ok", "passed": 1, "failed": 0, "ignored": 0, "measured": 0, "filtered_out": 49, "exec_time": <t> }"#
    );
}

/// The full-scan guard over the real corpus: in a copy of its recordings where every
/// other case's answer files are directories (reading one fails loudly), `--exact` on one
/// case passes, so it opened none of them; the same copy fails a neighbour, so the trap
/// is live.
#[test]
fn exact_reads_no_other_case_answers() {
    let source = Path::new(MANIFEST_DIR).join("../../corpus/slides");
    let copy = std::env::temp_dir().join(format!("isomer-slides-guard-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(copy.join("answers")).unwrap();
    for file in ["prompt.txt", "judgments.json", "answers/events-stat.0.txt"] {
        std::fs::copy(source.join(file), copy.join(file)).unwrap();
    }
    for id in case_ids().iter().filter(|id| *id != "events-stat") {
        for attempt in [0, 1] {
            std::fs::create_dir_all(copy.join(format!("answers/{id}.{attempt}.txt"))).unwrap();
        }
    }
    let exact = run(&["--exact", "slides::events-stat"], Some(&copy));
    let neighbour = run(&["--exact", "slides::quarter-kpis"], Some(&copy));
    std::fs::remove_dir_all(&copy).unwrap();

    assert!(exact.status.success(), "{}", stdout(&exact));
    assert!(stdout(&exact).contains("test slides::events-stat ... ok\n"));
    assert_eq!(neighbour.status.code(), Some(101));
    let expected = format!(
        "---- slides::quarter-kpis ----\ncase `quarter-kpis` did not complete: generate attempt 0 failed: {}: cannot be read: Is a directory (os error 21)\n",
        copy.join("answers/quarter-kpis.0.txt").display()
    );
    assert!(
        stdout(&neighbour).contains(&expected),
        "{}",
        stdout(&neighbour)
    );
}

/// A regressed recording of one case (an invented node type, no retry recorded) fails
/// that case's trial with every floor it misses, the missing retry and the slides
/// runtime's own validation error.
#[test]
fn a_regressed_answer_fails_its_case_by_name() {
    let source = Path::new(MANIFEST_DIR).join("../../corpus/slides");
    let copy = std::env::temp_dir().join(format!("isomer-slides-regressed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(copy.join("answers")).unwrap();
    for file in ["prompt.txt", "judgments.json"] {
        std::fs::copy(source.join(file), copy.join(file)).unwrap();
    }
    std::fs::write(
        copy.join("answers/events-stat.0.txt"),
        "{\"type\":\"view\",\"body\":[{\"type\":\"sparkline\",\"values\":[1,2]}]}\n",
    )
    .unwrap();
    let output = run(&["--exact", "slides::events-stat"], Some(&copy));
    std::fs::remove_dir_all(&copy).unwrap();
    assert_eq!(output.status.code(), Some(101));
    assert_eq!(
        stdout(&output),
        "
running 1 test
test slides::events-stat ... FAILED

failures:

---- slides::events-stat ----
case `events-stat` is below its floors (valid_after_retry, min_selection_f1, expected_hit, no_invented_types):
  valid_after_retry: false, floor true
  min_selection_f1: none (no valid composition), floor >= 0.66
  expected_hit: false, floor true
  no_invented_types: [sparkline], floor []
missing recordings (strict replay answers them with empty text): answers/events-stat.1.txt
first attempt's validation errors (1):
  answers/events-stat.0.txt:1:32: body[0].type must be one of: slideFrame, slideHeading, slideStatement, slideQuote, slideTitle, slideSection, slideAgenda, slideClosing, slideSource, slideSplit, slideStack, slideWindow, slideList, slideBulletList, slideDefinitions, slideColumns, slideRoadmap, slideTimeline, slidePipeline, slideSequence, slideLanes, slideGraph, slideFanout, slideTree, slideLayers, slideTerritoryGroup, slideQuadrant, slideStat, slideStats, slideDelta, slideBars, slideMatrix, slideTable, slideCode, slideDiff, slideCommand, slideTranscript, slideRender, slideAnnotatedRender, slideRenderGrid


failures:
    slides::events-stat

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 49 filtered out; finished in <t>
"
    );
}

/// One copy of `corpus/slides` with five faults at once: a case without a judgment, a
/// judgment given for an older rendering, an invalid first answer whose retry is not
/// recorded, an answer that is not UTF-8, and a fenced answer cut off before its closing
/// fence. The report command and the gate replay it
/// through the one recordings store: both list the same faults in the same words (with
/// file and line:column) and print the same report.
#[test]
fn the_report_command_and_the_gate_print_the_same_report_of_a_faulty_corpus() {
    let source = Path::new(MANIFEST_DIR).join("../../corpus/slides");
    let copy = std::env::temp_dir().join(format!("isomer-slides-faulty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(copy.join("answers")).unwrap();
    for file in ["corpus.json", "prompt.txt"] {
        std::fs::copy(source.join(file), copy.join(file)).unwrap();
    }
    for entry in std::fs::read_dir(source.join("answers")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), copy.join("answers").join(entry.file_name())).unwrap();
    }
    let ids = case_ids();
    let (unjudged, stale, unretried, latin1, cut) = (&ids[0], &ids[1], &ids[2], &ids[3], &ids[4]);
    let judgments = std::fs::read_to_string(source.join("judgments.json")).unwrap();
    let mut judgments: serde_json::Value = serde_json::from_str(&judgments).unwrap();
    let list = judgments["judgments"].as_array_mut().unwrap();
    list.retain(|judgment| judgment["id"] != unjudged.as_str());
    for judgment in list.iter_mut() {
        if judgment["id"] == stale.as_str() {
            judgment["rendered"] = "an older rendering".into();
        }
    }
    std::fs::write(copy.join("judgments.json"), judgments.to_string()).unwrap();
    std::fs::write(
        copy.join(format!("answers/{unretried}.0.txt")),
        "{\"type\":\"view\",\"body\":[{\"type\":\"sparkline\"}]}",
    )
    .unwrap();
    std::fs::write(
        copy.join(format!("answers/{latin1}.0.txt")),
        b"{\"type\":\"view\",\n \"title\":\"Caf\xe9\"}",
    )
    .unwrap();

    std::fs::write(
        copy.join(format!("answers/{cut}.0.txt")),
        "Here it is:\n```json\n{\"type\":\"view\",",
    )
    .unwrap();

    let report = Command::new(env!("CARGO_BIN_EXE_isomer-report"))
        .args(["--corpus", copy.to_str().unwrap()])
        .output()
        .expect("the report command runs");
    let gate = run(&["--exact", "slides::totals"], Some(&copy));
    std::fs::remove_dir_all(&copy).unwrap();

    assert_eq!(report.status.code(), Some(1));
    assert_eq!(gate.status.code(), Some(101));
    let mut missing = [
        format!("answers/{unretried}.1.txt"),
        format!("answers/{cut}.1.txt"),
    ];
    missing.sort();
    let mut unusable = [
        format!(
            "{}:2:14: is not UTF-8 text (first invalid byte here)",
            copy.join(format!("answers/{latin1}.0.txt")).display()
        ),
        format!(
            "{}:2:1: the code fence opened here is never closed: the answer is cut off at 3:16",
            copy.join(format!("answers/{cut}.0.txt")).display()
        ),
    ];
    unusable.sort();
    let findings = format!(
        "missing recordings (strict replay answers them with empty text): {}
cases without a verdict in judgments.json: {unjudged}
verdicts given for another text rendering (re-judge them): {stale}
recordings that cannot be used:
  {}
",
        missing.join(", "),
        unusable.join("\n  ")
    );
    let report_stderr = String::from_utf8(report.stderr).unwrap();
    assert_eq!(
        report_stderr,
        format!(
            "\nin {}:\n{findings}\nthe recordings no longer match the harness; re-record them (see corpus/slides/README.md)\n",
            copy.display()
        )
    );
    let gate_stdout = stdout(&gate);
    let totals = gate_stdout
        .split("---- slides::totals ----\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n\nfailures:").next())
        .expect("the totals failure message");
    assert!(totals.contains(&findings), "{totals}");
    let (_, gate_report) = totals
        .split_once("the report of this replay:\n")
        .expect("the gate prints the report of a faulty replay");
    // isomer-report prints the same report, then says that a replay measures no latency.
    let report_stdout = String::from_utf8(report.stdout).unwrap();
    assert_eq!(
        report_stdout,
        format!("{gate_report}\n\nlatency and tokens: not measured in replay\n")
    );
    // The report itself says what the faults did: two cases errored, one invalid.
    assert!(
        report_stdout.contains(&format!(
            "  {unjudged}: judge failed: judgments.json has no verdict for `{unjudged}`"
        )),
        "{report_stdout}"
    );
}
