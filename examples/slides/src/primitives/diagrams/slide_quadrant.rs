//! `slideQuadrant`: items sorted by two labelled axes into four named
//! quadrants (group "Diagrams").
//!
//! The reference does not record how string surfaces mark the highlighted
//! quadrant; this pack puts the `● ` glyph before its label, as it marks
//! the current or emphasized item of a timeline, roadmap or graph.

use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::{CURRENT_GLYPH, LineText};
use crate::html::{classed, line_html, size_class};
use crate::list::size_for_load;
use crate::primitives::SlideNode;
use crate::slack::{bold_run, fields_or_else, rich_list, run, text_mrkdwn};
use crate::text::{ARROW, SEPARATOR, caption, join_lines, line};
use isomer_sdk::surface::slack::context;

slide_node! {
    catalog "slideQuadrant" in "Diagrams" {
        purpose: "Items placed in a two-by-two plot by two labelled axes, each quadrant named and holding up to four chips, one quadrant optionally highlighted.",
        use_when: [
            "Two independent qualities split the options into four named groups.",
            "Where each option lands matters more than its exact score.",
        ],
        avoid_when: [
            "Several attributes per item: use slideTable.",
            "Groups without axes: use slideColumns.",
        ],
        example: {
            "type": "slideQuadrant",
            "x": { "low": "Low effort", "high": "High effort" },
            "y": { "low": "Low impact", "high": "High impact" },
            "quadrants": [
                { "label": "Quick wins", "items": ["Retry window", "Status page"] },
                { "label": "Big bets", "items": ["Instant refunds"] },
                { "label": "Fill-ins", "items": ["Dark mode"] },
                { "label": "Money pits", "items": [] }
            ],
            "highlight": 0
        },
    }

    /// The fields of a `slideQuadrant` node.
    pub struct SlideQuadrant sized {
        /// The horizontal axis: `low` at the left, `high` at the right.
        pub x: Axis,
        /// The vertical axis: `low` at the bottom, `high` at the top.
        pub y: Axis,
        /// Exactly four quadrants, in the order top-left, top-right,
        /// bottom-left, bottom-right.
        #[schemars(length(min = 4, max = 4))]
        pub quadrants: Vec<Quadrant>,
        /// The index (0 to 3) of the quadrant to stress.
        #[schemars(range(min = 0, max = 3))]
        pub highlight: Option<u32>,
    }

    /// The two ends of one axis.
    pub struct Axis {
        /// The low end (left for x, bottom for y), e.g. "Low effort".
        pub low: LineText,
        /// The high end (right for x, top for y), e.g. "High effort".
        pub high: LineText,
    }

    /// One quadrant of the plot.
    pub struct Quadrant {
        /// The quadrant's name, e.g. "Quick wins".
        pub label: LineText,
        /// Up to four items in it, each a short mono chip.
        #[schemars(length(max = 4))]
        pub items: Vec<LineText>,
    }
}

impl SlideQuadrant {
    /// `y: LOW → HIGH · x: LOW → HIGH`, the axis ends upper-cased (the
    /// places after each quadrant keep the authored case).
    fn axes(&self) -> String {
        format!(
            "y: {}{ARROW}{}{SEPARATOR}x: {}{ARROW}{}",
            caption(&self.y.low),
            caption(&self.y.high),
            caption(&self.x.low),
            caption(&self.x.high)
        )
    }

    /// The `● ` glyph of the highlighted quadrant, the quadrant's label,
    /// and its place by its two axis ends (`High impact, Low effort`).
    fn parts(&self, index: usize) -> (&'static str, String, String) {
        let y = if index < 2 { &self.y.high } else { &self.y.low };
        let x = if index.is_multiple_of(2) {
            &self.x.low
        } else {
            &self.x.high
        };
        let glyph = if self.highlight == Some(index as u32) {
            CURRENT_GLYPH
        } else {
            ""
        };
        (
            glyph,
            line(&self.quadrants[index].label).into_owned(),
            format!("{}, {}", line(y), line(x)),
        )
    }

    /// ` (place): a, b` after a quadrant's label (no colon when empty).
    fn rest(&self, index: usize, place: &str) -> String {
        let items = Self::items(&self.quadrants[index]);
        if items.is_empty() {
            format!(" ({place})")
        } else {
            format!(" ({place}): {items}")
        }
    }

