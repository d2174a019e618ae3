//! `isomer_describe_primitives` (upstream `buildPrimitiveDescriptions`).

use std::sync::Arc;

use isomer_evals_macros::isomer_tool;
use isomer_sdk::ToolResult;
use isomer_sdk::js_parity::utf16_len;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{ToolsContext, failure};
use crate::describe::build_primitive_descriptions;

/// The most types one call may ask for.
pub(crate) const MAX_TYPES: usize = 12;
/// The longest type name accepted, in UTF-16 code units.
pub(crate) const MAX_TYPE_LENGTH: usize = 200;

/// The primitives to look up.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct DescribePrimitivesInput {
    /// Primitive types from the guide's index, exactly as listed there.
    #[schemars(length(min = 1, max = 12), inner(length(min = 1, max = 200)))]
    types: Vec<String>,
}

/// Gives the full catalog entry and JSON Schema of each primitive type you name: what it is for, when to use it and when not to, an example, and every field. Name every type you will write, including the containers you nest others in. At most 12 types per call; call again for more.
#[isomer_tool(title = "Describe primitives")]
pub(crate) async fn isomer_describe_primitives(
    context: Arc<ToolsContext>,
    input: DescribePrimitivesInput,
) -> ToolResult {
    // `Tool::call` enforces these bounds through the input schema; they are
    // checked again for a host that runs the handler directly.
    if input.types.is_empty() || input.types.len() > MAX_TYPES {
        return ToolResult::error(format!(
            "types must hold from 1 to {MAX_TYPES} primitive types; this call gave {}.",
            input.types.len()
        ));
    }
    if let Some(index) = input
        .types
        .iter()
        .position(|name| name.is_empty() || utf16_len(name) > MAX_TYPE_LENGTH)
    {
        // Counted as upstream's zod counts (JavaScript string length), which the schema's
        // `maxLength` (code points) cannot express: 150 emoji pass the schema and not this.
        return ToolResult::error(format!(
            "types[{index}] must be from 1 to {MAX_TYPE_LENGTH} UTF-16 code units long (JavaScript's string length); it is {}.",
            utf16_len(&input.types[index])
        ));
    }
    let authoring = match context.runtime.authoring_context() {
        Ok(authoring) => authoring,
        Err(error) => return failure(&error),
    };
    let known: Vec<&str> = authoring
        .primitives
        .iter()
        .map(|entry| entry.type_name.as_str())
        .collect();
    let unknown: Vec<&str> = input
        .types
        .iter()
        .map(String::as_str)
        .filter(|name| !known.contains(name))
        .collect();
    if !unknown.is_empty() {
        return ToolResult::json_error(
            &json!({ "error": "Unknown primitive types.", "unknown": unknown, "known": known }),
        );
    }
    match build_primitive_descriptions(&*context.runtime, &input.types) {
        Ok(text) => ToolResult::text(text),
        Err(error) => failure(&error),
    }
}
