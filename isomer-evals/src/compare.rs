//! Comparing the run files of one suite side by side ([`Comparison`]): one model
//! configuration against another, or yesterday's run against today's.
//!
//! A comparison reads two or more run files ([`NamedRunFile`]) of one suite and gives, for
//! each axis, every file's value and each file's delta against the first; for each case,
//! every file's verdict and values, and which of them differ; and which cases changed
//! verdict (passed → failed, failed → passed) against the first file. [`Comparison::to_text`]
//! prints it; [`crate::html::ComparePage`] lays it out as one HTML page, the matrix of
//! cases × run files.
//!
//! A case's *verdict* is what its case trial decides from the run file: it passes when
//! every run met its case floors, or, when the suite declares `min_pass_rate`, when its
//! pass rate meets that floor (the harness's own rule). A suite without case floors
//! passes every case that ran.
//!
//! Each file's column is headed by its configuration's label, else its label's `model`,
//! else its file name ([`NamedRunFile::header`]); when two files would share a header, each
//! gets its file name added (`gpt-4.1 (run-a.json)`).
//!
//! This module reads no file: `isomer-report --compare` does.

use isomer_sdk::js_parity::to_fixed_2;

use crate::case::AnswerabilityVerdict;
use crate::floor::Floor;
use crate::floor::case_passes;
use crate::report::Mean;
use crate::report_table::ABSENT;
use crate::run_file::{Axes, CaseRun, NamedRunFile, PassRate, format_usd};

/// Why run files cannot be compared.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CompareError {
    /// Fewer than two run files.
    #[error("a comparison takes at least two run files, got {0}")]
    TooFew(usize),
    /// Two files of different suites.
    #[error(
        "cannot compare {first} and {other}: they are runs of different suites (`{first_suite}` and `{other_suite}`); compare runs of one suite"
    )]
    Suites {
        /// The first file.
        first: String,
        /// Its suite.
        first_suite: String,
        /// The file of another suite.
        other: String,
        /// Its suite.
        other_suite: String,
    },
    /// A file's floors do not read back.
    #[error("cannot compare {file}: its floors do not read back: {message}")]
    Floors {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
}

/// One compared run file: its column header and where it was read from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Column {
    /// The header ([`NamedRunFile::header`], with the file name added when two collide).
    pub(crate) header: String,
    /// Where the file was read from.
    pub(crate) origin: String,
}

/// One axis across the files: each file's mean (`None` when its runs have no value), as
/// printed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AxisRow {
    /// The axis as the report names it (`valid after retry`).
    pub(crate) label: &'static str,
    /// Each file's value, in file order.
    pub(crate) values: Vec<Option<Mean>>,
}

/// One case in one file: its verdict and its values.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CaseCell {
    /// Whether the case passes its case floors in this file (see the module docs).
    pub(crate) passed: bool,
    /// How many of its runs met them.
    pub(crate) rate: PassRate,
    /// Its values, `(name, value as printed)`, in the order [`CASE_VALUES`] names them.
    pub(crate) values: Vec<(&'static str, String)>,
}

/// The values compared per case, in order.
pub(crate) const CASE_VALUES: [&str; 9] = [
    "verdict",
    "parsed",
    "valid",
    "valid after retry",
    "selection F1",
    "expected hit",
    "answerability",
    "floor misses",
    "error",
];

/// One case across the files.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CaseRow {
    /// The case's id.
    pub(crate) case_id: String,
    /// Its cell in each file, in file order; `None` where the file has no run of it.
    pub(crate) cells: Vec<Option<CaseCell>>,
}

impl CaseRow {
    /// The names of the values that are not the same in every file that ran the case
    /// (a file that did not run it counts as different), in [`CASE_VALUES`] order.
    pub(crate) fn differing(&self) -> Vec<&'static str> {
        CASE_VALUES
            .iter()
            .copied()
            .filter(|name| {
                let mut shown = self
                    .cells
                    .iter()
                    .map(|cell| cell_value(cell.as_ref(), name));
                let first = shown.next();
                shown.any(|value| Some(value) != first)
            })
            .collect()
    }
}

/// A verdict that changed against the first file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VerdictChange {
    /// The file (its index in the comparison) whose verdict differs from the first's.
    pub(crate) column: usize,
    /// The case.
    pub(crate) case_id: String,
    /// Whether it passed in the first file.
    pub(crate) was_passed: bool,
    /// Whether it passed in this file.
    pub(crate) passed: bool,
}

