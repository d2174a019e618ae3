//! `isomer_list_views` (agent-tools.md §4.5), offered only when the runtime
//! lists a view when the tools are created.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use super::ToolsContext;
use crate::names::ISOMER_TOOL_NAMES;
use crate::sdk_pending::{Tool, ToolResult, tool_from_handler};

/// The list tool takes no input.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ListViewsInput {}

const DESCRIPTION: &str = "Lists the host's registered views: ready-made compositions you request by id, each \
with the questions it answers and the JSON Schema of its input. When one answers the question, request it \
rather than composing from scratch.";

/// Answers the view summaries `[{ id, title, description, answers, inputSchema? }]`.
pub(crate) async fn isomer_list_views(
    context: Arc<ToolsContext>,
    _input: ListViewsInput,
) -> ToolResult {
    ToolResult::json(&context.runtime.list_views(), false)
}

pub(crate) fn isomer_list_views_tool(context: Arc<ToolsContext>) -> Tool {
    tool_from_handler(
        ISOMER_TOOL_NAMES.list_views,
        "List registered views",
        DESCRIPTION,
        context,
        isomer_list_views,
    )
}
