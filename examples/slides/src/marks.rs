//! Inline marks in authored text.
//!
//! Fields whose description says "accepts inline marks" may hold two marks:
//! a backtick pair around text without a newline or another backtick
//! (**code**), and a double-asterisk pair around text without a newline or
//! an asterisk (**strong**, matched non-greedily). A marker without its pair
//! stays literal text. Every surface reads marks through [`parse_marks`] so
//! they agree on what counts as a mark.

use std::borrow::Cow;

/// One run of authored text after the marks are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark<'a> {
    /// Text outside any mark, as authored.
    Plain(&'a str),
    /// The inside of a backtick pair (`` `x` `` gives `x`).
    Code(&'a str),
    /// The inside of a double-asterisk pair (`**x**` gives `x`).
    Strong(&'a str),
}

/// Splits `text` into plain, code and strong runs, left to right.
///
/// At each position a code span is tried first, then a strong span; plain
/// runs are merged, so two `Plain` runs never follow each other. An empty
/// pair (` `` ` or `****`) is not a mark.
pub fn parse_marks(text: &str) -> Vec<Mark<'_>> {
    let bytes = text.as_bytes();
    let mut runs = Vec::new();
    let mut plain_start = 0;
    let mut at = 0;
    // A mark can only open at a marker byte; both markers are ASCII, so
    // every byte found is a char boundary for the slices below.
    while let Some(offset) = memchr::memchr2(b'`', b'*', &bytes[at..]) {
        at += offset;
        if let Some((inner, end)) = code_span_at(text, at) {
            push_plain(&mut runs, &text[plain_start..at]);
            runs.push(Mark::Code(inner));
            at = end;
            plain_start = end;
        } else if let Some((inner, end)) = strong_span_at(text, at) {
            push_plain(&mut runs, &text[plain_start..at]);
            runs.push(Mark::Strong(inner));
            at = end;
            plain_start = end;
        } else {
            at += 1;
        }
    }
    push_plain(&mut runs, &text[plain_start..]);
    runs
}

/// The text with every mark's markers removed (`**fast** \`io\`` gives
/// `fast io`); line breaks are kept. Text that reads as one run (no mark,
/// or one mark around all of it) is lent, not copied, and so is empty text.
pub fn strip_marks(text: &str) -> Cow<'_, str> {
    let runs = parse_marks(text);
    match runs[..] {
        [] => return Cow::Borrowed(text),
        [Mark::Plain(s) | Mark::Code(s) | Mark::Strong(s)] => return Cow::Borrowed(s),
        _ => {}
    }
    // The result is never longer than the text: one allocation.
    let mut out = String::with_capacity(text.len());
    for run in runs {
        let (Mark::Plain(s) | Mark::Code(s) | Mark::Strong(s)) = run;
        out.push_str(s);
    }
    Cow::Owned(out)
}

fn push_plain<'a>(runs: &mut Vec<Mark<'a>>, text: &'a str) {
    if !text.is_empty() {
        runs.push(Mark::Plain(text));
    }
}

/// A code span opening at byte `at`: `` ` `` then at least one byte that is
/// neither a backtick nor a newline, then `` ` ``.
fn code_span_at(text: &str, at: usize) -> Option<(&str, usize)> {
    span_at(text, at, "`", b'`')
}

/// A strong span opening at byte `at`: `**`, at least one byte that is
/// neither `*` nor a newline, then `**`.
fn strong_span_at(text: &str, at: usize) -> Option<(&str, usize)> {
    span_at(text, at, "**", b'*')
}

/// A span opening at byte `at` with `marker`: the marker, at least one byte
/// that is neither the ASCII byte `stop` nor a line break, then the marker
/// again. Answers the inside and the byte after the closing marker.
fn span_at<'a>(text: &'a str, at: usize, marker: &str, stop: u8) -> Option<(&'a str, usize)> {
    let rest = text[at..].strip_prefix(marker)?;
    // `stop` and the line breaks are ASCII, so the byte found is a char
    // boundary.
    let close = memchr::memchr3(stop, b'\n', b'\r', rest.as_bytes())?;
    if close == 0 || !rest[close..].starts_with(marker) {
        return None;
    }
    Some((&rest[..close], at + marker.len() + close + marker.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_code_and_strong_runs_in_order() {
        assert_eq!(
            parse_marks("a **bold** and `code` end"),
            vec![
                Mark::Plain("a "),
                Mark::Strong("bold"),
                Mark::Plain(" and "),
                Mark::Code("code"),
                Mark::Plain(" end"),
            ]
        );
    }

    #[test]
    fn keeps_unpaired_and_empty_markers_literal() {
        assert_eq!(parse_marks("a ** b"), vec![Mark::Plain("a ** b")]);
        assert_eq!(parse_marks("``"), vec![Mark::Plain("``")]);
        assert_eq!(parse_marks("****"), vec![Mark::Plain("****")]);
        assert_eq!(parse_marks("`a\nb`"), vec![Mark::Plain("`a\nb`")]);
        assert_eq!(parse_marks("**a*b**"), vec![Mark::Plain("**a*b**")]);
    }

    #[test]
    fn code_wins_over_strong_inside_it() {
        assert_eq!(parse_marks("`**x**`"), vec![Mark::Code("**x**")]);
    }

    #[test]
    fn steps_over_multi_byte_characters() {
        assert_eq!(
            parse_marks("× “a” **é** `ü`"),
            vec![
                Mark::Plain("× “a” "),
                Mark::Strong("é"),
                Mark::Plain(" "),
                Mark::Code("ü")
            ]
        );
    }

    #[test]
    fn strips_markers() {
        assert_eq!(strip_marks("**fast** `io` *x"), "fast io *x");
        // One run is lent: plain text, or one mark around all of it.
        for (text, stripped) in [
            ("plain *x", "plain *x"),
            ("`io`", "io"),
            ("**a b**", "a b"),
            ("", ""),
        ] {
            assert!(
                matches!(strip_marks(text), Cow::Borrowed(s) if s == stripped),
                "{text:?}"
            );
        }
        assert!(matches!(strip_marks("a `b`"), Cow::Owned(s) if s == "a b"));
    }
}
