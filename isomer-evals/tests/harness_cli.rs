//! Runs the built `eval_fixture_gate` binary the way cargo, nextest and a person do, and
//! asserts its output line by line (after datatest-stable's `tests/integration.rs` and
//! libtest-mimic's transcript tests). Timings are masked as `<t>`.
//!
//! The binary is located by asking cargo to build the target (`--no-run
//! --message-format=json`), which is a no-op when `cargo test` already built it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod gate_support;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The path of the gate binary, built once per test process.
fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("eval_fixture_gate", Path::new(MANIFEST_DIR)))
}

/// Runs the gate with `args` (and `envs`), accepting nothing.
fn run(args: &[&str], envs: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(gate());
    command
        .args(args)
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove("ISOMER_EVAL_RECORDINGS_MINI");
    for (key, value) in envs {
        command.env(key, value);
    }
    command.output().expect("the gate runs")
}

/// Stdout with every `finished in 0.12s` / `"exec_time": 0.0123` masked.
fn stdout(output: &Output) -> String {
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    text.lines()
        .map(|line| {
            if let Some(at) = line.find("finished in ") {
                format!("{}finished in <t>", &line[..at])
            } else if let Some(at) = line.find("\"exec_time\": ") {
                format!("{}\"exec_time\": <t> }}", &line[..at])
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn regressed() -> PathBuf {
    Path::new(MANIFEST_DIR).join("tests/fixtures/eval/mini-regressed")
}

#[test]
fn list_names_one_trial_per_case_then_totals() {
    let output = run(&["--list"], &[]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "mini::good: test\nmini::retried: test\nmini::no-golden: test\nmini::totals: test\nmini_agent::open-count: test\nmini_agent::totals: test"
    );
    // nextest lists the ignored set separately; there is none.
    let output = run(&["--list", "--format", "terse", "--ignored"], &[]);
    assert_eq!(stdout(&output), "");
}

#[test]
fn exact_runs_one_case() {
    let output = run(&["--exact", "mini::good"], &[]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 1 test\ntest mini::good ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 5 filtered out; finished in <t>\n"
    );
}

#[test]
fn exact_with_an_unknown_name_runs_nothing() {
    let output = run(&["--exact", "mini::nope"], &[]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 6 filtered out; finished in <t>\n"
    );
}

#[test]
fn substring_filter_and_skip_behave_as_in_libtest() {
    let output = run(
        &[
            "mini::",
            "--skip",
            "totals",
            "--skip",
            "no-golden",
            "--test-threads",
            "1",
        ],
        &[],
    );
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 2 tests\ntest mini::good    ... ok\ntest mini::retried ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 4 filtered out; finished in <t>\n"
    );
}

#[test]
fn the_whole_gate_passes_on_the_committed_recordings() {
    let output = run(&["--test-threads", "1"], &[]);
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "\nrunning 6 tests\ntest mini::good             ... ok\ntest mini::retried          ... ok\ntest mini::no-golden        ... ok\ntest mini::totals           ... ok\ntest mini_agent::open-count ... ok\ntest mini_agent::totals     ... ok\n\ntest result: ok. 6 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in <t>\n"
    );
}

/// The gate holds a single-shot suite and an agent suite (`isomer_evals::main!(mini,
/// mini_agent)`): `--exact` runs a trial of either kind, and counts the other five trials
/// of the target as filtered out.
#[test]
fn one_target_runs_single_shot_and_agent_suites() {
    let output = run(&["--exact", "mini_agent::open-count"], &[]);
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "\nrunning 1 test\ntest mini_agent::open-count ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 5 filtered out; finished in <t>\n"
    );
    let output = run(&["mini_agent::", "--test-threads", "1"], &[]);
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "\nrunning 2 tests\ntest mini_agent::open-count ... ok\ntest mini_agent::totals     ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 4 filtered out; finished in <t>\n"
    );
}

#[test]
fn json_format_reports_each_event() {
    let output = run(&["--format", "json", "--exact", "mini::retried"], &[]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        r#"{ "type": "suite", "event": "started", "test_count": 1 }
{ "type": "test", "event": "started", "name": "mini::retried" }
{ "type": "test", "name": "mini::retried", "event": "ok" }
{ "type": "suite", "event": "ok", "passed": 1, "failed": 0, "ignored": 0, "measured": 0, "filtered_out": 5, "exec_time": <t> }"#
    );
}

const GOOD_REGRESSED: &str = "case `good` is below its floors (valid_after_retry, min_selection_f1, expected_hit, no_invented_types):
  valid_after_retry: false, floor true
  min_selection_f1: none (no valid composition), floor >= 0.6
  expected_hit: false, floor true
  no_invented_types: [sparkline], floor []
