//! `slideClosing` mailto links: an autolink or a bracketed link on
//! Markdown for every address the schema accepts, the address kept whole
//! on Slack, and unsafe hrefs refused.

mod common;

use common::{html_body, render_node, runtime};
use isomer_sdk::Surface;
use serde_json::{Value, json};

/// A closing slide with one `Mail` link to `href`.
fn closing(href: &str) -> Value {
    json!({ "type": "slideClosing", "title": "Thanks",
        "links": [ { "label": "Mail", "href": href, "text": "a@b.example" } ] })
}

/// Markdown writes a mailto href as an autolink, `<address>` as upstream
/// does, or `[address](href)` when no autolink can hold it; a mailto URL
/// that is not a plain address keeps the `<mailto:…>` form (the sdk's
/// `Inline::autolink`). Odd addresses the schema accepts: every one is
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
            render_node(Surface::Markdown, &closing(href)),
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
            html_body(&closing(href)),
            "<div class=\"slide-closing\">\
<div class=\"slide-closing-main\"><h1 class=\"slide-size-l\">Thanks</h1><ul class=\"slide-links\">\
<li><span class=\"slide-label\">MAIL</span><span class=\"slide-address\">a@b.example</span></li></ul></div></div>"
        );
    }
}

/// The mrkdwn of the link line of `closing(href)` on Slack.
fn slack_link_line(href: &str) -> Value {
    let slack: Value = serde_json::from_str(&render_node(Surface::Slack, &closing(href)))
        .expect("the slack payload is JSON");
    slack["blocks"][1]["text"]["text"].clone()
}

/// Slack prints a link line as `*LABEL* · <href|text>`. A `|` in the href
/// (which validation accepts) would end the address there, so it is
/// written `%7C`, as the sdk's own mrkdwn links write it and the mail
/// client decodes back to `|`; a raw `&` is escaped as those links escape
/// it (Slack's control characters are `&`, `<` and `>`).
#[test]
fn a_pipe_in_a_mailto_href_keeps_its_address_in_slack() {
    assert_eq!(
        slack_link_line("mailto:x@y.example|evil"),
        "*MAIL* · <mailto:x@y.example%7Cevil|a@b.example>"
    );
    assert_eq!(
        slack_link_line("mailto:a@b.example?subject=a&body=b"),
        "*MAIL* · <mailto:a@b.example?subject=a&amp;body=b|a@b.example>"
    );
}
