//! `slideGraph`: a small vocabulary and its arrows in a fixed layout, a
//! main row with at most one feeder above and one below
//! (group "Diagrams").

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::authored::{CURRENT_GLYPH, LineText, WrappedText};
use crate::check::{Issue, at_most_one};
use crate::html::marks_html;
use crate::list::{Entry, List};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{mark_runs, rich_list_under, text_mrkdwn};
use crate::text::{ARROW, join_blocks, line, plain_text};
use isomer_sdk::surface::slack::context;

/// The sentence every graph finding ends with: the one shape a graph may
/// take.
pub const SHAPE: &str = "A graph is a main row of 2–4 nodes without placement, joined left to right in array order, plus at most one node above and one below, each joined by one edge to a main node.";

/// Where a node sits off the main row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum Placement {
    /// Above the main row.
    Above,
    /// Below the main row.
    Below,
}

slide_node! {
    catalog "slideGraph" in "Diagrams" {
        purpose: "Two to six terms with definitions, joined by arrows in a fixed layout: a main row left to right, plus at most one feeder above and one below.",
        use_when: [
            "Introducing two to six concepts with a sentence each, where the arrows between them matter.",
            "A chain of terms with at most one extra term feeding it from above and one from below.",
        ],
        avoid_when: [
            "One thing reaching several targets: use slideFanout.",
            "Terms with no arrows between them: use slideDefinitions.",
            "Dated events: use slideTimeline.",
        ],
        example: {
            "type": "slideGraph",
            "nodes": [
                { "id": "order", "term": "Order", "body": "What the customer bought." },
                { "id": "refund", "term": "Refund", "body": "Money owed back for an order.", "emphasis": true },
                { "id": "payout", "term": "Payout", "body": "One bank transfer per batch." },
                { "id": "policy", "term": "Policy", "body": "Decides **how much** is refunded.", "placement": "above" }
            ],
            "edges": [["order", "refund"], ["refund", "payout"], ["policy", "refund"]],
            "caption": "A refund always starts from an order."
        },
    }

    /// The fields of a `slideGraph` node.
    pub struct SlideGraph sized {
        /// Two to six terms. The ones without placement form the main row, left
        /// to right in this order.
        #[schemars(length(min = 2, max = 6))]
        pub nodes: Vec<GraphNode>,
        /// One to five arrows, each `[from id, to id]`: one between each pair of
        /// neighbouring main-row nodes, one for each node above or below.
        #[schemars(length(min = 1, max = 5))]
        pub edges: Vec<[LineText; 2]>,
        /// A sentence under the graph. Accepts inline marks.
        pub caption: Option<WrappedText>,
    }

    /// One term of the vocabulary.
    pub struct GraphNode {
        /// The id edges use; never drawn.
        pub id: LineText,
        /// The term as drawn, a word or two.
        pub term: LineText,
        /// What the term means, one sentence. Accepts inline marks.
        pub body: WrappedText,
        /// True for the one term the slide is about; at most one node.
        pub emphasis: Option<bool>,
        /// "above" or "below" for a feeder off the main row; leave it out for
        /// a main-row node.
        pub placement: Option<Placement>,
    }
}

/// A finding ending with the [`SHAPE`] sentence.
fn shaped(path: impl Into<String>, message: &str) -> Issue {
    Issue::new(path, format!("{message}. {SHAPE}"))
}

impl SlideGraph {
    fn main_row(&self) -> Vec<&GraphNode> {
        self.nodes
            .iter()
            .filter(|n| n.placement.is_none())
            .collect()
    }

    /// The term of the node `id` names (the id itself if none does, which
    /// validation refuses).
    fn term(&self, id: &str) -> String {
        self.nodes
            .iter()
            .find(|n| n.id.as_str() == id)
            .map_or_else(|| line(id), |n| line(&n.term))
            .into_owned()
    }

    /// The nodes as a list: `[● ]term: body`, the emphasized node marked.
    fn list(&self) -> List {
        List::new(self.nodes.iter().map(|node| {
            let glyph = if node.emphasis == Some(true) {
                CURRENT_GLYPH
            } else {
                ""
            };
            Entry::pair(&node.term, ": ", Some(&node.body)).with_glyph(glyph)
        }))
    }

