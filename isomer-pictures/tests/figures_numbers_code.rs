//! The figures of the number, code, layout and render primitives, measured
//! on their PNG: each test reads a fact of the drawing off the pixels
//! (bar lengths, mark shapes, tinted rows, a bubble's side, a panel's
//! shape) that the primitive's markup and stylesheet must draw, and that a
//! generic table, list or code block of the same words does not.

mod common;

use common::Picture;
use serde_json::{Value, json};

/// The light palette's colours the figures are drawn in.
const TEXT: [u8; 3] = [0x1A, 0x1C, 0x21];
const PRIMARY: [u8; 3] = [0x0B, 0x64, 0xDD];
const PRIMARY_TINT: [u8; 3] = [0xDC, 0xEB, 0xFF];
const PRIMARY_BG: [u8; 3] = [0xEE, 0xF6, 0xFF];
const SUBTLE: [u8; 3] = [0x6A, 0x71, 0x7D];
const MUTED: [u8; 3] = [0xF2, 0xF1, 0xEC];
const SURFACE: [u8; 3] = [0xFF, 0xFF, 0xFF];
const TABLE_HEAD: [u8; 3] = [0xF4, 0xF5, 0xF8];
const INVERSE_BG: [u8; 3] = [0x07, 0x10, 0x1F];

/// `body` under a heading in a slide frame, drawn to PNG and decoded.
fn draw(body: Value) -> Picture {
    let slide = json!({
        "type": "view",
        "title": "Figure",
        "body": [{
            "type": "slideFrame",
            "brand": "Ledger",
            "logo": false,
            "body": [{ "type": "slideHeading", "title": "Figure" }, body],
        }],
    });
    Picture::of_composition(&slide)
}

/// The bars of a page: for each band of consecutive rows whose longest
/// run of `colour` is over 100 px, that run's length.
fn bar_lengths(page: &Picture, colour: [u8; 3]) -> Vec<u32> {
    let mut bars = Vec::new();
    let mut in_bar = false;
    for y in 0..page.height {
        let (_, length) = page.longest_run(y, colour);
        if length > 100 && !in_bar {
            bars.push(length);
        }
        if let Some(last) = bars.last_mut()
            && length > 100
        {
            *last = (*last).max(length);
        }
        in_bar = length > 100;
    }
    bars
}

#[test]
fn bars_are_filled_as_long_as_their_values() {
    let page = draw(json!({
        "type": "slideBars",
        "items": [
            { "label": "Nightly", "value": 100, "highlight": true },
            { "label": "Weekly", "value": 50 },
            { "label": "Monthly", "value": 25 }
        ]
    }));
    let highlighted = bar_lengths(&page, PRIMARY);
    let plain = bar_lengths(&page, TEXT);
    assert_eq!(highlighted.len(), 1, "one primary bar: {highlighted:?}");
    assert_eq!(plain.len(), 2, "two text-colour bars: {plain:?}");
    let full = highlighted[0] as f64;
    // 85 %, 43 % and 21 % of one line: the lengths keep those ratios.
    assert!(full > 900.0, "the longest bar is {full} px");
    let ratios: Vec<f64> = plain.iter().map(|&length| length as f64 / full).collect();
    assert!((ratios[0] - 43.0 / 85.0).abs() < 0.02, "{ratios:?}");
    assert!((ratios[1] - 21.0 / 85.0).abs() < 0.02, "{ratios:?}");
}

#[test]
fn a_matrix_draws_discs_half_rings_dashes_and_a_band() {
    let page = draw(json!({
        "type": "slideMatrix",
        "columns": ["Batch", "Instant", "Manual"],
        "rows": [
            { "label": "Cards", "marks": ["full", "partial", "none"] },
            { "label": "Banks", "marks": ["full", "full", "partial"] }
        ],
        "highlight": 0,
        "legend": false
    }));
    let in_content =
        |f: &dyn Fn(u32, u32) -> bool| (300..1000).any(|y| (500..1800).any(|x| f(x, y)));
    // A full disc: a solid 17 px square of ink, in the text colour and, in
    // the highlighted column, primary.
    assert!(
        in_content(&|x, y| page.solid(x, y, 17, TEXT)),
        "no text-colour disc"
    );
    assert!(
        in_content(&|x, y| page.solid(x, y, 17, PRIMARY)),
        "no primary disc"
    );
    // A half-filled ring: across its middle, 3 px of border and 11 px of
    // fill, then the empty half, then the 3 px border.
    let ring = (300..1000).any(|y| {
        page.row_stretches(y, TEXT).windows(3).any(|w| {
            w[0].0
                && (12..=16).contains(&w[0].1)
                && !w[1].0
                && (8..=13).contains(&w[1].1)
                && w[2].0
                && (2..=4).contains(&w[2].1)
        })
    });
    assert!(ring, "no half-filled ring");
    // A dash: 24 × 3 px of the subtle colour.
    let dash = (300..1000).any(|y| {
        page.row_stretches(y, SUBTLE)
            .iter()
            .any(|&(inside, length)| inside && (23..=25).contains(&length))
            && page.count_in_row(y + 4, SUBTLE) < page.count_in_row(y, SUBTLE)
    });
    assert!(dash, "no dash");
    // The highlighted column's band.
    assert!(page.rows_with(PRIMARY_TINT, 100).len() > 100, "no band");
}

