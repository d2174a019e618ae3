//! The pack's Block Kit conventions: inline marks as `mrkdwn` (`` `code` ``,
//! `*strong*`, the rest escaped) or as `rich_text` runs (`code` / `bold`
//! styles), captions as `context` blocks, lists as `rich_text` lists and
//! term/body pairs as section `fields`. Blocks come from the sdk's `section`
//! / `header` / `context` helpers where those fit, so their text is clamped
//! to Slack's limits.

use isomer_sdk::surface::escape_mrkdwn;
use isomer_sdk::surface::slack::{
    SLACK_FIELD_LIMIT, SLACK_MAX_FIELDS, SLACK_SECTION_LIMIT, clamp_text, context, slack_length,
};
use serde_json::{Value, json};

use crate::marks::{Mark, parse_marks};
use crate::text::{caption, line};

/// Authored text with inline marks as Slack `mrkdwn`, on one line: code
/// marks as `` `code` ``, strong as `*strong*`, everything else with
/// `&`, `<` and `>` escaped.
pub fn marks_mrkdwn(text: &str) -> String {
    parse_marks(&line(text))
        .into_iter()
        .map(|run| match run {
            Mark::Plain(s) => escape_mrkdwn(s),
            Mark::Code(s) => format!("`{}`", escape_mrkdwn(s)),
            Mark::Strong(s) => format!("*{}*", escape_mrkdwn(s)),
        })
        .collect()
}

/// Plain authored text as Slack `mrkdwn` (escaped, one line).
pub fn text_mrkdwn(text: &str) -> String {
    escape_mrkdwn(&line(text))
}

/// A plain `rich_text` run.
pub fn run(text: &str) -> Value {
    json!({ "type": "text", "text": text })
}

/// A bold `rich_text` run.
pub fn bold_run(text: &str) -> Value {
    json!({ "type": "text", "text": text, "style": { "bold": true } })
}

/// An italic `rich_text` run.
pub fn italic_run(text: &str) -> Value {
    json!({ "type": "text", "text": text, "style": { "italic": true } })
}

/// Authored text with inline marks as `rich_text` runs: code marks styled
/// `code`, strong `bold`, on one line (`rich_text` needs no escaping).
pub fn mark_runs(text: &str) -> Vec<Value> {
    parse_marks(&line(text))
        .into_iter()
        .map(|mark| match mark {
            Mark::Plain(s) => run(s),
            Mark::Code(s) => json!({ "type": "text", "text": s, "style": { "code": true } }),
            Mark::Strong(s) => bold_run(s),
        })
        .collect()
}

/// Authored text with inline marks as bold `rich_text` runs, one run per
/// mark segment (a code segment styled `bold` and `code`), `case` applied
/// to every segment but code: text that is bold as a whole, such as a
/// roadmap item's title or a delta's label. Neighbouring segments of the
/// same style stay separate runs, as upstream prints them.
pub fn bold_mark_runs(text: &str, case: impl Fn(&str) -> String) -> Vec<Value> {
    parse_marks(&line(text))
        .into_iter()
        .map(|mark| match mark {
            Mark::Code(code) => {
                json!({ "type": "text", "text": code, "style": { "bold": true, "code": true } })
            }
            Mark::Plain(s) | Mark::Strong(s) => bold_run(&case(s)),
        })
        .collect()
}

/// A `rich_text` block holding one `rich_text_section` of `runs`: one
/// paragraph whose runs carry their own styles.
pub fn rich_section(runs: Vec<Value>) -> Value {
    json!({
        "type": "rich_text",
        "elements": [ { "type": "rich_text_section", "elements": runs } ]
    })
}

/// A `rich_text` block holding one `rich_text_preformatted` run of `text`
/// (clamped to [`SLACK_SECTION_LIMIT`]): monospace text kept as written,
/// with nothing escaped, for drawings such as a tree.
pub fn rich_preformatted(text: &str) -> Value {
    json!({
        "type": "rich_text",
        "elements": [ {
            "type": "rich_text_preformatted",
            "elements": [ run(&clamp_text(text, SLACK_SECTION_LIMIT)) ]
        } ]
    })
}

/// A `rich_text` block holding one list (`style` `bullet` or `ordered`),
/// one `rich_text_section` per item.
pub fn rich_list(style: &str, items: Vec<Vec<Value>>) -> Value {
    let sections: Vec<Value> = items
        .into_iter()
        .map(|runs| json!({ "type": "rich_text_section", "elements": runs }))
        .collect();
    json!({
        "type": "rich_text",
        "elements": [ { "type": "rich_text_list", "style": style, "elements": sections } ]
    })
}

