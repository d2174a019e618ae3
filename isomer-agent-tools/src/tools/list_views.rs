//! `isomer_list_views`, offered only when the runtime
//! lists a view when the tools are created.

use std::sync::Arc;

use isomer_evals_macros::isomer_tool;
use isomer_sdk::tool::finish_input_schema;
use isomer_sdk::{NoInput, Tool, ToolResult};
use serde_json::{Value, json};

use super::ToolsContext;

/// Lists the host's registered views: ready-made compositions you request by id, each with the questions it answers and the JSON Schema of its input. When one answers the question, request it rather than composing from scratch.
#[isomer_tool(title = "List registered views")]
pub(crate) async fn isomer_list_views(context: Arc<ToolsContext>, _input: NoInput) -> ToolResult {
    let mut views = context.runtime.list_views();
    for view in &mut views {
        // A view's input schema as tool schemas are written: no `$schema`, no root
        // title or description (Gemini's validator refuses `$schema`).
        if let Some(schema) = view.input_schema.take() {
            view.input_schema =
                Some(finish_input_schema(schema.clone(), &view.id).unwrap_or(schema));
        }
    }
    // The text is the list, as upstream answers; structured content is an object, so
    // it carries the list as `views`.
    let mut result = ToolResult::json(&views);
    if !result.is_error {
        result.structured_content = serde_json::to_value(&views)
            .ok()
            .map(|views| json!({ "views": views }));
    }
    result
}

/// The list-views tool with the output schema of its structured answer,
/// `{"views": [...]}`.
pub(crate) fn list_views_tool(context: Arc<ToolsContext>) -> Tool {
    isomer_list_views_tool(context).with_output_schema(output_schema())
}

/// `{"views": [{id, title, description, answers, inputSchema?}, ...]}`.
fn output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "views": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "The id to request the view by." },
                        "title": { "type": "string" },
                        "description": { "type": "string" },
                        "answers": {
                            "type": "array",
                            "items": { "type": "string" },
                            "description": "Questions the view answers."
                        },
                        "inputSchema": {
                            "type": "object",
                            "description": "The JSON Schema of the view's input, when it takes one."
                        }
                    },
                    "required": ["id", "title", "description", "answers"]
                }
            }
        },
        "required": ["views"]
    })
}
