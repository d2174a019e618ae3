//! Measure mode and pass rates: a loopback server that answers the one case of
//! `pass_rate_gate` right four times in five, measured (`ISOMER_EVAL_RECORD=measure`) into
//! a scratch recordings directory. The case met its floors in `4 of 5` runs: the suite with
//! `min_pass_rate = 0.8` passes, the one with `0.9` fails naming the rate. Neither run
//! compares with or writes the committed baseline, even with `ISOMER_EVAL_ACCEPT` set.

#[path = "../../isomer-evals/tests/gate_support/mod.rs"]
mod gate_support;
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use isomer_evals::run_file::{RunFile, RunMode};
use support::{Exchange, Loopback, completion, output_text as text};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The committed baseline files of the gate, by name.
fn baseline() -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(Path::new(MANIFEST_DIR).join("tests/snapshots"))
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with("pass_rate__")
        })
        .map(|entry| {
            (
                entry.file_name().into_string().unwrap(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .collect()
}

/// Measures the suite with `floor` against a fresh server that answers right four times in
/// five; returns the output, the requests the server saw and the run file.
fn measure(gate: &Path, floor: &str) -> (Output, usize, RunFile) {
    let right = support::pause_answer();
    let server = Loopback::start(vec![Exchange {
        contains: vec!["## Request\n\nI want a pause slide".to_owned()],
        messages: None,
        responses: vec![
            completion(&right, 1000, 100),
            completion(&right, 1000, 100),
            completion("I cannot make slides.", 1000, 5),
            completion(&right, 1000, 100),
            completion(&right, 1000, 100),
        ],
    }]);
    let scratch = support::corpus_only(&Path::new(MANIFEST_DIR).join("tests/fixtures/pass-rate"));
    let runs = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(gate)
        .current_dir(MANIFEST_DIR)
        .env("ISOMER_EVAL_RECORD", "measure")
        // Measure mode never writes the baseline, accepted or not.
        .env("ISOMER_EVAL_ACCEPT", "1")
        .env_remove("ISOMER_EVAL_HTML")
        .env("ISOMER_EVAL_RECORDINGS_PASS_RATE", scratch.path())
        .env("ISOMER_EVAL_RUNS", runs.path())
        .env("ISOMER_OPENAI_TEST_URL", &server.base_url)
        .env("PASS_RATE_FLOOR", floor)
        .output()
        .unwrap();
    let dir = runs.path().join("pass_rate");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    names.sort();
    // The run file and, in measure mode, the HTML report beside it.
    let [html, json] = &names[..] else {
        panic!("{names:?}")
    };
    assert_eq!(html.file_name().unwrap(), "pass_rate.html");
    let file = support::read_run_file(json);
    (output, server.requests().len(), file)
}

#[test]
fn a_case_right_four_times_in_five_passes_0_8_and_fails_0_9() {
    let gate = gate_support::build_gate("pass_rate_gate", Path::new(MANIFEST_DIR));
    let committed = baseline();
    assert_eq!(committed.len(), 3, "{:?}", committed.keys());

    let (output, requests, file) = measure(&gate, "0.8");
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(requests, 5);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "pass_rate::totals, runs of each case that met its case floors:\n  pause: 4 of 5\n"
        ),
        "{}",
        text(&output)
    );
    assert_eq!(file.mode, RunMode::Measure);
    let rates: Vec<(&str, usize, usize, f64)> = file
        .pass_rates
        .iter()
        .map(|rate| (rate.case_id.as_str(), rate.passed, rate.runs, rate.rate))
        .collect();
    assert_eq!(rates, [("pause", 4, 5, 0.8)]);
    assert_eq!(file.axes.valid.mean, 0.8);
    // The per-repeat means 1, 1, 0, 1, 1: sample deviation sqrt(0.2), over sqrt(5).
    let error = file.axes.valid.standard_error.unwrap();
    assert!((error - 0.2).abs() < 1e-12, "{error}");
    assert_eq!(baseline(), committed);

    let (output, requests, file) = measure(&gate, "0.9");
    assert!(!output.status.success(), "{}", text(&output));
    assert_eq!(requests, 5);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let failed_run = file
        .runs
        .iter()
        .find(|run| !run.passed)
        .map(|run| run.repeat)
        .unwrap();
    assert!(
        stdout.contains(&format!(
            "---- pass_rate::pause ----\ncase `pause` met its case floors in 4 of 5 runs (min_pass_rate, pause#{failed_run}):\n  min_pass_rate: 0.8, floor >= 0.9\n  pause#{failed_run}: valid_after_retry: false, floor true\n"
        )),
        "{}",
        text(&output)
    );
    // The totals trial checks the suite floors only, and the suite declares none.
    assert!(
        stdout.contains("test pass_rate::totals ... ok"),
        "{}",
        text(&output)
    );
    assert_eq!(baseline(), committed);
}
