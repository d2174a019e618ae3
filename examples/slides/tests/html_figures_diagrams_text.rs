//! The pack's own markup for the figures of its diagram and text
//! primitives and the agenda: the elements, classes and roles each
//! renderer writes, which the slides stylesheet draws into rails, dots,
//! circles, brackets, arrows and bands. Each test pins one renderer's
//! whole markup; it is found inside the `html` surface's envelope, so the
//! envelope may change without moving these.

mod common;

use common::runtime;
use isomer_sdk::{Rendered, Surface, ValidationMode};
use serde_json::{Value, json};

/// Asserts the `html` surface of `node` holds exactly `markup` (the
/// node's own, inside the envelope).
fn assert_markup(node: &Value, markup: &str) {
    let rendered = runtime()
        .render_node(Surface::Html, node, Some(ValidationMode::Throw))
        .unwrap_or_else(|error| panic!("{node}: {error:?}"));
    let Rendered::Html(html) = rendered else {
        panic!("html surface");
    };
    assert!(
        html.html.contains(markup),
        "expected\n{markup}\nin\n{}",
        html.html
    );
}

#[test]
fn a_timeline_is_a_rail_under_an_ordered_row_of_dated_moments() {
    let node = json!({"type": "slideTimeline", "items": [
        {"label": "2019", "channel": "Web", "heading": "Keep my **basket**?", "body": "Sessions <kept> it."},
        {"label": "2022", "channel": "App", "heading": "Why empty?", "body": "A second cart."},
        {"label": "Now", "channel": "Stores", "heading": "At the till?", "body": "One cart.", "current": true}
    ]});
    assert_markup(
        &node,
        "<div class=\"slide-timeline slide-size-l\">\
         <div class=\"slide-timeline-rail\" aria-hidden=\"true\"></div><ol><li>\
         <span class=\"slide-timeline-label\">2019</span><span class=\"slide-timeline-dot\">\
         </span><span class=\"slide-timeline-channel\">Web</span>\
         <h3>“Keep my <strong>basket</strong>?”</h3><p>Sessions &lt;kept&gt; it.</p></li><li>\
         <span class=\"slide-timeline-label\">2022</span><span class=\"slide-timeline-dot\">\
         </span><span class=\"slide-timeline-channel\">App</span><h3>“Why empty?”</h3>\
         <p>A second cart.</p></li><li aria-current=\"step\">\
         <span class=\"slide-timeline-label\">Now</span><span class=\"slide-timeline-dot\">\
         </span><span class=\"slide-timeline-channel\">Stores</span><h3>“At the till?”</h3>\
         <p>One cart.</p></li></ol></div>",
    );
}

#[test]
fn a_pipeline_has_terminals_a_rail_and_numbered_steps() {
    let node = json!({"type": "slidePipeline", "start": "Request", "steps": [
        {"title": "Queue", "body": "Held until **02:00**."},
        {"title": "Batch"}
    ]});
    assert_markup(
        &node,
        "<div class=\"slide-pipeline slide-size-l\">\
         <span class=\"slide-pipeline-terminal\">Request</span>\
         <span class=\"slide-pipeline-stub\" aria-hidden=\"true\"></span>\
         <div class=\"slide-pipeline-track\">\
         <div class=\"slide-pipeline-rail slide-pipeline-steps-2 slide-pipeline-rail-to-last\" aria-hidden=\"true\">\
         </div><ol><li><span class=\"slide-pipeline-numeral\" aria-hidden=\"true\">1</span>\
         <strong>Queue</strong><p>Held until <strong>02:00</strong>.</p></li><li>\
         <span class=\"slide-pipeline-numeral\" aria-hidden=\"true\">2</span>\
         <strong>Batch</strong></li></ol></div></div>",
    );
}

