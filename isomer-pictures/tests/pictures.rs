//! PNG, SVG and PDF of slides, decoded and checked: sizes, content, page
//! counts, determinism, and the answers the host formats give.

mod common;

use std::sync::Arc;

use isomer_agent_tools::{HostRenderOptions, format_result};
use isomer_pictures::{Pictures, host_formats};
use isomer_sdk::composition::Theme;
use isomer_sdk::{Runtime, SnapshotOptions, ToolContent};
use serde_json::{Value, json};

use common::{PAGE, Picture, render, render_in, slide};

fn runtime() -> Runtime {
    isomer_slides::runtime().expect("the slides runtime builds")
}

fn ledger() -> Value {
    slide(
        "Settlement runs nightly",
        json!({"type": "slideBulletList", "items": [
            "Batches close at 02:00 UTC",
            "Every cent is matched once",
        ]}),
    )
}

#[test]
fn a_png_is_one_1920_by_1080_slide_with_its_title_drawn() {
    let picture = Picture::of_composition(&ledger());
    let (width, height) = (picture.width, picture.height);
    assert_eq!((width, height), (1920, 1080));

    let mut colours = std::collections::HashSet::new();
    for y in (0..height).step_by(3) {
        for x in (0..width).step_by(3) {
            colours.insert(picture.pixel(x, y));
        }
    }
    assert!(colours.len() > 32, "only {} colours: blank", colours.len());

    // The corners are the page background.
    assert_eq!(picture.pixel(4, 4), PAGE);
    assert_eq!(picture.pixel(1915, 1075), PAGE);
    // The title sits top left, inside the 112 px top and 128 px side padding,
    // 76 px tall: some of that band is ink, not page.
    let inked = picture.ink(128, 112, 900, 200);
    assert!(
        inked > 2_000,
        "only {inked} title pixels differ from the page"
    );
    // Nothing is drawn in the left padding.
    assert_eq!(picture.ink(0, 0, 120, 1080), 0);
}

#[test]
fn a_dark_slide_draws_on_the_dark_page() {
    let render = render_in(&ledger(), Some(Theme::Dark));
    let picture = Picture::of_png(&Pictures::new().unwrap().png(&render).unwrap());
    assert_eq!(picture.pixel(4, 4), [0x07, 0x10, 0x1F]);
}

#[test]
fn an_inverse_frame_draws_dark_in_either_scheme() {
    let mut title = ledger();
    title["body"][0]["tone"] = json!("inverse");
    let pictures = Pictures::new().unwrap();
    for (theme, background) in [
        (Theme::Light, [0x07, 0x10, 0x1F]),
        (Theme::Dark, [0x12, 0x21, 0x3A]),
    ] {
        let render = render_in(&title, Some(theme));
        let picture = Picture::of_png(&pictures.png(&render).unwrap());
        assert_eq!(picture.pixel(4, 4), background, "{theme:?}");
        assert_eq!(picture.pixel(1915, 1075), background, "{theme:?}");
        // The title is drawn in the inverse text colour, #F3F7FC: light ink
        // where it sits (112 px down, 128 px in, 76 px tall).
        let light = picture.count(128..900, 112..200, |pixel| pixel == [0xF3, 0xF7, 0xFC]);
        assert!(light > 2_000, "{theme:?}: only {light} title pixels");
    }
}

#[test]
fn an_svg_parses_and_holds_the_slide_text() {
    let render = render(&ledger());
    let svg = Pictures::new().unwrap().svg(&render).unwrap();
    let tree = svg2pdf::usvg::Tree::from_str(&svg, &svg2pdf::usvg::Options::default())
        .expect("the SVG parses");
    assert_eq!(
        (tree.size().width(), tree.size().height()),
        (1920.0, 1080.0)
    );
    assert!(svg.contains("\n  <title>Settlement runs nightly</title>\n"));
    for text in [
        "Settlement runs nightly",
        "Batches close at 02:00 UTC",
        "Every cent is matched once",
        "Northwind · Ledger",
    ] {
        assert!(svg.contains(text), "the SVG lacks {text:?}");
    }
}

#[test]
fn a_pdf_has_one_page_per_frame() {
    let runtime = runtime();
    let deck = [
        ledger(),
        slide("Two", json!({"type": "slideStatement", "text": "Ship it."})),
        slide(
            "Three",
            json!({"type": "slideStatement", "text": "Then measure."}),
        ),
    ];
    let pages = runtime
        .snapshot()
        .unwrap()
        .render_pages(&deck, &SnapshotOptions::default())
        .unwrap();
    let pdf = Pictures::new().unwrap().pdf(&pages).unwrap();
    let document = lopdf::Document::load_mem(&pdf).expect("the PDF parses");
    let page_ids: Vec<_> = document.get_pages().into_values().collect();
    assert_eq!(page_ids.len(), 3);
    for id in page_ids {
        let page = document.get_dictionary(id).unwrap();
        let media_box: Vec<f32> = page
            .get(b"MediaBox")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_float().unwrap())
            .collect();
        assert_eq!(media_box, [0.0, 0.0, 1440.0, 810.0]);
    }
}

