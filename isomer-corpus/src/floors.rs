//! The floor table: every floor an `#[isomer_eval(...)]` gate can declare, with the kind of
//! value it takes, whether it is asserted per case or per suite, and when it holds.
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

/// The kind of value a floor takes in the attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloorKind {
    /// Written bare or `= true` / `= false`; `false` declares the floor off.
    Flag,
    /// A number in `0.0..=1.0` (float or integer literal).
    Ratio,
    /// A finite number greater than zero (float or integer literal).
    PositiveNumber,
    /// A non-negative integer literal that fits a `u64`.
    Count,
}

impl FloorKind {
    /// The values the kind accepts, as the floor table prints them: `true / false`,
    /// `0.0..=1.0`, `> 0.0` or `0..`.
    pub fn range(self) -> &'static str {
        match self {
            FloorKind::Flag => "true / false",
            FloorKind::Ratio => "0.0..=1.0",
            FloorKind::PositiveNumber => "> 0.0",
            FloorKind::Count => "0..",
        }
    }

    /// True when `number` is in range for a number kind ([`FloorKind::Ratio`] or
    /// [`FloorKind::PositiveNumber`]); false for the other kinds, which take no float.
    pub fn accepts_number(self, number: f64) -> bool {
        match self {
            FloorKind::Ratio => (0.0..=1.0).contains(&number),
            FloorKind::PositiveNumber => number.is_finite() && number > 0.0,
            FloorKind::Flag | FloorKind::Count => false,
        }
    }
}

/// One row of the floor table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloorSpec {
    /// The attribute name, e.g. `min_selection_f1`.
    pub name: &'static str,
    /// The kind of value it takes.
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

use FloorKind::{Count, Flag, PositiveNumber, Ratio};
use FloorLevel::{Case, Suite};

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
        Ratio,
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
        PositiveNumber,
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
        "min_valid_ratio",
        Ratio,
        Suite,
        "`valid / cases` is at least the value",
    ),
    row(
        "min_valid_after_retry_ratio",
        Ratio,
        Suite,
        "`valid_after_retry / cases` is at least the value",
    ),
    row(
        "min_mean_selection_f1",
        Ratio,
        Suite,
        "the mean selection F1 is at least the value; a suite where no case has a selection fails",
    ),
    row(
        "max_answerability_no",
        Count,
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
        Count,
        Case,
        "the run took at most this many model turns",
    ),
    row(
        "min_finished_ratio",
        Ratio,
        Suite,
        "`finished / runs` is at least the value",
    ),
    row(
        "min_valid_ratio",
        Ratio,
        Suite,
        "`valid / runs` is at least the value",
    ),
    row(
        "min_expected_hit_ratio",
        Ratio,
        Suite,
        "expected hits over the runs of cases listing `expected` is at least the value; fails when no case lists any",
    ),
    row(
        "max_mean_turns",
        PositiveNumber,
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
                ("min_valid_ratio", Ratio, Suite)
            ]
        );
    }

    #[test]
    fn ranges() {
        assert!(Ratio.accepts_number(0.0) && Ratio.accepts_number(1.0));
        assert!(!Ratio.accepts_number(1.5) && !Ratio.accepts_number(f64::NAN));
        assert!(PositiveNumber.accepts_number(1e23) && !PositiveNumber.accepts_number(0.0));
        assert!(!PositiveNumber.accepts_number(f64::INFINITY));
        assert_eq!(Count.range(), "0..");
        assert_eq!(floor_spec(AGENT_FLOORS, "max_turns").unwrap().kind, Count);
        assert_eq!(floor_spec(SINGLE_SHOT_FLOORS, "max_turns"), None);
    }
}
