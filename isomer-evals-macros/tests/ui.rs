//! Compile-fail tests of both macros in one trybuild run: each file under `tests/ui/tool/`
//! (`#[isomer_tool]`) and `tests/ui/eval/` (`#[isomer_eval]`) is one mistake, and its
//! `.stderr` pins the message and where it points.
//!
//! One run, and only compile-fail cases, keeps the suite cheap: trybuild builds one project
//! for all of them with `cargo check` (it switches every case to `cargo build`, dependencies
//! included, as soon as one case must pass), and its dependencies are this crate's
//! dev-dependencies (the sdk and isomer-evals, no slides pack). Expansions that must build
//! and run are ordinary test targets instead (`isomer-evals/tests/eval_expansions.rs`,
//! `tests/tool.rs`).
//!
//! The test is `#[ignore]`d, so `cargo test --workspace` leaves it out: run it with
//! `cargo test -p isomer-evals-macros --test ui -- --ignored` (CI runs it in a step of its
//! own, after the workspace's tests).
//!
//! The `.stderr` files were produced by rustc 1.95.0 (the workspace's `rust-version`);
//! rustc's rendering of diagnostics drifts between releases, so regenerate them with
//! `TRYBUILD=overwrite cargo test -p isomer-evals-macros --test ui` when the pinned
//! toolchain moves, and read the diff.
//!
//! trybuild compiles each file in `target/tests/trybuild/isomer-evals-macros`, where
//! `CARGO_MANIFEST_DIR` names that copy rather than a package (dtolnay/trybuild#202). The
//! eval cases name the fixture corpora of isomer-evals (`corpus = "tests/fixtures/eval/..."`),
//! so this test points the macro's `ISOMER_EVAL_MANIFEST_DIR` override at that package by
//! running itself again as a child process with the variable set (the workspace forbids the
//! `unsafe` that `std::env::set_var` needs).

use std::process::Command;

const OVERRIDE: &str = "ISOMER_EVAL_MANIFEST_DIR";

#[test]
#[ignore = "one trybuild project for every compile-fail case (about a minute of cargo check); CI runs it in a step of its own: cargo test -p isomer-evals-macros --test ui -- --ignored"]
fn ui() {
    if std::env::var_os(OVERRIDE).is_none() {
        let evals = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../isomer-evals");
        let status = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "ui",
                "--include-ignored",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(OVERRIDE, evals.canonicalize().unwrap())
            .status()
            .unwrap();
        assert!(
            status.success(),
            "the trybuild run failed; its output is above"
        );
        return;
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/tool/*.rs");
    cases.compile_fail("tests/ui/eval/*.rs");
}