#[test]
fn two_renders_of_one_composition_are_byte_identical() {
    let runtime = runtime();
    let snapshot = runtime.snapshot().unwrap();
    let options = SnapshotOptions::default();
    let render = snapshot.render(&ledger(), &options).unwrap();
    let pages = snapshot.render_pages(&[ledger()], &options).unwrap();
    let (first, second) = (Pictures::new().unwrap(), Pictures::new().unwrap());
    assert!(first.png(&render).unwrap() == second.png(&render).unwrap());
    assert_eq!(first.svg(&render).unwrap(), first.svg(&render).unwrap());
    assert!(first.pdf(&pages).unwrap() == second.pdf(&pages).unwrap());
}

#[test]
fn a_slide_that_runs_past_the_bottom_is_reported() {
    let runtime = runtime();
    let snapshot = runtime.snapshot().unwrap();
    let pictures = Pictures::new().unwrap();
    let fits = snapshot
        .render(&ledger(), &SnapshotOptions::default())
        .unwrap();
    assert_eq!(pictures.overflow(&fits).unwrap(), None);

    let items: Vec<Value> = (0..6)
        .map(|n| {
            json!(format!(
                "Reason {n}: {}",
                "and then some more words ".repeat(30)
            ))
        })
        .collect();
    let long = slide(
        "Six long reasons",
        json!({"type": "slideBulletList", "items": items}),
    );
    let pages = snapshot
        .render_pages(&[ledger(), long], &SnapshotOptions::default())
        .unwrap();
    let overflowing = pictures.overflowing_pages(&pages).unwrap();
    assert_eq!(overflowing.len(), 1);
    assert_eq!(overflowing[0].0, 2);
    assert!(overflowing[0].1.bottom > 500.0, "{:?}", overflowing[0].1);
}

#[tokio::test]
async fn the_host_formats_answer_as_images_and_a_pdf_resource() {
    let formats = host_formats(Arc::new(runtime()), Arc::new(Pictures::new().unwrap()));
    let names: Vec<(&str, &str)> = formats
        .iter()
        .map(|(name, format)| (name.as_str(), format.mime_type.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("png", "image/png"),
            ("svg", "image/svg+xml"),
            ("pdf", "application/pdf")
        ]
    );
    for (name, format) in &formats {
        let output = (format.render)(ledger(), HostRenderOptions::default())
            .await
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        let result = format_result(name, &format.mime_type, output);
        assert!(!result.is_error, "{name}");
        match (name.as_str(), &result.content[..]) {
            ("png", [ToolContent::Image { mime_type, data }]) => {
                assert_eq!(mime_type, "image/png");
                assert!(data.starts_with("iVBORw0KGgo"), "base64 of a PNG signature");
            }
            ("svg", [ToolContent::Image { mime_type, .. }]) => {
                assert_eq!(mime_type, "image/svg+xml");
            }
            ("pdf", [ToolContent::Resource { resource }]) => {
                assert_eq!(resource.uri, "isomer://render/pdf");
                assert_eq!(resource.mime_type, "application/pdf");
                assert!(resource.blob.starts_with("JVBERi0"), "base64 of %PDF-");
            }
            (name, content) => panic!("{name} answered {content:?}"),
        }
    }

    let two = json!({"type": "view", "body": [
        {"type": "slideFrame", "body": [{"type": "slideStatement", "text": "a"}]},
        {"type": "slideFrame", "body": [{"type": "slideStatement", "text": "b"}]},
    ]});
    let error = (formats[0].1.render)(two, HostRenderOptions::default())
        .await
        .expect_err("two frames are refused");
    assert_eq!(
        error.to_string(),
        "frame \"slide\" cannot draw this composition: a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec"
    );
}

#[test]
fn an_unbreakable_heading_wraps_inside_the_slide_instead_of_running_off() {
    // 80 capitals at 56 px run about 3,100 px, past the 1,664 px the slide
    // leaves between its margins: the word breaks anywhere and wraps.
    let word = "W".repeat(80);
    let render = render(&slide(
        &word,
        json!({"type": "slideStatement", "text": "x"}),
    ));
    let pictures = Pictures::new().unwrap();
    assert_eq!(pictures.overflow(&render).unwrap(), None);

    let picture = Picture::of_png(&pictures.png(&render).unwrap());
    let (width, height) = (picture.width, picture.height);
    // The right margin (the last 128 px) stays empty on every row above the
    // footer, and the heading's ink spans at least two lines.
    for y in 0..height - 160 {
        for x in width - 120..width {
            assert!(
                !picture.inked(x, y),
                "ink in the right margin at ({x}, {y})"
            );
        }
    }
    let inked_rows: Vec<u32> = (0..height - 160)
        .filter(|&y| (128..width - 128).step_by(4).any(|x| picture.inked(x, y)))
        .collect();
    let first = inked_rows[0];
    let gaps = inked_rows.windows(2).filter(|w| w[1] - w[0] > 1).count();
    assert!(first < 300, "the heading starts at the top, row {first}");
    assert!(
        gaps >= 2,
        "the heading wraps onto a second line, then the statement"
    );
}
