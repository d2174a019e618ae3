//! The upstream worked examples as decks of compositions in the current
//! field names (the newest worked example, `deck.ts`, and the older
//! "Crate" deck):
//! every slide validates, passes the frame's body rule, and renders on the
//! text and Markdown surfaces with the heading off (snapshots, checked by
//! hand).
//!
//! The Crate deck's "Lanes" and "Graph" slides used `slideLanes` and
//! `slideGraph`, which this crate does not register yet; they are rewritten
//! with the registered primitives closest in intent (a split of two
//! pipelines meeting at one step, and a glossary).

mod common;

use common::runtime;
use isomer_sdk::RenderOptions;
use isomer_slides::slide_deck_frame;
use serde_json::Value;

fn deck(json: &str) -> Vec<Value> {
    serde_json::from_str(json).expect("the deck is a JSON array of compositions")
}

/// Validates every slide, checks the frame rule, and returns the text and
/// Markdown of the deck, slides apart by a `---- <title>` line.
fn render_deck(slides: &[Value]) -> (String, String) {
    let options = RenderOptions {
        heading: false,
        ..Default::default()
    };
    let frame = slide_deck_frame();
    let (mut text, mut markdown) = (String::new(), String::new());
    for slide in slides {
        let title = slide["title"].as_str().expect("every slide has a title");
        let checked = runtime().validate(slide);
        assert!(checked.valid, "{title}: {:?}", checked.errors);
        assert_eq!(checked.errors, [], "{title}");
        let body = slide["body"].as_array().expect("a body");
        assert_eq!(frame.validate_body(body), Vec::<String>::new(), "{title}");
        let slide_text = runtime()
            .render_text(slide, &options)
            .expect("renders as text");
        let slide_markdown = runtime()
            .render_markdown(slide, &options)
            .expect("renders as Markdown");
        text.push_str(&format!("---- {title}\n{slide_text}\n"));
        markdown.push_str(&format!("---- {title}\n{slide_markdown}\n"));
    }
    (text, markdown)
}

#[test]
fn the_isomer_worked_example() {
    let slides = deck(include_str!("decks/isomer.json"));
    assert_eq!(slides.len(), 2);
    let (text, markdown) = render_deck(&slides);
    insta::assert_snapshot!("isomer_deck__text", text);
    insta::assert_snapshot!("isomer_deck__markdown", markdown);
}

#[test]
fn the_crate_deck() {
    let slides = deck(include_str!("decks/crate.json"));
    assert_eq!(slides.len(), 11);
    let (text, markdown) = render_deck(&slides);
    insta::assert_snapshot!("crate_deck__text", text);
    insta::assert_snapshot!("crate_deck__markdown", markdown);
}

#[test]
fn a_deck_as_one_composition_breaks_the_frame_rule() {
    let slides = deck(include_str!("decks/isomer.json"));
    let body: Vec<Value> = slides.iter().map(|s| s["body"][0].clone()).collect();
    assert_eq!(
        slide_deck_frame().validate_body(&body),
        [
            "a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec"
        ]
    );
    let title = slides[0]["body"][0]["body"][0].clone();
    assert_eq!(
        slide_deck_frame().validate_body(&[title]),
        [
            "a snapshot render needs a \"slideFrame\" root, got \"slideTitle\"; wrap slide content in a frame"
        ]
    );
}