/// Two or more run files of one suite, side by side.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The suite.
    pub(crate) suite: String,
    /// One column per file, in the order given.
    pub(crate) columns: Vec<Column>,
    /// The axes, in the order the report prints them, then `cases passed`.
    pub(crate) axes: Vec<AxisRow>,
    /// How many cases pass in each file, and how many ran.
    pub(crate) passed: Vec<(usize, usize)>,
    /// Every case any file ran: the first file's cases in its order, then each other
    /// file's cases the earlier ones lack.
    pub(crate) cases: Vec<CaseRow>,
    /// Each file's suite floors missed, as its run file lists them.
    pub(crate) suite_floor_misses: Vec<Vec<String>>,
    /// Each file's total cost in USD (`costUsd`), `None` where its run priced nothing.
    pub(crate) cost_usd: Vec<Option<f64>>,
}

impl Comparison {
    /// Compares `runs`, the first being the one every delta is taken against.
    ///
    /// # Errors
    /// [`CompareError`]: fewer than two files, files of different suites, or floors that
    /// do not read back (a hand-edited file).
    pub fn new(runs: &[NamedRunFile]) -> Result<Comparison, CompareError> {
        if runs.len() < 2 {
            return Err(CompareError::TooFew(runs.len()));
        }
        let first = &runs[0];
        if let Some(other) = runs.iter().find(|run| run.file.suite != first.file.suite) {
            return Err(CompareError::Suites {
                first: first.origin.clone(),
                first_suite: first.file.suite.clone(),
                other: other.origin.clone(),
                other_suite: other.file.suite.clone(),
            });
        }
        let floors = runs
            .iter()
            .map(|run| {
                run.file
                    .declared_floors()
                    .map_err(|message| CompareError::Floors {
                        file: run.origin.clone(),
                        message,
                    })
            })
            .collect::<Result<Vec<Vec<Floor>>, CompareError>>()?;

        let columns = columns(runs);
        let axis = |label, value: fn(&Axes) -> Option<Mean>| AxisRow {
            label,
            values: runs.iter().map(|run| value(&run.file.axes)).collect(),
        };
        let axes = vec![
            axis("parsed", |axes| Some(axes.parsed)),
            axis("valid", |axes| Some(axes.valid)),
            axis("valid after retry", |axes| Some(axes.valid_after_retry)),
            axis("selection F1", |axes| axes.selection_f1),
            axis("expected hit", |axes| axes.expected_hit),
            axis("answerability yes", |axes| axes.answerability_yes),
        ];

        let mut ids: Vec<&str> = Vec::new();
        for run in runs {
            for rate in &run.file.pass_rates {
                if !ids.contains(&rate.case_id.as_str()) {
                    ids.push(&rate.case_id);
                }
            }
        }
        let cases: Vec<CaseRow> = ids
            .into_iter()
            .map(|case_id| CaseRow {
                case_id: case_id.to_owned(),
                cells: runs
                    .iter()
                    .zip(&floors)
                    .map(|(run, floors)| cell(run, floors, case_id))
                    .collect(),
            })
            .collect();
        let passed = (0..runs.len())
            .map(|column| {
                let ran = cases.iter().filter_map(|case| case.cells[column].as_ref());
                let (passed, all) = ran.fold((0, 0), |(passed, all), cell| {
                    (passed + usize::from(cell.passed), all + 1)
                });
                (passed, all)
            })
            .collect();
        Ok(Comparison {
            suite: first.file.suite.clone(),
            columns,
            axes,
            passed,
            cases,
            suite_floor_misses: runs
                .iter()
                .map(|run| run.file.suite_floor_misses.clone())
                .collect(),
            cost_usd: runs.iter().map(|run| run.file.cost_usd).collect(),
        })
    }

    /// Each file's suite floors missed, as its run file lists them: `(file index, miss)`,
    /// in file order.
    pub(crate) fn suite_floor_misses(&self) -> Vec<(usize, &str)> {
        self.suite_floor_misses
            .iter()
            .enumerate()
            .flat_map(|(column, misses)| misses.iter().map(move |miss| (column, miss.as_str())))
            .collect()
    }

