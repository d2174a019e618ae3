//! The floor table: every floor an `#[isomer_eval(...)]` gate can declare, with the kind of
//! value it takes and which way it bounds its score, whether it is asserted per case or
//! per suite, and when it holds.
//!
//! The macro checks each floor it is given against this table while it expands (an unknown
//! name, a name of the other suite kind or a value out of range is a compile error), and
//! the harness reads the same table to tell case floors from suite floors, so the two never
//! disagree about a floor.

/// Whether a floor is asserted in each case trial or in the suite's `totals` trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloorLevel {
    /// Asserted in every `<suite>::<case id>` trial.
    Case,
    /// Asserted once, in `<suite>::totals`.
    Suite,
}

/// What a floor takes in the attribute and which way it bounds its score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloorKind {
    /// Written bare or `= true` / `= false` (`false` declares the floor off); holds when the
    /// score is met (a true flag, an empty list, a verdict other than the one refused).
    Flag,
    /// A number of the range; holds when the score is at least the value.
    AtLeast(FloorRange),
    /// A number of the range; holds when the score is at most the value.
    AtMost(FloorRange),
}

/// The numbers a bounding floor ([`FloorKind::AtLeast`] or [`FloorKind::AtMost`]) accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloorRange {
    /// A number in `0.0..=1.0` (float or integer literal).
    Ratio,
    /// A finite number greater than zero (float or integer literal).
    PositiveNumber,
    /// A non-negative integer literal that fits a `u64`.
    Count,
}

impl FloorKind {
    /// The numbers the kind accepts; `None` for a flag.
    pub fn numbers(self) -> Option<FloorRange> {
        match self {
            FloorKind::Flag => None,
            FloorKind::AtLeast(range) | FloorKind::AtMost(range) => Some(range),
        }
    }

    /// The values the kind accepts, as the floor table prints them: `true / false`,
    /// `0.0..=1.0`, `> 0.0` or `0..`.
    pub fn range(self) -> &'static str {
        match self.numbers() {
            None => "true / false",
            Some(FloorRange::Ratio) => "0.0..=1.0",
            Some(FloorRange::PositiveNumber) => "> 0.0",
            Some(FloorRange::Count) => "0..",
        }
    }

    /// True when `number` is in range for a kind of [`FloorRange::Ratio`] or
    /// [`FloorRange::PositiveNumber`]; false for the other kinds, which take no float.
    pub fn accepts_number(self, number: f64) -> bool {
        match self.numbers() {
            Some(FloorRange::Ratio) => (0.0..=1.0).contains(&number),
            Some(FloorRange::PositiveNumber) => number.is_finite() && number > 0.0,
            Some(FloorRange::Count) | None => false,
        }
    }
}

/// One row of the floor table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloorSpec {
    /// The attribute name, e.g. `min_selection_f1`.
    pub name: &'static str,
    /// The value it takes and which way it bounds the score.
    pub kind: FloorKind,
    /// Where it is asserted.
    pub level: FloorLevel,
    /// When the floor holds, in one sentence.
    pub doc: &'static str,
}

const fn row(
    name: &'static str,
    kind: FloorKind,
    level: FloorLevel,
    doc: &'static str,
) -> FloorSpec {
    FloorSpec {
        name,
        kind,
        level,
        doc,
    }
}

use FloorKind::{AtLeast, AtMost, Flag};
use FloorLevel::{Case, Suite};
use FloorRange::{Count, PositiveNumber, Ratio};

/// The floors of a single-shot suite, case floors first.
pub const SINGLE_SHOT_FLOORS: &[FloorSpec] = &[
    row(
        "valid_after_retry",
        Flag,
        Case,
        "the first attempt or the single retry passed schema parse and validation",
    ),
    row(
        "min_selection_f1",
        AtLeast(Ratio),
        Case,
        "the selection F1 against the golden is at least the value; a case without a golden is exempt, a case with a golden but no valid composition fails",
    ),
    row(
        "expected_hit",
        Flag,
        Case,
        "at least one of the case's `expected` node types appears in the answer; a case without `expected` is exempt",
    ),
    row(
        "no_invented_types",
        Flag,
        Case,
        "the first attempt uses no node type the catalog lacks (`payload.unknown_types` is empty)",
    ),
    row(
        "max_size_vs_golden",
        AtMost(PositiveNumber),
        Case,
        "the first attempt's sanitized bytes over the golden's are at most the value; a case without a golden is exempt",
    ),
    row(
        "answerability_not_no",
        Flag,
        Case,
        "the judge's verdict is not `no`; a case with no verdict (no judgment, or no valid composition) is exempt",
    ),
    row(
        "min_pass_rate",
        AtLeast(Ratio),
        Case,
        "with repeats, the share of the case's runs that meet every other case floor (`k of n`) is at least the value; without it every run must meet them",
    ),
    row(
        "min_valid_ratio",
        AtLeast(Ratio),
        Suite,
        "`valid / cases` is at least the value",
    ),
    row(
        "min_valid_after_retry_ratio",
        AtLeast(Ratio),
        Suite,
        "`valid_after_retry / cases` is at least the value",
    ),
    row(
        "min_mean_selection_f1",
        AtLeast(Ratio),
        Suite,
        "the mean selection F1 is at least the value; a suite where no case has a selection fails",
    ),
    row(
        "max_answerability_no",
        AtMost(Count),
        Suite,
        "at most this many cases got the verdict `no`",
    ),
];