#[test]
fn pipeline_spans_place_brackets_and_captions_under_their_chips() {
    let node = json!({"type": "slidePipeline", "steps": [{"title": "Order"}, {"title": "Check"}, {"title": "Pay"}],
    "spans": [
        {"from": 0, "to": 1, "tone": "primary", "label": "Shop", "title": "Takes it", "body": "Fast."},
        {"from": 2, "to": 2, "tone": "accent", "label": "Bank", "title": "Pays", "body": "Slow."}
    ]});
    assert_markup(
        &node,
        "<div class=\"slide-pipeline-spans slide-pipeline-steps-3\">\
         <span class=\"slide-pipeline-chip\">Order</span>\
         <span class=\"slide-pipeline-connector\" aria-hidden=\"true\"></span>\
         <span class=\"slide-pipeline-chip\">Check</span>\
         <span class=\"slide-pipeline-connector\" aria-hidden=\"true\"></span>\
         <span class=\"slide-pipeline-chip\">Pay</span>\
         <span class=\"slide-pipeline-bracket slide-pipeline-col-1 slide-pipeline-cols-3\" data-tone=\"primary\" role=\"img\" aria-label=\"Order → Check\">\
         </span>\
         <div class=\"slide-pipeline-caption slide-pipeline-col-1 slide-pipeline-cols-3\" data-tone=\"primary\">\
         <strong>Shop</strong><p class=\"slide-pipeline-caption-title\">Takes it</p><p>Fast.</p>\
         </div>\
         <span class=\"slide-pipeline-bracket slide-pipeline-col-5 slide-pipeline-cols-1\" data-tone=\"accent\" role=\"img\" aria-label=\"Pay\">\
         </span>\
         <div class=\"slide-pipeline-caption slide-pipeline-col-4 slide-pipeline-cols-2\" data-tone=\"accent\">\
         <strong>Bank</strong><p class=\"slide-pipeline-caption-title\">Pays</p><p>Slow.</p>\
         </div></div>",
    );
}

#[test]
fn a_roadmap_is_one_row_of_horizons_the_current_one_marked() {
    let node = json!({"type": "slideRoadmap", "columns": [
        {"title": "Now", "status": "Shipping", "current": true, "items": [{"title": "Batch", "body": "Once a **night**."}]},
        {"title": "Next", "status": "Designing", "items": [{"title": "Reports", "body": "For partners."}]}
    ]});
    assert_markup(
        &node,
        "<ol class=\"slide-roadmap slide-size-l\"><li aria-current=\"step\"><h2>Now</h2>\
         <span class=\"slide-roadmap-status\">Shipping</span><ul><li>\
         <strong>Batch</strong> <span>Once a <strong>night</strong>.</span></li></ul></li><li>\
         <h2>Next</h2><span class=\"slide-roadmap-status\">Designing</span><ul><li>\
         <strong>Reports</strong> <span>For partners.</span></li></ul></li></ol>",
    );
}

#[test]
fn a_quadrant_is_four_named_cells_between_its_axis_ends() {
    let node = json!({"type": "slideQuadrant",
        "x": {"low": "Low effort", "high": "High effort"}, "y": {"low": "Low impact", "high": "High impact"},
        "quadrants": [
            {"label": "Quick wins", "items": ["Retry"]}, {"label": "Big bets", "items": []},
            {"label": "Fill-ins", "items": []}, {"label": "Money pits", "items": []}
        ],
        "highlight": 0});
    assert_markup(
        &node,
        "<div class=\"slide-quadrant slide-size-l\">\
         <span class=\"slide-quadrant-axis slide-quadrant-axis-top\" aria-hidden=\"true\">High impact</span>\
         <span class=\"slide-quadrant-axis slide-quadrant-axis-left\" aria-hidden=\"true\">Low effort</span>\
         <div class=\"slide-quadrant-plot\">\
         <div class=\"slide-quadrant-cell slide-quadrant-cell-0 slide-quadrant-highlight\" role=\"group\" aria-label=\"High impact, Low effort\">\
         <p>Quick wins</p><ul><li>Retry</li></ul></div>\
         <div class=\"slide-quadrant-cell slide-quadrant-cell-1\" role=\"group\" aria-label=\"High impact, High effort\">\
         <p>Big bets</p></div>\
         <div class=\"slide-quadrant-cell slide-quadrant-cell-2\" role=\"group\" aria-label=\"Low impact, Low effort\">\
         <p>Fill-ins</p></div>\
         <div class=\"slide-quadrant-cell slide-quadrant-cell-3\" role=\"group\" aria-label=\"Low impact, High effort\">\
         <p>Money pits</p></div></div>\
         <span class=\"slide-quadrant-axis slide-quadrant-axis-right\" aria-hidden=\"true\">High effort</span>\
         <span class=\"slide-quadrant-axis slide-quadrant-axis-bottom\" aria-hidden=\"true\">Low impact</span>\
         </div>",
    );
}