    /// The cases whose verdict in a later file differs from the first file's, by file
    /// then case order; a case one of the two did not run is no change.
    pub(crate) fn verdict_changes(&self) -> Vec<VerdictChange> {
        let mut changes = Vec::new();
        for column in 1..self.columns.len() {
            for case in &self.cases {
                if let (Some(first), Some(cell)) = (&case.cells[0], &case.cells[column])
                    && first.passed != cell.passed
                {
                    changes.push(VerdictChange {
                        column,
                        case_id: case.case_id.clone(),
                        was_passed: first.passed,
                        passed: cell.passed,
                    });
                }
            }
        }
        changes
    }

    /// Whether a case that passed in the first file fails in a later one (a case one of
    /// the two did not run is no change): what `isomer-report --compare` exits `1` on.
    pub fn has_regressions(&self) -> bool {
        self.verdict_changes()
            .iter()
            .any(|change| change.was_passed && !change.passed)
    }

    /// Each row of the axes table as printed: its label, each file's value, and each later
    /// file's delta against the first (see [`Comparison::to_text`]); the axes, then
    /// `cases passed` (`2 of 3`, deltas in cases: `+1`, `-1`, `0`), then, when any file
    /// priced its calls, `cost usd` (each total as [`format_usd`] prints it, deltas
    /// signed: `+0.0042`, `-0.0042`, `0`; `—` for a file that priced nothing).
    pub(crate) fn axis_texts(&self) -> Vec<(String, Vec<String>, Vec<String>)> {
        let mut rows: Vec<(String, Vec<String>, Vec<String>)> = self
            .axes
            .iter()
            .map(|axis| {
                let values = axis
                    .values
                    .iter()
                    .map(|value| value.map_or_else(|| ABSENT.to_owned(), |mean| mean.text()))
                    .collect();
                let deltas = axis.values[1..]
                    .iter()
                    .map(|value| match (axis.values[0], value) {
                        (Some(first), Some(value)) => signed(value.mean - first.mean),
                        _ => ABSENT.to_owned(),
                    })
                    .collect();
                (axis.label.to_owned(), values, deltas)
            })
            .collect();
        let values = self
            .passed
            .iter()
            .map(|(passed, ran)| format!("{passed} of {ran}"))
            .collect();
        let deltas = self.passed[1..]
            .iter()
            .map(|(passed, _)| {
                let delta = *passed as i64 - self.passed[0].0 as i64;
                if delta > 0 {
                    format!("+{delta}")
                } else {
                    delta.to_string()
                }
            })
            .collect();
        rows.push(("cases passed".to_owned(), values, deltas));
        if self.cost_usd.iter().any(Option::is_some) {
            let values = self
                .cost_usd
                .iter()
                .map(|cost| cost.map_or_else(|| ABSENT.to_owned(), format_usd))
                .collect();
            let deltas = self.cost_usd[1..]
                .iter()
                .map(|cost| match (self.cost_usd[0], cost) {
                    (Some(first), Some(cost)) if *cost > first => {
                        format!("+{}", format_usd(cost - first))
                    }
                    (Some(first), Some(cost)) => format_usd(cost - first),
                    _ => ABSENT.to_owned(),
                })
                .collect();
            rows.push(("cost usd".to_owned(), values, deltas));
        }
        rows
    }

