//! The HTML report a gate writes under `ISOMER_EVAL_HTML=<dir>`: the `totals` trial of
//! each suite of the `eval_fixture_gate` binary (a single-shot and an agent suite over the
//! fixture corpora) writes `<dir>/<suite>.html`, and case trials write nothing. The
//! single-shot page is snapshotted whole; a regressed replay marks the missed floors and
//! the failing case.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod gate_support;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("eval_fixture_gate", Path::new(MANIFEST_DIR)))
}

/// Runs the gate with `args`, `ISOMER_EVAL_HTML` set to `html` and, when given, the
/// recordings of the `mini` suite replaced by `recordings`.
fn run(args: &[&str], html: &Path, recordings: Option<&Path>) -> Output {
    let mut command = Command::new(gate());
    command
        .args(args)
        .current_dir(MANIFEST_DIR)
        .env("INSTA_UPDATE", "no")
        .env("ISOMER_EVAL_HTML", html)
        .env_remove("ISOMER_EVAL_RECORDINGS_MINI");
    if let Some(recordings) = recordings {
        command.env("ISOMER_EVAL_RECORDINGS_MINI", recordings);
    }
    command.output().expect("the gate runs")
}

/// The page from `<body>` on (the head is the stylesheet).
fn body(page: &str) -> &str {
    &page[page.find("<body>").expect("a body")..]
}

/// The opening tag of each case's row, in page order.
fn case_rows(page: &str) -> Vec<&str> {
    page.match_indices("<details class=\"case ")
        .map(|(at, _)| {
            let row = &page[at..];
            &row[..row.find('>').unwrap() + 1]
        })
        .collect()
}

#[test]
fn totals_writes_the_page_of_its_suite_and_case_trials_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("reports");
    let output = run(&["--exact", "mini::good"], &html, None);
    assert!(output.status.success());
    assert!(!html.exists());

    let output = run(&["--exact", "mini::totals"], &html, None);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let file = html.join("mini.html");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.ends_with(&format!("mini: wrote {}\n", file.display())),
        "{stderr}"
    );
    let page = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        case_rows(&page),
        [
            "<details class=\"case passed\" id=\"case-good\">",
            "<details class=\"case passed\" id=\"case-retried\">",
            "<details class=\"case passed\" id=\"case-no-golden\">",
        ]
    );
    insta::assert_snapshot!("mini_page_body", body(&page));
}

/// cargo runs a test in its package's directory, so a relative `ISOMER_EVAL_HTML` is
/// taken from there; the line on stderr names the file by its absolute path.
#[test]
fn a_relative_directory_is_named_by_its_absolute_path() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(gate())
        .args(["--exact", "mini::totals"])
        .current_dir(dir.path())
        .env("INSTA_UPDATE", "no")
        .env("ISOMER_EVAL_HTML", "reports")
        .env("ISOMER_EVAL_RUNS", "runs")
        .env_remove("ISOMER_EVAL_RECORDINGS_MINI")
        .output()
        .expect("the gate runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let file = dir.path().join("reports").join("mini.html");
    assert!(file.is_file());
    // The run file first, then the page, each by its absolute path.
    let runs = dir.path().join("runs").join("mini");
    let stderr = String::from_utf8(output.stderr).unwrap();
    let (first, second) = stderr.split_once('\n').unwrap();
    let run_file = first
        .strip_prefix(&format!("mini: wrote the run file {}/run-", runs.display()))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(run_file.ends_with("Z.json"), "{stderr}");
    assert_eq!(second, format!("mini: wrote {}\n", file.display()));
}

#[test]
fn a_file_in_place_of_the_directory_is_named_as_the_fault() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let output = run(&["--exact", "mini::totals"], &file, None);
    assert!(!output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains(&format!(
            "ISOMER_EVAL_HTML: cannot create the directory {} for the HTML report: ",
            file.display()
        )),
        "{stdout}"
    );
    assert!(!stdout.contains("mini.html"), "{stdout}");
}

