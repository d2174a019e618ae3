//! `slideSplit`: two panes side by side. Its children are `panes[i].items[j]`.

use isomer_sdk::surface::{Html, Markdown, Scope};
use isomer_sdk::{Node, RefineContext};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::authored::{LineText, Tone, WrappedText, tone_glyph};
use crate::check::{Issue, nested_frames};
use crate::html::{classed, marks_html, toned_caption};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{marks_mrkdwn, text_mrkdwn};
use crate::text::{caption, join_blocks, join_lines, line, plain_text};
use isomer_sdk::surface::slack::{context, section};

/// The message for a pane with a tone and no label.
pub const TONE_NEEDS_LABEL: &str = "tone colors the label, so it needs one";

/// How the width is shared between the panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum SplitRatio {
    /// 1:1 (the default).
    Even,
    /// 1.1:1, the left pane a little wider.
    WideLeft,
    /// 0.75:1.25, the left pane narrower.
    NarrowLeft,
    /// A main column and a narrow fixed column of notes.
    Aside,
}

/// What sits between the panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum SplitDivider {
    /// Empty space (the default).
    Gap,
    /// A visible rule.
    Rule,
    /// A thin rule.
    Hairline,
    /// An arrow: the left pane becomes the right one.
    Arrow,
}

slide_node! {
    catalog "slideSplit" in "Layout" {
        purpose: "Two panes side by side, each holding its own nodes, with an optional caption per pane and a conclusion under both.",
        use_when: [
            "Dividing responsibilities between two parties: a list in each pane and a \"rule\" divider.",
            "One thing turning into another: the \"arrow\" divider.",
            "Two nodes next to each other, or a main idea with notes beside it (\"aside\" ratio, \"hairline\" divider, a label over the notes).",
        ],
        avoid_when: [
            "Nodes stacked top to bottom: put them straight in the slideFrame body.",
            "Ownership across several teams: use slideTerritoryGroup.",
            "Two to four parallel options each with a title and a sentence: use slideColumns.",
        ],
        example: {
            "type": "slideSplit",
            "divider": "rule",
            "panes": [
                {
                    "label": "Ledger team",
                    "tone": "primary",
                    "items": [{ "type": "slideBulletList", "items": ["Runs the nightly batch", "Owns the retry"] }]
                },
                {
                    "label": "Card networks",
                    "tone": "accent",
                    "items": [{ "type": "slideBulletList", "items": ["Confirm each payout", "Report chargebacks"] }]
                }
            ],
            "footnote": "Each side pages only its **own** on-call."
        },
    }

    /// The fields of a `slideSplit` node.
    pub struct SlideSplit {
        /// Exactly two panes, left then right.
        #[schemars(length(min = 2, max = 2))]
        pub panes: Vec<SplitPane>,
        /// "even" (default), "wideLeft", "narrowLeft" or "aside" (main column
        /// plus narrow notes).
        pub ratio: Option<SplitRatio>,
        /// "gap" (default), "rule", "hairline" or "arrow" (left becomes right).
        pub divider: Option<SplitDivider>,
        /// A conclusion under both panes. Accepts inline marks.
        pub footnote: Option<WrappedText>,
    }

    /// One pane of a split.
    pub struct SplitPane {
        /// A caption over the pane (printed upper-case).
        pub label: Option<LineText>,
        /// Colours the label: "primary" for your side, "accent" for the other
        /// party. Needs a label.
        pub tone: Option<Tone>,
        /// The pane's nodes, top to bottom (not slideFrame).
        #[schemars(length(min = 1, max = 6))]
        pub items: Vec<Node>,
    }
}

impl SlideSplit {
    fn is_arrow(&self) -> bool {
        self.divider == Some(SplitDivider::Arrow)
    }
}

