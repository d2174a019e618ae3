//! `isomer-report --compare`: two real replays of the slides gate (`tests/slides_eval.rs`),
//! one of the recorded corpus and one of a copy whose `ci-pipeline` first answer was
//! changed into prose, written as run files by the gate's `totals` trial; the comparison
//! prints the axes side by side with their deltas, the case whose values differ and its
//! verdict change, in both directions, and `--html` writes the comparison page.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

#[path = "../../../isomer-evals/tests/gate_support/mod.rs"]
mod gate_support;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");
const REPORT: &str = env!("CARGO_BIN_EXE_isomer-report");

fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("slides_eval", Path::new(MANIFEST_DIR)))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Replays the gate's `totals` over `recordings` (the committed corpus when `None`),
/// copies the run file it writes to `to` and keeps its stderr beside it
/// (`<to>.stderr.txt`).
fn replay(recordings: Option<&Path>, runs: &Path, to: &Path) {
    let mut command = Command::new(gate());
    command
        .args(["--exact", "slides::totals"])
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove("ISOMER_EVAL_RECORD")
        .env_remove("ISOMER_EVAL_SHARD")
        .env_remove("ISOMER_EVAL_RECORDINGS_SLIDES")
        .env("ISOMER_EVAL_RUNS", runs);
    if let Some(dir) = recordings {
        command.env("ISOMER_EVAL_RECORDINGS_SLIDES", dir);
    }
    let output = command.output().expect("the gate runs");
    // The edited replay fails its floors; either way the run file is written.
    let stderr = text(&output.stderr);
    let written = stderr
        .lines()
        .find_map(|line| line.strip_prefix("slides: wrote the run file "))
        .unwrap_or_else(|| panic!("no run file named in:\n{stderr}"));
    std::fs::copy(written, to).unwrap();
    std::fs::write(to.with_extension("stderr.txt"), &stderr).unwrap();
}

/// A copy of `corpus/slides` in `to` whose `ci-pipeline` first answer is prose.
fn edited_corpus(to: &Path) {
    let from = Path::new(MANIFEST_DIR).join("../../corpus/slides");
    std::fs::create_dir_all(to.join("answers")).unwrap();
    for name in ["corpus.json", "judgments.json", "prompt.txt"] {
        std::fs::copy(from.join(name), to.join(name)).unwrap();
    }
    for entry in std::fs::read_dir(from.join("answers")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join("answers").join(entry.file_name())).unwrap();
    }
    std::fs::write(
        to.join("answers/ci-pipeline.0.txt"),
        "Sorry, I cannot draw that slide.\n",
    )
    .unwrap();
}

fn compare(args: &[&str], dir: &Path) -> Output {
    let mut all = vec!["--compare"];
    all.extend(args);
    Command::new(REPORT)
        .args(all)
        .current_dir(dir)
        .output()
        .expect("isomer-report runs")
}

/// The two run files, made once per test process: `recorded.json` and `edited.json`.
fn run_files() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let edited = dir.path().join("edited-corpus");
        edited_corpus(&edited);
        replay(
            None,
            &dir.path().join("runs-recorded"),
            &dir.path().join("recorded.json"),
        );
        replay(
            Some(&edited),
            &dir.path().join("runs-edited"),
            &dir.path().join("edited.json"),
        );
        dir
    })
    .path()
}

#[test]
fn a_one_case_change_prints_a_short_baseline_diff() {
    // The edited replay moved the committed baseline by one case: its stderr shows the
    // moved snapshots as short hunks, and the whole diff is written to a file it names.
    let stderr = std::fs::read_to_string(run_files().join("edited.stderr.txt")).unwrap();
    let diff: Vec<&str> = stderr
        .lines()
        .skip_while(|line| !line.starts_with("--- slides__report"))
        .filter(|line| {
            ["--- ", "+++ ", "@@", "+", "-", " "]
                .iter()
                .any(|start| line.starts_with(start))
        })
        .collect();
    assert!(
        diff.iter().any(|line| line.contains("ci-pipeline")),
        "{stderr}"
    );
    assert!(diff.len() < 60, "{} diff lines:\n{stderr}", diff.len());
    eprintln!("{} diff lines for a one-case change", diff.len());
}

