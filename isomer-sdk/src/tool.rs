//! Agent tool definitions as plain data: a [`Tool`] is a name, a title, a
//! description, an input JSON Schema and an erased async handler, and a call
//! answers a [`ToolResult`] shaped as MCP's `CallToolResult`
//! (upstream `IsomerTool`).
//!
//! The types live in the sdk so that both the agent tools and the agent evals
//! can use them without depending on each other. A host maps them onto its
//! transport: `serde_json::to_value(&tool)` is an MCP `tools/list` entry and
//! `tool.call(arguments).await` answers a `tools/call`.
//!
//! Tools are usually declared with `#[isomer_tool]` (re-exported by
//! `isomer-agent-tools`), which calls [`Tool::from_fn`]; a tool can also be
//! built by hand with [`Tool::new`] from a schema and an erased handler.
//!
//! | piece | module |
//! |---|---|
//! | results, content blocks, return-value conversion | [`result`] |
//! | input schema from a `JsonSchema` type | [`schema`] |
//! | a tool declared for OpenAI, Anthropic or Gemini | [`provider`] |
//! | the guard that turns failures into failed results | `guard` (private; its texts are below) |
//!
//! # Failed calls
//!
//! Whatever goes wrong inside a call becomes a failed [`ToolResult`] the
//! model reads, never an error or a panic that reaches the host (upstream's
//! handler guard):
//!
//! | failure | text of the failed result |
//! |---|---|
//! | input the schema refuses | `the input does not match the input schema of tool "<name>":` then one `- at <path>: <problem>` line per problem (jsonschema's wording, except that an enum problem lists every allowed value: `"png" is not one of "text", "markdown", "html", "slack"`; at most 10, then `- and <n> more`) |
//! | input serde refuses after the schema passed it | `the input does not match the input schema of tool "<name>": <serde message>` |
//! | input nesting deeper than 1,000 levels when no thread with room for it can be started | `the input of tool "<name>" nests <n> levels deep and could not be read: no thread with a <bytes>-byte stack (<why>)` |
//! | the schema itself is broken (edited by hand) | `the input schema of tool "<name>" is not a valid JSON Schema: <why>` |
//! | the handler returns `Err(e)` | `e.to_string()`, as upstream answers a thrown error with its message |
//! | the handler panics | `the tool "<name>" panicked: <panic message>` (or `... panicked with a value that has no message`) |
//!
//! Paths are written as Isomer writes them (`filter.tags[0]`), the root as
//! `the root`. A problem whose text would exceed 200 bytes, or whose
//! offending value nests deeper than 100 levels, prints that value as
//! `value`, so a huge input is not echoed back (nor formatted). Input is
//! deserialized on a grown stack (`serde_stacker`) and dropped iteratively;
//! input nesting deeper than 1,000 levels is checked and deserialized on a
//! scoped thread with room for jsonschema's item comparisons and for
//! serde's drop of what it built before a refusal, so deep input does not
//! overflow; what a handler keeps of it is the handler's to drop
//! (`json::drop_deep`). A stack overflow inside a handler still aborts the
//! process, and the process's panic hook still prints a caught panic to
//! stderr.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use futures::FutureExt as _;
use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::ser::SerializeStruct as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;

mod guard;
#[doc(hidden)]
pub mod macro_support;
pub mod provider;
pub mod result;
pub mod schema;

pub use result::{EmbeddedResource, IntoToolResult, Json, ToolContent, ToolResult};
pub use schema::{ToolSchemaError, finish_input_schema, tool_input_schema};

/// The erased handler of a [`Tool`]: takes the call's arguments as JSON and
/// answers a `'static + Send` future of the result. Handlers built by
/// [`Tool::from_fn`] never panic and never fail outside the result; a
/// hand-written one should do the same.
pub(crate) type ToolHandler = Arc<dyn Fn(Value) -> BoxFuture<'static, ToolResult> + Send + Sync>;