impl SlideNode for SlideSplit {
    /// A pane's tone needs its label; no pane holds a frame.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = Vec::new();
        for (index, pane) in self.panes.iter().enumerate() {
            if pane.tone.is_some() && pane.label.is_none() {
                issues.push(Issue::new(format!("panes[{index}].tone"), TONE_NEEDS_LABEL));
            }
            issues.extend(nested_frames(&format!("panes[{index}].items"), &pane.items));
        }
        issues
    }

    /// A pane label or the footnote is the split's own content.
    fn has_own_content(node: &Value) -> Option<bool> {
        let labelled = node
            .get("panes")
            .and_then(Value::as_array)
            .is_some_and(|panes| panes.iter().any(|pane| pane.get("label").is_some()));
        Some(labelled || node.get("footnote").is_some())
    }

    /// Text: per pane a `[●/○ ]LABEL` line directly followed by its nodes;
    /// panes apart by a blank line, with a `→` line between them for the
    /// arrow divider; the footnote last.
    fn text(&self, scope: &Scope<'_>) -> String {
        let mut blocks = Vec::new();
        for (index, pane) in self.panes.iter().enumerate() {
            if index > 0 && self.is_arrow() {
                blocks.push("→".to_owned());
            }
            let body = scope.text_all(pane.items.iter().map(Node::as_value), "\n\n");
            match &pane.label {
                Some(label) => blocks.push(join_lines([
                    format!("{}{}", tone_glyph(pane.tone), caption(label)),
                    body,
                ])),
                None => blocks.push(body),
            }
        }
        blocks.push(
            self.footnote
                .as_deref()
                .map(plain_text)
                .unwrap_or_default()
                .into_owned(),
        );
        join_blocks(blocks)
    }

    /// Markdown: per pane `## [●/○ ]Label` (as authored) then its nodes; a
    /// `→` paragraph between panes for the arrow divider; the footnote as a
    /// paragraph.
    fn markdown(&self, scope: &Scope<'_>) -> Markdown {
        let mut out = Markdown::new();
        for (index, pane) in self.panes.iter().enumerate() {
            if index > 0 && self.is_arrow() {
                out.push(Markdown::paragraph("→"));
            }
            if let Some(label) = &pane.label {
                out.push(Markdown::heading(
                    2,
                    format!("{}{}", tone_glyph(pane.tone), line(label)),
                ));
            }
            out.push(scope.markdown_all(pane.items.iter().map(Node::as_value)));
        }
        out.then(
            self.footnote
                .as_deref()
                .map_or_else(Markdown::new, |f| Markdown::paragraph(marks_inline(f))),
        )
    }

    const NATIVE_HTML: bool = true;

    /// The panes side by side (even, wide left, narrow left, aside) and their dividers.
    const CSS: &'static str = include_str!("slide_split.css");

    /// HTML: `<div class="slide-split slide-split-<ratio>">` holding the
    /// panes in one row (`<div class="slide-split-row">`, equal columns
    /// unless the ratio says otherwise), each pane a `<div class="slide-pane">`
    /// with its label as a toned caption over its nodes; between the panes
    /// `<div class="slide-divider slide-divider-<divider>">`, which holds a
    /// `→` for the arrow divider; the footnote under the row as
    /// `<p class="slide-footnote">`.
    fn html(&self, scope: &Scope<'_>) -> Html {
        let divider = match self.divider {
            None | Some(SplitDivider::Gap) => None,
            Some(SplitDivider::Rule) => Some(("slide-divider", Html::new())),
            Some(SplitDivider::Hairline) => {
                Some(("slide-divider slide-divider-hairline", Html::new()))
            }
            Some(SplitDivider::Arrow) => {
                Some(("slide-divider slide-divider-arrow", Html::text("→")))
            }
        };
        let mut row = Html::new();
        for (index, pane) in self.panes.iter().enumerate() {
            if index > 0
                && let Some((class, content)) = &divider
            {
                row.push(classed("div", class, content.clone()));
            }
            let mut body = pane
                .label
                .as_deref()
                .map_or_else(Html::new, |label| toned_caption(label, pane.tone));
            body.push(scope.html_all(pane.items.iter().map(Node::as_value)));
            row.push(classed("div", "slide-pane", body));
        }
        let ratio = match self.ratio {
            None | Some(SplitRatio::Even) => "slide-split slide-split-even",
            Some(SplitRatio::WideLeft) => "slide-split slide-split-wide-left",
            Some(SplitRatio::NarrowLeft) => "slide-split slide-split-narrow-left",
            Some(SplitRatio::Aside) => "slide-split slide-split-aside",
        };
        let mut out = classed("div", "slide-split-row", row);
        if let Some(footnote) = &self.footnote {
            out.push(classed("p", "slide-footnote", marks_html(footnote)));
        }
        classed("div", ratio, out)
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: per pane a `context` `*[●/○ ]LABEL*`, then its nodes' blocks;
    /// a `context` `→` between panes for the arrow divider; the footnote as
    /// a `section`.
    fn slack(&self, scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = Vec::new();
        for (index, pane) in self.panes.iter().enumerate() {
            if index > 0 && self.is_arrow() {
                blocks.push(context("→"));
            }
            if let Some(label) = &pane.label {
                blocks.push(context(&format!(
                    "*{}{}*",
                    tone_glyph(pane.tone),
                    text_mrkdwn(&caption(label))
                )));
            }
            blocks.extend(scope.slack_all(pane.items.iter().map(Node::as_value)));
        }
        blocks.extend(self.footnote.as_deref().map(|f| section(&marks_mrkdwn(f))));
        blocks
    }
}
