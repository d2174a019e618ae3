//! The pack's own markup for the primitives a picture must lay out as the
//! catalog says: side by side (split, columns, territories), one marker
//! per list item, and numbers at display size (stat, stats, delta). The
//! `snapshot` surface draws exactly this markup.

mod common;

use common::runtime;
use isomer_sdk::{Rendered, Surface, ValidationMode};
use serde_json::{Value, json};

/// The node's markup alone on the `html` surface, the envelope cut off.
fn body_html(node: &Value) -> String {
    let rendered = runtime()
        .render_node(Surface::Html, node, Some(ValidationMode::Throw))
        .unwrap_or_else(|error| panic!("{node}: {error:?}"));
    let Rendered::Html(html) = rendered else {
        panic!("html surface");
    };
    common::body_of(&html.html)
}

#[test]
fn a_split_lays_its_panes_in_one_row_with_the_arrow_between() {
    let node = json!({
        "type": "slideSplit",
        "divider": "arrow",
        "panes": [
            {"label": "Monolith", "tone": "accent", "items": [{"type": "slideStatement", "text": "One deploy"}]},
            {"items": [{"type": "slideStatement", "text": "Many deploys"}]}
        ],
        "footnote": "Each team ships **alone**."
    });
    assert_eq!(
        body_html(&node),
        "<div class=\"slide-split slide-split-even\"><div class=\"slide-split-row\">\
         <div class=\"slide-pane\"><p class=\"slide-caption\" data-tone=\"accent\">MONOLITH</p>\
         <p class=\"slide-statement slide-size-l\">One deploy</p></div>\
         <div class=\"slide-divider slide-divider-arrow\">→</div>\
         <div class=\"slide-pane\"><p class=\"slide-statement slide-size-l\">Many deploys</p></div></div>\
         <p class=\"slide-footnote\">Each team ships <strong>alone</strong>.</p></div>"
    );
}

#[test]
fn a_rule_split_with_the_aside_ratio_has_an_empty_divider() {
    let node = json!({
        "type": "slideSplit",
        "divider": "rule",
        "ratio": "aside",
        "panes": [
            {"items": [{"type": "slideStatement", "text": "Main"}]},
            {"items": [{"type": "slideStatement", "text": "Notes"}]}
        ]
    });
    assert_eq!(
        body_html(&node),
        "<div class=\"slide-split slide-split-aside\"><div class=\"slide-split-row\">\
         <div class=\"slide-pane\"><p class=\"slide-statement slide-size-l\">Main</p></div>\
         <div class=\"slide-divider\"></div>\
         <div class=\"slide-pane\"><p class=\"slide-statement slide-size-l\">Notes</p></div></div></div>"
    );
}

#[test]
fn columns_sit_side_by_side_and_the_highlight_is_a_class_not_a_glyph() {
    let node = json!({
        "type": "slideColumns",
        "items": [
            {"title": "On demand", "body": "Pays at once."},
            {"title": "Nightly", "tags": ["batch", "02:00"], "body": "**Cheapest**."}
        ],
        "highlight": 1,
        "footnote": {"code": "SETTLE_MODE", "text": "switches it."}
    });
    assert_eq!(
        body_html(&node),
        "<div class=\"slide-columns-group slide-size-l\"><div class=\"slide-columns\">\
         <div class=\"slide-column\"><h2>On demand</h2><p>Pays at once.</p></div>\
         <div class=\"slide-column slide-column-highlight\"><h2>Nightly</h2>\
         <p class=\"slide-tags\"><code>batch</code><code>02:00</code></p>\
         <p><strong>Cheapest</strong>.</p></div></div>\
         <p class=\"slide-footnote\"><code>SETTLE_MODE</code> switches it.</p></div>"
    );
}

#[test]
fn territories_sit_side_by_side_keyed_by_tone() {
    let node = json!({
        "type": "slideTerritoryGroup",
        "items": [
            {"title": "Ledger team", "body": "Runs the batch.", "tone": "primary"},
            {"title": "Networks", "body": "Confirm payouts."}
        ]
    });
    assert_eq!(
        body_html(&node),
        "<ul class=\"slide-territories\">\
         <li class=\"slide-territory\" data-tone=\"primary\"><h3>Ledger team</h3><p>Runs the batch.</p></li>\
         <li class=\"slide-territory\"><h3>Networks</h3><p>Confirm payouts.</p></li></ul>"
    );
}

#[test]
fn a_stat_is_a_display_size_value_over_its_sentence() {
    let node =
        json!({"type": "slideStat", "value": "99.9", "unit": "%", "body": "settle **first**"});
    assert_eq!(
        body_html(&node),
        "<div class=\"slide-stat\"><p class=\"slide-value\">99.9 <span class=\"slide-unit\">%</span></p>\
         <p class=\"slide-stat-body\">settle <strong>first</strong></p></div>"
    );
    let pending = json!({"type": "slideStat", "body": "settle"});
    assert_eq!(
        body_html(&pending),
        "<div class=\"slide-stat\"><p class=\"slide-value slide-pending\">value pending</p>\
         <p class=\"slide-stat-body\">settle</p></div>"
    );
}

#[test]
fn stats_sit_side_by_side_value_then_label_then_sentence() {
    let node = json!({"type": "slideStats", "items": [
        {"value": "4", "unit": "s", "label": "p50", "body": "fast"},
        {"label": "p99", "body": "not measured"}
    ]});
    assert_eq!(
        body_html(&node),
        "<div class=\"slide-stats slide-size-l\">\
         <div class=\"slide-stat-item\"><p class=\"slide-value\">4 <span class=\"slide-unit\">s</span></p>\
         <p class=\"slide-caption\">P50</p><p class=\"slide-stat-body\">fast</p></div>\
         <div class=\"slide-stat-item\"><p class=\"slide-value slide-pending\">value pending</p>\
         <p class=\"slide-caption\">P99</p><p class=\"slide-stat-body\">not measured</p></div></div>"
    );
}

#[test]
fn a_delta_shows_both_values_large_with_the_change() {
    let node = json!({
        "type": "slideDelta",
        "before": {"label": "Before", "value": "13 s"},
        "after": {"label": "`v2`", "value": "4 s"},
        "change": "−9 s",
        "body": "Retries **batched**."
    });
    assert_eq!(
        body_html(&node),
        "<div class=\"slide-delta-figure slide-size-l\"><div class=\"slide-delta\">\
         <div class=\"slide-stat-item\"><p class=\"slide-caption\">BEFORE</p><p class=\"slide-value\">13 s</p></div>\
         <p class=\"slide-delta-arrow\" aria-hidden=\"true\">→</p>\
         <div class=\"slide-stat-item slide-delta-after\"><p class=\"slide-caption\">v2</p><p class=\"slide-value\">4 s</p></div>\
         <p class=\"slide-delta-change\">−9 s</p></div>\
         <p class=\"slide-stat-body\">Retries <strong>batched</strong>.</p></div>"
    );
}
