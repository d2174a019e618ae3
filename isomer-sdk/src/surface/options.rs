//! What a composition render is asked for: [`RenderOptions`], and the
//! [`ValidationMode`] a validating surface applies to an invalid
//! composition.

use serde::Serialize;

use crate::composition::Theme;

/// What a validating surface does with an invalid composition (upstream
/// `onValidationError`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ValidationMode {
    /// Refuse with [`CompositionValidationError`](crate::CompositionValidationError) (default of `text`,
    /// `markdown`, `slack`).
    Throw,
    /// Render the checked copy anyway (default of `html`). Input-budget
    /// refusals still refuse.
    Collect,
}

/// Options of a composition render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// Print the title and subtitle first (default true; slides hosts pass
    /// false because a slide carries its own heading).
    pub heading: bool,
    /// What to do with an invalid composition; `None` is the surface's
    /// default (`Collect` for `html`, `Throw` for the others).
    pub on_validation_error: Option<ValidationMode>,
    /// The `html` surface's theme (upstream `html.render(c, { theme })`):
    /// when given it overrides the composition's own `theme` in
    /// `data-theme`; `None` keeps the composition's (`auto` when it has
    /// none). Text, Markdown and Slack ignore it (upstream passes
    /// `theme` to html only).
    pub theme: Option<Theme>,
    /// `html` only (upstream `framed`, default true, as upstream's
    /// `renderHTMLWithDispatcher` and `wrapCompositionContent`): the section gets the
    /// class `framed` (`class="isomer framed"`) and the stylesheet the rule
    /// [`HTML_FRAMED_CSS`](crate::surface::html::HTML_FRAMED_CSS) (border,
    /// rounded corners, padding).
    pub framed: bool,
    /// `html` only (upstream `fluid`, default false): the section gets the
    /// class `fluid` (after `framed` when both are on) and the stylesheet
    /// the rule [`HTML_FLUID_CSS`](crate::surface::html::HTML_FLUID_CSS)
    /// (full container width, no max width).
    pub fluid: bool,
    /// `html` only (upstream `minify`, default false): drop the formatting
    /// newlines renderers put between tags ([`Html::newline`](crate::Html::newline));
    /// text content and `pre` contents keep every character. The envelope
    /// and the stylesheet hold no optional whitespace, so they are the same
    /// either way.
    pub minify: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            heading: true,
            on_validation_error: None,
            theme: None,
            framed: true,
            fluid: false,
            minify: false,
        }
    }
}
