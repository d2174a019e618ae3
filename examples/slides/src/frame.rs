//! `slideDeckFrame`: the document slides are drawn in, as the sdk's
//! [`Frame`] with its body rule.
//!
//! The slide canvas is fixed at [`SLIDE_WIDTH`] × [`SLIDE_HEIGHT`] pixels.
//! A composition can be drawn in this frame only when its body is exactly
//! one `slideFrame` node; [`validate_slide_deck_body`] says why not
//! otherwise. `Runtime::validate` is frame-agnostic and does not run the
//! rule; the agent tools and the `snapshot` surface do.

use isomer_sdk::Frame;
use serde_json::Value;

use crate::check::SLIDE_FRAME;

/// The name hosts usually register the frame under (`frames: { slide }`).
pub const SLIDE_DECK_FRAME: &str = "slide";

/// The slide canvas width in pixels (upstream `SLIDE_WIDTH`).
pub const SLIDE_WIDTH: u32 = 1920;

/// The slide canvas height in pixels (upstream `SLIDE_HEIGHT`).
pub const SLIDE_HEIGHT: u32 = 1080;

/// The body rule of the slides frame: empty when `body` is exactly one
/// `slideFrame` node, otherwise one message:
/// - `a snapshot render needs exactly one "slideFrame" node, got N nodes; render one slide per spec`
///   when the body does not hold one node;
/// - `a snapshot render needs a "slideFrame" root, got "<type>"; wrap slide content in a frame`
///   when its one node is of another type (`<type>` printed as authored,
///   without JSON quoting, as upstream's template does).
///
/// The messages name the surface that applies the rule, `snapshot` (the
/// runtime's image surface; older upstream runtimes called it `svg` and
/// worded these messages "an svg render"); the rest of this project's crates
/// quote the same text.
pub fn validate_slide_deck_body(body: &[Value]) -> Vec<String> {
    if body.len() != 1 {
        return vec![format!(
            "a snapshot render needs exactly one \"{SLIDE_FRAME}\" node, got {} nodes; render one slide per spec",
            body.len()
        )];
    }
    let kind = body[0].get("type").and_then(Value::as_str).unwrap_or("");
    if kind == SLIDE_FRAME {
        Vec::new()
    } else {
        vec![format!(
            "a snapshot render needs a \"{SLIDE_FRAME}\" root, got \"{kind}\"; wrap slide content in a frame"
        )]
    }
}

/// The stylesheet the `snapshot` surface lays a slide out with, after the
/// `html` surface's own: the slide canvas ([`SLIDE_WIDTH`] × [`SLIDE_HEIGHT`],
/// padded 112 px top, 128 px sides, 120 px bottom), the heading block at the
/// top and the rest of the slide centred in the space below it, the footer
/// line 48 px above the bottom edge in 24 px text, Inter for text and
/// JetBrains Mono for code.
///
/// Colours are custom properties with four sets: the light page (warm
/// off-white `#F7F6F1`), the dark page (`#07101F`), and a frame with tone
/// `inverse` on each (`#07101F` and `#12213A`), so an inverse title,
/// section or closing slide is dark in either scheme.
///
/// It styles the `slide-*` classes of the pack's own markup (see
/// [`crate::html`]: eyebrow, title 240/176/128 px, section number 280 px,
/// heading 76/64/56 px, statement 128/112/96 px, quote 96/76/64 px, closing
/// title 160/128/96 px, ruled rows; split panes, columns, territories and
/// stats in one row of equal columns; lists with one marker per item; a
/// stat's value at 200 px, a delta's at 160 px, a stats item's at 120 px)
/// and breaks text only where a reader would (`overflow-wrap: break-word`:
/// at spaces, after `/` and `-`, and inside a word only when the word alone
/// is wider than its line), keeps a value with its unit on one line, and
/// clips the body (`overflow: hidden` on `.slide-body`), so content longer
/// than the slide ends at the body's edge instead of running through the
/// footer (`isomer-pictures` reports it as an overflow); for every
/// other primitive it styles the
/// elements its Markdown becomes (headings at weight 800, body 28 px, list
/// items 32 px, labels 24 px upper-case, code 26 px on a panel), so a new
/// primitive draws in the slide's look through the HTML it already renders.
pub const SLIDE_CSS: &str = include_str!("frame/slide.css");

/// The slides frame, named [`SLIDE_DECK_FRAME`] (`"slide"`): a
/// [`SLIDE_WIDTH`] × [`SLIDE_HEIGHT`] page drawn with the pack's stylesheet
/// ([`crate::slide_stylesheet`]: [`SLIDE_CSS`] and each primitive's rules), without
/// the composition's title and subtitle (a slide carries its own heading),
/// and [`validate_slide_deck_body`] as its body rule.
pub fn slide_deck_frame() -> Frame {
    Frame::new(SLIDE_DECK_FRAME)
        .size(SLIDE_WIDTH, SLIDE_HEIGHT)
        .stylesheet(crate::slide_stylesheet())
        .heading(false)
        .body_rule(validate_slide_deck_body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accepts_exactly_one_slide_frame() {
        let frame = slide_deck_frame();
        assert_eq!(frame.name(), "slide");
        assert!(
            frame
                .validate_body(&[json!({"type": "slideFrame", "body": []})])
                .is_empty()
        );
    }

    #[test]
    fn counts_the_nodes_it_got() {
        assert_eq!(
            validate_slide_deck_body(&[]),
            [
                "a snapshot render needs exactly one \"slideFrame\" node, got 0 nodes; render one slide per spec"
            ]
        );
        let two = [json!({"type": "slideFrame"}), json!({"type": "slideFrame"})];
        assert_eq!(
            validate_slide_deck_body(&two),
            [
                "a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec"
            ]
        );
    }

    #[test]
    fn names_the_wrong_root() {
        assert_eq!(
            validate_slide_deck_body(&[json!({"type": "slideStat", "body": "x"})]),
            [
                "a snapshot render needs a \"slideFrame\" root, got \"slideStat\"; wrap slide content in a frame"
            ]
        );
    }
}
