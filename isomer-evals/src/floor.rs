//! Floors: the minimum scores an eval gate asserts, per case and per suite.
//!
//! A floor is declared by name in `#[isomer_eval(...)]` (the macro checks every name and
//! value at compile time against the floor table) and asserted by the harness: case floors
//! in each `<suite>::<case id>` trial, suite floors in the `<suite>::totals` trial. Only the
//! floors a suite declares are asserted; the report still shows every axis. No floor is on
//! by default, because what a pack can reach depends on its catalog, its corpus and the
//! model under test (the upstream README: "record a baseline run first and gate on that").
//!
//! The floors, their kinds, levels and when each holds are the tables
//! [`isomer_corpus::SINGLE_SHOT_FLOORS`] and, for a suite with the `agent` key
//! (`#[isomer_eval(corpus = "...", agent, ...)]`, see [`crate::harness::agent`]),
//! [`isomer_corpus::AGENT_FLOORS`]; a name from the other table is a compile error in each
//! mode. Agent case floors hold for every run of the case (each of its `repeat` runs),
//! suite floors over all runs.
//!
//! One checker serves both kinds of suite: each kind exposes its scores by floor name (a
//! case or run for the case floors, the totals for the suite floors), and the table row
//! says how the score is compared. A flag holds when its score is met; a floor named
//! `min_…` holds when the score is at least the value, one named `max_…` when it is at most
//! the value. A case without what a floor reads is exempt from it (no golden for
//! `min_selection_f1`, no `expected` types for `expected_hit`, no verdict for
//! `answerability_not_no`); a suite with nothing to average or divide by fails its ratio and
//! mean floors, printed `none (<why>)`.
//!
//! # Floors and repeats
//!
//! A suite that runs each case several times (`Suite::repeat`, `AgentSuite::repeat`)
//! declares its floors on the mean over the repeats. Suite floors read the totals over
//! every run, and each repeat runs every case once, so a ratio floor (`min_valid_ratio`)
//! reads the mean of the per-repeat ratios and a mean floor (`min_mean_selection_f1`,
//! `max_mean_turns`) the mean over every run: the value the report prints before its
//! `± <standard error>`. Case floors hold for every run of the case, each named
//! `<id>#<repeat>` in a single-shot case trial's message (`run <repeat>:` in an agent's).
//!
//! A flag floor is written bare (`valid_after_retry`) or as `valid_after_retry = true`;
//! `= false` declares it off, the same as leaving it out. Comparisons are on the exact `f64`
//! values (counts on the exact integers); messages print numbers with up to four decimals.

use isomer_corpus::{FloorKind, FloorLevel, FloorRange, FloorSpec, SINGLE_SHOT_FLOORS, floor_spec};

/// One declared floor: a name of its suite kind's floor table and the value it was declared
/// with. The `#[isomer_eval]` expansion builds these as constants
/// (`Floor::number("min_selection_f1", 0.8)`); see the [module docs](self) for the tables.
///
/// A floor whose name is not in its suite kind's table, or whose value is not of the row's
/// kind or range, fails every trial of the suite with what is wrong (the macro refuses both
/// at compile time; a hand-written suite can still get them wrong).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Floor {
    name: &'static str,
    value: FloorValue,
}

/// The value of a declared floor.
#[derive(Debug, Clone, Copy, PartialEq)]
enum FloorValue {
    Flag,
    Number(f64),
    Count(u64),
}

impl Floor {
    /// A flag floor such as `valid_after_retry`, declared on.
    pub const fn flag(name: &'static str) -> Self {
        Floor {
            name,
            value: FloorValue::Flag,
        }
    }

    /// A floor taking a ratio or a positive number, such as `min_selection_f1 = 0.8`.
    pub const fn number(name: &'static str, value: f64) -> Self {
        Floor {
            name,
            value: FloorValue::Number(value),
        }
    }

    /// A floor taking a count, such as `max_turns = 6`.
    pub const fn count(name: &'static str, value: u64) -> Self {
        Floor {
            name,
            value: FloorValue::Count(value),
        }
    }

    /// The floor's attribute name, e.g. `"min_selection_f1"`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The value the floor was declared with, as a run file keeps it
    /// ([`crate::run_file::DeclaredFloor`]): `None` for a flag, the number or the count
    /// otherwise.
    pub(crate) fn declared_value(&self) -> Option<f64> {
        match self.value {
            FloorValue::Flag => None,
            FloorValue::Number(value) => Some(value),
            FloorValue::Count(value) => Some(value as f64),
        }
    }

