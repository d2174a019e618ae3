//! The committed baseline of a suite, compared with insta under explicit snapshot names.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::{Arc, Mutex, Once};

use insta::internals::SnapshotContents;
use insta::{Comparator, DefaultComparator, Snapshot};
use libtest_mimic::Failed;
use serde::Serialize;
use serde_json::Value;

/// How many moved report values a message lists before `(+N more)`.
const MOVES_SHOWN: usize = 8;

/// What a `totals` trial found before comparing its baseline.
pub(super) struct Findings {
    /// The failure text so far (floors missed, recording faults), one item a line; empty
    /// when nothing is wrong yet.
    pub(super) text: String,
    /// Whether `text` names a fault of the recordings (a case or run that did not
    /// complete, a missing or stale recording, a file no replay reads, a prompt that
    /// differs): accepting the baseline then would commit the broken replay, so the accept
    /// hint asks to fix the recordings first.
    pub(super) replay_state: ReplayState,
}

/// Ends a `totals` trial: compares the baseline of `report` (serialized to JSON),
/// `report_text` and `baseline` in `dir` ([`compare_baseline`]), appends the moved
/// snapshots to the findings' text ([`write_moved`]), and fails with that text (trimmed)
/// unless it is empty. Fails too when the report does not serialize.
pub(super) fn conclude_totals<R: Serialize, B: Serialize>(
    findings: Findings,
    suite: &str,
    dir: &Path,
    report: &R,
    report_text: &str,
    baseline: &B,
    diffs: DiffOutput,
) -> Result<(), Failed> {
    let Findings {
        text: mut out,
        replay_state,
    } = findings;
    let report = serde_json::to_value(report)
        .map_err(|error| format!("cannot serialize the report: {error}"))?;
    let moved = compare_baseline(suite, dir, &report, report_text, baseline, diffs);
    write_moved(&mut out, suite, &moved, replay_state);
    if replay_state == ReplayState::Faulty && !moved.is_empty() {
        // What the faults did to the scores, as a report command over the same recordings
        // prints it (the baseline moved, so the committed report no longer says).
        out.push_str("the report of this replay:\n");
        out.push_str(report_text);
    }
    if out.is_empty() {
        Ok(())
    } else {
        Err(out.trim_end().to_owned().into())
    }
}

/// Whether a `totals` run replayed sound recordings, for the hint under a moved baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReplayState {
    /// Nothing is wrong with the recordings: a moved baseline may be accepted as it is.
    Sound,
    /// The failure already names a recording fault; the baseline of this run records it.
    Faulty,
}

/// Where the human diff of a moved snapshot goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DiffOutput {
    /// insta's own behaviour: its diff on stdout, and a `.snap.new` (or, under
    /// `INSTA_UPDATE=always`, the `.snap` itself) written as insta's update mode says.
    Insta,
    /// For `--format json`, whose stdout must stay JSON lines: insta compares with its own
    /// comparator but prints and writes nothing; the harness writes the diff to stderr
    /// ([`super::diff::snapshot_diff`]). Accepting a moved baseline needs a run without
    /// `--format json`.
    Stderr,
}

/// Compares the three snapshots of `suite` in `dir`, in this order: `<suite>__report`
/// (the report as JSON), `<suite>__report_text` (the formatted report) and
/// `<suite>__baseline` (for a single-shot suite the [`BaselineRecord`](crate::baseline::BaselineRecord):
/// prompt hash, missing recordings, stale judgments, the shape `isomer_evals::baseline`
/// defines, so a corpus's own baseline test and the gate share the files; for an agent
/// suite `{ "missingTurns", "staleTurns" }`). Returns one description per snapshot that
/// moved (empty when all match), in that order. insta decides, and under
/// `INSTA_UPDATE=always` rewrites the files and reports nothing as moved (except under
/// [`DiffOutput::Stderr`], which never writes).
fn compare_baseline<B: Serialize>(
    suite: &str,
    dir: &Path,
    report: &Value,
    report_text: &str,
    baseline: &B,
    diffs: DiffOutput,
) -> Vec<String> {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(dir);
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_sort_maps(false);
    let mut moved = Vec::new();
    settings.bind(|| {
        let report_name = format!("{suite}__report");
        if !snapshot_holds(diffs, dir, &report_name, || {
            insta::assert_json_snapshot!(report_name.as_str(), report)
        }) {
            let old = read_snapshot(&dir.join(format!("{report_name}.snap")));
            moved.push(describe_json_move(&report_name, old.as_deref(), report));
        }
        let text_name = format!("{suite}__report_text");
        if !snapshot_holds(diffs, dir, &text_name, || {
            insta::assert_snapshot!(text_name.as_str(), report_text)
        }) {
            moved.push(if dir.join(format!("{text_name}.snap")).is_file() {
                format!("{text_name}: the formatted report differs")
            } else {
                format!("{text_name}: no committed snapshot")
            });
        }
        let baseline_name = format!("{suite}__baseline");
        if !snapshot_holds(diffs, dir, &baseline_name, || {
            insta::assert_json_snapshot!(baseline_name.as_str(), baseline)
        }) {
            let old = read_snapshot(&dir.join(format!("{baseline_name}.snap")));
            let new = serde_json::to_value(baseline).unwrap_or(Value::Null);
            moved.push(describe_json_move(&baseline_name, old.as_deref(), &new));
        }
    });
    moved
}