    /// The comparison as text: the files, the axes side by side with each file's delta
    /// against the first, the cases whose values differ (each differing value, in file
    /// order), the suite floors each file missed (when any did), and the verdicts that
    /// changed against the first file:
    ///
    /// ```text
    /// suite `mini`, 2 run files, deltas against the first:
    ///   recorded: /tmp/a/mini/run-20261206T230102.120Z.json
    ///   edited: /tmp/b/mini/run-20261206T230103.410Z.json
    ///
    /// axis              recorded edited Δ edited
    /// valid             1.00     0.67   -0.33
    /// ...
    /// cases passed      3 of 3   2 of 3 -1
    ///
    /// cases that differ (recorded → edited):
    ///   good
    ///     verdict passed → failed
    ///
    /// suite floors missed:
    ///   edited: min_valid_ratio: 0.6667, floor >= 0.9
    ///
    /// verdicts that changed against recorded:
    ///   edited: good passed → failed
    /// ```
    ///
    /// Means are JS `toFixed(2)` (with ` ± <standard error>` over repeats), deltas signed
    /// (`+0.33`, `-0.33`, `0.00` when equal to two decimals); an axis a file has no value
    /// for is `—`, and so is its delta. Lines are joined with `\n`, with no trailing
    /// newline.
    pub fn to_text(&self) -> String {
        let mut lines = vec![format!(
            "suite `{}`, {} run files, deltas against the first:",
            self.suite,
            self.columns.len()
        )];
        for column in &self.columns {
            lines.push(format!("  {}: {}", column.header, column.origin));
        }
        lines.push(String::new());

        let first_header = &self.columns[0].header;
        let mut head = vec!["axis".to_owned()];
        head.extend(self.columns.iter().map(|column| column.header.clone()));
        head.extend(
            self.columns[1..]
                .iter()
                .map(|column| format!("\u{394} {}", column.header)),
        );
        let mut rows = vec![head];
        for (label, values, deltas) in self.axis_texts() {
            let mut row = vec![label];
            row.extend(values);
            row.extend(deltas);
            rows.push(row);
        }
        lines.extend(grid(&rows));

        let headers: Vec<&str> = self.columns.iter().map(|c| c.header.as_str()).collect();
        let differing: Vec<(&CaseRow, Vec<&'static str>)> = self
            .cases
            .iter()
            .map(|case| (case, case.differing()))
            .filter(|(_, names)| !names.is_empty())
            .collect();
        lines.push(String::new());
        if differing.is_empty() {
            lines.push("cases that differ: none".to_owned());
        } else {
            lines.push(format!(
                "cases that differ ({}):",
                headers.join(" \u{2192} ")
            ));
            for (case, names) in differing {
                lines.push(format!("  {}", case.case_id));
                let rows: Vec<Vec<String>> = names
                    .iter()
                    .map(|name| {
                        let values: Vec<String> = case
                            .cells
                            .iter()
                            .map(|cell| cell_value(cell.as_ref(), name))
                            .collect();
                        vec![format!("    {name}"), values.join(" \u{2192} ")]
                    })
                    .collect();
                lines.extend(grid(&rows));
            }
        }

        let floor_misses = self.suite_floor_misses();
        if !floor_misses.is_empty() {
            lines.push(String::new());
            lines.push("suite floors missed:".to_owned());
            for (column, miss) in floor_misses {
                lines.push(format!("  {}: {miss}", self.columns[column].header));
            }
        }

        lines.push(String::new());
        let changes = self.verdict_changes();
        if changes.is_empty() {
            lines.push(format!(
                "verdicts that changed against {first_header}: none"
            ));
        } else {
            lines.push(format!("verdicts that changed against {first_header}:"));
            for change in changes {
                lines.push(format!(
                    "  {}: {} {} \u{2192} {}",
                    self.columns[change.column].header,
                    change.case_id,
                    verdict(change.was_passed),
                    verdict(change.passed)
                ));
            }
        }
        lines.join("\n")
    }
}

/// `passed` or `failed`.
pub(crate) fn verdict(passed: bool) -> &'static str {
    if passed { "passed" } else { "failed" }
}

/// The printed value `name` of `cell`, `not run` when the file has no run of the case.
pub(crate) fn cell_value(cell: Option<&CaseCell>, name: &str) -> String {
    match cell {
        None => "not run".to_owned(),
        Some(cell) => cell
            .values
            .iter()
            .find(|(value_name, _)| *value_name == name)
            .map_or_else(|| ABSENT.to_owned(), |(_, value)| value.clone()),
    }
}

/// Each file's header, with the file name added where two would be the same, and then its
/// place (` #2`) where two still are (one file given twice).
fn columns(runs: &[NamedRunFile]) -> Vec<Column> {
    let headers: Vec<String> = runs.iter().map(NamedRunFile::header).collect();
    let shared = |headers: &[String], header: &String| {
        headers.iter().filter(|other| *other == header).count() > 1
    };
    let named: Vec<String> = runs
        .iter()
        .zip(&headers)
        .map(|(run, header)| {
            let file_name = std::path::Path::new(&run.origin)
                .file_name()
                .map(|name| name.to_string_lossy().into_owned());
            match file_name {
                Some(name) if shared(&headers, header) && name != *header => {
                    format!("{header} ({name})")
                }
                _ => header.clone(),
            }
        })
        .collect();
    runs.iter()
        .zip(&named)
        .enumerate()
        .map(|(at, (run, header))| Column {
            header: if shared(&named, header) {
                format!("{header} #{}", at + 1)
            } else {
                header.clone()
            },
            origin: run.origin.clone(),
        })
        .collect()
}

