//! `slideSource`: the one-line citation under a slide's figures.

use isomer_sdk::CatalogEntry;
use isomer_sdk::surface::{Inline, Markdown, Scope};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::authored::WrappedText;
use crate::catalog::entry;
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::marks_mrkdwn;
use crate::text::{SEPARATOR, plain_text};
use isomer_sdk::surface::slack::context;

/// The fields of a `slideSource` node.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SlideSource {
    /// The report, dataset or survey behind the slide, without a "Source"
    /// prefix (the slide adds it). Accepts inline marks.
    pub text: WrappedText,
}

impl SlideNode for SlideSource {
    const TYPE: &'static str = "slideSource";

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

    const NATIVE_SLACK: bool = true;

    /// Slack: a `context` block `Source · text`.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![context(&format!(
            "Source{SEPARATOR}{}",
            marks_mrkdwn(&self.text)
        ))]
    }

    fn catalog() -> CatalogEntry {
        entry(
            Self::TYPE,
            "Slide structure",
            "One citation line naming where a slide's figures or claims come from.",
            &[
                "The slide shows numbers or claims from a report, a dataset or a survey; put it last in the slideFrame body.",
                "A claim that will make the audience ask who says so.",
            ],
            &[
                "A sentence that qualifies the point: use the lede of slideHeading.",
                "A conclusion under two columns: use the footnote of slideSplit.",
            ],
            json!({ "type": "slideSource", "text": "Finance ops dashboard, refunds Q1 2026" }),
        )
    }
}