#[test]
fn a_tree_draws_its_connectors_as_hidden_rails_and_ticks() {
    let node = json!({"type": "slideTree", "root": "ledger/", "entries": [
        {"name": "batch/", "body": "the run"}, {"name": "pay.ts", "body": "transfers"}
    ]});
    assert_markup(
        &node,
        "<div class=\"slide-tree\"><div class=\"slide-tree-root\">ledger/</div><ul><li>\
         <span class=\"slide-tree-rail\" aria-hidden=\"true\"></span>\
         <span class=\"slide-tree-name\"><span class=\"slide-tree-tick\" aria-hidden=\"true\">\
         </span><span>batch/</span></span> <span class=\"slide-tree-body\">the run</span></li>\
         <li><span class=\"slide-tree-name\">\
         <span class=\"slide-tree-rail-last\" aria-hidden=\"true\"></span>\
         <span class=\"slide-tree-tick\" aria-hidden=\"true\"></span><span>pay.ts</span>\
         </span> <span class=\"slide-tree-body\">transfers</span></li></ul></div>",
    );
}

#[test]
fn layers_are_an_ordered_list_of_bands() {
    let node = json!({"type": "slideLayers", "layers": [
        {"name": "Checkout", "body": "Takes the **order**.", "owner": "Shop"},
        {"name": "Ledger", "body": "Settles.", "owner": "Ledger team", "tone": "primary"},
        {"name": "Rails", "chips": ["SEPA", "ACH"], "owner": "Banks", "tone": "accent"}
    ]});
    assert_markup(
        &node,
        "<ol class=\"slide-layers slide-size-l\"><li><strong>Checkout</strong>\
         <p>Takes the <strong>order</strong>.</p><span class=\"slide-layers-owner\">Shop</span>\
         </li><li><strong>Ledger</strong><p>Settles.</p>\
         <span class=\"slide-layers-owner\" data-tone=\"primary\">Ledger team</span></li><li>\
         <strong>Rails</strong><ul><li>SEPA</li><li>ACH</li></ul>\
         <span class=\"slide-layers-owner\" data-tone=\"accent\">Banks</span></li></ol>",
    );
}

#[test]
fn a_fanout_is_a_source_a_stem_and_ticked_targets() {
    let node = json!({"type": "slideFanout", "source": "refund.settled", "targets": [
        {"name": "ledger", "body": "Closes it", "tone": "primary"},
        {"name": "email", "body": "Tells **them**"}
    ]});
    assert_markup(
        &node,
        "<div class=\"slide-fanout\"><div class=\"slide-fanout-source\">refund.settled</div>\
         <div class=\"slide-fanout-stem\" role=\"img\" aria-label=\"→\"></div><ul>\
         <li data-tone=\"primary\">\
         <span class=\"slide-fanout-spine slide-fanout-spine-first\" aria-hidden=\"true\"></span>\
         <span class=\"slide-fanout-tick\" aria-hidden=\"true\"></span>\
         <div class=\"slide-fanout-label\"><strong>ledger</strong> <span>Closes it</span></div>\
         </li><li>\
         <span class=\"slide-fanout-spine slide-fanout-spine-last\" aria-hidden=\"true\"></span>\
         <span class=\"slide-fanout-tick\" aria-hidden=\"true\"></span>\
         <div class=\"slide-fanout-label\">\
         <strong>email</strong> <span>Tells <strong>them</strong></span></div></li></ul></div>",
    );
}

#[test]
fn a_sequence_places_lifelines_actors_and_arrows_on_a_grid() {
    let node = json!({"type": "slideSequence",
        "actors": [{"id": "a", "label": "App", "tone": "primary"}, {"id": "b", "label": "Bank"}, {"id": "c", "label": "Card"}],
        "messages": [{"from": "a", "to": "b", "label": "Pay"}, {"from": "c", "to": "a", "label": "`ok`"}]});
    assert_markup(
        &node,
        "<div class=\"slide-sequence slide-size-l slide-sequence-actors-3 slide-sequence-messages-2\">\
         <span class=\"slide-sequence-lifeline slide-sequence-col-1 slide-sequence-cols-2\" aria-hidden=\"true\">\
         </span>\
         <span class=\"slide-sequence-lifeline slide-sequence-col-3 slide-sequence-cols-2\" aria-hidden=\"true\">\
         </span>\
         <span class=\"slide-sequence-lifeline slide-sequence-col-5 slide-sequence-cols-2\" aria-hidden=\"true\">\
         </span>\
         <span class=\"slide-sequence-actor slide-sequence-row-1 slide-sequence-col-1 slide-sequence-cols-2\" data-tone=\"primary\">App</span>\
         <span class=\"slide-sequence-actor slide-sequence-row-1 slide-sequence-col-3 slide-sequence-cols-2\">Bank</span>\
         <span class=\"slide-sequence-actor slide-sequence-row-1 slide-sequence-col-5 slide-sequence-cols-2\">Card</span>\
         <div class=\"slide-sequence-message slide-sequence-row-2 slide-sequence-col-2 slide-sequence-cols-2\" data-tone=\"primary\">\
         <span class=\"slide-sequence-label\">Pay</span>\
         <div class=\"slide-connector\" aria-hidden=\"true\" data-tone=\"primary\">\
         <span class=\"slide-connector-rail\"></span><span class=\"slide-connector-head-right\">\
         </span></div></div>\
         <div class=\"slide-sequence-message slide-sequence-row-3 slide-sequence-col-2 slide-sequence-cols-4\">\
         <span class=\"slide-sequence-label slide-sequence-label-from-end\"><code>ok</code>\
         </span><div class=\"slide-connector\" aria-hidden=\"true\">\
         <span class=\"slide-connector-head-left\"></span><span class=\"slide-connector-rail\">\
         </span></div></div></div>",
    );
}

