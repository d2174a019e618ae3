//! The committed baseline of a suite: three snapshot files compared with what a `totals`
//! trial produced, by a small comparison of the harness's own.
//!
//! # The files and how they compare
//!
//! A suite's baseline is three files in its snapshot directory: `<suite>__report.snap`
//! (the report as JSON), `<suite>__report_text.snap` (the formatted report) and
//! `<suite>__baseline.snap` (the baseline record as JSON). Each file is a header between
//! two `---` lines, then the contents:
//!
//! ```text
//! ---
//! source: isomer-evals/src/harness/snapshot.rs
//! ---
//! {
//!   "promptSha256": "87dc…",
//! ```
//!
//! The header is insta's (the files were first written with insta, and keep its shape so
//! insta's tools can read them), but the comparison is the harness's own: the contents
//! match when they equal what this run renders, after `\r\n` is read as `\n` and trailing
//! whitespace is dropped on both sides (a checkout may change line ends; an editor may
//! drop the last newline). JSON is rendered by `serde_json`'s pretty printer (two-space
//! indent, keys in the order the types declare them). The header is never compared.
//!
//! insta offers no public way to compare a snapshot without printing its own review
//! advice (`cargo insta review`, "Stopped on the first failure"), which would contradict
//! the harness's, and no way to name the snapshots of one trial per suite; so the harness
//! reads no insta variable, writes no `.snap.new` and prints only its own advice.
//!
//! # When the baseline moved
//!
//! The trial fails naming each moved snapshot (the JSON paths that moved, with the
//! committed and the new value) and writes one unified diff per moved file (short hunks
//! with three lines of context) to stderr, cut after its first lines and naming the file
//! under the target directory that holds all of it (stdout carries libtest's results, JSON
//! lines under `--format json`). With
//! [`ACCEPT_VARIABLE`] set (to anything but empty or `0`) the trial instead rewrites each
//! moved file, keeping its header, and reports nothing as moved; a missing file is
//! written with the header above. A `<name>.snap.new` beside a file that matches or is
//! accepted (left by insta in an earlier version of the harness, or by a failed
//! `cargo insta` run) is removed, so no review tool offers a stale pending snapshot.

use std::path::Path;

use libtest_mimic::Failed;
use serde::Serialize;
use serde_json::Value;

use super::diff::{capped, snapshot_diff};
use super::kind::{SuiteKind, write_misses};
use super::spec::Spec;
use crate::floor::{Scores, misses};
use crate::html::PageKind;
use isomer_corpus::FloorLevel;

/// The variable that makes a `totals` trial accept its baseline: set to anything but empty
/// or `0`, every moved snapshot file is rewritten instead of failing the trial. Read by the
/// `totals` trial only, when it compares.
pub(crate) const ACCEPT_VARIABLE: &str = "ISOMER_EVAL_ACCEPT";

/// How many moved report values a message lists before `(+N more)`.
const MOVES_SHOWN: usize = 8;

/// The header the harness writes above the contents of a snapshot file it creates.
const NEW_HEADER: &str = "---\nsource: isomer-evals/src/harness/snapshot.rs\n---\n";

