//! Floors: the minimum scores an eval gate asserts, per case and per suite.
//!
//! A floor is declared by name in `#[isomer_eval(...)]` (the macro checks every name at
//! compile time against the floor table) and asserted by the harness: case floors in each
//! `<suite>::<case id>` trial, suite floors in the `<suite>::totals` trial. Only the floors a
//! suite declares are asserted; the report still shows every axis. No floor is on by default,
//! because what a pack can reach depends on its catalog, its corpus and the model under test
//! (the upstream README: "record a baseline run first and gate on that").
//!
//! The floors, their kinds, levels and when each holds are the table
//! [`isomer_corpus::SINGLE_SHOT_FLOORS`]; the macro checks names and values against that
//! same table. A suite with the `agent` key (`#[isomer_eval(corpus = "...", agent, ...)]`,
//! see [`crate::harness::agent`]) takes [`isomer_corpus::AGENT_FLOORS`] instead
//! ([`AgentFloor`]); a name from the other table is a compile error in each mode. Agent case
//! floors hold for every run of the case (each of its `repeat` runs), suite floors over all
//! runs.
//!
//! A flag floor is written bare (`valid_after_retry`) or as `valid_after_retry = true`;
//! `= false` declares it off, the same as leaving it out. Comparisons are on the exact `f64`
//! values; messages print numbers with up to four decimals.

use std::fmt;

mod agent;

pub use agent::AgentFloor;

/// One declared floor with its value. Built by the `#[isomer_eval]` expansion as a constant;
/// see the [module docs](self) for each floor's meaning and range.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Floor {
    /// `valid_after_retry`: the case validates on its first attempt or its retry.
    ValidAfterRetry,
    /// `min_selection_f1 = x`: selection F1 at least `x` (`0.0..=1.0`).
    MinSelectionF1(f64),
    /// `expected_hit`: one of the case's expected node types appears in the answer.
    ExpectedHit,
    /// `no_invented_types`: the first attempt uses only catalog node types.
    NoInventedTypes,
    /// `max_size_vs_golden = x`: sanitized bytes over golden bytes at most `x` (`> 0.0`).
    MaxSizeVsGolden(f64),
    /// `answerability_not_no`: the recorded verdict is not `no`.
    AnswerabilityNotNo,
    /// `min_valid_ratio = x`: `valid / cases` at least `x` (`0.0..=1.0`).
    MinValidRatio(f64),
    /// `min_valid_after_retry_ratio = x`: `valid_after_retry / cases` at least `x` (`0.0..=1.0`).
    MinValidAfterRetryRatio(f64),
    /// `min_mean_selection_f1 = x`: mean selection F1 at least `x` (`0.0..=1.0`).
    MinMeanSelectionF1(f64),
    /// `max_answerability_no = n`: at most `n` cases judged `no`.
    MaxAnswerabilityNo(u64),
}

pub use isomer_corpus::{FloorKind, FloorLevel};

impl Floor {
    /// The floor's attribute name, e.g. `"min_selection_f1"`.
    pub fn name(&self) -> &'static str {
        match self {
            Floor::ValidAfterRetry => "valid_after_retry",
            Floor::MinSelectionF1(_) => "min_selection_f1",
            Floor::ExpectedHit => "expected_hit",
            Floor::NoInventedTypes => "no_invented_types",
            Floor::MaxSizeVsGolden(_) => "max_size_vs_golden",
            Floor::AnswerabilityNotNo => "answerability_not_no",
            Floor::MinValidRatio(_) => "min_valid_ratio",
            Floor::MinValidAfterRetryRatio(_) => "min_valid_after_retry_ratio",
            Floor::MinMeanSelectionF1(_) => "min_mean_selection_f1",
            Floor::MaxAnswerabilityNo(_) => "max_answerability_no",
        }
    }

    /// Whether the floor is asserted per case or per suite, as the floor table says.
    pub fn level(&self) -> FloorLevel {
        table_level(isomer_corpus::SINGLE_SHOT_FLOORS, self.name())
    }

    /// Checks a case floor against one case's scores. Returns `None` when the floor holds,
    /// when the case is exempt (see the module table), or when this is a suite floor.
    pub fn check_case(&self, scores: &CaseScores) -> Option<FloorMiss> {
        let miss = |value: String, floor: String| {
            Some(FloorMiss {
                name: self.name(),
                value,
                floor,
            })
        };
        match *self {
            Floor::ValidAfterRetry if !scores.valid_after_retry => {
                miss("false".into(), "true".into())
            }
            Floor::MinSelectionF1(min) if scores.has_golden => match scores.selection_f1 {
                Some(f1) if f1 >= min => None,
                Some(f1) => miss(number(f1), format!(">= {}", number(min))),
                None => miss(
                    "none (no valid composition)".into(),
                    format!(">= {}", number(min)),
                ),
            },
            Floor::ExpectedHit => match scores.expected_hit {
                Some(false) => miss("false".into(), "true".into()),
                _ => None,
            },
            Floor::NoInventedTypes if !scores.unknown_types.is_empty() => miss(
                format!("[{}]", scores.unknown_types.join(", ")),
                "[]".into(),
            ),
            Floor::MaxSizeVsGolden(max) => match scores.size_vs_golden {
                Some(size) if size > max => miss(number(size), format!("<= {}", number(max))),
                _ => None,
            },
            Floor::AnswerabilityNotNo if scores.answerability.as_deref() == Some("no") => {
                miss("no".into(), "not no".into())
            }
            _ => None,
        }
    }

    /// Checks a suite floor against the suite's totals. Returns `None` when the floor holds
    /// or when this is a case floor. A suite with zero cases fails every ratio floor.
    pub fn check_suite(&self, totals: &SuiteTotals) -> Option<FloorMiss> {
        let ratio = |part: u64| {
            if totals.cases == 0 {
                None
            } else {
                Some(part as f64 / totals.cases as f64)
            }
        };
        let at_least = |value: Option<f64>, min: f64, what: &str| match value {
            Some(value) if value >= min => None,
            Some(value) => Some(FloorMiss {
                name: self.name(),
                value: number(value),
                floor: format!(">= {}", number(min)),
            }),
            None => Some(FloorMiss {
                name: self.name(),
                value: format!("none ({what})"),
                floor: format!(">= {}", number(min)),
            }),
        };
        match *self {
            Floor::MinValidRatio(min) => at_least(ratio(totals.valid), min, "no cases"),
            Floor::MinValidAfterRetryRatio(min) => {
                at_least(ratio(totals.valid_after_retry), min, "no cases")
            }
            Floor::MinMeanSelectionF1(min) => {
                at_least(totals.mean_selection_f1, min, "no case has a selection")
            }
            Floor::MaxAnswerabilityNo(max) if totals.answerability_no > max => Some(FloorMiss {
                name: self.name(),
                value: totals.answerability_no.to_string(),
                floor: format!("<= {max}"),
            }),
            _ => None,
        }
    }
}

