//! The words an SVG carries beside its glyph outlines: `<title>` and
//! `<desc>`, the first children of the root element, as SVG's accessibility
//! rules place them.

/// `svg` with `<title>` (when there is a title) and `<desc>` (when `text` is
/// not empty) inserted right after the root element's start tag. The text
/// is escaped for XML, and characters XML 1.0 cannot hold (control
/// characters other than tab, line feed and carriage return, U+FFFE,
/// U+FFFF) are dropped. An `svg` without a start tag is returned as is.
pub(crate) fn with_title_and_desc(svg: &str, title: Option<&str>, text: &str) -> String {
    let Some(end) = svg
        .find("<svg")
        .and_then(|start| svg[start..].find('>').map(|end| start + end + 1))
    else {
        return svg.to_owned();
    };
    let mut out = String::with_capacity(svg.len() + text.len() + 64);
    out.push_str(&svg[..end]);
    if let Some(title) = title.filter(|title| !title.is_empty()) {
        out.push_str("\n  <title>");
        push_escaped(&mut out, title);
        out.push_str("</title>");
    }
    if !text.is_empty() {
        out.push_str("\n  <desc>");
        push_escaped(&mut out, text);
        out.push_str("</desc>");
    }
    out.push_str(&svg[end..]);
    out
}

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_title_and_desc_first() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2\">\n  <rect/>\n</svg>";
        assert_eq!(
            with_title_and_desc(svg, Some("Q3 <plan>"), "a & b\u{1}\tc"),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2\">\n  <title>Q3 &lt;plan&gt;</title>\n  <desc>a &amp; b\tc</desc>\n  <rect/>\n</svg>"
        );
        assert_eq!(with_title_and_desc(svg, None, ""), svg);
        assert_eq!(with_title_and_desc("not svg", Some("t"), "x"), "not svg");
    }
}