missing recordings (strict replay answers them with empty text): answers/good.1.txt
first attempt's validation errors (1):
  answers/good.0.txt:1:24: body[0] unknown node type \"sparkline\"";

#[test]
fn a_failing_case_names_every_axis_below_its_floor() {
    let output = run(
        &["--exact", "mini::good"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &regressed())],
    );
    assert_eq!(output.status.code(), Some(101));
    assert_eq!(
        stdout(&output),
        format!(
            "\nrunning 1 test\ntest mini::good ... FAILED\n\nfailures:\n\n---- mini::good ----\n{GOOD_REGRESSED}\n\n\nfailures:\n    mini::good\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 5 filtered out; finished in <t>\n"
        )
    );
    // The summary line again on stderr, where cargo-nextest reads a failure's message.
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!("Error: {}\n", GOOD_REGRESSED.lines().next().unwrap())
    );
}

#[test]
fn a_failing_case_reads_well_in_json() {
    let output = run(
        &["--format", "json", "--exact", "mini::good"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &regressed())],
    );
    assert_eq!(output.status.code(), Some(101));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let event: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
    assert_eq!(event["name"], "mini::good");
    assert_eq!(event["event"], "failed");
    assert_eq!(
        event["stdout"],
        format!("Error: \"{GOOD_REGRESSED}\"\n").as_str()
    );
}

#[test]
fn a_judged_no_fails_answerability_not_no() {
    let output = run(
        &["--exact", "mini::no-golden"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &regressed())],
    );
    assert_eq!(output.status.code(), Some(101));
    assert!(
        stdout(&output).contains(
            "---- mini::no-golden ----\ncase `no-golden` is below its floors (answerability_not_no):\n  answerability_not_no: no, floor not no\n\n"
        ),
        "{}",
        stdout(&output)
    );
}

