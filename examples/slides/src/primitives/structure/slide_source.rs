//! `slideSource`: the one-line citation under a slide's figures.

use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::WrappedText;
use crate::html::{classed, marks_html};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::marks_mrkdwn;
use crate::text::{SEPARATOR, plain_text};
use isomer_sdk::surface::slack::context;

slide_node! {
    catalog "slideSource" in "Slide structure" {
        purpose: "One citation line naming where a slide's figures or claims come from.",
        use_when: [
            "The slide shows numbers or claims from a report, a dataset or a survey; put it last in the slideFrame body.",
            "A claim that will make the audience ask who says so.",
        ],
        avoid_when: [
            "A sentence that qualifies the point: use the lede of slideHeading.",
            "A conclusion under two columns: use the footnote of slideSplit.",
        ],
        example: { "type": "slideSource", "text": "Finance ops dashboard, refunds Q1 2026" },
    }

    /// The fields of a `slideSource` node.
    pub struct SlideSource {
        /// The report, dataset or survey behind the slide, without a "Source"
        /// prefix (the slide adds it). Accepts inline marks.
        pub text: WrappedText,
    }
}

impl SlideNode for SlideSource {
    /// Text: `Source · text`.
    fn text(&self, _scope: &Scope<'_>) -> String {
        format!("Source{SEPARATOR}{}", plain_text(&self.text))
    }

    /// Markdown: `_Source · text_`, marks kept.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::paragraph(Inline::emphasis(
            Inline::text(format!("Source{SEPARATOR}")).then(marks_inline(&self.text)),
        ))
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<p class="slide-source">Source · text</p>`, marks kept.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        classed(
            "p",
            "slide-source",
            Html::text(&format!("Source{SEPARATOR}")).then(marks_html(&self.text)),
        )
    }

    /// One 24 px line in the footer's subtle colour.
    const CSS: &'static str = include_str!("slide_source.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: a `context` block `Source · text`.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![context(&format!(
            "Source{SEPARATOR}{}",
            marks_mrkdwn(&self.text)
        ))]
    }
}