    /// The floor `name` of `table` declared with `value` (`None` for a flag), as a run file
    /// keeps it: a count row takes a whole number, a flag row no value.
    ///
    /// # Errors
    /// A name `table` does not have, or a value that does not fit the row's kind, said as
    /// `<name>: ...`.
    pub(crate) fn from_declared(
        table: &'static [FloorSpec],
        name: &str,
        value: Option<f64>,
    ) -> Result<Floor, String> {
        let Some(spec) = floor_spec(table, name) else {
            return Err(format!("{name}: not a floor of this kind of suite"));
        };
        match (spec.kind.numbers(), value) {
            (None, None) => Ok(Floor::flag(spec.name)),
            (Some(FloorRange::Count), Some(value))
                if value >= 0.0 && value.fract() == 0.0 && value <= u64::MAX as f64 =>
            {
                Ok(Floor::count(spec.name, value as u64))
            }
            (Some(FloorRange::Ratio | FloorRange::PositiveNumber), Some(value)) => {
                Ok(Floor::number(spec.name, value))
            }
            (_, value) => Err(format!(
                "{name}: declared with {}, but it takes {}",
                value.map_or_else(|| "no value".to_owned(), number),
                spec.kind.range()
            )),
        }
    }

    /// Why this floor cannot be checked against `table`, or `None` when it names a row and
    /// its value fits the row's kind.
    fn declaration_fault(&self, table: &'static [FloorSpec]) -> Option<String> {
        let Some(spec) = floor_spec(table, self.name) else {
            let names: Vec<&str> = table.iter().map(|spec| spec.name).collect();
            return Some(format!(
                "{}: not a floor of this kind of suite (its floors are {})",
                self.name,
                names.join(", ")
            ));
        };
        let fits = match (spec.kind.numbers(), self.value) {
            (None, FloorValue::Flag) => true,
            (Some(FloorRange::Count), FloorValue::Count(_)) => true,
            (Some(FloorRange::Ratio | FloorRange::PositiveNumber), FloorValue::Number(value)) => {
                spec.kind.accepts_number(value)
            }
            _ => false,
        };
        (!fits).then(|| {
            let declared = match self.value {
                FloorValue::Flag => "a flag".to_owned(),
                FloorValue::Number(value) => number(value),
                FloorValue::Count(value) => value.to_string(),
            };
            format!(
                "{}: declared as {declared}, but it takes {}",
                self.name,
                spec.kind.range()
            )
        })
    }

    /// Checks the floor, whose row is `spec`, against `score`: `None` when it holds or the
    /// score is [`Score::Exempt`], else the miss as printed.
    fn check(&self, spec: &FloorSpec, score: Score) -> Option<String> {
        let miss =
            |value: &str, floor: &str| Some(format!("{}: {value}, floor {floor}", self.name));
        if matches!(score, Score::Exempt) {
            return None;
        }
        let at_least = match spec.kind {
            FloorKind::Flag => {
                return match score {
                    Score::Flag { met: true, .. } => None,
                    Score::Flag { shown, wanted, .. } => miss(&shown, wanted),
                    _ => miss("not a flag score", "a flag"),
                };
            }
            FloorKind::AtLeast(_) => true,
            FloorKind::AtMost(_) => false,
        };
        let (limit_text, limit) = match self.value {
            FloorValue::Number(value) => (number(value), Amount::Number(value)),
            FloorValue::Count(value) => (value.to_string(), Amount::Count(value)),
            FloorValue::Flag => return miss("a flag", "a number"),
        };
        let floor = format!("{} {limit_text}", if at_least { ">=" } else { "<=" });
        let (value, shown) = match score {
            Score::Number(value) => (Amount::Number(value), number(value)),
            Score::Count(value) => (Amount::Count(value), value.to_string()),
            Score::Missing(why) => return miss(&format!("none ({why})"), &floor),
            Score::Exempt | Score::Flag { .. } => return miss("not a number", &floor),
        };
        let holds = match value.compare(limit) {
            Some(ordering) if at_least => ordering.is_ge(),
            Some(ordering) => ordering.is_le(),
            None => false,
        };
        if holds { None } else { miss(&shown, &floor) }
    }
}

/// A score or a floor's value: a count compares exactly with a count, anything else as
/// `f64`.
#[derive(Clone, Copy)]
enum Amount {
    Number(f64),
    Count(u64),
}

