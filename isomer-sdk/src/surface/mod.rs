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
//! [`text`], [`markdown`], [`html`], [`slack`] and are reached through the
//! runtime's render methods.

pub mod html;
pub mod markdown;
pub mod slack;
pub mod snapshot;
pub mod text;

use std::cell::RefCell;

use serde_json::Value;

pub use html::Html;
pub use markdown::{Inline, Markdown, escape_html, escape_markdown_text, escape_mrkdwn};

use crate::composition::is_visible_on_surface;
use crate::primitive::TypedSlot;
use crate::runtime::inventory::Inventory;
use crate::validate::Visits;
use crate::walk::{ChildRef, ChildWalker};

/// The surfaces a runtime renders, in the order capabilities list them.
pub const RUNTIME_SURFACES: [&str; 4] = ["html", "text", "markdown", "slack"];

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
    pub(crate) inventory: &'r Inventory,
    /// The pass the composition went through, if any.
    visits: Option<&'r Visits<'r>>,
    /// The visit whose renderer holds this scope (`None` at the body).
    at: Option<usize>,
}

impl<'r> Scope<'r> {
    /// A scope with no pass: every node is deserialized when rendered.
    pub(crate) fn new(inventory: &'r Inventory) -> Self {
        Scope {
            inventory,
            visits: None,
            at: None,
        }
    }

    /// The scope of the body of a composition that went through `visits`.
    pub(crate) fn in_pass(inventory: &'r Inventory, visits: &'r Visits<'r>) -> Self {
        Scope {
            inventory,
            visits: Some(visits),
            at: None,
        }
    }

    /// Calls `render` with the typed-form slot of `node` and the scope its
    /// renderer gets: the pass's slot when the pass visited `node` here, a
    /// fresh one otherwise.
    fn with_node<R>(
        &self,
        node: &Value,
        render: impl FnOnce(&RefCell<TypedSlot>, &Scope<'r>) -> R,
    ) -> R {
        let found = self
            .visits
            .and_then(|visits| Some((visits, visits.find_child(self.at, node)?)));
        match found {
            Some((visits, at)) => render(
                visits.slot(at),
                &Scope {
                    inventory: self.inventory,
                    visits: Some(visits),
                    at: Some(at),
                },
            ),
            None => render(&RefCell::new(TypedSlot::Empty), &Scope::new(self.inventory)),
        }
    }

    /// The node's text; `""` when it is hidden from `text`, unknown or
    /// dropped by `sanitize`.
    pub fn text(&self, node: &Value) -> String {
        match self.visible(node, "text") {
            Some(primitive) => self.with_node(node, |slot, scope| {
                primitive.inner.erased.text(node, slot, scope)
            }),
            None => String::new(),
        }
    }

    /// The node's Markdown; empty when hidden from `markdown`, unknown or
    /// dropped.
    pub fn markdown(&self, node: &Value) -> Markdown {
        match self.visible(node, "markdown") {
            Some(primitive) => self.with_node(node, |slot, scope| {
                primitive.inner.erased.markdown(node, slot, scope)
            }),
            None => Markdown::new(),
        }
    }

    /// The node's HTML (its own renderer, else its Markdown converted);
    /// empty when hidden from `react`, unknown or dropped.
    pub fn html(&self, node: &Value) -> Html {
        let Some(primitive) = self.visible(node, "react") else {
            return Html::new();
        };
        self.with_node(node, |slot, scope| {
            match primitive.inner.erased.html(node, slot, scope) {
                Some(html) => html,
                None => html::markdown_to_html(&primitive.inner.erased.markdown(node, slot, scope)),
            }
        })
    }

    /// The node's Block Kit blocks (its own renderer, else its Markdown
    /// converted); empty when hidden from `slack`, unknown or dropped.
    pub fn slack(&self, node: &Value) -> Vec<Value> {
        let Some(primitive) = self.visible(node, "slack") else {
            return Vec::new();
        };
        self.with_node(node, |slot, scope| {
            match primitive.inner.erased.slack(node, slot, scope) {
                Some(blocks) => blocks,
                None => {
                    slack::markdown_to_blocks(&primitive.inner.erased.markdown(node, slot, scope))
                }
            }
        })
    }

    /// The children of `node` through the runtime's walker (any pack).
    pub fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        self.inventory.children(node)
    }

    /// The texts of `nodes`, empty ones dropped, joined by `separator`
    /// (containers usually join with a blank line, `"\n\n"`).
    pub fn text_all<'a, I>(&self, nodes: I, separator: &str) -> String
    where
        I: IntoIterator<Item = &'a Value>,
    {
        nodes
            .into_iter()
            .map(|node| self.text(node))
            .filter(|text| !text.is_empty())
            .collect::<Vec<_>>()
            .join(separator)
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

    fn visible(&self, node: &Value, surface: &str) -> Option<&'r crate::Primitive> {
        if !is_visible_on_surface(node, surface) {
            return None;
        }
        self.inventory.for_node(node)
    }
}
