//! A new user's attempts to break the slides pack's use of today's Markdown
//! builder features: `slideTranscript` prose turns (lines joined by hard
//! breaks) and `slideClosing` mailto links (autolinks), with hostile text
//! and odd addresses. Each test quotes what the docs promise; the one named
//! `finding_…` failed before the fix that came with it.

mod common;

use common::runtime;
use isomer_sdk::Surface;
use serde_json::{Value, json};

fn render(surface: Surface, node: &Value) -> String {
    runtime()
        .render_node(surface, node, None)
        .unwrap_or_else(|error| panic!("{node} does not render: {error:?}"))
        .to_text()
}

fn body_html(node: &Value) -> String {
    let html = render(Surface::Html, node);
    html.split_once("</style>")
        .expect("the html starts with its stylesheet")
        .1
        .to_owned()
}

/// A one-turn transcript whose prose says `text`.
fn transcript(text: &str) -> Value {
    json!({ "type": "slideTranscript", "turns": [ { "role": "user", "text": text } ] })
}

/// `slideTranscript` doc: "prose as one paragraph whose lines are joined by
/// hard breaks"; the sdk's `Inline::hard_break` doc: every line after a
/// break gets the block-opener escaping of a block's first line. A line
/// `-<tab>next` opened a bullet list and `-- -` a thematic break (fixed in
/// the sdk's `escape_block_start`, commit of the sdk's findings test);
/// emoji with a skin tone, a combining accent and right-to-left text pass
/// through, a line of spaces is an empty line, and a trailing ` #` is text
/// (a paragraph has no closing sequence).
#[test]
fn finding_prose_turn_lines_that_look_like_blocks_stay_text() {
    let node = transcript(
        "Done.\n-\tnext step\n-- -\n**bold**\n👍🏽 e\u{301} \u{200F}שלום\na\u{2028}b\n   \nlast #",
    );
    assert_eq!(
        render(Surface::Markdown, &node),
        "**USER**\n\nDone.\\\n\\-\tnext step\\\n\\-- -\\\n\\*\\*bold\\*\\*\\\n👍🏽 e\u{301} \u{200F}שלום\\\na b\\\n\\\nlast #"
    );
    // The HTML fallback of the same paragraph: `<br>` per break, escaped.
    assert_eq!(
        body_html(&node),
        "<section class=\"isomer\" aria-label=\"View\" data-theme=\"auto\"><p><strong>USER</strong></p>\
<p>Done.<br>-\tnext step<br>-- -<br>**bold**<br>👍🏽 e\u{301} \u{200F}שלום<br>a\u{2028}b<br>   <br>last #</p></section>"
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

/// A closing slide with one `Mail` link to `href`.
fn closing(href: &str) -> Value {
    json!({ "type": "slideClosing", "title": "Thanks",
        "links": [ { "label": "Mail", "href": href, "text": "a@b.example" } ] })
}

/// `slideClosing` doc: "a mailto href as an autolink, `<address>` as the
/// reference shows, or `[address](href)` when no autolink can hold it"; the
/// sdk's `Inline::autolink`: a mailto URL that is not a plain address keeps
/// the `<mailto:…>` form. Odd addresses the schema accepts: every one is
/// valid Markdown, and none is raw.
#[test]
fn odd_mailto_addresses_in_markdown() {
    let cases = [
        ("MAILTO:Team@Example.COM", "<Team@Example.COM>"),
        ("mailto:a@localhost", "<a@localhost>"),
        ("mailto:a@b.example\n", "<a@b.example>"),
        ("mailto:%3Cscript%3E@x.example", "<%3Cscript%3E@x.example>"),
        ("mailto:a@b.example)", "<mailto:a@b.example)>"),
        ("mailto:?subject=x", "<mailto:?subject=x>"),
        (
            "mailto:a b@c.example",
            "[a b@c.example](<mailto:a b@c.example>)",
        ),
        (
            "mailto:x@y.example|evil",
            "[x@y.example\\|evil](mailto:x@y.example|evil)",
        ),
    ];
    for (href, link) in cases {
        assert_eq!(
            render(Surface::Markdown, &closing(href)),
            format!("# Thanks\n\n**MAIL** · {link}"),
            "{href:?}"
        );
    }
    // Unsafe hrefs are refused by validation, and the html surface (which
    // collects) prints the text unlinked.
    for href in ["javascript:alert(1)", "mailto:<a>@b.example"] {
        assert!(
            !runtime().validate(&common::view(closing(href))).valid,
            "{href:?}"
        );
        assert_eq!(
            body_html(&closing(href)),
            "<section class=\"isomer\" aria-label=\"View\" data-theme=\"auto\"><div class=\"slide-closing\">\
<div class=\"slide-closing-main\"><h1 class=\"slide-size-l\">Thanks</h1><ul class=\"slide-links\">\
<li><span class=\"slide-label\">MAIL</span><span class=\"slide-address\">a@b.example</span></li></ul></div></div></section>"
        );
    }
}

/// `slideClosing` doc: Slack `*LABEL* · <href|text>` lines. A `|` in the
/// href (which validation accepts) was deleted, so the link went to another
/// address (`x@y.exampleevil`); the sdk's own mrkdwn links write it as
/// `%7C`, which the mail client decodes back to `|`. Fixed the same way,
/// and a raw `&` is escaped as those links escape it.
#[test]
fn finding_a_pipe_in_a_closing_href_keeps_its_address_in_slack() {
    let slack: Value =
        serde_json::from_str(&render(Surface::Slack, &closing("mailto:x@y.example|evil")))
            .expect("the slack payload is JSON");
    assert_eq!(
        slack["blocks"][1]["text"]["text"],
        "*MAIL* · <mailto:x@y.example%7Cevil|a@b.example>"
    );
    // `&` is escaped in the href as in the sdk's mrkdwn links
    // (`escape_mrkdwn`: Slack's control characters are `&`, `<`, `>`).
    let slack: Value = serde_json::from_str(&render(
        Surface::Slack,
        &closing("mailto:a@b.example?subject=a&body=b"),
    ))
    .expect("the slack payload is JSON");
    assert_eq!(
        slack["blocks"][1]["text"]["text"],
        "*MAIL* · <mailto:a@b.example?subject=a&amp;body=b|a@b.example>"
    );
}
