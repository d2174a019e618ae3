//! Code blocks on every string surface, shared by `slideCode`,
//! `slideDiff`, `slideCommand` and `slideTranscript`'s code turns: an
//! optional caption line, then the code as written.
//!
//! | surface | caption `settle.ts`, code `a\nb` |
//! |---|---|
//! | text | `settle.ts\na\nb` |
//! | Markdown | `**settle.ts**`, then a fence named by the language |
//! | Slack | one `section`: `settle.ts\n` + ```` ``` ```` + `\na\nb\n` + ```` ``` ```` |
//!
//! On the `html` surface a panel is a `<figure>`: the caption as its
//! `<figcaption>`, then a `<pre>` with one `<code>` element per line
//! ([`code_panel_html`]), so a line can carry a highlight band or a diff
//! tint; `slideCode.css` draws the panel.
//!
//! On Slack the code sits on its own lines between the fences, as upstream
//! prints it, and is left raw: nothing is escaped (`=>` stays `=>`) and
//! only a run of three backticks is broken, as upstream's `codeBlock` does.

use isomer_sdk::surface::slack::section;
use isomer_sdk::surface::{Html, Inline, Markdown};
use serde_json::Value;

use crate::text::join_lines;

/// Text: the caption line (when given), then the code.
pub fn code_text(caption: Option<&str>, code: &str) -> String {
    join_lines([caption.unwrap_or_default(), code])
}

/// Markdown: a `**caption**` paragraph (when given), then the code in a
/// fence named by `language` (`""` for none), longer than any backtick run
/// inside.
pub fn code_markdown(caption: Option<&str>, language: &str, code: &str) -> Markdown {
    caption
        .map_or_else(Markdown::new, |c| Markdown::paragraph(Inline::strong(c)))
        .then(Markdown::code_block(language, code))
}

/// How one line of a code panel is drawn on the `html` surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineLook {
    /// As written.
    Plain,
    /// On a primary-tint band with a 4 px primary bar at its left
    /// (`slideCode`'s `highlightLines`).
    Highlight,
    /// An added diff line: the highlight's band and bar, a primary `+`.
    Added,
    /// A removed diff line: on the muted fill, in the soft text colour,
    /// after a `-`.
    Removed,
    /// An unchanged diff line, after a blank sign column.
    Context,
}

impl LineLook {
    /// The line's classes and, for a diff line, its sign.
    fn parts(self) -> (&'static str, Option<&'static str>) {
        match self {
            LineLook::Plain => ("slide-code-line", None),
            LineLook::Highlight => ("slide-code-line slide-code-highlight", None),
            LineLook::Added => ("slide-code-line slide-diff-add", Some("+")),
            LineLook::Removed => ("slide-code-line slide-diff-remove", Some("-")),
            LineLook::Context => ("slide-code-line slide-diff-context", Some(" ")),
        }
    }
}

/// The most lines a panel draws at 26 px; past it the panel is dense
/// (24 px), as upstream's `codeDenseAfter`.
pub const CODE_DENSE_AFTER: usize = 10;

/// One code panel on the `html` surface: `<figure class="slide-code-figure">`
/// holding the caption as `<figcaption class="slide-code-file">` (when
/// given), then `<pre class="slide-code-panel">` (with `slide-code-dense`
/// when `dense`) with one `<code>` per line, apart by a newline that is the
/// code's own. A highlighted line's text sits in a `slide-code-mark` span;
/// a diff line opens with its sign in a `slide-diff-sign` span.
pub fn code_panel_html<'a>(
    caption: Option<&str>,
    lines: impl IntoIterator<Item = (&'a str, LineLook)>,
    dense: bool,
) -> Html {
    let mut pre = Html::new();
    for (index, (text, look)) in lines.into_iter().enumerate() {
        if index > 0 {
            pre.push(Html::text("\n"));
        }
        let (class, sign) = look.parts();
        let mut line = Html::new();
        if let Some(sign) = sign {
            line.push(Html::element(
                "span",
                &[("class", "slide-diff-sign")],
                Html::text(sign),
            ));
        }
        if look == LineLook::Highlight {
            line.push(Html::element(
                "span",
                &[("class", "slide-code-mark")],
                Html::text(text),
            ));
        } else {
            line.push(Html::text(text));
        }
        pre.push(Html::element("code", &[("class", class)], line));
    }
    let panel = if dense {
        "slide-code-panel slide-code-dense"
    } else {
        "slide-code-panel"
    };
    let mut figure = Html::new();
    if let Some(caption) = caption {
        figure.push(Html::element(
            "figcaption",
            &[("class", "slide-code-file")],
            Html::text(&crate::text::line(caption)),
        ));
    }
    figure.push(Html::element("pre", &[("class", panel)], pre));
    Html::element("figure", &[("class", "slide-code-figure")], figure)
}

