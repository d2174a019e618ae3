//! The `html` surface of the number, code, layout and structure primitives:
//! each one's own markup, as upstream's React structure draws it (one
//! table with its caption and scoped heads, a command's prompt and
//! highlighted prefix, bars as long as their values, drawn matrix marks,
//! a render's slide drawn in its panel), and every catalog example pinned
//! as an insta snapshot of the markup inside the wrapper.

mod common;

use common::{example, html_body};
use serde_json::json;

/// The primitives whose markup this file pins, catalog example by example.
const PINNED: [&str; 24] = [
    "slideFrame",
    "slideHeading",
    "slideStatement",
    "slideQuote",
    "slideTitle",
    "slideSection",
    "slideClosing",
    "slideSource",
    "slideSplit",
    "slideStack",
    "slideWindow",
    "slideStat",
    "slideStats",
    "slideDelta",
    "slideBars",
    "slideMatrix",
    "slideTable",
    "slideCode",
    "slideDiff",
    "slideCommand",
    "slideTranscript",
    "slideRender",
    "slideAnnotatedRender",
    "slideRenderGrid",
];

#[test]
fn every_catalog_example_has_its_markup_pinned() {
    for type_name in PINNED {
        insta::assert_snapshot!(type_name, html_body(&example(type_name)));
    }
}

#[test]
fn a_table_is_one_table_with_a_caption_a_body_per_group_and_scoped_heads() {
    let node = json!({
        "type": "slideTable",
        "label": "Cut-offs",
        "columns": ["Region", "Banks"],
        "rowHeaders": true,
        "groups": [
            { "label": "Europe", "rows": [["EU", "14"], ["UK", "6"]] },
            { "label": "Americas", "rows": [["US", "21"]] }
        ]
    });
    assert_eq!(
        html_body(&node),
        "<table class=\"slide-table\"><caption>Cut-offs</caption>\
         <thead><tr><th scope=\"col\">Region</th><th scope=\"col\">Banks</th></tr></thead>\
         <tbody><tr class=\"slide-table-group\"><th scope=\"rowgroup\" colspan=\"2\">Europe</th></tr>\
         <tr><th scope=\"row\" class=\"slide-table-row-head\">EU</th><td>14</td></tr>\
         <tr><th scope=\"row\" class=\"slide-table-row-head\">UK</th><td>6</td></tr></tbody>\
         <tbody><tr class=\"slide-table-group\"><th scope=\"rowgroup\" colspan=\"2\">Americas</th></tr>\
         <tr><th scope=\"row\" class=\"slide-table-row-head\">US</th><td>21</td></tr></tbody></table>"
    );
}

#[test]
fn a_command_has_its_prompt_its_highlighted_prefix_and_a_copy_chip() {
    let node = json!({
        "type": "slideCommand",
        "label": "Try it",
        "command": "ledger settle --dry-run",
        "highlightPrefix": "ledger"
    });
    assert_eq!(
        html_body(&node),
        "<div class=\"slide-command\"><p class=\"slide-caption\">Try it</p>\
         <div class=\"slide-command-panel slide-size-l\">\
         <span class=\"slide-command-prompt\" aria-hidden=\"true\">$</span>\
         <code class=\"slide-command-line\"><span class=\"slide-command-prefix\">ledger</span> settle --dry-run</code>\
         <span class=\"slide-command-copy\" aria-hidden=\"true\">Copy</span></div></div>"
    );
    // 80 columns do not fit at 38 px (80 × 0.6 × 38 > 1,440): the s step.
    let long = json!({ "type": "slideCommand", "command": "x".repeat(80) });
    assert!(html_body(&long).contains("slide-command-panel slide-size-s"));
}

#[test]
fn a_quote_and_a_stat_keep_their_words_apart() {
    let quote = json!({
        "type": "slideQuote",
        "text": "We stopped counting.",
        "source": "Priya N.",
        "context": "Customer interview"
    });
    assert!(html_body(&quote).contains(
        "<figcaption><strong>Priya N.</strong> <span>Customer interview</span></figcaption>"
    ));
    let stat = json!({ "type": "slideStat", "value": "2.1", "unit": "days", "body": "to settle" });
    assert_eq!(
        html_body(&stat),
        "<div class=\"slide-stat\"><p class=\"slide-value\">2.1 <span class=\"slide-unit\">days</span></p>\
         <p class=\"slide-stat-body\">to settle</p></div>"
    );
}

