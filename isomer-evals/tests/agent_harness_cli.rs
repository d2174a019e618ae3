//! Runs the built `slides_agent_eval` gate (`#[isomer_eval(agent, ...)]` over
//! `corpus/slides-agent`) the way cargo and nextest do, and asserts its output: the trial
//! names, `--exact` on one case reading only that case's transcript, and the failure
//! messages of a missing turn and of floors (value and floor). Regressed recordings are
//! copies of the committed transcripts in a temporary directory, handed to the gate through
//! `ISOMER_EVAL_RECORDINGS_SLIDES_AGENT`; nothing is accepted.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod gate_support;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");
const VARIABLE: &str = "ISOMER_EVAL_RECORDINGS_SLIDES_AGENT";

/// The path of the gate binary (cargo builds it once; a no-op after `cargo test`).
fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("slides_agent_eval", Path::new(MANIFEST_DIR)))
}

/// Runs the gate with `args`, replaying from `recordings` when given.
fn run(args: &[&str], recordings: Option<&Path>) -> Output {
    let mut command = Command::new(gate());
    command
        .args(args)
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove(VARIABLE);
    if let Some(dir) = recordings {
        command.env(VARIABLE, dir);
    }
    command.output().expect("the gate runs")
}

/// Stdout with `finished in 0.12s` masked as `finished in <t>`.
fn stdout(output: &Output) -> String {
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    text.lines()
        .map(|line| match line.find("finished in ") {
            Some(at) => format!("{}finished in <t>", &line[..at]),
            None => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A fresh recordings directory holding copies of the committed transcripts of `ids`.
fn recordings(name: &str, ids: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("isomer-agent-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("transcripts")).unwrap();
    let committed = Path::new(MANIFEST_DIR).join("../corpus/slides-agent/transcripts");
    for id in ids {
        let file = format!("{id}.0.json");
        std::fs::copy(committed.join(&file), dir.join("transcripts").join(&file)).unwrap();
    }
    dir
}

const CASES: [&str; 8] = [
    "refund-latency",
    "release-plan",
    "how-a-change-ships",
    "cli-install",
    "region-latency",
    "incident-agenda",
    "ledger-title",
    "settlement-terms",
];

#[test]
fn list_names_one_trial_per_case_then_totals() {
    let output = run(&["--list"], None);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "slides_agent::refund-latency: test
slides_agent::release-plan: test
slides_agent::how-a-change-ships: test
slides_agent::cli-install: test
slides_agent::region-latency: test
slides_agent::incident-agenda: test
slides_agent::ledger-title: test
slides_agent::settlement-terms: test
slides_agent::totals: test"
    );
}

#[test]
fn exact_replays_one_case_from_its_own_transcript_only() {
    let dir = recordings("exact", &["release-plan"]);
    // Another case's transcript that cannot be read: the release-plan trial must not open it.
    let broken = dir.join("transcripts/refund-latency.0.json");
    std::fs::write(&broken, "{\"turns\": [").unwrap();
    let output = run(&["--exact", "slides_agent::release-plan"], Some(&dir));
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "\nrunning 1 test\ntest slides_agent::release-plan ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 8 filtered out; finished in <t>\n"
    );
    // The broken file is there, and its own case's trial does read it.
    let output = run(&["--exact", "slides_agent::refund-latency"], Some(&dir));
    assert_eq!(output.status.code(), Some(101));
    assert!(
        stdout(&output).contains(&format!(
            "---- slides_agent::refund-latency ----\ntranscripts that cannot be replayed (refund-latency.0.json):\n  {path}: is not a transcript: EOF while parsing a list at line 1 column 11\n",
            path = broken.display()
        )),
        "{}",
        stdout(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_turn_fails_its_case_below_the_valid_floor() {
    let others: Vec<&str> = CASES
        .iter()
        .copied()
        .filter(|id| *id != "release-plan")
        .collect();
    let dir = recordings("missing", &others);
    let output = run(&["--exact", "slides_agent::release-plan"], Some(&dir));
    assert_eq!(output.status.code(), Some(101));
    assert_eq!(
        stdout(&output),
        "
running 1 test
test slides_agent::release-plan ... FAILED

failures:

---- slides_agent::release-plan ----
case `release-plan` is below its floors (valid):
  valid: false, floor true
missing turns (the replay answers them with an empty turn, ending the run): transcripts/release-plan.0.json turn 0
the answer's validation errors (1):
  EOF while parsing a value at line 1 column 0


failures:
    slides_agent::release-plan

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 8 filtered out; finished in <t>
"
    );
    // The other cases still pass on their own transcripts.
    let output = run(&["--exact", "slides_agent::cli-install"], Some(&dir));
    assert!(output.status.success(), "{}", stdout(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn totals_names_suite_floors_missing_turns_unread_transcripts_and_the_moved_baseline() {
    let others: Vec<&str> = CASES
        .iter()
        .copied()
        .filter(|id| *id != "release-plan")
        .collect();
    let dir = recordings("totals", &others);
    std::fs::write(
        dir.join("transcripts/retired-case.0.json"),
        "{\"turns\": []}",
    )
    .unwrap();
    let output = run(&["--exact", "slides_agent::totals"], Some(&dir));
    assert_eq!(output.status.code(), Some(101));
    let text = stdout(&output);
    let message = text
        .split("---- slides_agent::totals ----\n")
        .nth(1)
        .expect("the failure message");
    assert!(
        message.starts_with(
            "suite `slides_agent` is below its floors (min_valid_ratio):
  min_valid_ratio: 0.875, floor >= 1
missing turns (the replay answers them with an empty turn, ending the run): transcripts/release-plan.0.json turn 0
transcripts no replay of the corpus reads (an unknown case id, or a repeat past the suite's 1; rename or delete them): transcripts/retired-case.0.json
the baseline moved:
  slides_agent__report: results[1].turns: 4 -> 1, "
        ),
        "{message}"
    );
    assert!(
        message.contains(
            "\n  slides_agent__report_text: the formatted report differs\n  slides_agent__baseline: missingTurns: [] -> [{\"caseId\":\"release-plan\",\"repeat\":0,\"tu…\nfix the recordings first (accepting now would commit the baseline of this broken replay); then, to accept it: ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-evals --test slides_agent_eval -- --exact slides_agent::totals, then review the .snap diff and commit it\n"
        ),
        "{message}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_recordings_variable_naming_no_directory_fails_each_trial_by_name() {
    let nowhere =
        std::env::temp_dir().join(format!("isomer-agent-cli-{}-nowhere", std::process::id()));
    let output = run(&["--exact", "slides_agent::cli-install"], Some(&nowhere));
    assert_eq!(output.status.code(), Some(101));
    assert!(
        stdout(&output).contains(&format!(
            "---- slides_agent::cli-install ----\nISOMER_EVAL_RECORDINGS_SLIDES_AGENT names {}, which is not a directory: point it at a directory holding transcripts/, or unset it to replay ../corpus/slides-agent\n",
            nowhere.display()
        )),
        "{}",
        stdout(&output)
    );
}
