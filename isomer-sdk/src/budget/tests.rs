//! The budget's limits, units and order of refusals, on built values and
//! on JSON text read within a budget.

use super::check::measure;
use super::*;
use proptest::prelude::*;
use serde_json::json;

use crate::js::js_property_order;

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

/// The characters `value` counts within the default budget.
fn characters(value: Value) -> usize {
    check_input_budget(&value, InputBudget::default())
        .unwrap()
        .characters
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
    assert_eq!(characters(json!(true)), 4);
    assert_eq!(characters(json!(false)), 5);
    assert_eq!(characters(json!(null)), 4);
    assert_eq!(characters(json!(1e21)), 5);
    assert_eq!(characters(json!(-0.0)), 1);
    assert_eq!(characters(json!(1.0)), 1);
    assert_eq!(characters(json!(0.1 + 0.2)), 19);
    assert_eq!(characters(json!("😀")), 2);
    assert_eq!(characters(json!("é")), 1);
    // Keys count, array indices do not.
    assert_eq!(characters(json!({"ab": "cd"})), 4);
    assert_eq!(characters(json!(["ab", "cd"])), 4);
    assert_eq!(characters(json!({"😀": {}})), 2);
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
    // Each row: the budget's depth, values and characters, the input, the
    // refusal.
    let rows = [
        // Children are counted when their parent expands, so the leaf's
        // characters are refused before the nested array is ever popped.
        (
            (2, 20_000, 3),
            json!(["abcd", [[1]]]),
            "input holds more than 3 characters",
        ),
        // A deep first child and a wide last child: the last child expands
        // first, so its value count is refused before the first is popped.
        (
            (2, 6, 1_000_000),
            json!([[[]], [1, 2, 3, 4]]),
            "input holds more than 6 values",
        ),
        // Swapped: the deep array is last, so it is popped first.
        (
            (2, 6, 1_000_000),
            json!([[1, 2, 3, 4], [[]]]),
            "input nests deeper than 2 levels",
        ),
        // Within a container, the values pre-check runs before any child of
        // that container is counted.
        (
            (64, 2, 1),
            json!(["long", "longer"]),
            "input holds more than 2 values",
        ),
        // Object keys follow JavaScript order: "1" is enqueued before "a",
        // so "a" (pushed last) is expanded first.
        (
            (3, 10, 1_000_000),
            serde_json::from_str(r#"{"a":[[[]]],"1":[0,0,0,0,0,0,0]}"#).unwrap(),
            "input nests deeper than 3 levels",
        ),
    ];
    for ((depth, values, characters), input, expected) in rows {
        let budget = InputBudget {
            depth,
            values,
            characters,
        };
        assert_eq!(
            refusal(&input, budget),
            expected,
            "{input} within {budget:?}"
        );
    }
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

/// Budgets small enough for [`arb_value`]'s values to cross each limit.
fn small_budget() -> impl Strategy<Value = InputBudget> {
    (0usize..8, 0usize..40, 0usize..60).prop_map(|(depth, values, characters)| InputBudget {
        depth,
        values,
        characters,
    })
}

proptest! {
    #[test]
    fn agrees_with_a_naive_recursive_count(
        value in arb_value(),
        budget in small_budget(),
    ) {
        let InputBudget { depth, values, characters } = budget;
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
                .map(|(key, item)| (utf16_len(key), item))
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
        budget in small_budget(),
    ) {
        prop_assert_eq!(measure(&value, budget), upstream_walk(&value, budget));
    }
}

/// `Document::parse_within` of `text` under `budget`: what reading
/// counted, or the refusal typed.
fn read_within(text: &str, budget: InputBudget) -> Result<InputUsage, BudgetRefusal> {
    match crate::json::Document::parse_within(text, budget) {
        Ok(document) => Ok(document
            .read_usage()
            .expect("a document read from text has a count")),
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
    let document = crate::json::Document::parse_within(text, InputBudget::default()).unwrap();
    let usage = document.read_usage().unwrap();
    assert_eq!(
        *document,
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
        crate::json::Document::parse_within(&text, InputBudget::default()).unwrap_err(),
        crate::json::JsonRefusal::Syntax(error)
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
        budget in small_budget(),
    ) {
        let expected = measure(&value, budget);
        for text in [crate::js::json_stringify(&value), crate::js::json_stringify_pretty(&value)] {
            prop_assert_eq!(read_within(&text, budget), expected, "{}", text);
        }
    }
}

#[test]
fn integers_count_their_digits_as_javascript_prints_them() {
    assert_eq!(characters(json!(0)), 1);
    assert_eq!(characters(json!(9)), 1);
    assert_eq!(characters(json!(10)), 2);
    assert_eq!(characters(json!(-123)), 4);
    assert_eq!(characters(json!(9_007_199_254_740_991_i64)), 16);
    assert_eq!(characters(json!(-9_007_199_254_740_991_i64)), 17);
    // Past 2^53 the double rounds: 10^17 - 1 prints as
    // "100000000000000000".
    assert_eq!(characters(json!(99_999_999_999_999_999_u64)), 18);
    assert_eq!(characters(json!(u64::MAX)), 20);
}

proptest! {
    #[test]
    fn usage_is_the_naive_count_under_default_limits(value in arb_value()) {
        let usage = check_input_budget(&value, InputBudget::default()).unwrap();
        prop_assert_eq!(usage, naive(&value, 1));
    }
}
