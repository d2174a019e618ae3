//! The table character budget of a message: native `table` blocks while
//! their cells fit, `rich_text` lines ([`table_lines`]) past it.

use serde_json::{Value, json};

use super::block::block_type;

/// The table character budget of one message, in Unicode scalar values
/// (`chars()`; a budget of this port, not one of Slack's limits, which
/// [`slack_length`](super::slack_length) counts): the text of every cell of
/// every `table` block,
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
/// quarter of [`SLACK_TEXT_LIMIT`](super::SLACK_TEXT_LIMIT); past it, cells
/// are paragraphs rather
/// than table data and read better as lines.
pub(crate) const SLACK_TABLE_CHARACTER_BUDGET: usize = 10_000;
/// The separator between the `heading: cell` pairs of one row in a
/// degraded table ([`table_lines`]): a middle dot between spaces, as the
/// Markdown fallback joins a table row's cells.
pub(crate) const SLACK_TABLE_CELL_SEPARATOR: &str = " · ";

/// The text of a table cell: a `raw_text` cell's
/// `text`; for a `rich_text` cell, the `text` of every element inside it
/// (a link without text counts its `url`, an emoji `:name:`), in order.
pub(super) fn cell_text(cell: &Value) -> String {
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
pub(super) fn table_texts(block: &Value) -> Vec<Vec<String>> {
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
/// ` · `: the heading as a bold run, then `": "`
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
pub(super) fn budget_tables(blocks: Vec<Value>) -> Vec<Value> {
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
