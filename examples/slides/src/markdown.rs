//! The pack's inline marks on the Markdown surface: a code mark becomes a
//! code span and a strong mark `**…**`; everything else is authored text
//! that the sdk's [`Inline`] builder escapes (`` \ ` * _ [ ] < > & | `` and
//! block openers).

use isomer_sdk::surface::{Inline, Markdown};

use crate::marks::{Mark, parse_marks};
use crate::text::{caption, line};

/// Authored text that accepts inline marks, as Markdown inline content, on
/// one line (a whitespace run holding a line break becomes one space).
pub fn marks_inline(text: &str) -> Inline {
    let text = line(text);
    let mut out = Inline::default();
    for run in parse_marks(&text) {
        out = out.then(match run {
            Mark::Plain(s) => Inline::text(s),
            Mark::Code(s) => Inline::code(s),
            Mark::Strong(s) => Inline::strong(s),
        });
    }
    out
}

/// A free-standing caption: a `**LABEL**` paragraph, upper-cased;
/// nothing for `None`.
pub fn caption_paragraph(label: Option<&str>) -> Markdown {
    label.map_or_else(Markdown::new, |label| {
        Markdown::paragraph(Inline::strong(caption(label)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_marks_and_escapes_the_rest() {
        assert_eq!(
            marks_inline("**Fast** _path_ via `a_b`").to_markdown(),
            "**Fast** \\_path\\_ via `a_b`"
        );
        assert_eq!(marks_inline("1. `x`").to_markdown(), "1\\. `x`");
        assert_eq!(marks_inline("a`b").to_markdown(), "a\\`b");
    }
}
