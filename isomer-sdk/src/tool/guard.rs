//! The handler guard (as upstream's tools guard their handlers): checks input, deserializes it,
//! and turns panics into failed results. The texts it writes are listed in
//! the `tool` module docs ("Failed calls").

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures::FutureExt as _;
use jsonschema::paths::LocationSegment;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::ToolResult;

/// How many schema problems a refusal lists before summarising the rest.
const MAX_LISTED_PROBLEMS: usize = 10;

/// Longest jsonschema message kept as is; longer ones print the offending
/// value as `value` (jsonschema's masked form) so a huge input is not echoed.
const MAX_PROBLEM_LEN: usize = 200;

/// Deepest offending value a problem may print. jsonschema's `Display`
/// recurses once per level of the value, so a value nesting deeper is
/// printed as `value` without formatting it; such a value takes at least two
/// bytes per level (`[[...]]`), so its full text would exceed
/// [`MAX_PROBLEM_LEN`] and be masked anyway.
const MAX_PRINTED_DEPTH: usize = MAX_PROBLEM_LEN / 2;

/// Tool arguments may be omitted (MCP's `arguments` is optional): `null`
/// reads as the empty object.
pub(crate) fn normalize_input(input: Value) -> Value {
    match input {
        Value::Null => Value::Object(Map::new()),
        other => other,
    }
}

/// Reads the argument shapes the provider dialects produce as the tool's
/// own (`provider` module docs): following `schema` through `properties`,
/// `items` and the variants of `anyOf` (the places the dialects rewrite), a
/// `null` given for a property that is not required and whose schema does
/// not take `null` is removed, and a string given where a loose object (an
/// object schema listing no keys) is expected, holding the JSON text of an
/// object, is replaced by that object, in a property, an array item or an
/// `anyOf` variant alike. Anything else is left for the schema check. Walks
/// with a heap stack, only as deep as the schema goes.
pub(crate) fn read_provider_shapes(schema: &Value, input: &mut Value) {
    // The root is the arguments object itself, never JSON text.
    let mut pending = vec![(schema, input, true)];
    while let Some((schema, value, is_root)) = pending.pop() {
        let Some(schema) = schema
            .as_object()
            .and_then(|schema| shape_for(schema, value))
        else {
            continue;
        };
        match value {
            Value::String(text) if !is_root => {
                if let Ok(parsed) = crate::json::parse_json(text) {
                    let parsed = parsed.into_inner();
                    if parsed.is_object() {
                        *value = parsed;
                    } else {
                        crate::json::drop_deep(parsed);
                    }
                }
            }
            Value::Object(object) => {
                let Some(Value::Object(properties)) = schema.get("properties") else {
                    continue;
                };
                let required = |name: &str| {
                    schema
                        .get("required")
                        .and_then(Value::as_array)
                        .is_some_and(|keys| keys.iter().any(|key| key == name))
                };
                object.retain(|name, value| {
                    !(value.is_null()
                        && !required(name)
                        && properties
                            .get(name)
                            .is_some_and(|property| !takes_null(property)))
                });
                for (name, value) in object.iter_mut() {
                    if let Some(property) = properties.get(name) {
                        pending.push((property, value, false));
                    }
                }
            }
            Value::Array(items) => {
                if let Some(item_schema) = schema.get("items") {
                    pending.extend(items.iter_mut().map(|item| (item_schema, item, false)));
                }
            }
            _ => {}
        }
    }
}

/// The schema that says how a provider shaped `value`: `schema` itself or
/// the first of its `anyOf` variants that lists `properties` for an object,
/// has `items` for an array, or is a loose object for a string. `None`
/// when none does.
fn shape_for<'a>(schema: &'a Map<String, Value>, value: &Value) -> Option<&'a Map<String, Value>> {
    let fits = |candidate: &Map<String, Value>| match value {
        Value::Object(_) => candidate.get("properties").is_some_and(Value::is_object),
        Value::Array(_) => candidate.contains_key("items"),
        Value::String(_) => super::provider::is_loose_object(candidate),
        _ => false,
    };
    let variants = schema
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object);
    std::iter::once(schema)
        .chain(variants)
        .find(|candidate| fits(candidate))
}

/// Whether a property schema takes `null` itself (`type: "null"` or a
/// `type` list holding it, or `null` in its `enum`).
fn takes_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(ty)) if ty == "null" => return true,
        Some(Value::Array(types)) if types.iter().any(|ty| ty == "null") => return true,
        _ => {}
    }
    schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|options| options.contains(&Value::Null))
}

