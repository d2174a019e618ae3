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
//! child of a container is expanded first. Object entries are visited in
//! JavaScript property order (array-index keys such as `"0"` first, then the
//! rest in document order; see [`js_property_order`]), as upstream's
//! `Object.keys` walk does.
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
///
/// Two walks, the second only for refused input. The totals (values,
/// characters, deepest nesting) do not depend on the order values are
/// met in, so a first walk in storage order, with no per-object key
/// ordering, measures every accepted input and returns the same
/// [`InputUsage`]. Only when it finds a limit crossed does the walk in
/// upstream's order run, to report the limit upstream meets first.
pub fn measure(value: &Value, budget: InputBudget) -> Result<InputUsage, BudgetRefusal> {
    match measure_within(value, budget) {
        Some(usage) => Ok(usage),
        None => measure_in_upstream_order(value, budget),
    }
}

/// The totals of `value` when every limit holds; `None` as soon as one is
/// crossed (which one is left to [`measure_in_upstream_order`]). Visits
/// values in storage order and allocates nothing but its stack.
fn measure_within(value: &Value, budget: InputBudget) -> Option<InputUsage> {
    let mut usage = InputUsage {
        depth: 0,
        values: 1,
        characters: leaf_length(value),
    };
    if usage.values > budget.values || usage.characters > budget.characters {
        return None;
    }
    let mut stack: Vec<(&Value, usize)> = Vec::new();
    if matches!(value, Value::Array(_) | Value::Object(_)) {
        stack.push((value, 1));
    }
    while let Some((container, depth)) = stack.pop() {
        if depth > budget.depth {
            return None;
        }
        usage.depth = usage.depth.max(depth);
        let mut count = |item: &'_ Value, key_len: usize| {
            usage.values += 1;
            usage.characters = usage
                .characters
                .saturating_add(key_len)
                .saturating_add(leaf_length(item));
            usage.values <= budget.values && usage.characters <= budget.characters
        };
        match container {
            Value::Array(items) => {
                for item in items {
                    if !count(item, 0) {
                        return None;
                    }
                    if matches!(item, Value::Array(_) | Value::Object(_)) {
                        stack.push((item, depth + 1));
                    }
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    if !count(item, utf16_units(key)) {
                        return None;
                    }
                    if matches!(item, Value::Array(_) | Value::Object(_)) {
                        stack.push((item, depth + 1));
                    }
                }
            }
            _ => {}
        }
    }
    Some(usage)
}

/// The walk in upstream's order (§4.5), which reports the limit upstream
/// meets first.
fn measure_in_upstream_order(
    value: &Value,
    budget: InputBudget,
) -> Result<InputUsage, BudgetRefusal> {
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
                        utf16_units(key),
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
fn utf16_units(s: &str) -> usize {
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
        leaf.prop_recursive(6, 48, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec(("[a-z0-9😀]{0,3}", inner), 0..5)
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

    proptest! {
        #[test]
        fn the_storage_order_walk_agrees_with_the_upstream_order_walk(
            value in arb_value(),
            depth in 0usize..8,
            values in 0usize..40,
            characters in 0usize..60,
        ) {
            let budget = InputBudget { depth, values, characters };
            let ordered = measure_in_upstream_order(&value, budget);
            match measure_within(&value, budget) {
                Some(usage) => prop_assert_eq!(Ok(usage), ordered),
                None => prop_assert!(ordered.is_err()),
            }
            prop_assert_eq!(measure(&value, budget), ordered);
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
