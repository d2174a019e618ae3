//! The places where upstream's published output differs from the obvious
//! rendering, each pinned as an exact string: code blocks on Slack, diff
//! marker columns, placeholders, delta joins, table captions and heads,
//! command labels, eyebrows, Markdown tables, native Slack blocks for bars
//! and deltas, stats fields, one-step pipeline spans, and the Slack
//! fallback text.

mod common;

use common::{render_node, runtime, view};
use isomer_sdk::{RenderOptions, Surface};
use serde_json::{Value, json};

fn text(node: &Value) -> String {
    render_node(Surface::Text, node)
}

fn markdown(node: &Value) -> String {
    render_node(Surface::Markdown, node)
}

fn blocks(node: &Value) -> Vec<Value> {
    let slack: Value =
        serde_json::from_str(&render_node(Surface::Slack, node)).expect("slack renders JSON");
    slack["blocks"].as_array().expect("blocks").clone()
}

#[test]
fn slack_code_sits_on_its_own_lines_in_every_code_primitive_and_container() {
    let code =
        json!({ "type": "slideCode", "panels": [{ "file": "a.ts", "lines": ["a()", "b()"] }] });
    assert_eq!(blocks(&code)[0]["text"]["text"], "a.ts\n```\na()\nb()\n```");
    let command = json!({ "type": "slideCommand", "command": "ls" });
    assert_eq!(blocks(&command)[0]["text"]["text"], "```\nls\n```");
    let diff = json!({ "type": "slideDiff", "lines": [{ "text": "x", "op": "add" }] });
    assert_eq!(blocks(&diff)[0]["text"]["text"], "```\n+x\n```");
    let transcript = json!({ "type": "slideTranscript", "turns": [{ "role": "model", "format": "code", "text": "{}" }] });
    assert_eq!(
        blocks(&transcript)[0]["text"]["text"],
        "*MODEL*\n```\n{}\n```"
    );
    let stack = json!({ "type": "slideStack", "items": [command] });
    assert_eq!(blocks(&stack)[0]["text"]["text"], "```\nls\n```");
    let split =
        json!({ "type": "slideSplit", "panes": [{ "items": [code] }, { "items": [diff] }] });
    let split = blocks(&split);
    assert_eq!(split[0]["text"]["text"], "a.ts\n```\na()\nb()\n```");
    assert_eq!(split[2]["text"]["text"], "```\n+x\n```");
}

#[test]
fn diff_lines_carry_a_one_character_marker_column() {
    let node = json!({ "type": "slideDiff", "lines": [
        { "text": "checkout:" },
        { "text": "  timeout: 30s", "op": "remove" },
        { "text": "  timeout: 90s", "op": "add" },
        { "text": "" }
    ] });
    assert_eq!(
        text(&node),
        " checkout:\n-  timeout: 30s\n+  timeout: 90s\n "
    );
    assert_eq!(
        markdown(&node),
        "```diff\n checkout:\n-  timeout: 30s\n+  timeout: 90s\n \n```"
    );
}

#[test]
fn a_missing_value_is_pending_and_a_delta_joins_with_full_stops() {
    let stat = json!({ "type": "slideStat", "body": "partners" });
    assert_eq!(text(&stat), "[value pending] — partners");
    assert_eq!(markdown(&stat), "_value pending_ — partners");
    let delta = json!({
        "type": "slideDelta",
        "before": { "label": "Before", "value": "13" },
        "after": { "label": "After", "value": "26" },
        "change": "+13",
        "body": "Twice as many."
    });
    assert_eq!(text(&delta), "BEFORE 13 → AFTER 26. +13. Twice as many.");
    assert_eq!(
        markdown(&delta),
        "**BEFORE** 13 → **AFTER** 26. **+13**. Twice as many."
    );
    assert_eq!(blocks(&delta)[0]["type"], "rich_text");
}

