//! `slideQuadrant`: items sorted by two labelled axes into four named
//! quadrants (group "Diagrams").
//!
//! The reference does not record how string surfaces mark the highlighted
//! quadrant; this pack puts the `● ` glyph before its label, as it marks
//! the current or emphasized item of a timeline, roadmap or graph.

use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::{CURRENT_GLYPH, LineText};
use crate::list::{Entry, List};
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

    /// HTML: as Markdown, the axes as `<p>`, then one item per quadrant,
    /// `[● ]Label (place): items`, in the list's own markup
    /// ([`List::html`], one marker per item: the `●` when emphasized).
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let list = List::new((0..self.quadrants.len()).map(|index| {
            let (glyph, label, place) = self.parts(index);
            Entry::lead(&label)
                .with_glyph(glyph)
                .then_text(&self.rest(index, &place))
        }));
        Html::element("p", &[], Html::text(&self.axes())).then(list.html())
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