/// Ends the `totals` trial of `suite` on `report`: writes the suite floors (of the kind's
/// table) that `totals` misses (`suite `<suite>` is below its floors:`, each miss as
/// printed, `min_valid_ratio: 0.5, floor >= 1`) and `faults`, compares the baseline of
/// `report` (serialized to JSON), its text report (the rows [`PageKind::table`] gives, laid
/// out as `format_report` and `format_agent_report` print them) and `baseline` in the
/// suite's snapshot directory ([`compare_baseline`], accepting when [`ACCEPT_VARIABLE`]
/// says so), appends the moved snapshots ([`write_moved`]), and fails with that text
/// (trimmed) unless it is empty. Fails too when the report does not serialize.
///
/// `scorer_misses` are the suite floors of the suite's pack scorers that `totals` misses
/// ([`crate::scorer`]), listed after the table's.
///
/// `faults` are the faults of the recordings, one item a line (a case or run that did not
/// complete, a missing or stale recording, a file no replay reads, a prompt that differs);
/// empty when the replay was sound. Accepting a moved baseline then would commit the
/// broken replay, so the accept hint asks to fix the recordings first.
pub(super) fn conclude_totals<K: SuiteKind, R: PageKind + Serialize>(
    suite: &Spec<K>,
    totals: &dyn Scores,
    scorer_misses: &[String],
    faults: String,
    report: &R,
    baseline: &impl Serialize,
) -> Result<(), Failed> {
    let (name, dir) = (suite.name, Path::new(suite.snapshots));
    let report_text = R::table(report).finish();
    let mut out = String::new();
    let mut misses = misses(suite.floors, K::FLOORS, FloorLevel::Suite, totals);
    misses.extend(scorer_misses.iter().cloned());
    write_misses(&mut out, &format!("suite `{name}`"), &misses);
    out.push_str(&faults);
    let replay_state = if faults.is_empty() {
        ReplayState::Sound
    } else {
        ReplayState::Faulty
    };
    let accept =
        std::env::var_os(ACCEPT_VARIABLE).is_some_and(|value| !value.is_empty() && value != "0");
    let others = other_baselines(dir, name);
    let moved = compare_baseline(name, dir, report, &report_text, baseline, accept)?;
    write_moved(&mut out, name, &moved, replay_state);
    if let Some(note) = others {
        // Accepting passes the trial, so the note goes where a passing trial's words go.
        if accept {
            eprintln!("note: {note}");
        } else {
            out.push_str(&note);
            out.push('\n');
        }
    }
    if replay_state == ReplayState::Faulty && !moved.is_empty() {
        // What the faults did to the scores, as a report command over the same recordings
        // prints it (the baseline moved, so the committed report no longer says).
        out.push_str("the report of this replay:\n");
        out.push_str(&report_text);
    }
    if out.is_empty() {
        Ok(())
    } else {
        Err(out.trim_end().to_owned().into())
    }
}

/// When `dir` holds no baseline of `suite` but holds other suites' (`<name>__report.snap`),
/// the line that names them: a renamed suite leaves its old files behind, which nothing
/// else reads. `None` when `suite` has its report snapshot or `dir` holds no other.
fn other_baselines(dir: &Path, suite: &str) -> Option<String> {
    if dir.join(format!("{suite}__report.snap")).exists() {
        return None;
    }
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|entry| {
            let file = entry.file_name();
            let name = file.to_str()?.strip_suffix("__report.snap")?;
            (name != suite).then(|| name.to_owned())
        })
        .collect();
    if names.is_empty() {
        return None;
    }
    names.sort();
    let files: Vec<String> = names
        .iter()
        .map(|name| format!("{name}__report.snap, {name}__report_text.snap, {name}__baseline.snap"))
        .collect();
    Some(format!(
        "{} holds no baseline of suite `{suite}` but holds the baselines of {}: if `{suite}` was renamed from one of them, delete that suite's files ({}); keep them when they belong to another gate that shares the directory",
        dir.display(),
        names
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", "),
        files.join("; ")
    ))
}

/// Whether a `totals` run replayed sound recordings, for the hint under a moved baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReplayState {
    /// Nothing is wrong with the recordings: a moved baseline may be accepted as it is.
    Sound,
    /// The failure already names a recording fault; the baseline of this run records it.
    Faulty,
}

/// Compares the three snapshot files of `suite` in `dir` (see the [module docs](self)) with
/// `report` (as JSON), `report_text` and `record` (as JSON), in that order. Returns one
/// description per file that moved, empty when all match; writes each moved file's diff to
/// stderr. With `accept`, rewrites the moved files instead and returns only the ones it
/// could not write. Fails when `report` or `record` does not serialize.
pub(crate) fn compare_baseline<R: Serialize, B: Serialize>(
    suite: &str,
    dir: &Path,
    report: &R,
    report_text: &str,
    record: &B,
    accept: bool,
) -> Result<Vec<String>, String> {
    let json = |value: Result<Value, serde_json::Error>, what: &str| {
        value.map_err(|error| format!("cannot serialize the {what}: {error}"))
    };
    let report = json(serde_json::to_value(report), "report")?;
    let record = json(serde_json::to_value(record), "baseline record")?;
    let snapshots = [
        (format!("{suite}__report"), Rendered::Json(&report)),
        (format!("{suite}__report_text"), Rendered::Text(report_text)),
        (format!("{suite}__baseline"), Rendered::Json(&record)),
    ];
    let mut moved = Vec::new();
    for (name, rendered) in &snapshots {
        if let Some(line) = compare_file(suite, dir, name, rendered, accept) {
            moved.push(line);
        }
    }
    Ok(moved)
}

