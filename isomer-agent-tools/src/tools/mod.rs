//! [`create_isomer_tools`]: the six tools, one file each, sharing one
//! [`ToolsContext`] built at creation.

mod authoring_guide;
mod describe_primitives;
mod list_views;
mod render;
mod request_view;
mod validate;

use std::sync::Arc;

use isomer_sdk::{Document, IsomerError};

use crate::check::{CompositionCheck, ToolsFrame, cap_findings, check_composition};
use crate::format::{HostFormat, check_host_format_names, order_host_formats};
use crate::options::{IsomerGuideOptions, IsomerToolsOptions};
use crate::runtime::{BoundRuntime, ErasedRuntime, RuntimeFormat, ToolsRuntime};
use isomer_sdk::tool::ToolAnnotations;
use isomer_sdk::{Tool, ToolResult};

/// What every tool handler reads: the runtime with its host context bound,
/// the guide options, the frame, the host formats and the offered format
/// names, fixed when the tools are created.
pub(crate) struct ToolsContext {
    pub(crate) runtime: Arc<ErasedRuntime>,
    pub(crate) guide: IsomerGuideOptions<ErasedRuntime>,
    pub(crate) frame: Option<Arc<dyn ToolsFrame>>,
    pub(crate) formats: Vec<(String, HostFormat)>,
    pub(crate) format_names: Vec<String>,
    pub(crate) heading: bool,
    pub(crate) max_findings: usize,
}

impl ToolsContext {
    /// [`check_composition`] with this context's runtime and frame, its
    /// printed `errors` and `warnings` capped at `max_findings` each
    /// ([`cap_findings`]).
    pub(crate) fn check(
        &self,
        composition: impl Into<Document>,
    ) -> Result<CompositionCheck, crate::RuntimeFailure> {
        let mut check = check_composition(&*self.runtime, self.frame.as_deref(), composition)?;
        check.errors = self.cap_errors(std::mem::take(&mut check.errors));
        check.warnings = cap_findings(
            std::mem::take(&mut check.warnings),
            self.max_findings,
            "warnings",
        );
        Ok(check)
    }

    /// Printed errors capped at `max_findings` ([`cap_findings`]).
    pub(crate) fn cap_errors(&self, errors: Vec<String>) -> Vec<String> {
        cap_findings(errors, self.max_findings, "errors")
    }
}

/// The hints of every agent tool: it reads the runtime and the host's
/// formats and views and changes nothing, so a call can be repeated, and it
/// reaches nothing outside them.
pub(crate) fn read_only(tool: Tool) -> Tool {
    let title = tool.title.clone().unwrap_or_else(|| tool.name.clone());
    tool.with_annotations(ToolAnnotations::read_only(title))
}

/// A runtime failure as a failed call with the error's message (upstream:
/// the handler guard's `textResult(errorMessage(e), true)`).
pub(crate) fn failure(error: &dyn std::fmt::Display) -> ToolResult {
    ToolResult::error(error.to_string())
}

/// Turns a runtime into agent tools (upstream `createIsomerTools`):
/// `isomer_authoring_guide`, `isomer_describe_primitives`,
/// `isomer_validate`, `isomer_render`, then `isomer_list_views` and
/// `isomer_request_view` only when the runtime lists at least one view now
/// (views registered later get no view tools; the guide still lists them).
///
/// Host formats are offered after `text, markdown, html, slack`, in
/// JavaScript object-key order (see [`IsomerToolsOptions::formats`]).
///
/// # Errors
/// `DUPLICATE_FORMAT` when a host format is named `text`, `markdown`,
/// `html` or `slack`; every such name is listed.
pub fn create_isomer_tools<R>(options: IsomerToolsOptions<R>) -> Result<Vec<Tool>, IsomerError>
where
    R: ToolsRuntime + ?Sized + 'static,
    R::HostContext: 'static,
{
    let formats = order_host_formats(&options.formats);
    check_host_format_names(formats.iter().map(|(name, _)| name.as_str()))?;
    let format_names: Vec<String> = RuntimeFormat::ALL
        .iter()
        .map(|format| format.as_str().to_owned())
        .chain(formats.iter().map(|(name, _)| name.clone()))
        .collect();
    let IsomerToolsOptions {
        authoring,
        frame,
        heading,
        host_context,
        max_findings,
        ..
    } = options;
    let runtime: Arc<ErasedRuntime> = Arc::new(BoundRuntime {
        runtime: Arc::clone(&authoring.runtime),
        host_context,
    });
    let has_views = !runtime.list_views().is_empty();
    let context = Arc::new(ToolsContext {
        guide: IsomerGuideOptions {
            runtime: Arc::clone(&runtime),
            guide: authoring.guide,
            rules: authoring.rules,
            examples: authoring.examples,
            profile: authoring.profile,
        },
        runtime,
        frame,
        formats,
        format_names,
        heading,
        max_findings,
    });
    let mut tools = vec![
        authoring_guide::isomer_authoring_guide_tool(Arc::clone(&context)),
        describe_primitives::isomer_describe_primitives_tool(Arc::clone(&context)),
        validate::isomer_validate_tool(Arc::clone(&context)),
        render::render_tool(Arc::clone(&context)),
    ];
    if has_views {
        tools.push(list_views::list_views_tool(Arc::clone(&context)));
        tools.push(request_view::isomer_request_view_tool(context));
    }
    Ok(tools.into_iter().map(read_only).collect())
}
