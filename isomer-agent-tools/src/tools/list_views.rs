//! `isomer_list_views` (agent-tools.md §4.5), offered only when the runtime
//! lists a view when the tools are created.

use std::sync::Arc;

use isomer_evals_macros::isomer_tool;
use isomer_sdk::{NoInput, ToolResult};

use super::ToolsContext;

/// Lists the host's registered views: ready-made compositions you request by id, each with the questions it answers and the JSON Schema of its input. When one answers the question, request it rather than composing from scratch.
#[isomer_tool(title = "List registered views")]
pub(crate) async fn isomer_list_views(context: Arc<ToolsContext>, _input: NoInput) -> ToolResult {
    ToolResult::json(&context.runtime.list_views())
}
