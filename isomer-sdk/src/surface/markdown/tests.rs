//! The Markdown builder's output: escaping, blocks, links, autolinks and
//! hard line breaks in every serialization.

use super::gfm::escape_markdown_text;
use super::*;

#[test]
fn escapes_inline_punctuation_and_line_breaks() {
    assert_eq!(
        escape_markdown_text("a*b_c\nd|e<f>&\\`"),
        "a\\*b\\_c d\\|e\\<f\\>\\&\\\\\\`"
    );
}

#[test]
fn escapes_block_openers_at_the_start_only() {
    assert_eq!(Markdown::paragraph("# x").to_markdown(), "\\# x");
    assert_eq!(Markdown::paragraph("- x").to_markdown(), "\\- x");
    assert_eq!(Markdown::paragraph("-x").to_markdown(), "-x");
    assert_eq!(Markdown::paragraph("---").to_markdown(), "\\---");
    assert_eq!(Markdown::paragraph("12. x").to_markdown(), "12\\. x");
    assert_eq!(Markdown::paragraph("12 x. y").to_markdown(), "12 x. y");
    assert_eq!(Markdown::paragraph("  + ").to_markdown(), "\\+ ");
}

#[test]
fn serializes_blocks() {
    let md = Markdown::code_block("rust", "a ``` b")
        .then(Markdown::blockquote(
            Markdown::paragraph("one").then(Markdown::paragraph("two")),
        ))
        .then(Markdown::table(
            vec!["k".into(), "v".into()],
            vec![vec!["a|b".into()], vec!["4.2".into(), "- 1".into()]],
        ))
        .then(Markdown::ordered_list(["x", "y"]));
    assert_eq!(
        md.to_markdown(),
        "````rust\na ``` b\n````\n\n> one\n>\n> two\n\n| k | v |\n| - | - |\n| a\\|b | |\n| 4.2 | - 1 |\n\n1. x\n2. y"
    );
}

#[test]
fn links_only_safe_hrefs() {
    assert_eq!(
        Inline::link("docs", "https://x.test/a").to_markdown(),
        "[docs](https://x.test/a)"
    );
    assert_eq!(
        Inline::link("docs", "javascript:alert(1)").to_markdown(),
        "docs"
    );
    assert_eq!(
        Inline::link("a|b", "https://x.test").to_mrkdwn(),
        "<https://x.test|a¦b>"
    );
    assert_eq!(Inline::link("rel", "/a").to_mrkdwn(), "rel");
    assert_eq!(
        Inline::link("<x>", "https://x.test/?a=1&b=2").to_html(),
        "<a href=\"https://x.test/?a=1&amp;b=2\">&lt;x&gt;</a>"
    );
}

#[test]
fn hard_break_is_a_backslash_and_a_newline() {
    let lines = Inline::text("one").then(Inline::hard_break()).then("two");
    assert_eq!(lines.to_markdown(), "one\\\ntwo");
    assert_eq!(
        Markdown::paragraph(Inline::lines(["a", "b", "c"])).to_markdown(),
        "a\\\nb\\\nc"
    );
}

#[test]
fn hard_break_next_to_text_that_needs_escaping() {
    // A trailing authored backslash is escaped, so the break's own
    // backslash still starts a hard break; the next line's block
    // opener and punctuation are escaped as on a block's first line.
    let md = Markdown::paragraph(
        Inline::text("C:\\")
            .then(Inline::hard_break())
            .then("# not *a* heading")
            .then(Inline::hard_break())
            .then("- no list")
            .then(Inline::hard_break())
            .then("1) nor this"),
    );
    assert_eq!(
        md.to_markdown(),
        "C:\\\\\\\n\\# not \\*a\\* heading\\\n\\- no list\\\n1\\) nor this"
    );
}

#[test]
fn a_line_after_a_break_never_underlines_the_one_before() {
    for (line, escaped) in [("=", "\\="), ("==", "\\=="), ("--", "\\--"), ("-", "\\-")] {
        let md = Inline::lines(["Title", line]).to_markdown();
        assert_eq!(md, format!("Title\\\n{escaped}"), "{line}");
    }
    assert_eq!(Inline::lines(["a", "= ="]).to_markdown(), "a\\\n= =");
}

#[test]
fn breaks_at_either_end_are_dropped_and_inner_blank_lines_kept() {
    let md = Inline::hard_break()
        .then("  ")
        .then(Inline::hard_break())
        .then("a")
        .then(Inline::hard_break())
        .then(" ")
        .then(Inline::hard_break())
        .then("b")
        .then(Inline::hard_break());
    assert_eq!(md.to_markdown(), "a\\\n\\\nb");
    assert!(Markdown::paragraph(Inline::hard_break()).is_empty());
}

#[test]
fn text_line_terminators_stay_spaces_beside_hard_breaks() {
    let md = Inline::text("a\nb\r\nc\u{2028}d")
        .then(Inline::hard_break())
        .then(Inline::code("x\ny"));
    assert_eq!(md.to_markdown(), "a b c d\\\n`x y`");
}

#[test]
fn hard_breaks_inside_marks_break_the_line_inside_them() {
    // Each line is wrapped on its own, so no delimiter sits next to the
    // break (where it could not open or close) and `#` starts no line.
    let md = Inline::strong(Inline::lines(["a", "# b"]));
    assert_eq!(md.to_markdown(), "**a**\\\n**# b**");
}