#[test]
fn a_diff_tints_its_added_and_removed_rows() {
    let page = draw(json!({
        "type": "slideDiff",
        "file": "settle.ts",
        "lines": [
            { "text": "for (const refund of queue) {" },
            { "text": "  await bank.transfer(refund);", "op": "remove" },
            { "text": "  batch.add(refund);", "op": "add" },
            { "text": "}" }
        ]
    }));
    let added = page.rows_with(PRIMARY_TINT, 1000);
    let removed = page.rows_with(MUTED, 1000);
    assert!(added.len() >= 30, "{} tinted rows", added.len());
    assert!(removed.len() >= 30, "{} muted rows", removed.len());
    assert!(removed[0] < added[0], "the removed line is drawn first");
    // The added line's 4 px primary bar at its left.
    let bar = page.row_stretches(added[added.len() / 2], PRIMARY);
    assert!(
        bar.iter().any(|&(inside, length)| inside && length == 4),
        "{bar:?}"
    );
}

#[test]
fn code_draws_its_highlighted_line_on_a_band() {
    let page = draw(json!({
        "type": "slideCode",
        "panels": [{
            "file": "settle.ts",
            "lines": ["const batch = await queue.drain(cutOff);", "", "await bank.transfer(batch);"],
            "highlightLines": [3]
        }]
    }));
    let band = page.rows_with(PRIMARY_TINT, 1000);
    assert!((30..=40).contains(&band.len()), "{} band rows", band.len());
    let bar = page.row_stretches(band[band.len() / 2], PRIMARY);
    assert!(
        bar.iter().any(|&(inside, length)| inside && length == 4),
        "{bar:?}"
    );
}

#[test]
fn a_command_opens_with_its_prompt_before_the_highlighted_prefix() {
    let page = draw(json!({
        "type": "slideCommand",
        "command": "ledger settle --region eu",
        "highlightPrefix": "ledger"
    }));
    let (x0, y0, _, y1) = page.bounds(PRIMARY).expect("the prefix is primary");
    // The `$` sits left of the prefix, on its line, in the subtle colour.
    let prompt = (y0..=y1).any(|y| (128..x0).any(|x| page.pixel(x, y) == SUBTLE));
    assert!(prompt, "no prompt before the prefix at x {x0}");
}

#[test]
fn the_user_bubble_sits_on_the_right() {
    let page = draw(json!({
        "type": "slideTranscript",
        "turns": [
            { "role": "user", "text": "Where is my refund?" },
            { "role": "model", "text": "It settles tonight." }
        ]
    }));
    let (user_left, _, user_right, user_bottom) = page.bounds(PRIMARY_BG).expect("a user bubble");
    assert!(user_right >= 1780, "the user bubble ends at {user_right}");
    assert!(user_left > 700, "the user bubble starts at {user_left}");
    // The model's white bubble starts at the content's left edge, below.
    let model = (user_bottom..page.height)
        .find(|&y| page.longest_run(y, SURFACE).1 > 100)
        .expect("a model bubble below the user's");
    assert!(page.longest_run(model + 10, SURFACE).0 < 140);
}

#[test]
fn a_window_has_a_title_bar_over_its_body() {
    let page = draw(json!({
        "type": "slideWindow",
        "chrome": "terminal",
        "title": "ledger settle --dry-run",
        "body": [{ "type": "slideStatement", "text": "ok: 1,203" }]
    }));
    let bar = page.rows_with(MUTED, 1400);
    assert!(
        (40..=80).contains(&bar.len()),
        "{} title-bar rows",
        bar.len()
    );
    let below = bar[bar.len() - 1] + 10;
    assert!(
        page.count_in_row(below, SURFACE) > 1400,
        "no white body under the bar"
    );
}

#[test]
fn a_render_draws_the_slide_it_points_at_in_a_16_by_9_panel() {
    let page = draw(json!({
        "type": "slideRender",
        "surface": "snapshot",
        "body": [{
            "type": "slideFrame",
            "tone": "inverse",
            "brand": "Ledger",
            "body": [{ "type": "slideStatement", "text": "Refunds settle **nightly**." }]
        }]
    }));
    let (x0, y0, x1, y1) = page.bounds(INVERSE_BG).expect("the inverse slide is drawn");
    let (width, height) = ((x1 - x0 + 1) as f64, (y1 - y0 + 1) as f64);
    assert!(
        (width / height - 16.0 / 9.0).abs() < 0.03,
        "{width} × {height}"
    );
    assert!(width > 600.0 && width < 800.0, "{width} px wide");
    // The statement is drawn inside it, in light ink.
    let light = page.count(x0..x1 + 1, y0..y1 + 1, |pixel| pixel == [0xF3, 0xF7, 0xFC]);
    assert!(light > 500, "{light} light pixels in the panel");
}

#[test]
fn a_grouped_table_is_one_grid_under_one_head_band() {
    let page = draw(json!({
        "type": "slideTable",
        "columns": ["Region", "Cut-off", "Banks"],
        "rowHeaders": true,
        "groups": [
            { "label": "Europe", "rows": [["EU", "02:00 UTC", "14"], ["UK", "03:00 UTC", "6"]] },
            { "label": "Americas", "rows": [["US", "07:00 UTC", "21"]] }
        ]
    }));
    let band = page.rows_with(TABLE_HEAD, 1000);
    assert!((40..=80).contains(&band.len()), "{} head rows", band.len());
    // One band of consecutive rows: the groups share the table's head
    // rather than each repeating it.
    assert_eq!(
        band.windows(2)
            .filter(|pair| pair[1] != pair[0] + 1)
            .count(),
        0,
        "{band:?}"
    );
}
