//! `slideGraph`: a small vocabulary and its arrows in a fixed layout, a
//! main row with at most one feeder above and one below
//! (group "Diagrams").

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::authored::{CURRENT_GLYPH, LineText, WrappedText, display_columns};
use crate::check::{Issue, at_most_one};
use crate::html::{classed, line_html, marks_html, size_class};
use crate::list::{Entry, List, size_for_load};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::primitives::diagrams::slide_sequence::connector_html;
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

/// The largest load (node rows times the longest node's characters, plus
/// the caption's) the `l` and `m` steps hold (upstream's graph fit).
const GRAPH_FIT: [usize; 2] = [250, 280];

/// A node off the main row and how it joins the row.
struct Branch<'a> {
    node: &'a GraphNode,
    /// The index in the main row of the node it joins.
    at: usize,
    /// True when its arrow points into the main row.
    inward: bool,
}

impl SlideGraph {
    /// The node placed `placement` and its one edge to the main row, if
    /// both are there (the rules make sure they are).
    fn branch<'a>(&'a self, placement: Placement, main: &[&GraphNode]) -> Option<Branch<'a>> {
        let node = self.nodes.iter().find(|n| n.placement == Some(placement))?;
        let [from, to] = self
            .edges
            .iter()
            .find(|[from, to]| *from == node.id || *to == node.id)?;
        let inward = *from == node.id;
        let other = if inward { to } else { from };
        let at = main.iter().position(|n| n.id == *other)?;
        Some(Branch { node, at, inward })
    }
}

/// "From → To" for an arrow's accessible label.
fn relation(from: &GraphNode, to: &GraphNode) -> String {
    format!("{}{ARROW}{}", line(&from.term), line(&to.term))
}

/// A node panel in grid row `row` at column `column`.
fn node_html(node: &GraphNode, row: usize, column: usize) -> Html {
    let mut class = format!("slide-graph-node slide-graph-row-{row} slide-graph-col-{column}");
    if node.emphasis == Some(true) {
        class.push_str(" slide-graph-emphasis");
    }
    Html::element(
        "div",
        &[("class", &class)],
        classed("p", "slide-graph-term", line_html(&node.term)).then(Html::element(
            "p",
            &[],
            marks_html(&node.body),
        )),
    )
}

/// A vertical arrow: the rail (`slide-graph-rail-down`) with a
/// border-drawn head at the bottom (`down`) or the top.
fn vertical_connector(down: bool) -> Html {
    let head = |side: &str| {
        Html::element(
            "span",
            &[("class", &format!("slide-graph-head-{side}"))],
            Html::new(),
        )
    };
    let rail = classed("span", "slide-graph-rail-down", Html::new());
    if down {
        rail.then(head("down"))
    } else {
        head("up").then(rail)
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

    const CSS: &'static str = include_str!("slide_graph.css");

    /// HTML: `<div class="slide-graph slide-size-… slide-graph-main-N">`, a
    /// grid of five rows (above, its connector, the main row, the
    /// connector below, below) and a column per main node with a 64 px
    /// arrow track between neighbours. Each node is a panel
    /// (`slide-graph-node`, `slide-graph-emphasis` with a primary border
    /// and term) of its term `<p class="slide-graph-term">` and body
    /// `<p>`; each arrow (`role="img"` labelled "From → To") is a
    /// horizontal connector in a track of the main row, or a vertical
    /// one (`slide-graph-down`) between a feeder and the main node it
    /// joins. The caption (`slide-graph-caption`) sits in the top row,
    /// beside the feeder above when there is one. Places are
    /// `slide-graph-row-N`, `slide-graph-col-N` and `slide-graph-cols-N`
    /// classes. The size step is the author's, else picked from the node
    /// rows times the longest node's text, plus the caption.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let main = self.main_row();
        let above = self.branch(Placement::Above, &main);
        let below = self.branch(Placement::Below, &main);
        let rows = 1 + usize::from(above.is_some()) + usize::from(below.is_some());
        let longest = self
            .nodes
            .iter()
            .map(|node| display_columns(&node.term) + display_columns(&plain_text(&node.body)))
            .max()
            .unwrap_or(0);
        let caption_columns = self
            .caption
            .as_deref()
            .map_or(0, |caption| display_columns(&plain_text(caption)));
        let size = size_for_load(self.size, rows * longest + caption_columns, GRAPH_FIT);
        // Main node `i` is grid column 2i + 1; the track after it 2i + 2.
        let node_line = |index: usize| 2 * index + 1;
        let mut out = Html::new();
        if let Some(caption) = &self.caption {
            let (first, last) = match &above {
                None => (0, main.len() - 1),
                Some(branch) if branch.at > 0 => (0, branch.at - 1),
                Some(_) => (1, main.len() - 1),
            };
            let mut class = format!(
                "slide-graph-caption slide-graph-row-1 slide-graph-col-{} slide-graph-cols-{}",
                node_line(first),
                node_line(last) - node_line(first) + 1
            );
            if above.is_none() {
                class.push_str(" slide-graph-caption-alone");
            }
            out.push(Html::element(
                "p",
                &[("class", &class)],
                marks_html(caption),
            ));
        }
        for (branch, node_row, arrow_row) in [(&above, 1, 2), (&below, 5, 4)] {
            let Some(branch) = branch else { continue };
            let line_at = node_line(branch.at);
            out.push(node_html(branch.node, node_row, line_at));
            let joined = main[branch.at];
            let (from, to) = if branch.inward {
                (branch.node, joined)
            } else {
                (joined, branch.node)
            };
            // The arrow points down when it runs from above into the row
            // or from the row out below.
            let down = (node_row == 1) == branch.inward;
            out.push(Html::element(
                "div",
                &[
                    (
                        "class",
                        &format!(
                            "slide-graph-down slide-graph-row-{arrow_row} slide-graph-col-{line_at}"
                        ),
                    ),
                    ("role", "img"),
                    ("aria-label", &relation(from, to)),
                ],
                vertical_connector(down),
            ));
        }
        for (index, node) in main.iter().enumerate() {
            if index > 0 {
                out.push(Html::element(
                    "div",
                    &[
                        (
                            "class",
                            &format!(
                                "slide-graph-across slide-graph-row-3 slide-graph-col-{}",
                                node_line(index) - 1
                            ),
                        ),
                        ("role", "img"),
                        ("aria-label", &relation(main[index - 1], node)),
                    ],
                    connector_html(true, None),
                ));
            }
            out.push(node_html(node, 3, node_line(index)));
        }
        Html::element(
            "div",
            &[(
                "class",
                &format!(
                    "slide-graph {} slide-graph-main-{}",
                    size_class(size),
                    main.len()
                ),
            )],
            out,
        )
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
