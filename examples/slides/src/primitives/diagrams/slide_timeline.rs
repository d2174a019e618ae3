//! `slideTimeline`: three to five dated moments on a rail.

use isomer_sdk::RefineContext;

use crate::authored::{LineText, WrappedText, current_glyph};
use crate::check::{Issue, at_most_one};
use crate::list::{Entry, List};
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

impl SlideNode for SlideTimeline {
    /// HTML: the list's own, one marker per item ([`List::html`](crate::list::List::html)).
    const NATIVE_HTML: bool = true;

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
