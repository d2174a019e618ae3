//! Runs the `main_macro_gate` binary (`tests/main_macro_gate.rs`: `combined_mini`, `combined_agent` and
//! `moved_baseline` in one target) the way a new user does after reading the README's "Write an
//! eval gate", and asserts its output exactly. Timings are masked as `<t>`.
//!
//! The moved-baseline tests edit one number of the committed `moved_baseline` snapshots and put
//! the committed bytes back when they finish (also on a failed assertion); a lock keeps
//! every run of `moved_baseline::totals` in this process away from the edited file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};

mod gate_support;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The gate binary, built once per test process (a no-op when `cargo test` built it).
fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("main_macro_gate", Path::new(MANIFEST_DIR)))
}

/// Runs the gate with `args`, accepting a moved baseline when `accept`
/// (`ISOMER_EVAL_ACCEPT=1`), no recordings override other than `envs`.
fn run_with(args: &[&str], accept: bool, envs: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(gate());
    command
        .args(args)
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove("CI")
        .env_remove("ISOMER_EVAL_RECORDINGS_COMBINED_MINI")
        .env_remove("ISOMER_EVAL_RECORDINGS_COMBINED_AGENT")
        .env_remove("ISOMER_EVAL_RECORDINGS_MOVED_BASELINE");
    if accept {
        command.env("ISOMER_EVAL_ACCEPT", "1");
    }
    for (key, value) in envs {
        command.env(key, value);
    }
    command.output().expect("the gate runs")
}

/// Runs the gate with `args`, accepting nothing.
fn run(args: &[&str]) -> Output {
    run_with(args, false, &[])
}

/// Stdout with `finished in 0.12s` and `"exec_time": 0.0123 }` masked.
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

/// The text of the failure block `---- <name> ----` in pretty output.
fn failure<'a>(text: &'a str, name: &str) -> &'a str {
    text.split(&format!("---- {name} ----\n"))
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_else(|| panic!("no failure block for {name} in:\n{text}"))
}

/// Serializes every run of `moved_baseline::totals` in this process.
fn moved_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

const SNAPSHOTS: &str = "tests/snapshots";

/// A committed snapshot edited for one test; the committed bytes go back on drop.
struct EditedSnapshot {
    path: PathBuf,
    committed: Vec<u8>,
}

impl EditedSnapshot {
    fn new(file: &str, from: &str, to: &str) -> Self {
        let path = Path::new(MANIFEST_DIR).join(SNAPSHOTS).join(file);
        let committed = std::fs::read(&path).unwrap();
        let text = String::from_utf8(committed.clone()).unwrap();
        assert_eq!(text.matches(from).count(), 1, "{from} in {file}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        EditedSnapshot { path, committed }
    }

    fn is_committed(&self) -> bool {
        std::fs::read(&self.path).unwrap() == self.committed
    }
}

impl Drop for EditedSnapshot {
    fn drop(&mut self) {
        let _ = std::fs::write(&self.path, &self.committed);
        let mut new = self.path.clone().into_os_string();
        new.push(".new");
        let _ = std::fs::remove_file(new);
    }
}

/// Names of the `moved_baseline` `.snap.new` files beside the committed snapshots.
fn pending_moved() -> Vec<String> {
    std::fs::read_dir(Path::new(MANIFEST_DIR).join(SNAPSHOTS))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("moved_baseline__") && name.ends_with(".new"))
        .collect()
}

#[test]
fn list_names_the_trials_of_both_kinds_in_the_order_given_to_main() {
    let expected = "combined_mini::good: test
combined_mini::retried: test
combined_mini::no-golden: test
combined_mini::totals: test
combined_agent::open-count: test
combined_agent::totals: test
moved_baseline::good: test
moved_baseline::retried: test
moved_baseline::no-golden: test
moved_baseline::totals: test";
    let output = run(&["--list"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output), expected);
    // What cargo-nextest asks for.
    let output = run(&["--list", "--format", "terse"]);
    assert_eq!(stdout(&output), expected);
    let output = run(&["--list", "--format", "terse", "--ignored"]);
    assert_eq!(stdout(&output), "");
}

