//! `isomer_validate` (agent-tools.md §4.3).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{ToolsContext, failure};
use crate::names::ISOMER_TOOL_NAMES;
use crate::sdk_pending::{Tool, ToolResult, tool_from_handler};

/// The composition to check.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ValidateInput {
    /// A composition: `{ "type": "view", "body": [...] }`. Before writing one, read isomer_authoring_guide for the primitives and isomer_describe_primitives for each one's schema.
    composition: Map<String, Value>,
}

const DESCRIPTION: &str = "Checks a composition against the schema and the host's rules and answers \
{ valid, errors, warnings }. Fix every error and validate again before you render.";

/// Answers `{valid, errors, warnings}` as JSON; an invalid composition,
/// even one the input budget refuses, is a normal answer.
pub(crate) async fn isomer_validate(
    context: Arc<ToolsContext>,
    input: ValidateInput,
) -> ToolResult {
    match context.check(&Value::Object(input.composition)) {
        Ok(check) => ToolResult::json(
            &json!({ "valid": check.valid, "errors": check.errors, "warnings": check.warnings }),
            false,
        ),
        Err(error) => failure(&error),
    }
}

pub(crate) fn isomer_validate_tool(context: Arc<ToolsContext>) -> Tool {
    tool_from_handler(
        ISOMER_TOOL_NAMES.validate,
        "Validate a composition",
        DESCRIPTION,
        context,
        isomer_validate,
    )
}
