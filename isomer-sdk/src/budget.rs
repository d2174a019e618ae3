//! The input budget: refuse hostile or huge input before any schema runs
//! (upstream `checkInputBudget`).
//!
//! Three limits, each overridable per runtime ([`InputBudget`]):
//!
//! | limit | default | what is counted |
//! |---|---|---|
//! | depth | 64 ([`MAX_INPUT_DEPTH`]) | containers (objects, arrays) on the path from the root, the root container counting 1; leaves have no depth |
//! | values | 20,000 ([`MAX_INPUT_VALUES`]) | every value once: the root, every container, every leaf |
//! | characters | 1,000,000 ([`MAX_INPUT_CHARACTERS`]) | UTF-16 code units of every object key and string leaf, plus the length of `String(leaf)` for other leaves (`true` 4, `false` 5, `null` 4, numbers as JavaScript prints them: `1e+21` 5, `-0` 1) |
//!
//! When several limits are crossed, the one reported is the one upstream's
//! walk meets first: upstream keeps a LIFO stack of containers, counts a
//! child when its parent is expanded, and expands the last child of a
//! container first, visiting object entries in JavaScript property order
//! (array-index keys such as `"0"` first, then the rest in document order;
//! see [`js_property_order`]), as its `Object.keys` walk does.
//!
//! The rule lives in one place, `Meter`, fed a value's parts depth first
//! as they are met. [`check_input_budget`] feeds it a built value;
//! [`parse_json_within`](crate::json::parse_json_within) feeds it JSON text
//! while reading it, and stops building the value at the first value over a
//! limit (the 65th level, the 20,001st value, the 1,000,001st character by
//! default), so hostile text never becomes a large value. Both are
//! iterative, so any depth is safe to check.
//!
//! Upstream also refuses cycles (`input contains itself`) and values that are
//! not plain data (code `INPUT_NOT_PLAIN_DATA`); a `serde_json::Value` can be
//! neither, so this check never produces them. The message templates are
//! kept in [`BudgetRefusal`] for parity.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{ErrorCode, ValidationError};
use crate::js::{format_json_number, js_property_order, utf16_len};

mod meter;

pub(crate) use meter::Meter;

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

/// Checks `value` against `budget` before any schema reads it (upstream
/// `checkInputBudget`).
///
/// Returns what the value measured when every limit holds. Otherwise returns
/// the one refusal upstream would report: a [`ValidationError`] with path
/// `""`, code [`ErrorCode::InputOverBudget`] and message
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
/// [`parse_json_within`](crate::json::parse_json_within).
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
pub fn measure(value: &Value, budget: InputBudget) -> Result<InputUsage, BudgetRefusal> {
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
    Ordered(std::vec::IntoIter<(&'a String, &'a Value)>),
}