    fn items(quadrant: &Quadrant) -> String {
        quadrant
            .items
            .iter()
            .map(|i| line(i))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The largest load (the fullest top cell's items plus the fullest bottom
/// cell's) the `l` and `m` steps hold (upstream's quadrant fit).
const QUADRANT_FIT: [usize; 2] = [4, 6];

impl SlideNode for SlideQuadrant {
    /// Text: the axes line `y: LOW → HIGH · x: LOW → HIGH`, then
    /// `[● ]Label (place): a, b` per quadrant (no colon when it is empty).
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_lines(
            std::iter::once(self.axes()).chain((0..self.quadrants.len()).map(|index| {
                let (glyph, label, place) = self.parts(index);
                format!("{glyph}{label}{}", self.rest(index, &place))
            })),
        )
    }

    /// Markdown: the axes paragraph, then a `- **[● ]Label** (place): items`
    /// list (the glyph bold with the label, as on Slack).
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::paragraph(self.axes()).then(Markdown::bullet_list((0..self.quadrants.len()).map(
            |index| {
                let (glyph, label, place) = self.parts(index);
                Inline::strong(format!("{glyph}{label}")).then(self.rest(index, &place).as_str())
            },
        )))
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_quadrant.css");

    /// HTML: `<div class="slide-quadrant slide-size-…">`, a grid of the
    /// four axis ends (`slide-quadrant-axis-top|left|right|bottom`,
    /// `aria-hidden`: each cell names them) around the plot
    /// (`slide-quadrant-plot`), whose four cells (`role="group"`, labelled
    /// with their place, e.g. "High impact, Low effort"; the highlighted
    /// one `slide-quadrant-highlight`) hold the quadrant's label as `<p>`
    /// and its items as a `<ul>` of chips. The axes are the borders between
    /// the cells. The size step is the author's, else picked from the
    /// fullest top cell's items plus the fullest bottom cell's.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let count = |index: usize| self.quadrants.get(index).map_or(0, |q| q.items.len());
        let load = count(0).max(count(1)) + count(2).max(count(3));
        let size = size_for_load(self.size, load, QUADRANT_FIT);
        let axis = |side: &str, text: &str| {
            Html::element(
                "span",
                &[
                    (
                        "class",
                        &format!("slide-quadrant-axis slide-quadrant-axis-{side}"),
                    ),
                    ("aria-hidden", "true"),
                ],
                line_html(text),
            )
        };
        let cells = Html::concat(self.quadrants.iter().enumerate().map(|(index, quadrant)| {
            let (_, _, place) = self.parts(index);
            let mut class = format!("slide-quadrant-cell slide-quadrant-cell-{index}");
            if self.highlight == Some(index as u32) {
                class.push_str(" slide-quadrant-highlight");
            }
            let mut cell = Html::element("p", &[], line_html(&quadrant.label));
            if !quadrant.items.is_empty() {
                cell.push(Html::element(
                    "ul",
                    &[],
                    Html::concat(
                        quadrant
                            .items
                            .iter()
                            .map(|item| Html::element("li", &[], line_html(item))),
                    ),
                ));
            }
            Html::element(
                "div",
                &[("class", &class), ("role", "group"), ("aria-label", &place)],
                cell,
            )
        }));
        Html::element(
            "div",
            &[("class", &format!("slide-quadrant {}", size_class(size)))],
            axis("top", &self.y.high)
                .then(axis("left", &self.x.low))
                .then(classed("div", "slide-quadrant-plot", cells))
                .then(axis("right", &self.x.high))
                .then(axis("bottom", &self.y.low)),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: a `context` with the axes, then a `section` of one `mrkdwn`
    /// field per quadrant, `*[● ]Label* (place): items`; past Slack's field
    /// limits ([`fields_or_else`]) a `rich_text` bullet list of bold
    /// `[● ]Label` and ` (place): items` instead, so nothing is cut.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let fields = (0..self.quadrants.len())
            .map(|index| {
                let (glyph, label, place) = self.parts(index);
                format!(
                    "*{}*{}",
                    text_mrkdwn(&format!("{glyph}{label}")),
                    text_mrkdwn(&self.rest(index, &place))
                )
            })
            .collect();
        let list = || {
            let items = (0..self.quadrants.len())
                .map(|index| {
                    let (glyph, label, place) = self.parts(index);
                    vec![
                        bold_run(&format!("{glyph}{label}")),
                        run(&self.rest(index, &place)),
                    ]
                })
                .collect();
            rich_list("bullet", items)
        };
        vec![
            context(&text_mrkdwn(&self.axes())),
            fields_or_else(fields, list),
        ]
    }
}