/// Runs the insta assertion of the snapshot `name` (in `dir`) as `diffs` says; `false`
/// when the snapshot moved. When it holds, a stale `<name>.snap.new` is removed.
///
/// Under [`DiffOutput::Stderr`] an absent `.snap` is a move without asking insta (which
/// would print the new snapshot to stdout), and a present one is compared through
/// [`Recorder`], which tells insta it matched (so insta prints and writes nothing) and
/// keeps both texts when insta's own [`insta::DefaultComparator`] says they differ; their
/// diff is written to stderr.
fn snapshot_holds(diffs: DiffOutput, dir: &Path, name: &str, assertion: impl FnOnce()) -> bool {
    let held = compare_snapshot(diffs, dir, name, assertion);
    if held {
        remove_stale_pending(dir, name);
    }
    held
}

/// Removes `<name>.snap.new` from `dir` once `<name>` holds (matched, or accepted under
/// `INSTA_UPDATE=always`): a pending snapshot left by an earlier failed run no longer
/// describes anything, and `cargo insta review` would offer to commit it. Nothing when
/// there is none; a file that cannot be removed is named on stderr.
fn remove_stale_pending(dir: &Path, name: &str) {
    let pending = dir.join(format!("{name}.snap.new"));
    match std::fs::remove_file(&pending) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => eprintln!("cannot remove the stale {}: {error}", pending.display()),
    }
}

/// [`snapshot_holds`] without the clean-up.
fn compare_snapshot(diffs: DiffOutput, dir: &Path, name: &str, assertion: impl FnOnce()) -> bool {
    match diffs {
        DiffOutput::Insta => holds(assertion),
        DiffOutput::Stderr => {
            if !dir.join(format!("{name}.snap")).is_file() {
                eprintln!("{name}: no committed snapshot (run without --format json to write one)");
                return false;
            }
            let seen = Arc::new(Mutex::new(None));
            let mut settings = insta::Settings::clone_current();
            settings.set_comparator(Box::new(Recorder(Arc::clone(&seen))));
            let held = settings.bind(|| holds(assertion));
            let moved = seen.lock().map(|mut seen| seen.take()).unwrap_or(None);
            match moved {
                Some((old, new)) => {
                    let header = header_lines(&dir.join(format!("{name}.snap")));
                    eprint!("{}", super::diff::snapshot_diff(name, &old, &new, header));
                    false
                }
                None => held,
            }
        }
    }
}

/// An insta comparator that always answers "matches" and records the committed and the
/// new text when insta's [`insta::DefaultComparator`] finds them different.
struct Recorder(Arc<Mutex<Option<(String, String)>>>);

impl Comparator for Recorder {
    fn matches(&self, reference: &Snapshot, test: &Snapshot) -> bool {
        self.record(DefaultComparator.matches(reference, test), reference, test)
    }

    fn matches_fully(&self, reference: &Snapshot, test: &Snapshot) -> bool {
        self.record(
            DefaultComparator.matches_fully(reference, test),
            reference,
            test,
        )
    }

    fn dyn_clone(&self) -> Box<dyn Comparator> {
        Box::new(Recorder(Arc::clone(&self.0)))
    }
}

impl Recorder {
    fn record(&self, matched: bool, reference: &Snapshot, test: &Snapshot) -> bool {
        if !matched && let Ok(mut seen) = self.0.lock() {
            *seen = Some((text_of(reference), text_of(test)));
        }
        true
    }
}

/// A snapshot's text (a binary snapshot, which the harness never writes, as empty).
fn text_of(snapshot: &Snapshot) -> String {
    match snapshot.contents() {
        SnapshotContents::Text(text) => text.to_string(),
        SnapshotContents::Binary(_) => String::new(),
    }
}

