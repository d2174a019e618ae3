//! Records a small corpus end to end through the eval harness (`record_gate`) from a
//! loopback server replaying recorded Chat Completions exchanges (a rate limit and a
//! server error among them), into a directory holding only `corpus.json`; then replays it
//! with the switch off: both runs pass the same committed baseline
//! (`tests/snapshots/record__*.snap`), so the recorded run and the replay report the same,
//! and what was written equals the recordings committed beside the fixture (which a plain
//! `cargo test` replays). A second `missing` run calls nothing.

#[path = "../../isomer-evals/tests/gate_support/mod.rs"]
mod gate_support;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::{Value, json};
use support::{Loopback, last_message};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("record_gate", Path::new(MANIFEST_DIR)))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(MANIFEST_DIR)
        .join("tests/fixtures/record")
        .join(name)
}

/// Runs the gate over the recordings in `dir`, live against `url` when given, with
/// `ISOMER_EVAL_RECORD` set to `record` when given; the baseline is never accepted.
fn run(dir: &Path, url: Option<&str>, record: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(gate());
    command
        .args(args)
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env("ISOMER_EVAL_RECORDINGS_RECORD", dir)
        .env_remove("ISOMER_OPENAI_TEST_URL")
        .env_remove("ISOMER_EVAL_RECORD");
    if let Some(url) = url {
        command.env("ISOMER_OPENAI_TEST_URL", url);
    }
    if let Some(record) = record {
        command.env("ISOMER_EVAL_RECORD", record);
    }
    command.output().expect("the gate runs")
}

fn assert_passes(output: &Output) {
    assert!(output.status.success(), "{}", support::output_text(output));
}