impl Amount {
    fn compare(self, other: Amount) -> Option<std::cmp::Ordering> {
        match (self, other) {
            (Amount::Count(a), Amount::Count(b)) => Some(a.cmp(&b)),
            (a, b) => a.as_f64().partial_cmp(&b.as_f64()),
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            Amount::Number(value) => value,
            Amount::Count(value) => value as f64,
        }
    }
}

impl std::fmt::Display for Floor {
    /// The floor as the attribute declares it: `valid_after_retry`, `min_valid_ratio =
    /// 0.97`, `max_turns = 6`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value {
            FloorValue::Flag => f.write_str(self.name),
            FloorValue::Number(value) => write!(f, "{} = {}", self.name, number(value)),
            FloorValue::Count(value) => write!(f, "{} = {value}", self.name),
        }
    }
}

/// What a kind of suite reads for one floor: the score it is compared with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Score {
    /// The floor does not apply (e.g. `min_selection_f1` for a case without a golden).
    Exempt,
    /// A flag's score: the floor holds when `met`; a miss prints `shown` against `wanted`.
    Flag {
        /// Whether the flag's condition holds.
        met: bool,
        /// The score as a miss prints it (`false`, `[sparkline]`, `no`).
        shown: String,
        /// What the floor wants, as a miss prints it (`true`, `[]`, `not no`).
        wanted: &'static str,
    },
    /// A number, such as a ratio or a mean.
    Number(f64),
    /// A count, such as turns or cases.
    Count(u64),
    /// No number where one is needed (nothing to divide or average): the floor fails,
    /// printed `none (<why>)`.
    Missing(&'static str),
}

impl Score {
    /// A flag that holds when `met`: a miss prints `false, floor true`.
    pub(crate) fn flag(met: bool) -> Score {
        Score::Flag {
            met,
            shown: "false".to_owned(),
            wanted: "true",
        }
    }

    /// A flag that holds when `unwanted` is empty: a miss prints `[a, b], floor []`.
    pub(crate) fn none_of(unwanted: Vec<String>) -> Score {
        Score::Flag {
            met: unwanted.is_empty(),
            shown: format!("[{}]", unwanted.join(", ")),
            wanted: "[]",
        }
    }

    /// `part / whole`, or [`Score::Missing`] with `why` when `whole` is zero.
    pub(crate) fn ratio(part: usize, whole: usize, why: &'static str) -> Score {
        if whole == 0 {
            Score::Missing(why)
        } else {
            Score::Number(part as f64 / whole as f64)
        }
    }
}

/// The scores a kind of suite exposes to its floors, by floor name: a case (or an agent
/// run) answers for the case floors of its kind's table, the totals for the suite floors.
/// `None` for a name it has no score for.
pub(crate) trait Scores {
    /// The score floor `name` is compared with.
    fn score(&self, name: &str) -> Option<Score>;

    /// What a miss of floor `name` adds in parentheses to say why (for a selection F1:
    /// the types missing and extra); `None` when the score says it all.
    fn detail(&self, _name: &str) -> Option<String> {
        None
    }
}

/// The misses of the `floors` at `level` against `scores`, in declaration order, as printed
/// (`min_selection_f1: 0.6667, floor >= 0.8`). `table` is the suite kind's floor table; a
/// floor not in it, or declared with a value its row does not take, is a miss at every
/// level, saying what is wrong.
pub(crate) fn misses(
    floors: &[Floor],
    table: &'static [FloorSpec],
    level: FloorLevel,
    scores: &dyn Scores,
) -> Vec<String> {
    floors
        .iter()
        .filter_map(|floor| {
            if let Some(fault) = floor.declaration_fault(table) {
                return Some(fault);
            }
            let spec = floor_spec(table, floor.name)?;
            if spec.level != level {
                return None;
            }
            match scores.score(floor.name) {
                Some(score) => {
                    floor
                        .check(spec, score)
                        .map(|miss| match scores.detail(floor.name) {
                            Some(detail) => format!("{miss} ({detail})"),
                            None => miss,
                        })
                }
                None => Some(format!(
                    "{}: this kind of suite has no such score",
                    floor.name
                )),
            }
        })
        .collect()
}

/// Prints a score with up to four decimals and no trailing zeros (`0.8`, `0.6667`, `1`).
pub(crate) fn number(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_string()
}

/// The name of the floor that reads a case's pass rate over its repeats.
pub(crate) const PASS_RATE_FLOOR: &str = "min_pass_rate";

