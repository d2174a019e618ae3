//! A failing gate trial as CI reads it: `cargo nextest run` with a JUnit profile over the
//! `eval_fixture_gate` binary, one case replayed from regressed recordings, puts the
//! trial's floor summary in `<failure message="…">`; libtest's JSON output carries the
//! same line first in the failed event's `stdout`.
//!
//! Without cargo-nextest (`cargo nextest --version` fails) the JUnit test prints why it
//! skips and passes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

mod gate_support;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The summary line of the regressed `mini::good` trial.
const SUMMARY: &str = "case `good` is below its floors (valid_after_retry, min_selection_f1, expected_hit, no_invented_types):";

fn regressed() -> PathBuf {
    Path::new(MANIFEST_DIR).join("tests/fixtures/eval/mini-regressed")
}

fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("eval_fixture_gate", Path::new(MANIFEST_DIR)))
}

/// The value of attribute `name` in the first `<failure ...>` tag of `junit`, unescaped.
fn failure_attribute(junit: &str, name: &str) -> Option<String> {
    let tag_start = junit.find("<failure")?;
    let tag = &junit[tag_start..tag_start + junit[tag_start..].find('>')?];
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = start + tag[start..].find('"')?;
    Some(
        tag[start..end]
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

#[test]
fn nextest_junit_takes_the_floor_summary_as_the_failure_message() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let version = Command::new(&cargo).args(["nextest", "--version"]).output();
    if !version.is_ok_and(|output| output.status.success()) {
        println!(
            "skipped: cargo-nextest is not installed (`cargo nextest --version` failed); install it to run this test"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("nextest.toml");
    let store = dir.path().join("store");
    std::fs::write(
        &config,
        format!(
            "[store]\ndir = {:?}\n\n[profile.junit-check]\nfail-fast = false\n\n[profile.junit-check.junit]\npath = \"junit.xml\"\n",
            store.display().to_string()
        ),
    )
    .unwrap();
    // `--workspace`, as `gate_support::build_gate` explains: the gate binary that
    // `cargo test --workspace` built is reused rather than rebuilt under narrower features.
    let output = Command::new(&cargo)
        .args([
            "nextest",
            "run",
            "--workspace",
            "--test",
            "eval_fixture_gate",
            "--profile",
            "junit-check",
            "--no-tests",
            "fail",
            "-E",
            "test(=mini::good)",
        ])
        .arg("--config-file")
        .arg(&config)
        .current_dir(MANIFEST_DIR)
        .env("ISOMER_EVAL_RECORDINGS_MINI", regressed())
        .env("INSTA_UPDATE", "no")
        .output()
        .expect("cargo nextest runs");
    assert_eq!(
        output.status.code(),
        Some(100),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let junit = std::fs::read_to_string(store.join("junit-check/junit.xml")).unwrap();
    // nextest drops the line's closing colon.
    assert_eq!(
        failure_attribute(&junit, "message").as_deref(),
        Some(format!("Error: {}", SUMMARY.trim_end_matches(':')).as_str()),
        "{junit}"
    );
    assert_eq!(
        failure_attribute(&junit, "type").as_deref(),
        Some("test failure with exit code 101")
    );
}

#[test]
fn libtest_json_carries_the_same_summary_first() {
    let output = Command::new(gate())
        .args(["--format", "json", "--exact", "mini::good"])
        .current_dir(MANIFEST_DIR)
        .env("ISOMER_EVAL_RECORDINGS_MINI", regressed())
        .env("INSTA_UPDATE", "no")
        .output()
        .expect("the gate runs");
    assert_eq!(output.status.code(), Some(101));
    let text = String::from_utf8(output.stdout).unwrap();
    let failed: serde_json::Value = text
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|event| event["event"] == "failed" && event["type"] == "test")
        .expect("a failed event");
    let stdout = failed["stdout"].as_str().unwrap();
    assert_eq!(
        stdout.lines().next(),
        Some(format!("Error: \"{SUMMARY}").as_str())
    );
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!("Error: {SUMMARY}\n")
    );
}
