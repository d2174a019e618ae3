//! The escaping HTML builder `html` renderers return.
//!
//! [`Html`] is trusted markup built only from escaped text and checked
//! elements: tag names come from an allow-list, attribute names are plain
//! and never event handlers, every value is escaped, `href` goes through
//! [`sanitize_navigation_href`] (unsafe → `#`) and `src` through
//! [`sanitize_asset_url`] (unsafe → attribute dropped).
//!
//! ```
//! use isomer_sdk::Html;
//!
//! let html = Html::element("p", &[("class", "note")], Html::text("1 < 2 & \"so\""));
//! assert_eq!(html.as_str(), "<p class=\"note\">1 &lt; 2 &amp; &quot;so&quot;</p>");
//! let link = Html::element("a", &[("href", "javascript:alert(1)")], Html::text("x"));
//! assert_eq!(link.as_str(), "<a href=\"#\">x</a>");
//! ```

use serde_json::Value;

use crate::surface::markdown::escape_html;
use crate::surface::options::RenderOptions;
use crate::url::{sanitize_asset_url, sanitize_navigation_href};

/// The tags [`Html::element`] accepts; anything else renders as a `span`.
const ALLOWED_TAGS: [&str; 39] = [
    "a",
    "abbr",
    "article",
    "b",
    "blockquote",
    "br",
    "caption",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "li",
    "ol",
    "p",
    "pre",
    "section",
    "small",
    "span",
    "strong",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
];

/// URL-bearing attributes [`Html::element`] never writes (it cannot vouch
/// for them): `srcset`, `action`, `formaction`, `background`, `poster`,
/// `longdesc`, `data`, `manifest`.
const DROPPED_ATTRIBUTES: [&str; 8] = [
    "srcset",
    "action",
    "formaction",
    "background",
    "poster",
    "longdesc",
    "data",
    "manifest",
];

/// Elements without content or closing tag.
const VOID_TAGS: [&str; 3] = ["br", "hr", "img"];

/// Trusted HTML markup. Build it with [`Html::text`], [`Html::element`],
/// [`Html::newline`] and [`Html::concat`]; there is no constructor from a
/// raw string.
///
/// Besides the markup, the builder remembers where it put *formatting*
/// newlines ([`Html::newline`]): whitespace a renderer adds between tags
/// only to make the source readable. [`Html::minified`] drops exactly
/// those; whitespace in text ([`Html::text`]) is content and always kept.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Html {
    /// The markup, formatting newlines included.
    markup: String,
    /// Byte offsets in `markup` of the formatting newlines, ascending.
    breaks: Vec<usize>,
}

impl Html {
    /// No markup.
    pub fn new() -> Html {
        Html::default()
    }

    /// Escaped text (`&`, `<`, `>`, `"`, `'`). Its whitespace, newlines
    /// included, is content: [`Html::minified`] keeps it.
    pub fn text(text: &str) -> Html {
        Html {
            markup: escape_html(text),
            breaks: Vec::new(),
        }
    }

    /// One formatting newline (`"\n"`) between tags, for readable source:
    /// it is in [`Html::as_str`] and dropped by [`Html::minified`] (the
    /// `html` surface's `minify` option). Put it only between block-level
    /// elements, where it renders as nothing; between inline elements use
    /// `Html::text(" ")`, which is content. Inside a `pre` element
    /// ([`Html::element`] with tag `pre`) a formatting newline becomes
    /// content, because whitespace there is significant.
    pub fn newline() -> Html {
        Html {
            markup: "\n".to_owned(),
            breaks: vec![0],
        }
    }

    /// `<tag attrs>children</tag>`. The tag must be one of an allow-list of
    /// content tags (others become `span`); attributes whose name is not
    /// `[a-z0-9-]+`, starts with `on`, is `style` or another URL-bearing
    /// attribute this builder cannot check (`srcset`, `action`, …) are
    /// dropped; values are escaped; `href` and `cite` are sanitized to `#`
    /// when unsafe, `src` dropped when unsafe.
    /// Void tags (`br`, `hr`, `img`) ignore `children`. The children of a
    /// `pre` element keep every newline under [`Html::minified`]: their
    /// formatting newlines ([`Html::newline`]) become content.
    pub fn element(tag: &str, attributes: &[(&str, &str)], children: Html) -> Html {
        let tag = if ALLOWED_TAGS.contains(&tag) {
            tag
        } else {
            "span"
        };
        let mut out = format!("<{tag}");
        for (name, value) in attributes {
            let plain = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if !plain || name.starts_with("on") || *name == "style" {
                continue;
            }
            if DROPPED_ATTRIBUTES.contains(name) {
                continue;
            }
            let value = match *name {
                "href" | "cite" => {
                    sanitize_navigation_href(value).unwrap_or_else(|| "#".to_owned())
                }
                "src" => match sanitize_asset_url(value) {
                    Some(url) => url,
                    None => continue,
                },
                _ => (*value).to_owned(),
            };
            out.push_str(&format!(" {name}=\"{}\"", escape_html(&value)));
        }
        out.push('>');
        let mut breaks = Vec::new();
        if !VOID_TAGS.contains(&tag) {
            if tag != "pre" {
                breaks.extend(children.breaks.iter().map(|offset| offset + out.len()));
            }
            out.push_str(&children.markup);
            out.push_str(&format!("</{tag}>"));
        }
        Html {
            markup: out,
            breaks,
        }
    }