/// A case's pass rate, as the `min_pass_rate` floor reads it.
struct Rate(f64);

impl Scores for Rate {
    fn score(&self, name: &str) -> Option<Score> {
        (name == PASS_RATE_FLOOR).then_some(Score::Number(self.0))
    }
}

/// The miss of the declared `min_pass_rate` floor for a case whose runs met its other case
/// floors `passed` times in `runs` (`min_pass_rate: 0.8, floor >= 0.9`); `None` when the
/// floor holds or is not declared.
pub(crate) fn pass_rate_miss(floors: &[Floor], passed: usize, runs: usize) -> Option<String> {
    let floor = floors
        .iter()
        .find(|floor| floor.name() == PASS_RATE_FLOOR)?;
    let rate = if runs == 0 {
        0.0
    } else {
        passed as f64 / runs as f64
    };
    misses(
        std::slice::from_ref(floor),
        SINGLE_SHOT_FLOORS,
        FloorLevel::Case,
        &Rate(rate),
    )
    .into_iter()
    .next()
}

/// Whether the suite declares `min_pass_rate`: its runs' misses then count against the
/// rate instead of failing the case one by one.
pub(crate) fn gates_on_pass_rate(floors: &[Floor]) -> bool {
    floors.iter().any(|floor| floor.name() == PASS_RATE_FLOOR)
}

