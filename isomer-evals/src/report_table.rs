//! The one writer of the report layout both [`format_report`](crate::format_report) and
//! [`format_agent_report`](crate::format_agent_report) print: a table of label/value rows,
//! each label padded with spaces to one more than the longest, then sections (a blank
//! line, a heading, one indented line per entry), each only when it has entries. Lines are
//! joined with `\n`, with no trailing newline.

use isomer_sdk::__private::js::round_percent;

/// An em dash, U+2014: what a report prints for an absent number.
pub(crate) const ABSENT: &str = "\u{2014}";

/// `part / whole` as JS `Math.round(part / whole * 100)` and `%` (halves up: 1/8 is
/// `13%`), or [`ABSENT`] alone when `whole` is 0.
pub(crate) fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        ABSENT.to_owned()
    } else {
        format!("{}%", round_percent(part as f64, whole as f64))
    }
}

/// `<part> (<percent>)`, the value of a counted row.
pub(crate) fn count(part: usize, whole: usize) -> String {
    format!("{part} ({})", percent(part, whole))
}

/// `<hits> / <whole> (<percent>)`, the value of a hits row.
pub(crate) fn hits(part: usize, whole: usize) -> String {
    format!("{part} / {whole} ({})", percent(part, whole))
}

/// `  <name>: <first error>`, plus ` (+<n-1>)` when there are more, or `did not parse`
/// when there is none: an entry of an `invalid:` section.
pub(crate) fn first_error(name: &str, errors: &[String]) -> String {
    let first = errors.first().map_or("did not parse", String::as_str);
    let more = if errors.len() > 1 {
        format!(" (+{})", errors.len() - 1)
    } else {
        String::new()
    };
    format!("  {name}: {first}{more}")
}

/// A run's name in a report and a failure message: its case id, then `#<repeat>` when the
/// cases ran more than once (`chart-q3#1`), the case id alone otherwise.
pub(crate) fn run_name(case_id: &str, repeat: u32, repeated: bool) -> String {
    if repeated {
        format!("{case_id}#{repeat}")
    } else {
        case_id.to_owned()
    }
}

/// A report being written: rows first, then sections.
#[derive(Debug, Default)]
pub struct ReportTable {
    rows: Vec<(String, String)>,
    sections: Vec<String>,
}

impl ReportTable {
    /// Adds a row.
    pub(crate) fn row(&mut self, label: impl Into<String>, value: impl Into<String>) {
        self.rows.push((label.into(), value.into()));
    }

    /// Adds a section under `heading`, or nothing when `entries` is empty.
    pub(crate) fn section(&mut self, heading: &str, entries: Vec<String>) {
        if entries.is_empty() {
            return;
        }
        self.sections.push(String::new());
        self.sections.push(heading.to_owned());
        self.sections.extend(entries);
    }

    /// The rows in order, `(label, value)`: what the HTML report shows in its totals
    /// table, beside the same rows of the baseline.
    pub(crate) fn rows(&self) -> &[(String, String)] {
        &self.rows
    }

    /// The text: the rows, labels padded to one more than the longest (in characters),
    /// then the sections.
    pub(crate) fn finish(self) -> String {
        let width = self
            .rows
            .iter()
            .map(|(label, _)| label.chars().count())
            .max()
            .unwrap_or(0)
            + 1;
        let mut lines: Vec<String> = self
            .rows
            .into_iter()
            .map(|(label, value)| format!("{label:<width$}{value}"))
            .collect();
        lines.extend(self.sections);
        lines.join("\n")
    }
}