    /// The parts one after another.
    pub fn concat<I: IntoIterator<Item = Html>>(parts: I) -> Html {
        let mut out = Html::new();
        for part in parts {
            out.push(part);
        }
        out
    }

    /// Appends `next`.
    pub fn push(&mut self, next: Html) {
        let shift = self.markup.len();
        self.breaks
            .extend(next.breaks.iter().map(|offset| offset + shift));
        self.markup.push_str(&next.markup);
    }

    /// The same markup without its formatting newlines ([`Html::newline`]):
    /// what the `html` surface's `minify` option emits. Text content and
    /// everything inside `pre` are unchanged.
    ///
    /// ```
    /// use isomer_sdk::Html;
    ///
    /// let code = Html::element("pre", &[], Html::text("a\nb"));
    /// let html = Html::element("div", &[], Html::newline().then(code).then(Html::newline()));
    /// assert_eq!(html.as_str(), "<div>\n<pre>a\nb</pre>\n</div>");
    /// assert_eq!(html.minified().as_str(), "<div><pre>a\nb</pre></div>");
    /// ```
    pub fn minified(&self) -> Html {
        let mut markup = String::with_capacity(self.markup.len() - self.breaks.len());
        let mut from = 0;
        for &offset in &self.breaks {
            markup.push_str(&self.markup[from..offset]);
            from = offset + 1;
        }
        markup.push_str(&self.markup[from..]);
        Html {
            markup,
            breaks: Vec::new(),
        }
    }

    /// This markup followed by `next`.
    pub fn then(mut self, next: Html) -> Html {
        self.push(next);
        self
    }

    /// True when there is no markup.
    pub fn is_empty(&self) -> bool {
        self.markup.is_empty()
    }

    /// The markup, formatting newlines included.
    pub fn as_str(&self) -> &str {
        &self.markup
    }
}

impl std::fmt::Display for Html {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.markup)
    }
}

/// The Markdown of a node without `html` renderer, as HTML: paragraphs,
/// headings, lists, code blocks, blockquotes, tables and rules map to their
/// elements; every string is escaped.
pub(crate) fn markdown_to_html(markdown: &crate::surface::Markdown) -> Html {
    use crate::surface::markdown::Block;
    let mut out = String::new();
    for block in &markdown.blocks {
        match block {
            Block::Paragraph(content) => {
                out.push_str(&format!("<p>{}</p>", content.to_html()));
            }
            Block::Heading(level, content) => {
                out.push_str(&format!("<h{level}>{}</h{level}>", content.to_html()));
            }
            Block::Bullets(items) | Block::Ordered(items) => {
                let tag = if matches!(block, Block::Bullets(_)) {
                    "ul"
                } else {
                    "ol"
                };
                out.push_str(&format!("<{tag}>"));
                for item in items {
                    out.push_str(&format!("<li>{}</li>", item.to_html()));
                }
                out.push_str(&format!("</{tag}>"));
            }
            Block::Code { code, .. } => {
                out.push_str(&format!("<pre><code>{}</code></pre>", escape_html(code)));
            }
            Block::Quote(inner) => {
                out.push_str(&format!(
                    "<blockquote>{}</blockquote>",
                    markdown_to_html(inner).markup
                ));
            }
            Block::Table { head, rows } => {
                out.push_str("<table><thead><tr>");
                for cell in head {
                    out.push_str(&format!("<th>{}</th>", cell.to_html()));
                }
                out.push_str("</tr></thead><tbody>");
                for row in rows {
                    out.push_str("<tr>");
                    for cell in row {
                        out.push_str(&format!("<td>{}</td>", cell.to_html()));
                    }
                    out.push_str("</tr>");
                }
                out.push_str("</tbody></table>");
            }
            Block::Rule => out.push_str("<hr>"),
        }
    }
    Html {
        markup: out,
        breaks: Vec::new(),
    }
}

