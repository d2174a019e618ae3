//! Agent tools over an Isomer runtime: the six tools a model uses to write
//! a composition (read the guide, look primitives up, validate, render, and
//! list and request registered views), the guide and the composition JSON
//! Schema as resources, and a `compose` prompt. Everything is plain data;
//! the host brings the transport (an MCP server, an agent framework, its own
//! loop). Behaviour follows upstream `@elastic/isomer-agent-tools`.
//!
//! ```
//! use std::sync::Arc;
//!
//! use isomer_agent_tools::{
//!     IsomerGuideOptions, IsomerToolsOptions, create_isomer_prompts, create_isomer_resources,
//!     create_isomer_tools,
//! };
//! use serde_json::json;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let runtime = Arc::new(isomer_slides::runtime().unwrap());
//! let options = IsomerToolsOptions::new(Arc::clone(&runtime))
//!     .with_frame(isomer_slides::slide_deck_frame());
//! let tools = create_isomer_tools(options).unwrap();
//! let resources = create_isomer_resources(IsomerGuideOptions::new(Arc::clone(&runtime)));
//! let prompts = create_isomer_prompts(IsomerGuideOptions::new(runtime));
//!
//! // No view is registered, so the two view tools are left out.
//! let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
//! assert_eq!(
//!     names,
//!     ["isomer_authoring_guide", "isomer_describe_primitives", "isomer_validate", "isomer_render"]
//! );
//! assert_eq!(resources[0].uri, "isomer://authoring-guide");
//! assert_eq!(prompts[0].name, "compose");
//!
//! // A host answers an MCP tools/call with `tool.call(arguments)`.
//! let validate = &tools[2];
//! let result = validate
//!     .call(json!({ "composition": { "type": "view", "body": [] } }))
//!     .await;
//! assert!(!result.is_error);
//! assert!(result.first_text().unwrap().contains("\"valid\": false"));
//! # });
//! ```
//!
//! Every composition a tool receives came from a model: the runtime's
//! `parse` and `validate` apply the input budget before anything reads it,
//! and `isomer_render` renders only the copy `validate` checked.

#![forbid(unsafe_code)]

pub mod check;
pub mod describe;
pub mod format;
pub mod guide;
pub mod names;
pub mod options;
pub mod prompts;
pub mod resources;
pub mod runtime;
pub mod sdk_runtime;
mod tools;

