//! `slideAnnotatedRender`: a render with numbered pins and their legend
//! (group "Code and renders"). Its child is `render`,
//! a `slideRender` node, walked like any child.

use isomer_sdk::surface::{Html, Markdown, Scope};
use isomer_sdk::{Node, RefineContext};
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::check::{Issue, nested_frame};
use crate::html::{classed, line_html, marks_html};
use crate::list::{Entry, List};
use crate::primitives::code::slide_render::SlideRender;
use crate::primitives::{Catalogued, SlideNode};
use crate::text::{DASH, join_blocks};
use isomer_sdk::surface::slack::section;

/// The message for a `render` slot holding another type of node.
pub const RENDER_SLOT: &str = "must be a slideRender node";

slide_node! {
    catalog "slideAnnotatedRender" in "Code and renders" {
        purpose: "A slideRender with one to six numbered pins placed on it by percent, and a legend saying what each pin points at.",
        use_when: [
            "The anatomy of a screen or slide, part by part.",
            "Helping the audience find specific details in a render.",
        ],
        avoid_when: [
            "The render speaks for itself: use slideRender.",
            "Ideas rather than places: use slideDefinitions.",
            "Several surfaces: use slideRenderGrid.",
        ],
        example: {
            "type": "slideAnnotatedRender",
            "render": {
                "type": "slideRender",
                "surface": "snapshot",
                "body": [
                    { "type": "slideHeading", "title": "Refunds settle nightly", "lede": "One batch per bank." },
                    { "type": "slideSource", "text": "Ledger dashboard, March 2026" }
                ]
            },
            "pins": [
                { "x": 20, "y": 15, "title": "Claim", "body": "The heading states the point." },
                { "x": 30, "y": 90, "title": "Source", "body": "Figures are **always** cited." }
            ]
        },
    }

    /// The fields of a `slideAnnotatedRender` node.
    pub struct SlideAnnotatedRender {
        /// The render to annotate: a whole slideRender node.
        pub render: Node,
        /// One to six pins, numbered in this order in the legend.
        #[schemars(length(min = 1, max = 6))]
        pub pins: Vec<Pin>,
    }

    /// One numbered pin on the render.
    pub struct Pin {
        /// Distance from the render's left edge, in percent (0 to 100).
        #[schemars(range(min = 0, max = 100))]
        pub x: f64,
        /// Distance from the render's top edge, in percent (0 to 100).
        #[schemars(range(min = 0, max = 100))]
        pub y: f64,
        /// What the pin points at, a few words.
        pub title: LineText,
        /// Why it matters, one sentence. Accepts inline marks.
        pub body: WrappedText,
    }
}

impl SlideAnnotatedRender {
    /// The legend: `1. title — body` per pin.
    fn legend(&self) -> List {
        List::numbered(
            self.pins
                .iter()
                .map(|pin| Entry::pair(&pin.title, DASH, Some(&pin.body))),
        )
    }
}

impl SlideNode for SlideAnnotatedRender {
    /// `render` holds a slideRender (not a frame, not another type); the
    /// render's own rules run on it as a child.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        if let Some(issue) = nested_frame("render", &self.render) {
            return vec![issue];
        }
        if self.render.type_name() != Some(SlideRender::TYPE) {
            return vec![Issue::new("render", RENDER_SLOT)];
        }
        Vec::new()
    }

    /// The legend is the node's own content.
    fn has_own_content(_node: &Value) -> Option<bool> {
        Some(true)
    }

    /// Text: the render's text, a blank line, then the numbered legend
    /// `1. title — body`.
    fn text(&self, scope: &Scope<'_>) -> String {
        join_blocks([scope.text(self.render.as_value()), self.legend().text()])
    }

    /// Markdown: the render's Markdown, then the legend as an ordered list
    /// `1. **title** — body`.
    fn markdown(&self, scope: &Scope<'_>) -> Markdown {
        scope
            .markdown(self.render.as_value())
            .then(self.legend().markdown())
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide-annotated">`: the stage, holding the render
    /// drawn by its own renderer and over its panel one numbered pin per
    /// entry (`aria-hidden`; placed by `slide-pin-xN slide-pin-yN` classes,
    /// the percents rounded), then the legend as an `<ol>`: a numbered
    /// disc, the title bold and the body.
    fn html(&self, scope: &Scope<'_>) -> Html {
        let pins = Html::concat(self.pins.iter().enumerate().map(|(index, pin)| {
            let class = format!(
                "slide-pin slide-pin-x{} slide-pin-y{}",
                pin.x.round().clamp(0.0, 100.0) as u32,
                pin.y.round().clamp(0.0, 100.0) as u32
            );
            classed("span", &class, Html::text(&(index + 1).to_string()))
        }));
        let stage = classed(
            "div",
            "slide-annotated-stage",
            scope.html(self.render.as_value()).then(Html::element(
                "div",
                &[("class", "slide-pins"), ("aria-hidden", "true")],
                pins,
            )),
        );
        let legend = Html::concat(self.pins.iter().enumerate().map(|(index, pin)| {
            Html::element(
                "li",
                &[],
                Html::element(
                    "span",
                    &[("class", "slide-legend-number"), ("aria-hidden", "true")],
                    Html::text(&(index + 1).to_string()),
                )
                .then(classed(
                    "p",
                    "slide-legend-text",
                    Html::element("strong", &[], line_html(&pin.title))
                        .then(Html::text(" "))
                        .then(classed("span", "slide-legend-body", marks_html(&pin.body))),
                )),
            )
        }));
        classed(
            "div",
            "slide-annotated",
            stage.then(classed("ol", "slide-annotated-legend", legend)),
        )
    }

    /// Render and legend side by side (1.45 : 1): the render at 0.49 of the
    /// slide's size (941 × 529 px), 56 px primary pins centred on their
    /// points, the legend's 44 px numbered discs.
    const CSS: &'static str = include_str!("slide_annotated_render.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: the render's blocks, then one `section` with the legend, a
    /// `N. *title* — body` line per pin.
    fn slack(&self, scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = scope.slack(self.render.as_value());
        let legend = self
            .legend()
            .entries
            .iter()
            .enumerate()
            .map(|(index, pin)| format!("{}. {}", index + 1, pin.mrkdwn()))
            .collect::<Vec<_>>()
            .join("\n");
        blocks.push(section(&legend));
        blocks
    }
}