/// Checks `input` against the tool's `schema` (draft 2020-12). `Err` holds
/// the text of the failed result (module docs).
///
/// Input nesting deeper than [`SHALLOW_INPUT_DEPTH`] is checked on a scoped
/// thread with room for it ([`on_deep_stack`]): jsonschema compares items
/// for `uniqueItems` (and `enum`/`const`) with a recursion per level.
pub(crate) fn check_input(tool: &str, schema: &Value, input: &Value) -> Result<(), String> {
    on_deep_stack(tool, nesting_depth(input, usize::MAX - 1), || {
        check_input_here(tool, schema, input)
    })
}

fn check_input_here(tool: &str, schema: &Value, input: &Value) -> Result<(), String> {
    let validator = jsonschema::draft202012::new(schema).map_err(|error| {
        format!(
            "the input schema of tool {} is not a valid JSON Schema: {error}",
            quoted(tool)
        )
    })?;
    let mut problems = validator.iter_errors(input).peekable();
    if problems.peek().is_none() {
        return Ok(());
    }
    let mut text = format!(
        "the input does not match the input schema of tool {}:",
        quoted(tool)
    );
    let mut count = 0usize;
    for problem in problems {
        count += 1;
        if count > MAX_LISTED_PROBLEMS {
            continue;
        }
        let message = if let Some(message) = enum_problem(&problem) {
            message
        } else if nests_deeper_than(problem.instance(), MAX_PRINTED_DEPTH) {
            problem.masked().to_string()
        } else {
            let message = problem.to_string();
            if message.len() > MAX_PROBLEM_LEN {
                problem.masked().to_string()
            } else {
                message
            }
        };
        text.push_str("\n- at ");
        text.push_str(&instance_path(problem.instance_path().segments()));
        text.push_str(": ");
        text.push_str(&message);
    }
    if count > MAX_LISTED_PROBLEMS {
        text.push_str(&format!("\n- and {} more", count - MAX_LISTED_PROBLEMS));
    }
    Err(text)
}

/// The message of an `enum` problem, naming every allowed value (jsonschema
/// names two and counts the rest, which leaves a model guessing):
/// `"png" is not one of "text", "markdown", "html", "slack"`. The offending
/// value prints as `value` when its text would exceed [`MAX_PROBLEM_LEN`].
fn enum_problem(problem: &jsonschema::ValidationError<'_>) -> Option<String> {
    let jsonschema::error::ValidationErrorKind::Enum { options } = problem.kind() else {
        return None;
    };
    let instance = problem.instance();
    let value = if nests_deeper_than(instance, MAX_PRINTED_DEPTH) {
        None
    } else {
        serde_json::to_string(instance.as_ref())
            .ok()
            .filter(|text| text.len() <= MAX_PROBLEM_LEN)
    };
    let allowed = match options.as_ref() {
        Value::Array(options) => options
            .iter()
            .map(|option| serde_json::to_string(option).unwrap_or_default())
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    };
    Some(format!(
        "{} is not one of {allowed}",
        value.as_deref().unwrap_or("value")
    ))
}

/// Whether `value` nests more than `limit` arrays/objects inside each other
/// (`[[0]]` nests 2). Walks with a heap stack, so any depth is safe.
fn nests_deeper_than(value: &Value, limit: usize) -> bool {
    nesting_depth(value, limit) > limit
}

/// How many arrays/objects `value` nests inside each other (`[[0]]` is 2, a
/// scalar 0), counting no further than `limit + 1`. Walks with a heap stack.
fn nesting_depth(value: &Value, limit: usize) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 1usize)];
    while let Some((value, depth)) = pending.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        deepest = deepest.max(depth);
        if depth > limit {
            break;
        }
        pending.extend(children.map(|child| (child, depth + 1)));
    }
    deepest
}

/// Input nesting at most this deep is checked and deserialized on the
/// calling thread.
const SHALLOW_INPUT_DEPTH: usize = 1_000;

/// Stack reserved per level of deeper input. Measured in a debug build:
/// serde's recursive drop of a partly built `Value` needs 160-320 bytes per
/// level (100,000 levels: 16 MiB overflow, 32 MiB pass), jsonschema's
/// `uniqueItems` comparison 200-320 (1,000,000 levels: 200 overflow, 320
/// pass).
const STACK_PER_LEVEL: usize = 512;

