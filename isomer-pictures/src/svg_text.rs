//! The words an SVG carries beside its glyph outlines: `<title>` and
//! `<desc>`, the first children of the root element, as SVG's accessibility
//! rules place them, and a text layer: each run of text takumi laid out, as
//! an invisible `<text>` over the outlines it was drawn as, so the words can
//! be selected, searched and read aloud, and so the PDF made from the SVG
//! holds them as text.

use crate::overflow::TextRun;

/// The text layer's face, Inter, whose ascent plus descent is 1.2102 em
/// (hhea 2728 + 680 over 2816 units) with the baseline at 0.8005 of that
/// height: a run's font size and baseline follow from the box takumi
/// measured. Any face a run is drawn in gives close positions; the width
/// is then stretched to the run's measured width (`textLength`).
const LINE_EM: f32 = 1.2102;
const BASELINE: f32 = 0.8005;

/// The text layer: one `<text>` per run, unpainted (`fill="none"`), in a group
/// placed last so it lies over the drawing. Empty when there is no run.
pub(crate) fn text_layer(runs: &[TextRun]) -> String {
    if runs.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<g class=\"text-layer\" font-family=\"Inter\" fill=\"none\" xml:space=\"preserve\">",
    );
    for run in runs {
        let size = run.height / LINE_EM;
        let baseline = run.y + run.height * BASELINE;
        out.push_str(&format!(
            "<text x=\"{:.2}\" y=\"{:.2}\" font-size=\"{:.2}\" textLength=\"{:.2}\" lengthAdjust=\"spacingAndGlyphs\">",
            run.x, baseline, size, run.width
        ));
        push_escaped(&mut out, &run.text);
        out.push_str("</text>");
    }
    out.push_str("</g>");
    out
}

/// The words of `runs` as lines, for `<desc>`: runs on one baseline are
/// one line, joined with a space where a gap separates them (a bold word
/// inside a sentence is a run of its own, so runs that touch are joined as
/// they are), and each new baseline starts a new line. This is the text as
/// drawn: the authored case, except where the stylesheet transforms it
/// (upper-cased labels).
pub(crate) fn description(runs: &[TextRun]) -> String {
    let mut out = String::new();
    let mut previous: Option<&TextRun> = None;
    for run in runs {
        if let Some(previous) = previous {
            let same_line = (run.y + run.height - previous.y - previous.height).abs()
                < previous.height.min(run.height) / 2.0
                && run.x >= previous.x;
            if !same_line {
                out.push('\n');
            } else if run.x - (previous.x + previous.width) > run.height * 0.1
                && !out.ends_with(char::is_whitespace)
            {
                out.push(' ');
            }
        }
        out.push_str(run.text.trim_end_matches('\n'));
        previous = Some(run);
    }
    out
}

/// `svg` with `layer` inserted right before the root element's end tag.
/// An `svg` without one is returned as is.
pub(crate) fn with_layer(svg: &str, layer: &str) -> String {
    match svg.rfind("</svg>") {
        Some(end) if !layer.is_empty() => {
            let mut out = String::with_capacity(svg.len() + layer.len());
            out.push_str(&svg[..end]);
            out.push_str(layer);
            out.push_str(&svg[end..]);
            out
        }
        _ => svg.to_owned(),
    }
}

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

    #[test]
    fn a_run_becomes_invisible_text_over_its_box() {
        let runs = [TextRun {
            text: "420 <ms>".to_owned(),
            x: 128.0,
            y: 100.0,
            width: 300.0,
            height: 121.02,
        }];
        let layer = text_layer(&runs);
        assert_eq!(
            layer,
            "<g class=\"text-layer\" font-family=\"Inter\" fill=\"none\" xml:space=\"preserve\"><text x=\"128.00\" y=\"196.88\" font-size=\"100.00\" textLength=\"300.00\" lengthAdjust=\"spacingAndGlyphs\">420 &lt;ms&gt;</text></g>"
        );
        assert_eq!(
            with_layer("<svg>\n<rect/>\n</svg>", "<g/>"),
            "<svg>\n<rect/>\n<g/></svg>"
        );
        assert_eq!(text_layer(&[]), "");
        let run = |text: &str, x: f32, y: f32| TextRun {
            text: text.to_owned(),
            x,
            y,
            width: 10.0 * text.len() as f32,
            height: 20.0,
        };
        assert_eq!(
            description(&[
                run("Cut-offs", 0.0, 0.0),
                run("Settled in ", 0.0, 40.0),
                run("two", 110.0, 40.0),
                run("days", 160.0, 42.0),
                run("BANK", 0.0, 80.0),
            ]),
            "Cut-offs\nSettled in two days\nBANK"
        );
        assert_eq!(with_layer("<svg></svg>", ""), "<svg></svg>");
    }
}