/// What a run renders into one snapshot file.
enum Rendered<'a> {
    /// Written with `serde_json`'s pretty printer; a move names the JSON paths that moved.
    Json(&'a Value),
    /// Written as it is; a move says the text differs.
    Text(&'a str),
}

impl Rendered<'_> {
    fn contents(&self) -> String {
        match self {
            // A `Value` always serializes.
            Rendered::Json(value) => serde_json::to_string_pretty(value).unwrap_or_default(),
            Rendered::Text(text) => (*text).to_owned(),
        }
    }
}

/// Compares `<dir>/<name>.snap` with `rendered`: `None` when it matches (or was accepted),
/// else what moved. See [`compare_baseline`]; the diff is [`write_diff`]'s.
fn compare_file(
    suite: &str,
    dir: &Path,
    name: &str,
    rendered: &Rendered<'_>,
    accept: bool,
) -> Option<String> {
    let path = dir.join(format!("{name}.snap"));
    let file = std::fs::read_to_string(&path)
        .ok()
        .map(|text| text.replace("\r\n", "\n"));
    let split = file.as_deref().map(split_header);
    let new = rendered.contents();
    let committed = split.map(|(_, contents)| contents);
    if committed.is_some_and(|old| old.trim_end() == new.trim_end()) {
        remove_stale_pending(dir, name);
        return None;
    }
    if accept {
        let header = split.map_or(NEW_HEADER, |(header, _)| header);
        let header = if header.is_empty() {
            NEW_HEADER
        } else {
            header
        };
        // A new pack has no snapshot directory yet: the first accept makes it. The file is
        // staged and renamed into place, so a failed write leaves the old baseline whole.
        let written = std::fs::create_dir_all(dir)
            .map_err(|error| format!("cannot write {}: {error}", path.display()))
            .and_then(|()| {
                crate::recordings::write_file(&path, &format!("{header}{}\n", new.trim_end()))
            });
        return match written {
            Ok(()) => {
                remove_stale_pending(dir, name);
                eprintln!("accepted {}", path.display());
                None
            }
            Err(error) => Some(format!("{name}: {error}")),
        };
    }
    if let Some(old) = committed {
        let header = split.map(|(header, _)| header.matches('\n').count());
        write_diff(suite, name, &snapshot_diff(name, old, &new, header));
    }
    Some(match rendered {
        Rendered::Json(value) => describe_json_move(name, committed, value),
        Rendered::Text(_) if committed.is_some() => format!("{name}: the formatted report differs"),
        Rendered::Text(_) => format!("{name}: no committed snapshot"),
    })
}

/// Writes the whole `diff` of the moved snapshot `name` of `suite` to `<name>.diff` beside
/// the suite's run files (`<target>/isomer/<suite>`, or `<ISOMER_EVAL_RUNS>/<suite>`: see
/// [`super::run_log::runs_dir`]; staged and renamed, creating the directory), then its
/// first lines to stderr with that path
/// ([`capped`]): a one-case change stays short on stderr (and in a JUnit `<system-err>`),
/// and the file keeps all of it. A file that cannot be written is named on stderr instead
/// of the path.
fn write_diff(suite: &str, name: &str, diff: &str) {
    let dir = super::run_log::runs_dir(suite);
    let path = dir.join(format!("{name}.diff"));
    let path = std::path::absolute(&path).unwrap_or(path);
    let written = std::fs::create_dir_all(&dir)
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
        .and_then(|()| crate::recordings::write_file(&path, diff));
    match written {
        Ok(()) => eprint!("{}", capped(diff, Some(&path.display().to_string()))),
        Err(error) => {
            eprint!("{}", capped(diff, None));
            eprintln!("{error}");
        }
    }
}