/// One agent tool, as upstream's `IsomerTool`: plain
/// data a host offers to a model, plus the handler that answers a call.
///
/// The fields are public so a host (or the agent tools, which fill in the
/// render formats at creation) can edit the description or schema after
/// construction; [`Tool::call`] checks input against `input_schema` as it
/// stands at call time.
///
/// Serializes as an MCP `tools/list` entry:
/// `{"name","title"?,"description","inputSchema","outputSchema"?,"annotations"?}`
/// (optional keys omitted when `None`, the handler never serialized).
#[derive(Clone)]
pub struct Tool {
    /// The name a model calls the tool by (`isomer_validate`).
    pub name: String,
    /// A short human title (`Validate a composition`), when given.
    pub title: Option<String>,
    /// What the tool does and when to call it, for the model.
    pub description: String,
    /// The JSON Schema (draft 2020-12, root `type: object`) of the arguments.
    pub input_schema: Value,
    /// The JSON Schema (root `type: object`) of the tool's structured
    /// answer, when it answers one: every successful result then carries a
    /// [`ToolResult::structured_content`] matching it. `#[isomer_tool]` sets
    /// it for a handler returning `Json<T>` (or a `Result` of one) whose `T`
    /// is an object.
    pub output_schema: Option<Value>,
    /// Hints about the tool's behaviour for clients (MCP's tool
    /// annotations), when given.
    pub annotations: Option<ToolAnnotations>,
    /// The erased handler; prefer [`Tool::call`], which checks the input
    /// against `input_schema` first.
    pub handler: ToolHandler,
}

/// MCP's tool annotations: hints a client may show or use to decide how to
/// call a tool (whether to ask before calling it, whether a retry is safe).
/// They are hints, not guarantees. Serializes with MCP's camelCase keys,
/// each omitted when `None`:
/// `{"title","readOnlyHint","destructiveHint","idempotentHint","openWorldHint"}`.
///
/// The agent tools are all read-only, idempotent and closed-world:
///
/// ```
/// # use isomer_sdk::tool::ToolAnnotations;
/// let hints = ToolAnnotations::read_only("Validate a composition");
/// assert_eq!(
///     serde_json::to_string(&hints).unwrap(),
///     r#"{"title":"Validate a composition","readOnlyHint":true,"idempotentHint":true,"openWorldHint":false}"#
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A human title for the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// True when the tool changes nothing outside itself (MCP's default:
    /// false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// True when a call may destroy or overwrite something; meaningful only
    /// when not read-only (MCP's default: true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// True when calling again with the same arguments has no further
    /// effect (MCP's default: false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// True when the tool reaches outside systems (the web, other
    /// services); false for a tool that works on its inputs and the host's
    /// runtime only (MCP's default: true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// The hints of a tool that only reads: `title`, `readOnlyHint: true`,
    /// `idempotentHint: true`, `openWorldHint: false`.
    pub fn read_only(title: impl Into<String>) -> ToolAnnotations {
        ToolAnnotations {
            title: Some(title.into()),
            read_only_hint: Some(true),
            destructive_hint: None,
            idempotent_hint: Some(true),
            open_world_hint: Some(false),
        }
    }
}

/// The input of a tool that takes none: the empty JSON object (or `null`,
/// read as `{}`), schema
/// `{"type":"object","properties":{},"additionalProperties":false}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NoInput {}

