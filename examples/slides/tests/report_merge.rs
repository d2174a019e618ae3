//! `isomer-report --merge`: the slides gate (`tests/slides_eval.rs`, 49 cases) run as three
//! shards of a partitioned run merges to the run file of the unpartitioned run, and shards
//! that are not of one run are refused with what differs, where and why.
//!
//! The shards are really run by cargo-nextest (`cargo nextest run --partition count:k/3`
//! with `ISOMER_EVAL_SHARD=k`); without cargo-nextest they are run through libtest's
//! filters instead (one gate process per shard, `--skip` for every trial of the other
//! shards, the trials dealt round-robin in name order as nextest's `count:` partition deals
//! them). The test prints which.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use isomer_evals::run_file::RunFile;

#[path = "../../../isomer-evals/tests/gate_support/mod.rs"]
mod gate_support;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");
const REPORT: &str = env!("CARGO_BIN_EXE_isomer-report");

fn gate() -> &'static Path {
    static GATE: OnceLock<PathBuf> = OnceLock::new();
    GATE.get_or_init(|| gate_support::build_gate("slides_eval", Path::new(MANIFEST_DIR)))
}

/// The gate run with `args`, its run files under `runs`, sharded when `shard` is given.
fn run_gate(args: &[&str], runs: &Path, shard: Option<&str>) -> Output {
    let mut command = Command::new(gate());
    command
        .args(args)
        .current_dir(MANIFEST_DIR)
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove("ISOMER_EVAL_RECORD")
        .env_remove("ISOMER_EVAL_RECORDINGS_SLIDES")
        .env_remove("NEXTEST_RUN_ID")
        .env("ISOMER_EVAL_RUNS", runs);
    match shard {
        Some(shard) => command.env("ISOMER_EVAL_SHARD", shard),
        None => command.env_remove("ISOMER_EVAL_SHARD"),
    };
    command.output().expect("the gate runs")
}

fn report(args: &[&str], dir: &Path) -> Output {
    Command::new(REPORT)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("isomer-report runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The only file in `dir` whose name starts with `prefix`.
fn only_file(dir: &Path, prefix: &str) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with(prefix) && name.ends_with(".json"))
        })
        .collect();
    assert_eq!(files.len(), 1, "{files:?} in {}", dir.display());
    files.into_iter().next().unwrap()
}

