//! The `slack` surface: Block Kit `{ text, blocks }`, and the Markdown →
//! Block Kit conversion used for primitives without a `slack` renderer.
//!
//! Implemented: the header/context envelope, per-node blocks with the
//! Markdown fallback, text clamping of every block (header, section text and
//! fields, context elements, image alt text, button text), the table
//! character budget ([`SLACK_TABLE_CHARACTER_BUDGET`]: tables past it
//! degrade to `rich_text` lines), field coalescing, the spacer/divider
//! rhythm, the 50-block budget with its elision notice, and `text` from the
//! text surface.

use serde::Serialize;
use serde_json::{Value, json};

use crate::surface::Markdown;
use crate::surface::markdown::{Block, escape_mrkdwn};

/// Slack's per-message block limit.
pub const SLACK_MAX_BLOCKS: usize = 50;
/// Slack's limit on a `header` block's text, in characters (UTF-16 code
/// units, see [`slack_length`]).
pub const SLACK_HEADER_LIMIT: usize = 150;
/// Slack's limit on a `section` block's text, in characters (UTF-16 code
/// units).
pub const SLACK_SECTION_LIMIT: usize = 3000;
/// Slack's limit on one `fields` entry of a section, in characters (UTF-16
/// code units).
pub const SLACK_FIELD_LIMIT: usize = 2000;
/// Slack's limit on an image's `alt_text`, in characters (UTF-16 code
/// units).
pub const SLACK_ALT_TEXT_LIMIT: usize = 2000;
/// Slack's limit on a button's text, in characters (UTF-16 code units).
pub const SLACK_BUTTON_LIMIT: usize = 75;
/// Slack's limit on the fallback `text` of a message, in characters (UTF-16
/// code units).
pub const SLACK_TEXT_LIMIT: usize = 40_000;
/// The table character budget of one message, in Unicode scalar values
/// (`chars()`; a budget of this port, not one of Slack's limits, which
/// [`slack_length`] counts): the text of every cell of every `table` block,
/// header row included, summed in message order. Tables
/// that fit stay native; the first table that would take the running total
/// past the budget, and every table after it, degrade to `rich_text` lines
/// (see [`table_lines`]).
///
/// Our choice, not Slack's number: upstream does not pin the budget, and
/// Slack documents only the table block's row
/// limit (100 rows, see the slides pack's `SLACK_TABLE_ROWS`), no
/// character total. 10,000 characters keeps a full-size `slideTable`
/// native (a heading row and 12 rows of 6 cells: 78 cells of up to 128
/// characters each) and caps the text a message spends on tables at a
/// quarter of [`SLACK_TEXT_LIMIT`]; past it, cells are paragraphs rather
/// than table data and read better as lines.
pub const SLACK_TABLE_CHARACTER_BUDGET: usize = 10_000;
/// The separator between the `heading: cell` pairs of one row in a
/// degraded table ([`table_lines`]): a middle dot between spaces, as the
/// Markdown fallback joins a table row's cells.
pub const SLACK_TABLE_CELL_SEPARATOR: &str = " · ";

/// One `chat.postMessage` payload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlackRender {
    /// The notification / fallback text: the text surface's render (same
    /// `heading`) with `&`, `<` and `>` escaped as in the blocks' `mrkdwn`
    /// (Slack reads this field as `mrkdwn`, so authored `<!channel>` or
    /// `<@U123>` would otherwise notify and `<url|x>` would link), clamped to
    /// [`SLACK_TEXT_LIMIT`].
    pub text: String,
    /// The Block Kit blocks.
    pub blocks: Vec<Value>,
}