pub use check::{CompositionCheck, ToolsFrame, cap_findings, check_composition};
pub use describe::build_primitive_descriptions;
pub use format::{
    FormatOutput, HostFormat, HostRender, HostRenderOptions, format_result, render_uri,
};
pub use guide::{DEFAULT_ISOMER_GUIDE, build_isomer_authoring_guide};
/// Declares an agent tool from a handler function. The handler is kept as
/// written; beside it the macro emits `<fn>_tool(context...) -> Tool`, which
/// builds a [`Tool`]: name, title, description, the input JSON Schema, and an
/// erased async handler that never fails outside its result.
///
/// ```
/// use std::sync::Arc;
///
/// use isomer_agent_tools::{ToolResult, isomer_tool};
///
/// /// What the handlers share.
/// pub struct Catalog {
///     known: Vec<String>,
/// }
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// pub struct DescribeInput {
///     /// Primitive types, as the guide lists them.
///     types: Vec<String>,
/// }
///
/// /// Describes the primitive types you name.
/// #[isomer_tool(title = "Describe primitives")]
/// async fn describe(catalog: Arc<Catalog>, input: DescribeInput) -> Result<String, String> {
///     match input.types.iter().find(|name| !catalog.known.contains(name)) {
///         Some(unknown) => Err(format!("unknown type {unknown:?}")),
///         None => Ok(input.types.join(", ")),
///     }
/// }
///
/// // Generated: fn describe_tool(catalog: Arc<Catalog>) -> isomer_agent_tools::Tool
/// let tool = describe_tool(Arc::new(Catalog { known: vec!["kpi".into()] }));
/// assert_eq!(tool.title.as_deref(), Some("Describe primitives"));
/// assert_eq!(tool.description, "Describes the primitive types you name.");
///
/// let call = |input| futures::executor::block_on(tool.call(input));
/// assert_eq!(call(serde_json::json!({ "types": ["kpi"] })), ToolResult::text("kpi"));
/// assert_eq!(
///     call(serde_json::json!({ "types": ["pie"] })),
///     ToolResult::error("unknown type \"pie\"")
/// );
/// ```
///
/// # Keys
///
/// | key | type | usage | default |
/// |---|---|---|---|
/// | `name` | string | the name a model calls the tool by: 1 to 64 of `A-Z a-z 0-9 _ -` (what OpenAI and Anthropic accept) | the function's name |
/// | `title` | string | a short human title, not empty | none (`title` omitted) |
/// | `crate` | string path | where the sdk is, for a renamed or re-exported dependency | `"::isomer_sdk"` |
/// | `annotations(...)` | `read_only_hint`, `destructive_hint`, `idempotent_hint`, `open_world_hint`, each `= true` or `= false` | MCP's tool annotations (hints for clients); the `title` key, when given, is also the annotations' title | none (`annotations` omitted) |
/// | `allow_unknown_keys` | flag | calls may carry keys the input type does not declare (they are ignored); without it the input schema closes every object (`additionalProperties: false`) and such a call is refused, naming the key | unknown keys refused |
///
/// The description is the function's doc comment (not a key): its text with
/// the one space after `///` removed (the further lines of a `/** */` block
/// lose the indentation they share), lines joined with `\n`, blank lines at
/// either end dropped. A tool without a doc comment, or with one written
/// as `#[doc = include_str!(..)]`, does not compile.
///
/// # The handler
///
/// - **Parameters.** The last parameter is the tool's *input*: an owned
///   type implementing `serde::Deserialize` and `schemars::JsonSchema` whose
///   schema is a JSON object (a struct with named fields, or a map). Every
///   parameter before it is *context*: taken by value, `Clone + Send + Sync
///   + 'static` (wrap shared state in `Arc`), passed to the constructor once
///   and cloned into every call. A tool without input takes
///   `_: isomer_sdk::NoInput` last, or has no parameter at all.
/// - **Sync or async.** An `async fn` is awaited; a plain `fn` runs inside
///   the call's future (keep it short, or hand heavy work to a blocking pool
///   yourself). The future must be `Send`.
/// - **Return type**, through `isomer_sdk::IntoToolResult`: `ToolResult` as
///   is; `String` or `&'static str` as a text block; `isomer_sdk::Json<T>`
///   (`T: Serialize`) or `serde_json::Value` as two-space JSON text (plus
///   `structuredContent` when the value is an object); and
///   `Result<T, E: Display>` of any of those, an `Err` answering a failed
///   result with `e.to_string()`, or `Result<T, ToolResult>`, an `Err`
///   answered as is.
/// - **Output schema.** A handler returning `Json<T>` or `Result<Json<T>, E>`
///   (recognised by the type's last path segment, as rmcp's `#[tool]` does)
///   gets `T`'s JSON Schema as the tool's output schema when `T` is an
///   object; `T` must then implement `schemars::JsonSchema`.
/// - **Generics** and `where` clauses are copied to the constructor. Methods
///   (`self`), `unsafe` functions and variadic functions are refused.
///
/// # What the constructor builds
///
/// `isomer_sdk::__private::tool::<Input, _, _>(name, description, closure)`
/// plus `.with_title(title)`, `.with_annotations(...)`,
/// `.allow_unknown_keys()` and the output schema, each when asked for, where the closure clones the
/// context and calls the handler. The input schema is
/// `isomer_sdk::tool_input_schema::<Input>()` (draft 2020-12, inlined, root
/// `type: object`). `Tool::call(arguments)` checks the arguments against the
/// schema, deserializes them, runs the handler, and answers refused input, an
/// `Err` and a panic each as a failed `ToolResult` whose text says what went
/// wrong. The constructor panics when the input type's schema is not an
/// object or is recursive; the obvious cases (`String`, numbers, `Vec`,
/// `Option`, tuples, references) are compile errors instead.
///
/// # Compile errors
///
/// Every mistake is reported at the token it is about, all in one build:
/// unknown or repeated keys, a bad name, a missing doc comment, a `self`
/// parameter, a non-object or borrowed input. A missing derive on the input
/// is reported at the input type with the derive to add. On any error the
/// handler is still emitted unchanged, with a stub constructor, so only the
/// real error shows.
///
/// # Known limitations
///
/// - A handler inside an `impl` block is not supported; use a free function
///   with a context parameter.
/// - A stack overflow inside a handler aborts the process; only panics are
///   caught.
#[doc(inline)]
pub use isomer_evals_macros::isomer_tool;
pub use isomer_sdk::{EmbeddedResource, Tool, ToolContent, ToolResult};
pub use names::{
    ISOMER_AUTHORING_GUIDE_URI, ISOMER_COMPOSE_PROMPT, ISOMER_COMPOSITION_SCHEMA_URI,
    ISOMER_TOOL_NAMES, IsomerToolNames,
};
pub use options::{DEFAULT_MAX_FINDINGS, IsomerGuideOptions, IsomerToolsOptions};
pub use prompts::{IsomerPrompt, PromptArgument, PromptBuild, create_isomer_prompts};
pub use resources::{IsomerResource, ResourceRead, create_isomer_resources};
pub use runtime::{
    ParseOutcome, RenderedFormat, RuntimeFailure, RuntimeFormat, ToolsRenderOptions, ToolsRuntime,
    ValidationOutcome, ViewRequestError,
};
pub use tools::create_isomer_tools;