#[test]
fn totals_fails_on_suite_floors_missing_recordings_and_a_moved_baseline() {
    let output = run(
        &["--exact", "mini::totals"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &regressed())],
    );
    assert_eq!(output.status.code(), Some(101));
    let text = stdout(&output);
    let message = text
        .split("---- mini::totals ----\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n\nfailures:").next())
        .expect("the totals failure message");
    assert_eq!(
        message,
        "suite `mini` is below its floors (min_valid_ratio, min_valid_after_retry_ratio, min_mean_selection_f1, max_answerability_no):
  min_valid_ratio: 0.3333, floor >= 0.6
  min_valid_after_retry_ratio: 0.6667, floor >= 1
  min_mean_selection_f1: 0.6667, floor >= 0.8
  max_answerability_no: 1, floor <= 0
missing recordings (strict replay answers them with empty text): answers/good.1.txt
the baseline moved:
  mini__report: results[0].validity.valid: true -> false, results[0].validity.validAfterRetry: true -> false, results[0].validity.errors: [] -> [\"body[0] unknown node type \\\"sparkline\\…, results[0].validity.composition: {\"type\":\"view\",\"body\":[{\"type\":\"stat\",\"l… -> absent, results[0].selection: {\"precision\":1.0,\"recall\":1.0,\"f1\":1.0,\"… -> absent, results[0].expected.hit: true -> false, results[0].expected.found: [\"stat\"] -> [], results[0].payload.rawBytes: 67 -> 62 (+11 more)
  mini__report_text: the formatted report differs
  mini__baseline: missingRecordings: [] -> [{\"caseId\":\"good\",\"attempt\":1}]
fix the recordings first (accepting now would commit the baseline of this broken replay); then, to accept it: ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-evals --test eval_fixture_gate -- --exact mini::totals, then review the .snap diff and commit it
the report of this replay:
cases             3
parsed            2 (67%)
valid             1 (33%)
valid after retry 2 (67%)
mean selection F1 0.67
answerability     yes 0 / partial 1 / no 1
expected hits     1 / 2 (50%)

invalid:
  good: body[0] unknown node type \"sparkline\"
  retried: expected value at line 1 column 1

invented node types:
  good: sparkline"
    );
}

/// Under `--format json` a moved baseline leaves stdout one JSON object a line: the diff of
/// each moved snapshot goes to stderr, and nothing is written beside the committed
/// snapshots.
#[test]
fn a_moved_baseline_under_json_keeps_stdout_json_lines_and_diffs_on_stderr() {
    // Other tests of this file move the same baseline at the same time: this run's files
    // go to a directory of its own.
    let runs = tempfile::tempdir().unwrap();
    let output = run(
        &["--format", "json", "--exact", "mini::totals"],
        &[
            ("ISOMER_EVAL_RECORDINGS_MINI", &regressed()),
            ("ISOMER_EVAL_RUNS", runs.path()),
        ],
    );
    assert_eq!(output.status.code(), Some(101));
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    let events: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("{error}: {line}")))
        .collect();
    assert_eq!(events.len(), 4, "{text}");
    assert_eq!(events[2]["name"], "mini::totals");
    assert_eq!(events[2]["event"], "failed");
    assert!(
        events[2]["stdout"].as_str().unwrap().contains(
            "\nthe baseline moved:\n  mini__report: results[0].validity.valid: true -> false,"
        ),
        "{text}"
    );
    assert_eq!(events[3]["filtered_out"], 5);
    let stderr = String::from_utf8(output.stderr).unwrap();
    // The whole diffs go beside the run files.
    let target = runs.path().join("mini");
    let whole = |name: &str| target.join(format!("{name}.diff"));
    let headers: Vec<String> = stderr
        .lines()
        .filter(|line| {
            ["--- ", "+++ ", "@@ ", "… ", "the whole diff: "]
                .iter()
                .any(|start| line.starts_with(start))
        })
        .map(str::to_owned)
        .collect();
    assert_eq!(
        headers,
        [
            "--- mini__report.snap (committed)".to_owned(),
            "+++ mini__report (this run)".to_owned(),
            "@@ -4,41 +4,23 @@ lines of the snapshot's contents, after the 3-line header of mini__report.snap".to_owned(),
            "… 68 more lines of this diff".to_owned(),
            format!("the whole diff: {}", whole("mini__report").display()),
            "--- mini__report_text.snap (committed)".to_owned(),
            "+++ mini__report_text (this run)".to_owned(),
            "@@ -1,10 +1,14 @@ lines of the snapshot's contents, after the 3-line header of mini__report_text.snap".to_owned(),
            "… 2 more lines of this diff".to_owned(),
            format!("the whole diff: {}", whole("mini__report_text").display()),
            "--- mini__baseline.snap (committed)".to_owned(),
            "+++ mini__baseline (this run)".to_owned(),
            "@@ -1,5 +1,10 @@ lines of the snapshot's contents, after the 3-line header of mini__baseline.snap".to_owned(),
            format!("the whole diff: {}", whole("mini__baseline").display()),
        ]
    );
    // One case changed: 59 lines of diff on stderr for the three files (the run file's line
    // and the closing error excluded), where one hunk from the first change to the last
    // printed 231 lines for mini__report alone.
    let printed: Vec<&str> = stderr
        .lines()
        .filter(|line| !line.contains(": wrote the run file ") && !line.starts_with("Error: "))
        .collect();
    assert_eq!(printed.len(), 59, "{stderr}");
    // The file holds the whole diff: what stderr shows is its beginning, and it goes on
    // with the hunk of the totals.
    let report = std::fs::read_to_string(whole("mini__report")).unwrap();
    assert_eq!(report.lines().count(), 88, "{report}");
    assert!(report.starts_with(&printed[..20].join("\n")), "{report}");
    assert_eq!(
        report
            .lines()
            .filter(|line| line.starts_with("@@ "))
            .collect::<Vec<_>>(),
        [
            "@@ -4,41 +4,23 @@ lines of the snapshot's contents, after the 3-line header of mini__report.snap",
            "@@ -107,23 +89,23 @@ lines of the snapshot's contents, after the 3-line header of mini__report.snap",
        ]
    );
    assert!(
        stderr.ends_with(&format!(
            r#"--- mini__baseline.snap (committed)
+++ mini__baseline (this run)
@@ -1,5 +1,10 @@ lines of the snapshot's contents, after the 3-line header of mini__baseline.snap
 {{
   "promptSha256": "87dc40214fc0eccfb9f7fa7e83e0f80c0a7d1c11eafdd014bc14b5a5c4bb4997",
-  "missingRecordings": [],
+  "missingRecordings": [
+    {{
+      "caseId": "good",
+      "attempt": 1
+    }}
+  ],
   "staleJudgments": []
 }}
the whole diff: {}
Error: suite `mini` is below its floors (min_valid_ratio, min_valid_after_retry_ratio, min_mean_selection_f1, max_answerability_no):
"#,
            whole("mini__baseline").display()
        )),
        "{stderr}"
    );
    let written: Vec<String> = std::fs::read_dir(Path::new(MANIFEST_DIR).join("tests/snapshots"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("mini__") && name.ends_with(".new"))
        .collect();
    assert_eq!(written, Vec::<String>::new());
}

/// The full-scan guard: in a copy of the recordings where every other case's answer files
/// are directories (reading one fails loudly), `--exact mini::good` still passes, so it
/// opened none of them; the full run over the same copy fails on exactly those files, so
/// the trap is live.
#[test]
fn exact_reads_no_other_case_answers() {
    let copy = std::env::temp_dir().join(format!("isomer-eval-guard-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(copy.join("answers")).unwrap();
    let source = Path::new(MANIFEST_DIR).join("tests/fixtures/eval/mini");
    for file in ["prompt.txt", "judgments.json", "answers/good.0.txt"] {
        std::fs::copy(source.join(file), copy.join(file)).unwrap();
    }
    for trap in [
        "retried.0.txt",
        "retried.1.txt",
        "no-golden.0.txt",
        "no-golden.1.txt",
    ] {
        std::fs::create_dir_all(copy.join("answers").join(trap)).unwrap();
    }
    let exact = run(
        &["--exact", "mini::good"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &copy)],
    );
    let full = run(
        &["mini::", "--test-threads", "1"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &copy)],
    );
    std::fs::remove_dir_all(&copy).unwrap();

    assert!(exact.status.success(), "{}", stdout(&exact));
    assert!(stdout(&exact).contains("test mini::good ... ok"));
    let full = stdout(&full);
    let trapped = format!(
        "---- mini::retried ----\ncase `retried` did not complete: generate attempt 0 failed: {}: cannot be read: Is a directory (os error 21)",
        copy.join("answers/retried.0.txt").display()
    );
    assert!(full.contains(&trapped), "{full}");
    assert!(full.contains("test mini::no-golden ... FAILED"), "{full}");
}

/// `include_str!` makes `corpus.json` an input of the gate in rustc's dep-info (the file
/// cargo's fingerprint reads), so editing the corpus rebuilds the gate.
#[test]
fn the_corpus_file_is_a_build_input_of_the_gate() {
    let dep_info = std::fs::read_to_string(gate().with_extension("d")).unwrap();
    let corpus = Path::new(MANIFEST_DIR)
        .join("tests/fixtures/eval/mini/corpus.json")
        .canonicalize()
        .unwrap();
    let first_rule = dep_info.lines().next().unwrap();
    let inputs: Vec<&str> = first_rule.split_once(": ").unwrap().1.split(' ').collect();
    assert!(inputs.contains(&corpus.to_str().unwrap()), "{first_rule}");
}

/// A copy of the mini recordings in a fresh temporary directory, with `edit` applied.
fn edited_copy(tag: &str, edit: impl FnOnce(&Path)) -> PathBuf {
    let copy = std::env::temp_dir().join(format!("isomer-eval-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(copy.join("answers")).unwrap();
    let source = Path::new(MANIFEST_DIR).join("tests/fixtures/eval/mini");
    for file in [
        "prompt.txt",
        "judgments.json",
        "answers/good.0.txt",
        "answers/retried.0.txt",
        "answers/retried.1.txt",
        "answers/no-golden.0.txt",
    ] {
        std::fs::copy(source.join(file), copy.join(file)).unwrap();
    }
    edit(&copy);
    copy
}

#[test]
fn a_stale_judgment_fails_its_case_and_totals() {
    let copy = edited_copy("stale", |dir| {
        let path = dir.join("judgments.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let text = text.replace(
            r#""id": "good", "verdict": "yes", "rendered": "stat""#,
            r#""id": "good", "verdict": "yes", "rendered": "an older rendering""#,
        );
        std::fs::write(path, text).unwrap();
    });
    let case = run(
        &["--exact", "mini::good"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &copy)],
    );
    let totals = run(
        &["--exact", "mini::totals"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &copy)],
    );
    std::fs::remove_dir_all(&copy).unwrap();
    assert_eq!(case.status.code(), Some(101));
    assert!(
        stdout(&case).contains(
            "---- mini::good ----\nthe verdict for `good` in judgments.json was given for another text rendering: re-judge it on the current one\n"
        ),
        "{}",
        stdout(&case)
    );
    assert!(
        stdout(&totals).contains(
            "---- mini::totals ----\nverdicts given for another text rendering (re-judge them): good\nthe baseline moved:\n  mini__baseline: staleJudgments: [] -> [\"good\"]\n"
        ),
        "{}",
        stdout(&totals)
    );
}

#[test]
fn a_prompt_txt_that_differs_fails_totals() {
    let copy = edited_copy("prompt", |dir| {
        std::fs::write(dir.join("prompt.txt"), "an older prompt\n").unwrap();
    });
    let totals = run(
        &["--exact", "mini::totals"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &copy)],
    );
    std::fs::remove_dir_all(&copy).unwrap();
    assert_eq!(totals.status.code(), Some(101));
    let expected = format!(
        "---- mini::totals ----\n{}: prompt.txt differs from the prompt the harness builds at line 1, column 1: built \"# View authoring\", recorded \"an older prompt\"; the answers were written from another prompt, so re-record them\n\n",
        copy.join("prompt.txt").display()
    );
    assert!(stdout(&totals).contains(&expected), "{}", stdout(&totals));
}