impl<'a> Children<'a> {
    /// The children of `value`, `None` for a leaf.
    fn of(value: &'a Value, order: Order) -> Option<Self> {
        match (value, order) {
            (Value::Array(items), _) => Some(Children::Items(items.iter())),
            (Value::Object(map), Order::Storage) => Some(Children::Entries(map.iter())),
            (Value::Object(map), Order::Upstream) => {
                Some(Children::Ordered(js_property_order(map).into_iter()))
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
            Children::Entries(entries) => {
                entries.next().map(|(key, item)| (utf16_units(key), item))
            }
            Children::Ordered(entries) => {
                entries.next().map(|(key, item)| (utf16_units(key), item))
            }
        }
    }
}

/// Feeds `value` to `meter` depth first, without recursion: each container
/// is opened, its children fed in `order`, then closed.
fn feed(value: &Value, meter: &mut Meter, order: Order) {
    let mut open: Vec<Children<'_>> = Vec::new();
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

/// The character count of a leaf: UTF-16 code units of a string, the length
/// of JavaScript's `String(leaf)` otherwise (`null` 4, `true` 4, `false` 5,
/// `1e+21` 5). Containers count 0 here.
pub fn leaf_length(leaf: &Value) -> usize {
    match leaf {
        Value::Null => 4,
        Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => number_length(n),
        Value::String(s) => utf16_units(s),
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

/// UTF-16 code units of `s` ([`utf16_len`]), with ASCII text (one unit per
/// byte) counted by its length.
pub(crate) fn utf16_units(s: &str) -> usize {
    if s.is_ascii() { s.len() } else { utf16_len(s) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn nested_arrays(depth: usize) -> Value {
        crate::json::parse_json(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)))
            .unwrap()
            .into_inner()
    }

    fn refusal(value: &Value, budget: InputBudget) -> String {
        let error = check_input_budget(value, budget).unwrap_err();
        assert_eq!(error.path, "");
        assert_eq!(error.code, Some(ErrorCode::InputOverBudget));
        assert_eq!(error.node_type, None);
        error.message
    }

    #[test]
    fn defaults_are_upstreams() {
        assert_eq!(
            InputBudget::default(),
            InputBudget {
                depth: 64,
                values: 20_000,
                characters: 1_000_000
            }
        );
        let partial: InputBudget = serde_json::from_value(json!({"depth": 3})).unwrap();
        assert_eq!(
            partial,
            InputBudget {
                depth: 3,
                ..InputBudget::default()
            }
        );
    }

    #[test]
    fn depth_64_passes_and_65_fails() {
        let usage = check_input_budget(&nested_arrays(64), InputBudget::default()).unwrap();
        assert_eq!(
            usage,
            InputUsage {
                depth: 64,
                values: 64,
                characters: 0
            }
        );
        assert_eq!(
            refusal(&nested_arrays(65), InputBudget::default()),
            "input nests deeper than 64 levels"
        );
        // Leaves have no depth: a leaf inside 64 arrays passes.
        let mut deep_leaf = json!(1);
        for _ in 0..64 {
            deep_leaf = json!([deep_leaf]);
        }
        assert!(check_input_budget(&deep_leaf, InputBudget::default()).is_ok());
    }

    #[test]
    fn composition_depth_counts_containers() {
        // view 1, body 2, node 3, items 4, child node 5.
        let composition = json!({"type":"view","body":[{"type":"grid","items":[{"type":"kpi"}]}]});
        let usage = check_input_budget(&composition, InputBudget::default()).unwrap();
        assert_eq!(usage.depth, 5);
        let budget = InputBudget {
            depth: 4,
            ..InputBudget::default()
        };
        assert_eq!(
            refusal(&composition, budget),
            "input nests deeper than 4 levels"
        );
    }

    #[test]
    fn values_limit_is_exact() {
        let leaves = |n: usize| Value::Array(vec![Value::Null; n]);
        let usage = check_input_budget(&leaves(19_999), InputBudget::default()).unwrap();
        assert_eq!(usage.values, 20_000);
        assert_eq!(
            refusal(&leaves(20_000), InputBudget::default()),
            "input holds more than 20000 values"
        );
        // Objects count their keys' values the same way.
        let budget = InputBudget {
            values: 3,
            ..InputBudget::default()
        };
        assert!(check_input_budget(&json!({"a": 1, "b": 2}), budget).is_ok());
        assert_eq!(
            refusal(&json!({"a": 1, "b": 2, "c": 3}), budget),
            "input holds more than 3 values"
        );
        // A leaf root is one value.
        let one = InputBudget {
            values: 1,
            ..InputBudget::default()
        };
        assert_eq!(check_input_budget(&json!("x"), one).unwrap().values, 1);
        let none = InputBudget {
            values: 0,
            ..InputBudget::default()
        };
        assert_eq!(refusal(&json!("x"), none), "input holds more than 0 values");
    }

    #[test]
    fn characters_are_utf16_units_and_javascript_number_text() {
        let measure_chars = |value: Value| {
            check_input_budget(&value, InputBudget::default())
                .unwrap()
                .characters
        };
        assert_eq!(measure_chars(json!(true)), 4);
        assert_eq!(measure_chars(json!(false)), 5);
        assert_eq!(measure_chars(json!(null)), 4);
        assert_eq!(measure_chars(json!(1e21)), 5);
        assert_eq!(measure_chars(json!(-0.0)), 1);
        assert_eq!(measure_chars(json!(1.0)), 1);
        assert_eq!(measure_chars(json!(0.1 + 0.2)), 19);
        assert_eq!(measure_chars(json!("😀")), 2);
        assert_eq!(measure_chars(json!("é")), 1);
        // Keys count, array indices do not.
        assert_eq!(measure_chars(json!({"ab": "cd"})), 4);
        assert_eq!(measure_chars(json!(["ab", "cd"])), 4);
        assert_eq!(measure_chars(json!({"😀": {}})), 2);
    }

    #[test]
    fn characters_limit_is_exact() {
        let budget = InputBudget {
            characters: 10,
            ..InputBudget::default()
        };
        assert!(check_input_budget(&json!(["12345", "67890"]), budget).is_ok());
        assert_eq!(
            refusal(&json!(["12345", "678901"]), budget),
            "input holds more than 10 characters"
        );
        let big = Value::String("x".repeat(1_000_000));
        assert!(check_input_budget(&big, InputBudget::default()).is_ok());
        let bigger = Value::String("x".repeat(1_000_001));
        assert_eq!(
            refusal(&bigger, InputBudget::default()),
            "input holds more than 1000000 characters"
        );
    }

    #[test]
    fn the_first_limit_crossed_in_lifo_order_is_reported() {
        // Children are counted when their parent expands, so the leaf's
        // characters are refused before the nested array is ever popped.
        let budget = InputBudget {
            depth: 2,
            characters: 3,
            ..InputBudget::default()
        };
        assert_eq!(
            refusal(&json!(["abcd", [[1]]]), budget),
            "input holds more than 3 characters"
        );
        // A deep first child and a wide last child: the last child expands
        // first, so its value count is refused before the first is popped.
        let budget = InputBudget {
            depth: 2,
            values: 6,
            ..InputBudget::default()
        };
        assert_eq!(
            refusal(&json!([[[]], [1, 2, 3, 4]]), budget),
            "input holds more than 6 values"
        );
        // Swapped: the deep array is last, so it is popped first.
        assert_eq!(
            refusal(&json!([[1, 2, 3, 4], [[]]]), budget),
            "input nests deeper than 2 levels"
        );
        // Within a container, the values pre-check runs before any child of
        // that container is counted.
        let budget = InputBudget {
            values: 2,
            characters: 1,
            ..InputBudget::default()
        };
        assert_eq!(
            refusal(&json!(["long", "longer"]), budget),
            "input holds more than 2 values"
        );
        // Object keys follow JavaScript order: "1" is enqueued before "a",
        // so "a" (pushed last) is expanded first.
        let object: Value = serde_json::from_str(r#"{"a":[[[]]],"1":[0,0,0,0,0,0,0]}"#).unwrap();
        let budget = InputBudget {
            depth: 3,
            values: 10,
            ..InputBudget::default()
        };
        assert_eq!(refusal(&object, budget), "input nests deeper than 3 levels");
    }

    #[test]
    fn a_million_deep_array_is_refused_and_dropped_safely() {
        let text = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
        let value = crate::json::parse_json(&text).unwrap();
        assert_eq!(
            refusal(&value, InputBudget::default()),
            "input nests deeper than 64 levels"
        );
        drop(value);
    }

    #[test]
    fn refusal_messages_and_codes() {
        assert_eq!(BudgetRefusal::Cycle.message(), "input contains itself");
        assert_eq!(
            BudgetRefusal::Characters(1_000_000).to_error(),
            ValidationError::new("", "input holds more than 1000000 characters")
                .with_code(ErrorCode::InputOverBudget)
        );
        assert_eq!(
            crate::format_validation_error(&BudgetRefusal::Depth(64).to_error()),
            "input nests deeper than 64 levels"
        );
    }

    /// The budget's three measures, computed the obvious recursive way.
    fn naive(value: &Value, depth: usize) -> InputUsage {
        let mut usage = InputUsage {
            depth: 0,
            values: 1,
            characters: 0,
        };
        let mut add = |child: InputUsage, key: usize| {
            usage.depth = usage.depth.max(child.depth);
            usage.values += child.values;
            usage.characters += child.characters + key;
        };
        match value {
            Value::Array(items) => {
                for item in items {
                    add(naive(item, depth + 1), 0);
                }
                usage.depth = usage.depth.max(depth);
            }
            Value::Object(map) => {
                for (key, item) in map {
                    add(naive(item, depth + 1), key.encode_utf16().count());
                }
                usage.depth = usage.depth.max(depth);
            }
            Value::String(s) => usage.characters = s.encode_utf16().count(),
            Value::Number(n) => {
                usage.characters = crate::js::format_js_number(n.as_f64().unwrap()).len()
            }
            Value::Bool(b) => usage.characters = if *b { 4 } else { 5 },
            Value::Null => usage.characters = 4,
        }
        usage
    }

    fn arb_value() -> impl Strategy<Value = Value> {
        arb_value_keyed("[a-z0-9😀]{0,3}")
    }

    /// Values whose object keys match `keys` (a proptest regex). Keys
    /// without digits are never array indices, and entries built into a map
    /// never repeat a key: the text of such a value reads as upstream walks
    /// the value.
    fn arb_value_keyed(keys: &'static str) -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(|n| json!(n)),
            prop_oneof![
                Just(-0.0),
                Just(1e21),
                Just(0.1),
                Just(1.5e-7),
                Just(123.25)
            ]
            .prop_map(|n: f64| json!(n)),
            "[a-c😀é]{0,4}".prop_map(Value::String),
        ];
        leaf.prop_recursive(6, 48, 5, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec((keys, inner), 0..5)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn agrees_with_a_naive_recursive_count(
            value in arb_value(),
            depth in 0usize..8,
            values in 0usize..40,
            characters in 0usize..60,
        ) {
            let budget = InputBudget { depth, values, characters };
            let expected = naive(&value, 1);
            let within = expected.depth <= depth
                && expected.values <= values
                && expected.characters <= characters;
            match check_input_budget(&value, budget) {
                Ok(usage) => {
                    prop_assert!(within);
                    prop_assert_eq!(usage, expected);
                }
                Err(error) => {
                    prop_assert!(!within);
                    prop_assert_eq!(error.path.as_str(), "");
                    prop_assert_eq!(error.code, Some(ErrorCode::InputOverBudget));
                    // Whatever is reported really is over its limit.
                    let depth_message = BudgetRefusal::Depth(depth).message();
                    let values_message = BudgetRefusal::Values(values).message();
                    let characters_message = BudgetRefusal::Characters(characters).message();
                    if error.message == depth_message {
                        prop_assert!(expected.depth > depth);
                    } else if error.message == values_message {
                        prop_assert!(expected.values > values);
                    } else {
                        prop_assert_eq!(&error.message, &characters_message);
                        prop_assert!(expected.characters > characters);
                    }
                }
            }
        }
    }

    /// Upstream's walk transcribed step by step: a LIFO
    /// stack of containers, children counted when their parent is expanded.
    fn upstream_walk(value: &Value, budget: InputBudget) -> Result<InputUsage, BudgetRefusal> {
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
            usage.characters += key_len + own;
            if usage.characters > budget.characters {
                return Err(BudgetRefusal::Characters(budget.characters));
            }
            Ok(())
        }
        let mut usage = InputUsage::default();
        let mut stack = Vec::new();
        enqueue(value, 1, 0, budget, &mut usage, &mut stack)?;
        while let Some((container, depth)) = stack.pop() {
            if depth > budget.depth {
                return Err(BudgetRefusal::Depth(budget.depth));
            }
            usage.depth = usage.depth.max(depth);
            let children: Vec<(usize, &Value)> = match container {
                Value::Array(items) => items.iter().map(|item| (0, item)).collect(),
                Value::Object(map) => js_property_order(map)
                    .into_iter()
                    .map(|(key, item)| (utf16_units(key), item))
                    .collect(),
                _ => Vec::new(),
            };
            if usage.values + children.len() > budget.values {
                return Err(BudgetRefusal::Values(budget.values));
            }
            for (key_len, item) in children {
                enqueue(item, depth + 1, key_len, budget, &mut usage, &mut stack)?;
            }
        }
        Ok(usage)
    }

    proptest! {
        #[test]
        fn the_meter_reports_what_upstreams_walk_reports(
            value in arb_value(),
            depth in 0usize..8,
            values in 0usize..40,
            characters in 0usize..60,
        ) {
            let budget = InputBudget { depth, values, characters };
            prop_assert_eq!(measure(&value, budget), upstream_walk(&value, budget));
        }
    }

    /// `parse_json_within` of `text` under `budget`, the refusal typed.
    fn read_within(text: &str, budget: InputBudget) -> Result<InputUsage, BudgetRefusal> {
        match crate::json::parse_json_within(text, budget) {
            Ok((_, usage)) => Ok(usage),
            Err(crate::json::JsonRefusal::OverBudget(refusal)) => Err(refusal),
            Err(crate::json::JsonRefusal::Syntax(error)) => panic!("{text}: {error}"),
        }
    }

    #[test]
    fn text_is_refused_while_it_is_read() {
        let deep_objects = format!(
            "{}null{}",
            "{\"a\":".repeat(1_000_000),
            "}".repeat(1_000_000)
        );
        assert_eq!(
            read_within(&deep_objects, InputBudget::default()),
            Err(BudgetRefusal::Depth(64))
        );
        let deep_arrays = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
        assert_eq!(
            read_within(&deep_arrays, InputBudget::default()),
            Err(BudgetRefusal::Depth(64))
        );
        let numbers: Vec<String> = (0..100_000).map(|n| n.to_string()).collect();
        assert_eq!(
            read_within(&format!("[{}]", numbers.join(",")), InputBudget::default()),
            Err(BudgetRefusal::Values(20_000))
        );
        let long = format!("[\"{}\"]", "x".repeat(1_000_001));
        assert_eq!(
            read_within(&long, InputBudget::default()),
            Err(BudgetRefusal::Characters(1_000_000))
        );
        // Within the budget: the value and what it measured.
        let text = r#"{"type":"view","body":[{"type":"kpi","label":"P99"}]}"#;
        let (value, usage) = crate::json::parse_json_within(text, InputBudget::default()).unwrap();
        assert_eq!(
            *value,
            json!({"type":"view","body":[{"type":"kpi","label":"P99"}]})
        );
        assert_eq!(
            usage,
            InputUsage {
                depth: 3,
                values: 6,
                characters: 27
            }
        );
    }

    #[test]
    fn a_syntax_error_after_the_budget_is_crossed_wins() {
        let text = format!("{}null{}x", "{\"a\":".repeat(100_000), "}".repeat(100_000));
        let error = crate::json::parse_json(&text).unwrap_err();
        assert_eq!(error.message, "trailing characters at line 1 column 600005");
        assert_eq!(
            crate::json::parse_json_within(&text, InputBudget::default()),
            Err(crate::json::JsonRefusal::Syntax(error))
        );
    }

    #[test]
    fn where_text_and_its_value_can_differ() {
        // Upstream visits the array-index key "1" before "a"; text is
        // ranked in its own order, "a" first, so a different crossed limit
        // comes first.
        let text = r#"{"a":[[[]]],"1":[0,0,0,0,0,0,0]}"#;
        let budget = InputBudget {
            depth: 3,
            values: 10,
            ..InputBudget::default()
        };
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(measure(&value, budget), Err(BudgetRefusal::Depth(3)));
        assert_eq!(read_within(text, budget), Err(BudgetRefusal::Values(10)));
        // Every value read counts, the one a repeated key replaces too.
        let text = r#"{"a":[1,2,3],"a":1}"#;
        let budget = InputBudget {
            values: 3,
            ..InputBudget::default()
        };
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(measure(&value, budget).map(|usage| usage.values), Ok(2));
        assert_eq!(read_within(text, budget), Err(BudgetRefusal::Values(3)));
    }

    proptest! {
        /// Text read within a budget is refused as its value is, and
        /// measures what its value measures.
        #[test]
        fn text_read_within_a_budget_meets_what_its_value_meets(
            value in arb_value_keyed("[a-z😀]{0,3}"),
            depth in 0usize..8,
            values in 0usize..40,
            characters in 0usize..60,
        ) {
            let budget = InputBudget { depth, values, characters };
            let expected = measure(&value, budget);
            for text in [crate::js::json_stringify(&value), crate::js::json_stringify_pretty(&value)] {
                prop_assert_eq!(read_within(&text, budget), expected, "{}", text);
            }
        }
    }

    #[test]
    fn integers_count_their_digits_as_javascript_prints_them() {
        let chars = |value: Value| {
            check_input_budget(&value, InputBudget::default())
                .unwrap()
                .characters
        };
        assert_eq!(chars(json!(0)), 1);
        assert_eq!(chars(json!(9)), 1);
        assert_eq!(chars(json!(10)), 2);
        assert_eq!(chars(json!(-123)), 4);
        assert_eq!(chars(json!(9_007_199_254_740_991_i64)), 16);
        assert_eq!(chars(json!(-9_007_199_254_740_991_i64)), 17);
        // Past 2^53 the double rounds: 10^17 - 1 prints as
        // "100000000000000000".
        assert_eq!(chars(json!(99_999_999_999_999_999_u64)), 18);
        assert_eq!(chars(json!(u64::MAX)), 20);
    }

    proptest! {
        #[test]
        fn usage_is_the_naive_count_under_default_limits(value in arb_value()) {
            let usage = check_input_budget(&value, InputBudget::default()).unwrap();
            prop_assert_eq!(usage, naive(&value, 1));
        }
    }
}
