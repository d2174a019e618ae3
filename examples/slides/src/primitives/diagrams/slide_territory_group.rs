//! `slideTerritoryGroup`: who owns what, one colour-keyed column per owner
//! (group "Diagrams").

use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, Tone, WrappedText, tone_glyph};
use crate::html::{classed, line_html, marks_html, tone_name};
use crate::list::{Entry, List};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{fields_section, marks_mrkdwn, text_mrkdwn};
use crate::text::line;

slide_node! {
    catalog "slideTerritoryGroup" in "Diagrams" {
        purpose: "Who owns what: one to four owners side by side, each a colour-keyed column with a title and one or two sentences.",
        use_when: [
            "A responsibility split between your side and another party, keyed by colour.",
            "Each owner's part fits a title and one or two sentences.",
        ],
        avoid_when: [
            "Two lists with a divider between them: use slideSplit.",
            "Ownership is not the point: use slideBulletList.",
            "Parts stacked in an order: use slideLayers.",
        ],
        example: {
            "type": "slideTerritoryGroup",
            "items": [
                { "title": "Ledger team", "body": "Runs the nightly batch and **owns** retries.", "tone": "primary" },
                { "title": "Card networks", "body": "Confirm each payout and report chargebacks.", "tone": "accent" }
            ]
        },
    }

    /// The fields of a `slideTerritoryGroup` node.
    pub struct SlideTerritoryGroup {
        /// One to four owners, left to right.
        #[schemars(length(min = 1, max = 4))]
        pub items: Vec<Territory>,
    }

    /// One owner's territory.
    pub struct Territory {
        /// The owner, e.g. "Ledger team" (printed as authored).
        pub title: LineText,
        /// What the owner is responsible for, one or two sentences. Accepts
        /// inline marks.
        pub body: WrappedText,
        /// "primary" for your side, "accent" for the host or another party.
        pub tone: Option<Tone>,
    }
}

impl SlideNode for SlideTerritoryGroup {
    /// Text: `[●/○ ]Title: body` per owner.
    fn as_list(&self) -> Option<List> {
        Some(List::new(self.items.iter().map(|item| {
            Entry::pair(&item.title, ": ", Some(&item.body)).with_glyph(tone_glyph(item.tone))
        })))
    }

    /// Markdown: per owner `## [●/○ ]Title` and the body as a paragraph.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::concat(self.items.iter().map(|item| {
            Markdown::heading(2, format!("{}{}", tone_glyph(item.tone), line(&item.title)))
                .then(Markdown::paragraph(marks_inline(&item.body)))
        }))
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_territory_group.css");

    /// HTML: `<ul class="slide-territories">`, one `<li class="slide-territory">`
    /// per owner side by side, ruled on its left in its tone (`data-tone`;
    /// untoned owners in the subtle colour): the owner as an `<h3>` label
    /// cued by a disc (primary) or ring (accent) instead of a `●`/`○`, the
    /// body as `<p>`.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        classed(
            "ul",
            "slide-territories",
            Html::concat(self.items.iter().map(|item| {
                let body = Html::element("h3", &[], line_html(&item.title)).then(Html::element(
                    "p",
                    &[],
                    marks_html(&item.body),
                ));
                match tone_name(item.tone) {
                    Some(tone) => Html::element(
                        "li",
                        &[("class", "slide-territory"), ("data-tone", tone)],
                        body,
                    ),
                    None => classed("li", "slide-territory", body),
                }
            })),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: one `section` whose `fields` are `[●/○ ]*Title*\nbody`.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![fields_section(
            self.items
                .iter()
                .map(|item| {
                    format!(
                        "{}*{}*\n{}",
                        tone_glyph(item.tone),
                        text_mrkdwn(&item.title),
                        marks_mrkdwn(&item.body)
                    )
                })
                .collect(),
        )]
    }
}
