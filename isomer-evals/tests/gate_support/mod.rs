//! Finds the executable of a `harness = false` eval gate, for the tests that run a gate as
//! its user does (arguments in, exit status and output compared exactly).
//!
//! Shared by `isomer-evals/tests/*_cli.rs` (as `mod gate_support;`) and by the slides
//! crate's `slides_eval_cli.rs` (by `#[path]`), which all drive a gate binary.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds test target `target` of the package in `manifest_dir` (a no-op when
/// `cargo test --workspace` already built it) and returns the path of its executable, as
/// cargo's JSON messages report it.
///
/// The build selects the whole workspace (`--workspace --test <target>`), so cargo
/// resolves features as `cargo test --workspace` does and finds the binary that run
/// already built. `-p <package>` would resolve the package's features alone and rebuild
/// the sdk, isomer-evals and their dependencies a second time under that narrower set.
///
/// Panics with cargo's stderr when the build fails, and when cargo names no executable
/// for `target` in that package: both mean the test cannot run at all.
pub fn build_gate(target: &str, manifest_dir: &Path) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "test",
            "--workspace",
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
    let manifest = manifest_dir.join("Cargo.toml");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| {
            message["target"]["name"] == target
                && message["manifest_path"].as_str().map(Path::new) == Some(manifest.as_path())
        })
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .expect("cargo reports the gate's executable")
}