#[test]
fn lanes_merge_their_chips_into_the_join_box() {
    let node = json!({"type": "slideLanes", "lanes": [
        {"label": "Cards", "tone": "primary", "steps": ["Request"]},
        {"label": "Banks", "steps": ["Request", "Hold"]}
    ], "join": "Batch", "notes": [{"title": "Cards", "body": "**Fast**."}]});
    assert_markup(
        &node,
        "<div class=\"slide-lanes\"><div class=\"slide-lanes-grid\">\
         <span class=\"slide-lanes-label slide-lanes-row-1\" data-tone=\"primary\">Cards</span>\
         <ol class=\"slide-lanes-steps slide-lanes-row-1\" data-tone=\"primary\"><li>\
         <span>Request</span><span class=\"slide-lanes-line\" aria-hidden=\"true\"></span></li>\
         </ol><span class=\"slide-lanes-label slide-lanes-row-2\">Banks</span>\
         <ol class=\"slide-lanes-steps slide-lanes-row-2\"><li><span>Request</span>\
         <span class=\"slide-lanes-line\" aria-hidden=\"true\"></span></li><li><span>Hold</span>\
         <span class=\"slide-lanes-line\" aria-hidden=\"true\"></span></li></ol>\
         <div class=\"slide-lanes-merge\" role=\"img\" aria-label=\"Cards and Banks → Batch\">\
         <span class=\"slide-lanes-bracket\"></span><span class=\"slide-lanes-stub\"></span>\
         </div><span class=\"slide-lanes-join\">Batch</span></div><dl><div><dt>Cards</dt><dd>\
         <strong>Fast</strong>.</dd></div></dl></div>",
    );
}

#[test]
fn a_graph_places_nodes_and_arrows_on_its_grid() {
    let node = json!({"type": "slideGraph", "nodes": [
        {"id": "o", "term": "Order", "body": "Bought."},
        {"id": "r", "term": "Refund", "body": "Owed.", "emphasis": true},
        {"id": "p", "term": "Policy", "body": "How much.", "placement": "below"}
    ], "edges": [["o", "r"], ["r", "p"]], "caption": "Starts from an **order**."});
    assert_markup(
        &node,
        "<div class=\"slide-graph slide-size-l slide-graph-main-2\">\
         <p class=\"slide-graph-caption slide-graph-row-1 slide-graph-col-1 slide-graph-cols-3 slide-graph-caption-alone\">Starts from an <strong>order</strong>.</p>\
         <div class=\"slide-graph-node slide-graph-row-5 slide-graph-col-3\">\
         <p class=\"slide-graph-term\">Policy</p><p>How much.</p></div>\
         <div class=\"slide-graph-down slide-graph-row-4 slide-graph-col-3\" role=\"img\" aria-label=\"Refund → Policy\">\
         <span class=\"slide-graph-rail-down\"></span><span class=\"slide-graph-head-down\">\
         </span></div><div class=\"slide-graph-node slide-graph-row-3 slide-graph-col-1\">\
         <p class=\"slide-graph-term\">Order</p><p>Bought.</p></div>\
         <div class=\"slide-graph-across slide-graph-row-3 slide-graph-col-2\" role=\"img\" aria-label=\"Order → Refund\">\
         <div class=\"slide-connector\" aria-hidden=\"true\">\
         <span class=\"slide-connector-rail\"></span><span class=\"slide-connector-head-right\">\
         </span></div></div>\
         <div class=\"slide-graph-node slide-graph-row-3 slide-graph-col-3 slide-graph-emphasis\">\
         <p class=\"slide-graph-term\">Refund</p><p>Owed.</p></div></div>",
    );
}

