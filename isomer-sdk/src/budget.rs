//! The input budget: refuse hostile or huge input before any schema runs
//! (upstream `checkInputBudget`, sdk.md §4).
//!
//! Three limits, each overridable per runtime ([`InputBudget`]):
//!
//! | limit | default | what is counted |
//! |---|---|---|
//! | depth | 64 ([`MAX_INPUT_DEPTH`]) | containers (objects, arrays) on the path from the root, the root container counting 1; leaves have no depth |
//! | values | 20,000 ([`MAX_INPUT_VALUES`]) | every value once: the root, every container, every leaf |
//! | characters | 1,000,000 ([`MAX_INPUT_CHARACTERS`]) | UTF-16 code units of every object key and string leaf, plus the length of `String(leaf)` for other leaves (`true` 4, `false` 5, `null` 4, numbers as JavaScript prints them: `1e+21` 5, `-0` 1) |
//!
//! The walk is iterative with a LIFO stack, so any depth is safe to check,
//! and it reproduces upstream's order exactly, so the same limit is reported
//! first (§4.5): a child is counted when its parent is expanded, and the last
//! child of a container is expanded first.
//!
//! Upstream also refuses cycles (`input contains itself`) and values that are
//! not plain data (code `INPUT_NOT_PLAIN_DATA`); a `serde_json::Value` can be
//! neither, so this check never produces them. The message templates are
//! kept in [`BudgetRefusal`] for parity.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{ErrorCode, ValidationError};
use crate::js::{format_json_number, js_property_order, utf16_len};

/// Upstream `MAX_INPUT_DEPTH`: containers nested at most 64 deep.
pub const MAX_INPUT_DEPTH: usize = 64;
/// Upstream `MAX_INPUT_VALUES`: at most 20,000 values, the root included.
pub const MAX_INPUT_VALUES: usize = 20_000;
/// Upstream `MAX_INPUT_CHARACTERS`: at most 1,000,000 UTF-16 code units of
/// keys and leaves.
pub const MAX_INPUT_CHARACTERS: usize = 1_000_000;

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

/// Why an input was refused; [`BudgetRefusal::message`] is upstream's text
/// (sdk.md §4.3, §4.4) and [`BudgetRefusal::code`] its code.
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

/// Checks `value` against `budget` before any schema reads it (upstream
/// `checkInputBudget`, sdk.md §4).
///
/// Returns what the value measured when every limit holds. Otherwise returns
/// the one refusal upstream would report: a [`ValidationError`] with path
/// `""`, code [`ErrorCode::InputOverBudget`] and message
/// `input nests deeper than <depth> levels`,
/// `input holds more than <values> values` or
/// `input holds more than <characters> characters`. When several limits are
/// crossed, the first one met in upstream's LIFO walk is reported (§4.5).
///
/// Upstream also returns a plain copy of the input; a `serde_json::Value` is
/// already plain data, so callers keep using the value they passed.
///
/// Iterative: a 1,000,000-deep array is refused after 65 steps, and the
/// check never recurses.
pub fn check_input_budget(
    value: &Value,
    budget: InputBudget,
) -> Result<InputUsage, ValidationError> {
    measure(value, budget).map_err(BudgetRefusal::to_error)
}

/// The walk of [`check_input_budget`], with the refusal still typed.
pub fn measure(value: &Value, budget: InputBudget) -> Result<InputUsage, BudgetRefusal> {
    let mut usage = InputUsage::default();
    let mut stack: Vec<(&Value, usize)> = Vec::new();
    enqueue(value, 1, 0, budget, &mut usage, &mut stack)?;
    while let Some((container, depth)) = stack.pop() {
        if depth > budget.depth {
            return Err(BudgetRefusal::Depth(budget.depth));
        }
        usage.depth = usage.depth.max(depth);
        match container {
            Value::Array(items) => {
                if usage.values.saturating_add(items.len()) > budget.values {
                    return Err(BudgetRefusal::Values(budget.values));
                }
                for item in items {
                    enqueue(item, depth + 1, 0, budget, &mut usage, &mut stack)?;
                }
            }
            Value::Object(map) => {
                if usage.values.saturating_add(map.len()) > budget.values {
                    return Err(BudgetRefusal::Values(budget.values));
                }
                for (key, item) in js_property_order(map) {
                    enqueue(
                        item,
                        depth + 1,
                        utf16_len(key),
                        budget,
                        &mut usage,
                        &mut stack,
                    )?;
                }
            }
            _ => {}
        }
    }
    Ok(usage)
}

/// Counts one value as its parent expands (§4.5 step 2): a leaf adds its key
/// and its own length; a container adds its key and waits on the stack.
fn enqueue<'a>(
    value: &'a Value,
    depth: usize,
    key_len: usize,
    budget: InputBudget,
    usage: &mut InputUsage,
    stack: &mut Vec<(&'a Value, usize)>,
) -> Result<(), BudgetRefusal> {
    usage.values += 1;
    if usage.values > budget.values {
        return Err(BudgetRefusal::Values(budget.values));
    }
    let own = match value {
        Value::Array(_) | Value::Object(_) => {
            stack.push((value, depth));
            0
        }
        leaf => leaf_length(leaf),
    };
    usage.characters = usage.characters.saturating_add(key_len).saturating_add(own);
    if usage.characters > budget.characters {
        return Err(BudgetRefusal::Characters(budget.characters));
    }
    Ok(())
}

/// The character count of a leaf: UTF-16 code units of a string, the length
/// of JavaScript's `String(leaf)` otherwise (`null` 4, `true` 4, `false` 5,
/// `1e+21` 5). Containers count 0 here.
pub fn leaf_length(leaf: &Value) -> usize {
    match leaf {
        Value::Null => 4,
        Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        // JavaScript number text is ASCII: bytes = code units.
        Value::Number(n) => format_json_number(n).len(),
        Value::String(s) => utf16_len(s),
        Value::Array(_) | Value::Object(_) => 0,
    }
}
