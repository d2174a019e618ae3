//! The figures of the slides pack's diagram and text primitives, found in
//! their pictures: each test draws one primitive alone on a slide and
//! finds its figure's marks in the PNG's pixels (a timeline's dots on one
//! rail, a pipeline's numbered circles on a rail, a quadrant's crossing
//! axes, a roadmap's columns side by side, …). A primitive drawn as a
//! ruled text list has none of these marks, so each test fails without
//! its figure.

mod common;

use common::{PAGE, Picture, near, runs};
use serde_json::{Value, json};

/// Panels and chips, `#FFFFFF`.
const SURFACE: [u8; 3] = [0xFF, 0xFF, 0xFF];
/// Titles, rails and arrows (`text` and `line`), `#1A1C21`.
const INK: [u8; 3] = [0x1A, 0x1C, 0x21];
/// Rules, lifelines and the timeline's rail, `#D9DEE8`.
const BORDER: [u8; 3] = [0xD9, 0xDE, 0xE8];
/// The primary tone, `#0B64DD`.
const PRIMARY: [u8; 3] = [0x0B, 0x64, 0xDD];

/// `node` alone in a slide frame without chrome, drawn as PNG and
/// decoded.
fn alone(node: Value) -> Picture {
    Picture::of_composition(&json!({"type": "view", "body": [
        {"type": "slideFrame", "logo": false, "body": [node]}
    ]}))
}

/// Pixels in the box `xs` × `ys` that are not the page, give or take 6
/// per channel.
fn off_page(picture: &Picture, xs: std::ops::Range<u32>, ys: std::ops::Range<u32>) -> usize {
    picture.count(xs, ys, |pixel| !near(pixel, PAGE))
}

#[test]
fn a_timeline_sets_its_dots_on_one_rail_at_one_height() {
    let picture = alone(json!({"type": "slideTimeline", "items": [
        {"label": "2019", "channel": "Web", "heading": "Keep my basket?", "body": "Sessions kept it."},
        {"label": "2022", "channel": "App", "heading": "Why is it empty?", "body": "A second cart."},
        {"label": "2025", "channel": "Stores", "heading": "Same at the till?", "body": "One cart.", "current": true}
    ]}));
    // The rail: one border-coloured line across the content width, cut
    // only by the dots on it.
    let rails = picture.horizontal_lines(BORDER, 400);
    assert_eq!(rails.len(), 1, "one rail, not {rails:?}");
    let (rail, _, _) = rails[0];
    // On the rail's row sit two ink dots and the current primary one,
    // 20 px wide, left to right.
    let dots: Vec<usize> = (rail..rail + 3)
        .map(|y| {
            picture
                .row_runs(y, INK)
                .into_iter()
                .filter(|&(_, len)| (16..=22).contains(&len))
                .count()
        })
        .collect();
    assert!(
        dots.iter().all(|&count| count == 2),
        "ink dots per rail row: {dots:?}"
    );
    let current = picture
        .row_runs(rail + 1, PRIMARY)
        .into_iter()
        .filter(|&(_, len)| (16..=22).contains(&len))
        .count();
    assert_eq!(current, 1, "one primary dot on the rail");
    // Each dot is centred on the rail: as much of it above as below.
    let (x, _) = picture
        .row_runs(rail + 1, INK)
        .into_iter()
        .find(|&(_, len)| (16..=22).contains(&len))
        .expect("a dot");
    let (top, height) = picture
        .column_runs(x + 10, INK)
        .into_iter()
        .find(|&(y, len)| y <= rail && y + len >= rail + 3)
        .expect("the dot's column");
    assert!((18..=22).contains(&height), "a 20 px dot, not {height}");
    let centre = top + height / 2;
    assert!(
        centre.abs_diff(rail + 1) <= 2,
        "dot centre {centre}, rail {rail}"
    );
}

