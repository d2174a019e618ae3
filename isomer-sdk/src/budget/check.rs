//! The check of a built value: [`check_input_budget`] walks a
//! `serde_json::Value` depth first, without recursion, and feeds its parts
//! to the `Meter`.

use serde_json::Value;

use crate::error::ValidationError;
use crate::js::js_property_order;

use super::{BudgetRefusal, InputBudget, InputUsage, Meter, leaf_length};
use crate::js::utf16_len;

/// Checks `value` against `budget` before any schema reads it (upstream
/// `checkInputBudget`).
///
/// Returns what the value measured when every limit holds. Otherwise returns
/// the one refusal upstream would report: a [`ValidationError`] with path
/// `""`, code
/// [`ErrorCode::InputOverBudget`](crate::error::ErrorCode::InputOverBudget)
/// and message
/// `input nests deeper than <depth> levels`,
/// `input holds more than <values> values` or
/// `input holds more than <characters> characters`. When several limits are
/// crossed, the first one met in upstream's LIFO walk is reported.
///
/// Upstream also returns a plain copy of the input; a `serde_json::Value` is
/// already plain data, so callers keep using the value they passed.
///
/// Iterative: any depth is safe. An accepted value is walked once; a refused
/// one twice (totals, then upstream's order). To refuse hostile *text*
/// before it becomes a value, read it with
/// [`Document::parse_within`](crate::json::Document::parse_within).
pub fn check_input_budget(
    value: &Value,
    budget: InputBudget,
) -> Result<InputUsage, ValidationError> {
    measure(value, budget).map_err(BudgetRefusal::to_error)
}

/// The walk of [`check_input_budget`], with the refusal still typed.
///
/// The value's parts are fed to one `Meter`, the budget's only rule. A
/// first walk in storage order totals what the value holds (the totals do
/// not depend on the order values are met in); only when a total is over
/// its limit does a second walk, in upstream's order, find the limit
/// upstream meets first.
pub(crate) fn measure(value: &Value, budget: InputBudget) -> Result<InputUsage, BudgetRefusal> {
    let mut meter = Meter::new(budget);
    feed(value, &mut meter, Order::Storage);
    if meter.within() {
        return Ok(meter.usage());
    }
    let mut ranker = meter.ranker();
    feed(value, &mut ranker, Order::Upstream);
    Err(ranker.refusal())
}

/// The order object entries are fed in.
#[derive(Clone, Copy)]
enum Order {
    /// As stored (document order): enough for totals.
    Storage,
    /// JavaScript property order ([`js_property_order`]), as upstream's
    /// `Object.keys` walk meets them: needed to rank a refusal.
    Upstream,
}

/// The children of one container still to be fed, with their keys'
/// UTF-16 lengths (0 for array items).
enum Children<'a> {
    Items(std::slice::Iter<'a, Value>),
    Entries(serde_json::map::Iter<'a>),
    Ordered(crate::js::JsPropertyOrder<'a>),
}

impl<'a> Children<'a> {
    /// The children of `value`, `None` for a leaf.
    fn of(value: &'a Value, order: Order) -> Option<Self> {
        match (value, order) {
            (Value::Array(items), _) => Some(Children::Items(items.iter())),
            (Value::Object(map), Order::Storage) => Some(Children::Entries(map.iter())),
            (Value::Object(map), Order::Upstream) => {
                Some(Children::Ordered(js_property_order(map)))
            }
            _ => None,
        }
    }
}

impl<'a> Iterator for Children<'a> {
    type Item = (usize, &'a Value);

    fn next(&mut self) -> Option<(usize, &'a Value)> {
        match self {
            Children::Items(items) => items.next().map(|item| (0, item)),
            Children::Entries(entries) => entries.next().map(|(key, item)| (utf16_len(key), item)),
            Children::Ordered(entries) => entries.next().map(|(key, item)| (utf16_len(key), item)),
        }
    }
}

/// Feeds `value` to `meter` depth first, without recursion: each container
/// is opened, its children fed in `order`, then closed.
fn feed(value: &Value, meter: &mut Meter, order: Order) {
    // Room for a few levels before the first growth.
    let mut open: Vec<Children<'_>> = Vec::with_capacity(16);
    let mut next = Some((0, value));
    while let Some((key_units, item)) = next {
        match Children::of(item, order) {
            Some(children) => {
                meter.open(key_units);
                open.push(children);
            }
            None => {
                meter.leaf(key_units, leaf_length(item));
            }
        }
        next = loop {
            let Some(children) = open.last_mut() else {
                break None;
            };
            match children.next() {
                Some(child) => break Some(child),
                None => {
                    open.pop();
                    meter.close();
                }
            }
        };
    }
}