/// The length of `text` as Slack counts it against its limits: UTF-16 code
/// units, the length a JavaScript string reports, as upstream measures
/// too. A character outside the Basic Multilingual Plane (most emoji)
/// counts 2, so a header of 150 emoji is 300 long, not 150.
pub fn slack_length(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
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

/// The Markdown of a node as Block Kit: a heading becomes a `header`, a
/// paragraph / list / code block / table / quote a `mrkdwn` `section`, a
/// rule a `divider`. A heading or section whose text would be empty (an
/// empty heading, a table without any cell text) is left out: Block Kit
/// refuses a text object without characters, and with it the message.
pub(crate) fn markdown_to_blocks(markdown: &Markdown) -> Vec<Value> {
    markdown
        .blocks
        .iter()
        .filter_map(|block| match block {
            Block::Heading(_, content) => {
                let plain = content.to_plain();
                (!plain.is_empty()).then(|| header(&plain))
            }
            Block::Rule => Some(divider()),
            other => {
                let mrkdwn = block_mrkdwn(other);
                (!mrkdwn.is_empty()).then(|| section(&mrkdwn))
            }
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
        Block::Table { head, rows } if rows.is_empty() => head
            .iter()
            .filter(|cell| !cell.is_empty())
            .map(|cell| cell.to_mrkdwn())
            .collect::<Vec<_>>()
            .join(SLACK_TABLE_CELL_SEPARATOR),
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

/// The text of a table cell: a `raw_text` cell's
/// `text`; for a `rich_text` cell, the `text` of every element inside it
/// (a link without text counts its `url`, an emoji `:name:`), in order.
fn cell_text(cell: &Value) -> String {
    if cell.get("type").and_then(Value::as_str) == Some("raw_text") {
        return cell
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
    }
    let mut out = String::new();
    // Depth-first, in document order, without recursion.
    let mut stack: Vec<&Value> = vec![cell];
    while let Some(value) = stack.pop() {
        if let Some(Value::Array(elements)) = value.get("elements") {
            stack.extend(elements.iter().rev());
            continue;
        }
        match (
            value.get("type").and_then(Value::as_str),
            value.get("text").and_then(Value::as_str),
        ) {
            (_, Some(text)) => out.push_str(text),
            (Some("link"), None) => {
                out.push_str(value.get("url").and_then(Value::as_str).unwrap_or(""));
            }
            (Some("emoji"), None) => {
                if let Some(name) = value.get("name").and_then(Value::as_str) {
                    out.push(':');
                    out.push_str(name);
                    out.push(':');
                }
            }
            _ => {}
        }
    }
    out
}

/// The rows of a `table` block as cell texts ([`cell_text`]); a row or
/// `rows` that is not an array counts as empty.
fn table_texts(block: &Value) -> Vec<Vec<String>> {
    block
        .get("rows")
        .and_then(Value::as_array)
        .map(|rows| {
            rows.iter()
                .map(|row| {
                    row.as_array()
                        .map(|cells| cells.iter().map(cell_text).collect())
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A `text` run of a `rich_text` section, bold or plain.
fn run(text: &str, bold: bool) -> Value {
    if bold {
        json!({ "type": "text", "text": text, "style": { "bold": true } })
    } else {
        json!({ "type": "text", "text": text })
    }
}

/// A degraded table (past the table budget): one `rich_text`
/// block holding one `rich_text_section` whose runs spell one line per body
/// row, lines separated by a `"\n"` in the text (a newline inside a
/// section is a line break in every Slack client). `rows` are cell texts;
/// the first row is the heading row.
///
/// A body row's line is its `heading: cell` pairs joined by
/// [`SLACK_TABLE_CELL_SEPARATOR`]: the heading as a bold run, then `": "`
/// and the cell as plain text (cell styles are not kept). A cell whose
/// text is empty is left out; a cell under an empty heading (a matrix's
/// corner) prints alone. A row whose cells after the first are all empty
/// (the slides pack's group-label row) prints its first cell alone, bold.
/// A row with no text prints no line. A table without body rows prints its
/// heading row's cells joined by the separator. Adjacent plain runs are
/// merged. `None` when there is no text at all (the block is dropped).
///
/// ```
/// use isomer_sdk::surface::slack::table_lines;
/// use serde_json::json;
///
/// let rows = vec![
///     vec!["Region".to_owned(), "Cut-off".to_owned()],
///     vec!["EU".to_owned(), "02:00 UTC".to_owned()],
/// ];
/// assert_eq!(
///     table_lines(&rows),
///     Some(json!({ "type": "rich_text", "elements": [ { "type": "rich_text_section", "elements": [
///         { "type": "text", "text": "Region", "style": { "bold": true } },
///         { "type": "text", "text": ": EU · " },
///         { "type": "text", "text": "Cut-off", "style": { "bold": true } },
///         { "type": "text", "text": ": 02:00 UTC" }
///     ] } ] }))
/// );
/// ```
pub fn table_lines(rows: &[Vec<String>]) -> Option<Value> {
    // (text, bold) runs; adjacent plain runs merge below.
    let mut runs: Vec<(String, bool)> = Vec::new();
    let headings: &[String] = rows.first().map(Vec::as_slice).unwrap_or(&[]);
    let body = rows.get(1..).unwrap_or(&[]);
    let mut line_runs: Vec<Vec<(String, bool)>> = Vec::new();
    for row in body {
        let mut line: Vec<(String, bool)> = Vec::new();
        let label_row = row.len() > 1 && row[1..].iter().all(String::is_empty);
        if label_row {
            if !row[0].is_empty() {
                line.push((row[0].clone(), true));
            }
        } else {
            for (index, cell) in row.iter().enumerate() {
                if cell.is_empty() {
                    continue;
                }
                if !line.is_empty() {
                    line.push((SLACK_TABLE_CELL_SEPARATOR.to_owned(), false));
                }
                match headings.get(index) {
                    Some(heading) if !heading.is_empty() => {
                        line.push((heading.clone(), true));
                        line.push((format!(": {cell}"), false));
                    }
                    _ => line.push((cell.clone(), false)),
                }
            }
        }
        if !line.is_empty() {
            line_runs.push(line);
        }
    }
    if line_runs.is_empty() {
        let heading_line: Vec<&str> = headings
            .iter()
            .map(String::as_str)
            .filter(|h| !h.is_empty())
            .collect();
        if !heading_line.is_empty() {
            line_runs.push(vec![(heading_line.join(SLACK_TABLE_CELL_SEPARATOR), false)]);
        }
    }
    for (index, line) in line_runs.into_iter().enumerate() {
        if index > 0 {
            runs.push(("\n".to_owned(), false));
        }
        runs.extend(line);
    }
    if runs.is_empty() {
        return None;
    }
    let mut merged: Vec<(String, bool)> = Vec::with_capacity(runs.len());
    for (text, bold) in runs {
        match merged.last_mut() {
            Some((last, false)) if !bold => last.push_str(&text),
            _ => merged.push((text, bold)),
        }
    }
    let elements: Vec<Value> = merged.iter().map(|(text, bold)| run(text, *bold)).collect();
    Some(json!({
        "type": "rich_text",
        "elements": [ { "type": "rich_text_section", "elements": elements } ]
    }))
}

/// Step 4 of the envelope: `table` blocks are counted in message order
/// against [`SLACK_TABLE_CHARACTER_BUDGET`]; while the running total stays
/// within it (a table landing exactly on the budget fits) a table stays;
/// the first table that would pass it, and every later table whatever its
/// size, become [`table_lines`] (or vanish when they hold no text).
fn budget_tables(blocks: Vec<Value>) -> Vec<Value> {
    let mut spent = 0usize;
    let mut over = false;
    let mut out = Vec::with_capacity(blocks.len());
    for block in blocks {
        if block_type(&block) != "table" {
            out.push(block);
            continue;
        }
        let rows = table_texts(&block);
        if !over {
            let characters: usize = rows.iter().flatten().map(|cell| cell.chars().count()).sum();
            if spent + characters <= SLACK_TABLE_CHARACTER_BUDGET {
                spent += characters;
                out.push(block);
                continue;
            }
            over = true;
        }
        out.extend(table_lines(&rows));
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    fn field(text: &str) -> Value {
        json!({ "type": "section", "fields": [ { "type": "mrkdwn", "text": text } ] })
    }

    #[test]
    fn limits_count_utf16_code_units_and_never_split_a_character() {
        assert_eq!(slack_length("aé日"), 3);
        assert_eq!(slack_length("😀"), 2);
        let header = clamp_text(&"😀".repeat(150), SLACK_HEADER_LIMIT);
        assert_eq!(header, format!("{}…", "😀".repeat(74)));
        assert_eq!(slack_length(&header), 149);
        assert_eq!(
            clamp_text(&"😀".repeat(75), SLACK_HEADER_LIMIT),
            "😀".repeat(75)
        );
        assert_eq!(clamp_text("a😀b", 3), "a…");
        assert_eq!(clamp_text("abcd", 3), "ab…");
    }

    #[test]
    fn the_fallback_text_is_escaped_like_the_blocks() {
        let render = envelope(
            &json!({ "type": "view", "body": [] }),
            false,
            Vec::new(),
            "<!channel> & <@U123> <javascript:alert(1)|x>".to_owned(),
        );
        assert_eq!(
            render.text,
            "&lt;!channel&gt; &amp; &lt;@U123&gt; &lt;javascript:alert(1)|x&gt;"
        );
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

    fn texts(rows: &[&[&str]]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|row| row.iter().map(|cell| (*cell).to_owned()).collect())
            .collect()
    }

    #[test]
    fn rich_text_cells_count_their_runs_links_and_emoji() {
        let cell = json!({ "type": "rich_text", "elements": [ { "type": "rich_text_section", "elements": [
            { "type": "text", "text": "EU", "style": { "bold": true } },
            { "type": "link", "url": "https://x.test" },
            { "type": "link", "url": "https://y.test", "text": "y" },
            { "type": "emoji", "name": "tada" },
            { "type": "user", "user_id": "U1" }
        ] } ] });
        assert_eq!(cell_text(&cell), "EUhttps://x.testy:tada:");
        assert_eq!(
            cell_text(&json!({ "type": "raw_text", "text": "Straße" })),
            "Straße"
        );
        assert_eq!(cell_text(&json!({ "type": "raw_text" })), "");
        let block = json!({ "type": "table", "rows": [ [ cell, { "type": "raw_text", "text": "a" } ], "not a row" ] });
        assert_eq!(
            table_texts(&block),
            vec![
                vec!["EUhttps://x.testy:tada:".to_owned(), "a".to_owned()],
                vec![]
            ]
        );
    }

    #[test]
    fn label_rows_corners_and_empty_cells_in_degraded_lines() {
        // A matrix corner (empty heading), a group-label row, an empty cell.
        let rows = texts(&[
            &["", "Fast", "Cheap"],
            &["Europe", "", ""],
            &["Plan A", "Yes", ""],
            &["", "", ""],
        ]);
        assert_eq!(
            table_lines(&rows),
            Some(
                json!({ "type": "rich_text", "elements": [ { "type": "rich_text_section", "elements": [
                { "type": "text", "text": "Europe", "style": { "bold": true } },
                { "type": "text", "text": "\nPlan A · " },
                { "type": "text", "text": "Fast", "style": { "bold": true } },
                { "type": "text", "text": ": Yes" }
            ] } ] })
            )
        );
        // No body rows: the heading row is the line.
        assert_eq!(
            table_lines(&texts(&[&["A", "", "B"]])),
            Some(
                json!({ "type": "rich_text", "elements": [ { "type": "rich_text_section", "elements": [
                { "type": "text", "text": "A · B" }
            ] } ] })
            )
        );
        assert_eq!(table_lines(&texts(&[&["", ""], &["", ""]])), None);
        assert_eq!(table_lines(&[]), None);
    }

    #[test]
    fn tables_without_text_vanish_once_the_budget_is_spent() {
        let big = json!({ "type": "table", "rows": [ [ { "type": "raw_text", "text": "x".repeat(10_001) } ] ] });
        let empty = json!({ "type": "table", "rows": [ [ { "type": "raw_text", "text": "" } ] ] });
        // Before the overflow an empty table costs nothing and stays.
        assert_eq!(
            budget_tables(vec![
                empty.clone(),
                big.clone(),
                empty.clone(),
                section("s")
            ]),
            vec![
                empty,
                json!({ "type": "rich_text", "elements": [ { "type": "rich_text_section", "elements": [
                    { "type": "text", "text": "x".repeat(10_001) }
                ] } ] }),
                section("s"),
            ]
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