#[test]
fn exact_counts_every_other_trial_as_filtered_out() {
    let output = run(&["--exact", "combined_mini::good"]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 1 test\ntest combined_mini::good ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 9 filtered out; finished in <t>\n"
    );
    // The agent suite's totals, the second suite of the target.
    let output = run(&["--exact", "combined_agent::totals"]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 1 test\ntest combined_agent::totals ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 9 filtered out; finished in <t>\n"
    );
}

#[test]
fn exact_names_that_match_nothing_run_nothing_and_say_so() {
    // A misspelt case, a suite name alone, a case without its suite: libtest's --exact
    // wants the whole name.
    for name in [
        "combined_mini::goo",
        "combined_mini",
        "good",
        "combined_agent::good",
    ] {
        let output = run(&["--exact", name]);
        assert!(output.status.success(), "{name}");
        assert_eq!(
            stdout(&output),
            "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 10 filtered out; finished in <t>\n",
            "{name}"
        );
    }
    // --skip of the one exact name leaves nothing.
    let output = run(&[
        "--exact",
        "combined_mini::good",
        "--skip",
        "combined_mini::good",
    ]);
    assert!(stdout(&output).starts_with("\nrunning 0 tests\n"));
    assert!(stdout(&output).contains("; 10 filtered out;"));
}

#[test]
fn a_substring_filter_and_skip_count_what_they_drop() {
    let output = run(&["good", "--test-threads", "1"]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 2 tests\ntest combined_mini::good  ... ok\ntest moved_baseline::good ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 8 filtered out; finished in <t>\n"
    );
    let output = run(&[
        "--skip",
        "totals",
        "--skip",
        "combined_mini",
        "--test-threads",
        "1",
    ]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 4 tests\ntest combined_agent::open-count ... ok\ntest moved_baseline::good       ... ok\ntest moved_baseline::retried    ... ok\ntest moved_baseline::no-golden  ... ok\n\ntest result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 6 filtered out; finished in <t>\n"
    );
}

#[test]
fn no_trial_is_ignored() {
    let output = run(&["--ignored"]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 10 filtered out; finished in <t>\n"
    );
    let output = run(&["--include-ignored", "combined_agent", "--test-threads", "1"]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 2 tests\ntest combined_agent::open-count ... ok\ntest combined_agent::totals     ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 8 filtered out; finished in <t>\n"
    );
}

#[test]
fn the_whole_gate_passes_in_every_format() {
    let _lock = moved_lock();
    let output = run(&["--test-threads", "1"]);
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "
running 10 tests
test combined_mini::good        ... ok
test combined_mini::retried     ... ok
test combined_mini::no-golden   ... ok
test combined_mini::totals      ... ok
test combined_agent::open-count ... ok
test combined_agent::totals     ... ok
test moved_baseline::good       ... ok
test moved_baseline::retried    ... ok
test moved_baseline::no-golden  ... ok
test moved_baseline::totals     ... ok

test result: ok. 10 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in <t>
"
    );
    let output = run(&["--format", "terse", "--test-threads", "1"]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "\nrunning 10 tests\n..........\ntest result: ok. 10 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in <t>\n"
    );
    let output = run(&["--format", "json", "--test-threads", "1"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 22, "{text}");
    assert_eq!(
        lines[0],
        r#"{ "type": "suite", "event": "started", "test_count": 10 }"#
    );
    assert_eq!(
        lines[10],
        r#"{ "type": "test", "name": "combined_agent::open-count", "event": "ok" }"#
    );
    assert_eq!(
        lines[21],
        r#"{ "type": "suite", "event": "ok", "passed": 10, "failed": 0, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": <t> }"#
    );
}