#[test]
fn tables_upper_case_heads_and_caption_and_group_labels_widen_no_column() {
    let node = json!({
        "type": "slideTable", "label": "By region", "columns": ["Bank", "Cut-off"],
        "groups": [{ "label": "Europe and the UK", "rows": [["Alpha", "4.2"]] }]
    });
    assert_eq!(
        text(&node),
        "BY REGION\nBANK   CUT-OFF\n-----  -------\nEUROPE AND THE UK\nAlpha  4.2"
    );
    assert_eq!(
        markdown(&node),
        "**BY REGION**\n\n**Europe and the UK**\n\n| BANK | CUT-OFF |\n| - | - |\n| Alpha | 4.2 |"
    );
    let slack = blocks(&node);
    assert_eq!(
        slack[0],
        json!({ "type": "context", "elements": [{ "type": "mrkdwn", "text": "*BY REGION*" }] })
    );
    let keys: Vec<&String> = slack[1].as_object().expect("a table").keys().collect();
    assert_eq!(keys, ["type", "column_settings", "rows"]);
}

#[test]
fn command_labels_are_upper_case_on_text_and_markdown_and_bold_on_slack() {
    let node =
        json!({ "type": "slideCommand", "label": "Install", "command": "cargo add isomer-slides" });
    assert_eq!(text(&node), "INSTALL\n$ cargo add isomer-slides");
    assert_eq!(
        markdown(&node),
        "**INSTALL**\n\n```sh\ncargo add isomer-slides\n```"
    );
    assert_eq!(
        blocks(&node)[0]["text"]["text"],
        "*Install*\n```\ncargo add isomer-slides\n```"
    );
}

#[test]
fn the_title_eyebrow_keeps_its_case_on_slack_only() {
    let node =
        json!({ "type": "slideTitle", "eyebrow": "A grocery delivery platform", "title": "Crate" });
    assert_eq!(text(&node), "A GROCERY DELIVERY PLATFORM\nCrate");
    assert_eq!(
        blocks(&node)[1]["elements"][0]["text"],
        "*A grocery delivery platform*"
    );
}

#[test]
fn bars_bold_the_highlighted_row_in_markdown_and_are_a_native_slack_table() {
    let node = json!({ "type": "slideBars", "items": [
        { "label": "Web", "value": 4.2 },
        { "label": "App", "value": 3, "highlight": true }
    ] });
    assert_eq!(
        markdown(&node),
        "| Label | Value |\n| - | - |\n| Web | 4.2 |\n| **● App** | **3** |"
    );
    let table = &blocks(&node)[0];
    assert_eq!(table["type"], "table");
    assert_eq!(
        table["rows"][1][1],
        json!({ "type": "raw_text", "text": "4.2" })
    );
}

#[test]
fn stats_fields_read_figure_label_and_body_on_one_line() {
    let node = json!({ "type": "slideStats", "items": [
        { "value": "3", "label": "Regions", "body": "settle nightly" },
        { "label": "Partners", "body": "later" }
    ] });
    let fields = &blocks(&node)[0]["fields"];
    assert_eq!(fields[0]["text"], "*3* Regions: settle nightly");
    assert_eq!(fields[1]["text"], "_value pending_ Partners: later");
}

#[test]
fn a_one_step_span_names_its_step_once_and_keeps_its_parts_apart_on_slack() {
    let node = json!({
        "type": "slidePipeline",
        "steps": [{ "title": "Van" }, { "title": "Door" }],
        "spans": [{ "from": 0, "to": 0, "tone": "accent", "label": "Courier", "title": "Drive", "body": "Vans." }]
    });
    assert_eq!(text(&node), "Van → Door\n○ COURIER (Van): Drive — Vans.");
    let slack = blocks(&node);
    let runs: Vec<&str> = slack[1]["elements"][0]["elements"][0]["elements"]
        .as_array()
        .expect("runs")
        .iter()
        .map(|run| run["text"].as_str().expect("text"))
        .collect();
    assert_eq!(
        runs,
        ["○ ", "COURIER", " (Van)", ": ", "Drive", " — ", "Vans."]
    );
}

#[test]
fn the_slack_fallback_text_escapes_what_the_blocks_escape() {
    let node =
        json!({ "type": "slideSource", "text": "<!channel> & <@U123> <javascript:alert(1)|x>" });
    let rendered = runtime()
        .render_slack(&view(node), &RenderOptions::default())
        .expect("renders");
    assert_eq!(
        rendered.text,
        "Source · &lt;!channel&gt; &amp; &lt;@U123&gt; &lt;javascript:alert(1)|x&gt;"
    );
    assert_eq!(
        rendered.blocks[0]["elements"][0]["text"],
        "Source · &lt;!channel&gt; &amp; &lt;@U123&gt; &lt;javascript:alert(1)|x&gt;"
    );
}
