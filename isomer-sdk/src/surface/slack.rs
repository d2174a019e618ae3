//! The `slack` surface: Block Kit `{ text, blocks }`, and the Markdown →
//! Block Kit conversion used for primitives without a `slack` renderer.
//!
//! Implemented: the header/context envelope, per-node blocks with the
//! Markdown fallback, text clamping of every block (header, section text and
//! fields, context elements, image alt text, button text), the table
//! character budget (10,000 characters: tables past it
//! degrade to `rich_text` lines), field coalescing, the spacer/divider
//! rhythm, the 50-block budget with its elision notice, and `text` from the
//! text surface.
//!
//! Files: Slack's limits, the block constructors, clamping and the
//! envelope with its field coalescing and rhythm are here; `fallback`
//! converts a node's Markdown to blocks; `table` holds the table character
//! budget and the `rich_text` lines a table past it degrades to.

use serde::Serialize;
use serde_json::{Value, json};

use crate::surface::markdown::escape_mrkdwn;

mod block;
mod fallback;
mod table;
#[cfg(test)]
mod tests;

pub(crate) use fallback::markdown_to_blocks;
pub use table::table_lines;

use block::block_type;
use table::budget_tables;

/// Slack's per-message block limit.
pub(crate) const SLACK_MAX_BLOCKS: usize = 50;
/// Slack's limit on a `header` block's text, in characters (UTF-16 code
/// units, see [`slack_length`]).
pub(crate) const SLACK_HEADER_LIMIT: usize = 150;
/// Slack's limit on a `section` block's text, in characters (UTF-16 code
/// units).
pub const SLACK_SECTION_LIMIT: usize = 3000;
/// Slack's limit on one `fields` entry of a section, in characters (UTF-16
/// code units).
pub const SLACK_FIELD_LIMIT: usize = 2000;
/// Slack's limit on an image's `alt_text`, in characters (UTF-16 code
/// units).
pub(crate) const SLACK_ALT_TEXT_LIMIT: usize = 2000;
/// Slack's limit on a button's text, in characters (UTF-16 code units).
pub(crate) const SLACK_BUTTON_LIMIT: usize = 75;
/// Slack's limit on the fallback `text` of a message, in characters (UTF-16
/// code units).
pub(crate) const SLACK_TEXT_LIMIT: usize = 40_000;

/// One `chat.postMessage` payload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlackRender {
    /// The notification / fallback text: the text surface's render (same
    /// `heading`) with `&`, `<` and `>` escaped as in the blocks' `mrkdwn`
    /// (Slack reads this field as `mrkdwn`, so authored `<!channel>` or
    /// `<@U123>` would otherwise notify and `<url|x>` would link), clamped to
    /// 40,000 characters.
    pub text: String,
    /// The Block Kit blocks.
    pub blocks: Vec<Value>,
}

/// The length of `text` as Slack counts it against its limits: UTF-16 code
/// units, the length a JavaScript string reports, as upstream measures
/// too. A character outside the Basic Multilingual Plane (most emoji)
/// counts 2, so a header of 150 emoji is 300 long, not 150.
pub fn slack_length(text: &str) -> usize {
    crate::js::utf16_len(text)
}

/// Cuts `text` to at most `limit` characters as Slack counts them
/// ([`slack_length`]), ending with `…` when cut; a cut never splits a
/// character (an emoji that would straddle the limit is dropped whole).
pub fn clamp_text(text: &str, limit: usize) -> String {
    if slack_length(text) <= limit {
        return text.to_owned();
    }
    let room = limit.saturating_sub('…'.len_utf16());
    let mut used = 0;
    let mut out = String::new();
    for c in text.chars() {
        used += c.len_utf16();
        if used > room {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// Clamps the texts of one block to Slack's per-slot limits, in place.
fn clamp_block(block: &mut Value) {
    fn clamp_at(value: Option<&mut Value>, limit: usize) {
        if let Some(Value::String(text)) = value
            && slack_length(text) > limit
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

/// The `slack` envelope: with `heading`, the title as a `header` and the
/// subtitle as a `context`; then the nodes' blocks, clamped; tables past
/// [`SLACK_TABLE_CHARACTER_BUDGET`] degraded to `rich_text` lines; past
/// [`SLACK_MAX_BLOCKS`] the tail is cut and a context notice
/// `_+N more blocks elided to fit Slack's limit._` ends the list. `text`
/// (the text surface's render) is escaped as `mrkdwn`, then clamped.
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
    let blocks = rhythm(coalesce_fields(budget_tables(blocks)));
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
        text: clamp_text(&escape_mrkdwn(&text), SLACK_TEXT_LIMIT),
        blocks,
    }
}

/// Slack's limit on the fields of one `section`.
pub const SLACK_MAX_FIELDS: usize = 10;

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

/// The section rhythm, as upstream spaces sections: a spacer
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
