//! Slack limits and clamping, the Markdown fallback, the table budget,
//! field coalescing and the rhythm of a message.

use super::table::{budget_tables, cell_text, table_texts};
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
