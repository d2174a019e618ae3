//! Deep model-controlled input through `Tool::call`, the erased handler of
//! `Tool::from_fn`, and `Runtime::request_view`.
//!
//! Every call runs on libtest's default thread stack (2 MiB) through a
//! current-thread executor: a 1,000,000-deep value that is refused (or
//! passed on) and dropped here proves that no step of the call recurses once
//! per level of the input. The deep values are built in a loop, not with
//! `json!`, and are dropped with `drop_deep`.

mod common;

use futures::executor::block_on;
use isomer_sdk::{
    ErrorCode, IsomerError, Runtime, Tool, ToolResult, ValidationError, View, drop_deep,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

const DEPTHS: [usize; 2] = [100_000, 1_000_000];

/// `[[[…0…]]]`: `depth` arrays.
fn deep_array(depth: usize) -> Value {
    let mut value = json!(0);
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// `{"a":{"a":…0…}}`: `depth` objects.
fn deep_object(depth: usize) -> Value {
    let mut value = json!(0);
    for _ in 0..depth {
        let mut map = Map::new();
        map.insert("a".to_owned(), value);
        value = Value::Object(map);
    }
    value
}

/// Both shapes at both depths.
fn deep_values() -> impl Iterator<Item = (String, Value)> {
    DEPTHS.into_iter().flat_map(|depth| {
        [
            (format!("array {depth}"), deep_array(depth)),
            (format!("object {depth}"), deep_object(depth)),
        ]
    })
}

/// `{key: value}`.
fn field(key: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(key.to_owned(), value);
    Value::Object(map)
}

/// A tool input with any `data` and a small `limit`.
#[derive(Deserialize, JsonSchema)]
struct Args {
    data: Value,
    limit: u8,
}

/// Answers `data` nesting depth: it owns the deep value and drops it flat.
fn keeper() -> Tool {
    Tool::from_fn("keep", "Keeps data.", |args: Args| async move {
        let text = format!("limit {}", args.limit);
        drop_deep(args.data);
        text
    })
    .unwrap()
}

/// A tool whose `names` are strings: a deep array there is refused by the
/// schema one level below the field.
#[derive(Deserialize, JsonSchema)]
struct Names {
    #[allow(dead_code)]
    names: Vec<String>,
}

fn namer() -> Tool {
    Tool::from_fn("names", "Takes names.", |_: Names| async { "named" }).unwrap()
}

const REFUSED: &str = "the input does not match the input schema of tool";

#[test]
fn a_deep_top_level_input_the_schema_refuses_is_a_failed_result() {
    let tool = keeper();
    for (label, value) in deep_values() {
        let expected = if value.is_array() {
            format!("{REFUSED} \"keep\":\n- at the root: value is not of type \"object\"")
        } else {
            format!(
                "{REFUSED} \"keep\":\n- at the root: \"data\" is a required property\n\
                 - at the root: \"limit\" is a required property\n\
                 - at the root: Additional properties are not allowed ('a' was unexpected)"
            )
        };
        assert_eq!(
            block_on(tool.call(value)),
            ToolResult::error(expected),
            "{label}"
        );
    }
}

#[test]
fn a_deep_field_next_to_a_refused_one_is_a_failed_result() {
    let tool = keeper();
    for (label, value) in deep_values() {
        let mut input = field("data", value);
        input["limit"] = json!(300);
        assert_eq!(
            block_on(tool.call(input)),
            ToolResult::error(format!(
                "{REFUSED} \"keep\":\n- at limit: 300 is greater than the maximum of 255"
            )),
            "{label}"
        );
    }
}

#[test]
fn a_deep_value_refused_inside_a_field_prints_as_value() {
    let tool = namer();
    for (label, value) in deep_values() {
        let expected = if value.is_array() {
            "- at names[0]: value is not of type \"string\""
        } else {
            "- at names: value is not of type \"array\""
        };
        assert_eq!(
            block_on(tool.call(field("names", value))),
            ToolResult::error(format!("{REFUSED} \"names\":\n{expected}")),
            "{label}"
        );
    }
}

#[test]
fn a_shallow_refused_value_is_still_printed() {
    // 100 levels is the deepest a problem prints; the full text of a deeper
    // value would be longer than 200 bytes and masked anyway.
    let tool = namer();
    assert_eq!(
        block_on(tool.call(json!({"names": [[[1]]]}))),
        ToolResult::error(format!(
            "{REFUSED} \"names\":\n- at names[0]: [[1]] is not of type \"string\""
        ))
    );
}

#[test]
fn a_deep_field_the_schema_passes_reaches_the_handler() {
    let tool = keeper();
    for (label, value) in deep_values() {
        let mut input = field("data", value);
        input["limit"] = json!(3);
        assert_eq!(
            block_on(tool.call(input)),
            ToolResult::text("limit 3"),
            "{label}"
        );
    }
}

#[test]
fn a_deep_field_before_a_field_serde_refuses_is_a_failed_result() {
    // The erased handler alone (no schema check): serde builds `data`, then
    // refuses `limit` and drops the partial `data`.
    let tool = keeper();
    for (label, value) in deep_values() {
        let mut input = field("data", value);
        input["limit"] = json!(300);
        assert_eq!(
            block_on((tool.handler)(input)),
            ToolResult::error(format!(
                "{REFUSED} \"keep\": invalid value: integer `300`, expected u8"
            )),
            "{label}"
        );
    }
}

/// A view with an input schema (`title: string`) and one without.
fn views_runtime() -> Runtime {
    #[derive(Deserialize, JsonSchema)]
    struct Input {
        title: String,
    }
    let runtime = common::runtime();
    runtime
        .views()
        .register(View::builder("typed", "Typed").build_with_input(
            |_: (), input: Input| async move {
                json!({"type": "view", "title": input.title, "body": []})
            },
        ))
        .unwrap();
    runtime
        .views()
        .register(
            View::builder("raw", "Raw").build(|_: (), input: Value| async move {
                drop_deep(input);
                json!({"type": "view", "body": []})
            }),
        )
        .unwrap();
    runtime
}

#[test]
fn deep_view_input_is_refused_by_the_budget() {
    let runtime = views_runtime();
    for id in ["typed", "raw"] {
        for (label, value) in deep_values() {
            let error = block_on(runtime.request_view(id, (), field("title", value))).unwrap_err();
            match error {
                IsomerError::ViewInputInvalid { view_id, errors } => {
                    assert_eq!(view_id, id, "{label}");
                    assert_eq!(
                        errors,
                        vec![
                            ValidationError::new("", "input nests deeper than 64 levels")
                                .with_code(ErrorCode::InputOverBudget)
                        ],
                        "{id} {label}"
                    );
                }
                other => panic!("{id} {label}: {other:?}"),
            }
        }
    }
}

#[test]
fn deep_input_to_an_unknown_view_is_dropped_flat() {
    let runtime = views_runtime();
    for (label, value) in deep_values() {
        let error = block_on(runtime.request_view("missing", (), value)).unwrap_err();
        assert_eq!(error.to_string(), "Unknown view \"missing\"", "{label}");
    }
}

/// A hand-built tool whose `xs` must hold unique items: jsonschema compares
/// items with a recursion per level.
fn unique() -> Tool {
    use futures::FutureExt as _;
    Tool::new(
        "unique",
        "Takes unique items.",
        json!({"type": "object", "properties": {"xs": {"type": "array", "uniqueItems": true}}}),
        |input| {
            drop_deep(input);
            futures::future::ready(ToolResult::text("unique")).boxed()
        },
    )
}

#[test]
fn deep_equal_items_are_refused_by_unique_items() {
    let tool = unique();
    for depth in DEPTHS {
        let same = field(
            "xs",
            Value::Array(vec![deep_array(depth), deep_array(depth)]),
        );
        assert_eq!(
            block_on(tool.call(same)),
            ToolResult::error(format!(
                "{REFUSED} \"unique\":\n- at xs: value has non-unique elements"
            )),
            "{depth}"
        );
        let distinct = field(
            "xs",
            Value::Array(vec![deep_array(depth), deep_object(depth)]),
        );
        assert_eq!(
            block_on(tool.call(distinct)),
            ToolResult::text("unique"),
            "{depth}"
        );
    }
}
