//! The README's record command (`ISOMER_EVAL_RECORD=all`, every trial) prints the true
//! latency and tokens of the live calls, whichever trial made them: the figures are
//! compared with what the loopback server answered (its `usage`) and how long it waited
//! before answering. The run file each run leaves reads back into
//! `isomer_evals::run_file::RunFile` and says the same; a replay's says it measured
//! nothing, and a record run that had everything already says it made no live call.

#[path = "../../isomer-evals/tests/gate_support/mod.rs"]
mod gate_support;
mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use isomer_evals::run_file::{CallSource, RunFile, RunMode};
use serde_json::{Value, json};
use support::{Exchange, Loopback, Response, output_text as text};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn fixture() -> PathBuf {
    Path::new(MANIFEST_DIR).join("tests/fixtures/record")
}

fn run(gate: &Path, dir: &Path, runs: &Path, url: Option<&str>, mode: Option<&str>) -> Output {
    support::record_command(gate, dir, runs, url, mode)
        .output()
        .expect("the gate runs")
}

/// The one run file in `runs/record`, read back, after removing it.
fn take_run_file(runs: &Path) -> RunFile {
    let dir = runs.join("record");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let path = files.pop().unwrap();
    let name = path.file_name().unwrap().to_str().unwrap().to_owned();
    assert!(
        name.starts_with("run-") && name.ends_with("Z.json"),
        "{name}"
    );
    let file = support::read_run_file(&path);
    std::fs::remove_file(&path).unwrap();
    file
}

