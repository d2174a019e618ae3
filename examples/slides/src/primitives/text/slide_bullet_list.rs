//! `slideBulletList`: short unordered points with a shared marker.

use isomer_sdk::surface::{Html, Scope};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::authored::{LineText, WrappedText};
use crate::html::{classed, marks_html, toned_caption};
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

/// What assistive technology announces for a drawn check (upstream's
/// words); the dot is decoration and says nothing.
const CHECK_LABEL: &str = "Included";

/// What assistive technology announces for a cross.
const CROSS_LABEL: &str = "Left out";

impl SlideNode for SlideBulletList {
    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_bullet_list.css");

    /// HTML: `<div class="slide-bullets">` holding the caption
    /// (`<p class="slide-caption">`, upper-cased) and a `<ul>` of ruled
    /// rows, each a marker (`slide-bullet-marker`) then the point's
    /// `<span>`. The marker is drawn, not typed: a primary dot
    /// (`slide-bullet-dot`, `aria-hidden`), a check made of two borders
    /// turned 45° (`slide-bullet-check`, `role="img"` "Included"), or a
    /// bold `×` (`slide-bullet-cross`, `role="img"` "Left out").
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let marker = || match self.marker {
            Some(BulletMarker::Check) => Html::element(
                "span",
                &[
                    ("class", "slide-bullet-marker"),
                    ("role", "img"),
                    ("aria-label", CHECK_LABEL),
                ],
                classed("span", "slide-bullet-check", Html::new()),
            ),
            Some(BulletMarker::X) => Html::element(
                "span",
                &[
                    ("class", "slide-bullet-marker"),
                    ("role", "img"),
                    ("aria-label", CROSS_LABEL),
                ],
                Html::element(
                    "span",
                    &[("class", "slide-bullet-cross"), ("aria-hidden", "true")],
                    Html::text("×"),
                ),
            ),
            _ => Html::element(
                "span",
                &[("class", "slide-bullet-marker"), ("aria-hidden", "true")],
                classed("span", "slide-bullet-dot", Html::new()),
            ),
        };
        let items = Html::concat(self.items.iter().map(|item| {
            Html::element(
                "li",
                &[],
                marker().then(Html::element("span", &[], marks_html(item))),
            )
        }));
        classed(
            "div",
            "slide-bullets",
            self.label
                .as_deref()
                .map_or_else(Html::new, |label| toned_caption(label, None))
                .then(Html::element("ul", &[], items)),
        )
    }

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