/// Deserializes the (already normalized) input into `T` on a grown stack.
/// `Err` holds the text of the failed result.
///
/// The input is taken by value and its strings, arrays and maps are moved
/// into `T`, not copied (a tool's composition reaches its handler as the
/// value the call carried).
///
/// serde builds nested values on a grown stack (`serde_stacker`), but when
/// it refuses a field after it has built an earlier one (`{"data": <deep>,
/// "limit": 300}` into `limit: u8`), it drops the earlier value with a
/// recursion per level. So input nesting deeper than
/// [`SHALLOW_INPUT_DEPTH`] is deserialized on a scoped thread whose stack
/// has room for that drop, and for the drop of what `T` leaves unread
/// ([`STACK_PER_LEVEL`] per level, reserved, touched only as used).
pub(crate) fn deserialize_input<T: DeserializeOwned + Send>(
    tool: &str,
    input: Value,
) -> Result<T, String> {
    let depth = nesting_depth(&input, usize::MAX - 1);
    on_deep_stack(tool, depth, move || deserialize_here::<T>(tool, input))
}

/// Runs `read` (a step that reads an input of tool `tool` nesting `depth`
/// levels) on the calling thread when that is at most [`SHALLOW_INPUT_DEPTH`], else on
/// a scoped thread with [`STACK_PER_LEVEL`] bytes of stack per level
/// (reserved, touched only as used). A panic in `read` resumes on the
/// calling thread. `Err` when no such thread can be started (the text of the
/// failed result, module docs).
fn on_deep_stack<R: Send>(
    tool: &str,
    depth: usize,
    read: impl FnOnce() -> Result<R, String> + Send,
) -> Result<R, String> {
    if depth <= SHALLOW_INPUT_DEPTH {
        return read();
    }
    let stack_size = depth
        .saturating_mul(STACK_PER_LEVEL)
        .saturating_add(1 << 20);
    std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name(format!("isomer tool {tool} input"))
            .stack_size(stack_size)
            .spawn_scoped(scope, read);
        match reader {
            Ok(reader) => reader
                .join()
                .unwrap_or_else(|payload| std::panic::resume_unwind(payload)),
            Err(error) => Err(format!(
                "the input of tool {} nests {depth} levels deep and could not be read: \
                 no thread with a {stack_size}-byte stack ({error})",
                quoted(tool)
            )),
        }
    })
}

fn deserialize_here<T: DeserializeOwned>(tool: &str, input: Value) -> Result<T, String> {
    T::deserialize(serde_stacker::Deserializer::new(input)).map_err(|error| {
        format!(
            "the input does not match the input schema of tool {}: {error}",
            quoted(tool)
        )
    })
}

/// Runs `future`, turning a panic into a failed result naming the tool.
pub(crate) async fn catch_panic<F>(tool: &str, future: F) -> ToolResult
where
    F: Future<Output = ToolResult>,
{
    match AssertUnwindSafe(future).catch_unwind().await {
        Ok(result) => result,
        Err(payload) => ToolResult::error(panic_text(tool, payload.as_ref())),
    }
}

/// The text of a failed result for a panic: the payload when it is a string
/// (`panic!("...")` and `.expect("...")` give one), else a fixed sentence.
pub(crate) fn panic_text(tool: &str, payload: &(dyn Any + Send)) -> String {
    let message = payload
        .downcast_ref::<&'static str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
    match message {
        Some(message) => format!("the tool {} panicked: {message}", quoted(tool)),
        None => format!(
            "the tool {} panicked with a value that has no message",
            quoted(tool)
        ),
    }
}

/// `body[1].items[0]`: keys joined with `.`, indexes in brackets; the empty
/// path is `the root`.
fn instance_path<'a>(segments: impl Iterator<Item = LocationSegment<'a>>) -> String {
    let mut path = String::new();
    for segment in segments {
        match segment {
            LocationSegment::Property(key) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&key);
            }
            LocationSegment::Index(index) => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
        }
    }
    if path.is_empty() {
        path.push_str("the root");
    }
    path
}