/// What a run of three backticks inside Slack code becomes: two
/// backticks, a zero-width joiner (U+200D), then the third, which cannot
/// close the block.
pub const SLACK_FENCE_BREAK: &str = "``\u{200d}`";

/// Slack: one `section` holding the caption line (already `mrkdwn`, e.g.
/// `*LABEL*`; none for `None`) and the code between ```` ``` ```` fences,
/// each on its own line. The code is left raw (Slack prints a code block
/// as written, so `&`, `<` and `>` are not escaped); Slack has no longer
/// fences, so each run of three backticks, left to right, becomes
/// [`SLACK_FENCE_BREAK`] and cannot close the block. A single or double
/// backtick stays as written.
pub fn code_slack(caption_mrkdwn: Option<&str>, code: &str) -> Value {
    let code = code.replace("```", SLACK_FENCE_BREAK);
    let block = format!("```\n{code}\n```");
    section(&match caption_mrkdwn {
        Some(caption) => format!("{caption}\n{block}"),
        None => block,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn code_sits_on_its_own_lines_on_slack_raw() {
        assert_eq!(
            code_slack(Some("a.ts"), "x = `y`;\nz < 1 && f => g"),
            json!({ "type": "section", "text": { "type": "mrkdwn", "text": "a.ts\n```\nx = `y`;\nz < 1 && f => g\n```" } })
        );
        assert_eq!(code_slack(None, "ls")["text"]["text"], "```\nls\n```");
    }

    #[test]
    fn only_runs_of_three_backticks_are_broken_left_to_right() {
        // Four backticks: the first three are broken, the fourth stays.
        assert_eq!(
            code_slack(None, "`` ``` ````")["text"]["text"],
            "```\n`` ``\u{200d}` ``\u{200d}``\n```"
        );
    }

    #[test]
    fn a_panel_is_a_figure_with_one_code_element_per_line() {
        let html = code_panel_html(
            Some("a.ts"),
            [("a < b", LineLook::Plain), ("c", LineLook::Highlight)],
            false,
        );
        assert_eq!(
            html.as_str(),
            "<figure class=\"slide-code-figure\"><figcaption class=\"slide-code-file\">a.ts</figcaption>\
<pre class=\"slide-code-panel\"><code class=\"slide-code-line\">a &lt; b</code>\n\
<code class=\"slide-code-line slide-code-highlight\"><span class=\"slide-code-mark\">c</span></code></pre></figure>"
        );
        let diff = code_panel_html(
            None,
            [("x", LineLook::Added), ("y", LineLook::Removed)],
            true,
        );
        assert_eq!(
            diff.as_str(),
            "<figure class=\"slide-code-figure\"><pre class=\"slide-code-panel slide-code-dense\">\
<code class=\"slide-code-line slide-diff-add\"><span class=\"slide-diff-sign\">+</span>x</code>\n\
<code class=\"slide-code-line slide-diff-remove\"><span class=\"slide-diff-sign\">-</span>y</code></pre></figure>"
        );
    }

    #[test]
    fn caption_then_code_on_text_and_markdown() {
        assert_eq!(code_text(Some("a.ts"), "a\nb"), "a.ts\na\nb");
        assert_eq!(code_text(None, "a"), "a");
        assert_eq!(
            code_markdown(Some("a_b.ts"), "ts", "x").to_markdown(),
            "**a\\_b.ts**\n\n```ts\nx\n```"
        );
    }
}
