//! Per-case start-up of an eval gate: the instructions one `--exact <case>` process of the
//! 1,000-case slides gate (`gate_startup_gate`) executes, against a libtest-mimic binary
//! with 1,000 empty trials (`gate_startup_empty`), in the dev profile (what
//! `cargo nextest run` builds) and in release. cargo-nextest starts one such process per
//! case, so this ratio is what a large corpus pays per case.
//!
//! Counts are callgrind's (`valgrind --tool=callgrind`), which are stable on a noisy
//! machine where wall time is not; each line prints both counts and their ratio, measured
//! in the same run:
//!
//! ```text
//! $ cargo bench -p isomer-slides --bench gate_startup
//! dev      gate 163,976,650 Ir  empty 3,223,336 Ir  ratio 50.9x
//! release  gate 36,868,922 Ir  empty 1,559,014 Ir  ratio 23.6x
//! ```
//!
//! (measured when this benchmark was added, with the 27-primitive pack). With the
//! 40-primitive pack the dev gate took 241.0M Ir (75.7x the empty binary's 3.19M); the
//! harness then stopped building the authoring prompt and context for a replayed case,
//! stopped dropping the suite at exit, and the sdk compiles each primitive's validator on
//! first use: 133.3M Ir (41.8x); release 24.5M Ir against 1.52M (16.1x). Of the dev count,
//! building the slides runtime is 120.5M (the node schemas and their check against the
//! meta-schema), the case itself 7.4M and the harness's start (arguments, 1,000 trial
//! names, the name check) about 5M.
//!
//! Needs `valgrind` on `PATH`. Builds both binaries in both profiles with cargo first
//! (a no-op when they are built).

use std::path::{Path, PathBuf};
use std::process::Command;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// Builds `bench` of this package (in release when `release`) and returns its executable.
fn build(bench: &str, release: bool) -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(MANIFEST_DIR)
        .args(["build", "-p", "isomer-slides", "--bench", bench])
        .args(["--message-format=json-render-diagnostics"]);
    if release {
        command.arg("--release");
    }
    let output = command.output().expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo build --bench {bench} failed"
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["target"]["name"] == bench)
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo built no executable for {bench}"))
}

/// The instructions `binary --exact <trial>` executes under callgrind.
fn instructions(binary: &Path, trial: &str) -> u64 {
    let output = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(binary)
        .args(["--exact", trial])
        .current_dir(MANIFEST_DIR)
        .env("INSTA_UPDATE", "no")
        .output()
        .expect("valgrind runs (is it installed?)");
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .find_map(|line| {
            let counted = line.split("Collected : ").nth(1)?;
            counted.trim().parse().ok()
        })
        .unwrap_or_else(|| panic!("no instruction count from callgrind:\n{stderr}"))
}

/// `1234567` as `1,234,567`.
fn grouped(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn main() {
    // `cargo bench` passes `--bench`; this measurement takes no filter.
    for (profile, release) in [("dev", false), ("release", true)] {
        let gate = build("gate_startup_gate", release);
        let empty = build("gate_startup_empty", release);
        let gate_ir = instructions(&gate, "gate_1000::case-0500");
        let empty_ir = instructions(&empty, "empty::case-0500");
        println!(
            "{profile:<8} gate {} Ir  empty {} Ir  ratio {:.1}x",
            grouped(gate_ir),
            grouped(empty_ir),
            gate_ir as f64 / empty_ir as f64
        );
    }
}
