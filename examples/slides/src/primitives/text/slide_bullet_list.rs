//! `slideBulletList`: short unordered points with a shared marker
//! (slides-and-runtime.md §3.5, Text).

use isomer_sdk::CatalogEntry;
use isomer_sdk::surface::{Inline, Markdown, Scope};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::authored::{LineText, WrappedText};
use crate::catalog::entry;
use crate::markdown::{caption_paragraph, marks_inline};
use crate::primitives::SlideNode;
use crate::slack::{caption_context, mark_runs, rich_list, run};
use crate::text::{caption, join_lines, plain_text};

/// The `type` of the bullet list node.
pub const TYPE: &str = "slideBulletList";

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

/// The fields of a `slideBulletList` node.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = crate::schema::no_null)]
pub struct SlideBulletList {
    /// One to six short points. Each accepts inline marks.
    #[schemars(length(min = 1, max = 6))]
    pub items: Vec<WrappedText>,
    /// A caption over the points (printed upper-case).
    pub label: Option<LineText>,
    /// "dot" (default), "check" or "x".
    pub marker: Option<BulletMarker>,
}

impl SlideNode for SlideBulletList {
    const TYPE: &'static str = TYPE;

    fn catalog() -> CatalogEntry {
        catalog()
    }

    /// Text: the `LABEL` line, then `- item`, `✓ item` or `× item` lines.
    fn text(&self, _scope: &Scope<'_>) -> String {
        let marker = match self.marker {
            Some(BulletMarker::Check) => "✓",
            Some(BulletMarker::X) => "×",
            _ => "-",
        };
        join_lines(
            std::iter::once(self.label.as_deref().map(caption).unwrap_or_default()).chain(
                self.items
                    .iter()
                    .map(|item| format!("{marker} {}", plain_text(item))),
            ),
        )
    }

    /// Markdown: a `**LABEL**` paragraph, then `- item`, `- ✓ item` or
    /// `- × item`.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let marker = match self.marker {
            Some(BulletMarker::Check) => "✓ ",
            Some(BulletMarker::X) => "× ",
            _ => "",
        };
        caption_paragraph(self.label.as_deref()).then(Markdown::bullet_list(
            self.items
                .iter()
                .map(|item| Inline::text(marker).then(marks_inline(item))),
        ))
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: `context` `*LABEL*`, then a `rich_text` bullet list (a `✓ ` /
    /// `× ` run first for the check and x markers).
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let marker = match self.marker {
            Some(BulletMarker::Check) => Some("✓ "),
            Some(BulletMarker::X) => Some("× "),
            _ => None,
        };
        let mut blocks: Vec<Value> = self
            .label
            .as_deref()
            .map(caption_context)
            .into_iter()
            .collect();
        let items = self
            .items
            .iter()
            .map(|item| {
                let mut runs: Vec<Value> = marker.map(run).into_iter().collect();
                runs.extend(mark_runs(item));
                runs
            })
            .collect();
        blocks.push(rich_list("bullet", items));
        blocks
    }
}

/// The catalog entry of `slideBulletList`.
pub fn catalog() -> CatalogEntry {
    entry(
        TYPE,
        "Text",
        "Two to six short points that share one marker: a dot, a check or a cross.",
        &[
            "A few short points with no key or order.",
            "What is in and out of scope, with the \"check\" and \"x\" markers.",
        ],
        &[
            "Points keyed by a name or date: use slideList.",
            "Terms and their meanings: use slideDefinitions.",
            "Steps in order: use slidePipeline.",
            "Points split between two owners: use slideSplit.",
            "Code or commands: use slideCode or slideCommand.",
        ],
        json!({
            "type": "slideBulletList",
            "label": "In scope",
            "marker": "check",
            "items": ["Card refunds", "Bank transfers", "**Partial** refunds"]
        }),
    )
}
