//! Compile-fail tests for `#[isomer_eval]`: each file under `tests/ui/eval/` is one mistake,
//! and its `.stderr` pins the message and where it points. `tests/ui/eval-pass/` holds
//! expansions that must build and whose gate must pass when run (two suites in a target).
//!
//! The `.stderr` files were produced by rustc 1.95.0 (the workspace's `rust-version`);
//! rustc's rendering of diagnostics drifts between releases, so regenerate them with
//! `TRYBUILD=overwrite cargo test -p isomer-evals --test ui_eval` when the pinned
//! toolchain moves, and read the diff.
//!
//! trybuild compiles each file in `target/tests/trybuild/isomer-evals`, where
//! `CARGO_MANIFEST_DIR` names that copy rather than this package (dtolnay/trybuild#202),
//! so `corpus = "tests/fixtures/..."` would not resolve. The macro reads
//! `ISOMER_EVAL_MANIFEST_DIR` first; this test sets it for the trybuild run by running
//! itself again as a child process with the variable in its environment (the workspace
//! forbids the `unsafe` that `std::env::set_var` needs).

use std::process::Command;

const OVERRIDE: &str = "ISOMER_EVAL_MANIFEST_DIR";

#[test]
fn ui_eval() {
    if std::env::var_os(OVERRIDE).is_none() {
        let status = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "ui_eval", "--nocapture", "--test-threads", "1"])
            .env(OVERRIDE, env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(
            status.success(),
            "the trybuild run failed; its output is above"
        );
        return;
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/eval/*.rs");
    cases.pass("tests/ui/eval-pass/*.rs");
}
