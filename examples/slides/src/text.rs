//! String-surface conventions shared by every slide primitive: one-line
//! text, plain text with marks removed, caption upper-casing, separators and
//! block joining.

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
/// `oneLine`).
pub fn line(text: &str) -> String {
    one_line(text)
}

/// Upstream `plainText`: the text with its inline marks removed, on one line.
pub fn plain_text(text: &str) -> String {
    one_line(&strip_marks(text))
}

/// A small caption as string surfaces print it: plain text, upper-cased
/// (full Unicode mapping, as JavaScript's `toUpperCase`).
pub fn caption(text: &str) -> String {
    plain_text(text).to_uppercase()
}

/// Joins the non-empty blocks with a blank line, as string surfaces join
/// sibling blocks.
pub fn join_blocks<I, S>(blocks: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    join_non_empty(blocks, "\n\n")
}

/// Joins the non-empty lines with one newline.
pub fn join_lines<I, S>(lines: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    join_non_empty(lines, "\n")
}

fn join_non_empty<I, S>(parts: I, separator: &str) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    // The parts are gathered first so that the result is allocated once,
    // at its length, rather than grown part by part.
    let parts: Vec<S> = parts.into_iter().collect();
    let mut length = 0;
    for part in &parts {
        let part = part.as_ref();
        if part.is_empty() {
            continue;
        }
        if length > 0 {
            length += separator.len();
        }
        length += part.len();
    }
    let mut out = String::with_capacity(length);
    for part in &parts {
        let part = part.as_ref();
        if part.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str(separator);
        }
        out.push_str(part);
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