#[test]
fn a_missing_judgment_and_a_missing_prompt_say_what_to_record() {
    let copy = edited_copy("unjudged", |dir| {
        let path = dir.join("judgments.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let text = text.replace(r#""id": "good""#, r#""id": "retried-again""#);
        std::fs::write(&path, text).unwrap();
        std::fs::remove_file(dir.join("prompt.txt")).unwrap();
    });
    let case = run(
        &["--exact", "mini::good"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &copy)],
    );
    let totals = run(
        &["--exact", "mini::totals"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &copy)],
    );
    std::fs::remove_dir_all(&copy).unwrap();
    assert!(
        stdout(&case).contains(
            "---- mini::good ----\ncase `good` did not complete: judge failed: judgments.json has no verdict for `good`: judge its text rendering and record the verdict\n"
        ),
        "{}",
        stdout(&case)
    );
    let text = stdout(&totals);
    let message = text
        .split("---- mini::totals ----\n")
        .nth(1)
        .and_then(|rest| rest.split("\nthe baseline moved:").next())
        .expect("the totals failure message");
    assert_eq!(
        message,
        format!(
            "cases that did not complete (good):
  good: judge failed: judgments.json has no verdict for `good`: judge its text rendering and record the verdict
cases without a verdict in judgments.json: good
recordings that do not match the corpus (fix, rename or delete them):
  {judgments}:4:13: judgment for case \"retried-again\", which corpus.json does not have
{prompt} does not exist: write the prompt the suite builds there (`cargo test -p isomer-evals --test eval_fixture_gate -- --print-prompt mini` prints it), then record the answers from it",
            judgments = copy.join("judgments.json").display(),
            prompt = copy.join("prompt.txt").display(),
        )
    );
}