/// A 200 answer from the fixture's recorded `body`, with `usage` replaced and answered
/// after `delay_ms`.
fn timed(body: &Value, prompt_tokens: u64, completion_tokens: u64, delay_ms: u64) -> Response {
    let mut body = body.clone();
    body["usage"] = json!({"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens});
    support::delayed(
        Response {
            status: 200,
            headers: Vec::new(),
            body,
        },
        delay_ms,
    )
}

/// The number after `<label> mean ` in `stderr`.
fn mean_of(stderr: &str, label: &str) -> f64 {
    let start = stderr
        .find(label)
        .unwrap_or_else(|| panic!("{label}: {stderr}"))
        + label.len();
    let rest = stderr[start..].trim_start().strip_prefix("mean ").unwrap();
    rest.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn the_record_command_prints_the_calls_own_latency_and_tokens() {
    let gate = gate_support::build_gate("record_gate", Path::new(MANIFEST_DIR));
    let dir = support::corpus_only(&fixture());
    let runs = tempfile::tempdir().unwrap();
    // The fixture's exchanges, each answered at once with its 200 answer, after a known
    // wait and with known tokens: generate 120 ms, judge 60 ms.
    let recorded = support::exchanges(&fixture().join("exchanges.json"));
    let success = |index: usize| {
        recorded[index]
            .responses
            .iter()
            .find(|response| response.status == 200)
            .unwrap()
            .body
            .clone()
    };
    let exchange = |index: usize, response: Response| Exchange {
        responses: vec![response],
        ..recorded[index].clone()
    };
    let exchanges = vec![
        // The judge of latency-statement, then of timeout-two-files.
        exchange(0, timed(&success(0), 10, 1, 60)),
        exchange(1, timed(&success(1), 20, 2, 60)),
        // timeout-two-files: the retry, then the first attempt (the frame refuses it).
        exchange(2, timed(&success(2), 3000, 300, 120)),
        exchange(3, timed(&success(3), 2000, 200, 120)),
        // latency-statement.
        exchange(4, timed(&success(4), 1000, 100, 120)),
    ];
    let server = Loopback::start(exchanges);

    let recorded = run(
        &gate,
        dir.path(),
        runs.path(),
        Some(&server.base_url),
        Some("all"),
    );
    assert!(recorded.status.success(), "{}", text(&recorded));
    assert_eq!(server.requests().len(), 5);
    let stderr = String::from_utf8_lossy(&recorded.stderr).into_owned();
    // Per run: latency-statement 1000 + 10 in, 100 + 1 out; timeout-two-files 2000 + 3000
    // + 20 in, 200 + 300 + 2 out. Mean 3015 and 301.5; nearest-rank p50 the smaller, p95
    // the larger.
    assert!(
        stderr.contains(
            "record::totals, the live calls of this run (5 calls):\nmeasured runs 2\ngenerate ms   mean "
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "\ninput tokens  mean 3015.00 / p50 1010.00 / p95 5020.00\noutput tokens mean 301.50 / p50 101.00 / p95 502.00\n"
        ),
        "{stderr}"
    );
    // Generate waited 120 ms once for one run and twice for the other (mean 180 ms); the
    // judge 60 ms for each. A figure read from the replayed files would be far below (a
    // busy machine may add to the calls, so the upper bound is loose).
    let generate = mean_of(&stderr, "generate ms");
    assert!((180.0..30_000.0).contains(&generate), "{generate}");
    let judge = mean_of(&stderr, "judge ms");
    assert!((60.0..30_000.0).contains(&judge), "{judge}");

    let file = take_run_file(runs.path());
    assert_eq!(file.format, 1);
    assert_eq!(file.suite, "record");
    assert_eq!(file.mode, RunMode::RecordAll);
    assert_eq!(file.label["model"], "gpt-test");
    assert_eq!(file.label["baseUrl"], server.base_url.as_str());
    assert_eq!(file.started_at.len(), "2026-12-06T19:50:03Z".len());
    assert_eq!(file.repeat, 1);
    assert_eq!(file.live_calls, 5);
    assert_eq!(file.not_measured, None);
    let measured = file.measured.unwrap();
    assert_eq!(measured.runs, 2);
    assert_eq!(
        (measured.input_tokens.mean, measured.output_tokens.mean),
        (3015.0, 301.5)
    );
    assert_eq!(file.axes.valid.mean, 0.5);
    assert_eq!(file.axes.valid_after_retry.mean, 1.0);
    assert_eq!(file.axes.valid.standard_error, None);
    let rates: Vec<(&str, usize, usize)> = file
        .pass_rates
        .iter()
        .map(|rate| (rate.case_id.as_str(), rate.passed, rate.runs))
        .collect();
    assert_eq!(
        rates,
        [("latency-statement", 1, 1), ("timeout-two-files", 1, 1)]
    );
    assert_eq!(file.suite_floor_misses, Vec::<String>::new());
    let [latency, timeout] = &file.runs[..] else {
        panic!("{:?}", file.runs)
    };
    assert_eq!(
        (latency.case_id.as_str(), timeout.case_id.as_str()),
        ("latency-statement", "timeout-two-files")
    );
    let tokens = |call: &isomer_evals::run_file::CallRecord| {
        (
            call.source,
            call.attempt,
            call.input_tokens,
            call.output_tokens,
        )
    };
    assert_eq!(
        latency.attempts.iter().map(tokens).collect::<Vec<_>>(),
        [(CallSource::Live, Some(0), Some(1000), Some(100))]
    );
    assert_eq!(
        timeout.attempts.iter().map(tokens).collect::<Vec<_>>(),
        [
            (CallSource::Live, Some(0), Some(2000), Some(200)),
            (CallSource::Live, Some(1), Some(3000), Some(300))
        ]
    );
    assert_eq!(
        tokens(latency.judge.as_ref().unwrap()),
        (CallSource::Live, None, Some(10), Some(1))
    );
    for call in latency.attempts.iter().chain(&timeout.attempts) {
        assert!(call.latency_ms.unwrap() >= 120.0, "{call:?}");
    }
    // The provider's finish reason of every live call, generate and judge alike.
    let judges = [&latency.judge, &timeout.judge].into_iter().flatten();
    for call in latency
        .attempts
        .iter()
        .chain(&timeout.attempts)
        .chain(judges)
    {
        assert_eq!(call.finish_reason.as_deref(), Some("stop"), "{call:?}");
    }
    assert!(timeout.scores.valid_after_retry && !timeout.scores.valid);
    assert_eq!(timeout.error, None);

    // Everything is recorded: a `missing` run calls nothing and says so.
    let again = run(
        &gate,
        dir.path(),
        runs.path(),
        Some(&server.base_url),
        Some("missing"),
    );
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(server.requests().len(), 5);
    assert!(
        String::from_utf8_lossy(&again.stderr).contains(
            "record::totals: no live call in this run (every answer was recorded already)"
        ),
        "{}",
        text(&again)
    );
    let file = take_run_file(runs.path());
    assert_eq!(file.mode, RunMode::RecordMissing);
    assert_eq!(
        (file.live_calls, file.measured, file.not_measured.as_deref()),
        (0, None, Some("no live call in this run"))
    );

    // A replay measures nothing, and its run file says so.
    let replayed = run(&gate, dir.path(), runs.path(), None, None);
    assert!(replayed.status.success(), "{}", text(&replayed));
    let file = take_run_file(runs.path());
    assert_eq!(file.mode, RunMode::Replay);
    assert_eq!(
        (file.live_calls, file.measured, file.not_measured.as_deref()),
        (0, None, Some("not measured in replay"))
    );
    assert_eq!(file.runs[1].attempts.len(), 2);
    assert!(
        file.runs[1]
            .attempts
            .iter()
            .all(|call| call.source == CallSource::Recording && call.latency_ms.is_none())
    );
}