#[test]
fn a_pipeline_joins_its_numbered_circles_with_a_rail() {
    let picture = alone(
        json!({"type": "slidePipeline", "start": "Request", "end": "Paid", "steps": [
            {"title": "Queue", "body": "Held until the cut-off."},
            {"title": "Batch", "body": "One transfer per bank."},
            {"title": "Confirm", "body": "Each bank answers."}
        ]}),
    );
    // A row crossing the three 72 px circles above their numerals: three
    // primary chords, left to right.
    let (row, chords) = (0..picture.height)
        .map(|y| {
            let chords: Vec<(u32, u32)> = picture
                .row_runs(y, PRIMARY)
                .into_iter()
                .filter(|&(_, len)| len >= 40)
                .collect();
            (y, chords)
        })
        .find(|(_, chords)| chords.len() == 3)
        .expect("a row through three circles");
    assert!(
        chords.iter().all(|&(_, len)| len <= 72),
        "{chords:?} at {row}"
    );
    // The rail: an ink line through the circles' middles, from the start
    // terminal's stub to the end one's, behind the circles.
    let between = (chords[0].0 + chords[0].1 + chords[1].0) / 2;
    let rail = (row..row + 72)
        .find(|&y| picture.is(between, y, INK))
        .expect("an ink rail between the first two circles");
    let (x, length) = picture
        .row_runs(rail, INK)
        .into_iter()
        .find(|&(x, len)| x <= between && between < x + len)
        .expect("the rail's run");
    let end = x + length;
    assert!(
        (end..end + 4).any(|x| picture.is(x, rail, PRIMARY)),
        "the rail from {x} runs into the second circle, not to {end}"
    );
    let between = (chords[1].0 + chords[1].1 + chords[2].0) / 2;
    assert!(
        picture.is(between, rail, INK),
        "the rail joins the second and third circles"
    );
    assert!(
        picture.is(chords[0].0 - 40, rail, INK),
        "the rail runs left to the start terminal"
    );
    assert!(
        picture.is(chords[2].0 + chords[2].1 + 40, rail, INK),
        "and right to the end one"
    );
}

#[test]
fn a_quadrant_draws_two_axes_that_cross() {
    let picture = alone(json!({"type": "slideQuadrant",
    "x": {"low": "Low effort", "high": "High effort"},
    "y": {"low": "Low impact", "high": "High impact"},
    "quadrants": [
        {"label": "Quick wins", "items": ["Retry window"]},
        {"label": "Big bets", "items": ["Instant refunds"]},
        {"label": "Fill-ins", "items": ["Dark mode"]},
        {"label": "Money pits", "items": []}
    ]}));
    let vertical = picture.vertical_lines(INK, 300);
    let horizontal = picture.horizontal_lines(INK, 600);
    assert_eq!(vertical.len(), 1, "one vertical axis: {vertical:?}");
    assert_eq!(horizontal.len(), 1, "one horizontal axis: {horizontal:?}");
    let (x, top, height) = vertical[0];
    let (y, left, width) = horizontal[0];
    // Each runs through the other's middle.
    assert!(
        top < y && y < top + height,
        "x axis at {y}, y axis {top}+{height}"
    );
    assert!(
        left < x && x < left + width,
        "y axis at {x}, x axis {left}+{width}"
    );
    assert!((y.abs_diff(top + height / 2)) < 40 && x.abs_diff(left + width / 2) < 40);
}

#[test]
fn a_roadmap_sets_its_columns_side_by_side_with_the_current_bar() {
    let item = |title: &str| json!({"title": title, "body": "What it delivers."});
    let picture = alone(json!({"type": "slideRoadmap", "columns": [
        {"title": "Now", "status": "Shipping", "current": true,
         "items": [item("Nightly batch"), item("Retry window")]},
        {"title": "Next", "status": "Designing",
         "items": [item("Partner reports"), item("Status page"), item("Dark mode")]},
        {"title": "Later", "status": "Exploring",
         "items": [item("Instant refunds"), item("Two"), item("Three"), item("Four")]}
    ]}));
    // Two vertical rules part three columns.
    let rules = picture.vertical_lines(BORDER, 200);
    assert_eq!(rules.len(), 2, "two column rules: {rules:?}");
    let bounds = [128, rules[0].0, rules[1].0, 1792];
    // The titles share one band: each column has ink in it, in its own x
    // range.
    let (_, top, _) = rules[0];
    for pair in bounds.windows(2) {
        let ink = off_page(&picture, pair[0] + 4..pair[1] - 4, top..top + 80);
        assert!(ink > 200, "column {pair:?} has only {ink} title pixels");
    }
    // The current column carries a primary bar over its title, in its own
    // x range only.
    let bars = picture.horizontal_lines(PRIMARY, 200);
    assert_eq!(bars.len(), 1, "one current bar: {bars:?}");
    let (_, x, width) = bars[0];
    assert!(x >= 128 && x + width <= rules[0].0, "bar {x}+{width}");
    // Nothing reaches the footer band.
    assert_eq!(off_page(&picture, 128..1792, 960..1032), 0);
}

