//! The runtime's dispatcher: what a [`Scope`] renders through. It looks a
//! node's primitive up in the [`Inventory`], matches the node with the
//! checked pass's visit to reuse the typed form the pass made (a node is
//! deserialized at most once per pass), calls the primitive's renderer with
//! a scope of the node's own, and applies the fallbacks: no `html` renderer
//! → the node's Markdown converted to HTML; no `slack` renderer → the
//! node's Markdown converted to Block Kit. Visibility is the scope's to
//! check, before a node reaches here.

use std::cell::RefCell;

use serde_json::Value;

use crate::inventory::Inventory;
use crate::primitive::{ErasedPrimitive, HeldNode, NodeSource, TypedSlot};
use crate::surface::html::markdown_to_html;
use crate::surface::slack::markdown_to_blocks;
use crate::surface::{ChildRenderer, Html, Markdown, Scope};
use crate::validate::Visits;
use crate::walk::{ChildRef, ChildWalker};

/// Renders nodes of any registered type, at one place of a render: the
/// body, or inside the visit whose renderer holds the scope.
pub(crate) struct Dispatch<'r> {
    inventory: &'r Inventory,
    /// The pass the composition went through, if any.
    visits: Option<&'r Visits<'r>>,
    /// The visit whose renderer holds this scope (`None` at the body).
    at: Option<usize>,
}

impl<'r> Dispatch<'r> {
    /// A dispatcher with no pass: every node is deserialized when rendered.
    pub(crate) fn new(inventory: &'r Inventory) -> Self {
        Dispatch {
            inventory,
            visits: None,
            at: None,
        }
    }

    /// The dispatcher of the body of a composition that went through
    /// `visits`.
    pub(crate) fn in_pass(inventory: &'r Inventory, visits: &'r Visits<'r>) -> Self {
        Dispatch {
            inventory,
            visits: Some(visits),
            at: None,
        }
    }

    /// Calls `render` with the primitive of `node`, the node as the render
    /// holds it and the scope its renderer gets: the pass's visit and its
    /// slot when the pass visited `node` here (equal content counts), a
    /// fresh slot otherwise. The default output for a node of an
    /// unregistered type.
    fn render<R: Default>(
        &self,
        node: &Value,
        render: impl FnOnce(&dyn ErasedPrimitive, HeldNode<'_>, &Scope<'_>) -> R,
    ) -> R {
        let Some(primitive) = self.inventory.for_node(node) else {
            return R::default();
        };
        let erased = &*primitive.inner.erased;
        let found = self
            .visits
            .and_then(|visits| Some((visits, visits.find_child(self.at, node)?)));
        match found {
            Some((visits, at)) => {
                let inside = Dispatch {
                    inventory: self.inventory,
                    visits: Some(visits),
                    at: Some(at),
                };
                let held = HeldNode {
                    source: visits.source(at),
                    slot: visits.slot(at),
                };
                render(erased, held, &Scope::new(&inside))
            }
            None => {
                let slot = RefCell::new(TypedSlot::Empty);
                let held = HeldNode {
                    source: NodeSource::new(node),
                    slot: &slot,
                };
                render(erased, held, &Scope::new(&Dispatch::new(self.inventory)))
            }
        }
    }
}

impl ChildRenderer for Dispatch<'_> {
    fn text(&self, node: &Value) -> String {
        self.render(node, |primitive, held, scope| primitive.text(held, scope))
    }

    fn markdown(&self, node: &Value) -> Markdown {
        self.render(node, |primitive, held, scope| {
            primitive.markdown(held, scope)
        })
    }

    fn html(&self, node: &Value) -> Html {
        self.render(node, |primitive, held, scope| {
            match primitive.html(held, scope) {
                Some(html) => html,
                None => markdown_to_html(&primitive.markdown(held, scope)),
            }
        })
    }

    fn slack(&self, node: &Value) -> Vec<Value> {
        self.render(node, |primitive, held, scope| {
            match primitive.slack(held, scope) {
                Some(blocks) => blocks,
                None => markdown_to_blocks(&primitive.markdown(held, scope)),
            }
        })
    }

    fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        self.inventory.children(node)
    }
}
