//! `isomer_request_view`, offered only when the
//! runtime lists a view when the tools are created.

use std::sync::Arc;

use isomer_evals_macros::isomer_tool;
use isomer_sdk::js_parity::utf16_len;
use isomer_sdk::{Document, Json, ToolResult, format_validation_error};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{ToolsContext, failure};
use crate::runtime::ViewRequestError;

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

/// What `isomer_request_view` answers when the view was built.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct RequestViewAnswer {
    /// The composition the view built, as validated; left out when the input budget refused it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "composition_schema")]
    composition: Option<Value>,
    /// True when the built composition has no error.
    valid: bool,
    /// Each error as `<path> (in <type>) <message>`; past the host's cap, a last line counts the rest.
    errors: Vec<String>,
    /// Each warning as `<surface>: <text>`; past the host's cap, a last line counts the rest.
    warnings: Vec<String>,
}

/// `{"type":"object"}`: a composition, whose full schema is the
/// `isomer://composition-schema` resource.
fn composition_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "description": "A composition: { \"type\": \"view\", \"body\": [...] }."
    })
}

/// Builds a registered view by id from its input and answers the composition with its validation result. Render it with isomer_render.
#[isomer_tool(title = "Request a registered view")]
pub(crate) async fn isomer_request_view(
    context: Arc<ToolsContext>,
    input: RequestViewInput,
) -> Result<Json<RequestViewAnswer>, ToolResult> {
    // `Tool::call` enforces this bound through the input schema; it is
    // checked again for a host that runs the handler directly.
    if input.id.is_empty() || utf16_len(&input.id) > MAX_VIEW_ID_LENGTH {
        // Counted as upstream's zod counts (JavaScript string length), which the schema's
        // `maxLength` (code points) cannot express.
        return Err(ToolResult::error(format!(
            "id must be from 1 to {MAX_VIEW_ID_LENGTH} UTF-16 code units long (JavaScript's string length); it is {}.",
            utf16_len(&input.id)
        )));
    }
    let built = match context
        .runtime
        .request_view(&input.id, &(), input.input.map(Value::Object))
        .await
    {
        // A view may build a value nested far past the budget (from the model's input,
        // say): held as a document, it is dropped without recursion when not echoed.
        Ok(built) => Document::new(built),
        Err(error) => return Err(view_error_result(&context, error)),
    };
    // The check shares the built tree; the value is echoed when the parse refuses it.
    let check = context.check(&built).map_err(|error| failure(&error))?;
    let refused = check
        .findings
        .iter()
        .any(|finding| finding.is_input_refusal());
    let composition = (!refused).then(|| {
        check
            .composition
            .unwrap_or_else(|| built.into_value().into_inner())
    });
    // A built composition that fails validation is a normal answer.
    Ok(Json(RequestViewAnswer {
        composition,
        valid: check.valid,
        errors: check.errors,
        warnings: check.warnings,
    }))
}

/// A failed request (upstream `viewErrorResult`): findings answer
/// `{error: <first line of the message>, errors}` (errors capped as every
/// answer's are), anything else (or findings with none listed) its message;
/// both failed.
fn view_error_result(context: &ToolsContext, error: ViewRequestError) -> ToolResult {
    match error {
        ViewRequestError::Findings { message, errors } if !errors.is_empty() => {
            let first_line = message.split('\n').next().unwrap_or_default();
            let errors: Vec<String> = errors.iter().map(format_validation_error).collect();
            let errors = context.cap_errors(errors);
            ToolResult::json_error(&json!({ "error": first_line, "errors": errors }))
        }
        other => failure(&other),
    }
}