/// Removes `<name>.snap.new` from `dir` once `<name>` holds (matched, or accepted): a
/// pending snapshot left by an earlier run no longer describes anything, and
/// `cargo insta review` would offer to commit it. Nothing when there is none; a file that
/// cannot be removed is named on stderr.
fn remove_stale_pending(dir: &Path, name: &str) {
    let pending = dir.join(format!("{name}.snap.new"));
    match std::fs::remove_file(&pending) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => eprintln!("cannot remove the stale {}: {error}", pending.display()),
    }
}

/// A snapshot file's text (`\n` line ends) as its `---` header, both `---` lines and
/// their newlines included, and the contents after it. A text without such a header is
/// all contents, with an empty header.
pub(super) fn split_header(text: &str) -> (&str, &str) {
    let header = text
        .strip_prefix("---\n")
        .and_then(|body| body.find("\n---\n"))
        .map_or(0, |end| 4 + end + 5);
    text.split_at(header)
}

/// Names what moved in a JSON snapshot (the report or the baseline record):
/// `<name>: no committed snapshot`, or the JSON paths of the values that differ
/// (`results[2].selection.f1: 0.5 -> 0.6667`).
pub(super) fn describe_json_move(name: &str, old: Option<&str>, new: &Value) -> String {
    let Some(old) = old else {
        return format!("{name}: no committed snapshot");
    };
    let Ok(old) = serde_json::from_str::<Value>(old) else {
        return format!("{name}: the committed snapshot is not JSON");
    };
    let mut moves = Vec::new();
    diff_values(String::new(), &old, new, &mut moves);
    let shown: Vec<&str> = moves.iter().take(MOVES_SHOWN).map(String::as_str).collect();
    let more = moves.len().saturating_sub(MOVES_SHOWN);
    let mut text = format!("{name}: {}", shown.join(", "));
    if more > 0 {
        text.push_str(&format!(" (+{more} more)"));
    }
    text
}

/// Collects `path: old -> new` for every leaf that differs, in document order (members of
/// the old object first, then members only the new one has). Walks with an explicit
/// stack, so deep reports cost no call stack.
fn diff_values(path: String, old: &Value, new: &Value, out: &mut Vec<String>) {
    enum Step<'v> {
        Compare(String, &'v Value, &'v Value),
        Moved(String),
    }
    let mut stack = vec![Step::Compare(path, old, new)];
    while let Some(step) = stack.pop() {
        let (path, old, new) = match step {
            Step::Moved(line) => {
                out.push(line);
                continue;
            }
            Step::Compare(path, old, new) => (path, old, new),
        };
        let mut children = Vec::new();
        match (old, new) {
            (Value::Object(a), Value::Object(b)) => {
                for (key, value) in a {
                    let child = join_key(&path, key);
                    children.push(match b.get(key) {
                        Some(other) => Step::Compare(child, value, other),
                        None => Step::Moved(format!("{child}: {} -> absent", short(value))),
                    });
                }
                for (key, value) in b {
                    if !a.contains_key(key) {
                        let child = join_key(&path, key);
                        children.push(Step::Moved(format!("{child}: absent -> {}", short(value))));
                    }
                }
            }
            (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
                for (index, (x, y)) in a.iter().zip(b).enumerate() {
                    children.push(Step::Compare(format!("{path}[{index}]"), x, y));
                }
            }
            _ if old != new => out.push(format!(
                "{}: {} -> {}",
                if path.is_empty() { "(root)" } else { &path },
                short(old),
                short(new)
            )),
            _ => {}
        }
        stack.extend(children.into_iter().rev());
    }
}