/// Recordings a replay of the compiled-in cases never reads (left behind by a deleted or
/// renamed case, or misnamed) fail `totals` by name; the case trials do not read the
/// directory listing and still pass.
#[test]
fn orphaned_recordings_fail_totals() {
    let copy = edited_copy("orphans", |dir| {
        std::fs::write(dir.join("answers/deleted-case.0.txt"), "{}").unwrap();
        std::fs::write(dir.join("answers/good.2.txt"), "{}").unwrap();
    });
    let case = run(
        &["--exact", "mini::good"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &copy)],
    );
    let totals = run(
        &["--exact", "mini::totals"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &copy)],
    );
    std::fs::remove_dir_all(&copy).unwrap();
    assert!(case.status.success(), "{}", stdout(&case));
    assert_eq!(totals.status.code(), Some(101));
    let expected = format!(
        "---- mini::totals ----
recordings that do not match the corpus (fix, rename or delete them) (deleted-case.0.txt, good.2.txt):
  {}: records an answer for case \"deleted-case\", which corpus.json does not have
  {}: is not named `<case id>.<attempt>.txt` with attempt 0 or 1, so no replay reads it

",
        copy.join("answers/deleted-case.0.txt").display(),
        copy.join("answers/good.2.txt").display(),
    );
    assert!(stdout(&totals).contains(&expected), "{}", stdout(&totals));
}

/// A recordings override that names no directory fails each trial with the variable and
/// the path, instead of calling every answer missing.
#[test]
fn a_recordings_override_that_is_not_a_directory_is_named() {
    let nowhere = Path::new(MANIFEST_DIR).join("tests/fixtures/eval/no-such-recordings");
    let output = run(
        &["--exact", "mini::good"],
        &[("ISOMER_EVAL_RECORDINGS_MINI", &nowhere)],
    );
    assert_eq!(output.status.code(), Some(101));
    let expected = format!(
        "---- mini::good ----\nISOMER_EVAL_RECORDINGS_MINI names {}, which is not a directory: point it at a directory holding answers/, judgments.json and prompt.txt, or unset it to replay tests/fixtures/eval/mini\n\n",
        nowhere.display()
    );
    assert!(stdout(&output).contains(&expected), "{}", stdout(&output));
}
