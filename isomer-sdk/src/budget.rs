//! The input budget: refuse hostile or huge input before any schema runs
//! (upstream `checkInputBudget`).
//!
//! Three limits, each overridable per runtime ([`InputBudget`]):
//!
//! | limit | default | what is counted |
//! |---|---|---|
//! | depth | 64 | containers (objects, arrays) on the path from the root, the root container counting 1; leaves have no depth |
//! | values | 20,000 | every value once: the root, every container, every leaf |
//! | characters | 1,000,000 | UTF-16 code units of every object key and string leaf, plus the length of `String(leaf)` for other leaves (`true` 4, `false` 5, `null` 4, numbers as JavaScript prints them: `1e+21` 5, `-0` 1) |
//!
//! When several limits are crossed, the one reported is the one upstream's
//! walk meets first: upstream keeps a LIFO stack of containers, counts a
//! child when its parent is expanded, and expands the last child of a
//! container first, visiting object entries in JavaScript property order
//! (array-index keys such as `"0"` first, then the rest in document order),
//! as its
//! `Object.keys` walk does.
//!
//! The rule lives in one place, `Meter`, fed a value's parts depth first
//! as they are met. [`check_input_budget`] feeds it a built value;
//! [`Document::parse_within`](crate::json::Document::parse_within) feeds it JSON text
//! while reading it, and stops building the value at the first value over a
//! limit (the 65th level, the 20,001st value, the 1,000,001st character by
//! default), so hostile text never becomes a large value. Both are
//! iterative, so any depth is safe to check.
//!
//! Upstream also refuses cycles (`input contains itself`) and values that are
//! not plain data (code `INPUT_NOT_PLAIN_DATA`); a `serde_json::Value` can be
//! neither, so this check never produces them. The message templates are
//! kept in [`BudgetRefusal`] for parity.
//!
//! Files: the limits, what an input measured, why it was refused and the
//! units a key or leaf counts are here; `check` walks a built value into
//! the `Meter`; `meter` holds the rule itself.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{ErrorCode, ValidationError};
use crate::js::{format_json_number, utf16_len};

mod check;
mod meter;
#[cfg(test)]
mod tests;

pub use check::check_input_budget;
pub(crate) use meter::Meter;

/// Upstream `MAX_INPUT_DEPTH`: containers nested at most 64 deep.
pub(crate) const MAX_INPUT_DEPTH: usize = 64;
/// Upstream `MAX_INPUT_VALUES`: at most 20,000 values, the root included.
pub(crate) const MAX_INPUT_VALUES: usize = 20_000;
/// Upstream `MAX_INPUT_CHARACTERS`: at most 1,000,000 UTF-16 code units of
/// keys and leaves.
pub(crate) const MAX_INPUT_CHARACTERS: usize = 1_000_000;

/// The limits [`check_input_budget`] enforces (upstream `InputBudget`).
///
/// `InputBudget::default()` is 64 / 20,000 / 1,000,000. Override one limit
/// and keep the others: `InputBudget { depth: 8, ..InputBudget::default() }`.
/// Deserializes from upstream's `{ depth?, values?, characters? }`, each
/// omitted field keeping its default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InputBudget {
    /// The deepest container nesting allowed, the root container counting 1.
    pub depth: usize,
    /// The most values allowed: the root, every container and every leaf.
    pub values: usize,
    /// The most characters (UTF-16 code units) of keys and leaves allowed.
    pub characters: usize,
}

impl Default for InputBudget {
    fn default() -> Self {
        InputBudget {
            depth: MAX_INPUT_DEPTH,
            values: MAX_INPUT_VALUES,
            characters: MAX_INPUT_CHARACTERS,
        }
    }
}

/// What an accepted input measured, in the budget's units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct InputUsage {
    /// The deepest container nesting (the root container is 1; a leaf root
    /// is 0).
    pub depth: usize,
    /// Every value counted once, the root included.
    pub values: usize,
    /// UTF-16 code units of keys and string leaves plus the JavaScript
    /// string length of other leaves.
    pub characters: usize,
}

impl InputUsage {
    /// True when every count is within `budget`'s limit for it.
    pub fn is_within(&self, budget: &InputBudget) -> bool {
        self.depth <= budget.depth
            && self.values <= budget.values
            && self.characters <= budget.characters
    }
}

/// Why an input was refused; [`BudgetRefusal::message`] is upstream's text
/// and [`BudgetRefusal::code`] its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BudgetRefusal {
    /// Containers nest deeper than the limit: `input nests deeper than 64 levels`.
    Depth(usize),
    /// More values than the limit: `input holds more than 20000 values`.
    Values(usize),
    /// More characters than the limit: `input holds more than 1000000 characters`.
    Characters(usize),
    /// A container is its own ancestor: `input contains itself`. Kept for
    /// parity; a `serde_json::Value` cannot contain itself.
    Cycle,
}

impl BudgetRefusal {
    /// Upstream's message, numbers printed without separators.
    pub fn message(self) -> String {
        match self {
            BudgetRefusal::Depth(limit) => format!("input nests deeper than {limit} levels"),
            BudgetRefusal::Values(limit) => format!("input holds more than {limit} values"),
            BudgetRefusal::Characters(limit) => {
                format!("input holds more than {limit} characters")
            }
            BudgetRefusal::Cycle => String::from("input contains itself"),
        }
    }

    /// Always [`ErrorCode::InputOverBudget`].
    pub fn code(self) -> ErrorCode {
        ErrorCode::InputOverBudget
    }

    /// The refusal as upstream reports it: one [`ValidationError`] with an
    /// empty path, this message and code `INPUT_OVER_BUDGET`.
    pub fn to_error(self) -> ValidationError {
        ValidationError::new("", self.message()).with_code(self.code())
    }
}

/// The character count of a leaf: UTF-16 code units of a string, the length
/// of JavaScript's `String(leaf)` otherwise (`null` 4, `true` 4, `false` 5,
/// `1e+21` 5). Containers count 0 here.
pub(crate) fn leaf_length(leaf: &Value) -> usize {
    match leaf {
        Value::Null => 4,
        Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => number_length(n),
        Value::String(s) => utf16_len(s),
        Value::Array(_) | Value::Object(_) => 0,
    }
}

/// The length of JavaScript's `String(n)`: the digits (and sign) of an
/// integer that a double holds exactly, counted without printing it;
/// otherwise the length of [`format_json_number`]. JavaScript number text
/// is ASCII, so bytes are code units.
fn number_length(n: &serde_json::Number) -> usize {
    /// 2⁵³ − 1: up to this magnitude an integer prints as its own digits.
    const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
    if let Some(i) = n.as_i64()
        && i.unsigned_abs() <= MAX_SAFE_INTEGER
    {
        let digits = i
            .unsigned_abs()
            .checked_ilog10()
            .map_or(1, |log| log as usize + 1);
        return digits + usize::from(i < 0);
    }
    format_json_number(n).len()
}
