//! A live call that fails loses nothing and writes nothing: the record gate (`record_gate`,
//! every trial, as the README's record command runs it) against a loopback server that
//! answers every call with one kind of failure, under `ISOMER_EVAL_RECORD=missing` (one
//! answer file missing, so one attempt is called) and `all` (every attempt called afresh).
//! After each run the recordings directory is byte for byte what it was, and the server saw
//! exactly one call per attempt plus that call's retries: the case trial and `totals` share
//! the failure instead of asking twice.
//!
//! The failures: HTTP 500, 429 with `Retry-After` as seconds and as an HTTP date, a body
//! that is not JSON, a body cut in transit, a server that hangs past the client's timeout,
//! and 200 answers that hold no text (a tool call only, a refusal, a `length` finish, no
//! `choices`). Then a record run killed with SIGKILL in the middle of a call, followed by
//! a `missing` run: the directory replays.

#[path = "../../isomer-evals/tests/gate_support/mod.rs"]
mod gate_support;
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{Value, json};
use support::{Exchange, Loopback, Response, output_text as text};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("record_gate", Path::new(MANIFEST_DIR)))
}

fn fixture() -> PathBuf {
    Path::new(MANIFEST_DIR).join("tests/fixtures/record")
}

/// A copy of the committed recordings of the record fixture.
fn committed_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("answers")).unwrap();
    for name in ["corpus.json", "judgments.json", "prompt.txt"] {
        std::fs::copy(fixture().join(name), dir.path().join(name)).unwrap();
    }
    for entry in std::fs::read_dir(fixture().join("answers")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(
            entry.path(),
            dir.path().join("answers").join(entry.file_name()),
        )
        .unwrap();
    }
    dir
}

/// Every file under `dir` (relative path → bytes), hidden ones included.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                found.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    found
}

/// The gate over the recordings in `dir`, live against `url`, in record mode `mode`; run
/// files go to a directory of their own.
fn command(dir: &Path, runs: &Path, url: Option<&str>, mode: Option<&str>) -> Command {
    support::record_command(gate(), dir, runs, url, mode)
}

/// One kind of failed call: what the server answers, and how many requests one attempt
/// makes (the call and its retries).
struct Failure {
    response: Response,
    /// What the failure message of the case names as the reason.
    reason: &'static str,
    requests_per_attempt: usize,
    env: Vec<(&'static str, &'static str)>,
}

fn error_body(message: &str) -> Value {
    json!({"error": {"message": message, "type": "server_error"}})
}

/// A 200 answer whose first choice's message is `message`, finishing with `finish`.
fn answer(message: Value, finish: &str) -> Response {
    Response {
        status: 200,
        body: json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 7},
        }),
        headers: Vec::new(),
    }
}

/// A valid answer of the latency-statement case, as the fixture records it.
fn valid_answer() -> Response {
    let text = std::fs::read_to_string(fixture().join("answers/latency-statement.0.txt")).unwrap();
    answer(json!({"role": "assistant", "content": text}), "stop")
}

/// Runs `failure` under `missing` and `all` and checks that nothing changed and what the
/// server saw.
fn loses_nothing(failure: Failure) {
    // `missing`: one answer file is absent, so one attempt is called live.
    let dir = committed_copy();
    std::fs::remove_file(dir.path().join("answers/latency-statement.0.txt")).unwrap();
    check_run(&failure, dir.path(), "missing", 1);
    // `all`: the first attempt of both cases is called (and fails: no retry is asked for).
    let dir = committed_copy();
    check_run(&failure, dir.path(), "all", 2);
}

fn check_run(failure: &Failure, dir: &Path, mode: &str, attempts: usize) {
    let before = files(dir);
    let runs = tempfile::tempdir().unwrap();
    let server = Loopback::start(vec![Exchange {
        contains: Vec::new(),
        messages: None,
        responses: vec![failure.response.clone()],
    }]);
    let mut command = command(dir, runs.path(), Some(&server.base_url), Some(mode));
    command.envs(failure.env.iter().copied());
    let output = command.output().unwrap();
    assert!(!output.status.success(), "{mode}: {}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("case `latency-statement` did not complete: generate attempt 0 failed: "),
        "{mode}: {}",
        text(&output)
    );
    assert!(
        stdout.contains(
            "cases that did not complete:\n  latency-statement: generate attempt 0 failed: "
        ),
        "{mode}: {}",
        text(&output)
    );
    assert!(stdout.contains(failure.reason), "{mode}: {}", text(&output));
    assert_eq!(files(dir), before, "{mode}: {}", text(&output));
    assert_eq!(
        server.requests().len(),
        attempts * failure.requests_per_attempt,
        "{mode}: {}",
        text(&output)
    );
}

#[test]
fn a_server_error_loses_nothing() {
    loses_nothing(Failure {
        response: Response {
            status: 500,
            headers: Vec::new(),
            body: error_body("The server had an error while processing your request."),
        },
        reason: "answered HTTP 500 after 4 attempt(s)",
        requests_per_attempt: 4,
        env: Vec::new(),
    });
}

