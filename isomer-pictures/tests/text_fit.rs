//! Text that fits the slide: a number keeps its unit on its line, a word
//! breaks only where a reader would, and content longer than the body is
//! clipped at the body and reported, never drawn through the footer.

mod common;

use common::{Picture, page_of, render, slide};
use isomer_pictures::{Overflow, Pictures};
use serde_json::json;

/// The runs of the SVG's text layer, in document order.
fn text_runs(svg: &str) -> Vec<String> {
    placed_runs(svg).into_iter().map(|(text, _)| text).collect()
}

/// The runs of the SVG's text layer with their baselines (`y`).
fn placed_runs(svg: &str) -> Vec<(String, String)> {
    let layer = &svg[svg.find("<g class=\"text-layer\"").expect("a text layer")..];
    layer
        .split("<text ")
        .skip(1)
        .map(|text| {
            let start = text.find('>').unwrap() + 1;
            let end = text.find("</text>").unwrap();
            let y = text.split("y=\"").nth(1).unwrap();
            (
                text[start..end].to_owned(),
                y[..y.find('"').unwrap()].to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_number_and_its_unit_stay_on_one_line() {
    let corpus: serde_json::Value =
        serde_json::from_str(include_str!("../../corpus/slides/corpus.json")).unwrap();
    let golden = corpus["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|case| case["id"] == "latency-delta"))
        .map(|case| case["golden"].clone())
        .expect("the corpus has latency-delta");
    let rendered = render(&golden);
    let pictures = Pictures::new().unwrap();
    let runs = placed_runs(&pictures.svg(&rendered).unwrap());
    // Each number is on the baseline of its unit: one run "420 ms", or
    // the number and the unit as runs of one line.
    for number in ["420", "180", "\u{2212}240"] {
        let at = runs
            .iter()
            .position(|(text, _)| text.trim() == number || text.starts_with(&format!("{number} ")))
            .unwrap_or_else(|| panic!("no run holds {number:?}: {runs:?}"));
        let unit = runs[at..]
            .iter()
            .find(|(text, _)| text.trim_end().ends_with("ms"))
            .unwrap_or_else(|| panic!("no unit after {number:?}: {runs:?}"));
        let baseline = |y: &str| y.parse::<f32>().unwrap();
        assert!(
            (baseline(&unit.1) - baseline(&runs[at].1)).abs() < 2.0,
            "{number:?} and its unit are on different lines: {runs:?}"
        );
    }
    assert_eq!(pictures.overflow(&rendered).unwrap(), None);
}

#[test]
fn a_table_head_word_is_never_broken() {
    let long = "settles overnight through the clearing house, then reconciles";
    let table = json!({
        "type": "slideTable",
        "columns": ["Banks", "Window", "How it settles", "What is checked", "Who signs off"],
        "rows": [
            ["Alpha", "02:00", long, long, long],
            ["Gamma", "07:00", long, long, long],
        ],
    });
    let pictures = Pictures::new().unwrap();
    let runs = text_runs(&pictures.svg(&render(&slide("Cut-offs", table))).unwrap());
    assert!(
        runs.iter().any(|run| run == "BANKS" || run == "Banks"),
        "the head is one run: {runs:?}"
    );
    for run in &runs {
        assert!(
            !["BA", "NK", "S", "BAN", "KS"].contains(&run.as_str()),
            "a piece of a broken word: {runs:?}"
        );
    }
}

#[test]
fn a_long_address_breaks_after_a_slash_not_inside_a_word() {
    // 1,000 px is narrower than the address at 48 px: it breaks, and only
    // where a reader would break it. Line breaking (UAX #14, as Chromium
    // does it) allows a break after `-` but not after `/` or `.`: markup
    // marks those with a zero-width space (takumi does not break at
    // `<wbr>`), which the text layer leaves out.
    let address = "https://docs.example.com/runbooks/settlement-cutoffs/europe/weekend-holidays";
    let marked = address.replace('/', "/\u{200B}").replace('.', ".\u{200B}");
    let rendered = page_of(&format!(
        "<p style=\"width:1000px;font-size:48px\">{marked}</p>"
    ));
    let runs = text_runs(&Pictures::new().unwrap().svg(&rendered).unwrap());
    assert!(runs.len() >= 2, "the address wraps: {runs:?}");
    assert_eq!(runs.concat(), address);
    for run in &runs[..runs.len() - 1] {
        assert!(
            run.ends_with('/') || run.ends_with('-') || run.ends_with('.'),
            "a break inside a word: {runs:?}"
        );
    }
}

#[test]
fn ten_thousand_characters_are_clipped_at_the_body_and_reported() {
    // The longest statement the schema accepts.
    let text: String = "settlement ".repeat(910).chars().take(10_000).collect();
    let composition = json!({"type": "view", "title": "Long", "body": [{
        "type": "slideFrame",
        "logo": false,
        "body": [{"type": "slideStatement", "text": text}],
    }]});
    let rendered = render(&composition);
    let pictures = Pictures::new().unwrap();
    let overflow: Overflow = pictures
        .overflow(&rendered)
        .unwrap()
        .expect("the statement runs past the body");
    assert!(overflow.bottom > 10_000.0, "{overflow:?}");
    assert_eq!(overflow.right, 0.0);
    assert!(
        overflow.to_string().starts_with("the content runs "),
        "{overflow}"
    );
    let picture = Picture::of_png(&pictures.png(&rendered).unwrap());
    // The body ends 120 px above the bottom edge: the statement fills it
    // down to there, and nothing is drawn below it (no footer on this
    // frame: no brand, section or address).
    assert!(
        picture.ink(128, 900, 1792, 960) > 1_000,
        "the body is full to its edge"
    );
    assert_eq!(
        picture.ink(0, 960, 1920, 1080),
        0,
        "no ink in the footer band"
    );

    let pages = isomer_slides::runtime()
        .unwrap()
        .snapshot()
        .unwrap()
        .render_pages(&[composition], &isomer_sdk::SnapshotOptions::default())
        .unwrap();
    let overflowing = pictures.overflowing_pages(&pages).unwrap();
    assert_eq!(overflowing, [(1, overflow)]);
}

#[test]
fn a_slide_that_fits_reports_nothing_and_its_footer_draws() {
    let rendered = render(&slide(
        "Settlement runs nightly",
        json!({"type": "slideStatement", "text": "Every cent is matched once."}),
    ));
    let pictures = Pictures::new().unwrap();
    assert_eq!(pictures.overflow(&rendered).unwrap(), None);
    let picture = Picture::of_png(&pictures.png(&rendered).unwrap());
    assert!(picture.ink(128, 990, 700, 1040) > 200, "the footer draws");
}
