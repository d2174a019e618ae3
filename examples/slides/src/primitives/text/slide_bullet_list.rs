//! `slideBulletList`: short unordered points with a shared marker.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::authored::{LineText, WrappedText};
use crate::list::{Entry, List, TextMarker};
use crate::primitives::SlideNode;

/// The marker before every point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum BulletMarker {
    /// A dot (the default).
    Dot,
    /// A check mark: in scope, done, yes.
    Check,
    /// A cross: out of scope, not done, no.
    X,
}

slide_node! {
    catalog "slideBulletList" in "Text" {
        purpose: "Two to six short points that share one marker: a dot, a check or a cross.",
        use_when: [
            "A few short points with no key or order.",
            "What is in and out of scope, with the \"check\" and \"x\" markers.",
        ],
        avoid_when: [
            "Points keyed by a name or date: use slideList.",
            "Terms and their meanings: use slideDefinitions.",
            "Steps in order: use slidePipeline.",
            "Points split by owner: use slideTerritoryGroup.",
            "Code or commands: use slideCode or slideCommand.",
        ],
        example: {
            "type": "slideBulletList",
            "label": "In scope",
            "marker": "check",
            "items": ["Card refunds", "Bank transfers", "**Partial** refunds"]
        },
    }

    /// The fields of a `slideBulletList` node.
    pub struct SlideBulletList {
        /// One to six short points. Each accepts inline marks.
        #[schemars(length(min = 1, max = 6))]
        pub items: Vec<WrappedText>,
        /// A caption over the points (printed upper-case).
        pub label: Option<LineText>,
        /// "dot" (default), "check" or "x".
        pub marker: Option<BulletMarker>,
    }
}

impl SlideNode for SlideBulletList {
    /// HTML: the list's own, one marker per item ([`List::html`](crate::list::List::html)).
    const NATIVE_HTML: bool = true;

    /// The points under the caption: a dot is the list's own marker (`- `
    /// on text), a check or a cross a glyph before each point.
    fn as_list(&self) -> Option<List> {
        let glyph = match self.marker {
            Some(BulletMarker::Check) => "✓ ",
            Some(BulletMarker::X) => "× ",
            _ => "",
        };
        let marker = if glyph.is_empty() {
            TextMarker::Dash
        } else {
            TextMarker::Bare
        };
        Some(
            List::new(
                self.items
                    .iter()
                    .map(|item| Entry::body(item).with_glyph(glyph)),
            )
            .labelled(self.label.as_deref())
            .marked(marker),
        )
    }

    const NATIVE_SLACK: bool = true;
}