/// The per-case values the case floors read, taken from one `EvalCaseResult`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CaseScores {
    /// The first attempt's text was JSON.
    pub parsed: bool,
    /// The first attempt passed schema parse and validation.
    pub valid: bool,
    /// `valid`, or the retry passed both.
    pub valid_after_retry: bool,
    /// The first attempt's errors (one JSON error, or formatted validation errors), in order.
    pub errors: Vec<String>,
    /// Whether the case has a golden (selection and size floors are exempt without one).
    pub has_golden: bool,
    /// Selection F1 in `0.0..=1.0`, absent without a golden or without a valid composition.
    pub selection_f1: Option<f64>,
    /// Whether an expected node type was used; absent when the case lists none.
    pub expected_hit: Option<bool>,
    /// Node types the first attempt used that the catalog lacks, sorted.
    pub unknown_types: Vec<String>,
    /// Sanitized bytes over golden bytes; absent without a golden.
    pub size_vs_golden: Option<f64>,
    /// The verdict `"yes"`, `"partial"` or `"no"`; absent when not judged.
    pub answerability: Option<String>,
}

/// The suite totals the suite floors read, taken from `EvalReport::totals`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SuiteTotals {
    /// Number of cases scored.
    pub cases: u64,
    /// Cases whose first attempt validated.
    pub valid: u64,
    /// Cases that validated on the first attempt or the retry.
    pub valid_after_retry: u64,
    /// Mean selection F1 over cases that have a selection; absent when none do.
    pub mean_selection_f1: Option<f64>,
    /// Cases judged `no`.
    pub answerability_no: u64,
}

/// A floor that did not hold: its name, the value reached and the floor, both as printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FloorMiss {
    /// The floor's attribute name.
    pub name: &'static str,
    /// The value the case or suite reached, e.g. `"0.6667"` or `"[sparkline]"`.
    pub value: String,
    /// The floor as a comparison, e.g. `">= 0.8"`.
    pub floor: String,
}

impl fmt::Display for FloorMiss {
    /// `min_selection_f1: 0.6667, floor >= 0.8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}, floor {}", self.name, self.value, self.floor)
    }
}

/// The level of floor `name` in `table`. Every variant's name is a row of its table (a
/// unit test pins each), so the fallback is never taken.
fn table_level(table: &'static [isomer_corpus::FloorSpec], name: &str) -> FloorLevel {
    isomer_corpus::floor_spec(table, name).map_or(FloorLevel::Case, |spec| spec.level)
}