#[test]
fn a_rate_limit_with_retry_after_seconds_loses_nothing() {
    loses_nothing(Failure {
        response: Response {
            status: 429,
            headers: vec![("Retry-After".to_owned(), "0".to_owned())],
            body: error_body("Rate limit reached for requests"),
        },
        reason: "answered HTTP 429 after 4 attempt(s)",
        requests_per_attempt: 4,
        env: Vec::new(),
    });
}

#[test]
fn a_rate_limit_with_retry_after_as_a_date_loses_nothing() {
    loses_nothing(Failure {
        response: Response {
            status: 429,
            // A date in the past: retry at once.
            headers: vec![(
                "Retry-After".to_owned(),
                "Wed, 21 Oct 2015 07:28:00 GMT".to_owned(),
            )],
            body: error_body("Rate limit reached for requests"),
        },
        reason: "answered HTTP 429 after 4 attempt(s)",
        requests_per_attempt: 4,
        env: Vec::new(),
    });
}

#[test]
fn a_body_that_is_not_json_loses_nothing() {
    loses_nothing(Failure {
        // Not JSON from its first byte (JSON that ends early is a cut body, retried once).
        response: support::raw(200, "<html><body>upstream timed out</body></html>"),
        reason: "the body is not JSON",
        requests_per_attempt: 1,
        env: Vec::new(),
    });
}

#[test]
fn a_body_cut_in_transit_is_retried_once_and_loses_nothing() {
    loses_nothing(Failure {
        response: support::cut(valid_answer(), 40),
        reason: "a body cut short after 2 attempt(s)",
        requests_per_attempt: 2,
        env: Vec::new(),
    });
}

#[test]
fn a_server_that_hangs_loses_nothing() {
    loses_nothing(Failure {
        response: support::delayed(valid_answer(), 2_000),
        // The HTTP timeout ends each try; one retry fits in the trial's timeout.
        reason: "failed after 2 attempt(s): no answer within 200ms",
        requests_per_attempt: 2,
        env: vec![
            ("ISOMER_OPENAI_TEST_HTTP_TIMEOUT_MS", "200"),
            ("ISOMER_OPENAI_TEST_RETRIES", "1"),
            ("ISOMER_OPENAI_TEST_TRIAL_TIMEOUT_MS", "1500"),
        ],
    });
}

#[test]
fn a_tool_call_only_answer_loses_nothing() {
    loses_nothing(Failure {
        response: answer(
            json!({"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "render", "arguments": "{}"}}
            ]}),
            "tool_calls",
        ),
        reason: "the model called tools (render) where only text answers",
        requests_per_attempt: 1,
        env: Vec::new(),
    });
}

#[test]
fn a_refusal_loses_nothing() {
    loses_nothing(Failure {
        response: answer(
            json!({"role": "assistant", "content": null, "refusal": "I can't help with that."}),
            "stop",
        ),
        reason: "the model refused: \"I can't help with that.\"",
        requests_per_attempt: 1,
        env: Vec::new(),
    });
}

#[test]
fn an_answer_cut_by_the_length_limit_loses_nothing() {
    loses_nothing(Failure {
        response: answer(
            json!({"role": "assistant", "content": "{\"type\": \"view\", \"body\": [{\"type\": \"slideFr"}),
            "length",
        ),
        reason: "the answer was cut at the token limit",
        requests_per_attempt: 1,
        env: Vec::new(),
    });
}

#[test]
fn an_answer_without_choices_loses_nothing() {
    loses_nothing(Failure {
        response: Response {
            status: 200,
            headers: Vec::new(),
            body: json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": [],
                "usage": {"prompt_tokens": 900, "completion_tokens": 0}}),
        },
        reason: "`choices` is empty",
        requests_per_attempt: 1,
        env: Vec::new(),
    });
}