fn quoted(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_else(|_| name.to_owned())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "types": {
                    "type": "array",
                    "items": { "type": "string", "minLength": 1 },
                    "minItems": 1,
                    "maxItems": 12
                },
                "limit": { "type": "integer" }
            },
            "required": ["types"],
            "additionalProperties": false
        })
    }

    #[test]
    fn valid_input_passes() {
        assert_eq!(
            check_input("t", &schema(), &json!({"types": ["a"]})),
            Ok(())
        );
    }

    #[test]
    fn every_problem_is_listed_with_its_path() {
        let text =
            check_input("t", &schema(), &json!({"types": ["", "b", 3], "extra": 1})).unwrap_err();
        assert_eq!(
            text,
            "the input does not match the input schema of tool \"t\":\n\
             - at types[0]: \"\" is shorter than 1 character\n\
             - at types[2]: 3 is not of type \"string\"\n\
             - at the root: Additional properties are not allowed ('extra' was unexpected)"
        );
    }

    #[test]
    fn an_enum_problem_lists_every_allowed_value() {
        let schema = json!({
            "type": "object",
            "properties": { "format": { "enum": ["text", "markdown", "html", "slack", "png"] } }
        });
        let text = check_input("t", &schema, &json!({"format": "jpeg"})).unwrap_err();
        assert_eq!(
            text,
            "the input does not match the input schema of tool \"t\":\n\
             - at format: \"jpeg\" is not one of \"text\", \"markdown\", \"html\", \"slack\", \"png\""
        );
        let long = "x".repeat(300);
        let text = check_input("t", &schema, &json!({"format": long})).unwrap_err();
        assert!(
            text.ends_with("- at format: value is not one of \"text\", \"markdown\", \"html\", \"slack\", \"png\""),
            "{text}"
        );
    }

    #[test]
    fn a_missing_field_is_reported_at_the_root() {
        let text = check_input("t", &schema(), &json!({})).unwrap_err();
        assert_eq!(
            text,
            "the input does not match the input schema of tool \"t\":\n\
             - at the root: \"types\" is a required property"
        );
    }

    #[test]
    fn long_lists_are_cut_after_ten() {
        let schema = json!({ "type": "array", "items": { "type": "string" } });
        let text = check_input(
            "t",
            &schema,
            &json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
        )
        .unwrap_err();
        assert!(
            text.ends_with("- at [9]: 10 is not of type \"string\"\n- and 2 more"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 12);
    }

    #[test]
    fn a_huge_offending_value_is_not_echoed() {
        let big = "x".repeat(500);
        let text = check_input("t", &json!({"type": "integer"}), &json!(big)).unwrap_err();
        assert_eq!(
            text,
            "the input does not match the input schema of tool \"t\":\n\
             - at the root: value is not of type \"integer\""
        );
    }

    #[test]
    fn nested_keys_join_with_dots() {
        let schema = json!({
            "type": "object",
            "properties": { "filter": { "type": "object", "properties": { "since": { "type": "integer" } } } }
        });
        let text = check_input("t", &schema, &json!({"filter": {"since": "x"}})).unwrap_err();
        assert!(
            text.ends_with("- at filter.since: \"x\" is not of type \"integer\""),
            "{text}"
        );
    }

    #[test]
    fn a_broken_schema_is_a_failed_call_not_a_panic() {
        let text = check_input("t", &json!({"type": 12}), &json!({})).unwrap_err();
        assert!(
            text.starts_with("the input schema of tool \"t\" is not a valid JSON Schema: "),
            "{text}"
        );
    }

    #[test]
    fn serde_failures_carry_serde_message() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Args {
            limit: u8,
        }
        let error = deserialize_input::<Args>("t", json!({"limit": 300})).unwrap_err();
        assert_eq!(
            error,
            "the input does not match the input schema of tool \"t\": \
             invalid value: integer `300`, expected u8"
        );
    }

    #[test]
    fn deep_input_deserializes_without_overflowing() {
        let mut value = json!(0);
        for _ in 0..20_000 {
            value = Value::Array(vec![value]);
        }
        let read: Value = crate::small_stack::on_a_small_stack(move || {
            deserialize_input::<Value>("t", value).unwrap()
        });
        assert_eq!(nesting_depth(&read, usize::MAX - 1), 20_000);
        crate::json::drop_deep(read);
    }

    #[test]
    fn null_arguments_read_as_the_empty_object() {
        assert_eq!(normalize_input(Value::Null), json!({}));
        assert_eq!(normalize_input(json!([1])), json!([1]));
    }

    #[test]
    fn panic_payloads_become_text() {
        assert_eq!(
            panic_text("t", &"static message"),
            "the tool \"t\" panicked: static message"
        );
        assert_eq!(
            panic_text("t", &String::from("formatted 3")),
            "the tool \"t\" panicked: formatted 3"
        );
        assert_eq!(
            panic_text("t", &42_u32),
            "the tool \"t\" panicked with a value that has no message"
        );
    }
}
