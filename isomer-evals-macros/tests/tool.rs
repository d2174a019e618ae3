//! What `#[isomer_tool]` expansions do: the definitions they build and how
//! the built tools answer calls (valid input, refused input, an `Err`, a
//! panic), for async and sync handlers, with and without context.

#![deny(missing_docs)]

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use isomer_evals_macros::isomer_tool;
use isomer_sdk::{Json, NoInput, Tool, ToolResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Shared state a tool reads: counts its calls.
#[derive(Default)]
pub struct Counter {
    calls: AtomicUsize,
}

/// The input of the search tool.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchInput {
    /// Full-text query.
    query: String,
    /// Maximum number of hits, 1 to 50.
    #[schemars(range(min = 1, max = 50))]
    limit: Option<u32>,
}

/// A hit.
#[derive(Serialize, JsonSchema)]
pub struct Hit {
    title: String,
    score: f64,
}

/// Searches the documents and answers the best hits as JSON.
///
/// Call it before answering a question about the docs.
#[isomer_tool(name = "search_docs", title = "Search the docs")]
pub async fn search(counter: Arc<Counter>, input: SearchInput) -> Result<Json<Vec<Hit>>, String> {
    counter.calls.fetch_add(1, Ordering::SeqCst);
    match input.query.as_str() {
        "" => Err("the query is empty; ask for something".to_owned()),
        "boom" => panic!("the index is gone"),
        query => Ok(Json(
            (0..input.limit.unwrap_or(1))
                .map(|index| Hit {
                    title: format!("{query} {index}"),
                    score: 1.0 / f64::from(index + 1),
                })
                .collect(),
        )),
    }
}

/// The input of the sync add tool.
#[derive(Deserialize, JsonSchema)]
pub struct AddInput {
    a: i64,
    b: i64,
}

/// Adds two integers.
#[isomer_tool]
fn add(input: AddInput) -> String {
    if input.a == 13 {
        let reason = format!("{} is unlucky", input.a);
        panic!("{reason}");
    }
    (input.a + input.b).to_string()
}

/// Answers pong.
#[isomer_tool]
async fn ping() -> &'static str {
    "pong"
}

/// Answers how often the search ran.
#[isomer_tool(title = "Call count")]
fn calls(counter: Arc<Counter>, _input: NoInput) -> ToolResult {
    ToolResult::text(counter.calls.load(Ordering::SeqCst).to_string())
}

/// The sdk seen through a re-export, as a crate that renames or re-exports
/// it would reach it.
mod sdk_alias {
    pub use isomer_sdk::*;
}

/// Echoes the labels it is given, sorted.
#[isomer_tool(crate = "crate::sdk_alias")]
fn echo<T>(prefix: T, input: BTreeMap<String, String>) -> String
where
    T: AsRef<str> + Clone + Send + Sync + 'static,
{
    let labels: Vec<String> = input.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{}{}", prefix.as_ref(), labels.join(","))
}

/// The input of the lenient tool.
#[derive(Deserialize, JsonSchema)]
pub struct Greeting {
    /// Whom to greet.
    name: String,
}

/// What the lenient tool answers.
#[derive(Serialize, JsonSchema)]
pub struct Greeted {
    /// The greeting.
    text: String,
}

/// Greets someone, ignoring keys it does not know.
#[isomer_tool(
    title = "Greet",
    annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false),
    allow_unknown_keys
)]
fn greet(input: Greeting) -> Json<Greeted> {
    Json(Greeted {
        text: format!("Hello, {}.", input.name),
    })
}

/// A newtype around a string: its schema is a string, not an object.
#[derive(Deserialize, JsonSchema)]
pub struct Word(String);

/// Echoes a word.
#[isomer_tool]
fn word(input: Word) -> String {
    input.0
}

fn call(tool: &Tool, input: serde_json::Value) -> ToolResult {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(tool.call(input))
}

#[test]
fn the_definition_carries_name_title_description_and_schema() {
    let tool = search_tool(Arc::new(Counter::default()));
    assert_eq!(tool.name, "search_docs");
    assert_eq!(tool.title.as_deref(), Some("Search the docs"));
    assert_eq!(
        tool.description,
        "Searches the documents and answers the best hits as JSON.\n\nCall it before answering a question about the docs."
    );
    assert_eq!(
        serde_json::to_string(&tool.input_schema).unwrap(),
        r#"{"type":"object","properties":{"query":{"type":"string","description":"Full-text query."},"limit":{"type":["integer","null"],"maximum":50,"minimum":1,"description":"Maximum number of hits, 1 to 50."}},"required":["query"],"additionalProperties":false}"#
    );
}

#[test]
fn names_default_to_the_function_and_titles_to_none() {
    let tool = add_tool();
    assert_eq!((tool.name.as_str(), tool.title.as_deref()), ("add", None));
    assert_eq!(tool.description, "Adds two integers.");
    assert_eq!(
        serde_json::to_string(&tool).unwrap(),
        r#"{"name":"add","description":"Adds two integers.","inputSchema":{"type":"object","properties":{"a":{"type":"integer","maximum":9223372036854775807,"minimum":-9223372036854775808},"b":{"type":"integer","maximum":9223372036854775807,"minimum":-9223372036854775808}},"required":["a","b"],"additionalProperties":false}}"#
    );
}

#[test]
fn a_valid_call_answers_the_handler_output() {
    let counter = Arc::new(Counter::default());
    let tool = search_tool(Arc::clone(&counter));
    assert_eq!(
        call(&tool, json!({"query": "tables", "limit": 2})),
        ToolResult::text(
            "[\n  {\n    \"title\": \"tables 0\",\n    \"score\": 1\n  },\n  {\n    \"title\": \"tables 1\",\n    \"score\": 0.5\n  }\n]"
        )
    );
    assert_eq!(counter.calls.load(Ordering::SeqCst), 1);
    assert_eq!(
        call(&calls_tool(Arc::clone(&counter)), serde_json::Value::Null),
        ToolResult::text("1")
    );
}

