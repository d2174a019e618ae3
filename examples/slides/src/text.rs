//! String-surface conventions shared by every slide primitive: one-line
//! text, plain text with marks removed, caption upper-casing, separators and
//! block joining.

use std::borrow::Cow;

use isomer_sdk::js_parity::one_line;

use crate::marks::strip_marks;

/// The middle-dot separator between parts of one line (` · `).
pub const SEPARATOR: &str = " · ";

/// The arrow between steps of a flow (` → `).
pub const ARROW: &str = " → ";

/// The em dash between a title and its detail (` — `).
pub const DASH: &str = " — ";

/// One-line authored text for the text surface: a run of whitespace holding
/// a line terminator becomes one space (the sdk's `one_line`, upstream
/// `oneLine`). Text already on one line is lent back.
pub fn line(text: &str) -> Cow<'_, str> {
    one_line(text)
}

/// Upstream `plainText`: the text with its inline marks removed, on one line.
/// Text with neither marks nor line terminators is lent back.
pub fn plain_text(text: &str) -> Cow<'_, str> {
    match strip_marks(text) {
        Cow::Borrowed(plain) => one_line(plain),
        Cow::Owned(plain) => match one_line(&plain) {
            Cow::Borrowed(_) => Cow::Owned(plain),
            Cow::Owned(joined) => Cow::Owned(joined),
        },
    }
}

/// A small caption as string surfaces print it: plain text, upper-cased
/// (full Unicode mapping, as JavaScript's `toUpperCase`).
pub fn caption(text: &str) -> String {
    plain_text(text).to_uppercase()
}

/// Joins the non-empty blocks with a blank line, as string surfaces join
/// sibling blocks.
pub fn join_blocks<'a, I, S>(blocks: I) -> String
where
    I: IntoIterator<Item = S>,
    S: Into<Cow<'a, str>>,
{
    join_non_empty(blocks, "\n\n")
}

/// Joins the non-empty lines with one newline.
pub fn join_lines<'a, I, S>(lines: I) -> String
where
    I: IntoIterator<Item = S>,
    S: Into<Cow<'a, str>>,
{
    join_non_empty(lines, "\n")
}

fn join_non_empty<'a, I, S>(parts: I, separator: &str) -> String
where
    I: IntoIterator<Item = S>,
    S: Into<Cow<'a, str>>,
{
    // The first non-empty part becomes the result (an owned one is not
    // copied), and the others are appended to it.
    let mut out = String::new();
    for part in parts {
        let part = part.into();
        if part.is_empty() {
            continue;
        }
        if out.is_empty() {
            out = part.into_owned();
        } else {
            out.push_str(separator);
            out.push_str(&part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_one_line_without_marks() {
        assert_eq!(plain_text("**fast**\n`io`"), "fast io");
    }

    #[test]
    fn caption_strips_marks_and_upper_cases() {
        assert_eq!(caption("**Straße** `io`"), "STRASSE IO");
    }

    #[test]
    fn joins_skip_empty_parts() {
        assert_eq!(join_blocks(["a", "", "b"]), "a\n\nb");
        assert_eq!(join_lines(["", "a", "b"]), "a\nb");
    }
}