/// A record run killed (SIGKILL) while one case waits on the model, with another case's
/// answer and verdict already written and a staged file torn by the kill; then a `missing`
/// run records what is left and removes the staged file, and the directory replays,
/// passing the committed baseline. A replay skips a staged file and names it once.
#[test]
fn a_record_run_killed_midway_is_finished_by_missing_and_replays() {
    let dir = support::corpus_only(&fixture());
    let runs = tempfile::tempdir().unwrap();
    let exchanges = support::exchanges(&fixture().join("exchanges.json"));
    // The same exchanges, but the timeout-two-files case's first call never answers.
    let mut hanging = exchanges.clone();
    for exchange in &mut hanging {
        if exchange.contains == ["## Request\n\nTrace the request timeout"] {
            exchange.responses = vec![support::delayed(valid_answer(), 60_000)];
        }
    }
    let server = Loopback::start(hanging);
    let mut child = command(
        dir.path(),
        runs.path(),
        Some(&server.base_url),
        Some("missing"),
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    // latency-statement: a rate limit, its answer and its verdict; timeout-two-files: the
    // call that hangs.
    let judged = dir.path().join("judgments.json");
    let start = std::time::Instant::now();
    while !(judged.exists() && server.requests().len() >= 4) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the record run never got that far: {:?}",
            server.requests().len()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(dir.path().join("answers/latency-statement.0.txt").is_file());
    assert!(!dir.path().join("answers/timeout-two-files.0.txt").exists());
    // What a kill in the middle of a write leaves: a staged file, never renamed.
    let torn = dir.path().join("answers/.isomer-staged-torn");
    std::fs::write(&torn, "{\"type\": \"vi").unwrap();

    let server = Loopback::start(exchanges);
    let finished = command(
        dir.path(),
        runs.path(),
        Some(&server.base_url),
        Some("missing"),
    )
    .output()
    .unwrap();
    assert!(finished.status.success(), "{}", text(&finished));
    assert!(!torn.exists());
    // The torn file, and any the kill itself left (it may land while a file is staged).
    let stderr = String::from_utf8_lossy(&finished.stderr);
    let removed = stderr
        .lines()
        .find(|line| line.starts_with("removed "))
        .unwrap_or_else(|| panic!("{}", text(&finished)));
    assert!(
        removed.contains(&format!(
            " staged file(s) an interrupted run left in {} (never recordings): ",
            dir.path().display()
        )) && removed.contains(&torn.display().to_string()),
        "{}",
        text(&finished)
    );
    // No staged file (`.isomer-staged-…`) is left anywhere under the directory.
    let staged: Vec<PathBuf> = files(dir.path())
        .into_keys()
        .filter(|path| {
            path.file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with(".isomer-staged-"))
        })
        .collect();
    assert_eq!(staged, Vec::<PathBuf>::new());
    // Only what the killed run did not record was asked for: the 500, the first attempt
    // and its retry of timeout-two-files, and its verdict.
    assert_eq!(server.requests().len(), 4, "{}", text(&finished));
    for name in [
        "latency-statement.0.txt",
        "timeout-two-files.0.txt",
        "timeout-two-files.1.txt",
    ] {
        assert_eq!(
            std::fs::read(dir.path().join("answers").join(name)).unwrap(),
            std::fs::read(fixture().join("answers").join(name)).unwrap(),
            "{name}"
        );
    }

    std::fs::write(&torn, "{\"type\": \"vi").unwrap();
    let replayed = command(dir.path(), runs.path(), None, None)
        .output()
        .unwrap();
    assert!(replayed.status.success(), "{}", text(&replayed));
    assert!(
        String::from_utf8_lossy(&replayed.stderr).contains(&format!(
            "record::totals: ignored 1 staged file(s) an interrupted run left (never read as recordings; the next record run removes them): {}",
            torn.display()
        )),
        "{}",
        text(&replayed)
    );
}

/// An agent run recorded afresh (`all`) whose third turn fails after two answered turns
/// leaves the recorded transcript byte for byte: a transcript is written whole once its run
/// has ended, never turn by turn over the old one.
#[test]
fn an_agent_run_whose_step_fails_midway_keeps_its_transcript() {
    let fixtures = Path::new(MANIFEST_DIR).join("tests/fixtures/record-agent");
    let dir = support::corpus_only(&fixtures);
    std::fs::create_dir(dir.path().join("transcripts")).unwrap();
    std::fs::copy(
        fixtures.join("transcripts/cli-install.0.json"),
        dir.path().join("transcripts/cli-install.0.json"),
    )
    .unwrap();
    let before = files(dir.path());
    let mut exchanges = support::exchanges(&fixtures.join("exchanges.json"));
    // The third turn (six messages: the request, then two turns of calls and results).
    let third = exchanges
        .iter_mut()
        .find(|exchange| exchange.messages == Some(6))
        .unwrap();
    third.responses = vec![Response {
        status: 500,
        headers: Vec::new(),
        body: error_body("The server had an error while processing your request."),
    }];
    let server = Loopback::start(exchanges);
    static AGENT_GATE: OnceLock<PathBuf> = OnceLock::new();
    let gate = AGENT_GATE
        .get_or_init(|| gate_support::build_gate("record_agent_gate", Path::new(MANIFEST_DIR)));
    let runs = tempfile::tempdir().unwrap();
    let output = Command::new(gate)
        .args(["--exact", "record_agent::cli-install"])
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env("ISOMER_EVAL_RECORD", "all")
        .env("ISOMER_EVAL_RECORDINGS_RECORD_AGENT", dir.path())
        .env("ISOMER_EVAL_RUNS", runs.path())
        .env("ISOMER_OPENAI_TEST_URL", &server.base_url)
        .output()
        .unwrap();
    // The trial then replays the transcript it kept, which passes.
    assert!(output.status.success(), "{}", text(&output));
    // The rate limit and the first turn, the second turn, the third turn and its retries.
    assert_eq!(server.requests().len(), 7, "{}", text(&output));
    assert_eq!(files(dir.path()), before, "{}", text(&output));
}
