//! A cost cap stops a live run: `model-a`'s answers cost more than its `max_cost` after the
//! third call, so the server is asked exactly three times, the runs left fail naming the
//! cap, its limit and the spend so far, and the three answers recorded stay byte for byte.
//! A token cap on the suite counts every configuration together.

#[path = "../../isomer-evals/tests/gate_support/mod.rs"]
mod gate_support;
mod support;

use std::path::Path;

use isomer_evals::run_file::RunMode;
use support::Configurations;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// What the cap says once reached: 6000 + 8000 + 10000 millionths spent, at or past the
/// cap of 0.02 only after the third call.
const CAPPED: &str = "max_cost cap of configuration `model-a` reached: 0.024 USD spent by 3 live calls, cap 0.02 USD; no further live call is made in this run";

#[test]
fn a_cost_cap_stops_the_calls_and_keeps_what_was_recorded() {
    let answers = ["first", "second", "third", "fourth", "fifth"].map(|word| {
        support::pause_answer().replace(
            "Latency is a product feature",
            &format!("Latency, {word} answer"),
        )
    });
    // The answers cost 0.006, 0.008, 0.01, ... US dollars (`support::model_a`).
    let gate = Configurations::start(
        gate_support::build_gate("configurations_gate", Path::new(MANIFEST_DIR)),
        support::model_a(answers.iter().map(String::as_str)),
        Vec::new(),
    );
    let output = gate
        .command("measure")
        .env("ISOMER_EVAL_CONFIGURATIONS", "model-a")
        .env("ISOMER_OPENAI_TEST_MAX_COST", "0.02")
        .output()
        .unwrap();
    let text = support::output_text(&output);
    assert!(!output.status.success(), "{text}");
    assert_eq!(gate.requests(), (3, 0), "{text}");

    // Both trials fail on the two runs the cap stopped, naming it; the case trial made the
    // three calls, and `totals` read them and met the same cap.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let refused = format!("generate attempt 0 failed: {CAPPED}");
    assert!(
        stdout.contains(&format!(
            "---- models::pause ----
case `pause#3` did not complete: {refused}
case `pause#4` did not complete: {refused}

---- models::totals ----
cases that did not complete (pause#3, pause#4):
  pause#3: {refused}
  pause#4: {refused}
"
        )),
        "{text}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "models::totals, configuration `model-a`: {CAPPED}\n"
        )),
        "{text}"
    );

    // The three answers made before the cap are recorded as the server sent them; the
    // runs the cap stopped recorded nothing.
    let dir = gate.recordings.path().join("model-a/answers");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["pause.0.txt", "pause.r1.0.txt", "pause.r2.0.txt"]);
    for (name, answer) in names.iter().zip(&answers) {
        assert_eq!(
            std::fs::read(dir.join(name)).unwrap(),
            answer.as_bytes(),
            "{name}"
        );
    }

    // The run file names the cap, and prices what was spent.
    let files = gate.run_files();
    let [(name, file)] = &files[..] else {
        panic!("{files:?}")
    };
    assert!(name.starts_with("run-model-a-"), "{name}");
    assert_eq!(file.mode, RunMode::Measure);
    assert_eq!(file.cap_reached.as_deref(), Some(CAPPED));
    assert_eq!(file.live_calls, 3);
    assert_eq!(file.cost_usd, Some(0.024));
    assert_eq!(
        support::run_summaries(file),
        [
            (1, Some(0.006), None),
            (1, Some(0.008), None),
            (1, Some(0.01), None),
            (0, None, Some(refused.as_str())),
            (0, None, Some(refused.as_str())),
        ]
    );

    // A `missing` run without the cap finishes the job: only the two runs left are
    // called, and the first three stay as they were.
    let before: Vec<Vec<u8>> = names
        .iter()
        .map(|name| std::fs::read(dir.join(name)).unwrap())
        .collect();
    let resumed = gate
        .command("measure")
        .env("ISOMER_EVAL_CONFIGURATIONS", "model-a")
        .output()
        .unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        support::output_text(&resumed)
    );
    assert_eq!(gate.requests(), (5, 0));
    for (name, bytes) in names.iter().zip(&before) {
        assert_eq!(&std::fs::read(dir.join(name)).unwrap(), bytes, "{name}");
    }
}

#[test]
fn a_token_cap_on_the_suite_counts_every_configuration() {
    let answer = support::pause_answer();
    // 1500, 2500, then 2000 tokens (`support::model_a`): 6000 after the third call, past
    // the cap of 5000.
    let gate = Configurations::start(
        gate_support::build_gate("configurations_gate", Path::new(MANIFEST_DIR)),
        support::model_a([answer.as_str(); 5]),
        vec![support::every(vec![support::completion(&answer, 10, 10)])],
    );
    let output = gate
        .command("measure")
        .args(["--exact", "models::pause"])
        .env("ISOMER_OPENAI_TEST_MAX_TOKENS", "5000")
        .output()
        .unwrap();
    let text = support::output_text(&output);
    assert!(!output.status.success(), "{text}");
    // `model-a` ran first and spent the suite's tokens; `model-b` made no call at all.
    assert_eq!(gate.requests(), (3, 0), "{text}");
    let capped = "generate attempt 0 failed: max_tokens cap of suite `models` reached: 6000 tokens spent by 3 live calls, cap 5000; no further live call is made in this run";
    let mut expected = format!(
        "---- models::pause ----\nconfiguration `model-a`: case `pause#3` did not complete: {capped}\ncase `pause#4` did not complete: {capped}\nconfiguration `model-b`: "
    );
    for repeat in 0..5 {
        if repeat > 0 {
            expected.push('\n');
        }
        expected.push_str(&format!("case `pause#{repeat}` did not complete: {capped}"));
    }
    assert!(
        String::from_utf8_lossy(&output.stdout).contains(&format!("{expected}\n\n")),
        "{text}"
    );
    assert!(!gate.recordings.path().join("model-b/answers").exists());
}
