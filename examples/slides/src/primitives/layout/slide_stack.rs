//! `slideStack`: nodes stacked in a slot that takes one node. Its children
//! are `items[i]`.

use isomer_sdk::surface::{Html, Markdown, Scope};
use isomer_sdk::{Node, RefineContext};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::check::{Issue, nested_frames};
use crate::html::classed;
use crate::primitives::SlideNode;

/// The space between stacked nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum StackSpacing {
    /// 24 px.
    Tight,
    /// 48 px (the default).
    Normal,
    /// 72 px.
    Loose,
}

impl StackSpacing {
    /// The class of the spacing: `slide-stack-tight`, `-normal` or `-loose`.
    fn class(self) -> &'static str {
        match self {
            StackSpacing::Tight => "slide-stack slide-stack-tight",
            StackSpacing::Normal => "slide-stack slide-stack-normal",
            StackSpacing::Loose => "slide-stack slide-stack-loose",
        }
    }
}

slide_node! {
    catalog "slideStack" in "Layout" {
        purpose: "Several nodes stacked top to bottom where a slot takes only one node.",
        use_when: [
            "A one-node slot, such as the aside of slideTitle, needs two nodes.",
            "Nodes need tighter or looser spacing than the default.",
        ],
        avoid_when: [
            "Directly in a slideFrame body or a slideSplit pane: they already stack their nodes.",
            "Nodes side by side: use slideSplit.",
        ],
        example: {
            "type": "slideStack",
            "spacing": "tight",
            "items": [
                { "type": "slideStat", "value": "99.9", "unit": "%", "body": "of refunds settle in the first batch" },
                { "type": "slideSource", "text": "Finance ops dashboard, Q1 2026" }
            ]
        },
    }

    /// The fields of a `slideStack` node.
    pub struct SlideStack {
        /// "tight", "normal" (default) or "loose".
        pub spacing: Option<StackSpacing>,
        /// The nodes, top to bottom (not slideFrame).
        #[schemars(length(min = 1))]
        pub items: Vec<Node>,
    }
}

impl SlideNode for SlideStack {
    /// No item is a frame.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        nested_frames("items", &self.items)
    }

    /// A stack draws nothing of its own.
    fn has_own_content(_node: &Value) -> Option<bool> {
        Some(false)
    }

    /// Text: the items, apart by blank lines.
    fn text(&self, scope: &Scope<'_>) -> String {
        scope.text_all(self.items.iter().map(Node::as_value), "\n\n")
    }

    /// Markdown: the items' blocks in order.
    fn markdown(&self, scope: &Scope<'_>) -> Markdown {
        scope.markdown_all(self.items.iter().map(Node::as_value))
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide-stack slide-stack-normal">` (or `-tight`,
    /// `-loose`) holding each item drawn by its own renderer, so a stat in
    /// a stack keeps its look.
    fn html(&self, scope: &Scope<'_>) -> Html {
        classed(
            "div",
            self.spacing.unwrap_or(StackSpacing::Normal).class(),
            scope.html_all(self.items.iter().map(Node::as_value)),
        )
    }

    /// A column with a 24, 48 or 72 px gap.
    const CSS: &'static str = include_str!("slide_stack.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: the items' blocks in order.
    fn slack(&self, scope: &Scope<'_>) -> Vec<Value> {
        scope.slack_all(self.items.iter().map(Node::as_value))
    }
}