/// A `rich_text` block holding a section of `heading` runs (left out when
/// empty), then one list as [`rich_list`] builds it: a list under its own
/// heading in one block (roadmap columns, graph captions, fanout sources).
pub fn rich_list_under(heading: Vec<Value>, style: &str, items: Vec<Vec<Value>>) -> Value {
    let mut block = rich_list(style, items);
    if let (false, Some(elements)) = (heading.is_empty(), block["elements"].as_array_mut()) {
        elements.insert(
            0,
            json!({ "type": "rich_text_section", "elements": heading }),
        );
    }
    block
}

/// The blocks of an optional caption: one [`caption_context`], or none.
pub fn caption_blocks(label: Option<&str>) -> Vec<Value> {
    label.map(caption_context).into_iter().collect()
}

/// A caption as bold `mrkdwn`: `*LABEL*`, upper-cased and escaped.
pub fn caption_mrkdwn(label: &str) -> String {
    format!("*{}*", escape_mrkdwn(&caption(label)))
}

/// A free-standing caption: a `context` block `*LABEL*`, upper-cased.
pub fn caption_context(label: &str) -> Value {
    context(&caption_mrkdwn(label))
}

/// A section of `mrkdwn` fields (up to ten, each clamped), for term/body
/// pairs.
pub fn fields_section(fields: Vec<String>) -> Value {
    let fields: Vec<Value> = fields
        .into_iter()
        .take(SLACK_MAX_FIELDS)
        .map(|text| json!({ "type": "mrkdwn", "text": clamp_text(&text, SLACK_FIELD_LIMIT) }))
        .collect();
    json!({ "type": "section", "fields": fields })
}

/// A section of `mrkdwn` fields when every field keeps all of its text
/// (at most [`SLACK_MAX_FIELDS`] fields, each at most [`SLACK_FIELD_LIMIT`]
/// long as Slack counts, [`slack_length`]); `fallback`'s block otherwise,
/// so that nothing is cut. Upstream's `slackFields` keeps the same rule.
pub fn fields_or_else(fields: Vec<String>, fallback: impl FnOnce() -> Value) -> Value {
    let fit = fields.len() <= SLACK_MAX_FIELDS
        && fields
            .iter()
            .all(|text| slack_length(text) <= SLACK_FIELD_LIMIT);
    if !fit {
        return fallback();
    }
    let fields: Vec<Value> = fields
        .into_iter()
        .map(|text| json!({ "type": "mrkdwn", "text": text }))
        .collect();
    json!({ "type": "section", "fields": fields })
}

/// Slack's limit on the rows of one `table` block.
pub const SLACK_TABLE_ROWS: usize = 100;

/// A plain `raw_text` table cell.
pub fn raw_cell(text: &str) -> Value {
    json!({ "type": "raw_text", "text": text })
}

/// A bold table cell (a one-run `rich_text` cell; `raw_text` cannot be
/// styled).
pub fn bold_cell(text: &str) -> Value {
    json!({
        "type": "rich_text",
        "elements": [ { "type": "rich_text_section", "elements": [ bold_run(text) ] } ]
    })
}

/// A native `table` block: `type`, then `rows` (cut to
/// [`SLACK_TABLE_ROWS`]), then `column_settings` (every column wrapped),
/// keys in upstream's order.
pub fn table_block(columns: usize, mut rows: Vec<Vec<Value>>) -> Value {
    rows.truncate(SLACK_TABLE_ROWS);
    let settings: Vec<Value> = (0..columns)
        .map(|_| json!({ "is_wrapped": true }))
        .collect();
    json!({ "type": "table", "rows": rows, "column_settings": settings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_become_mrkdwn_and_the_rest_is_escaped() {
        assert_eq!(
            marks_mrkdwn("**Fast** `a<b` & *x*"),
            "*Fast* `a&lt;b` &amp; *x*"
        );
    }

    #[test]
    fn marks_become_styled_runs() {
        assert_eq!(
            mark_runs("a **b** `c`"),
            vec![
                json!({ "type": "text", "text": "a " }),
                json!({ "type": "text", "text": "b", "style": { "bold": true } }),
                json!({ "type": "text", "text": " " }),
                json!({ "type": "text", "text": "c", "style": { "code": true } }),
            ]
        );
    }
}