/// The stylesheet of the `html` surface: minimal, scoped to `.isomer`. It
/// holds no optional whitespace (the one space is the descendant
/// combinator of `.isomer .sub`), so `minify` leaves it unchanged.
pub const HTML_CSS: &str = ".isomer{font-family:system-ui,sans-serif;line-height:1.4}\
.isomer .sub{opacity:.75}\
.isomer[data-theme=dark]{background:#111;color:#eee}";

/// The rule the `framed` option ([`RenderOptions::framed`]) appends to
/// [`HTML_CSS`]: a 1px solid border in mid-grey at 40% opacity (readable
/// on the light and the dark theme), 8px rounded corners and 1rem padding
/// on `section.isomer.framed`.
pub const HTML_FRAMED_CSS: &str =
    ".isomer.framed{border:1px solid rgba(128,128,128,.4);border-radius:8px;padding:1rem}";

/// The rule the `fluid` option ([`RenderOptions::fluid`]) appends to
/// [`HTML_CSS`]: `section.isomer.fluid` spans its container's full width
/// with no maximum (`width:100%;max-width:none`), `box-sizing:border-box`
/// so a frame's border and padding stay inside that width. [`HTML_CSS`]
/// sets no width, so without `fluid` the section is as wide as a block
/// element is unless a host stylesheet caps `.isomer`; this rule's
/// selector (two classes) outranks such a one-class cap.
pub const HTML_FLUID_CSS: &str = ".isomer.fluid{box-sizing:border-box;width:100%;max-width:none}";

/// The stylesheet for the given options: [`HTML_CSS`], then
/// [`HTML_FRAMED_CSS`] when `framed`, then [`HTML_FLUID_CSS`] when `fluid`,
/// with nothing between them.
///
/// ```
/// use isomer_sdk::surface::html::{HTML_CSS, HTML_FLUID_CSS, html_css};
///
/// assert_eq!(html_css(false, false), HTML_CSS);
/// assert_eq!(html_css(false, true), format!("{HTML_CSS}{HTML_FLUID_CSS}"));
/// ```
pub fn html_css(framed: bool, fluid: bool) -> String {
    let mut css = HTML_CSS.to_owned();
    if framed {
        css.push_str(HTML_FRAMED_CSS);
    }
    if fluid {
        css.push_str(HTML_FLUID_CSS);
    }
    css
}

/// What the `html` surface returns.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HtmlRender {
    /// The wrapper, as upstream's `wrapCompositionContent` writes it:
    /// `<section class="isomer framed" role="group" aria-label="…">`, then
    /// `<style>` with [`HtmlRender::css`], then `<div>` holding the heading
    /// and body, then `</section>`. The class list is `isomer`, then
    /// `framed` and `fluid` when those options are on (in that order:
    /// `class="isomer framed fluid"`); `data-theme` follows `aria-label`
    /// only for a `light` or `dark` theme (`auto` sets none, so the page's
    /// scheme applies).
    pub html: String,
    /// The stylesheet alone ([`html_css`] of the options: [`HTML_CSS`] plus
    /// the `framed` and `fluid` rules when on).
    pub css: String,
    /// The findings of validation (the `html` surface collects by default).
    pub validation_errors: Vec<crate::ValidationError>,
}

impl HtmlRender {
    /// [`HtmlRender::html`] without its `<style>` element, for a page that
    /// carries the stylesheet once for many renders (a snapshot page, a
    /// report).
    pub fn html_without_style(&self) -> String {
        self.html
            .replacen(&format!("<style>{}</style>", self.css), "", 1)
    }
}

