//! The `slack` surface: Block Kit `{ text, blocks }` (slides-and-runtime.md
//! §2.5.4), and the Markdown → Block Kit conversion used for primitives
//! without a `slack` renderer.
//!
//! Implemented: the header/context envelope, per-node blocks with the
//! Markdown fallback, text clamping of every block (header, section text and
//! fields, context elements, image alt text, button text), field
//! coalescing, the spacer/divider rhythm, the 50-block budget with its
//! elision notice, and `text` from the text surface. Not implemented: the
//! table character budget (tables past it are not degraded).

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
/// Slack's limit on one `fields` entry of a section, in characters.
pub const SLACK_FIELD_LIMIT: usize = 2000;
/// Slack's limit on an image's `alt_text`, in characters.
pub const SLACK_ALT_TEXT_LIMIT: usize = 2000;
/// Slack's limit on a button's text, in characters.
pub const SLACK_BUTTON_LIMIT: usize = 75;
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

/// Clamps the texts of one block to Slack's per-slot limits, in place.
fn clamp_block(block: &mut Value) {
    fn clamp_at(value: Option<&mut Value>, limit: usize) {
        if let Some(Value::String(text)) = value
            && text.chars().count() > limit
        {
            *text = clamp_text(text, limit);
        }
    }
    match block_type(block).to_owned().as_str() {
        "header" => clamp_at(block.pointer_mut("/text/text"), SLACK_HEADER_LIMIT),
        "section" => {
            clamp_at(block.pointer_mut("/text/text"), SLACK_SECTION_LIMIT);
            if let Some(Value::Array(fields)) = block.get_mut("fields") {
                for field in fields {
                    clamp_at(field.get_mut("text"), SLACK_FIELD_LIMIT);
                }
            }
        }
        "context" => {
            if let Some(Value::Array(elements)) = block.get_mut("elements") {
                for element in elements {
                    clamp_at(element.get_mut("text"), SLACK_SECTION_LIMIT);
                    clamp_at(element.get_mut("alt_text"), SLACK_ALT_TEXT_LIMIT);
                }
            }
        }
        "image" => clamp_at(block.get_mut("alt_text"), SLACK_ALT_TEXT_LIMIT),
        "actions" => {
            if let Some(Value::Array(elements)) = block.get_mut("elements") {
                for element in elements {
                    clamp_at(element.pointer_mut("/text/text"), SLACK_BUTTON_LIMIT);
                }
            }
        }
        _ => {}
    }
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
    for block in &mut blocks {
        clamp_block(block);
    }
    let blocks = rhythm(coalesce_fields(blocks));
    let mut blocks = blocks;
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

/// Slack's limit on the fields of one `section`.
pub const SLACK_MAX_FIELDS: usize = 10;

fn block_type(block: &Value) -> &str {
    block.get("type").and_then(Value::as_str).unwrap_or("")
}

/// A `section` whose text is a single space: the rhythm's spacer.
fn is_spacer(block: &Value) -> bool {
    block_type(block) == "section" && block["text"]["text"] == " "
}

/// A `section` with `fields` and no `text`.
fn is_field_section(block: &Value) -> bool {
    block_type(block) == "section" && block.get("text").is_none() && block["fields"].is_array()
}

/// A content block: anything but header, divider, actions, context and the
/// spacer.
fn is_content(block: &Value) -> bool {
    !matches!(
        block_type(block),
        "header" | "divider" | "actions" | "context"
    ) && !is_spacer(block)
}

/// The spacer section (`mrkdwn` text `" "`).
pub fn spacer() -> Value {
    json!({ "type": "section", "text": { "type": "mrkdwn", "text": " " } })
}

/// Consecutive one-field sections coalesce into one `fields` section, up to
/// [`SLACK_MAX_FIELDS`] fields.
fn coalesce_fields(blocks: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(blocks.len());
    let mut open = false;
    for block in blocks {
        let one_field =
            is_field_section(&block) && block["fields"].as_array().is_some_and(|f| f.len() == 1);
        if one_field
            && open
            && let Some(Value::Array(fields)) =
                out.last_mut().and_then(|last| last.get_mut("fields"))
            && fields.len() < SLACK_MAX_FIELDS
        {
            fields.push(block["fields"][0].clone());
            continue;
        }
        open = one_field;
        out.push(block);
    }
    out
}

/// The section rhythm (slides-and-runtime.md §2.5.4 step 6): a spacer
/// between two consecutive content blocks (not between two field-only
/// sections); a divider before every header after the first block and
/// before actions, itself preceded by a spacer when the previous block is
/// content and not a table.
fn rhythm(blocks: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(blocks.len() * 2);
    for block in blocks {
        if let Some(previous) = out.last() {
            let kind = block_type(&block);
            if kind == "header" || kind == "actions" {
                if is_content(previous) && block_type(previous) != "table" {
                    out.push(spacer());
                }
                if out.last().map(block_type) != Some("divider") {
                    out.push(divider());
                }
            } else if is_content(&block)
                && is_content(previous)
                && !(is_field_section(&block) && is_field_section(previous))
            {
                out.push(spacer());
            }
        }
        out.push(block);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(text: &str) -> Value {
        json!({ "type": "section", "fields": [ { "type": "mrkdwn", "text": text } ] })
    }

    #[test]
    fn blocks_are_clamped_to_slack_limits() {
        let mut block = json!({ "type": "section", "text": { "type": "mrkdwn", "text": "x".repeat(3005) },
            "fields": [ { "type": "mrkdwn", "text": "y".repeat(2001) } ] });
        clamp_block(&mut block);
        assert_eq!(
            block["text"]["text"].as_str().unwrap().chars().count(),
            3000
        );
        assert!(block["text"]["text"].as_str().unwrap().ends_with('…'));
        assert_eq!(
            block["fields"][0]["text"].as_str().unwrap().chars().count(),
            2000
        );
        let mut header =
            json!({ "type": "header", "text": { "type": "plain_text", "text": "h".repeat(151) } });
        clamp_block(&mut header);
        assert_eq!(
            header["text"]["text"].as_str().unwrap().chars().count(),
            150
        );
        let mut button = json!({ "type": "actions", "elements": [ { "type": "button", "text": { "type": "plain_text", "text": "b".repeat(80) } } ] });
        clamp_block(&mut button);
        assert_eq!(
            button["elements"][0]["text"]["text"]
                .as_str()
                .unwrap()
                .chars()
                .count(),
            75
        );
    }

    #[test]
    fn one_field_sections_coalesce() {
        let blocks = coalesce_fields(vec![field("a"), field("b"), section("c"), field("d")]);
        assert_eq!(blocks.len(), 3);
        assert_eq!(blocks[0]["fields"].as_array().unwrap().len(), 2);
        let many: Vec<Value> = (0..12).map(|i| field(&i.to_string())).collect();
        let blocks = coalesce_fields(many);
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0]["fields"].as_array().unwrap().len(), 10);
    }

    #[test]
    fn spacers_and_dividers_follow_the_rhythm() {
        let blocks = rhythm(vec![
            header("T"),
            context("sub"),
            section("a"),
            section("b"),
            header("H"),
            section("c"),
            json!({ "type": "actions", "elements": [] }),
        ]);
        let kinds: Vec<String> = blocks
            .iter()
            .map(|b| {
                if is_spacer(b) {
                    "spacer".to_owned()
                } else {
                    block_type(b).to_owned()
                }
            })
            .collect();
        assert_eq!(
            kinds,
            vec![
                "header", "context", "section", "spacer", "section", "spacer", "divider", "header",
                "section", "spacer", "divider", "actions"
            ]
        );
    }
}