/// The cell of case `case_id` in `run`, whose declared floors are `floors`; `None` when
/// the file has no run of it.
fn cell(run: &NamedRunFile, floors: &[Floor], case_id: &str) -> Option<CaseCell> {
    let rate = run
        .file
        .pass_rates
        .iter()
        .find(|rate| rate.case_id == case_id)?
        .clone();
    let runs: Vec<&CaseRun> = run
        .file
        .runs
        .iter()
        .filter(|run| run.case_id == case_id)
        .collect();
    let passed = case_passes(floors, rate.passed, rate.runs);
    let flag = |value: fn(&CaseRun) -> Option<bool>| {
        let values: Vec<bool> = runs.iter().filter_map(|run| value(run)).collect();
        match values.as_slice() {
            [] => ABSENT.to_owned(),
            [one] => if *one { "yes" } else { "no" }.to_owned(),
            many => format!(
                "{} of {}",
                many.iter().filter(|value| **value).count(),
                many.len()
            ),
        }
    };
    let f1s: Vec<f64> = runs
        .iter()
        .filter_map(|run| run.scores.selection_f1)
        .collect();
    let verdicts: Vec<&str> = runs
        .iter()
        .filter_map(|run| run.scores.answerability)
        .map(|verdict| match verdict {
            AnswerabilityVerdict::Yes => "yes",
            AnswerabilityVerdict::Partial => "partial",
            AnswerabilityVerdict::No => "no",
        })
        .collect();
    let list = |items: Vec<String>| {
        if items.is_empty() {
            ABSENT.to_owned()
        } else {
            items.join("; ")
        }
    };
    let repeated = runs.len() > 1;
    let named = |run: &CaseRun, text: &str| {
        if repeated {
            format!("#{}: {text}", run.repeat)
        } else {
            text.to_owned()
        }
    };
    let verdict_text = if rate.runs > 1 {
        format!("{} ({} of {})", verdict(passed), rate.passed, rate.runs)
    } else {
        verdict(passed).to_owned()
    };
    let values = vec![
        ("verdict", verdict_text),
        ("parsed", flag(|run| Some(run.scores.parsed))),
        ("valid", flag(|run| Some(run.scores.valid))),
        (
            "valid after retry",
            flag(|run| Some(run.scores.valid_after_retry)),
        ),
        (
            "selection F1",
            if f1s.is_empty() {
                ABSENT.to_owned()
            } else {
                to_fixed_2(f1s.iter().fold(0.0, |sum, f1| sum + f1) / f1s.len() as f64)
            },
        ),
        ("expected hit", flag(|run| run.scores.expected_hit)),
        (
            "answerability",
            if verdicts.is_empty() {
                ABSENT.to_owned()
            } else {
                verdicts.join(", ")
            },
        ),
        (
            "floor misses",
            list(
                runs.iter()
                    .flat_map(|run| run.floor_misses.iter().map(move |miss| named(run, miss)))
                    .collect(),
            ),
        ),
        (
            "error",
            list(
                runs.iter()
                    .filter_map(|run| Some(named(run, run.error.as_deref()?)))
                    .collect(),
            ),
        ),
    ];
    Some(CaseCell {
        passed,
        rate,
        values,
    })
}

/// `delta` signed, JS `toFixed(2)`: `+0.33`, `-0.33`, or `0.00` when it rounds to zero.
fn signed(delta: f64) -> String {
    let magnitude = to_fixed_2(delta.abs());
    if magnitude == "0.00" {
        magnitude
    } else if delta > 0.0 {
        format!("+{magnitude}")
    } else {
        format!("-{magnitude}")
    }
}