/// Prints a score with up to four decimals and no trailing zeros (`0.8`, `0.6667`, `1`).
fn number(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> CaseScores {
        CaseScores {
            parsed: true,
            valid: true,
            valid_after_retry: true,
            has_golden: true,
            selection_f1: Some(1.0),
            expected_hit: Some(true),
            size_vs_golden: Some(1.0),
            answerability: Some("yes".into()),
            ..CaseScores::default()
        }
    }

    #[test]
    fn names_table_matches_variants() {
        let floors = [
            Floor::ValidAfterRetry,
            Floor::MinSelectionF1(0.5),
            Floor::ExpectedHit,
            Floor::NoInventedTypes,
            Floor::MaxSizeVsGolden(1.5),
            Floor::AnswerabilityNotNo,
            Floor::MinValidRatio(0.5),
            Floor::MinValidAfterRetryRatio(0.5),
            Floor::MinMeanSelectionF1(0.5),
            Floor::MaxAnswerabilityNo(0),
        ];
        let from_variants: Vec<_> = floors.iter().map(|f| (f.name(), f.level())).collect();
        let from_table: Vec<_> = isomer_corpus::SINGLE_SHOT_FLOORS
            .iter()
            .map(|spec| (spec.name, spec.level))
            .collect();
        assert_eq!(from_variants, from_table);
    }

    #[test]
    fn good_case_meets_every_case_floor() {
        for floor in [
            Floor::ValidAfterRetry,
            Floor::MinSelectionF1(1.0),
            Floor::ExpectedHit,
            Floor::NoInventedTypes,
            Floor::MaxSizeVsGolden(1.0),
            Floor::AnswerabilityNotNo,
        ] {
            assert_eq!(floor.check_case(&good()), None, "{}", floor.name());
        }
    }

    #[test]
    fn misses_print_value_and_floor() {
        let scores = CaseScores {
            valid_after_retry: false,
            selection_f1: Some(2.0 / 3.0),
            expected_hit: Some(false),
            unknown_types: vec!["sparkline".into(), "gauge".into()],
            size_vs_golden: Some(1.75),
            answerability: Some("no".into()),
            ..good()
        };
        let lines: Vec<String> = [
            Floor::ValidAfterRetry,
            Floor::MinSelectionF1(0.8),
            Floor::ExpectedHit,
            Floor::NoInventedTypes,
            Floor::MaxSizeVsGolden(1.5),
            Floor::AnswerabilityNotNo,
        ]
        .iter()
        .map(|f| f.check_case(&scores).unwrap().to_string())
        .collect();
        assert_eq!(
            lines,
            [
                "valid_after_retry: false, floor true",
                "min_selection_f1: 0.6667, floor >= 0.8",
                "expected_hit: false, floor true",
                "no_invented_types: [sparkline, gauge], floor []",
                "max_size_vs_golden: 1.75, floor <= 1.5",
                "answerability_not_no: no, floor not no",
            ]
        );
    }

    #[test]
    fn exemptions() {
        let no_golden = CaseScores {
            has_golden: false,
            selection_f1: None,
            expected_hit: None,
            size_vs_golden: None,
            answerability: None,
            ..good()
        };
        for floor in [
            Floor::MinSelectionF1(0.9),
            Floor::ExpectedHit,
            Floor::MaxSizeVsGolden(0.1),
            Floor::AnswerabilityNotNo,
        ] {
            assert_eq!(floor.check_case(&no_golden), None, "{}", floor.name());
        }
        let golden_but_invalid = CaseScores {
            selection_f1: None,
            ..good()
        };
        assert_eq!(
            Floor::MinSelectionF1(0.8)
                .check_case(&golden_but_invalid)
                .unwrap()
                .to_string(),
            "min_selection_f1: none (no valid composition), floor >= 0.8"
        );
    }

    #[test]
    fn suite_floors() {
        let totals = SuiteTotals {
            cases: 8,
            valid: 7,
            valid_after_retry: 8,
            mean_selection_f1: Some(0.8125),
            answerability_no: 1,
        };
        assert_eq!(Floor::MinValidRatio(0.875).check_suite(&totals), None);
        assert_eq!(
            Floor::MinValidRatio(0.9)
                .check_suite(&totals)
                .unwrap()
                .to_string(),
            "min_valid_ratio: 0.875, floor >= 0.9"
        );
        assert_eq!(
            Floor::MinValidAfterRetryRatio(1.0).check_suite(&totals),
            None
        );
        assert_eq!(
            Floor::MinMeanSelectionF1(0.85)
                .check_suite(&totals)
                .unwrap()
                .to_string(),
            "min_mean_selection_f1: 0.8125, floor >= 0.85"
        );
        assert_eq!(
            Floor::MaxAnswerabilityNo(0)
                .check_suite(&totals)
                .unwrap()
                .to_string(),
            "max_answerability_no: 1, floor <= 0"
        );
        assert_eq!(Floor::MaxAnswerabilityNo(1).check_suite(&totals), None);
        let empty = SuiteTotals::default();
        assert_eq!(
            Floor::MinValidRatio(0.0)
                .check_suite(&empty)
                .unwrap()
                .to_string(),
            "min_valid_ratio: none (no cases), floor >= 0"
        );
        assert_eq!(Floor::ValidAfterRetry.check_suite(&totals), None);
        assert_eq!(Floor::MinValidRatio(1.0).check_case(&good()), None);
    }
}
