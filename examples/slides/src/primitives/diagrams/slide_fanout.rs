//! `slideFanout`: one source going to several unordered targets
//! (group "Diagrams").

use isomer_sdk::CatalogEntry;
use isomer_sdk::surface::{Inline, Markdown, Scope};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::authored::{LineText, Tone, WrappedText, tone_glyph};
use crate::catalog::entry;
use crate::primitives::SlideNode;
use crate::slack::{bold_run, run};
use crate::text::{join_lines, line};

/// The `type` of the fanout node.
pub const TYPE: &str = "slideFanout";

/// One consumer of the source.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schemars(inline, transform = crate::schema::no_null)]
pub struct FanoutTarget {
    /// The target's name, set in mono (a service, a queue, a team).
    pub name: LineText,
    /// What the target does with it, a short phrase.
    pub body: WrappedText,
    /// "primary" for your side, "accent" for the host or another party.
    pub tone: Option<Tone>,
}

/// The fields of a `slideFanout` node.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = crate::schema::no_null)]
pub struct SlideFanout {
    /// What fans out, set in mono: an event, a request, an artifact.
    pub source: LineText,
    /// Two to six targets, in no particular order.
    #[schemars(length(min = 2, max = 6))]
    pub targets: Vec<FanoutTarget>,
}

impl SlideNode for SlideFanout {
    const TYPE: &'static str = TYPE;

    fn catalog() -> CatalogEntry {
        catalog()
    }

    /// Text: `source →`, then `  [●/○ ]name: body` per target (indented two
    /// spaces).
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_lines(std::iter::once(format!("{} →", line(&self.source))).chain(
            self.targets.iter().map(|t| {
                format!(
                    "  {}{}: {}",
                    tone_glyph(t.tone),
                    line(&t.name),
                    line(&t.body)
                )
            }),
        ))
    }

    /// Markdown: a `**source** →` paragraph, then a `- [●/○ ]**name**: body`
    /// list.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::paragraph(Inline::strong(line(&self.source)).then(" →")).then(
            Markdown::bullet_list(self.targets.iter().map(|t| {
                Inline::text(tone_glyph(t.tone))
                    .then(Inline::strong(line(&t.name)))
                    .then(format!(": {}", line(&t.body)).as_str())
            })),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: one `rich_text`: a section with the bold source and ` →`, then
    /// a bullet list of bold `[●/○ ]name`, `: `, body.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let items: Vec<Value> = self
            .targets
            .iter()
            .map(|t| {
                json!({ "type": "rich_text_section", "elements": [
                    bold_run(&format!("{}{}", tone_glyph(t.tone), line(&t.name))),
                    run(&format!(": {}", line(&t.body)))
                ] })
            })
            .collect();
        vec![json!({
            "type": "rich_text",
            "elements": [
                { "type": "rich_text_section", "elements": [bold_run(&line(&self.source)), run(" →")] },
                { "type": "rich_text_list", "style": "bullet", "elements": items }
            ]
        })]
    }
}

/// The catalog entry of `slideFanout`.
pub fn catalog() -> CatalogEntry {
    entry(
        TYPE,
        "Diagrams",
        "One source (an event, a request, an artifact) going to two to six targets that each use it independently.",
        &[
            "One event or request reaching several consumers, each on its own.",
            "A compact picture beside a title: the aside of slideTitle.",
        ],
        &[
            "Ordered steps: use slidePipeline.",
            "Things connected to each other: use slideGraph.",
            "Who owns what is the point: use slideTerritoryGroup.",
            "Points with no shared source: use slideBulletList.",
        ],
        json!({
            "type": "slideFanout",
            "source": "refund.settled",
            "targets": [
                { "name": "ledger", "body": "Closes the refund", "tone": "primary" },
                { "name": "email", "body": "Tells the customer" },
                { "name": "partner-api", "body": "Updates the partner report", "tone": "accent" }
            ]
        }),
    )
}
