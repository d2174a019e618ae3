//! The `slack` surface: Block Kit `{ text, blocks }` (slides-and-runtime.md
//! §2.5.4), and the Markdown → Block Kit conversion used for primitives
//! without a `slack` renderer.
//!
//! Implemented: the header/context envelope, per-node blocks with the
//! Markdown fallback, per-slot text clamping, the 50-block budget with its
//! elision notice, and `text` from the text surface. Not implemented (see
//! the crate's known gaps): the spacer/divider rhythm, field coalescing and
//! the table character budget.

use serde::Serialize;
use serde_json::{Value, json};

use crate::surface::Markdown;
use crate::surface::markdown::{Block, escape_mrkdwn};

/// Slack's per-message block limit.
pub const SLACK_MAX_BLOCKS: usize = 50;
/// Slack's limit on a `header` block's text, in characters.
pub const SLACK_HEADER_LIMIT: usize = 150;
/// Slack's limit on a `section` block's text, in characters.
pub const SLACK_SECTION_LIMIT: usize = 3000;
/// Slack's limit on the fallback `text` of a message, in characters.
pub const SLACK_TEXT_LIMIT: usize = 40_000;

/// One `chat.postMessage` payload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlackRender {
    /// The notification / fallback text: the text surface's render (same
    /// `heading`), clamped to [`SLACK_TEXT_LIMIT`].
    pub text: String,
    /// The Block Kit blocks.
    pub blocks: Vec<Value>,
}

/// Cuts `text` to at most `limit` characters, ending with `…` when cut.
pub fn clamp_text(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(limit.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A `section` block with `mrkdwn` text, clamped.
pub fn section(mrkdwn: &str) -> Value {
    json!({
        "type": "section",
        "text": { "type": "mrkdwn", "text": clamp_text(mrkdwn, SLACK_SECTION_LIMIT) }
    })
}

/// A `header` block with `plain_text`, clamped.
pub fn header(plain: &str) -> Value {
    json!({
        "type": "header",
        "text": { "type": "plain_text", "text": clamp_text(plain, SLACK_HEADER_LIMIT), "emoji": true }
    })
}

/// A `context` block with one `mrkdwn` element.
pub fn context(mrkdwn: &str) -> Value {
    json!({
        "type": "context",
        "elements": [ { "type": "mrkdwn", "text": clamp_text(mrkdwn, SLACK_SECTION_LIMIT) } ]
    })
}

/// A `divider` block.
pub fn divider() -> Value {
    json!({ "type": "divider" })
}

/// The Markdown of a node as Block Kit: a heading becomes a `header`, a
/// paragraph / list / code block / table / quote a `mrkdwn` `section`, a
/// rule a `divider`.
pub(crate) fn markdown_to_blocks(markdown: &Markdown) -> Vec<Value> {
    markdown
        .blocks
        .iter()
        .map(|block| match block {
            Block::Heading(_, content) => header(&content.to_plain()),
            Block::Rule => divider(),
            other => section(&block_mrkdwn(other)),
        })
        .collect()
}

fn block_mrkdwn(block: &Block) -> String {
    match block {
        Block::Paragraph(content) => content.to_mrkdwn(),
        Block::Heading(_, content) => format!("*{}*", content.to_mrkdwn()),
        Block::Bullets(items) => items
            .iter()
            .map(|item| format!("• {}", item.to_mrkdwn()))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Ordered(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| format!("{}. {}", index + 1, item.to_mrkdwn()))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Code { code, .. } => format!("```\n{}\n```", escape_mrkdwn(code)),
        Block::Quote(inner) => inner
            .blocks
            .iter()
            .map(block_mrkdwn)
            .collect::<Vec<_>>()
            .join("\n\n")
            .split('\n')
            .map(|line| format!("> {line}"))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Table { head, rows } => rows
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .map(|(index, cell)| match head.get(index) {
                        Some(name) if !name.is_empty() => {
                            format!("*{}*: {}", name.to_mrkdwn(), cell.to_mrkdwn())
                        }
                        _ => cell.to_mrkdwn(),
                    })
                    .collect::<Vec<_>>()
                    .join(" · ")
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Rule => "———".to_owned(),
    }
}

/// The `slack` envelope: with `heading`, the title as a `header` and the
/// subtitle as a `context`; then the nodes' blocks; past
/// [`SLACK_MAX_BLOCKS`] the tail is cut and a context notice
/// `_+N more blocks elided to fit Slack's limit._` ends the list.
pub(crate) fn envelope(
    composition: &Value,
    heading: bool,
    body: Vec<Value>,
    text: String,
) -> SlackRender {
    let mut blocks = Vec::new();
    if heading && let Some(view) = crate::composition::Composition::from_value(composition) {
        if let Some(title) = view.title() {
            blocks.push(header(title));
        }
        if let Some(subtitle) = view.subtitle() {
            blocks.push(context(&escape_mrkdwn(subtitle)));
        }
    }
    blocks.extend(body);
    if blocks.len() > SLACK_MAX_BLOCKS {
        let kept = SLACK_MAX_BLOCKS - 1;
        let elided = blocks.len() - kept;
        blocks.truncate(kept);
        blocks.push(context(&format!(
            "_+{elided} more blocks elided to fit Slack's limit._"
        )));
    }
    SlackRender {
        text: clamp_text(&text, SLACK_TEXT_LIMIT),
        blocks,
    }
}