/// The floors of an agent suite (`#[isomer_eval(agent, ...)]`), case floors first. Case
/// floors hold for every run of the case, suite floors over all runs.
pub const AGENT_FLOORS: &[FloorSpec] = &[
    row(
        "finished",
        Flag,
        Case,
        "the run ended on an answer (a turn without tool calls) before `max_turns`, its step never failing",
    ),
    row(
        "valid",
        Flag,
        Case,
        "the answer passed the schema parse, validation and the frame rule",
    ),
    row(
        "expected_hit",
        Flag,
        Case,
        "one of the case's `expected` node types appears in the answer (valid or not); a case without `expected` is exempt",
    ),
    row(
        "no_failed_calls",
        Flag,
        Case,
        "no tool call was answered as a failed result (refused input, unknown tool, failing handler)",
    ),
    row(
        "max_turns",
        AtMost(Count),
        Case,
        "the run took at most this many model turns",
    ),
    row(
        "tools_called",
        Flag,
        Case,
        "the run called the tools its case expects (`expectedTools` in that order, `expectedToolSet` each in any order, or the suite's `AgentSuite::expected_tools`); a case that states none is exempt",
    ),
    row(
        "min_finished_ratio",
        AtLeast(Ratio),
        Suite,
        "`finished / runs` is at least the value",
    ),
    row(
        "min_valid_ratio",
        AtLeast(Ratio),
        Suite,
        "`valid / runs` is at least the value",
    ),
    row(
        "min_expected_hit_ratio",
        AtLeast(Ratio),
        Suite,
        "expected hits over the runs of cases listing `expected` is at least the value; fails when no case lists any",
    ),
    row(
        "min_tools_called_ratio",
        AtLeast(Ratio),
        Suite,
        "runs that called their case's expected tools over the runs of cases that state some is at least the value; fails when no case states any",
    ),
    row(
        "max_mean_turns",
        AtMost(PositiveNumber),
        Suite,
        "the mean model turns per run is at most the value; fails with zero runs",
    ),
];

/// The row of `table` named `name`.
pub fn floor_spec(table: &'static [FloorSpec], name: &str) -> Option<&'static FloorSpec> {
    table.iter().find(|spec| spec.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_per_table_and_shared_names_agree() {
        for table in [SINGLE_SHOT_FLOORS, AGENT_FLOORS] {
            let mut names: Vec<&str> = table.iter().map(|spec| spec.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), table.len());
        }
        let shared: Vec<(&str, FloorKind, FloorLevel)> = SINGLE_SHOT_FLOORS
            .iter()
            .filter_map(|spec| {
                let other = floor_spec(AGENT_FLOORS, spec.name)?;
                assert_eq!((other.kind, other.level), (spec.kind, spec.level));
                Some((spec.name, spec.kind, spec.level))
            })
            .collect();
        assert_eq!(
            shared,
            [
                ("expected_hit", Flag, Case),
                ("min_valid_ratio", AtLeast(Ratio), Suite)
            ]
        );
    }

    #[test]
    fn ranges() {
        let (ratio, positive) = (AtLeast(Ratio), AtMost(PositiveNumber));
        assert!(ratio.accepts_number(0.0) && ratio.accepts_number(1.0));
        assert!(!ratio.accepts_number(1.5) && !ratio.accepts_number(f64::NAN));
        assert!(positive.accepts_number(1e23) && !positive.accepts_number(0.0));
        assert!(!positive.accepts_number(f64::INFINITY));
        assert!(!AtMost(Count).accepts_number(1.0) && !Flag.accepts_number(1.0));
        assert_eq!(
            [Flag, ratio, positive, AtMost(Count)].map(FloorKind::range),
            ["true / false", "0.0..=1.0", "> 0.0", "0.."]
        );
        assert_eq!(
            floor_spec(AGENT_FLOORS, "max_turns").unwrap().kind,
            AtMost(Count)
        );
        assert_eq!(floor_spec(SINGLE_SHOT_FLOORS, "max_turns"), None);
    }

    /// A floor named `min_…` is a lower bound and one named `max_…` an upper bound; every
    /// other floor is a flag.
    #[test]
    fn names_say_which_way_a_floor_bounds() {
        for spec in SINGLE_SHOT_FLOORS.iter().chain(AGENT_FLOORS) {
            let expected = if spec.name.starts_with("min_") {
                "at least"
            } else if spec.name.starts_with("max_") {
                "at most"
            } else {
                "flag"
            };
            let kind = match spec.kind {
                Flag => "flag",
                AtLeast(_) => "at least",
                AtMost(_) => "at most",
            };
            assert_eq!(kind, expected, "{}", spec.name);
        }
    }
}
