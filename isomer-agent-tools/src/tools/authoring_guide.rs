//! `isomer_authoring_guide`: the authoring guide, as upstream's tool returns it.

use std::sync::Arc;

use isomer_evals_macros::isomer_tool;
use isomer_sdk::{NoInput, ToolResult};

use super::{ToolsContext, failure};
use crate::guide::build_isomer_authoring_guide;

/// Explains how to write a composition for this host: the host's guide and rules, any registered views, and an index of every primitive by type and purpose. Read it before anything else, then call isomer_describe_primitives for the primitives you choose.
#[isomer_tool(title = "Isomer authoring guide")]
pub(crate) async fn isomer_authoring_guide(
    context: Arc<ToolsContext>,
    _input: NoInput,
) -> ToolResult {
    match build_isomer_authoring_guide(&context.guide) {
        Ok(guide) => ToolResult::text(guide),
        Err(error) => failure(&error),
    }
}