#[test]
fn refused_input_says_what_and_where_and_never_reaches_the_handler() {
    let counter = Arc::new(Counter::default());
    let tool = search_tool(Arc::clone(&counter));
    assert_eq!(
        call(&tool, json!({"query": 3, "limit": 0, "sort": "asc"})),
        ToolResult::error(
            "the input does not match the input schema of tool \"search_docs\":\n\
             - at query: 3 is not of type \"string\"\n\
             - at limit: 0 is less than the minimum of 1\n\
             - at the root: Additional properties are not allowed ('sort' was unexpected)"
        )
    );
    assert_eq!(counter.calls.load(Ordering::SeqCst), 0);
}

#[test]
fn a_handler_error_is_a_failed_result_with_its_message() {
    let tool = search_tool(Arc::new(Counter::default()));
    assert_eq!(
        call(&tool, json!({"query": ""})),
        ToolResult::error("the query is empty; ask for something")
    );
}

#[test]
fn a_panicking_handler_is_a_failed_result_async_and_sync() {
    let tool = search_tool(Arc::new(Counter::default()));
    assert_eq!(
        call(&tool, json!({"query": "boom"})),
        ToolResult::error("the tool \"search_docs\" panicked: the index is gone")
    );
    assert_eq!(
        call(&add_tool(), json!({"a": 13, "b": 1})),
        ToolResult::error("the tool \"add\" panicked: 13 is unlucky")
    );
}

#[test]
fn sync_handlers_answer_like_async_ones() {
    assert_eq!(
        call(&add_tool(), json!({"a": 40, "b": 2})),
        ToolResult::text("42")
    );
    assert_eq!(
        call(&add_tool(), json!({"a": 1})),
        ToolResult::error(
            "the input does not match the input schema of tool \"add\":\n\
             - at the root: \"b\" is a required property"
        )
    );
}

#[test]
fn a_tool_without_parameters_takes_the_empty_object() {
    let tool = ping_tool();
    assert_eq!(
        serde_json::to_string(&tool.input_schema).unwrap(),
        r#"{"type":"object","properties":{},"additionalProperties":false}"#
    );
    assert_eq!(call(&tool, json!({})), ToolResult::text("pong"));
    assert_eq!(
        call(&tool, json!({"extra": true})),
        ToolResult::error(
            "the input does not match the input schema of tool \"ping\":\n\
             - at the root: Additional properties are not allowed ('extra' was unexpected)"
        )
    );
    assert_eq!(
        call(&tool, json!([])),
        ToolResult::error(
            "the input does not match the input schema of tool \"ping\":\n\
             - at the root: [] is not of type \"object\""
        )
    );
}

#[test]
fn generic_handlers_and_the_crate_key_expand() {
    let tool = echo_tool(String::from("labels: "));
    assert_eq!(
        call(&tool, json!({"b": "2", "a": "1"})),
        ToolResult::text("labels: a=1,b=2")
    );
    assert_eq!(
        serde_json::to_string(&tool.input_schema).unwrap(),
        r#"{"type":"object","properties":{},"additionalProperties":{"type":"string"}}"#
    );
}

#[test]
fn the_handler_is_kept_callable_as_written() {
    assert_eq!(add(AddInput { a: 2, b: 3 }), "5");
    let hits = futures::executor::block_on(search(
        Arc::new(Counter::default()),
        SearchInput {
            query: "x".into(),
            limit: None,
        },
    ));
    assert_eq!(hits.unwrap().0.len(), 1);
}

#[test]
fn the_erased_future_is_send_and_static() {
    fn assert_send_static<F: Send + 'static>(_: &F) {}
    let tool = search_tool(Arc::new(Counter::default()));
    let future = tool.call(json!({"query": "q"}));
    assert_send_static(&future);
    drop(tool);
    let result = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .build()
        .unwrap()
        .block_on(async move { tokio::spawn(future).await.unwrap() });
    assert!(!result.is_error);
}

#[test]
#[should_panic(
    expected = "#[isomer_tool] `word`: the tool input `Word` is not a JSON object (its schema is {\"type\":\"string\"}); use a struct with named fields, or `isomer_sdk::NoInput` for a tool without input"
)]
fn a_non_object_input_the_macro_cannot_see_panics_at_construction() {
    let _ = word_tool();
}

#[test]
fn annotations_an_inferred_output_schema_and_leniency_expand() {
    let tool = greet_tool();
    assert_eq!(
        serde_json::to_string(&tool).unwrap(),
        r#"{"name":"greet","title":"Greet","description":"Greets someone, ignoring keys it does not know.","inputSchema":{"type":"object","properties":{"name":{"type":"string","description":"Whom to greet."}},"required":["name"]},"outputSchema":{"type":"object","properties":{"text":{"type":"string","description":"The greeting."}},"required":["text"]},"annotations":{"title":"Greet","readOnlyHint":true,"idempotentHint":true,"openWorldHint":false}}"#
    );
    let answer = call(&tool, json!({"name": "Ada", "mood": "sunny"}));
    assert_eq!(
        serde_json::to_string(&answer).unwrap(),
        r#"{"content":[{"type":"text","text":"{\n  \"text\": \"Hello, Ada.\"\n}"}],"structuredContent":{"text":"Hello, Ada."}}"#
    );
}

#[test]
fn a_json_answer_that_is_not_an_object_has_no_output_schema() {
    let tool = search_tool(Arc::new(Counter::default()));
    assert_eq!(tool.output_schema, None);
    assert_eq!(tool.annotations, None);
}