#[test]
fn an_agenda_marks_past_rows_and_says_you_are_here() {
    let node = json!({"type": "slideAgenda", "sections": [
        {"number": "01", "title": "Why", "count": "3 slides"},
        {"number": "02", "title": "How", "current": true, "count": "4 slides"},
        {"number": "03", "title": "Next"}
    ]});
    assert_markup(
        &node,
        "<ol class=\"slide-agenda slide-size-l\"><li class=\"slide-agenda-past\">\
         <span class=\"slide-agenda-number\">01</span> <span class=\"slide-agenda-title\">Why</span> <span class=\"slide-agenda-count\">3 slides</span>\
         </li><li aria-current=\"step\">\
         <span class=\"slide-agenda-number\">02</span> <span class=\"slide-agenda-title\">How</span> <span class=\"slide-agenda-here\">You are here</span>\
         </li><li>\
         <span class=\"slide-agenda-number\">03</span> <span class=\"slide-agenda-title\">Next</span> <span>\
         </span></li></ol>",
    );
}

#[test]
fn definitions_past_four_terms_split_into_two_lists() {
    let node = json!({"type": "slideDefinitions", "items": [
        {"term": "a", "body": "One."}, {"term": "b", "body": "Two."}, {"term": "c", "body": "Three."},
        {"term": "d", "body": "Four."}, {"term": "e", "body": "**Five**."}
    ]});
    assert_markup(
        &node,
        "<div class=\"slide-definitions slide-size-l\"><dl><div><dt>a</dt><dd>One.</dd></div>\
         <div><dt>b</dt><dd>Two.</dd></div><div><dt>c</dt><dd>Three.</dd></div></dl><dl><div>\
         <dt>d</dt><dd>Four.</dd></div><div><dt>e</dt><dd><strong>Five</strong>.</dd></div></dl>\
         </div>",
    );
}

#[test]
fn a_list_with_terms_sets_them_in_a_column() {
    let node = json!({"type": "slideList", "label": "Facts",
        "items": [{"term": "p99", "body": "**420** ms"}, {"body": "No term."}], "footnote": "From *prod*."});
    assert_markup(
        &node,
        "<div class=\"slide-facts\"><p class=\"slide-caption\">FACTS</p>\
         <ul class=\"slide-facts-termed\"><li><span class=\"slide-facts-term\">p99</span><span>\
         <strong>420</strong> ms</span></li><li><span class=\"slide-facts-wide\">No term.</span>\
         </li></ul><p class=\"slide-facts-footnote\">From *prod*.</p></div>",
    );
}

#[test]
fn a_list_without_terms_is_plain_rows() {
    let node = json!({"type": "slideList", "items": [{"body": "One"}, {"body": "Two"}]});
    assert_markup(
        &node,
        "<div class=\"slide-facts\"><ul><li>One</li><li>Two</li></ul></div>",
    );
}

#[test]
fn bullet_markers_are_drawn_and_named_not_typed() {
    let checks = json!({"type": "slideBulletList", "marker": "check", "label": "Covered", "items": ["Cards", "**Banks**"]});
    assert_markup(
        &checks,
        "<div class=\"slide-bullets\"><p class=\"slide-caption\">COVERED</p><ul>\
         <li><span class=\"slide-bullet-marker\" role=\"img\" aria-label=\"Included\">\
         <span class=\"slide-bullet-check\"></span></span><span>Cards</span></li>\
         <li><span class=\"slide-bullet-marker\" role=\"img\" aria-label=\"Included\">\
         <span class=\"slide-bullet-check\"></span></span><span><strong>Banks</strong></span></li></ul></div>",
    );
    let dots = json!({"type": "slideBulletList", "items": ["Cards"]});
    assert_markup(
        &dots,
        "<div class=\"slide-bullets\"><ul><li><span class=\"slide-bullet-marker\" aria-hidden=\"true\">\
         <span class=\"slide-bullet-dot\"></span></span><span>Cards</span></li></ul></div>",
    );
    let crosses = json!({"type": "slideBulletList", "marker": "x", "items": ["Fax"]});
    assert_markup(
        &crosses,
        "<div class=\"slide-bullets\"><ul><li><span class=\"slide-bullet-marker\" role=\"img\" aria-label=\"Left out\">\
         <span class=\"slide-bullet-cross\" aria-hidden=\"true\">×</span></span><span>Fax</span></li></ul></div>",
    );
}