fn join_key(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// A value as compact JSON, cut to 40 characters.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn report_moves_name_paths_with_old_and_new_values() {
        let old = json!({
            "results": [{ "caseId": "a", "selection": { "f1": 0.5 } }, { "caseId": "b" }],
            "totals": { "cases": 2, "valid": 1 }
        });
        let new = json!({
            "results": [{ "caseId": "a", "selection": { "f1": 1.0 } }, { "caseId": "b", "error": "x" }],
            "totals": { "cases": 2, "valid": 2 }
        });
        assert_eq!(
            describe_json_move("s__report", Some(&old.to_string()), &new),
            "s__report: results[0].selection.f1: 0.5 -> 1.0, results[1].error: absent -> \"x\", totals.valid: 1 -> 2"
        );
        assert_eq!(
            describe_json_move("s__report", None, &new),
            "s__report: no committed snapshot"
        );
    }

    #[test]
    fn baseline_moves_name_the_list_or_hash_that_moved() {
        let old = json!({ "promptSha256": "aa", "missingRecordings": [], "staleJudgments": [] });
        let new =
            json!({ "promptSha256": "bb", "missingRecordings": [], "staleJudgments": ["good"] });
        assert_eq!(
            describe_json_move("s__baseline", Some(&old.to_string()), &new),
            "s__baseline: promptSha256: \"aa\" -> \"bb\", staleJudgments: [] -> [\"good\"]"
        );
    }

    #[test]
    fn the_header_is_split_from_the_contents() {
        assert_eq!(
            split_header("---\nsource: a.rs\n---\n{\n  \"a\": 1\n}\n"),
            ("---\nsource: a.rs\n---\n", "{\n  \"a\": 1\n}\n")
        );
        assert_eq!(
            split_header("---\nsource: a.rs\nexpression: report\n---\n{}\n"),
            ("---\nsource: a.rs\nexpression: report\n---\n", "{}\n")
        );
        assert_eq!(split_header("{}\n"), ("", "{}\n"));
        assert_eq!(split_header("---\nno end\n"), ("", "---\nno end\n"));
    }

    /// The three files of a suite in a fresh directory: a match, a moved JSON value, a
    /// missing file; then the same accepted, header kept, stale `.snap.new` removed.
    #[test]
    fn files_match_move_and_are_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let path = |name: &str| dir.path().join(name);
        let header = "---\nsource: kept.rs\n---\n";
        std::fs::write(
            path("s__report.snap"),
            format!("{header}{{\r\n  \"valid\": 1\r\n}}"),
        )
        .unwrap();
        std::fs::write(path("s__report_text.snap"), format!("{header}cases 1\n")).unwrap();
        std::fs::write(path("s__report_text.snap.new"), "stale").unwrap();
        std::fs::write(path("s__baseline.snap.new"), "stale").unwrap();
        let report = json!({ "valid": 2 });
        let record = json!({ "missingRecordings": [] });
        let compare = |accept| {
            compare_baseline("s", dir.path(), &report, "cases 1\n\n", &record, accept).unwrap()
        };
        assert_eq!(
            compare(false),
            [
                "s__report: valid: 1 -> 2",
                "s__baseline: no committed snapshot"
            ]
        );
        assert!(!path("s__report_text.snap.new").exists());
        assert!(path("s__baseline.snap.new").exists());
        assert_eq!(compare(true), Vec::<String>::new());
        assert_eq!(
            std::fs::read_to_string(path("s__report.snap")).unwrap(),
            "---\nsource: kept.rs\n---\n{\n  \"valid\": 2\n}\n"
        );
        assert_eq!(
            std::fs::read_to_string(path("s__baseline.snap")).unwrap(),
            "---\nsource: isomer-evals/src/harness/snapshot.rs\n---\n{\n  \"missingRecordings\": []\n}\n"
        );
        assert!(!path("s__baseline.snap.new").exists());
        assert_eq!(compare(false), Vec::<String>::new());
    }

    /// A pack written from the README has no `tests/snapshots/` yet: accepting its first
    /// baseline makes the directory, writes all three files and leaves no staged file.
    #[test]
    fn accepting_into_a_missing_directory_makes_it() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("tests/snapshots");
        let report = json!({ "valid": 1 });
        let record = json!({ "missingRecordings": [] });
        let moved = compare_baseline("s", &dir, &report, "cases 1\n", &record, true).unwrap();
        assert_eq!(moved, Vec::<String>::new());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["s__baseline.snap", "s__report.snap", "s__report_text.snap"]
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("s__report_text.snap")).unwrap(),
            "---\nsource: isomer-evals/src/harness/snapshot.rs\n---\ncases 1\n"
        );
        let matched = compare_baseline("s", &dir, &report, "cases 1\n", &record, false).unwrap();
        assert_eq!(matched, Vec::<String>::new());
    }

    /// A suite renamed from `old` finds only `old`'s files: the note names them; once the
    /// suite has its own baseline, nothing is said.
    #[test]
    fn a_renamed_suite_names_the_baselines_it_left_behind() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(other_baselines(dir.path(), "new"), None);
        for file in [
            "old__report.snap",
            "old__report_text.snap",
            "old__baseline.snap",
        ] {
            std::fs::write(dir.path().join(file), "").unwrap();
        }
        assert_eq!(
            other_baselines(dir.path(), "new"),
            Some(format!(
                "{} holds no baseline of suite `new` but holds the baselines of `old`: if `new` was renamed from one of them, delete that suite's files (old__report.snap, old__report_text.snap, old__baseline.snap); keep them when they belong to another gate that shares the directory",
                dir.path().display()
            ))
        );
        assert_eq!(other_baselines(dir.path(), "old"), None);
        std::fs::write(dir.path().join("new__report.snap"), "").unwrap();
        assert_eq!(other_baselines(dir.path(), "new"), None);
    }

    /// A directory that cannot be made (a file sits where it should be) is named, and the
    /// trial gets one line per snapshot instead of a panic.
    #[test]
    fn a_snapshot_directory_that_cannot_be_made_is_named() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("tests"), "a file").unwrap();
        let dir = root.path().join("tests/snapshots");
        let moved = compare_baseline("s", &dir, &json!({}), "", &json!({}), true).unwrap();
        assert_eq!(moved.len(), 3);
        let expected = format!(
            "s__report: cannot write {}: ",
            dir.join("s__report.snap").display()
        );
        assert!(moved[0].starts_with(&expected), "{moved:?}");
    }
}