#[test]
fn a_tree_draws_its_connectors() {
    let picture = alone(json!({"type": "slideTree", "root": "ledger/", "entries": [
        {"name": "batch/", "body": "the nightly run"},
        {"name": "refunds.ts", "body": "refund orders in"},
        {"name": "payouts.ts", "body": "one transfer per bank"}
    ]}));
    // One vertical rail from the first row to the last tick.
    let rails = picture.vertical_lines(INK, 80);
    assert_eq!(rails.len(), 1, "one rail: {rails:?}");
    let (x, top, height) = rails[0];
    // A 16 px tick leaves the rail at each entry.
    let ticks: Vec<u32> = (top..top + height + 2)
        .filter(|&y| {
            picture
                .row_runs(y, INK)
                .iter()
                .any(|&(start, len)| start.abs_diff(x) <= 2 && (14..=20).contains(&len))
        })
        .collect();
    let ticks = runs((top..top + height + 2).map(|y| ticks.contains(&y)));
    assert_eq!(ticks.len(), 3, "three ticks: {ticks:?}");
}

#[test]
fn layers_stack_as_bands() {
    let picture = alone(json!({"type": "slideLayers", "layers": [
        {"name": "Checkout", "body": "Takes the order.", "owner": "Shop team"},
        {"name": "Ledger", "body": "Settles refunds.", "owner": "Ledger team", "tone": "primary"},
        {"name": "Rails", "chips": ["SEPA", "ACH"], "owner": "Banks", "tone": "accent"}
    ]}));
    // Down a column inside the bands' left padding: three white bands,
    // apart.
    let bands: Vec<(u32, u32)> = picture
        .column_runs(140, SURFACE)
        .into_iter()
        .filter(|&(_, len)| len >= 40)
        .collect();
    assert_eq!(bands.len(), 3, "three bands: {bands:?}");
    // Each band is as wide as the content: white across from the left
    // padding to the right one.
    for &(y, len) in &bands {
        let row = picture.row_runs(y + len / 2, SURFACE);
        let first = row.first().copied().expect("a white run");
        assert!(first.0 <= 140, "band at {y} starts at {}", first.0);
        let last = row.last().copied().expect("a white run");
        assert!(
            last.0 + last.1 >= 1780,
            "band at {y} ends at {}",
            last.0 + last.1
        );
    }
}

#[test]
fn a_fanout_draws_a_spine_with_a_tick_per_target() {
    let picture = alone(
        json!({"type": "slideFanout", "source": "refund.settled", "targets": [
            {"name": "ledger", "body": "Closes the refund"},
            {"name": "email", "body": "Tells the customer"},
            {"name": "partner-api", "body": "Updates the report"}
        ]}),
    );
    let spines = picture.vertical_lines(INK, 100);
    assert_eq!(spines.len(), 1, "one spine: {spines:?}");
    let (x, top, height) = spines[0];
    // Three 32 px ticks leave the spine, the first at its top and the last
    // at its bottom; the stem joins it from the source in between.
    let ticks: Vec<u32> = (top.saturating_sub(2)..top + height + 2)
        .filter(|&y| {
            picture
                .row_runs(y, INK)
                .iter()
                .any(|&(start, len)| start.abs_diff(x) <= 2 && (30..=36).contains(&len))
        })
        .collect();
    let ticks = runs((0..picture.height).map(|y| ticks.contains(&y)));
    assert_eq!(ticks.len(), 3, "three ticks: {ticks:?}");
    let stem = (top..top + height).any(|y| {
        picture
            .row_runs(y, INK)
            .iter()
            .any(|&(start, len)| (start + len).abs_diff(x) <= 2 && (44..=52).contains(&len))
    });
    assert!(stem, "a 48 px stem ends on the spine");
}

#[test]
fn a_sequence_draws_lifelines_and_arrows() {
    let picture = alone(json!({"type": "slideSequence",
    "actors": [
        {"id": "shop", "label": "Checkout"},
        {"id": "ledger", "label": "Ledger"},
        {"id": "bank", "label": "Bank"}
    ],
    "messages": [
        {"from": "shop", "to": "ledger", "label": "Refund"},
        {"from": "ledger", "to": "bank", "label": "Batch"},
        {"from": "bank", "to": "shop", "label": "Settled"}
    ]}));
    let lifelines = picture.vertical_lines(BORDER, 80);
    assert_eq!(lifelines.len(), 3, "three lifelines: {lifelines:?}");
    // Three arrows: ink rails between lifelines; the last spans two gaps.
    let arrows = picture.horizontal_lines(INK, 300);
    assert_eq!(arrows.len(), 3, "three arrows: {arrows:?}");
    let gap = lifelines[1].0 - lifelines[0].0;
    let (_, _, longest) = arrows[2];
    assert!(
        longest > gap * 3 / 2,
        "the last arrow spans two actors: {longest} vs {gap}"
    );
}

