//! The HTML report the `totals` trial writes when asked: `ISOMER_EVAL_HTML=<dir>` writes
//! `<dir>/<suite>.html` (see [`crate::html`] for what the page shows).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::snapshot::split_header;
use super::spec::Spec;
use crate::html::{PageKind, ReportPage};

/// The variable naming the directory the `totals` trials write their HTML reports to.
pub(super) const HTML_VARIABLE: &str = "ISOMER_EVAL_HTML";

/// The directory `ISOMER_EVAL_HTML` names, when it is set and not empty.
pub(super) fn html_dir() -> Option<PathBuf> {
    std::env::var_os(HTML_VARIABLE)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
}

/// The file of `suite`'s page in `dir`: `<dir>/<suite>.html`, every character of the
/// suite name other than an ASCII letter, digit, `-` or `_` written `_`.
pub(super) fn page_path(dir: &Path, suite: &str) -> PathBuf {
    let name: String = suite
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{name}.html"))
}

/// Writes `page` to `suite`'s file in `dir` (creating `dir`), and names the file on
/// stderr by its absolute path: a relative `dir` is taken from the test's working
/// directory, which cargo sets to the package's directory, not the directory the
/// command was typed in. `Err` is the line the `totals` trial fails with.
fn write_page(dir: &Path, suite: &str, page: &str) -> Result<(), String> {
    let path = page_path(dir, suite);
    let path = std::path::absolute(&path).unwrap_or(path);
    // The directory's own fault (a file in its place, no permission) names the directory,
    // not the page that could not be put in it.
    std::fs::create_dir_all(dir).map_err(|error| {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        format!(
            "{HTML_VARIABLE}: cannot create the directory {} for the HTML report: {error}",
            dir.display()
        )
    })?;
    std::fs::write(&path, page).map_err(|error| {
        format!(
            "{HTML_VARIABLE}: cannot write the HTML report {}: {error}",
            path.display()
        )
    })?;
    eprintln!("{}: wrote {}", suite, path.display());
    Ok(())
}

/// Writes the HTML report of `suite`'s `totals` trial to its file in `dir` ([`write_page`]):
/// `page`, with the committed report ([`committed_report`]) beside its totals when there is
/// one, and each line of `faults` (what fails the trial besides the floors) as a note. A
/// page that cannot be written adds the line saying so to `faults`.
pub(super) fn write_report_page<K, R: PageKind + DeserializeOwned>(
    dir: &Path,
    suite: &Spec<K>,
    page: ReportPage<'_, R>,
    faults: &mut String,
) {
    write_named_page(dir, suite, suite.name, true, page, faults);
}

/// [`write_report_page`] under the page name `name` (`<suite>-<configuration>` for a
/// configuration with a label), with the committed report beside the totals only when
/// `with_baseline` (the suite's first configuration, the one the baseline pins).
pub(super) fn write_named_page<K, R: PageKind + DeserializeOwned>(
    dir: &Path,
    suite: &Spec<K>,
    name: &str,
    with_baseline: bool,
    mut page: ReportPage<'_, R>,
    faults: &mut String,
) {
    if with_baseline
        && let Some(committed) = committed_report::<R>(Path::new(suite.snapshots), suite.name)
    {
        page = page.baseline(&committed);
    }
    for line in faults.lines() {
        page = page.note(line);
    }
    if let Err(error) = write_page(dir, name, &page.to_html()) {
        let _ = writeln!(faults, "{error}");
    }
}

/// The committed report of `suite` in the baseline directory `snapshots`
/// (`<snapshots>/<suite>__report.snap`, the JSON snapshot the `totals` trial compares), or
/// `None` when it is absent or does not read as an `R` ([`crate::EvalReport`] for a
/// single-shot suite, [`crate::agent::AgentEvalReport`] for an agent one). The HTML report
/// shows the totals beside it.
pub fn committed_report<R: DeserializeOwned>(snapshots: &Path, suite: &str) -> Option<R> {
    let text = std::fs::read_to_string(snapshots.join(format!("{suite}__report.snap"))).ok()?;
    let text = text.replace("\r\n", "\n");
    serde_json::from_str(split_header(&text).1).ok()
}