/// Whether a case whose runs met its case floors `passed` times in `runs` passes,
/// as its case trial decides from the floors: every run met them, or, when the suite
/// declares `min_pass_rate`, the rate meets that floor. What a comparison of run files
/// calls the case's verdict.
pub(crate) fn case_passes(floors: &[Floor], passed: usize, runs: usize) -> bool {
    if gates_on_pass_rate(floors) {
        pass_rate_miss(floors, passed, runs).is_none()
    } else {
        passed == runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isomer_corpus::AGENT_FLOORS;

    #[test]
    fn the_pass_rate_floor_reads_k_of_n() {
        let floors = [
            Floor::flag("valid_after_retry"),
            Floor::number(PASS_RATE_FLOOR, 0.8),
        ];
        assert!(gates_on_pass_rate(&floors));
        assert_eq!(pass_rate_miss(&floors, 4, 5), None);
        assert_eq!(
            pass_rate_miss(&floors, 3, 5).as_deref(),
            Some("min_pass_rate: 0.6, floor >= 0.8")
        );
        assert_eq!(pass_rate_miss(&floors[..1], 0, 5), None);
        assert!(!gates_on_pass_rate(&floors[..1]));
        assert!(case_passes(&floors, 4, 5) && !case_passes(&floors, 3, 5));
        assert!(case_passes(&floors[..1], 5, 5) && !case_passes(&floors[..1], 4, 5));
    }

    /// Scores given as a list of `(name, score)`.
    struct Given(Vec<(&'static str, Score)>);

    impl Scores for Given {
        fn score(&self, name: &str) -> Option<Score> {
            let (_, score) = self.0.iter().find(|(given, _)| *given == name)?;
            Some(score.clone())
        }
    }

    fn case_misses(floors: &[Floor], scores: Vec<(&'static str, Score)>) -> Vec<String> {
        misses(floors, SINGLE_SHOT_FLOORS, FloorLevel::Case, &Given(scores))
    }

    #[test]
    fn flags_print_what_they_read_and_what_they_want() {
        let floors = [
            Floor::flag("valid_after_retry"),
            Floor::flag("no_invented_types"),
            Floor::flag("answerability_not_no"),
            Floor::flag("expected_hit"),
        ];
        let scores = vec![
            ("valid_after_retry", Score::flag(false)),
            (
                "no_invented_types",
                Score::none_of(vec!["sparkline".into(), "gauge".into()]),
            ),
            (
                "answerability_not_no",
                Score::Flag {
                    met: false,
                    shown: "no".into(),
                    wanted: "not no",
                },
            ),
            ("expected_hit", Score::Exempt),
        ];
        assert_eq!(
            case_misses(&floors, scores),
            [
                "valid_after_retry: false, floor true",
                "no_invented_types: [sparkline, gauge], floor []",
                "answerability_not_no: no, floor not no",
            ]
        );
        let met = vec![
            ("valid_after_retry", Score::flag(true)),
            ("no_invented_types", Score::none_of(Vec::new())),
            ("answerability_not_no", Score::Exempt),
            ("expected_hit", Score::flag(true)),
        ];
        assert_eq!(case_misses(&floors, met), Vec::<String>::new());
    }

    #[test]
    fn bounds_compare_exactly_and_print_four_decimals() {
        let floors = [
            Floor::number("min_selection_f1", 0.8),
            Floor::number("max_size_vs_golden", 1.5),
        ];
        let below = vec![
            ("min_selection_f1", Score::Number(2.0 / 3.0)),
            ("max_size_vs_golden", Score::Number(1.75)),
        ];
        assert_eq!(
            case_misses(&floors, below),
            [
                "min_selection_f1: 0.6667, floor >= 0.8",
                "max_size_vs_golden: 1.75, floor <= 1.5",
            ]
        );
        let at_the_floor = vec![
            ("min_selection_f1", Score::Number(0.8)),
            ("max_size_vs_golden", Score::Number(1.5)),
        ];
        assert_eq!(case_misses(&floors, at_the_floor), Vec::<String>::new());
        let missing = vec![
            ("min_selection_f1", Score::Missing("no valid composition")),
            ("max_size_vs_golden", Score::Exempt),
        ];
        assert_eq!(
            case_misses(&floors, missing),
            ["min_selection_f1: none (no valid composition), floor >= 0.8"]
        );
    }

    #[test]
    fn only_floors_of_the_level_asked_for_are_checked() {
        let floors = [
            Floor::flag("valid_after_retry"),
            Floor::number("min_valid_ratio", 0.9),
            Floor::count("max_answerability_no", 0),
        ];
        let scores = Given(vec![
            ("valid_after_retry", Score::flag(false)),
            ("min_valid_ratio", Score::ratio(7, 8, "no cases")),
            ("max_answerability_no", Score::Count(1)),
        ]);
        assert_eq!(
            misses(&floors, SINGLE_SHOT_FLOORS, FloorLevel::Suite, &scores),
            [
                "min_valid_ratio: 0.875, floor >= 0.9",
                "max_answerability_no: 1, floor <= 0",
            ]
        );
        assert_eq!(
            misses(&floors, SINGLE_SHOT_FLOORS, FloorLevel::Case, &scores),
            ["valid_after_retry: false, floor true"]
        );
        let empty = Given(vec![("min_valid_ratio", Score::ratio(0, 0, "no cases"))]);
        assert_eq!(
            misses(
                &[Floor::number("min_valid_ratio", 0.0)],
                SINGLE_SHOT_FLOORS,
                FloorLevel::Suite,
                &empty
            ),
            ["min_valid_ratio: none (no cases), floor >= 0"]
        );
    }

    #[test]
    fn counts_compare_as_integers() {
        let floors = [Floor::count("max_turns", u64::MAX - 1)];
        let scores = Given(vec![("max_turns", Score::Count(u64::MAX))]);
        assert_eq!(
            misses(&floors, AGENT_FLOORS, FloorLevel::Case, &scores),
            ["max_turns: 18446744073709551615, floor <= 18446744073709551614"]
        );
    }

    /// A hand-written suite can name a floor of the other kind, or give a value of the
    /// wrong kind: every level reports it, so no trial passes over it.
    #[test]
    fn a_floor_the_table_does_not_take_fails_at_every_level() {
        let floors = [
            Floor::count("max_turns", 6),
            Floor::number("valid_after_retry", 0.5),
            Floor::number("min_valid_ratio", 1.5),
        ];
        let expected = [
            "max_turns: not a floor of this kind of suite (its floors are valid_after_retry, min_selection_f1, expected_hit, no_invented_types, max_size_vs_golden, answerability_not_no, min_pass_rate, min_valid_ratio, min_valid_after_retry_ratio, min_mean_selection_f1, max_answerability_no)",
            "valid_after_retry: declared as 0.5, but it takes true / false",
            "min_valid_ratio: declared as 1.5, but it takes 0.0..=1.0",
        ];
        for level in [FloorLevel::Case, FloorLevel::Suite] {
            assert_eq!(
                misses(&floors, SINGLE_SHOT_FLOORS, level, &Given(Vec::new())),
                expected
            );
        }
        assert_eq!(
            case_misses(&[Floor::flag("expected_hit")], Vec::new()),
            ["expected_hit: this kind of suite has no such score"]
        );
    }

    #[test]
    fn numbers_print_with_up_to_four_decimals() {
        assert_eq!(
            [0.8, 2.0 / 3.0, 1.0, 0.0, 4.375].map(number),
            ["0.8", "0.6667", "1", "0", "4.375"]
        );
    }
}