#[test]
fn compare_prints_the_deltas_and_the_verdict_that_changed() {
    let dir = run_files();
    let output = compare(&["recorded.json", "edited.json"], dir);
    assert_eq!(text(&output.stderr), "");
    // A case that passed in the first file fails in the second.
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    insta::assert_snapshot!("compare_recorded_edited", stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "suite `slides`, 2 run files, deltas against the first:",
            "  recorded.json: recorded.json",
            "  edited.json: edited.json",
            "",
        ]
    );
    assert!(lines.contains(&"axis              recorded.json edited.json \u{394} edited.json"));
    assert!(lines.contains(&"parsed            1.00          0.98        -0.02"));
    assert!(lines.contains(&"cases passed      49 of 49      48 of 49    -1"));
    assert!(lines.contains(&"cases that differ (recorded.json \u{2192} edited.json):"));
    assert!(lines.contains(&"    verdict           passed \u{2192} failed"));
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "verdicts that changed against recorded.json:",
            "  edited.json: ci-pipeline passed \u{2192} failed",
        ]
    );

    // The other way round the case is fixed: no case got worse, so the status is 0.
    let output = compare(&["edited.json", "recorded.json"], dir);
    assert_eq!(output.status.code(), Some(0));
    let stdout = text(&output.stdout);
    assert!(
        stdout.ends_with(
            "verdicts that changed against edited.json:\n  recorded.json: ci-pipeline failed \u{2192} passed\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("\ncases passed      48 of 49    49 of 49      +1\n"),
        "{stdout}"
    );

    // A file compared with itself differs in nothing.
    let output = compare(&["recorded.json", "recorded.json"], dir);
    assert_eq!(output.status.code(), Some(0));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(
            "\ncases that differ: none\n\nverdicts that changed against recorded.json #1: none\n"
        ),
        "{stdout}"
    );
}

#[test]
fn compare_writes_one_page_of_cases_by_run_files() {
    let dir = run_files();
    let output = compare(
        &["recorded.json", "edited.json", "--html", "compare.html"],
        dir,
    );
    assert_eq!(output.status.code(), Some(1));
    let page = std::fs::read_to_string(dir.join("compare.html")).unwrap();
    assert!(page.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
    ));
    assert!(!page.contains("<script"));
    assert!(page.contains("<title>comparison of slides</title>"));
    // The matrix: the changed case's row is marked, each cell its verdict and a link.
    assert!(page.contains(
        "<tr class=\"changed\"><th><a href=\"#case-ci-pipeline\">ci-pipeline</a></th><td><a href=\"#case-ci-pipeline\"><span class=\"badge pass\">passed</span></a></td><td><a href=\"#case-ci-pipeline\"><span class=\"badge fail\">failed</span></a></td></tr>"
    ));
    // The changed case comes first, in the matrix and in the details.
    let matrix = page.split("<section id=\"matrix\">").nth(1).unwrap();
    assert!(
        matrix
            .split("<tbody>\n")
            .nth(1)
            .unwrap()
            .starts_with("<tr class=\"changed\"><th><a href=\"#case-ci-pipeline\">")
    );
    let details = page.split("<section id=\"cases\">").nth(1).unwrap();
    assert!(
        details
            .starts_with("<h2>Case details</h2>\n<section class=\"case\" id=\"case-ci-pipeline\">")
    );
    assert!(page.contains(
        "<li><span class=\"badge fail\">passed \u{2192} failed</span>edited.json: <a href=\"#case-ci-pipeline\">ci-pipeline</a></li>"
    ));
    assert!(page.contains("<tr class=\"differs\"><th>parsed</th><td>yes</td><td>no</td></tr>"));
    // Every link in the page leads to an element of the page.
    let ids: Vec<&str> = page
        .split(" id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    let links: Vec<&str> = page
        .split("href=\"#")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert_eq!(
        links
            .iter()
            .filter(|link| link.starts_with("case-"))
            .count(),
        49 * 3 + 1
    );
    for link in links {
        assert!(ids.contains(&link), "#{link} leads nowhere");
    }
    assert_eq!(ids.iter().filter(|id| id.starts_with("case-")).count(), 49);
}

#[test]
fn compare_refuses_what_it_cannot_compare() {
    let dir = run_files();
    let output = compare(&["recorded.json"], dir);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).starts_with(
            "error: 2 values required by '--compare <RUN> <RUN>...'; only 1 was provided"
        ),
        "{}",
        text(&output.stderr)
    );
    let output = compare(&["recorded.json", "missing.json"], dir);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).starts_with("error: cannot read the run file missing.json: "),
        "{}",
        text(&output.stderr)
    );
    let mut other: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("recorded.json")).unwrap()).unwrap();
    other["suite"] = "todo".into();
    let scratch = tempfile::tempdir().unwrap();
    std::fs::copy(
        dir.join("recorded.json"),
        scratch.path().join("recorded.json"),
    )
    .unwrap();
    std::fs::write(scratch.path().join("todo.json"), other.to_string()).unwrap();
    let output = compare(&["recorded.json", "todo.json"], scratch.path());
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "error: cannot compare recorded.json and todo.json: they are runs of different suites (`slides` and `todo`); compare runs of one suite\n"
    );
    assert_eq!(text(&output.stdout), "");
}