/// `rows` as lines, each column but the last padded with spaces to one more than its
/// widest cell (in characters), trailing spaces dropped.
fn grid(rows: &[Vec<String>]) -> Vec<String> {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|at| {
            rows.iter()
                .filter_map(|row| row.get(at))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    rows.iter()
        .map(|row| {
            let mut line = String::new();
            for (at, cell) in row.iter().enumerate() {
                line.push_str(cell);
                if at + 1 < row.len() {
                    let pad = widths[at] + 1 - cell.chars().count();
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            line.trim_end().to_owned()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run_file::{CorpusVersion, DeclaredFloor, RunFile};
    use serde_json::json;

    /// A run of `case_id` with the flags `valid` (first attempt and after retry), a
    /// selection F1, and the case floor misses its flags imply.
    fn run(case_id: &str, repeat: u32, valid: bool, f1: Option<f64>) -> serde_json::Value {
        let misses: Vec<&str> = if valid {
            vec![]
        } else {
            vec!["valid_after_retry: false, floor true"]
        };
        json!({
            "caseId": case_id, "repeat": repeat, "passed": valid, "floorMisses": misses,
            "scores": { "parsed": true, "valid": valid, "validAfterRetry": valid, "rawBytes": 10,
                "selectionF1": f1 },
            "attempts": [ { "source": "recording", "attempt": 0 } ]
        })
    }

    /// A run file of suite `todo` holding `runs`, its pass rates and axes as the harness
    /// computes them, with `configuration` and `model` when given.
    fn file(
        origin: &str,
        runs: Vec<serde_json::Value>,
        configuration: Option<&str>,
        model: Option<&str>,
    ) -> NamedRunFile {
        let runs: Vec<CaseRun> = serde_json::from_value(json!(runs)).unwrap();
        let repeat = runs.iter().map(|run| run.repeat).max().unwrap_or(0) + 1;
        let mut label = serde_json::Map::new();
        if let Some(model) = model {
            label.insert("model".into(), model.into());
        }
        let file = RunFile {
            format: 1,
            suite: "todo".into(),
            mode: crate::run_file::RunMode::Replay,
            configuration: None,
            label,
            price: None,
            judge_price: None,
            cost_usd: None,
            cap_reached: None,
            started_at: "2026-12-06T23:00:00Z".into(),
            repeat,
            live_calls: 0,
            measured: None,
            not_measured: Some("not measured in replay".into()),
            axes: Axes::of(&runs, repeat),
            pass_rates: PassRate::tally(runs.iter().map(|run| (run.case_id.as_str(), run.passed))),
            suite_floor_misses: vec![],
            corpus: Some(CorpusVersion::of(
                "{}",
                vec!["a".into(), "b".into(), "c".into()],
            )),
            floors: vec![DeclaredFloor {
                name: "valid_after_retry".into(),
                value: None,
            }],
            runs,
        };
        let mut value = serde_json::to_value(&file).unwrap();
        if let Some(configuration) = configuration {
            value["configuration"] = configuration.into();
        }
        NamedRunFile::from_json(origin, &value.to_string()).unwrap()
    }

    #[test]
    fn a_comparison_gives_deltas_differences_and_verdict_changes() {
        let base = file(
            "runs/base.json",
            vec![run("a", 0, true, Some(1.0)), run("b", 0, false, None)],
            Some("small"),
            Some("qwen2.5"),
        );
        let next = file(
            "runs/next.json",
            vec![
                run("a", 0, false, None),
                run("b", 0, true, Some(0.5)),
                run("c", 0, true, Some(1.0)),
            ],
            None,
            Some("gpt-4.1"),
        );
        assert!(
            !Comparison::new(&[base.clone(), base.clone()])
                .unwrap()
                .has_regressions()
        );
        let comparison = Comparison::new(&[base, next]).unwrap();
        assert!(comparison.has_regressions(), "`a` passed, then failed");
        assert_eq!(
            comparison.verdict_changes(),
            [
                VerdictChange {
                    column: 1,
                    case_id: "a".into(),
                    was_passed: true,
                    passed: false
                },
                VerdictChange {
                    column: 1,
                    case_id: "b".into(),
                    was_passed: false,
                    passed: true
                },
            ]
        );
        assert_eq!(
            comparison.to_text(),
            "\
suite `todo`, 2 run files, deltas against the first:
  small: runs/base.json
  gpt-4.1: runs/next.json

axis              small  gpt-4.1 \u{394} gpt-4.1
parsed            1.00   1.00    0.00
valid             0.50   0.67    +0.17
valid after retry 0.50   0.67    +0.17
selection F1      1.00   0.75    -0.25
expected hit      \u{2014}      \u{2014}       \u{2014}
answerability yes \u{2014}      \u{2014}       \u{2014}
cases passed      1 of 2 2 of 3  +1

cases that differ (small \u{2192} gpt-4.1):
  a
    verdict           passed \u{2192} failed
    valid             yes \u{2192} no
    valid after retry yes \u{2192} no
    selection F1      1.00 \u{2192} \u{2014}
    floor misses      \u{2014} \u{2192} valid_after_retry: false, floor true
  b
    verdict           failed \u{2192} passed
    valid             no \u{2192} yes
    valid after retry no \u{2192} yes
    selection F1      \u{2014} \u{2192} 0.50
    floor misses      valid_after_retry: false, floor true \u{2192} \u{2014}
  c
    verdict           not run \u{2192} passed
    parsed            not run \u{2192} yes
    valid             not run \u{2192} yes
    valid after retry not run \u{2192} yes
    selection F1      not run \u{2192} 1.00
    expected hit      not run \u{2192} \u{2014}
    answerability     not run \u{2192} \u{2014}
    floor misses      not run \u{2192} \u{2014}
    error             not run \u{2192} \u{2014}

verdicts that changed against small:
  gpt-4.1: a passed \u{2192} failed
  gpt-4.1: b failed \u{2192} passed"
        );
    }

    #[test]
    fn headers_fall_back_to_the_model_then_the_file_name_and_stay_apart() {
        let same = |origin: &str, model: Option<&str>| {
            file(origin, vec![run("a", 0, true, None)], None, model)
        };
        let comparison = Comparison::new(&[
            same("x/monday.json", Some("gpt-4.1")),
            same("y/tuesday.json", Some("gpt-4.1")),
            same("y/tuesday.json", None),
            same("y/tuesday.json", None),
        ])
        .unwrap();
        let headers: Vec<&str> = comparison
            .columns
            .iter()
            .map(|c| c.header.as_str())
            .collect();
        assert_eq!(
            headers,
            [
                "gpt-4.1 (monday.json)",
                "gpt-4.1 (tuesday.json)",
                "tuesday.json #3",
                "tuesday.json #4"
            ]
        );
    }

    #[test]
    fn repeats_show_counts_and_a_rate_verdict() {
        let repeated = file(
            "r.json",
            vec![
                run("a", 0, true, Some(1.0)),
                run("a", 1, false, None),
                run("a", 2, true, Some(0.5)),
            ],
            None,
            None,
        );
        let comparison = Comparison::new(&[repeated.clone(), repeated]).unwrap();
        let cell = comparison.cases[0].cells[0].as_ref().unwrap();
        assert_eq!(cell_value(Some(cell), "verdict"), "failed (2 of 3)");
        assert_eq!(cell_value(Some(cell), "valid"), "2 of 3");
        assert_eq!(cell_value(Some(cell), "selection F1"), "0.75");
        assert_eq!(
            cell_value(Some(cell), "floor misses"),
            "#1: valid_after_retry: false, floor true"
        );
        assert_eq!(
            comparison.axes[1].values[0].unwrap().text(),
            "0.67 \u{b1} 0.33"
        );
    }

    #[test]
    fn what_cannot_be_compared_is_refused() {
        let one = file("a.json", vec![run("a", 0, true, None)], None, None);
        assert_eq!(
            Comparison::new(std::slice::from_ref(&one))
                .unwrap_err()
                .to_string(),
            "a comparison takes at least two run files, got 1"
        );
        let mut other = file("b.json", vec![run("a", 0, true, None)], None, None);
        other.file.suite = "slides".into();
        assert_eq!(
            Comparison::new(&[one.clone(), other])
                .unwrap_err()
                .to_string(),
            "cannot compare a.json and b.json: they are runs of different suites (`todo` and `slides`); compare runs of one suite"
        );
        let mut odd = file("c.json", vec![run("a", 0, true, None)], None, None);
        odd.file.floors[0].name = "min_turns".into();
        assert_eq!(
            Comparison::new(&[one, odd]).unwrap_err().to_string(),
            "cannot compare c.json: its floors do not read back: min_turns: not a floor of this kind of suite"
        );
    }
}