/// Appends the "baseline moved" section of a totals failure: each moved
/// snapshot on its own line, then the command that accepts them, naming the
/// running test target (read from the test binary's file name, as cargo
/// names it `<target>-<16 hex digits>`; `<target>` when it cannot be told).
/// With [`ReplayState::Faulty`] the command comes after "fix the recordings
/// first", since accepting now would commit the baseline of a broken replay.
fn write_moved(out: &mut String, suite: &str, moved: &[String], replay_state: ReplayState) {
    use std::fmt::Write as _;
    if moved.is_empty() {
        return;
    }
    let _ = writeln!(out, "the baseline moved:");
    for line in moved {
        let _ = writeln!(out, "  {line}");
    }
    write_accept(
        out,
        this_package().as_deref(),
        &this_target(),
        suite,
        replay_state,
    );
}

/// Appends the command that accepts a moved baseline of `suite`: `cargo test -p
/// <package> --test <target> ...` (without `-p` when the package is not known), so that
/// it runs from the workspace root as from the package's directory.
fn write_accept(
    out: &mut String,
    package: Option<&str>,
    target: &str,
    suite: &str,
    replay_state: ReplayState,
) {
    use std::fmt::Write as _;
    let gate = gate_command(package, target);
    if replay_state == ReplayState::Faulty {
        out.push_str(
            "fix the recordings first (accepting now would commit the baseline of this broken replay); then, ",
        );
    }
    let _ = writeln!(
        out,
        "to accept it: ISOMER_EVAL_ACCEPT=1 {gate} -- --exact {suite}::totals, then review the .snap diff and commit it"
    );
}

/// The cargo target name of the running gate binary (see [`target_name`]), or
/// `<target>` when its file name does not carry cargo's hash suffix.
fn this_target() -> String {
    std::env::args_os()
        .next()
        .and_then(|argv0| target_name(Path::new(&argv0)))
        .unwrap_or_else(|| "<target>".to_owned())
}

