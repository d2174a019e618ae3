//! Agent tools over an Isomer runtime: the six tools a model uses to write
//! a composition (read the guide, look primitives up, validate, render, and
//! list and request registered views), the guide and the composition JSON
//! Schema as resources, and a `compose` prompt. Everything is plain data;
//! the host brings the transport (an MCP server, an agent framework, its own
//! loop). Behaviour follows upstream `@elastic/isomer-agent-tools`
//! (agent-tools.md).
//!
//! ```
//! use std::sync::Arc;
//!
//! use isomer_agent_tools::{
//!     IsomerGuideOptions, IsomerToolsOptions, create_isomer_prompts, create_isomer_resources,
//!     create_isomer_tools,
//! };
//! use serde_json::json;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let runtime = Arc::new(isomer_slides::runtime().unwrap());
//! let options = IsomerToolsOptions::new(Arc::clone(&runtime))
//!     .with_frame(isomer_slides::slide_deck_frame());
//! let tools = create_isomer_tools(options).unwrap();
//! let resources = create_isomer_resources(IsomerGuideOptions::new(Arc::clone(&runtime)));
//! let prompts = create_isomer_prompts(IsomerGuideOptions::new(runtime));
//!
//! // No view is registered, so the two view tools are left out.
//! let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
//! assert_eq!(
//!     names,
//!     ["isomer_authoring_guide", "isomer_describe_primitives", "isomer_validate", "isomer_render"]
//! );
//! assert_eq!(resources[0].uri, "isomer://authoring-guide");
//! assert_eq!(prompts[0].name, "compose");
//!
//! // A host answers an MCP tools/call with `tool.call(arguments)`.
//! let validate = &tools[2];
//! let result = validate
//!     .call(json!({ "composition": { "type": "view", "body": [] } }))
//!     .await;
//! assert!(!result.is_error);
//! assert!(result.first_text().unwrap().contains("\"valid\": false"));
//! # });
//! ```
//!
//! Every composition a tool receives came from a model: the runtime's
//! `parse` and `validate` apply the input budget before anything reads it,
//! and `isomer_render` renders only the copy `validate` checked.

pub mod check;
pub mod describe;
pub mod format;
pub mod guide;
pub mod names;
pub mod options;
pub mod prompts;
pub mod resources;
pub mod runtime;
pub mod sdk_runtime;
mod tools;

pub use check::{CompositionCheck, ToolsFrame, cap_findings, check_composition};
pub use describe::build_primitive_descriptions;
pub use format::{
    FormatOutput, HostFormat, HostRender, HostRenderOptions, format_result, render_uri,
};
pub use guide::{DEFAULT_ISOMER_GUIDE, build_isomer_authoring_guide};
pub use isomer_evals_macros::isomer_tool;
pub use isomer_sdk::{EmbeddedResource, Tool, ToolContent, ToolResult};
pub use names::{
    ISOMER_AUTHORING_GUIDE_URI, ISOMER_COMPOSE_PROMPT, ISOMER_COMPOSITION_SCHEMA_URI,
    ISOMER_TOOL_NAMES, IsomerToolNames,
};
pub use options::{DEFAULT_MAX_FINDINGS, IsomerGuideOptions, IsomerToolsOptions};
pub use prompts::{IsomerPrompt, PromptArgument, PromptBuild, create_isomer_prompts};
pub use resources::{IsomerResource, ResourceRead, create_isomer_resources};
pub use runtime::{
    ParseOutcome, RenderedFormat, RuntimeFailure, RuntimeFormat, ToolsRenderOptions, ToolsRuntime,
    ValidationOutcome, ViewRequestError,
};
pub use tools::create_isomer_tools;
