//! Builds the todo pack from a copy outside this workspace, as a new user who copies
//! `examples/todo-pack` into a project of their own does, with the dependency lines the
//! README shows (path dependencies on this workspace's crates), and runs its gate. The copy
//! starts without `tests/snapshots/`, as a pack written from the README's steps does, so
//! step 4's accept command must make the directory and write the first baseline; then every
//! trial passes, `--print-prompt` prints `corpus/prompt.txt`, `--list` into a closed pipe
//! exits quietly, and a golden the runtime refuses fails its own case and `totals`, naming
//! the case, the path and the message.
//!
//! Both tests are `#[ignore]`d, so `cargo test --workspace` leaves them out; CI runs the
//! first in a step of its own, and the second needs the network.
//!
//! Two ways in, one flow ([`gate_from_a_copy`]):
//! - [`the_example_builds_and_gates_outside_the_workspace`] copies this workspace's
//!   `Cargo.lock` and builds into this workspace's `target/` (cargo's `CARGO_TARGET_DIR`),
//!   so the dependencies already compiled are reused and nothing is fetched (`--offline`):
//!   the README's advice to a newcomer who wants the shortest first build.
//! - [`a_newcomer_with_a_fresh_lock_builds_and_gates`] is what a newcomer meets who skips
//!   that advice: no lock (cargo resolves the newest compatible versions from crates.io) and
//!   a target directory of its own, so every dependency is fetched and compiled (55 s on two
//!   idle cores with the crates already downloaded). It needs the network and is
//!   `#[ignore]`d; run it with `cargo test -p todo-pack --test outside_workspace -- --ignored
//!   --exact a_newcomer_with_a_fresh_lock_builds_and_gates`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn workspace() -> PathBuf {
    Path::new(MANIFEST_DIR)
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The `[workspace.dependencies]` entry of `name` in the workspace manifest, with a
/// `path` made absolute.
fn dependency_line(workspace: &Path, name: &str) -> String {
    let manifest = std::fs::read_to_string(workspace.join("Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|line| line.starts_with(&format!("{name} = ")))
        .unwrap_or_else(|| panic!("{name} is a workspace dependency"));
    line.replace("path = \"", &format!("path = \"{}/", workspace.display()))
}

/// The example's manifest made standalone: workspace keys written out, dependency lines
/// from the workspace's table, and an empty `[workspace]` of its own.
fn standalone_manifest(workspace: &Path) -> String {
    let manifest = std::fs::read_to_string(Path::new(MANIFEST_DIR).join("Cargo.toml")).unwrap();
    let mut out = String::new();
    for line in manifest.lines() {
        let written = match line {
            "version.workspace = true" => "version = \"0.1.0\"".to_owned(),
            "edition.workspace = true" => "edition = \"2024\"".to_owned(),
            "rust-version.workspace = true" => "rust-version = \"1.95\"".to_owned(),
            "license.workspace = true" => "license = \"Apache-2.0\"".to_owned(),
            "repository.workspace = true" | "[lints]" | "workspace = true" => continue,
            _ => match line.strip_suffix(".workspace = true") {
                Some(name) => dependency_line(workspace, name),
                None => line.to_owned(),
            },
        };
        out.push_str(&written);
        out.push('\n');
    }
    out.push_str("\n[workspace]\n");
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// How the copy is built: with the workspace's lock and target directory, or as a
/// newcomer who copied neither.
#[derive(Clone, Copy)]
enum Lock {
    /// `Cargo.lock` copied from the workspace, `--offline`, the workspace's `target/`.
    Workspace,
    /// No lock copied (cargo resolves one, online), a target directory inside the scratch
    /// directory.
    Fresh,
}

/// `cargo test --test todo_eval <args>` in `copy`, built as `lock` says, with `env` set.
fn cargo(copy: &Path, lock: Lock, args: &[&str], env: &[(&str, &str)]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["test", "--test", "todo_eval"]);
    match lock {
        Lock::Workspace => {
            command
                .arg("--offline")
                .env("CARGO_TARGET_DIR", workspace().join("target"));
        }
        Lock::Fresh => {
            command.env("CARGO_TARGET_DIR", copy.join("target"));
        }
    }
    command
        .args(args)
        .current_dir(copy)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove("CI")
        .env_remove("ISOMER_EVAL_RECORDINGS_TODO_PACK")
        .envs(env.iter().copied())
        .output()
        .expect("cargo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
#[ignore = "builds the copy's dependencies once more (about two minutes); CI runs it in a step of its own: cargo test -p todo-pack --test outside_workspace -- --ignored --exact the_example_builds_and_gates_outside_the_workspace"]
fn the_example_builds_and_gates_outside_the_workspace() {
    gate_from_a_copy(Lock::Workspace);
}

#[test]
#[ignore = "resolves a fresh lock and compiles every dependency in a target directory of its own (network needed; about a minute on two idle cores); run with --ignored"]
fn a_newcomer_with_a_fresh_lock_builds_and_gates() {
    gate_from_a_copy(Lock::Fresh);
}

/// The README's steps on a copy of the example: accept the first baseline, run the gate,
/// print the prompt, list into a closed pipe, then refuse a broken golden.
fn gate_from_a_copy(lock: Lock) {
    let workspace = workspace();
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("todo-pack");
    for dir in ["src", "tests", "corpus"] {
        copy_dir(&Path::new(MANIFEST_DIR).join(dir), &copy.join(dir));
    }
    std::fs::write(copy.join("Cargo.toml"), standalone_manifest(&workspace)).unwrap();
    if let Lock::Workspace = lock {
        std::fs::copy(workspace.join("Cargo.lock"), copy.join("Cargo.lock")).unwrap();
    }

    // Step 4 on a pack that has no baseline yet: the accept command makes
    // `tests/snapshots/` and writes the three files, the same as the committed ones.
    let snapshots = copy.join("tests/snapshots");
    std::fs::remove_dir_all(&snapshots).unwrap();
    let accepted = cargo(
        &copy,
        lock,
        &["--", "--exact", "todo_pack::totals"],
        &[("ISOMER_EVAL_ACCEPT", "1")],
    );
    assert!(
        accepted.status.success(),
        "{}\n{}",
        text(&accepted.stdout),
        text(&accepted.stderr)
    );
    for name in [
        "todo_pack__report.snap",
        "todo_pack__report_text.snap",
        "todo_pack__baseline.snap",
    ] {
        let committed =
            std::fs::read_to_string(Path::new(MANIFEST_DIR).join("tests/snapshots").join(name))
                .unwrap();
        let written = std::fs::read_to_string(snapshots.join(name)).unwrap();
        assert_eq!(
            written.replace("\r\n", "\n"),
            committed.replace("\r\n", "\n"),
            "{name}"
        );
    }

    let run = cargo(&copy, lock, &[], &[]);
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}\n{}", text(&run.stderr));
    for trial in ["groceries", "release-steps", "one-chore", "totals"] {
        assert!(
            stdout.lines().any(
                |line| line.starts_with(&format!("test todo_pack::{trial} "))
                    && line.ends_with("... ok")
            ),
            "{stdout}"
        );
    }
    assert!(
        stdout.contains("test result: ok. 4 passed; 0 failed"),
        "{stdout}"
    );

    let printed = cargo(&copy, lock, &["--", "--print-prompt"], &[]);
    assert!(printed.status.success(), "{}", text(&printed.stderr));
    let recorded = std::fs::read_to_string(copy.join("corpus/prompt.txt")).unwrap();
    assert_eq!(text(&printed.stdout), recorded);

    // `--list` into a pipe whose reader is gone, as `| head` leaves it.
    let built = cargo(&copy, lock, &["--no-run", "--message-format=json"], &[]);
    let gate = text(&built.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find_map(|message| {
            (message["target"]["name"] == "todo_eval")
                .then(|| message["executable"].as_str().map(PathBuf::from))
                .flatten()
        })
        .expect("cargo names the gate's executable");
    let mut child = Command::new(gate)
        .arg("--list")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let listed = child.wait_with_output().unwrap();
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    assert_eq!(text(&listed.stderr), "");

    // A typo in `expected`: the case names it where it sits.
    let corpus = copy.join("corpus/corpus.json");
    let manifest = std::fs::read_to_string(&corpus).unwrap();
    let typo = manifest.replacen(
        r#""expected": ["todoItem"]"#,
        r#""expected": ["todoItm"]"#,
        1,
    );
    assert_ne!(typo, manifest);
    std::fs::write(&corpus, typo).unwrap();
    let missed = cargo(&copy, lock, &["--", "--exact", "todo_pack::one-chore"], &[]);
    let stdout = text(&missed.stdout);
    assert!(!missed.status.success(), "{stdout}");
    assert!(
        stdout.contains(
            "---- todo_pack::one-chore ----\ncase `one-chore`: `expected` names types the catalog does not have (corpus.json:41:20):\n  corpus/corpus.json:41:20: `todoItm` is not a type of the catalog\ncase `one-chore` is below its floors:\n  expected_hit: false, floor true\n"
        ),
        "{stdout}"
    );
    std::fs::write(&corpus, &manifest).unwrap();

    // A golden the runtime refuses: an empty item text.
    let broken = manifest.replacen(
        r#"{ "type": "todoItem", "text": "Water the plants" }"#,
        r#"{ "type": "todoItem", "text": "" }"#,
        1,
    );
    assert_ne!(broken, manifest);
    std::fs::write(&corpus, broken).unwrap();
    let refused_case = cargo(&copy, lock, &["--", "--exact", "todo_pack::one-chore"], &[]);
    let stdout = text(&refused_case.stdout);
    assert!(!refused_case.status.success(), "{stdout}");
    assert!(
        stdout.contains(
            "---- todo_pack::one-chore ----\ncase `one-chore`: the runtime refuses its golden (corpus.json:38:41):\n  corpus/corpus.json:38:41: golden.body[0].items[0].text (in todoItem) must not be empty\n"
        ),
        "{stdout}"
    );
    let refused = cargo(&copy, lock, &["--", "--exact", "todo_pack::totals"], &[]);
    let stdout = text(&refused.stdout);
    assert!(!refused.status.success(), "{stdout}");
    assert!(
        stdout.contains(
            "goldens the runtime refuses, to fix in corpus/corpus.json (case `one-chore`):\n  case `one-chore`: body[0].items[0].text (in todoItem) must not be empty\n"
        ),
        "{stdout}"
    );
}
