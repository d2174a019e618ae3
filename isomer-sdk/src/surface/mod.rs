//! Rendering surfaces: `text`, `markdown`, `html`, `slack`, and `snapshot`
//! (the `html` surface laid out on a frame's page, for rasterizers).
//!
//! A primitive's renderer receives its typed node and a [`Scope`], the
//! dispatcher through which containers render children of any pack
//! (`scope.text(child)`, `scope.markdown(child)`, …). The dispatcher
//! - renders nothing for a node hidden from the surface (its `surfaces`
//!   omits it; `html` follows `react` visibility);
//! - renders nothing for a node of a type no pack registers (cannot happen
//!   after validation; upstream throws `UNKNOWN_PRIMITIVE_TYPE` here);
//! - renders nothing when the primitive's `sanitize` drops the node, or
//!   when the node does not deserialize into the primitive's Rust type
//!   (only possible for an invalid composition rendered in `Collect` mode);
//! - otherwise calls the primitive's renderer, with these fallbacks: no
//!   `html` renderer → the node's Markdown converted to HTML; no `slack`
//!   renderer → the node's Markdown converted to Block Kit (the capability
//!   is reported as `fallback`).
//!
//! The composition envelopes (title, subtitle, joining) live in
//! `text` (internal), [`markdown`], [`html`], [`slack`] and are reached through the
//! runtime's render methods.

pub mod html;
pub mod markdown;
pub(crate) mod options;
pub(crate) mod render;
pub mod slack;
pub mod snapshot;
pub(crate) mod text;

use serde_json::Value;

pub use html::Html;
pub use markdown::{Inline, Markdown, escape_mrkdwn};

use crate::composition::is_visible_on_surface;
use crate::walk::ChildRef;

/// The surfaces a runtime renders, in the order capabilities list them.
pub(crate) const RUNTIME_SURFACES: [&str; 4] = ["html", "text", "markdown", "slack"];

/// What a [`Scope`] renders through: one node, already found visible on
/// the surface, rendered by its registered primitive (with the `html` and
/// `slack` fallbacks), and a node's children. The runtime's dispatcher is
/// the implementation; it gives each renderer it calls a scope of its own.
pub(crate) trait ChildRenderer {
    /// The node's text; `""` when its type is unknown or it is dropped.
    fn text(&self, node: &Value) -> String;
    /// The node's Markdown; empty when unknown or dropped.
    fn markdown(&self, node: &Value) -> Markdown;
    /// The node's HTML, or its Markdown converted; empty when unknown or
    /// dropped.
    fn html(&self, node: &Value) -> Html;
    /// The node's Block Kit blocks, or its Markdown converted; empty when
    /// unknown or dropped.
    fn slack(&self, node: &Value) -> Vec<Value>;
    /// The children of `node` through its primitive's child hook (none for
    /// an unknown type).
    fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>>;
}

/// The dispatcher a renderer recurses through: renders any registered node
/// on one of the string surfaces, whatever pack declared it.
///
/// Inside a runtime render, the scope knows the checked pass the
/// composition went through: a child handed to it is matched with the node
/// the pass visited (the same value), and rendered from the typed form the
/// pass made for it (by its refinements, or by an earlier surface), so no
/// node is deserialized twice. A value the pass did not visit is
/// deserialized on the spot.
#[derive(Clone, Copy)]
pub struct Scope<'r> {
    /// Renders the visible nodes and lists children.
    renderer: &'r dyn ChildRenderer,
}

impl<'r> Scope<'r> {
    /// The scope that renders through `renderer`.
    pub(crate) fn new(renderer: &'r dyn ChildRenderer) -> Self {
        Scope { renderer }
    }

    /// The node's text; `""` when it is hidden from `text`, unknown or
    /// dropped by `sanitize`.
    pub fn text(&self, node: &Value) -> String {
        if is_visible_on_surface(node, "text") {
            self.renderer.text(node)
        } else {
            String::new()
        }
    }

    /// The node's Markdown; empty when hidden from `markdown`, unknown or
    /// dropped.
    pub fn markdown(&self, node: &Value) -> Markdown {
        if is_visible_on_surface(node, "markdown") {
            self.renderer.markdown(node)
        } else {
            Markdown::new()
        }
    }

    /// The node's HTML (its own renderer, else its Markdown converted);
    /// empty when hidden from `react`, unknown or dropped.
    pub fn html(&self, node: &Value) -> Html {
        if is_visible_on_surface(node, "react") {
            self.renderer.html(node)
        } else {
            Html::new()
        }
    }

    /// The node's Block Kit blocks (its own renderer, else its Markdown
    /// converted); empty when hidden from `slack`, unknown or dropped.
    pub fn slack(&self, node: &Value) -> Vec<Value> {
        if is_visible_on_surface(node, "slack") {
            self.renderer.slack(node)
        } else {
            Vec::new()
        }
    }

    /// The children of `node` through the runtime's walker (any pack).
    pub fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        self.renderer.children(node)
    }

    /// The texts of `nodes`, empty ones dropped, joined by `separator`
    /// (containers usually join with a blank line, `"\n\n"`).
    pub fn text_all<'a, I>(&self, nodes: I, separator: &str) -> String
    where
        I: IntoIterator<Item = &'a Value>,
    {
        let mut out = String::new();
        for text in nodes.into_iter().map(|node| self.text(node)) {
            if text.is_empty() {
                continue;
            }
            if out.is_empty() {
                // The first text becomes the result; nothing is copied.
                out = text;
            } else {
                out.push_str(separator);
                out.push_str(&text);
            }
        }
        out
    }

    /// The Markdown of `nodes`, concatenated (empty ones add nothing).
    pub fn markdown_all<'a, I>(&self, nodes: I) -> Markdown
    where
        I: IntoIterator<Item = &'a Value>,
    {
        Markdown::concat(nodes.into_iter().map(|node| self.markdown(node)))
    }

    /// The HTML of `nodes`, concatenated.
    pub fn html_all<'a, I>(&self, nodes: I) -> Html
    where
        I: IntoIterator<Item = &'a Value>,
    {
        Html::concat(nodes.into_iter().map(|node| self.html(node)))
    }

    /// The blocks of `nodes`, concatenated.
    pub fn slack_all<'a, I>(&self, nodes: I) -> Vec<Value>
    where
        I: IntoIterator<Item = &'a Value>,
    {
        nodes
            .into_iter()
            .flat_map(|node| self.slack(node))
            .collect()
    }
}
