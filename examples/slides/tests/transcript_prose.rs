//! `slideTranscript` prose turns: a turn's lines are one paragraph joined
//! by hard breaks, so no line of hostile text opens a Markdown block, and a
//! turn of only blank lines is refused.

mod common;

use common::{html_body, render_node, runtime};
use isomer_sdk::Surface;
use serde_json::{Value, json};

/// A one-turn transcript whose prose says `text`.
fn transcript(text: &str) -> Value {
    json!({ "type": "slideTranscript", "turns": [ { "role": "user", "text": text } ] })
}

/// Prose is one paragraph whose lines are joined by hard breaks, and every
/// line after a break is escaped as a block's first line is (the sdk's
/// `Inline::hard_break`): `-<tab>next` stays text, not a bullet list, and
/// `-- -` text, not a thematic break. Emoji with a skin tone, a combining
/// accent and right-to-left text pass through, a line of spaces is an empty
/// line, and a trailing ` #` is text (a paragraph has no closing sequence).
#[test]
fn prose_turn_lines_that_look_like_blocks_stay_text() {
    let node = transcript(
        "Done.\n-\tnext step\n-- -\n**bold**\n👍🏽 e\u{301} \u{200F}שלום\na\u{2028}b\n   \nlast #",
    );
    assert_eq!(
        render_node(Surface::Markdown, &node),
        "**USER**\n\nDone.\\\n\\-\tnext step\\\n\\-- -\\\n\\*\\*bold\\*\\*\\\n👍🏽 e\u{301} \u{200F}שלום\\\na b\\\n\\\nlast #"
    );
    // The HTML of the same turn: its bubble, a `<br>` per break, escaped.
    assert_eq!(
        html_body(&node),
        "<div class=\"slide-transcript\"><ol class=\"slide-transcript-turns\">\
<li class=\"slide-turn slide-turn-user\"><p class=\"slide-turn-role\">USER</p><div class=\"slide-turn-bubble\">\
<p class=\"slide-turn-prose\">Done.<br>-\tnext step<br>-- -<br>**bold**<br>👍🏽 e\u{301} \u{200F}שלום<br>a\u{2028}b<br>   <br>last #</p>\
</div></li></ol></div>"
    );
}

/// A turn of only blank lines says nothing: the pack refuses it rather
/// than render an empty paragraph.
#[test]
fn a_blank_turn_is_refused() {
    let checked = runtime().validate(&common::view(transcript(" \n\r\n\t")));
    assert!(!checked.valid);
    assert_eq!(checked.errors[0].path, "body[0].turns[0].text");
}
