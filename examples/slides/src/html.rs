//! The helpers of the pack's own markup on the `html` surface. Each
//! primitive writes its markup after upstream's React structure (a frame
//! with its tone and footer, type-led slides at their scale, panes and
//! columns side by side, numbers at display size, bars, matrix marks,
//! tables, code panels, transcripts, windows, renders of another slide,
//! and every list with one marker per item, [`crate::list::List::html`]).
//! Their elements carry `slide-*` classes that the frame's stylesheet
//! ([`crate::frame::SLIDE_CSS`]) and each primitive's own rules
//! ([`crate::primitives::SlideNode::CSS`]) style, so a picture of a slide
//! shows its figure.
//!
//! Size steps (`size` "l", "m", "s") become a `slide-size-l|m|s` class. An
//! unset size is the largest step whose estimated line count fits
//! ([`fitted_size`]), the way upstream picks one without measuring.

use isomer_sdk::Html;

use crate::authored::{Size, Tone};
use crate::marks::{Mark, parse_marks};
use crate::text::{caption, line};

/// Authored text that accepts inline marks, as inline HTML on one line: a
/// code mark becomes `<code>`, a strong mark `<strong>`, everything else
/// escaped text (a whitespace run holding a line break becomes one space).
pub fn marks_html(text: &str) -> Html {
    let text = line(text);
    Html::concat(parse_marks(&text).into_iter().map(|run| match run {
        Mark::Plain(s) => Html::text(s),
        Mark::Code(s) => Html::element("code", &[], Html::text(s)),
        Mark::Strong(s) => Html::element("strong", &[], Html::text(s)),
    }))
}

/// One-line authored text without marks, escaped.
pub fn line_html(text: &str) -> Html {
    Html::text(&line(text))
}

/// `<tag class="class">children</tag>`.
pub fn classed(tag: &str, class: &str, children: Html) -> Html {
    Html::element(tag, &[("class", class)], children)
}

/// A caption over a group of nodes: `<p class="slide-caption">` with the
/// text upper-cased, and `data-tone="primary|accent"` when toned (the
/// stylesheet colours the caption by its tone, so the picture needs no
/// `●`/`○` glyph).
pub fn toned_caption(text: &str, tone: Option<Tone>) -> Html {
    let text = Html::text(&caption(text));
    match tone_name(tone) {
        Some(tone) => Html::element(
            "p",
            &[("class", "slide-caption"), ("data-tone", tone)],
            text,
        ),
        None => classed("p", "slide-caption", text),
    }
}

/// The `data-tone` value of a tone: `primary`, `accent`, or `None`.
pub fn tone_name(tone: Option<Tone>) -> Option<&'static str> {
    tone.map(|tone| match tone {
        Tone::Primary => "primary",
        Tone::Accent => "accent",
    })
}

/// The class of a size step: `slide-size-l`, `slide-size-m` or
/// `slide-size-s`.
pub fn size_class(size: Size) -> &'static str {
    match size {
        Size::L => "slide-size-l",
        Size::M => "slide-size-m",
        Size::S => "slide-size-s",
    }
}

/// The width of `text` set in Inter ExtraBold, in em: narrow letters 0.3,
/// punctuation 0.36, capitals and digits 0.7, wide letters (`m`, `w`, `M`,
/// `W`) 0.9, `%` 1.03, anything else 0.58 (upstream's fitting table).
pub fn display_width_em(text: &str) -> f32 {
    text.chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | 'I' | 'f' | 't' | 'r' | ' ' | '|' | '!' => 0.3,
            '.' | ',' | ':' | ';' | '\'' | '"' | '-' | '(' | ')' | '“' | '”' | '’' => 0.36,
            'm' | 'w' | 'M' | 'W' => 0.9,
            '%' => 1.03,
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => 0.7,
            _ => 0.58,
        })
        .sum()
}

/// The size step to draw `text` at: `size` when the author set one, else
/// the largest of `steps` (font sizes in px for l, m and s) at which the
/// text, wrapped into lines of `width` px, takes at most `max_lines` lines;
/// `s` when none does. The estimate adds 10 % to the glyph widths for word
/// wrapping.
pub fn fitted_size(
    size: Option<Size>,
    text: &str,
    steps: [f32; 3],
    width: f32,
    max_lines: f32,
) -> Size {
    if let Some(size) = size {
        return size;
    }
    let em = display_width_em(&crate::text::plain_text(text)) * 1.1;
    [Size::L, Size::M, Size::S]
        .into_iter()
        .zip(steps)
        .find(|&(_, px)| (em * px / width).ceil() <= max_lines)
        .map_or(Size::S, |(size, _)| size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_become_code_and_strong_and_the_rest_is_escaped() {
        assert_eq!(
            marks_html("Ship **<b>fast</b>** with `a && b`\nnow").as_str(),
            "Ship <strong>&lt;b&gt;fast&lt;/b&gt;</strong> with <code>a &amp;&amp; b</code> now"
        );
    }

    #[test]
    fn an_unset_size_is_the_largest_step_that_fits() {
        let steps = [240.0, 176.0, 128.0];
        assert_eq!(fitted_size(None, "Ledger", steps, 1664.0, 1.0), Size::L);
        // 20 characters of about 0.6 em: two lines at 240 px, one at 128 px.
        assert_eq!(
            fitted_size(None, "Settlement platform", steps, 1664.0, 1.0),
            Size::S
        );
        assert_eq!(
            fitted_size(Some(Size::M), "Ledger", steps, 1664.0, 1.0),
            Size::M
        );
        assert_eq!(
            fitted_size(None, &"word ".repeat(400), steps, 1664.0, 2.0),
            Size::S
        );
    }
}
