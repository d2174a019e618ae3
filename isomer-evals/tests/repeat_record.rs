//! Records the repeat fixture afresh through the eval harness (`repeat_gate`, whose suite
//! runs each case three times against a fake live model and judge) into a directory
//! holding only `corpus.json`: every repeat is written under its recording name, equal to
//! the recordings committed beside the fixture, which the gate's committed baseline
//! replays; the live calls' tokens are printed with their mean, p50 and p95. A second run
//! with `missing` calls nothing and passes the same baseline.

mod gate_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn fixture() -> PathBuf {
    Path::new(MANIFEST_DIR).join("tests/fixtures/eval/mini-repeat")
}

fn run(gate: &Path, dir: &Path, calls: &Path, record: &str, args: &[&str]) -> Output {
    Command::new(gate)
        .args(args)
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env("ISOMER_EVAL_RECORDINGS_MINI_REPEAT", dir)
        .env("ISOMER_EVAL_RECORD", record)
        .env("MINI_REPEAT_CALLS", calls)
        .output()
        .expect("the gate runs")
}

fn assert_passes(output: &Output) {
    assert!(
        output.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The file names under `dir/answers`, sorted.
fn answer_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("answers"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

fn judgments(dir: &Path) -> Vec<(String, isomer_corpus::AnswerabilityVerdict, String)> {
    let text = std::fs::read_to_string(dir.join("judgments.json")).unwrap();
    isomer_corpus::parse_judgments(&text, None)
        .unwrap()
        .by_case
        .into_iter()
        .map(|(id, judgment)| (id, judgment.verdict, judgment.rendered))
        .collect()
}

#[test]
fn records_every_repeat_under_its_name_then_replays_it() {
    let gate = gate_support::build_gate("repeat_gate", Path::new(MANIFEST_DIR));
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls.txt");
    let recordings = dir.path().join("recordings");
    std::fs::create_dir(&recordings).unwrap();
    std::fs::copy(
        fixture().join("corpus.json"),
        recordings.join("corpus.json"),
    )
    .unwrap();

    // The totals trial alone, so every call is live and measured in it.
    let recorded = run(
        &gate,
        &recordings,
        &calls,
        "all",
        &["--exact", "mini_repeat::totals"],
    );
    assert_passes(&recorded);
    assert_eq!(
        answer_names(&recordings),
        [
            "a.0.txt",
            "a.r1.0.txt",
            "a.r2.0.txt",
            "b.0.txt",
            "b.r1.0.txt",
            "b.r2.0.txt"
        ]
    );
    for name in answer_names(&recordings) {
        assert_eq!(
            std::fs::read_to_string(recordings.join("answers").join(&name)).unwrap(),
            std::fs::read_to_string(fixture().join("answers").join(&name)).unwrap(),
            "{name}"
        );
    }
    assert_eq!(judgments(&recordings), judgments(&fixture()));
    assert_eq!(
        std::fs::read_to_string(recordings.join("prompt.txt")).unwrap(),
        std::fs::read_to_string(fixture().join("prompt.txt")).unwrap()
    );
    let mut asked: Vec<String> = std::fs::read_to_string(&calls)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    asked.sort();
    assert_eq!(
        asked,
        [
            "generate a 0 0",
            "generate a 1 0",
            "generate a 2 0",
            "generate b 0 0",
            "generate b 1 0",
            "generate b 2 0",
            "judge a 0",
            "judge a 1",
            "judge b 0",
            "judge b 1",
            "judge b 2",
        ]
    );
    // Per run, generate spends 100 × (repeat + 1) in and 10 out, the judge 5 and 1 (a#2
    // is not judged): input 105, 205, 300, 105, 205, 305, sorted 105, 105, 205, 205, 300,
    // 305, mean 1225/6 = 204.17, p50 (rank 3) 205, p95 (rank 6) 305; output 11, 11, 10,
    // 11, 11, 11, mean 65/6 = 10.83, p50 and p95 11.
    let stderr = String::from_utf8_lossy(&recorded.stderr);
    assert!(
        stderr.contains(
            "mini_repeat::totals, the live calls of this run (11 calls):\nmeasured runs 6\ngenerate ms   mean "
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "\ninput tokens  mean 204.17 / p50 205.00 / p95 305.00\noutput tokens mean 10.83 / p50 11.00 / p95 11.00\n"
        ),
        "{stderr}"
    );

    // Everything is recorded: `missing` calls nothing, and every trial passes.
    let before = std::fs::read_to_string(&calls).unwrap();
    let again = run(&gate, &recordings, &calls, "missing", &[]);
    assert_passes(&again);
    assert_eq!(std::fs::read_to_string(&calls).unwrap(), before);
}

/// A copy of the fixture's recordings.
fn fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("answers")).unwrap();
    for name in ["corpus.json", "judgments.json", "prompt.txt"] {
        std::fs::copy(fixture().join(name), dir.path().join(name)).unwrap();
    }
    for name in answer_names(&fixture()) {
        std::fs::copy(
            fixture().join("answers").join(&name),
            dir.path().join("answers").join(&name),
        )
        .unwrap();
    }
    dir
}

/// Runs one trial of the gate replaying `dir`.
fn replay(dir: &Path, trial: &str) -> Output {
    let gate = gate_support::build_gate("repeat_gate", Path::new(MANIFEST_DIR));
    Command::new(gate)
        .args(["--exact", trial])
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove("ISOMER_EVAL_RECORD")
        .env("ISOMER_EVAL_RECORDINGS_MINI_REPEAT", dir)
        .output()
        .unwrap()
}

/// A case trial names the run whose recording is missing, and only that run.
#[test]
fn a_case_trial_names_the_run_whose_recording_is_missing() {
    let dir = fixture_copy();
    std::fs::remove_file(dir.path().join("answers/a.r1.0.txt")).unwrap();
    let output = replay(dir.path(), "mini_repeat::a");
    assert!(!output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "---- mini_repeat::a ----\n\
             case `a#1`:\n\
             missing recordings (strict replay answers them with empty text): answers/a.r1.0.txt\n\n"
        ),
        "{stdout}"
    );
}

/// A recording of a repeat the suite does not run is read by no replay: `totals` names it.
#[test]
fn recordings_past_the_suites_repeat_fail_totals() {
    let dir = fixture_copy();
    std::fs::write(dir.path().join("answers/b.r3.0.txt"), "{}").unwrap();
    let judgments = std::fs::read_to_string(dir.path().join("judgments.json"))
        .unwrap()
        .replace(
            "{ \"id\": \"b.r2\"",
            "{ \"id\": \"a.r4\", \"verdict\": \"no\", \"rendered\": \"\" },\n    { \"id\": \"b.r2\"",
        );
    std::fs::write(dir.path().join("judgments.json"), judgments).unwrap();
    let output = replay(dir.path(), "mini_repeat::totals");
    assert!(!output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "recordings of a repeat past the suite's 3 (no replay reads them; rename or delete them): answers/b.r3.0.txt, the verdict for `a.r4` in judgments.json\n"
        ),
        "{stdout}"
    );
}