#[test]
fn hard_breaks_by_block() {
    let two = || Inline::lines(["a", "b"]);
    let md = Markdown::heading(2, two())
        .then(Markdown::bullet_list([two()]))
        .then(Markdown::ordered_list(
            std::iter::repeat_n(Inline::text("x"), 9).chain([two()]),
        ))
        .then(Markdown::blockquote(Markdown::paragraph(two())))
        .then(Markdown::table(vec![two()], vec![vec![two()]]));
    assert_eq!(
        md.to_markdown(),
        "## a b\n\n- a\\\n  b\n\n1. x\n2. x\n3. x\n4. x\n5. x\n6. x\n7. x\n8. x\n9. x\n10. a\\\n    b\n\n> a\\\n> b\n\n| a b |\n| - |\n| a b |"
    );
}

/// Asserts the Markdown of `Inline::autolink(url)` for each
/// `(url, markdown)`.
fn assert_autolinks(cases: &[(&str, &str)]) {
    for (url, markdown) in cases {
        assert_eq!(Inline::autolink(url).to_markdown(), *markdown, "{url:?}");
    }
}

#[test]
fn autolinks_absolute_urls() {
    assert_autolinks(&[
        (
            "https://example.com/a_b*c?d=1&e=2",
            "<https://example.com/a_b*c?d=1&e=2>",
        ),
        ("  HTTP://example.com\n", "<HTTP://example.com>"),
    ]);
    assert_eq!(
        Inline::text("see ")
            .then(Inline::autolink("https://x.test"))
            .to_markdown(),
        "see <https://x.test>"
    );
}

#[test]
fn autolinks_mailto_in_the_email_form_when_the_address_is_plain() {
    assert_autolinks(&[
        (
            "mailto:ledger.team+eu@mail.example.com",
            "<ledger.team+eu@mail.example.com>",
        ),
        (
            "mailto:a@b.example?subject=Hi",
            "<mailto:a@b.example?subject=Hi>",
        ),
        ("mailto:!--a@b.example", "<mailto:!--a@b.example>"),
        ("mailto:a@-b.example", "<mailto:a@-b.example>"),
    ]);
}

#[test]
fn a_refused_autolink_is_escaped_text() {
    assert_autolinks(&[
        ("javascript:alert(1)", "javascript:alert(1)"),
        ("JaVaScRiPt&colon;alert(1)", "JaVaScRiPt\\&colon;alert(1)"),
        ("/docs/a_b", "/docs/a\\_b"),
        ("ftp://x.test", "ftp://x.test"),
    ]);
}

#[test]
fn a_url_an_autolink_cannot_hold_is_escaped_text() {
    assert_autolinks(&[
        ("https://x.test/a>b", "https://x.test/a\\>b"),
        ("https://x.test/a b_c", "https://x.test/a b\\_c"),
        ("https://x.test/a\nb", "https://x.test/a b"),
        ("https://x.test/a\u{7f}b", "https://x.test/a\u{7f}b"),
        ("https://x.test/a|b", "https://x.test/a\\|b"),
        ("# https://x.test/a b", "\\# https://x.test/a b"),
    ]);
}

#[test]
fn hard_breaks_and_autolinks_on_the_other_serializations() {
    let md = Inline::text("a<b")
        .then(Inline::hard_break())
        .then(Inline::autolink("https://x.test/?a=1&b=2"))
        .then(" ")
        .then(Inline::autolink("mailto:t@x.test"));
    assert_eq!(
        md.to_mrkdwn(),
        "a&lt;b\n<https://x.test/?a=1&amp;b=2> <mailto:t@x.test|t@x.test>"
    );
    assert_eq!(
        md.to_html(),
        "a&lt;b<br><a href=\"https://x.test/?a=1&amp;b=2\">https://x.test/?a=1&amp;b=2</a> <a href=\"mailto:t@x.test\">t@x.test</a>"
    );
    assert_eq!(md.to_plain(), "a<b https://x.test/?a=1&b=2 t@x.test");
    assert_eq!(Inline::autolink("javascript:x").to_mrkdwn(), "javascript:x");
}

#[test]
fn slack_fallback_converts_hard_breaks_and_autolinks() {
    let md = Markdown::heading(1, Inline::lines(["Two", "lines"]))
        .then(Markdown::paragraph(
            Inline::lines(["**USER**", "Where <is> it?"])
                .then(Inline::hard_break())
                .then(Inline::autolink("https://x.test/a")),
        ))
        .then(Markdown::blockquote(Markdown::paragraph(Inline::lines([
            "one", "two",
        ]))))
        .then(Markdown::paragraph(Inline::autolink("javascript:x")));
    assert_eq!(
        crate::surface::slack::markdown_to_blocks(&md),
        vec![
            serde_json::json!({
                "type": "header",
                "text": { "type": "plain_text", "text": "Two lines", "emoji": true }
            }),
            serde_json::json!({
                "type": "section",
                "text": { "type": "mrkdwn", "text": "**USER**\nWhere &lt;is&gt; it?\n<https://x.test/a>" }
            }),
            serde_json::json!({
                "type": "section",
                "text": { "type": "mrkdwn", "text": "> one\n> two" }
            }),
            serde_json::json!({
                "type": "section",
                "text": { "type": "mrkdwn", "text": "javascript:x" }
            }),
        ]
    );
}

#[test]
fn empty_content_is_no_block() {
    assert!(Markdown::paragraph("").is_empty());
    assert!(Markdown::bullet_list(Vec::<Inline>::new()).is_empty());
    assert_eq!(
        Markdown::paragraph("a").then(Markdown::new()).to_markdown(),
        "a"
    );
}
