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
//! dev      gate 50,474,035 Ir  empty 3,187,391 Ir  ratio 15.8x
//! release  gate 9,977,227 Ir  empty 1,523,423 Ir  ratio 6.5x
//! ```
//!
//! How it got there: 164.0M / 36.9M (50.9x / 23.6x) when this benchmark was added with the
//! 27-primitive pack; 241.0M in dev with all 40 primitives; 133.3M / 24.5M (41.8x / 16.1x)
//! once the harness stopped building the authoring prompt for a replayed case and the sdk
//! compiled each validator on first use; 51.8M / 11.3M (16.1x / 7.3x) once each primitive's
//! schema is also derived, normalized and read for child slots on first use (the slides pack
//! gives its schemas with `PrimitiveBuilder::schema_with`), so building the 40-primitive
//! runtime fell from 120.5M to 5.9M in dev; the figures above once a `--exact` process
//! checks only its own trial's name clashes, builds the 1,000 trial names without `format!`
//! (0.93M of release start-up) and building a primitive clones its catalog example once
//! instead of twice.
//!
//! What is left is mostly jsonschema's: before compiling the first schema of a process it
//! builds a validator for the draft 2020-12 meta-schema and checks the schema against it.
//! Building that validator alone is 28.0M in dev (8.7x the whole empty binary) and 4.8M in
//! release (3.1x); jsonschema 0.61 has no public option to compile without that check, so
//! neither profile can come within 2x of the empty binary while a case's schemas are compiled
//! with it. Without it the gate is 5.2M in release (3.4x the empty binary) and 22.4M in dev
//! (7.0x). Of that, in release: the main thread (arguments, the 1,000 trials, libtest-mimic)
//! 1.1M, below the empty binary's 1.3M; loading the larger binary 0.55M (the empty one's
//! 0.22M); building the slides runtime (40 catalog entries and builders) 1.3M; compiling
//! the root and the case's four node schemas and checking the answer 2.0M; the harness
//! around the case (replayed answer, scoring, Tokio) 0.2M.
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
