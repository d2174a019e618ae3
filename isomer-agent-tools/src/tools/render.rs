//! `isomer_render`: upstream's tool that validates a composition and renders
//! the checked copy in one format.

use std::sync::Arc;

use isomer_evals_macros::isomer_tool;
use isomer_sdk::composition::Theme;
use isomer_sdk::{Document, Tool, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{ToolsContext, failure};
use crate::format::{HostRenderOptions, format_result};
use crate::runtime::{RenderedFormat, RuntimeFormat, ToolsRenderOptions};

/// The composition, the format, and an optional theme.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct RenderInput {
    /// A composition: `{ "type": "view", "body": [...] }`. Before writing one, read isomer_authoring_guide for the primitives and isomer_describe_primitives for each one's schema.
    composition: Map<String, Value>,
    /// The output format.
    format: String,
    /// The colour theme; without it, the composition's own theme applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "theme_schema")]
    theme: Option<String>,
}

/// `{"type":"string","enum":["auto","light","dark"]}`: an optional field
/// rather than a nullable one.
fn theme_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": ["auto", "light", "dark"] })
}

/// Validates a composition, then renders the checked copy in one format. An invalid composition is not rendered: its errors come back instead.
#[isomer_tool(title = "Render a composition")]
pub(crate) async fn isomer_render(context: Arc<ToolsContext>, input: RenderInput) -> ToolResult {
    // The model's value may nest far past the budget: whatever path returns, it is dropped
    // without recursion (what is rendered is the checked copy, within the budget). It is
    // checked as one document, moved from step to step, never copied.
    let composition = Document::new(Value::Object(input.composition));
    let host = context
        .formats
        .iter()
        .find(|(name, _)| *name == input.format);
    let runtime_format = RuntimeFormat::from_name(&input.format);
    if host.is_none() && runtime_format.is_none() {
        return ToolResult::error(format!("The {} format is not available.", input.format));
    }
    let theme = match input
        .theme
        .as_deref()
        .map(|name| (name, Theme::parse(name)))
    {
        None => None,
        Some((_, Some(theme))) => Some(theme),
        Some((name, None)) => {
            return ToolResult::error(format!(
                "theme must be one of: auto, light, dark; got {}.",
                isomer_sdk::js_parity::quote_text(name)
            ));
        }
    };
    let check = match context.check(composition) {
        Ok(check) => check,
        Err(error) => return failure(&error),
    };
    let composition = match check.composition {
        Some(composition) if check.valid => composition,
        _ => return ToolResult::json_error(&json!({ "valid": false, "errors": check.errors })),
    };
    if let Some(format) = runtime_format {
        let options = ToolsRenderOptions {
            heading: context.heading,
            theme,
        };
        return match context
            .runtime
            .render(format, Document::new(composition), &options)
        {
            Ok(RenderedFormat::Text(text)) => ToolResult::text(text),
            Ok(RenderedFormat::Json(value)) => ToolResult::json(&value),
            Err(error) => failure(&error),
        };
    }
    let Some((name, format)) = host else {
        return ToolResult::error(format!("The {} format is not available.", input.format));
    };
    let options = HostRenderOptions { theme };
    match (format.render)(composition, options).await {
        Ok(output) => format_result(name, &format.mime_type, output),
        Err(error) => failure(&error),
    }
}

/// The description names every offered format.
fn description(format_names: &[String]) -> String {
    let list = format_names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "Validates a composition, then renders the checked copy in one format from the list {list}. \
         An invalid composition is not rendered: its errors come back instead."
    )
}

/// The render tool with its description and `format` enum naming the
/// formats offered: the runtime's four, then the host's.
pub(crate) fn render_tool(context: Arc<ToolsContext>) -> Tool {
    let format_names = context.format_names.clone();
    let mut tool = isomer_render_tool(context);
    tool.description = description(&format_names);
    if let Some(format) = tool.input_schema.pointer_mut("/properties/format") {
        format["enum"] = json!(format_names);
    }
    tool
}
