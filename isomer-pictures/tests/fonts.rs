//! The compiled-in faces and a host's own: code without ligatures, Inter's
//! middle weights, ✓ and ✕ from Noto Sans Symbols 2, an empty box for a
//! character no face has, and a registered CJK face drawing it.

mod common;

use common::{Picture, page_of};
use isomer_pictures::{PictureError, Pictures};

fn draw(pictures: &Pictures, body: &str) -> Picture {
    Picture::of_png(&pictures.png(&page_of(body)).expect("the page draws"))
}

/// Markup of `text` at 200 px in `family`, top left of the body.
fn big(family: &str, text: &str) -> String {
    format!(
        "<p style=\"font-family:{family};font-size:200px;line-height:1;color:#000000\">{text}</p>"
    )
}

#[test]
fn an_arrow_in_code_is_its_two_characters_not_a_ligature() {
    // In a monospace face each character fills its own cell, so `->` drawn
    // as two glyphs is exactly `-` in the first cell and `>` in the second;
    // JetBrains Mono's `calt` ligature would join them into one long arrow.
    let pictures = Pictures::new().unwrap();
    let code = |text: &str| draw(&pictures, &big("JetBrains Mono", text));
    let (both, dash, head) = (code("-&gt;"), code("-&#160;"), code("&#160;&gt;"));
    assert!(both.ink(0, 0, 1920, 1080) > 2_000, "the arrow draws");
    let mut differing = 0;
    for y in 0..1080 {
        for x in 0..1920 {
            let apart = [dash.pixel(x, y), head.pixel(x, y)];
            let darker = if apart[0] < apart[1] {
                apart[0]
            } else {
                apart[1]
            };
            if both.pixel(x, y) != darker {
                differing += 1;
            }
        }
    }
    assert_eq!(differing, 0, "`->` differs from `-` and `>` drawn apart");
}

#[test]
fn inter_has_its_500_and_600_weights() {
    // Four weights of one word draw four different widths of ink: without a
    // 500 and a 600 face they would fall back onto 400 and 700.
    let pictures = Pictures::new().unwrap();
    let ink: Vec<usize> = [400, 500, 600, 700]
        .into_iter()
        .map(|weight| {
            let picture = draw(
                &pictures,
                &format!(
                    "<p style=\"font-family:Inter;font-weight:{weight};font-size:160px;line-height:1;color:#000000\">Ledger</p>"
                ),
            );
            picture
                .rgb
                .chunks_exact(3)
                .filter(|px| px[0] < 0x80)
                .count()
        })
        .collect();
    assert!(
        ink.windows(2).all(|pair| pair[0] < pair[1]),
        "ink by weight 400, 500, 600, 700: {ink:?}"
    );
}

#[test]
fn check_and_cross_draw_from_noto_sans_symbols_2() {
    let pictures = Pictures::new().unwrap();
    let missing = draw(&pictures, &big("Inter", "\u{4E2D}"));
    for mark in ["\u{2713}", "\u{2715}"] {
        let picture = draw(&pictures, &big("Inter", mark));
        let (left, top, right, bottom) = picture.ink_box().expect("the mark draws");
        assert!(picture.ink(0, 0, 1920, 1080) > 2_000, "{mark} draws ink");
        // Not the empty box of a missing character.
        assert_ne!(picture.rgb, missing.rgb, "{mark} is a glyph, not the box");
        // Noto's check mark and cross are about as wide as tall, 0.6 to 0.8 em.
        let (width, height) = (right - left, bottom - top);
        assert!(
            (90..180).contains(&width) && (90..180).contains(&height),
            "{mark}: {width}x{height}"
        );
    }
}

/// Whether the picture's only ink is the outline of a box: ink on its
/// four sides and none in its middle.
fn is_an_empty_box(picture: &Picture) -> bool {
    let Some((left, top, right, bottom)) = picture.ink_box() else {
        return false;
    };
    let (middle_x, middle_y) = ((left + right) / 2, (top + bottom) / 2);
    let (width, height) = (right - left, bottom - top);
    width > 40
        && height > 60
        && picture.inked(left + 2, middle_y)
        && picture.inked(right - 3, middle_y)
        && picture.inked(middle_x, top + 2)
        && picture.inked(middle_x, bottom - 3)
        && picture.ink(
            left + width / 4,
            top + height / 4,
            right - width / 4,
            bottom - height / 4,
        ) == 0
}

#[test]
fn a_character_no_face_has_draws_an_empty_box() {
    let pictures = Pictures::new().unwrap();
    for text in ["\u{4E2D}", "\u{05E9}", "\u{0645}"] {
        let picture = draw(&pictures, &big("Inter", text));
        assert!(is_an_empty_box(&picture), "{text:?} draws an outlined box");
    }
    let code = draw(&pictures, &big("JetBrains Mono", "\u{4E2D}"));
    assert!(is_an_empty_box(&code), "in code too");
}

#[test]
fn a_registered_cjk_face_draws_its_characters() {
    let mut pictures = Pictures::new().unwrap();
    let families = pictures
        .register_face(include_bytes!("fonts/DroidSansFallback-sample.ttf").to_vec())
        .expect("the face registers");
    assert_eq!(families, ["Droid Sans Fallback"]);
    let picture = draw(&pictures, &big("Inter", "\u{4E2D}"));
    assert!(!is_an_empty_box(&picture), "中 is drawn, not boxed");
    let (left, top, right, bottom) = picture.ink_box().expect("中 draws");
    // 中's vertical stroke runs through the middle of its box.
    assert!(picture.inked((left + right) / 2, (top + bottom) / 2));
    // Text the sample face lacks still draws the box.
    assert!(is_an_empty_box(&draw(&pictures, &big("Inter", "\u{05E9}"))));
}

#[test]
fn bytes_that_are_no_font_are_refused() {
    let mut pictures = Pictures::new().unwrap();
    let error = pictures
        .register_face(b"not a font".to_vec())
        .expect_err("not a font");
    assert!(matches!(error, PictureError::Face(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        "the registered face does not load: Unsupported font format"
    );
}