/// The `html` envelope: `aria-label` is `meta.ariaLabel`, else the title,
/// else `View`; `data-theme` is `options.theme` when given, else the
/// composition's theme, and is left out for `auto` (and when neither is
/// set); the section's classes are `isomer`, then `framed`, then `fluid`
/// as the options ask; inside it the `<style>`, then one `<div>` with,
/// when `heading`, the title as `h2` and the subtitle as `p.sub`, then each
/// body node, without its formatting newlines when `minify` is on. The
/// envelope itself adds no whitespace between tags.
pub(crate) fn render(
    composition: &Value,
    options: &RenderOptions,
    body: Vec<Html>,
    validation_errors: Vec<crate::ValidationError>,
) -> HtmlRender {
    let view = crate::composition::Composition::from_value(composition);
    let title = view.as_ref().and_then(|v| v.title());
    let subtitle = view.as_ref().and_then(|v| v.subtitle());
    let aria = view
        .as_ref()
        .and_then(|v| v.meta())
        .and_then(|meta| meta.aria_label())
        .or(title)
        .unwrap_or("View");
    let theme = options
        .theme
        .or_else(|| view.as_ref().and_then(|v| v.theme()))
        .map_or("auto", |theme| theme.as_str());
    let css = html_css(options.framed, options.fluid);
    let mut class = String::from("isomer");
    if options.framed {
        class.push_str(" framed");
    }
    if options.fluid {
        class.push_str(" fluid");
    }
    let mut out = format!(
        "<section class=\"{class}\" role=\"group\" aria-label=\"{}\"",
        escape_html(aria)
    );
    if theme != "auto" {
        out.push_str(&format!(" data-theme=\"{theme}\""));
    }
    out.push_str(&format!("><style>{css}</style><div>"));
    if options.heading {
        if let Some(title) = title {
            out.push_str(&format!("<h2>{}</h2>", escape_html(title)));
        }
        if let Some(subtitle) = subtitle {
            out.push_str(&format!("<p class=\"sub\">{}</p>", escape_html(subtitle)));
        }
    }
    for part in body {
        if options.minify {
            out.push_str(part.minified().as_str());
        } else {
            out.push_str(part.as_str());
        }
    }
    out.push_str("</div></section>");
    HtmlRender {
        html: out,
        css,
        validation_errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_escape_and_check_attributes() {
        let html = Html::element(
            "img",
            &[
                ("src", "javascript:x"),
                ("alt", "a\"b"),
                ("onerror", "x()"),
                ("srcset", "y"),
                ("Style", "z"),
            ],
            Html::text("ignored"),
        );
        assert_eq!(html.as_str(), "<img alt=\"a&quot;b\">");
        let html = Html::element(
            "script",
            &[("src", "https://x.test/a.png")],
            Html::text("<b>"),
        );
        assert_eq!(
            html.as_str(),
            "<span src=\"https://x.test/a.png\">&lt;b&gt;</span>"
        );
        let quote = Html::element("blockquote", &[("cite", "vbscript:x")], Html::new());
        assert_eq!(quote.as_str(), "<blockquote cite=\"#\"></blockquote>");
    }

    #[test]
    fn formatting_newlines_are_tracked_through_nesting_and_dropped_by_minified() {
        let item = |text: &str| Html::element("li", &[], Html::text(text));
        let list = Html::element(
            "ul",
            &[],
            Html::concat([
                Html::newline(),
                item("a\nb"),
                Html::newline(),
                item("c"),
                Html::newline(),
            ]),
        );
        let mut page = Html::text("x ");
        page.push(list);
        let page = page.then(Html::newline());
        assert_eq!(page.as_str(), "x <ul>\n<li>a\nb</li>\n<li>c</li>\n</ul>\n");
        assert_eq!(
            page.minified().as_str(),
            "x <ul><li>a\nb</li><li>c</li></ul>"
        );
        // Minifying twice changes nothing more.
        assert_eq!(page.minified().minified(), page.minified());
        // Inside pre a formatting newline is content; a void tag drops its
        // children's newlines with the children.
        let pre = Html::element("pre", &[], Html::newline().then(Html::text("y")));
        assert_eq!(pre.minified().as_str(), "<pre>\ny</pre>");
        let hr = Html::element("hr", &[], Html::newline());
        assert_eq!(hr.minified().as_str(), "<hr>");
        assert_eq!(hr.as_str(), "<hr>");
    }

    #[test]
    fn markdown_converts_to_escaped_html() {
        use crate::surface::{Inline, Markdown};
        let md = Markdown::heading(2, "A & B")
            .then(Markdown::bullet_list([
                Inline::code("<x>"),
                Inline::strong("y"),
            ]))
            .then(Markdown::table(vec!["k".into()], vec![vec!["<v>".into()]]))
            .then(Markdown::blockquote(Markdown::paragraph("q")))
            .then(Markdown::code_block("js", "a < b"))
            .then(Markdown::rule());
        assert_eq!(
            markdown_to_html(&md).as_str(),
            "<h2>A &amp; B</h2><ul><li><code>&lt;x&gt;</code></li><li><strong>y</strong></li></ul>\
<table><thead><tr><th>k</th></tr></thead><tbody><tr><td>&lt;v&gt;</td></tr></tbody></table>\
<blockquote><p>q</p></blockquote><pre><code>a &lt; b</code></pre><hr>"
        );
    }
}
