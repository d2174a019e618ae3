//! Rendering a composition on one [`Surface`]: the body's nodes through a
//! [`Scope`], in the surface's envelope (title, subtitle, joining), giving
//! the surface's [`Rendered`] output.

use serde::Serialize;
use serde_json::Value;

use crate::composition::Composition;
use crate::error::{IsomerError, ValidationError};
use crate::surface::html::{self, HtmlRender};
use crate::surface::options::{RenderOptions, ValidationMode};
use crate::surface::slack::{self, SlackRender};
use crate::surface::{Scope, text};

/// A surface of the runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Surface {
    /// Escaped HTML with a minimal stylesheet.
    Html,
    /// Plain text (what an answerability judge reads).
    Text,
    /// GitHub-flavoured Markdown.
    Markdown,
    /// Slack Block Kit.
    Slack,
}

impl Surface {
    /// Every surface, in capabilities order.
    pub const ALL: [Surface; 4] = [
        Surface::Html,
        Surface::Text,
        Surface::Markdown,
        Surface::Slack,
    ];

    /// The surface's name (`"text"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Surface::Html => "html",
            Surface::Text => "text",
            Surface::Markdown => "markdown",
            Surface::Slack => "slack",
        }
    }

    /// The surface a name denotes.
    ///
    /// # Errors
    /// [`IsomerError::UnknownSurface`] for any other name.
    pub fn parse(name: &str) -> Result<Surface, IsomerError> {
        Surface::ALL
            .into_iter()
            .find(|surface| surface.as_str() == name)
            .ok_or_else(|| IsomerError::UnknownSurface {
                name: name.to_owned(),
            })
    }

    /// The mode a render applies when its options name none: `Collect` for
    /// `html`, `Throw` for the others.
    pub(crate) fn default_mode(self) -> ValidationMode {
        match self {
            Surface::Html => ValidationMode::Collect,
            _ => ValidationMode::Throw,
        }
    }
}

/// One surface's output.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Rendered {
    /// Text surface output.
    Text(String),
    /// Markdown surface output.
    Markdown(String),
    /// HTML surface output.
    Html(HtmlRender),
    /// Slack surface output.
    Slack(SlackRender),
}

impl Rendered {
    /// The output as one string: text or Markdown as is, the HTML markup,
    /// the Slack payload `{ text, blocks }` as compact JSON.
    pub fn to_text(&self) -> String {
        match self {
            Rendered::Text(text) | Rendered::Markdown(text) => text.clone(),
            Rendered::Html(html) => html.html.clone(),
            Rendered::Slack(slack) => {
                crate::js::compact_json(&serde_json::to_value(slack).unwrap_or(Value::Null))
            }
        }
    }
}

/// Renders `view` on `surface` through `scope`; `errors` are the findings
/// the HTML surface reports (a `Collect`-mode render of an invalid one).
pub(crate) fn render_body(
    scope: Scope<'_>,
    surface: Surface,
    view: &Value,
    options: &RenderOptions,
    errors: Vec<ValidationError>,
) -> Rendered {
    let body = Composition::from_value(view).map_or(&[][..], |root| root.body());
    match surface {
        Surface::Text => Rendered::Text(text::envelope(
            view,
            options.heading,
            body.iter().map(|node| scope.text(node)).collect(),
        )),
        Surface::Markdown => Rendered::Markdown(text::markdown_envelope(
            view,
            options.heading,
            body.iter().map(|node| scope.markdown(node)).collect(),
        )),
        Surface::Html => Rendered::Html(html::render(
            view,
            options,
            body.iter().map(|node| scope.html(node)).collect(),
            errors,
        )),
        Surface::Slack => {
            let text = text::envelope(
                view,
                options.heading,
                body.iter().map(|node| scope.text(node)).collect(),
            );
            Rendered::Slack(slack::envelope(
                view,
                options.heading,
                body.iter().flat_map(|node| scope.slack(node)).collect(),
                text,
            ))
        }
    }
}