const MOVED_MESSAGE: &str = "the baseline moved (moved_baseline__report):
  moved_baseline__report: results[0].payload.rawBytes: 68 -> 67
to accept it: ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-evals --test main_macro_gate -- --exact moved_baseline::totals, then review the .snap diff and commit it";

/// The diff a moved `rawBytes` of the first case writes to stderr, then the failure's
/// summary line.
const MOVED_DIFF: &str = r#"--- moved_baseline__report.snap (committed)
+++ moved_baseline__report (this run)
@@ -32,7 +32,7 @@ lines of the snapshot's contents, after the 3-line header of moved_baseline__report.snap
         ]
       },
       "payload": {
-        "rawBytes": 68,
+        "rawBytes": 67,
         "sanitizedBytes": 66,
         "sizeVsGolden": 1.0,
         "unknownTypes": []
the whole diff: <target>/isomer/moved_baseline/moved_baseline__report.diff
Error: the baseline moved (moved_baseline__report):
"#;

/// One number changed in the committed report: the failure names the JSON path, both
/// values and the command that accepts it, the diff goes to stderr, and nothing else is
/// printed or written; insta's variables change nothing (the harness compares itself).
#[test]
fn a_moved_number_is_named_with_how_to_accept_it() {
    let _lock = moved_lock();
    let edited = EditedSnapshot::new(
        "moved_baseline__report.snap",
        "\"rawBytes\": 67,",
        "\"rawBytes\": 68,",
    );
    for insta_update in [None, Some("always"), Some("new")] {
        let mut envs = Vec::new();
        if let Some(value) = insta_update {
            envs.push(("INSTA_UPDATE", Path::new(value)));
        }
        let output = run_with(&["--exact", "moved_baseline::totals"], false, &envs);
        assert_eq!(output.status.code(), Some(101));
        let text = stdout(&output);
        assert_eq!(failure(&text, "moved_baseline::totals"), MOVED_MESSAGE);
        assert_eq!(
            text,
            format!(
                "\nrunning 1 test\ntest moved_baseline::totals ... FAILED\n\nfailures:\n\n---- moved_baseline::totals ----\n{MOVED_MESSAGE}\n\n\nfailures:\n    moved_baseline::totals\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 9 filtered out; finished in <t>\n"
            ),
            "{insta_update:?}"
        );
        assert_eq!(without_run_file(&output.stderr), MOVED_DIFF);
        assert!(!edited.is_committed(), "{insta_update:?}");
        assert_eq!(pending_moved(), Vec::<String>::new(), "{insta_update:?}");
    }
    // The case trials do not read the baseline.
    let output = run(&["moved_baseline::", "--skip", "totals"]);
    assert!(output.status.success(), "{}", stdout(&output));
}

/// `--exact` + `--format json` + a moved baseline: stdout is JSON lines only, the diff is on
/// stderr, and no file is written.
#[test]
fn a_moved_baseline_under_exact_and_json_keeps_stdout_json() {
    let _lock = moved_lock();
    let edited = EditedSnapshot::new(
        "moved_baseline__report.snap",
        "\"rawBytes\": 67,",
        "\"rawBytes\": 68,",
    );
    let output = run(&["--exact", "moved_baseline::totals", "--format", "json"]);
    assert_eq!(output.status.code(), Some(101));
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    let events: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("{error}: {line}")))
        .collect();
    assert_eq!(events.len(), 4, "{text}");
    assert_eq!(events[2]["name"], "moved_baseline::totals");
    assert_eq!(events[2]["event"], "failed");
    assert_eq!(
        events[2]["stdout"],
        format!("Error: \"{MOVED_MESSAGE}\"\n").as_str()
    );
    assert_eq!(events[3]["filtered_out"], 9);
    assert_eq!(without_run_file(&output.stderr), MOVED_DIFF);
    assert!(!edited.is_committed());
    assert_eq!(pending_moved(), Vec::<String>::new());
}