#[test]
fn lanes_merge_in_a_bracket_into_a_primary_join() {
    let picture = alone(json!({"type": "slideLanes",
        "lanes": [
            {"label": "Cards", "steps": ["Request", "Check"]},
            {"label": "Banks", "steps": ["Request", "IBAN", "Hold"]}
        ],
        "join": "Nightly batch"}));
    // The join box: a solid primary block, some 60 px tall.
    let join = (0..picture.height)
        .filter(|&y| {
            picture
                .row_runs(y, PRIMARY)
                .iter()
                .any(|&(_, len)| len >= 150)
        })
        .count();
    assert!(join >= 50, "a primary join box, {join} rows");
    // The bracket: a vertical ink line from one lane's centre to the
    // other's, 136 px apart (88 px rows, 48 px gap).
    let brackets = picture.vertical_lines(INK, 100);
    assert_eq!(brackets.len(), 1, "one bracket: {brackets:?}");
    let (_, _, height) = brackets[0];
    assert!((100..=150).contains(&height), "bracket {height} px");
}

#[test]
fn a_graph_draws_node_panels_joined_by_arrows() {
    let picture = alone(json!({"type": "slideGraph",
        "nodes": [
            {"id": "order", "term": "Order", "body": "What was bought."},
            {"id": "refund", "term": "Refund", "body": "Money owed back."},
            {"id": "payout", "term": "Payout", "body": "One transfer."},
            {"id": "policy", "term": "Policy", "body": "How much.", "placement": "above"}
        ],
        "edges": [["order", "refund"], ["refund", "payout"], ["policy", "refund"]]}));
    // The main row: three white panels side by side, with an arrow in each
    // of the two tracks between them.
    let (row, panels) = (0..picture.height)
        .rev()
        .map(|y| {
            let panels: Vec<(u32, u32)> = picture
                .row_runs(y, SURFACE)
                .into_iter()
                .filter(|&(_, len)| len >= 200)
                .collect();
            (y, panels)
        })
        .find(|(_, panels)| panels.len() == 3)
        .expect("a row through three panels");
    for pair in panels.windows(2) {
        let (gap_start, gap_end) = (pair[0].0 + pair[0].1, pair[1].0);
        let arrow = (row.saturating_sub(400)..row).any(|y| {
            picture
                .row_runs(y, INK)
                .iter()
                .any(|&(x, len)| x >= gap_start && x + len <= gap_end && len >= 30)
        });
        assert!(arrow, "an arrow in the track {gap_start}..{gap_end}");
    }
    // The feeder above joins the middle node with a vertical arrow: a
    // 3 px ink rail down the middle of its column, over the main row.
    let (x, len) = panels[1];
    let centre = x + len / 2;
    // The panel's top: its white run, inside its left padding, through
    // the row found above.
    let (top, _) = picture
        .column_runs(x + 8, SURFACE)
        .into_iter()
        .find(|&(y, len)| y <= row && row < y + len)
        .expect("the middle panel");
    let rail = (centre - 3..=centre + 3).any(|x| {
        picture
            .column_runs(x, INK)
            .iter()
            .any(|&(y, len)| y + len <= top && y + 80 > top && len >= 12)
    });
    assert!(rail, "a vertical arrow ends over the middle panel at {top}");
}

#[test]
fn an_agenda_marks_the_current_row_in_its_number_column() {
    let picture = alone(json!({"type": "slideAgenda", "sections": [
        {"number": "01", "title": "Why nightly", "count": "3 slides"},
        {"number": "02", "title": "Settlement", "count": "4 slides", "current": true},
        {"number": "03", "title": "Platform", "count": "2 slides"}
    ]}));
    // Four rules: one over the rows and one under each.
    let rules = picture.horizontal_lines(BORDER, 1200);
    assert_eq!(rules.len(), 4, "four rules: {rules:?}");
    // The number column (160 px) of the current row is primary; the other
    // rows' numbers are not.
    let primary_in =
        |y0: u32, y1: u32| picture.count(128..288, y0..y1, |pixel| near(pixel, PRIMARY));
    assert!(primary_in(rules[1].0, rules[2].0) > 300);
    assert_eq!(primary_in(rules[0].0, rules[1].0), 0);
    assert_eq!(primary_in(rules[2].0, rules[3].0), 0);
    // "You are here" sits at the right of the current row.
    let here = picture.count(1400..1792, rules[1].0..rules[2].0, |pixel| {
        near(pixel, PRIMARY)
    });
    assert!(here > 100, "the you-are-here label: {here}");
}

