//! The Slack table character budget:
//! tables are counted in message order against
//! `SLACK_TABLE_CHARACTER_BUDGET`; the first that would pass it and every
//! later one degrade to `rich_text` `heading: cell` lines.

mod common;

/// The Slack table character budget the `slack` module documents.
const SLACK_TABLE_CHARACTER_BUDGET: usize = 10_000;
use isomer_sdk::{Markdown, Pack, Primitive, RenderOptions, Runtime};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// A headed grid; the test pack has no table-like primitive.
#[derive(Deserialize, JsonSchema)]
struct Grid {
    /// The column heads.
    columns: Vec<String>,
    /// The rows, one cell per column.
    rows: Vec<Vec<String>>,
}

fn raw(text: &str) -> Value {
    json!({ "type": "raw_text", "text": text })
}

/// A `grid` renders one native `table` block: the heads as the first row,
/// then the rows, every cell `raw_text`.
fn grid() -> Primitive {
    Primitive::builder::<Grid>("grid")
        .purpose("A headed grid.")
        .example(json!({ "type": "grid", "columns": ["A"], "rows": [["1"]] }))
        .text(|node, _| node.columns.join(" "))
        .markdown(|node, _| {
            Markdown::table(
                node.columns.iter().map(Into::into).collect(),
                node.rows
                    .iter()
                    .map(|row| row.iter().map(Into::into).collect())
                    .collect(),
            )
        })
        .slack(|node, _| {
            let mut rows = vec![node.columns.iter().map(|c| raw(c)).collect::<Vec<_>>()];
            rows.extend(
                node.rows
                    .iter()
                    .map(|row| row.iter().map(|c| raw(c)).collect()),
            );
            vec![json!({ "type": "table", "rows": rows })]
        })
        .build()
        .expect("grid is a valid primitive")
}

fn runtime() -> Runtime {
    Runtime::builder()
        .pack(common::pack())
        .pack(
            Pack::new("grid")
                .primitive(grid())
                .build()
                .expect("the grid pack is valid"),
        )
        .build()
        .expect("the runtime builds")
}

fn grid_node(columns: &[&str], rows: &[&[&str]]) -> Value {
    json!({ "type": "grid", "columns": columns, "rows": rows })
}

/// The `table` block a grid node renders to.
fn table_block(columns: &[&str], rows: &[&[&str]]) -> Value {
    let mut all = vec![columns.iter().map(|c| raw(c)).collect::<Vec<_>>()];
    all.extend(rows.iter().map(|row| row.iter().map(|c| raw(c)).collect()));
    json!({ "type": "table", "rows": all })
}

fn blocks(body: Value) -> Vec<Value> {
    runtime()
        .render_slack(common::view(body), &RenderOptions::default())
        .expect("a valid composition renders")
        .blocks
}

fn spacer() -> Value {
    json!({ "type": "section", "text": { "type": "mrkdwn", "text": " " } })
}

fn bold(text: &str) -> Value {
    json!({ "type": "text", "text": text, "style": { "bold": true } })
}

fn plain(text: &str) -> Value {
    json!({ "type": "text", "text": text })
}

fn rich_text(runs: Vec<Value>) -> Value {
    json!({ "type": "rich_text", "elements": [ { "type": "rich_text_section", "elements": runs } ] })
}

#[test]
fn one_small_table_stays_a_table() {
    let columns = ["Region", "Cut-off"];
    let rows: [&[&str]; 2] = [&["EU", "02:00 UTC"], &["US", "22:00 UTC"]];
    assert_eq!(
        blocks(json!([grid_node(&columns, &rows)])),
        vec![table_block(&columns, &rows)]
    );
}

#[test]
fn a_table_exactly_at_the_budget_stays_a_table() {
    // 2 + 2 heading characters and two cells of 4,998 emoji: 10,000
    // characters, 19,996 UTF-16 code units (the budget counts chars, as
    // every Slack limit in the sdk does).
    let cell = "😀".repeat(4_998);
    let columns = ["Ab", "Cd"];
    let rows: [&[&str]; 1] = [&[&cell, &cell]];
    let counted: usize = columns.iter().map(|c| c.chars().count()).sum::<usize>()
        + rows[0].iter().map(|c| c.chars().count()).sum::<usize>();
    assert_eq!(counted, SLACK_TABLE_CHARACTER_BUDGET);
    assert_eq!(
        blocks(json!([grid_node(&columns, &rows)])),
        vec![table_block(&columns, &rows)]
    );
}

#[test]
fn a_table_one_character_over_the_budget_degrades_to_lines() {
    // 4 + 4 + 1 + 9,986 + 1 + 5 = 10,001 characters.
    let long = "x".repeat(9_986);
    let columns = ["Name", "Note"];
    let rows: [&[&str]; 2] = [&["a", &long], &["b", "short"]];
    assert_eq!(
        blocks(json!([grid_node(&columns, &rows)])),
        vec![rich_text(vec![
            bold("Name"),
            plain(": a · "),
            bold("Note"),
            plain(&format!(": {long}\n")),
            bold("Name"),
            plain(": b · "),
            bold("Note"),
            plain(": short"),
        ])]
    );
}

#[test]
fn of_two_tables_only_the_second_crosses_the_budget_and_degrades() {
    // 1 + 5,999 = 6,000 characters fit; the second's 1 + 4,001 = 4,002
    // would make 10,002.
    let first_cell = "f".repeat(5_999);
    let second_cell = "s".repeat(4_001);
    let first_rows: [&[&str]; 1] = [&[&first_cell]];
    let second_rows: [&[&str]; 1] = [&[&second_cell]];
    let got = blocks(json!([
        grid_node(&["A"], &first_rows),
        { "type": "note", "text": "between" },
        grid_node(&["B"], &second_rows),
    ]));
    assert_eq!(
        got,
        vec![
            table_block(&["A"], &first_rows),
            spacer(),
            json!({ "type": "section", "text": { "type": "mrkdwn", "text": "between" } }),
            spacer(),
            rich_text(vec![bold("B"), plain(&format!(": {second_cell}"))]),
        ]
    );
}

#[test]
fn every_table_after_the_first_overflow_degrades_even_a_small_one() {
    // 6,000 fit; 5,000 would pass the budget; the last table (2
    // characters) would still fit the remaining 4,000 but comes after the
    // overflow, so it degrades too: tables keep message order.
    let first_cell = "f".repeat(5_999);
    let second_cell = "s".repeat(4_999);
    let first_rows: [&[&str]; 1] = [&[&first_cell]];
    let second_rows: [&[&str]; 1] = [&[&second_cell]];
    let small_rows: [&[&str]; 1] = [&["d"]];
    let got = blocks(json!([
        grid_node(&["A"], &first_rows),
        grid_node(&["B"], &second_rows),
        grid_node(&["C"], &small_rows),
    ]));
    assert_eq!(
        got,
        vec![
            table_block(&["A"], &first_rows),
            spacer(),
            rich_text(vec![bold("B"), plain(&format!(": {second_cell}"))]),
            spacer(),
            rich_text(vec![bold("C"), plain(": d")]),
        ]
    );
}
