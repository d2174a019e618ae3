//! Every primitive rendered alone (`render_node`) on the text, Markdown
//! and Slack surfaces: the catalog example, and the variants whose output differs
//! (modes, markers, placeholders, unsafe links). Each output is an insta
//! snapshot in `tests/snapshots/`, checked by hand against the pack's
//! rules for each primitive.

mod common;

use common::{example, render_node, runtime};
use isomer_sdk::Surface;
use serde_json::{Value, json};

/// Snapshots `node`'s text, Markdown and Slack blocks as `<name>__text`,
/// `<name>__markdown` and `<name>__slack` (the blocks as pretty JSON).
fn snapshot_both(name: &str, node: &Value) {
    let text = render_node(Surface::Text, node);
    let markdown = render_node(Surface::Markdown, node);
    let slack: Value =
        serde_json::from_str(&render_node(Surface::Slack, node)).expect("slack renders JSON");
    let blocks = serde_json::to_string_pretty(&slack["blocks"]).expect("blocks serialize");
    insta::assert_snapshot!(format!("{name}__text"), text);
    insta::assert_snapshot!(format!("{name}__markdown"), markdown);
    insta::assert_snapshot!(format!("{name}__slack"), blocks);
}

#[test]
fn renders_every_catalog_example() {
    for primitive in runtime().primitives() {
        snapshot_both(primitive.type_name(), &example(primitive.type_name()));
    }
}

#[test]
fn renders_the_variants() {
    let variants = [
        (
            "slideFrame_footerless",
            json!({ "type": "slideFrame", "tone": "inverse", "body": [{ "type": "slideStatement", "text": "Ship it." }] }),
        ),
        (
            "slideFrame_brand_only",
            json!({ "type": "slideFrame", "brand": "Crate", "body": [{ "type": "slideSource", "text": "x" }] }),
        ),
        (
            "slideQuote_without_context",
            json!({ "type": "slideQuote", "text": "It *just* works.", "source": "A reviewer" }),
        ),
        (
            "slideSection_with_hrefs",
            json!({
                "type": "slideSection", "number": "02", "title": "Settlement",
                "contents": ["Refunds settle nightly", "Where a `batch` fails"],
                "hrefs": ["/deck/refunds", "https://example.com/fails"]
            }),
        ),
        (
            "slideClosing_relative_href",
            json!({
                "type": "slideClosing", "title": "Thanks",
                "links": [{ "label": "Slides", "href": "/talks/ledger", "text": "example.com/talks/ledger" }]
            }),
        ),
        (
            "slideSplit_arrow",
            json!({
                "type": "slideSplit", "divider": "arrow",
                "panes": [
                    { "items": [{ "type": "slideStatement", "text": "Before" }] },
                    { "label": "After", "tone": "accent", "items": [{ "type": "slideStatement", "text": "After" }] }
                ]
            }),
        ),
        (
            "slideWindow_slack",
            json!({
                "type": "slideWindow", "chrome": "slack", "title": "ledger-alerts",
                "body": [{ "type": "slideBulletList", "items": ["Batch 2026-03-02 settled"] }]
            }),
        ),
        (
            "slideBulletList_x_marker",
            json!({ "type": "slideBulletList", "marker": "x", "items": ["Crypto refunds", "Cash"] }),
        ),
        (
            "slideList_without_terms",
            json!({ "type": "slideList", "items": [{ "body": "One batch a night" }, { "body": "Retries until 06:00" }] }),
        ),
        (
            "slidePipeline_spans",
            json!({
                "type": "slidePipeline",
                "steps": [{ "title": "Request" }, { "title": "Queue" }, { "title": "Batch" }, { "title": "Pay" }],
                "spans": [
                    { "from": 0, "to": 1, "tone": "primary", "label": "Ledger", "title": "Collect", "body": "Refunds wait for the **cut-off**." },
                    { "from": 2, "to": 3, "tone": "accent", "label": "Banks", "title": "Settle", "body": "One transfer per bank." }
                ]
            }),
        ),
        (
            "slideStat_placeholder",
            json!({ "type": "slideStat", "body": "of partners will see reports" }),
        ),
        (
            "slideDelta_without_change",
            json!({
                "type": "slideDelta",
                "before": { "label": "`v1` batch", "value": "13 s" },
                "after": { "label": "v2 batch" },
                "body": "Not measured after the change yet."
            }),
        ),
        (
            "slideTable_groups",
            json!({
                "type": "slideTable", "columns": ["Bank", "Cut-off"],
                "groups": [
                    { "label": "Europe", "rows": [["Alpha", "02:00"], ["Beta | Co", "02:30"]] },
                    { "label": "Americas", "rows": [["Gamma", "07:00"]] }
                ]
            }),
        ),
        (
            "slideCode_two_panels",
            json!({
                "type": "slideCode",
                "panels": [
                    { "file": "queue.ts", "language": "ts", "lines": ["export const cutOff = \"02:00\";"] },
                    { "file": "settle.ts", "language": "ts", "lines": ["import { cutOff } from \"./queue\";", "drain(cutOff);"] }
                ]
            }),
        ),
        (
            "slideTranscript_multiline_prose",
            json!({
                "type": "slideTranscript",
                "turns": [{ "role": "user", "text": "\nFirst line\nsecond line\n\n" }]
            }),
        ),
    ];
    for (name, node) in &variants {
        snapshot_both(name, node);
    }
}