impl Tool {
    /// A tool from a ready schema and an erased handler, for tools whose
    /// input is not a Rust type. `input_schema` is taken as is; the handler
    /// receives the arguments (`null` read as `{}`) after [`Tool::call`] has
    /// checked them against it.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
        handler: impl Fn(Value) -> BoxFuture<'static, ToolResult> + Send + Sync + 'static,
    ) -> Tool {
        Tool {
            name: name.into(),
            title: None,
            description: description.into(),
            input_schema,
            output_schema: None,
            annotations: None,
            handler: Arc::new(handler),
        }
    }

    /// A tool whose input is the Rust type `T`, answered by `handler`: what
    /// `#[isomer_tool]` expands into.
    ///
    /// The schema is [`tool_input_schema::<T>()`](tool_input_schema). The
    /// erased handler reads `null` as `{}`, deserializes `T` (on a grown
    /// stack, so deep input does not overflow), runs `handler` and converts
    /// its output with [`IntoToolResult`]; refused input, an `Err` and a panic
    /// each answer a failed result (the module docs give the texts, which name the
    /// tool by the `name` given here).
    ///
    /// # Errors
    ///
    /// [`ToolSchemaError`] when `T` is not an object or is recursive.
    pub fn from_fn<T, F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        handler: F,
    ) -> Result<Tool, ToolSchemaError>
    where
        T: DeserializeOwned + JsonSchema + Send + 'static,
        F: Fn(T) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoToolResult,
    {
        let input_schema = tool_input_schema::<T>()?;
        let name: String = name.into();
        let tool_name: Arc<str> = Arc::from(name.as_str());
        let handler = Arc::new(handler);
        let erased = move |input: Value| -> BoxFuture<'static, ToolResult> {
            let tool_name = Arc::clone(&tool_name);
            let handler = Arc::clone(&handler);
            async move {
                guard::catch_panic(&tool_name, async {
                    let input = guard::normalize_input(input);
                    let typed = guard::deserialize_input::<T>(&tool_name, input);
                    match typed {
                        Ok(typed) => handler(typed).await.into_tool_result(),
                        Err(text) => ToolResult::error(text),
                    }
                })
                .await
            }
            .boxed()
        };
        Ok(Tool::new(name, description, input_schema, erased))
    }

    /// Sets the title (builder style).
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Tool {
        self.title = Some(title.into());
        self
    }

    /// Sets the annotations (builder style).
    #[must_use]
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Tool {
        self.annotations = Some(annotations);
        self
    }

    /// Sets the output schema (builder style); see [`Tool::output_schema`].
    #[must_use]
    pub fn with_output_schema(mut self, output_schema: Value) -> Tool {
        self.output_schema = Some(output_schema);
        self
    }

    /// Lets calls carry keys the input schema does not declare (builder
    /// style): removes every `additionalProperties: false` from
    /// [`Tool::input_schema`], so [`Tool::call`] no longer refuses unknown
    /// keys; the handler ignores them. A nested type with
    /// `#[serde(deny_unknown_fields)]` still refuses them when the input is
    /// deserialized. By default tools refuse unknown keys
    /// ([`tool_input_schema`] closes every object), as primitives do.
    #[must_use]
    pub fn allow_unknown_keys(mut self) -> Tool {
        schema::open_objects(&mut self.input_schema);
        self
    }

    /// Answers one call: reads `null` arguments as `{}`, takes the argument
    /// shapes of the provider dialects (a `null` for an optional property
    /// read as the property left out, a loose object given as JSON text read
    /// as that object; [`provider`] module docs), checks the arguments
    /// against [`Tool::input_schema`] as it stands now (every problem listed
    /// with its path, as the module docs show), then runs the handler. The future is
    /// `'static + Send` and always resolves to a result; nothing panics out
    /// of it.
    pub fn call(&self, input: Value) -> BoxFuture<'static, ToolResult> {
        let mut input = guard::normalize_input(input);
        guard::read_provider_shapes(&self.input_schema, &mut input);
        if let Err(text) = guard::check_input(&self.name, &self.input_schema, &input) {
            crate::json::drop_deep(input);
            return futures::future::ready(ToolResult::error(text)).boxed();
        }
        (self.handler)(input)
    }
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("title", &self.title)
            .field("description", &self.description)
            .field("input_schema", &self.input_schema)
            .field("output_schema", &self.output_schema)
            .field("annotations", &self.annotations)
            .finish_non_exhaustive()
    }
}

impl Serialize for Tool {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut entry = serializer.serialize_struct("Tool", 6)?;
        entry.serialize_field("name", &self.name)?;
        if let Some(title) = &self.title {
            entry.serialize_field("title", title)?;
        } else {
            entry.skip_field("title")?;
        }
        entry.serialize_field("description", &self.description)?;
        entry.serialize_field("inputSchema", &self.input_schema)?;
        match &self.output_schema {
            Some(schema) => entry.serialize_field("outputSchema", schema)?,
            None => entry.skip_field("outputSchema")?,
        }
        match &self.annotations {
            Some(annotations) => entry.serialize_field("annotations", annotations)?,
            None => entry.skip_field("annotations")?,
        }
        entry.end()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Add {
        a: i32,
        b: i32,
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        futures::executor::block_on(future)
    }

    fn adder() -> Tool {
        Tool::from_fn("add", "Adds two numbers.", |input: Add| async move {
            if input.a == 13 {
                panic!("unlucky {}", input.a);
            }
            input
                .a
                .checked_add(input.b)
                .map(|sum| sum.to_string())
                .ok_or("the sum overflows i32")
        })
        .unwrap()
        .with_title("Add")
    }