thread_local! {
    /// Set while an insta assertion runs on this thread, to keep its panic quiet.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs one insta assertion; `false` when it failed. insta reports a mismatch by printing
/// its diff and panicking; the panic is caught here and turned into the trial's message,
/// so the process-wide panic hook is wrapped (once) to stay silent for this thread while
/// the assertion runs. Panics on other threads print as before.
pub(super) fn holds(assertion: impl FnOnce()) -> bool {
    static WRAP_HOOK: Once = Once::new();
    WRAP_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    QUIET.with(|quiet| quiet.set(true));
    let held = catch_unwind(AssertUnwindSafe(assertion)).is_ok();
    QUIET.with(|quiet| quiet.set(false));
    held
}

/// The content of a `.snap` file (after its `---` header), or `None` when it is absent.
/// Line ends are read as `\n` whatever they are on disk (a checkout may turn them into
/// `\r\n`; insta compares the same way).
pub(super) fn read_snapshot(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?.replace("\r\n", "\n");
    let header = header_len(&text)?;
    Some(text[header..].to_owned())
}

/// How many lines the `---` header of a `.snap` file takes, both `---` lines included
/// (3 for insta's `---`, `source: ...`, `---`; more with `expression:` or
/// `assertion_line:`), or `None` when the file is absent or has no such header.
fn header_lines(path: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(path).ok()?.replace("\r\n", "\n");
    let header = header_len(&text)?;
    Some(text[..header].matches('\n').count())
}

/// The byte length of the `---` header at the start of a snapshot's text (`\n` line
/// ends), through the newline of its closing `---`.
fn header_len(text: &str) -> Option<usize> {
    let body = text.strip_prefix("---\n")?;
    let end = body.find("\n---\n")?;
    Some(4 + end + 5)
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
    fn snapshot_body_follows_the_header() {
        let dir = std::env::temp_dir().join(format!("isomer-snap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.snap");
        std::fs::write(&path, "---\nsource: a.rs\n---\n{\n  \"a\": 1\n}\n").unwrap();
        assert_eq!(read_snapshot(&path).as_deref(), Some("{\n  \"a\": 1\n}\n"));
        assert_eq!(read_snapshot(&dir.join("absent.snap")), None);
        let crlf = dir.join("crlf.snap");
        std::fs::write(
            &crlf,
            "---\r\nsource: a.rs\r\n---\r\n{\r\n  \"a\": 1\r\n}\r\n",
        )
        .unwrap();
        assert_eq!(read_snapshot(&crlf).as_deref(), Some("{\n  \"a\": 1\n}\n"));
        assert_eq!(header_lines(&path), Some(3));
        assert_eq!(header_lines(&crlf), Some(3));
        let longer = dir.join("longer.snap");
        std::fs::write(
            &longer,
            "---\nsource: a.rs\nassertion_line: 7\nexpression: report\n---\n{}\n",
        )
        .unwrap();
        assert_eq!(header_lines(&longer), Some(5));
        assert_eq!(read_snapshot(&longer).as_deref(), Some("{}\n"));
        assert_eq!(header_lines(&dir.join("absent.snap")), None);
        std::fs::remove_dir_all(&dir).unwrap();
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
    let target = std::env::args_os()
        .next()
        .and_then(|argv0| target_name(Path::new(&argv0)))
        .unwrap_or_else(|| "<target>".to_owned());
    // cargo test and cargo nextest set the package's name for the test process; a
    // binary started by hand has none, and the command then names only the target.
    let package = std::env::var("CARGO_PKG_NAME").ok();
    write_accept(out, package.as_deref(), &target, suite, replay_state);
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
    let package = package.map_or_else(String::new, |package| format!("-p {package} "));
    if replay_state == ReplayState::Faulty {
        out.push_str(
            "fix the recordings first (accepting now would commit the baseline of this broken replay); then, ",
        );
    }
    let _ = writeln!(
        out,
        "to accept it: INSTA_UPDATE=always cargo test {package}--test {target} -- --exact {suite}::totals, then review the .snap diff and commit it"
    );
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
to accept it: INSTA_UPDATE=always cargo test -p isomer-evals --test isomer_evals -- --exact s::totals, then review the .snap diff and commit it
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
fix the recordings first (accepting now would commit the baseline of this broken replay); then, to accept it: INSTA_UPDATE=always cargo test -p isomer-evals --test isomer_evals -- --exact s::totals, then review the .snap diff and commit it
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
            "to accept it: INSTA_UPDATE=always cargo test -p todo-pack --test todo_eval -- --exact todo_pack::totals, then review the .snap diff and commit it\n"
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
            "to accept it: INSTA_UPDATE=always cargo test --test todo_eval -- --exact todo_pack::totals, then review the .snap diff and commit it\n"
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