/// Three snapshots moved at once are each named; `ISOMER_EVAL_ACCEPT=1` (in any format)
/// rewrites all three (the files get the committed bytes back, headers kept), removes the
/// `.snap.new` files an earlier insta-based run left, and the trial passes.
#[test]
fn accepting_rewrites_every_moved_snapshot() {
    let _lock = moved_lock();
    let report = EditedSnapshot::new(
        "moved_baseline__report.snap",
        "\"rawBytes\": 67,",
        "\"rawBytes\": 68,",
    );
    let text_report = EditedSnapshot::new(
        "moved_baseline__report_text.snap",
        "valid             2 (67%)",
        "valid             3 (100%)",
    );
    let baseline = EditedSnapshot::new(
        "moved_baseline__baseline.snap",
        "\"staleJudgments\": []",
        "\"staleJudgments\": [\"good\"]",
    );
    let output = run(&["--exact", "moved_baseline::totals"]);
    assert_eq!(output.status.code(), Some(101));
    assert_eq!(
        failure(&stdout(&output), "moved_baseline::totals"),
        "the baseline moved (moved_baseline__report, moved_baseline__report_text, moved_baseline__baseline):
  moved_baseline__report: results[0].payload.rawBytes: 68 -> 67
  moved_baseline__report_text: the formatted report differs
  moved_baseline__baseline: staleJudgments: [\"good\"] -> []
to accept it: ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-evals --test main_macro_gate -- --exact moved_baseline::totals, then review the .snap diff and commit it"
    );
    let snapshots = Path::new(MANIFEST_DIR).join(SNAPSHOTS);
    for name in ["report", "report_text", "baseline"] {
        let pending = snapshots.join(format!("moved_baseline__{name}.snap.new"));
        std::fs::write(pending, "a pending snapshot of an earlier run").unwrap();
    }

    let output = run_with(
        &["--exact", "moved_baseline::totals", "--format", "terse"],
        true,
        &[],
    );
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(
        without_run_file(&output.stderr),
        ["report", "report_text", "baseline"]
            .map(|name| format!(
                "accepted {}\n",
                snapshots
                    .join(format!("moved_baseline__{name}.snap"))
                    .display()
            ))
            .concat()
    );
    assert!(report.is_committed());
    assert!(text_report.is_committed());
    assert!(baseline.is_committed());
    assert_eq!(pending_moved(), Vec::<String>::new());
}

/// A copy of the mini recordings in a fresh temporary directory, with `edit` applied.
fn edited_copy(tag: &str, edit: impl FnOnce(&Path)) -> PathBuf {
    let copy = std::env::temp_dir().join(format!("isomer-main-gate-{tag}-{}", std::process::id()));
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

/// A judgment for a case `corpus.json` lacks (here `no-golden` renamed `ghost`): the case
/// left without a verdict fails, the other cases pass, `totals` names both the unjudged
/// case and the orphaned judgment with its line and column.
#[test]
fn a_judgment_for_an_unknown_case_is_named() {
    let copy = edited_copy("ghost", |dir| {
        let path = dir.join("judgments.json");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            text.replace("\"id\": \"no-golden\"", "\"id\": \"ghost\""),
        )
        .unwrap();
    });
    let output = run_with(
        &["combined_mini::", "--test-threads", "1"],
        false,
        &[("ISOMER_EVAL_RECORDINGS_COMBINED_MINI", &copy)],
    );
    std::fs::remove_dir_all(&copy).unwrap();
    assert_eq!(output.status.code(), Some(101));
    let text = stdout(&output);
    assert!(
        text.contains("test combined_mini::good      ... ok\n"),
        "{text}"
    );
    assert!(
        text.contains("test combined_mini::retried   ... ok\n"),
        "{text}"
    );
    assert_eq!(
        failure(&text, "combined_mini::no-golden"),
        "case `no-golden` did not complete: judge failed: judgments.json has no verdict for `no-golden`: judge its text rendering and record the verdict"
    );
    let totals = failure(&text, "combined_mini::totals");
    assert!(
        totals.starts_with(&format!(
            "cases that did not complete (no-golden):
  no-golden: judge failed: judgments.json has no verdict for `no-golden`: judge its text rendering and record the verdict
cases without a verdict in judgments.json: no-golden
recordings that do not match the corpus (fix, rename or delete them):
  {}:6:13: judgment for case \"ghost\", which corpus.json does not have
the baseline moved:
",
            copy.join("judgments.json").display()
        )),
        "{totals}"
    );
    assert!(text.ends_with(
        "test result: FAILED. 2 passed; 2 failed; 0 ignored; 0 measured; 6 filtered out; finished in <t>\n"
    ));
}

/// An answer file that is not UTF-8 fails its case with the path and the reason, and the
/// floors it therefore misses; it claims no JSON error for text that was never read.
/// `totals` lists the case among those that did not complete.
#[test]
fn an_answer_that_is_not_utf8_is_named() {
    let copy = edited_copy("latin1", |dir| {
        std::fs::write(
            dir.join("answers/good.0.txt"),
            b"{\"type\":\"view\",\"body\":[{\"type\":\"stat\",\"label\":\"Caf\xe9\"}]}",
        )
        .unwrap();
    });
    let recordings = [("ISOMER_EVAL_RECORDINGS_COMBINED_MINI", copy.as_path())];
    let case = run_with(&["--exact", "combined_mini::good"], false, &recordings);
    let totals = run_with(&["--exact", "combined_mini::totals"], false, &recordings);
    std::fs::remove_dir_all(&copy).unwrap();
    let path = copy.join("answers/good.0.txt");
    assert_eq!(case.status.code(), Some(101));
    assert_eq!(
        failure(&stdout(&case), "combined_mini::good"),
        format!(
            "case `good` did not complete: generate attempt 0 failed: {}:1:51: is not UTF-8 text (first invalid byte here)
case `good` is below its floors:
  valid_after_retry: false, floor true
  expected_hit: false, floor true",
            path.display()
        )
    );
    assert_eq!(totals.status.code(), Some(101));
    let totals = stdout(&totals);
    assert!(
        failure(&totals, "combined_mini::totals").starts_with(&format!(
            "suite `combined_mini` is below its floors (min_valid_ratio):
  min_valid_ratio: 0.3333, floor >= 0.6
cases that did not complete:
  good: generate attempt 0 failed: {path}:1:51: is not UTF-8 text (first invalid byte here)
recordings that cannot be used:
  {path}:1:51: is not UTF-8 text (first invalid byte here)
the baseline moved:
",
            path = path.display()
        )),
        "{totals}"
    );
}

/// `--test-threads 0`: libtest refuses it; libtest-mimic alone would start no worker and
/// wait forever. The gate fails at once with the reason on stderr (killed after 60 s if it
/// ever hangs again).
#[test]
fn zero_test_threads_fail_at_once() {
    let mut child = Command::new(gate())
        .args(["--test-threads", "0"])
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the gate starts");
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("the gate still runs 60 s after `--test-threads 0`");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(101));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "error: --test-threads must be at least 1: with 0 no trial would run and the gate would wait forever\n"
    );
}

/// The cargo target directory the gate was built into (`<target>/debug/deps/<gate>`).
fn target_dir() -> &'static Path {
    gate().ancestors().nth(3).unwrap()
}

/// `stderr` without the line each `totals` trial writes naming its run file
/// (`<suite>: wrote the run file <path>`), which changes from run to run, and with the
/// target directory written `<target>`.
fn without_run_file(stderr: &[u8]) -> String {
    String::from_utf8(stderr.to_vec())
        .unwrap()
        .split_inclusive('\n')
        .filter(|line| !line.contains(": wrote the run file "))
        .collect::<String>()
        .replace(&target_dir().display().to_string(), "<target>")
}