#[test]
fn definitions_past_four_terms_split_into_two_columns() {
    let items: Vec<Value> = (1..=6)
        .map(|n| json!({"term": format!("term-{n}"), "body": "A one-sentence meaning."}))
        .collect();
    let picture = alone(json!({"type": "slideDefinitions", "items": items}));
    // The top rule row holds two rules side by side.
    let (top, _, _) = picture.horizontal_lines(BORDER, 600)[0];
    let rules: Vec<(u32, u32)> = picture
        .row_runs(top, BORDER)
        .into_iter()
        .filter(|&(_, len)| len >= 600)
        .collect();
    assert_eq!(rules.len(), 2, "two columns: {rules:?}");
    let gap = rules[1].0 - (rules[0].0 + rules[0].1);
    assert!((60..=70).contains(&gap), "a 64 px gap, not {gap}");
    // Each column holds three terms under three more rules.
    for &(x, len) in &rules {
        let column = picture.column_runs(x + len / 2, BORDER);
        assert_eq!(
            column.len(),
            4,
            "a top rule and three row rules at {x}: {column:?}"
        );
    }
}

/// The accent tone, `#BC1E70`.
const ACCENT: [u8; 3] = [0xBC, 0x1E, 0x70];

#[test]
fn a_bullet_list_draws_a_primary_dot_per_point() {
    let picture = alone(json!({"type": "slideBulletList", "items": [
        "Card refunds", "Bank transfers", "Partial refunds"
    ]}));
    // Down the marker column, through the dots' middle: three 12 px
    // primary dots, one per row.
    let dots: Vec<(u32, u32)> = (128..152)
        .map(|x| picture.column_runs(x, PRIMARY))
        .max_by_key(|runs| runs.iter().map(|&(_, len)| len).sum::<u32>())
        .expect("the marker column");
    assert_eq!(dots.len(), 3, "three dots: {dots:?}");
    assert!(
        dots.iter().all(|&(_, len)| (10..=13).contains(&len)),
        "{dots:?}"
    );
    // Four rules: over the first row and under each.
    assert_eq!(picture.horizontal_lines(BORDER, 1200).len(), 4);
}

#[test]
fn a_checked_bullet_list_draws_its_checks_turned() {
    let picture = alone(
        json!({"type": "slideBulletList", "marker": "check", "items": [
            "Card refunds", "Bank transfers"
        ]}),
    );
    // A check is two primary strokes at 45°: in the marker column, the
    // primary pixels of each row sit further right as they go down the
    // long stroke, so no column holds them all.
    let columns: Vec<u32> = (120..160)
        .filter(|&x| !picture.column_runs(x, PRIMARY).is_empty())
        .collect();
    assert!(
        columns.len() >= 10,
        "a check some 15 px wide, not {columns:?}"
    );
    let rows: Vec<u32> = (0..picture.height)
        .filter(|&y| (120..160).any(|x| picture.is(x, y, PRIMARY)))
        .collect();
    let checks = runs((0..picture.height).map(|y| rows.contains(&y)));
    assert_eq!(checks.len(), 2, "two checks: {checks:?}");
}

#[test]
fn territories_are_ruled_on_their_left_in_their_tone() {
    let picture = alone(json!({"type": "slideTerritoryGroup", "items": [
        {"title": "Ledger team", "body": "Runs the nightly batch.", "tone": "primary"},
        {"title": "Card networks", "body": "Confirm each payout.", "tone": "accent"}
    ]}));
    let primary = picture.vertical_lines(PRIMARY, 60);
    let accent = picture.vertical_lines(ACCENT, 60);
    assert_eq!(
        (primary.len(), accent.len()),
        (1, 1),
        "{primary:?} {accent:?}"
    );
    // Side by side, at the same height: the primary owner first.
    let ((left, top, _), (right, other_top, _)) = (primary[0], accent[0]);
    assert!(left < 140 && right > 900, "rules at {left} and {right}");
    assert!(top.abs_diff(other_top) <= 2);
}

#[test]
fn columns_are_ruled_apart() {
    let picture = alone(json!({"type": "slideColumns", "items": [
        {"title": "On demand", "body": "Pays at once."},
        {"title": "Nightly", "body": "One transfer a night."},
        {"title": "Weekly", "body": "Cheapest of all."}
    ]}));
    let rules = picture.vertical_lines(BORDER, 100);
    assert_eq!(rules.len(), 2, "two rules part three columns: {rules:?}");
    // Each column holds its title, in its own x range.
    let bounds = [128, rules[0].0, rules[1].0, 1792];
    let (_, top, _) = rules[0];
    for pair in bounds.windows(2) {
        assert!(
            off_page(&picture, pair[0] + 4..pair[1] - 4, top..top + 60) > 200,
            "{pair:?}"
        );
    }
}
