//! Agent floors: what an `#[isomer_eval(agent, ...)]` gate asserts over replayed agent
//! runs (see [`crate::agent`]). Case floors hold for every run of a case (each of its
//! `repeat` runs) in its `<suite>::<case id>` trial; suite floors hold over every run in
//! `<suite>::totals`. The table is in the [parent module](super).

use super::{FloorLevel, FloorMiss, number, table_level};
use crate::agent::{AgentEvalCaseResult, AgentEvalTotals};

/// One declared agent floor with its value. Built by the `#[isomer_eval(agent, ...)]`
/// expansion as a constant; see the [floor table](super) for each one's meaning.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum AgentFloor {
    /// `finished`: the run ended on an answer (a turn without tool calls) before
    /// `max_turns` and without a failed step.
    Finished,
    /// `valid`: the answer passed the schema parse, validation and the frame rule.
    Valid,
    /// `expected_hit`: one of the case's expected node types appears in the answer; a case
    /// without `expected` is exempt.
    ExpectedHit,
    /// `no_failed_calls`: no tool call of the run was answered as a failed result.
    NoFailedCalls,
    /// `max_turns = n`: the run took at most `n` model turns.
    MaxTurns(u64),
    /// `min_finished_ratio = x`: `finished / runs` at least `x` (`0.0..=1.0`).
    MinFinishedRatio(f64),
    /// `min_valid_ratio = x`: `valid / runs` at least `x` (`0.0..=1.0`).
    MinValidRatio(f64),
    /// `min_expected_hit_ratio = x`: expected hits over the runs of cases that list
    /// expected types at least `x` (`0.0..=1.0`); fails when no case lists any.
    MinExpectedHitRatio(f64),
    /// `max_mean_turns = x`: model turns per run, averaged over the runs, at most `x`.
    MaxMeanTurns(f64),
}