#[test]
fn children_draw_through_their_own_renderer_inside_a_stack() {
    let stack = json!({
        "type": "slideStack",
        "spacing": "tight",
        "items": [
            { "type": "slideStat", "value": "99.9", "unit": "%", "body": "first batch" },
            { "type": "slideBulletList", "marker": "check", "items": ["Matched once"] }
        ]
    });
    let html = html_body(&stack);
    assert!(
        html.starts_with(
            "<div class=\"slide-stack slide-stack-tight\"><div class=\"slide-stat\">\
             <p class=\"slide-value\">99.9 <span class=\"slide-unit\">%</span></p>"
        ),
        "{html}"
    );
    // The list draws its own marker (a check drawn by the stylesheet), not a
    // Markdown bullet or a text glyph beside the words.
    const DRAWN_CHECK: &str = "<li><span class=\"slide-bullet-marker\" role=\"img\" aria-label=\"Included\"><span class=\"slide-bullet-check\"></span></span><span>Matched once</span></li>";
    assert!(html.contains(DRAWN_CHECK), "{html}");
    assert!(
        !html.contains('\u{2713}') && !html.contains('\u{2022}'),
        "{html}"
    );
    // In a title's aside too.
    let title = json!({ "type": "slideTitle", "title": "Ledger", "aside": stack });
    let html = html_body(&title);
    assert!(
        html.contains("<div class=\"slide-stack slide-stack-tight\">"),
        "{html}"
    );
    assert!(html.contains(DRAWN_CHECK), "{html}");
    assert!(
        !html.contains('\u{2713}') && !html.contains('\u{2022}'),
        "{html}"
    );
}

#[test]
fn bars_are_as_long_as_their_values() {
    let node = json!({
        "type": "slideBars",
        "items": [
            { "label": "A", "value": 10, "highlight": true },
            { "label": "B", "value": 5 },
            { "label": "C", "value": 0 }
        ]
    });
    let html = html_body(&node);
    // The largest value fills 85 % of the line; the others in proportion.
    for class in [
        "slide-bar slide-bar-w85 slide-bar-highlight",
        "slide-bar slide-bar-w43\"",
        "slide-bar slide-bar-w0\"",
    ] {
        assert!(html.contains(class), "{class} in {html}");
    }
    assert!(!html.contains("<table"), "{html}");
    // A `max` scales every bar to it.
    let scaled = json!({ "type": "slideBars", "max": 20, "items": [
        { "label": "A", "value": 10 }, { "label": "B", "value": 20 }
    ] });
    let html = html_body(&scaled);
    assert!(
        html.contains("slide-bar-w43\"") && html.contains("slide-bar-w85\""),
        "{html}"
    );
}

#[test]
fn a_matrix_draws_its_marks_and_bands_the_highlighted_column() {
    let html = html_body(&example("slideMatrix"));
    for mark in [
        "<span class=\"slide-matrix-mark slide-matrix-full slide-matrix-mark-highlight\" role=\"img\" aria-label=\"Yes\"></span>",
        "<span class=\"slide-matrix-mark slide-matrix-partial\" role=\"img\" aria-label=\"Partial\"><span class=\"slide-matrix-half\"></span></span>",
        "<span class=\"slide-matrix-mark slide-matrix-none\" role=\"img\" aria-label=\"No\"></span>",
        "<td class=\"slide-matrix-band\">",
        "<th scope=\"row\">Card refunds</th>",
    ] {
        assert!(html.contains(mark), "{mark} in {html}");
    }
}

#[test]
fn code_draws_its_highlighted_lines_and_a_diff_its_tints() {
    let code = html_body(&example("slideCode"));
    assert!(
        code.contains(
            "<code class=\"slide-code-line slide-code-highlight\"><span class=\"slide-code-mark\">await bank.transfer(batch);</span></code>"
        ),
        "{code}"
    );
    let diff = html_body(&example("slideDiff"));
    for line in [
        "<code class=\"slide-code-line slide-diff-remove\"><span class=\"slide-diff-sign\">-</span>  await bank.transfer(refund);</code>",
        "<code class=\"slide-code-line slide-diff-add\"><span class=\"slide-diff-sign\">+</span>  batch.add(refund);</code>",
    ] {
        assert!(diff.contains(line), "{line} in {diff}");
    }
}

#[test]
fn a_render_draws_its_slide_and_an_annotated_render_pins_it() {
    let html = html_body(&example("slideAnnotatedRender"));
    assert!(
        html.contains(
            "<div class=\"slide-render-canvas\"><div class=\"slide\" data-tone=\"page\">"
        ),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"slide-pin slide-pin-x20 slide-pin-y15\">1</span>"),
        "{html}"
    );
    let grid = html_body(&example("slideRenderGrid"));
    assert!(grid.starts_with("<div class=\"slide-render-grid slide-render-grid-3\">"));
    assert_eq!(
        grid.matches("<figure class=\"slide-render-tile\">").count(),
        3
    );
}
