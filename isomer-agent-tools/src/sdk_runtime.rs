//! [`ToolsRuntime`] for the sdk's [`Runtime`], and [`ToolsFrame`] for its
//! [`Frame`]: what lets a host hand a real runtime to the tools.
//!
//! The mapping onto upstream's `IsomerToolsRuntime`:
//! - `authoring_context`, `describe_primitives`, `parse`, `validate` and
//!   `list_views` are the runtime's own;
//! - `render` calls the text, markdown, html and slack surfaces with
//!   `heading`; a `theme` override is applied to the copy the tools render
//!   (its root `theme`), which the html surface prints as `data-theme`; text,
//!   markdown and slack ignore it, as upstream. The html answer is the
//!   markup with its `<style>` inline; the slack answer is the
//!   `{ text, blocks }` object;
//! - `request_view` awaits the runtime's request with a clone of the host
//!   context; `VIEW_INPUT_INVALID` becomes [`ViewRequestError::Findings`]
//!   (its message's first line is `Invalid input for view "<id>":`), any other
//!   error [`ViewRequestError::Other`].

use futures::FutureExt as _;
use futures::future::BoxFuture;
use isomer_sdk::{
    AuthoringContext, Document, Frame, IsomerError, PrimitiveDescriptions, Rendered, Runtime,
    Surface, ViewSummary,
};
use serde_json::Value;

use crate::check::ToolsFrame;
use crate::runtime::{
    ParseOutcome, RenderedFormat, RuntimeFailure, RuntimeFormat, ToolsRenderOptions, ToolsRuntime,
    ValidationOutcome, ViewRequestError,
};

impl<C> ToolsRuntime for Runtime<C>
where
    C: Clone + Send + Sync + 'static,
{
    type HostContext = C;

    fn authoring_context(&self) -> Result<AuthoringContext, RuntimeFailure> {
        Ok(Runtime::authoring_context(self))
    }

    fn describe_primitives(
        &self,
        types: &[String],
    ) -> Result<PrimitiveDescriptions, RuntimeFailure> {
        let types: Vec<&str> = types.iter().map(String::as_str).collect();
        Ok(Runtime::describe_primitives(self, &types)?)
    }

    fn parse(&self, composition: Document) -> Result<ParseOutcome, RuntimeFailure> {
        let parsed = Runtime::parse(self, composition);
        Ok(ParseOutcome {
            valid: parsed.valid,
            errors: parsed.errors,
            composition: parsed.composition,
        })
    }

    fn validate(&self, composition: Document) -> Result<ValidationOutcome, RuntimeFailure> {
        let checked = Runtime::validate(self, composition);
        Ok(ValidationOutcome {
            valid: checked.valid,
            errors: checked.errors,
            warnings: checked.warnings,
            composition: checked.composition,
        })
    }

    fn render(
        &self,
        format: RuntimeFormat,
        composition: Document,
        options: &ToolsRenderOptions,
    ) -> Result<RenderedFormat, RuntimeFailure> {
        let surface = match format {
            RuntimeFormat::Text => Surface::Text,
            RuntimeFormat::Markdown => Surface::Markdown,
            RuntimeFormat::Html => Surface::Html,
            RuntimeFormat::Slack => Surface::Slack,
        };
        let composition = match (format, options.theme) {
            (RuntimeFormat::Html, Some(theme)) => {
                // The value itself when nothing else holds it, else a copy.
                let mut themed = composition.into_value().into_inner();
                if let Value::Object(root) = &mut themed {
                    root.insert("theme".to_owned(), Value::from(theme.as_str()));
                }
                Document::new(themed)
            }
            _ => composition,
        };
        let render_options = isomer_sdk::RenderOptions {
            heading: options.heading,
            ..isomer_sdk::RenderOptions::default()
        };
        Ok(
            match Runtime::render(self, surface, composition, &render_options)? {
                Rendered::Text(text) | Rendered::Markdown(text) => RenderedFormat::Text(text),
                Rendered::Html(html) => RenderedFormat::Text(html.html),
                Rendered::Slack(slack) => RenderedFormat::Json(serde_json::to_value(slack)?),
            },
        )
    }

    fn list_views(&self) -> Vec<ViewSummary> {
        Runtime::list_views(self)
    }

    fn request_view<'a>(
        &'a self,
        id: &'a str,
        host_context: &'a C,
        input: Option<Value>,
    ) -> BoxFuture<'a, Result<Value, ViewRequestError>> {
        let input = input.unwrap_or_else(|| Value::Object(Default::default()));
        async move {
            match Runtime::request_view(self, id, host_context.clone(), input).await {
                Ok(response) => Ok(response.composition),
                Err(error) => {
                    let message = error.to_string();
                    Err(match error {
                        IsomerError::ViewInputInvalid { errors, .. } => {
                            ViewRequestError::Findings { message, errors }
                        }
                        other => ViewRequestError::Other(Box::new(other)),
                    })
                }
            }
        }
        .boxed()
    }
}

impl ToolsFrame for Frame {
    fn validate_body(&self, body: &[Value]) -> Vec<String> {
        Frame::validate_body(self, body)
    }
}