    #[test]
    fn a_tool_serializes_as_a_tools_list_entry() {
        assert_eq!(
            serde_json::to_string(&adder()).unwrap(),
            r#"{"name":"add","title":"Add","description":"Adds two numbers.","inputSchema":{"type":"object","properties":{"a":{"type":"integer","maximum":2147483647,"minimum":-2147483648},"b":{"type":"integer","maximum":2147483647,"minimum":-2147483648}},"required":["a","b"],"additionalProperties":false}}"#
        );
        let untitled = Tool::new("t", "d", json!({"type": "object"}), |_| {
            futures::future::ready(ToolResult::text("")).boxed()
        });
        assert_eq!(
            serde_json::to_string(&untitled).unwrap(),
            r#"{"name":"t","description":"d","inputSchema":{"type":"object"}}"#
        );
    }

    #[test]
    fn calls_answer_results_errors_and_panics() {
        let tool = adder();
        assert_eq!(
            block_on(tool.call(json!({"a": 2, "b": 3}))),
            ToolResult::text("5")
        );
        assert_eq!(
            block_on(tool.call(json!({"a": i32::MAX, "b": 1}))),
            ToolResult::error("the sum overflows i32")
        );
        assert_eq!(
            block_on(tool.call(json!({"a": 13, "b": 0}))),
            ToolResult::error("the tool \"add\" panicked: unlucky 13")
        );
        assert_eq!(
            block_on(tool.call(json!({"a": "2"}))),
            ToolResult::error(
                "the input does not match the input schema of tool \"add\":\n\
                 - at the root: \"b\" is a required property\n\
                 - at a: \"2\" is not of type \"integer\""
            )
        );
    }

    #[test]
    fn the_handler_alone_still_refuses_what_serde_refuses() {
        let tool = adder();
        assert_eq!(
            block_on((tool.handler)(json!({"a": 1}))),
            ToolResult::error(
                "the input does not match the input schema of tool \"add\": missing field `b`"
            )
        );
    }

    #[test]
    fn call_checks_the_schema_as_edited_after_construction() {
        let mut tool = adder();
        tool.input_schema["properties"]["a"]["maximum"] = json!(10);
        assert_eq!(
            block_on(tool.call(json!({"a": 11, "b": 0}))),
            ToolResult::error(
                "the input does not match the input schema of tool \"add\":\n\
                 - at a: 11 is greater than the maximum of 10"
            )
        );
    }

    #[test]
    fn no_input_takes_null_or_the_empty_object() {
        let tool = Tool::from_fn("ping", "Answers pong.", |_: NoInput| async { "pong" }).unwrap();
        assert_eq!(
            serde_json::to_string(&tool.input_schema).unwrap(),
            r#"{"type":"object","properties":{},"additionalProperties":false}"#
        );
        assert_eq!(block_on(tool.call(Value::Null)), ToolResult::text("pong"));
        assert_eq!(block_on(tool.call(json!({}))), ToolResult::text("pong"));
        assert_eq!(
            block_on(tool.call(json!({"stray": 1}))),
            ToolResult::error(
                "the input does not match the input schema of tool \"ping\":\n\
                 - at the root: Additional properties are not allowed ('stray' was unexpected)"
            )
        );
        let lenient = tool.allow_unknown_keys();
        assert_eq!(
            block_on(lenient.call(json!({"stray": 1}))),
            ToolResult::text("pong")
        );
    }

    #[test]
    fn annotations_and_output_schema_serialize_after_the_input_schema() {
        let tool = Tool::new("t", "d", json!({"type": "object"}), |_| {
            futures::future::ready(ToolResult::text("")).boxed()
        })
        .with_output_schema(json!({"type": "object"}))
        .with_annotations(ToolAnnotations::read_only("T"));
        assert_eq!(
            serde_json::to_string(&tool).unwrap(),
            r#"{"name":"t","description":"d","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"title":"T","readOnlyHint":true,"idempotentHint":true,"openWorldHint":false}}"#
        );
    }

    #[test]
    fn a_non_object_input_is_refused_at_construction() {
        let error = Tool::from_fn("t", "d", |_: String| async { "" }).unwrap_err();
        assert!(matches!(error, ToolSchemaError::NotAnObject { .. }));
    }
}
