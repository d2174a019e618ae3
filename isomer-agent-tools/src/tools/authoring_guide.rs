//! `isomer_authoring_guide` (agent-tools.md §4.1).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;

use super::{ToolsContext, failure};
use crate::guide::build_isomer_authoring_guide;
use crate::names::ISOMER_TOOL_NAMES;
use crate::sdk_pending::{Tool, ToolResult, tool_from_handler};

/// The guide tool takes no input.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct AuthoringGuideInput {}

const DESCRIPTION: &str = "Explains how to write a composition for this host: the host's guide and rules, \
any registered views, and an index of every primitive by type and purpose. Read it before anything else, then \
call isomer_describe_primitives for the primitives you choose.";

/// Answers the guide as one text block.
pub(crate) async fn isomer_authoring_guide(
    context: Arc<ToolsContext>,
    _input: AuthoringGuideInput,
) -> ToolResult {
    match build_isomer_authoring_guide(&context.guide) {
        Ok(guide) => ToolResult::text(guide),
        Err(error) => failure(&error),
    }
}

pub(crate) fn isomer_authoring_guide_tool(context: Arc<ToolsContext>) -> Tool {
    tool_from_handler(
        ISOMER_TOOL_NAMES.authoring_guide,
        "Isomer authoring guide",
        DESCRIPTION,
        context,
        isomer_authoring_guide,
    )
}
