//! Support for the code `#[isomer_tool]` expands into (reached as
//! `isomer_sdk::__private`). Not a public API: anything here may change in
//! any release. The expansion names every path through this module, so a
//! crate using the macro needs no direct dependency on serde or schemars, and
//! `crate = "path"` can point at a renamed or re-exported sdk.

use std::future::Future;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

pub use ::schemars;
pub use ::serde;
pub use ::serde_json;
pub use std::clone::Clone;

pub use super::{IntoToolResult, NoInput, Tool, ToolAnnotations, ToolResult};

/// The output schema of a handler returning `Json<T>` (or a `Result` of
/// one): `tool_output_schema`, `None` when `T`
/// is not an object.
pub fn output_schema<T: ToolOutputSchema + ?Sized>() -> Option<serde_json::Value> {
    super::schema::tool_output_schema::<T>()
}

/// The answer type's schema, for the output schema of a `Json<T>` handler.
#[diagnostic::on_unimplemented(
    message = "the tool output `{Self}` does not implement `JsonSchema`",
    label = "a handler returning `Json<{Self}>` gets its output schema from `{Self}`",
    note = "consider adding `#[derive(schemars::JsonSchema)]` to `{Self}` (schemars 1.x, as isomer_sdk uses)",
    note = "or return `ToolResult::json(&value)` to answer JSON without an output schema"
)]
pub trait ToolOutputSchema: JsonSchema {}

impl<T: JsonSchema + ?Sized> ToolOutputSchema for T {}

/// Sets the output schema when there is one.
pub fn with_output_schema(tool: Tool, schema: Option<serde_json::Value>) -> Tool {
    match schema {
        Some(schema) => tool.with_output_schema(schema),
        None => tool,
    }
}

/// [`Tool::from_fn`], panicking with a message naming the tool when its
/// input type cannot be a tool input (not an object, or recursive): a
/// declaration mistake that the first test building the tool shows.
///
/// The input bounds are the diagnostic traits below, so a missing derive is
/// reported with its fix at the input type the expansion names.
#[track_caller]
pub fn tool<T, F, Fut>(name: &'static str, description: &'static str, handler: F) -> Tool
where
    T: ToolInputSchema + ToolInputDeserialize + ToolInputSend,
    F: Fn(T) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ToolResult> + Send + 'static,
{
    match Tool::from_fn(name, description, handler) {
        Ok(tool) => tool,
        Err(error) => panic!("#[isomer_tool] `{name}`: {error}"),
    }
}

/// The input type's schema half of a tool input, with a message that says
/// how to fix a missing derive.
#[diagnostic::on_unimplemented(
    message = "the tool input `{Self}` does not implement `JsonSchema`",
    label = "the input of this #[isomer_tool] handler",
    note = "consider adding `#[derive(schemars::JsonSchema)]` to `{Self}` (schemars 1.x, as isomer_sdk uses)",
    note = "the last parameter of an #[isomer_tool] handler is its input; a tool without input takes `_: isomer_sdk::NoInput` last"
)]
pub trait ToolInputSchema: JsonSchema {}

impl<T: JsonSchema + ?Sized> ToolInputSchema for T {}

/// The input type's serde half of a tool input.
#[diagnostic::on_unimplemented(
    message = "the tool input `{Self}` does not implement `Deserialize`",
    label = "the input of this #[isomer_tool] handler",
    note = "consider adding `#[derive(serde::Deserialize)]` to `{Self}`",
    note = "the last parameter of an #[isomer_tool] handler is its input; a tool without input takes `_: isomer_sdk::NoInput` last"
)]
pub trait ToolInputDeserialize: DeserializeOwned {}

impl<T: DeserializeOwned> ToolInputDeserialize for T {}

/// Moving the input into the handler's future needs it owned and sendable.
#[diagnostic::on_unimplemented(
    message = "the tool input `{Self}` must be `Send + 'static`",
    label = "the input of this #[isomer_tool] handler",
    note = "tool inputs are deserialized into an owned value that moves into the call's future"
)]
pub trait ToolInputSend: Send + 'static {}

impl<T: Send + 'static> ToolInputSend for T {}

/// A context parameter is cloned into every call.
#[diagnostic::on_unimplemented(
    message = "the tool context `{Self}` must be `Clone + Send + Sync + 'static`",
    label = "a context parameter of this #[isomer_tool] handler",
    note = "context parameters are cloned into every call; wrap shared state in `std::sync::Arc`",
    note = "every parameter before the last is context; the last one is the tool's input"
)]
pub trait ToolContext: Clone + Send + Sync + 'static {}

impl<T: Clone + Send + Sync + 'static> ToolContext for T {}

/// Clones a context parameter into one call; the expansion names the
/// parameter's type in the turbofish, so a missing bound is reported there.
pub fn clone_context<T: ToolContext>(context: &T) -> T {
    context.clone()
}

/// Converts what the handler returned; the expansion spans the call at the
/// handler's return type, where an unsupported type is reported.
pub fn into_tool_result<R: IntoToolResult>(returned: R) -> ToolResult {
    returned.into_tool_result()
}
