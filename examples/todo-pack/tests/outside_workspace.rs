//! Builds the todo pack from a copy outside this workspace, as a new user who copies
//! `examples/todo-pack` into a project of their own does, with the dependency lines the
//! README shows (path dependencies on this workspace's crates), and runs its gate: every
//! trial passes, `--print-prompt` prints `corpus/prompt.txt`, `--list` into a closed
//! pipe exits quietly, and a golden the runtime refuses fails `totals` naming the case,
//! the path and the message.
//!
//! The copy builds into this workspace's `target/` (cargo's `CARGO_TARGET_DIR`), with this
//! workspace's `Cargo.lock`, so the dependencies already compiled for the workspace are
//! reused and nothing is fetched (`--offline`).

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

fn cargo(copy: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(["test", "--offline", "--test", "todo_eval"])
        .args(args)
        .current_dir(copy)
        .env("CARGO_TARGET_DIR", workspace().join("target"))
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove("CI")
        .env_remove("ISOMER_EVAL_RECORDINGS_TODO_PACK")
        .output()
        .expect("cargo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_example_builds_and_gates_outside_the_workspace() {
    let workspace = workspace();
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("todo-pack");
    for dir in ["src", "tests", "corpus"] {
        copy_dir(&Path::new(MANIFEST_DIR).join(dir), &copy.join(dir));
    }
    std::fs::write(copy.join("Cargo.toml"), standalone_manifest(&workspace)).unwrap();
    std::fs::copy(workspace.join("Cargo.lock"), copy.join("Cargo.lock")).unwrap();

    let run = cargo(&copy, &[]);
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

    let printed = cargo(&copy, &["--", "--print-prompt"]);
    assert!(printed.status.success(), "{}", text(&printed.stderr));
    let recorded = std::fs::read_to_string(copy.join("corpus/prompt.txt")).unwrap();
    assert_eq!(text(&printed.stdout), recorded);

    // `--list` into a pipe whose reader is gone, as `| head` leaves it.
    let built = cargo(&copy, &["--no-run", "--message-format=json"]);
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

    // A golden the runtime refuses: an empty item text.
    let corpus = copy.join("corpus/corpus.json");
    let manifest = std::fs::read_to_string(&corpus).unwrap();
    let broken = manifest.replacen(
        r#"{ "type": "todoItem", "text": "Water the plants" }"#,
        r#"{ "type": "todoItem", "text": "" }"#,
        1,
    );
    assert_ne!(broken, manifest);
    std::fs::write(&corpus, broken).unwrap();
    let refused = cargo(&copy, &["--", "--exact", "todo_pack::totals"]);
    let stdout = text(&refused.stdout);
    assert!(!refused.status.success(), "{stdout}");
    assert!(
        stdout.contains(
            "goldens the runtime refuses, to fix in corpus/corpus.json (case `one-chore`):\n  case `one-chore`: body[0].items[0].text (in todoItem) must not be empty\n"
        ),
        "{stdout}"
    );
}
