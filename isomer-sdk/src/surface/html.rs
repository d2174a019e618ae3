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

use crate::surface::markdown::escape_html;
use crate::url::{sanitize_asset_url, sanitize_navigation_href};

/// The tags [`Html::element`] accepts; anything else renders as a `span`.
const ALLOWED_TAGS: [&str; 38] = [
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

/// Trusted HTML markup. Build it with [`Html::text`], [`Html::element`] and
/// [`Html::concat`]; there is no constructor from a raw string.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Html(String);

impl Html {
    /// No markup.
    pub fn new() -> Html {
        Html::default()
    }

    /// Escaped text (`&`, `<`, `>`, `"`, `'`).
    pub fn text(text: &str) -> Html {
        Html(escape_html(text))
    }

    /// `<tag attrs>children</tag>`. The tag must be one of an allow-list of
    /// content tags (others become `span`); attributes whose name is not
    /// `[a-z0-9-]+`, starts with `on`, is `style` or another URL-bearing
    /// attribute this builder cannot check (`srcset`, `action`, …) are
    /// dropped; values are escaped; `href` and `cite` are sanitized to `#`
    /// when unsafe, `src` dropped when unsafe.
    /// Void tags (`br`, `hr`, `img`) ignore `children`.
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
        if !VOID_TAGS.contains(&tag) {
            out.push_str(&children.0);
            out.push_str(&format!("</{tag}>"));
        }
        Html(out)
    }

    /// The parts one after another.
    pub fn concat<I: IntoIterator<Item = Html>>(parts: I) -> Html {
        Html(parts.into_iter().map(|part| part.0).collect())
    }

    /// Appends `next`.
    pub fn push(&mut self, next: Html) {
        self.0.push_str(&next.0);
    }

    /// This markup followed by `next`.
    pub fn then(mut self, next: Html) -> Html {
        self.push(next);
        self
    }

    /// True when there is no markup.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The markup.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Html {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
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
                    markdown_to_html(inner).0
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
    Html(out)
}

/// The stylesheet of the `html` surface: minimal, scoped to `.isomer`.
pub const HTML_CSS: &str = ".isomer{font-family:system-ui,sans-serif;line-height:1.4}\
.isomer .sub{opacity:.75}\
.isomer[data-theme=dark]{background:#111;color:#eee}";

/// What the `html` surface returns.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HtmlRender {
    /// `<style>` with [`HtmlRender::css`], then `<section class="isomer"
    /// aria-label="…" data-theme="…">…</section>`.
    pub html: String,
    /// The stylesheet alone ([`HTML_CSS`]).
    pub css: String,
    /// The findings of validation (the `html` surface collects by default).
    pub validation_errors: Vec<crate::ValidationError>,
}

/// The `html` envelope: `aria-label` is `meta.ariaLabel`, else the title,
/// else `View`; `data-theme` is `theme` when given, else the composition's
/// theme (`auto` when absent); with `heading`, the title as `h2` and the subtitle as
/// `p.sub`; then each body node.
pub(crate) fn envelope(
    composition: &Value,
    heading: bool,
    theme: Option<crate::composition::Theme>,
    body: Vec<Html>,
) -> String {
    let view = crate::composition::Composition::from_value(composition);
    let title = view.as_ref().and_then(|v| v.title());
    let subtitle = view.as_ref().and_then(|v| v.subtitle());
    let aria = view
        .as_ref()
        .and_then(|v| v.meta())
        .and_then(|meta| meta.aria_label())
        .or(title)
        .unwrap_or("View");
    let theme = theme
        .or_else(|| view.as_ref().and_then(|v| v.theme()))
        .map_or("auto", |theme| theme.as_str());
    let mut out = format!(
        "<style>{HTML_CSS}</style><section class=\"isomer\" aria-label=\"{}\" data-theme=\"{theme}\">",
        escape_html(aria)
    );
    if heading {
        if let Some(title) = title {
            out.push_str(&format!("<h2>{}</h2>", escape_html(title)));
        }
        if let Some(subtitle) = subtitle {
            out.push_str(&format!("<p class=\"sub\">{}</p>", escape_html(subtitle)));
        }
    }
    for part in body {
        out.push_str(&part.0);
    }
    out.push_str("</section>");
    out
}

use serde_json::Value;

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