    /// Every edge by term, `A → B, C → D`.
    fn edges_line(&self) -> String {
        self.edges
            .iter()
            .map(|[from, to]| format!("{}{ARROW}{}", self.term(from), self.term(to)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The node-level rules: unique ids, 2–4 main nodes, at most one above
    /// and one below, at most one emphasized.
    fn check_nodes(&self, issues: &mut Vec<Issue>) {
        for (index, node) in self.nodes.iter().enumerate() {
            if self.nodes[..index].iter().any(|n| n.id == node.id) {
                issues.push(shaped(
                    format!("nodes[{index}].id"),
                    &format!("duplicate node id \"{}\"", node.id.as_str()),
                ));
            }
        }
        let main = self.main_row().len();
        if !(2..=4).contains(&main) {
            issues.push(shaped(
                "nodes",
                &format!("the main row needs 2 to 4 nodes without placement, got {main}"),
            ));
        }
        for (placement, word) in [(Placement::Above, "above"), (Placement::Below, "below")] {
            if self
                .nodes
                .iter()
                .filter(|n| n.placement == Some(placement))
                .count()
                > 1
            {
                issues.push(shaped("nodes", &format!("at most one node can sit {word}")));
            }
        }
        let emphasized = self.nodes.iter().map(|n| n.emphasis);
        issues.extend(
            at_most_one("nodes", emphasized, "at most one node can be emphasized")
                .into_iter()
                .map(|issue| shaped(issue.path, &issue.message)),
        );
    }

    /// The edge rules: known ids, no repeats, the main chain complete, each
    /// feeder joined once to a main node, nothing else.
    fn check_edges(&self, issues: &mut Vec<Issue>) {
        let find = |id: &str| self.nodes.iter().find(|n| n.id.as_str() == id);
        let main = self.main_row();
        let is_main = |id: &str| main.iter().any(|n| n.id.as_str() == id);
        for (index, [from, to]) in self.edges.iter().enumerate() {
            let path = format!("edges[{index}]");
            if let Some(unknown) = [from, to].into_iter().find(|id| find(id).is_none()) {
                issues.push(shaped(
                    path,
                    &format!("edge names unknown node \"{}\"", unknown.as_str()),
                ));
                continue;
            }
            if self.edges[..index]
                .iter()
                .any(|e| e == &[from.clone(), to.clone()])
            {
                issues.push(shaped(
                    path,
                    &format!("repeated edge \"{}\" → \"{}\"", from.as_str(), to.as_str()),
                ));
                continue;
            }
            let chain = main
                .windows(2)
                .any(|pair| pair[0].id == *from && pair[1].id == *to);
            let feeder = (is_main(from) != is_main(to))
                && [from, to]
                    .into_iter()
                    .filter_map(|id| find(id))
                    .any(|n| n.placement.is_some());
            if !chain && !feeder {
                issues.push(shaped(
                    path,
                    &format!(
                        "edge \"{}\" → \"{}\" is not part of the shape",
                        from.as_str(),
                        to.as_str()
                    ),
                ));
            }
        }
        for pair in main.windows(2) {
            let present = self
                .edges
                .iter()
                .any(|[from, to]| *from == pair[0].id && *to == pair[1].id);
            if !present {
                issues.push(shaped(
                    "edges",
                    &format!(
                        "missing edge \"{}\" → \"{}\" between neighbouring main nodes",
                        pair[0].id.as_str(),
                        pair[1].id.as_str()
                    ),
                ));
            }
        }
        for (index, node) in self.nodes.iter().enumerate() {
            if node.placement.is_none() {
                continue;
            }
            let joined = self
                .edges
                .iter()
                .filter(|[from, to]| {
                    (*from == node.id && is_main(to)) || (*to == node.id && is_main(from))
                })
                .count();
            if joined != 1 {
                issues.push(shaped(
                    format!("nodes[{index}]"),
                    &format!(
                        "node \"{}\" needs exactly one edge to a main node, got {joined}",
                        node.id.as_str()
                    ),
                ));
            }
        }
    }
}

impl SlideNode for SlideGraph {
    /// The graph's one shape (see [`SHAPE`]); every finding ends with it.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = Vec::new();
        self.check_nodes(&mut issues);
        self.check_edges(&mut issues);
        issues
    }

    /// Text: the caption; a blank line; `[● ]term: body` per node; a blank
    /// line; every edge on one line, `A → B, C → D` by term.
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_blocks([
            self.caption.as_deref().map(plain_text).unwrap_or_default(),
            self.list().text().into(),
            self.edges_line().into(),
        ])
    }

    /// Markdown: the caption paragraph, a `- [● ]**term**: body` list, then
    /// the edges paragraph.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let caption = self
            .caption
            .as_deref()
            .map_or_else(Markdown::new, |c| Markdown::paragraph(marks_inline(c)));
        caption
            .then(self.list().markdown())
            .then(Markdown::paragraph(self.edges_line()))
    }

    const NATIVE_HTML: bool = true;

    /// HTML: as Markdown, the caption as `<p>`, the nodes' own list markup
    /// ([`List::html`], one marker per item), the edges as `<p>`.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        self.caption
            .as_deref()
            .map_or_else(Html::new, |c| Html::element("p", &[], marks_html(c)))
            .then(self.list().html())
            .then(Html::element("p", &[], Html::text(&self.edges_line())))
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: one `rich_text` (the caption as a section, then a bullet list
    /// of `[● ]`, bold term, `: `, body), then a `context` with the edges.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let caption = self.caption.as_deref().map(mark_runs).unwrap_or_default();
        let items = self.list().entries.iter().map(Entry::runs).collect();
        vec![
            rich_list_under(caption, "bullet", items),
            context(&text_mrkdwn(&self.edges_line())),
        ]
    }
}