fn read(path: &Path) -> RunFile {
    RunFile::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Whether `cargo nextest` runs here.
fn has_nextest() -> bool {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(["nextest", "--version"])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Runs shard `k` of 3 of the gate with its run files under `runs`, and returns the case
/// trials that ran in it (`slides::<id>`, `totals` aside).
fn run_shard(k: usize, runs: &Path, nextest: bool) -> BTreeSet<String> {
    let shard = k.to_string();
    if nextest {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(cargo)
            .args(["nextest", "run", "--workspace", "--test", "slides_eval"])
            .arg("--partition")
            .arg(format!("count:{k}/3"))
            .args(["--status-level", "pass", "--final-status-level", "none"])
            .current_dir(MANIFEST_DIR)
            .env_remove("ISOMER_EVAL_ACCEPT")
            .env_remove("ISOMER_EVAL_RECORD")
            .env_remove("ISOMER_EVAL_RECORDINGS_SLIDES")
            .env("ISOMER_EVAL_RUNS", runs)
            .env("ISOMER_EVAL_SHARD", &shard)
            .output()
            .expect("cargo nextest runs");
        let stderr = text(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        // `PASS [   0.051s] (3/17) isomer-slides::slides_eval slides::events-stat`
        return stderr
            .lines()
            .filter(|line| line.trim_start().starts_with("PASS"))
            .filter_map(|line| line.rsplit(' ').next())
            .filter(|name| !name.ends_with("::totals"))
            .map(str::to_owned)
            .collect();
    }
    let listed = run_gate(&["--list"], runs, None);
    let mut names: Vec<String> = text(&listed.stdout)
        .lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .map(str::to_owned)
        .collect();
    names.sort();
    let (mine, others): (Vec<_>, Vec<_>) = names
        .into_iter()
        .enumerate()
        .partition(|(at, _)| at % 3 == k - 1);
    let mut args = vec!["--exact".to_owned()];
    for (_, name) in &others {
        args.push("--skip".to_owned());
        args.push(name.clone());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run_gate(&args, runs, Some(&shard));
    assert!(output.status.success(), "{}", text(&output.stderr));
    mine.into_iter()
        .map(|(_, name)| name)
        .filter(|name| !name.ends_with("::totals"))
        .collect()
}

#[test]
fn three_shards_merge_to_the_unpartitioned_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let output = run_gate(&[], &whole, None);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let whole = read(&only_file(&whole.join("slides"), "run-"));
    assert_eq!(whole.runs.len(), 49);

    let nextest = has_nextest();
    println!(
        "shards run by {}",
        if nextest {
            "cargo nextest run --partition count:k/3"
        } else {
            "libtest filters (cargo-nextest is not installed)"
        }
    );
    let shards = dir.path().join("shards");
    let mut shard_files = Vec::new();
    let mut every_case = BTreeSet::new();
    for k in 1..=3 {
        let ran = run_shard(k, &shards.join(k.to_string()), nextest);
        let path = only_file(&shards.join(k.to_string()).join("slides"), "shard-");
        assert!(
            path.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(&format!("shard-{k}-")),
            "{}",
            path.display()
        );
        // Each shard's file holds exactly the cases that shard ran, and the sharded
        // `totals` writes no run file of its own.
        let held: BTreeSet<String> = read(&path)
            .runs
            .iter()
            .map(|run| format!("slides::{}", run.case_id))
            .collect();
        assert_eq!(held, ran, "shard {k}");
        assert!(ran.len() >= 16, "shard {k} ran {}", ran.len());
        every_case.extend(ran);
        let copy = dir.path().join(format!("shard-{k}.json"));
        std::fs::copy(&path, &copy).unwrap();
        shard_files.push(format!("shard-{k}.json"));
    }
    assert_eq!(every_case.len(), 49);

    let mut args = vec!["--merge"];
    args.extend(shard_files.iter().map(String::as_str));
    args.extend(["-o", "merged.json"]);
    let output = report(&args, dir.path());
    assert_eq!(
        text(&output.stderr),
        "wrote the merged run file merged.json\n"
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        text(&output.stdout),
        "\
suite `slides` (replay, repeat 1), 3 shards merged
cases             49 of 49 in the corpus
runs              49
parsed            1.00
valid             0.98
valid after retry 1.00
selection F1      0.99
expected hit      1.00
answerability yes 0.96
cases passed      49 of 49
"
    );
    let merged = read(&dir.path().join("merged.json"));
    assert_eq!(merged.axes, whole.axes);
    assert_eq!(merged.pass_rates, whole.pass_rates);
    assert_eq!(merged.runs, whole.runs);
    assert_eq!(merged.suite_floor_misses, whole.suite_floor_misses);
    // The corpus version and the declared floors, as the files carry them.
    let json = |file: &RunFile| serde_json::to_value(file).unwrap();
    assert_eq!(json(&merged)["corpus"], json(&whole)["corpus"]);
    assert_eq!(json(&merged)["floors"], json(&whole)["floors"]);
    assert_eq!(merged.not_measured, whole.not_measured);
    assert_eq!(merged.live_calls, 0);

    // Two shards only: the merge says which cases no shard ran, and exits 1.
    let output = report(&["--merge", "shard-1.json", "shard-2.json"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    let missing: Vec<&str> = stdout
        .split("not run (no shard holds them):\n")
        .nth(1)
        .unwrap()
        .lines()
        .collect();
    let shard_3 = read(&dir.path().join("shard-3.json"));
    let expected: Vec<String> = whole
        .runs
        .iter()
        .filter(|run| {
            shard_3
                .runs
                .iter()
                .any(|other| other.case_id == run.case_id)
        })
        .map(|run| format!("  {}", run.case_id))
        .collect();
    assert_eq!(missing, expected);
    assert!(stdout.contains(&format!(
        "cases             {} of 49 in the corpus\n",
        49 - expected.len()
    )));
}

/// A shard file with `edit` applied, written to `dir/name`.
fn edited(dir: &Path, from: &Path, name: &str, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(from).unwrap()).unwrap();
    edit(&mut value);
    std::fs::write(
        dir.join(name),
        serde_json::to_string_pretty(&value).unwrap(),
    )
    .unwrap();
}

#[test]
fn shards_of_different_runs_and_bad_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    // Two one-case shards, written by the gate itself.
    for (shard, case) in [("a", "events-stat"), ("b", "ci-pipeline")] {
        let output = run_gate(
            &["--exact", &format!("slides::{case}")],
            &runs.join(shard),
            Some(shard),
        );
        assert!(output.status.success(), "{}", text(&output.stderr));
        let path = only_file(&runs.join(shard).join("slides"), "shard-");
        std::fs::copy(path, dir.path().join(format!("{shard}.json"))).unwrap();
    }
    // A shard's `totals` runs no case and writes no run file.
    let totals_runs = dir.path().join("totals-only");
    let output = run_gate(&["--exact", "slides::totals"], &totals_runs, Some("t"));
    assert_eq!(output.status.code(), Some(0));
    let stderr = text(&output.stderr);
    let prefix = format!(
        "slides::totals: ISOMER_EVAL_SHARD is set, so this is one shard of a partitioned run: no case runs here; this shard's case trials write their runs to {}/slides/shard-t-p",
        totals_runs.display()
    );
    assert!(stderr.starts_with(&prefix), "{stderr}");
    assert!(
        stderr.ends_with(".json; merge every shard's file with `isomer-report --merge`, which checks the suite floors\n"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!totals_runs.exists());

    let a = dir.path().join("a.json");
    let refused = |args: &[&str]| {
        let output = report(args, dir.path());
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&output.stdout), "", "{args:?}");
        text(&output.stderr)
    };
    assert_eq!(
        refused(&["--merge", "a.json", "a.json", "-o", "merged.json"]),
        "error: cannot merge: case `events-stat` is in both a.json and a.json; a case runs in one shard only (two shards of one partition, or one file given twice?)\n"
    );
    assert!(!dir.path().join("merged.json").exists());

    edited(dir.path(), &a, "suite.json", |value| {
        value["suite"] = "todo".into();
    });
    assert_eq!(
        refused(&["--merge", "b.json", "suite.json"]),
        "error: cannot merge b.json and suite.json: they differ in suite (`slides` in b.json, `todo` in suite.json); a merge joins the shards of one suite\n"
    );
    edited(dir.path(), &a, "corpus.json", |value| {
        value["corpus"]["digest"] = "sha256:00".into();
    });
    let stderr = refused(&["--merge", "b.json", "corpus.json"]);
    assert!(
        stderr.starts_with(
            "error: cannot merge b.json and corpus.json: they differ in corpus version (sha256:"
        ),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(" in b.json, sha256:00 in corpus.json); corpus.json changed between the shards' builds; run every shard from one commit\n"),
        "{stderr}"
    );
    edited(dir.path(), &a, "mode.json", |value| {
        value["mode"] = "measure".into();
    });
    assert_eq!(
        refused(&["--merge", "b.json", "mode.json"]),
        "error: cannot merge b.json and mode.json: they differ in mode (\"replay\" in b.json, \"measure\" in mode.json); the shards of one run get their answers the same way\n"
    );
    edited(dir.path(), &a, "repeat.json", |value| {
        value["repeat"] = 3.into();
    });
    assert_eq!(
        refused(&["--merge", "b.json", "repeat.json"]),
        "error: cannot merge b.json and repeat.json: they differ in repeat (1 in b.json, 3 in repeat.json); every shard must run each case as many times\n"
    );
    edited(dir.path(), &a, "label.json", |value| {
        value["label"] = serde_json::json!({ "model": "gpt-4.1" });
    });
    assert_eq!(
        refused(&["--merge", "b.json", "label.json"]),
        "error: cannot merge b.json and label.json: they differ in label ({} in b.json, {\"model\":\"gpt-4.1\"} in label.json); a merge joins the shards of one model configuration; set configurations side by side with --compare\n"
    );
    edited(dir.path(), &a, "configured.json", |value| {
        value["configuration"] = "fast".into();
    });
    assert_eq!(
        refused(&["--merge", "b.json", "configured.json"]),
        "error: cannot merge b.json and configured.json: they differ in configuration (none in b.json, `fast` in configured.json); a merge joins the shards of one model configuration; set configurations side by side with --compare\n"
    );
    edited(dir.path(), &a, "older.json", |value| {
        let object = value.as_object_mut().unwrap();
        object.remove("corpus");
        object.remove("floors");
    });
    assert_eq!(
        refused(&["--merge", "older.json", "b.json"]),
        "error: cannot merge older.json: it names no corpus version (a harness older than shard merges wrote it, without `corpus` and `floors`); run its shard again\n"
    );
    edited(dir.path(), &a, "format.json", |value| {
        value["format"] = 2.into();
    });
    assert_eq!(
        refused(&["--merge", "format.json", "b.json"]),
        "error: format.json: a run file of format 2; this version reads format 1\n"
    );
    edited(dir.path(), &a, "partial.json", |value| {
        value.as_object_mut().unwrap().remove("runs");
    });
    // serde names where the object missing the field ends: its closing brace, alone on the
    // pretty-printed file's last line.
    let lines = std::fs::read_to_string(dir.path().join("partial.json"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(
        refused(&["--merge", "partial.json"]),
        format!(
            "error: partial.json: not a run file: missing field `runs` at line {lines} column 1\n"
        )
    );
    std::fs::write(dir.path().join("notes.txt"), "shard 1 of 3\n").unwrap();
    assert_eq!(
        refused(&["--merge", "notes.txt"]),
        "error: notes.txt: not JSON: expected value at line 1 column 1\n"
    );
    std::fs::write(dir.path().join("list.json"), "[1, 2]\n").unwrap();
    assert_eq!(
        refused(&["--merge", "list.json"]),
        "error: list.json: not a run file: it is not a JSON object\n"
    );
    let stderr = refused(&["--merge", "gone.json"]);
    assert!(
        stderr.starts_with("error: cannot read the run file gone.json: "),
        "{stderr}"
    );

    // Two shards of one run merge, in either order, into corpus order.
    let output = report(&["--merge", "b.json", "a.json", "--json"], dir.path());
    // A partial merge: the other 47 cases ran in no shard.
    assert_eq!(output.status.code(), Some(1));
    let merged = RunFile::from_json(&text(&output.stdout)).unwrap();
    let order: Vec<&str> = merged.runs.iter().map(|run| run.case_id.as_str()).collect();
    // The corpus order, as the merged file's corpus version lists its cases.
    let corpus = serde_json::to_value(&merged).unwrap()["corpus"]["cases"].clone();
    let cases = corpus.as_array().unwrap();
    let at = |id: &str| cases.iter().position(|case| case == id).unwrap();
    assert_eq!(order.len(), 2);
    assert!(at(order[0]) < at(order[1]), "{order:?}");
}