impl AgentFloor {
    /// The floor's attribute name, e.g. `"max_mean_turns"`.
    pub fn name(&self) -> &'static str {
        match self {
            AgentFloor::Finished => "finished",
            AgentFloor::Valid => "valid",
            AgentFloor::ExpectedHit => "expected_hit",
            AgentFloor::NoFailedCalls => "no_failed_calls",
            AgentFloor::MaxTurns(_) => "max_turns",
            AgentFloor::MinFinishedRatio(_) => "min_finished_ratio",
            AgentFloor::MinValidRatio(_) => "min_valid_ratio",
            AgentFloor::MinExpectedHitRatio(_) => "min_expected_hit_ratio",
            AgentFloor::MaxMeanTurns(_) => "max_mean_turns",
        }
    }

    /// Whether the floor is asserted per case (every run of it) or per suite, as the
    /// agent floor table says.
    pub fn level(&self) -> FloorLevel {
        table_level(isomer_corpus::AGENT_FLOORS, self.name())
    }

    /// Checks a case floor against one run. Returns `None` when it holds, when the run is
    /// exempt, or when this is a suite floor. A failed call is named by its turn and tool:
    /// `no_failed_calls: [turn 2 isomer_validate], floor []`.
    pub fn check_run(&self, run: &AgentEvalCaseResult) -> Option<FloorMiss> {
        let miss = |value: String, floor: String| {
            Some(FloorMiss {
                name: self.name(),
                value,
                floor,
            })
        };
        match *self {
            AgentFloor::Finished if !run.finished => miss("false".into(), "true".into()),
            AgentFloor::Valid if !run.valid => miss("false".into(), "true".into()),
            AgentFloor::ExpectedHit => match &run.expected {
                Some(expected) if !expected.hit => miss("false".into(), "true".into()),
                _ => None,
            },
            AgentFloor::NoFailedCalls => {
                let failed: Vec<String> = run
                    .calls
                    .iter()
                    .filter(|call| call.is_error)
                    .map(|call| format!("turn {} {}", call.turn, call.name))
                    .collect();
                if failed.is_empty() {
                    None
                } else {
                    miss(format!("[{}]", failed.join(", ")), "[]".into())
                }
            }
            AgentFloor::MaxTurns(max) if u64::from(run.turns) > max => {
                miss(run.turns.to_string(), format!("<= {max}"))
            }
            _ => None,
        }
    }

    /// Checks a suite floor against the totals of every run. Returns `None` when it holds
    /// or when this is a case floor. Zero runs fail every ratio and mean floor.
    pub fn check_totals(&self, totals: &AgentEvalTotals) -> Option<FloorMiss> {
        let at_least = |value: Option<f64>, min: f64, what: &str| {
            let value = match value {
                Some(value) if value >= min => return None,
                Some(value) => number(value),
                None => format!("none ({what})"),
            };
            Some(FloorMiss {
                name: self.name(),
                value,
                floor: format!(">= {}", number(min)),
            })
        };
        let ratio = |part: usize, whole: usize| (whole > 0).then(|| part as f64 / whole as f64);
        match *self {
            AgentFloor::MinFinishedRatio(min) => {
                at_least(ratio(totals.finished, totals.runs), min, "no runs")
            }
            AgentFloor::MinValidRatio(min) => {
                at_least(ratio(totals.valid, totals.runs), min, "no runs")
            }
            AgentFloor::MinExpectedHitRatio(min) => at_least(
                totals
                    .expected
                    .as_ref()
                    .and_then(|expected| ratio(expected.hits, expected.cases)),
                min,
                "no case lists expected types",
            ),
            AgentFloor::MaxMeanTurns(max) => {
                let value = if totals.runs == 0 {
                    "none (no runs)".to_owned()
                } else if totals.turns.mean > max {
                    number(totals.turns.mean)
                } else {
                    return None;
                };
                Some(FloorMiss {
                    name: self.name(),
                    value,
                    floor: format!("<= {}", number(max)),
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(value: serde_json::Value) -> AgentEvalCaseResult {
        serde_json::from_value(value).unwrap()
    }

    fn totals(value: serde_json::Value) -> AgentEvalTotals {
        serde_json::from_value(value).unwrap()
    }

    const EVERY: [AgentFloor; 9] = [
        AgentFloor::Finished,
        AgentFloor::Valid,
        AgentFloor::ExpectedHit,
        AgentFloor::NoFailedCalls,
        AgentFloor::MaxTurns(4),
        AgentFloor::MinFinishedRatio(0.5),
        AgentFloor::MinValidRatio(0.5),
        AgentFloor::MinExpectedHitRatio(0.5),
        AgentFloor::MaxMeanTurns(4.5),
    ];

    #[test]
    fn names_table_matches_variants() {
        let from_variants: Vec<_> = EVERY.iter().map(|f| (f.name(), f.level())).collect();
        let from_table: Vec<_> = isomer_corpus::AGENT_FLOORS
            .iter()
            .map(|spec| (spec.name, spec.level))
            .collect();
        assert_eq!(from_variants, from_table);
    }

    #[test]
    fn run_misses_print_value_and_floor() {
        let bad = run(json!({
            "caseId": "a", "repeat": 0, "finished": false, "turns": 6,
            "usage": { "inputTokens": 1, "outputTokens": 1 }, "toolResultBytes": 9,
            "calls": [
                { "turn": 0, "name": "isomer_authoring_guide", "isError": false, "resultBytes": 5 },
                { "turn": 2, "name": "isomer_validate", "isError": true, "resultBytes": 4 }
            ],
            "answer": "", "parsed": false, "valid": false, "errors": ["x"],
            "expected": { "hit": false, "found": [] }
        }));
        let lines: Vec<String> = EVERY
            .iter()
            .filter_map(|floor| floor.check_run(&bad))
            .map(|miss| miss.to_string())
            .collect();
        assert_eq!(
            lines,
            [
                "finished: false, floor true",
                "valid: false, floor true",
                "expected_hit: false, floor true",
                "no_failed_calls: [turn 2 isomer_validate], floor []",
                "max_turns: 6, floor <= 4",
            ]
        );
        let good = run(json!({
            "caseId": "a", "repeat": 0, "finished": true, "turns": 4,
            "usage": { "inputTokens": 1, "outputTokens": 1 }, "toolResultBytes": 0,
            "calls": [], "answer": "{}", "parsed": true, "valid": true, "errors": []
        }));
        assert_eq!(
            EVERY.iter().filter_map(|f| f.check_run(&good)).count(),
            0,
            "a good run without expected types is exempt from expected_hit"
        );
    }

    #[test]
    fn totals_misses_print_value_and_floor() {
        let eight = totals(json!({
            "cases": 8, "repeat": 1, "runs": 8, "finished": 7, "valid": 6,
            "expected": { "hits": 7, "cases": 8 },
            "turns": { "mean": 4.375 }, "inputTokens": { "mean": 1.0 },
            "outputTokens": { "mean": 1.0 }, "toolResultBytes": { "mean": 1.0 }, "calls": []
        }));
        let lines: Vec<String> = [
            AgentFloor::MinFinishedRatio(1.0),
            AgentFloor::MinValidRatio(0.8),
            AgentFloor::MinExpectedHitRatio(0.9),
            AgentFloor::MaxMeanTurns(4.0),
            AgentFloor::MaxMeanTurns(4.375),
            AgentFloor::MinExpectedHitRatio(0.875),
            AgentFloor::Finished,
        ]
        .iter()
        .filter_map(|floor| floor.check_totals(&eight))
        .map(|miss| miss.to_string())
        .collect();
        assert_eq!(
            lines,
            [
                "min_finished_ratio: 0.875, floor >= 1",
                "min_valid_ratio: 0.75, floor >= 0.8",
                "min_expected_hit_ratio: 0.875, floor >= 0.9",
                "max_mean_turns: 4.375, floor <= 4",
            ]
        );
        let none = totals(json!({
            "cases": 0, "repeat": 1, "runs": 0, "finished": 0, "valid": 0,
            "turns": { "mean": 0.0 }, "inputTokens": { "mean": 0.0 },
            "outputTokens": { "mean": 0.0 }, "toolResultBytes": { "mean": 0.0 }, "calls": []
        }));
        let lines: Vec<String> = [
            AgentFloor::MinValidRatio(0.0),
            AgentFloor::MinExpectedHitRatio(0.0),
            AgentFloor::MaxMeanTurns(1.0),
        ]
        .iter()
        .filter_map(|floor| floor.check_totals(&none))
        .map(|miss| miss.to_string())
        .collect();
        assert_eq!(
            lines,
            [
                "min_valid_ratio: none (no runs), floor >= 0",
                "min_expected_hit_ratio: none (no case lists expected types), floor >= 0",
                "max_mean_turns: none (no runs), floor <= 1",
            ]
        );
    }
}
