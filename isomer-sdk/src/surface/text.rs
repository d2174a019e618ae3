//! The `text` envelope: with `heading`, the title upper-cased and
//! the subtitle first; then each body node's text; empty entries dropped;
//! joined by a blank line.

use serde_json::Value;

use crate::composition::Composition;

/// Joins the envelope. `body` holds each body node's text, in order.
pub(crate) fn envelope(composition: &Value, heading: bool, body: Vec<String>) -> String {
    let mut parts: Vec<String> = Vec::new();
    if heading && let Some(view) = Composition::from_value(composition) {
        if let Some(title) = view.title() {
            parts.push(title.to_uppercase());
        }
        if let Some(subtitle) = view.subtitle() {
            parts.push(subtitle.to_owned());
        }
    }
    parts.extend(body);
    parts.retain(|part| !part.is_empty());
    parts.join("\n\n")
}

/// The `markdown` envelope: with `heading`,
/// `# <title>` and `_<subtitle>_` (both escaped); then each node's Markdown;
/// empty outputs dropped; joined by a blank line.
pub(crate) fn markdown_envelope(
    composition: &Value,
    heading: bool,
    body: Vec<crate::surface::Markdown>,
) -> String {
    use crate::surface::{Inline, Markdown};
    let mut out = Markdown::new();
    if heading && let Some(view) = Composition::from_value(composition) {
        if let Some(title) = view.title() {
            out.push(Markdown::heading(1, title));
        }
        if let Some(subtitle) = view.subtitle() {
            out.push(Markdown::paragraph(Inline::emphasis(subtitle)));
        }
    }
    for part in body {
        out.push(part);
    }
    out.to_markdown()
}
