//! The values a pack scorer gives (a flag or a number per run) and how the results and
//! totals hold them: plain data the report reads, apart from the scorers that make it.

use serde::{Deserialize, Serialize};

use crate::floor::number;

/// A scorer's value for one run: a flag or a number (a flag given to a number scorer
/// counts as `1` or `0`, a number given to a flag scorer holds when it is not `0`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ScorerValue {
    /// A flag, on the wire `true` / `false`.
    Flag(bool),
    /// A number, on the wire a JSON number.
    Number(f64),
}

impl ScorerValue {
    /// The value as a number: a flag is `1` or `0`.
    pub fn as_f64(self) -> f64 {
        match self {
            ScorerValue::Flag(flag) => f64::from(u8::from(flag)),
            ScorerValue::Number(value) => value,
        }
    }

    /// The value as a flag: a number holds when it is not `0`.
    pub fn as_flag(self) -> bool {
        match self {
            ScorerValue::Flag(flag) => flag,
            ScorerValue::Number(value) => value != 0.0,
        }
    }

    /// As a report prints it: `true` / `false`, or the number with up to four decimals.
    pub fn text(self) -> String {
        match self {
            ScorerValue::Flag(flag) => flag.to_string(),
            ScorerValue::Number(value) => number(value),
        }
    }
}

/// One scorer's value for one run, as the result holds it
/// ([`EvalCaseResult::scorers`](crate::EvalCaseResult::scorers)); on the wire
/// `{ "name", "value", "detail"? }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScorerScore {
    /// The scorer's name.
    pub name: String,
    /// Its value.
    pub value: ScorerValue,
    /// What the scorer said of the value, when it said something.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// One scorer over a run, as the totals hold it
/// ([`EvalTotals::scorers`](crate::EvalTotals::scorers)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScorerTotal {
    /// The scorer's name.
    pub name: String,
    /// Whether its values are flags (all of them were): then `mean` is the ratio of runs
    /// whose flag holds.
    pub flag: bool,
    /// Runs it gave a value.
    pub runs: usize,
    /// Runs whose value is a flag that holds (or a number other than `0`).
    pub met: usize,
    /// The mean value over those runs (flags as `1` / `0`), summed in result order.
    pub mean: f64,
}