/// A recordings directory holding a copy of the record fixture's `corpus.json` and nothing
/// else.
fn fresh_recordings() -> tempfile::TempDir {
    support::corpus_only(&fixture(""))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn records_a_corpus_then_replays_it_with_the_same_report() {
    let dir = fresh_recordings();
    let server = Loopback::from_file(&fixture("exchanges.json"));

    let recorded = run(dir.path(), Some(&server.base_url), Some("missing"), &[]);
    assert_passes(&recorded);
    let requests = server.requests();
    // latency-statement: a 429, then its answer. timeout-two-files: a 500, then a first
    // attempt the slides frame refuses, then the retry. One verdict for each.
    assert_eq!(requests.len(), 7, "{requests:#?}");
    let prompt = read(&dir.path().join("prompt.txt"));
    let generates: Vec<String> = requests
        .iter()
        .filter(|request| request["messages"].as_array().unwrap().len() == 1)
        .map(last_message)
        .collect();
    assert_eq!(generates.len(), 5);
    assert!(
        generates
            .iter()
            .all(|text| text.starts_with(&format!("{prompt}\n\n## Request\n\n")))
    );

    let exchanges: Value = serde_json::from_str(&read(&fixture("exchanges.json"))).unwrap();
    let served = |exchange: usize, response: usize| {
        exchanges[exchange]["responses"][response]["body"]["choices"][0]["message"]["content"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let answers = dir.path().join("answers");
    assert_eq!(read(&answers.join("latency-statement.0.txt")), served(4, 1));
    assert_eq!(read(&answers.join("timeout-two-files.0.txt")), served(3, 1));
    assert_eq!(read(&answers.join("timeout-two-files.1.txt")), served(2, 0));
    assert!(!answers.join("latency-statement.1.txt").exists());
    for name in [
        "latency-statement.0.txt",
        "timeout-two-files.0.txt",
        "timeout-two-files.1.txt",
    ] {
        assert_eq!(
            read(&answers.join(name)),
            read(&fixture("answers").join(name)),
            "{name}"
        );
    }
    assert_eq!(
        read(&dir.path().join("prompt.txt")),
        read(&fixture("prompt.txt"))
    );

    let judgments: Value = serde_json::from_str(&read(&dir.path().join("judgments.json"))).unwrap();
    let provenance = judgments["provenance"]["recording"].clone();
    let date = provenance["date"].as_str().unwrap().to_owned();
    assert_eq!(date.len(), 10, "{date}");
    assert_eq!(
        provenance,
        json!({
            "date": date,
            "model": "gpt-test",
            "baseUrl": server.base_url,
            "temperature": 0.0,
            "client": concat!("isomer-openai ", env!("CARGO_PKG_VERSION")),
        })
    );
    let verdicts: Vec<(&str, &str)> = judgments["judgments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|judgment| {
            (
                judgment["id"].as_str().unwrap(),
                judgment["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("latency-statement", "yes"),
            ("timeout-two-files", "partial")
        ]
    );
    let corpus: Value = serde_json::from_str(&read(&dir.path().join("corpus.json"))).unwrap();
    assert_eq!(corpus["provenance"]["recording"], provenance);
    assert_eq!(
        corpus["cases"],
        serde_json::from_str::<Value>(&read(&fixture("corpus.json"))).unwrap()["cases"]
    );

    // All recordings exist: `missing` calls nothing, and the run still passes.
    let again = run(dir.path(), Some(&server.base_url), Some("missing"), &[]);
    assert_passes(&again);
    assert_eq!(server.requests().len(), 7);

    // The switch off: a strict replay passes the same baseline.
    let replayed = run(dir.path(), None, None, &[]);
    assert_passes(&replayed);
    assert_eq!(server.requests().len(), 7);
}

#[test]
fn one_case_is_recorded_by_name() {
    let dir = fresh_recordings();
    let server = Loopback::from_file(&fixture("exchanges.json"));
    let output = run(
        dir.path(),
        Some(&server.base_url),
        Some("all"),
        &["--exact", "record::latency-statement"],
    );
    assert_passes(&output);
    let requests = server.requests();
    // The rate limit, the answer, the verdict; nothing of the other case.
    assert_eq!(requests.len(), 3);
    let mut written: Vec<String> = std::fs::read_dir(dir.path().join("answers"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    assert_eq!(written, ["latency-statement.0.txt"]);
}

#[test]
fn record_mode_without_a_live_model_says_what_to_add() {
    let dir = fresh_recordings();
    let output = run(
        dir.path(),
        None,
        Some("missing"),
        &["--exact", "record::latency-statement"],
    );
    assert!(!output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "ISOMER_EVAL_RECORD asks suite `record` to record, but it declares no live model: return `Suite::new(runtime).live(generate)` from its #[isomer_eval] function (add `.judge(judge)` to record verdicts too; isomer-openai's `ChatClient` gives both), or unset ISOMER_EVAL_RECORD to replay"
        ),
        "{stdout}"
    );
    assert!(!dir.path().join("answers").exists());
}

#[test]
fn an_unknown_record_mode_is_refused_naming_the_values() {
    let dir = fresh_recordings();
    let output = run(
        dir.path(),
        None,
        Some("yes"),
        &["--exact", "record::latency-statement"],
    );
    assert!(!output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "ISOMER_EVAL_RECORD=\"yes\" is not a record mode: set `missing` to call the model for the recordings that are missing, `all` to record every one afresh, `measure` to record what is missing and check the floors without the baseline, or unset it to replay"
        ),
        "{stdout}"
    );
}

fn agent_gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("record_agent_gate", Path::new(MANIFEST_DIR)))
}

#[test]
fn records_an_agent_run_with_every_turn_in_the_replay_format() {
    let fixtures = Path::new(MANIFEST_DIR).join("tests/fixtures/record-agent");
    let dir = support::corpus_only(&fixtures);
    let server = Loopback::from_file(&fixtures.join("exchanges.json"));
    let run = |record: Option<&str>| {
        let mut command = Command::new(agent_gate());
        command
            .current_dir(MANIFEST_DIR)
            .env_remove("ISOMER_EVAL_ACCEPT")
            .env_remove("ISOMER_EVAL_RECORD")
            .env("ISOMER_EVAL_RECORDINGS_RECORD_AGENT", dir.path())
            .env("ISOMER_OPENAI_TEST_URL", &server.base_url);
        if let Some(record) = record {
            command.env("ISOMER_EVAL_RECORD", record);
        }
        command.output().expect("the gate runs")
    };

    assert_passes(&run(Some("missing")));
    // A rate limit, then the four turns of the run, each once.
    assert_eq!(server.requests().len(), 5);
    // The transcript written is the committed one it was served from, tool results and
    // all: the tools answered the recorded calls as they did when it was recorded.
    assert_eq!(
        read(&dir.path().join("transcripts/cli-install.0.json")),
        read(
            &Path::new(MANIFEST_DIR).join("../corpus/slides-agent/transcripts/cli-install.0.json")
        )
    );
    let corpus: Value = serde_json::from_str(&read(&dir.path().join("corpus.json"))).unwrap();
    assert_eq!(corpus["provenance"]["recording"]["model"], "gpt-test");

    assert_passes(&run(Some("missing")));
    assert_eq!(server.requests().len(), 5);
    assert_passes(&run(None));
    assert_eq!(server.requests().len(), 5);
}
