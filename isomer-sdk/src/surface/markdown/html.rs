//! HTML output of inline runs (the fallback of primitives without an
//! `html` renderer).

use super::inline::Run;

/// Escapes `&`, `<`, `>`, `"`, `'` for HTML text and attribute values.
pub(crate) fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

pub(super) fn write_html_runs(runs: &[Run], out: &mut String) {
    for run in runs {
        match run {
            Run::Text(text) => out.push_str(&escape_html(text)),
            Run::Strong(inner) => {
                out.push_str("<strong>");
                write_html_runs(inner, out);
                out.push_str("</strong>");
            }
            Run::Emphasis(inner) => {
                out.push_str("<em>");
                write_html_runs(inner, out);
                out.push_str("</em>");
            }
            Run::Code(code) => {
                out.push_str("<code>");
                out.push_str(&escape_html(code));
                out.push_str("</code>");
            }
            Run::HardBreak => out.push_str("<br>"),
            Run::Autolink(autolink) => {
                out.push_str("<a href=\"");
                out.push_str(&escape_html(&autolink.href()));
                out.push_str("\">");
                out.push_str(&escape_html(autolink.text()));
                out.push_str("</a>");
            }
            Run::Link { label, href } => {
                out.push_str("<a href=\"");
                out.push_str(&escape_html(href));
                out.push_str("\">");
                write_html_runs(label, out);
                out.push_str("</a>");
            }
        }
    }
}
