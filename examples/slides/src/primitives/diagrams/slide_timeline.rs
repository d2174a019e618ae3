//! `slideTimeline`: three to five dated moments on a rail.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Scope};

use crate::authored::{LineText, WrappedText, current_glyph};
use crate::check::{Issue, at_most_one};
use crate::html::{classed, line_html, marks_html, size_class};
use crate::list::{Entry, List, row_load, size_for_load};
use crate::primitives::SlideNode;
use crate::text::{SEPARATOR, caption, line};

/// The message when two moments are current.
pub const ONE_CURRENT_ITEM: &str = "at most one item can be current";

slide_node! {
    catalog "slideTimeline" in "Diagrams" {
        purpose: "Three to five dated moments on a rail, each with who asked, the ask in quotes, and what came of it.",
        use_when: [
            "A history that leads up to now.",
            "Dated moments that each pair an ask with its outcome.",
        ],
        avoid_when: [
            "Plans by horizon: use slideRoadmap.",
            "Points without dates or order: use slideBulletList.",
        ],
        example: {
            "type": "slideTimeline",
            "items": [
                { "label": "2024", "channel": "Support", "heading": "Where is my refund?", "body": "Refunds took five days." },
                { "label": "2025", "channel": "Finance", "heading": "Can we pay in one batch?", "body": "The nightly batch shipped." },
                { "label": "Now", "channel": "Sales", "heading": "Can partners see it?", "body": "Partner reports are **in beta**.", "current": true }
            ]
        },
    }

    /// The fields of a `slideTimeline` node.
    pub struct SlideTimeline sized {
        /// Three to five moments, oldest first.
        #[schemars(length(min = 3, max = 5))]
        pub items: Vec<TimelineItem>,
    }

    /// One dated moment.
    pub struct TimelineItem {
        /// When: a year, a quarter, a date.
        pub label: LineText,
        /// Where the ask came from (printed upper-case), e.g. "Support".
        pub channel: LineText,
        /// The ask, in the asker's words, without quotation marks (the slide
        /// adds them). Accepts inline marks.
        pub heading: WrappedText,
        /// What happened next. Accepts inline marks.
        pub body: WrappedText,
        /// True for the moment the audience is at now; at most one.
        pub current: Option<bool>,
    }
}

/// The largest load ([`row_load`] of each moment's heading and body) the
/// `l` and `m` steps hold (upstream's timeline fit).
const TIMELINE_FIT: [usize; 2] = [540, 600];

impl SlideNode for SlideTimeline {
    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_timeline.css");

    /// HTML: `<div class="slide-timeline slide-size-…">` holding the rail
    /// (`<div class="slide-timeline-rail" aria-hidden="true">`, the line
    /// the dots sit on) and an `<ol>` of the moments side by side. Each
    /// `<li>` (`aria-current="step"` on the current one) holds the label
    /// (`slide-timeline-label`), the dot (`slide-timeline-dot`), the
    /// channel (`slide-timeline-channel`, upper-cased by the stylesheet),
    /// the quoted heading as `<h3>` and the body as `<p>`. The size step
    /// is the author's, else picked from the longest moment's text times
    /// the number of moments.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let size = size_for_load(
            self.size,
            row_load(
                self.items
                    .iter()
                    .map(|item| [item.heading.as_str(), item.body.as_str()]),
            ),
            TIMELINE_FIT,
        );
        let items = Html::concat(self.items.iter().map(|item| {
            let content = classed("span", "slide-timeline-label", line_html(&item.label))
                .then(classed("span", "slide-timeline-dot", Html::new()))
                .then(classed(
                    "span",
                    "slide-timeline-channel",
                    line_html(&item.channel),
                ))
                .then(Html::element(
                    "h3",
                    &[],
                    Html::text("“")
                        .then(marks_html(&item.heading))
                        .then(Html::text("”")),
                ))
                .then(Html::element("p", &[], marks_html(&item.body)));
            if item.current == Some(true) {
                Html::element("li", &[("aria-current", "step")], content)
            } else {
                Html::element("li", &[], content)
            }
        }));
        Html::element(
            "div",
            &[("class", &format!("slide-timeline {}", size_class(size)))],
            Html::element(
                "div",
                &[("class", "slide-timeline-rail"), ("aria-hidden", "true")],
                Html::new(),
            )
            .then(Html::element("ol", &[], items)),
        )
    }

    /// One entry per moment: the bold `[● ]label · CHANNEL.`, then the
    /// quoted heading and the body, marks kept.
    fn as_list(&self) -> Option<List> {
        Some(List::new(self.items.iter().map(|item| {
            let head = format!(
                "{}{}{SEPARATOR}{}.",
                current_glyph(item.current),
                line(&item.label),
                caption(&item.channel)
            );
            Entry::lead(&head)
                .then_text(" “")
                .then_marks(&item.heading)
                .then_text("” ")
                .then_marks(&item.body)
        })))
    }

    /// At most one moment is current.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        at_most_one(
            "items",
            self.items.iter().map(|i| i.current),
            ONE_CURRENT_ITEM,
        )
    }

    const NATIVE_SLACK: bool = true;
}