/// The package of the running gate: cargo test and cargo nextest set its name for the
/// test process; a binary started by hand has none.
fn this_package() -> Option<String> {
    std::env::var("CARGO_PKG_NAME").ok()
}

/// `cargo test -p <package> --test <target>` for the running gate (without `-p` when
/// the package is not known), so a printed command runs from the workspace root as from
/// the package's directory.
pub(super) fn this_gate_command() -> String {
    gate_command(this_package().as_deref(), &this_target())
}

fn gate_command(package: Option<&str>, target: &str) -> String {
    match package {
        Some(package) => format!("cargo test -p {package} --test {target}"),
        None => format!("cargo test --test {target}"),
    }
}

/// The cargo target name of a test binary path: its file stem without the
/// `-<16 hex digits>` suffix cargo adds. `None` when the stem has no such
/// suffix (a binary run under another name).
fn target_name(binary: &Path) -> Option<String> {
    let stem = binary.file_stem()?.to_str()?;
    let (name, hash) = stem.rsplit_once('-')?;
    (hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) && !name.is_empty())
        .then(|| name.to_owned())
}

#[cfg(test)]
mod target_name_tests {
    use super::{ReplayState, target_name, write_accept, write_moved};
    use std::path::Path;

    #[test]
    fn the_accept_hint_asks_to_fix_faulty_recordings_first() {
        let moved = ["s__report: totals.valid: 2 -> 1".to_owned()];
        let mut sound =
            String::from("suite `s` is below its floors:\n  min_valid_ratio: 0.5, floor >= 1\n");
        write_moved(&mut sound, "s", &moved, ReplayState::Sound);
        assert_eq!(
            sound,
            "suite `s` is below its floors:
  min_valid_ratio: 0.5, floor >= 1
the baseline moved:
  s__report: totals.valid: 2 -> 1
to accept it: ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-evals --test isomer_evals -- --exact s::totals, then review the .snap diff and commit it
"
        );
        let mut faulty = String::from(
            "missing recordings (strict replay answers them with empty text): answers/a.1.txt\n",
        );
        write_moved(&mut faulty, "s", &moved, ReplayState::Faulty);
        assert_eq!(
            faulty,
            "missing recordings (strict replay answers them with empty text): answers/a.1.txt
the baseline moved:
  s__report: totals.valid: 2 -> 1
fix the recordings first (accepting now would commit the baseline of this broken replay); then, to accept it: ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-evals --test isomer_evals -- --exact s::totals, then review the .snap diff and commit it
"
        );
        let mut nothing = String::new();
        write_moved(&mut nothing, "s", &[], ReplayState::Faulty);
        assert_eq!(nothing, "");
    }

    #[test]
    fn the_accept_command_names_the_package_when_known() {
        let mut known = String::new();
        write_accept(
            &mut known,
            Some("todo-pack"),
            "todo_eval",
            "todo_pack",
            ReplayState::Sound,
        );
        assert_eq!(
            known,
            "to accept it: ISOMER_EVAL_ACCEPT=1 cargo test -p todo-pack --test todo_eval -- --exact todo_pack::totals, then review the .snap diff and commit it\n"
        );
        let mut unknown = String::new();
        write_accept(
            &mut unknown,
            None,
            "todo_eval",
            "todo_pack",
            ReplayState::Sound,
        );
        assert_eq!(
            unknown,
            "to accept it: ISOMER_EVAL_ACCEPT=1 cargo test --test todo_eval -- --exact todo_pack::totals, then review the .snap diff and commit it\n"
        );
    }

    #[test]
    fn strips_cargo_hash_suffix() {
        assert_eq!(
            target_name(Path::new(
                "/w/target/debug/deps/slides_eval-0123456789abcdef"
            ))
            .as_deref(),
            Some("slides_eval")
        );
        assert_eq!(
            target_name(Path::new("deps/eval-gate-fedcba9876543210")).as_deref(),
            Some("eval-gate")
        );
        assert_eq!(target_name(Path::new("deps/slides_eval")), None);
        assert_eq!(target_name(Path::new("deps/slides_eval-xyz")), None);
    }
}