#[test]
fn a_regressed_replay_marks_missed_floors_and_the_failing_case() {
    let dir = tempfile::tempdir().unwrap();
    let regressed = Path::new(MANIFEST_DIR).join("tests/fixtures/eval/mini-regressed");
    let output = run(&["--exact", "mini::totals"], dir.path(), Some(&regressed));
    assert!(!output.status.success());
    let page = std::fs::read_to_string(dir.path().join("mini.html")).unwrap();
    assert_eq!(
        case_rows(&page),
        [
            "<details class=\"case failed\" id=\"case-good\" open>",
            "<details class=\"case failed\" id=\"case-no-golden\" open>",
            "<details class=\"case passed\" id=\"case-retried\">",
        ]
    );
    // The index: failures first, each a link to its case's row.
    assert!(page.contains(
        "<nav class=\"index\" id=\"index\"><h2>Index</h2><p class=\"lede\">3 cases, 2 failing (first)</p><ol><li class=\"failed\"><a href=\"#case-good\">good</a></li><li class=\"failed\"><a href=\"#case-no-golden\">no-golden</a></li><li class=\"passed\"><a href=\"#case-retried\">retried</a></li></ol></nav>"
    ));
    // A case floor's miss links to its case; the invalid list of the text report too.
    assert!(page.contains(
        "<li class=\"floor missed\"><span class=\"badge fail\">missed</span><code>no_invented_types</code> (every case)<ul class=\"problems\"><li><a href=\"#case-good\">good: no_invented_types: [sparkline], floor []</a></li></ul></li>"
    ));
    assert!(page.contains(
        "invalid:\n  <a href=\"#case-good\">good</a>: body[0] unknown node type &quot;sparkline&quot;\n  <a href=\"#case-retried\">retried</a>: expected value at line 1 column 1\n"
    ));
    // Every link of the page resolves to an element of the page.
    for (at, _) in page.match_indices("href=\"#") {
        let target = &page[at + 7..];
        let target = &target[..target.find('"').unwrap()];
        assert!(page.contains(&format!("id=\"{target}\"")), "{target}");
    }
    // An invalid first attempt is not measured (not zero bytes); a retry whose recording
    // is missing is named so, not shown as a `not JSON` attempt.
    assert!(page.contains(
        "<dt>bytes</dt><dd>62 sent, validated not measured (the first attempt is invalid)</dd><dt>size vs golden</dt><dd>not measured (the first attempt is invalid)</dd>"
    ));
    assert!(page.contains(
        "<div class=\"attempt\"><h4>retry (attempt 1) <span class=\"badge note\">missing recording</span></h4><p class=\"none\">no recording: answers/good.1.txt is missing</p></div>"
    ));
    let good = &page[page.find("id=\"case-good\"").unwrap()..];
    let good = &good[..good.find("</details>").unwrap()];
    assert!(!good.contains("not JSON"), "{good}");
    // The types a selection F1 missed are listed under it.
    assert!(page.contains(
        "<dt>selection</dt><dd>F1 0.67 (precision 1.00, recall 0.50)</dd><dt>missing types</dt><dd>stat</dd>"
    ));
    assert!(page.contains(
        "<li class=\"floor missed\"><span class=\"badge fail\">missed</span><code>max_answerability_no = 0</code> (suite)<ul class=\"problems\"><li>max_answerability_no: 1, floor &lt;= 0</li></ul></li>"
    ));
    assert!(page.contains(
        "<li class=\"floor met\"><span class=\"badge pass\">met</span><code>max_size_vs_golden = 1.5</code> (every case)</li>"
    ));
    // The totals beside the committed baseline: the moved rows are marked.
    assert!(
        page.contains("<tr class=\"moved\"><th>valid</th><td>1 (33%)</td><td>2 (67%)</td></tr>")
    );
}

#[test]
fn an_agent_suite_gets_a_page_with_each_run_and_its_tool_calls() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(&["--exact", "mini_agent::totals"], dir.path(), None);
    assert!(output.status.success());
    let page = std::fs::read_to_string(dir.path().join("mini_agent.html")).unwrap();
    assert!(page.contains("<title>mini_agent: agent eval report</title>"));
    let corpus: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(MANIFEST_DIR).join("tests/fixtures/eval/mini-agent/corpus.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        case_rows(&page).len(),
        corpus["cases"].as_array().unwrap().len()
    );
    assert!(page.contains("<h4>run 0 "));
}
