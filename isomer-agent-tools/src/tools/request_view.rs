//! `isomer_request_view` (agent-tools.md §4.6), offered only when the
//! runtime lists a view when the tools are created.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{ToolsContext, failure, utf16_len};
use crate::names::ISOMER_TOOL_NAMES;
use crate::runtime::ViewRequestError;
use crate::sdk_pending::{Tool, ToolResult, format_validation_error, tool_from_handler};

/// The longest view id accepted, in UTF-16 code units.
pub(crate) const MAX_VIEW_ID_LENGTH: usize = 200;

/// The view and its input.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct RequestViewInput {
    /// A view id from isomer_list_views.
    #[schemars(length(min = 1, max = 200))]
    id: String,
    /// The view's input, matching its input schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "input_schema")]
    input: Option<Map<String, Value>>,
}

/// `{"type":"object"}` with any keys: an optional field rather than a
/// nullable one.
fn input_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "object", "additionalProperties": true })
}

const DESCRIPTION: &str = "Builds a registered view by id from its input and answers the composition with its \
validation result. Render it with isomer_render.";

/// Answers `{composition?, valid, errors, warnings}` for a built view (an
/// invalid one is a normal answer; an input-refused one leaves the
/// composition out), or the request's failure as a failed result.
pub(crate) async fn isomer_request_view(
    context: Arc<ToolsContext>,
    input: RequestViewInput,
) -> ToolResult {
    if input.id.is_empty() || utf16_len(&input.id) > MAX_VIEW_ID_LENGTH {
        return ToolResult::error(format!(
            "id must be from 1 to {MAX_VIEW_ID_LENGTH} characters long."
        ));
    }
    let built = match context
        .runtime
        .request_view(&input.id, &(), input.input.map(Value::Object))
        .await
    {
        Ok(built) => built,
        Err(error) => return view_error_result(error),
    };
    let check = match context.check(&built) {
        Ok(check) => check,
        Err(error) => return failure(&error),
    };
    let refused = check
        .findings
        .iter()
        .any(|finding| finding.is_input_refusal());
    let mut answer = Map::new();
    if !refused {
        answer.insert("composition".to_owned(), check.composition.unwrap_or(built));
    }
    answer.insert("valid".to_owned(), json!(check.valid));
    answer.insert("errors".to_owned(), json!(check.errors));
    answer.insert("warnings".to_owned(), json!(check.warnings));
    ToolResult::json(&Value::Object(answer), false)
}

/// A failed request (upstream `viewErrorResult`): findings answer
/// `{error: <first line of the message>, errors}`, anything else (or
/// findings with none listed) its message; both failed.
fn view_error_result(error: ViewRequestError) -> ToolResult {
    match error {
        ViewRequestError::Findings { message, errors } if !errors.is_empty() => {
            let first_line = message.split('\n').next().unwrap_or_default();
            let errors: Vec<String> = errors.iter().map(format_validation_error).collect();
            ToolResult::json(&json!({ "error": first_line, "errors": errors }), true)
        }
        other => failure(&other),
    }
}

pub(crate) fn isomer_request_view_tool(context: Arc<ToolsContext>) -> Tool {
    tool_from_handler(
        ISOMER_TOOL_NAMES.request_view,
        "Request a registered view",
        DESCRIPTION,
        context,
        isomer_request_view,
    )
}
