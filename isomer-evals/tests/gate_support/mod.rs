//! Finds the executable of a `harness = false` eval gate, for the tests that run a gate as
//! its user does (arguments in, exit status and output compared exactly).
//!
//! Shared by `isomer-evals/tests/*_cli.rs` (as `mod gate_support;`) and by the slides
//! crate's `slides_eval_cli.rs` (by `#[path]`), which all drive a gate binary.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds test target `target` of `package` (a no-op when `cargo test` already built it)
/// and returns the path of its executable, as cargo's JSON messages report it.
///
/// `manifest_dir` is the calling package's directory, where cargo runs. Panics with
/// cargo's stderr when the build fails, and when cargo names no executable for `target`:
/// both mean the test cannot run at all.
pub fn build_gate(package: &str, target: &str, manifest_dir: &Path) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "test",
            "-p",
            package,
            "--test",
            target,
            "--no-run",
            "--message-format=json",
        ])
        .current_dir(manifest_dir)
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "building the gate failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["target"]["name"] == target)
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .expect("cargo reports the gate's executable")
}
