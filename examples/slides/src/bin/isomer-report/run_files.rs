//! `isomer-report --compare` and `--merge`: the commands that read run files (what every
//! eval gate's `totals` trial, or each shard of a nextest run, leaves under
//! `target/isomer/<suite>/`) instead of replaying a corpus.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use isomer_evals::compare::Comparison;
use isomer_evals::html::ComparePage;
use isomer_evals::merge::merge_runs;
use isomer_evals::run_file::NamedRunFile;

/// Reads the run file at `path`, named in messages as given.
///
/// # Errors
/// `cannot read <path>: <why>` for a missing or unreadable file, `<path>: <why>` for one
/// that is not JSON, not a run file, or a run file of another format.
pub fn read_run_file(path: &Path) -> Result<NamedRunFile, String> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read the run file {shown}: {error}"))?;
    NamedRunFile::from_json(shown.clone(), &text).map_err(|error| format!("{shown}: {error}"))
}

/// Writes `text` to `path` whole: staged beside it, then renamed over it, so a failed
/// write leaves what was there.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write as _;
    let cannot = |error: std::io::Error| format!("cannot write {}: {error}", path.display());
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut staged = tempfile::Builder::new()
        .prefix(".isomer-report-")
        .tempfile_in(dir)
        .map_err(cannot)?;
    staged
        .write_all(text.as_bytes())
        .and_then(|()| staged.as_file().sync_all())
        .map_err(cannot)?;
    staged.persist(path).map_err(|error| cannot(error.error))?;
    Ok(())
}

/// `--compare A B ...`: prints the comparison (and writes its page when `html` is given).
/// Exit status `0`, `1` when a case that passed in the first file fails in a later one,
/// `2` when a file does not read, the files do not compare, or the page cannot be written.
pub fn compare(files: &[PathBuf], html: Option<&Path>) -> ExitCode {
    let runs = match files.iter().map(|file| read_run_file(file)).collect() {
        Ok(runs) => runs,
        Err(message) => return fail(&message),
    };
    let runs: Vec<NamedRunFile> = runs;
    let comparison = match Comparison::new(&runs) {
        Ok(comparison) => comparison,
        Err(error) => return fail(&error.to_string()),
    };
    if let Some(path) = html
        && let Err(message) = write_atomically(path, &ComparePage::new(&comparison).to_html())
    {
        return fail(&message);
    }
    if let Err(code) = super::write_stdout(&format!("{}\n", comparison.to_text())) {
        return code;
    }
    if comparison.has_regressions() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `--merge SHARD ... [-o FILE]`: merges the shards' run files, writes the merged file to
/// `output` when given, and prints what it adds up to (or, with `json`, the merged run
/// file). Exit status `0`, `1` when the merged run misses a suite floor or a case of the
/// corpus ran in no shard, `2` when a file does not read, the shards do not merge, or
/// the output cannot be written.
pub fn merge(files: &[PathBuf], output: Option<&Path>, json: bool) -> ExitCode {
    let shards = match files.iter().map(|file| read_run_file(file)).collect() {
        Ok(shards) => shards,
        Err(message) => return fail(&message),
    };
    let shards: Vec<NamedRunFile> = shards;
    let merged = match merge_runs(&shards) {
        Ok(merged) => merged,
        Err(error) => return fail(&error.to_string()),
    };
    let text = match serde_json::to_string_pretty(&merged.file) {
        Ok(text) => format!("{text}\n"),
        Err(error) => return fail(&format!("cannot serialize the merged run file: {error}")),
    };
    if let Some(path) = output {
        if let Err(message) = write_atomically(path, &text) {
            return fail(&message);
        }
        eprintln!("wrote the merged run file {}", path.display());
    }
    let printed = if json {
        text
    } else {
        format!("{}\n", merged.to_text(shards.len()))
    };
    if let Err(code) = super::write_stdout(&printed) {
        return code;
    }
    if merged.file.suite_floor_misses.is_empty() && merged.not_run.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Prints `error: <message>` and gives status 2.
fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}
