//! `slideCode`: source in one panel, or two panels joined by an arrow.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use super::line_width::{check_code_line, panel_columns};
use crate::authored::LineText;
use crate::check::Issue;
use crate::code_block::{
    CODE_DENSE_AFTER, LineLook, code_markdown, code_panel_html, code_slack, code_text,
};
use crate::html::classed;
use crate::primitives::SlideNode;
use crate::slack::text_mrkdwn;
use crate::text::line;
use isomer_sdk::surface::slack::section;

/// The message for a highlighted line number past the panel's lines.
pub fn highlight_past_end(lines: usize) -> String {
    format!("must be a line number of this panel, at most {lines}")
}

slide_node! {
    catalog "slideCode" in "Code and renders" {
        purpose: "Up to sixteen lines of source in one panel, or two panels joined by an arrow, with optional highlighted lines.",
        use_when: [
            "A specific snippet is the point of the slide.",
            "Tracing a value from one file into another: two panels.",
        ],
        avoid_when: [
            "An exchange between a person, a model and a program: use slideTranscript.",
            "More than sixteen lines: cut the snippet down to the lines that make the point, or show the folder with slideTree.",
            "What a change did to the code: use slideDiff.",
            "One shell command to run: use slideCommand.",
        ],
        example: {
            "type": "slideCode",
            "panels": [
                {
                    "file": "settle.ts",
                    "language": "ts",
                    "lines": ["const batch = await queue.drain(cutOff);", "", "await bank.transfer(batch);"],
                    "highlightLines": [3]
                }
            ]
        },
    }

    /// The fields of a `slideCode` node.
    pub struct SlideCode {
        /// One panel, or two joined by an arrow (a value traced from one file
        /// to the next).
        #[schemars(length(min = 1, max = 2))]
        pub panels: Vec<CodePanel>,
    }

    /// One panel of source.
    pub struct CodePanel {
        /// The file name, shown as the panel's caption.
        pub file: Option<LineText>,
        /// The language, e.g. "ts"; names the Markdown fence (no syntax colours).
        pub language: Option<LineText>,
        /// One to sixteen lines of code, one per entry; an entry may be empty.
        /// No line breaks or tabs inside an entry.
        #[schemars(length(min = 1, max = 16), inner(length(max = 10000)))]
        pub lines: Vec<String>,
        /// Line numbers (from 1) to highlight.
        #[schemars(length(min = 1, max = 16), inner(range(min = 1)))]
        pub highlight_lines: Option<Vec<u64>>,
    }
}

impl SlideNode for SlideCode {
    /// Each line is one line, without tabs, within its panel's width; each
    /// highlighted line exists.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = Vec::new();
        for (p, panel) in self.panels.iter().enumerate() {
            let columns = panel_columns(self.panels.len(), panel.lines.len());
            for (l, code) in panel.lines.iter().enumerate() {
                issues.extend(check_code_line(
                    format!("panels[{p}].lines[{l}]"),
                    code,
                    columns,
                ));
            }
            for (h, number) in panel.highlight_lines.iter().flatten().enumerate() {
                if *number > panel.lines.len() as u64 {
                    issues.push(Issue::new(
                        format!("panels[{p}].highlightLines[{h}]"),
                        highlight_past_end(panel.lines.len()),
                    ));
                }
            }
        }
        issues
    }

    /// Text: per panel the file line, then the code; panels apart by a `→`
    /// line between blank lines.
    fn text(&self, _scope: &Scope<'_>) -> String {
        let panels: Vec<String> = self
            .panels
            .iter()
            .map(|panel| {
                code_text(
                    panel.file.as_deref().map(line).as_deref(),
                    &panel.lines.join("\n"),
                )
            })
            .collect();
        panels.join("\n\n→\n\n")
    }

    /// Markdown: per panel `**file**`, then a fenced block named by
    /// `language`; panels apart by a `→` paragraph.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let mut out = Markdown::new();
        for (index, panel) in self.panels.iter().enumerate() {
            if index > 0 {
                out.push(Markdown::paragraph("→"));
            }
            out.push(code_markdown(
                panel.file.as_deref(),
                panel.language.as_deref().unwrap_or(""),
                &panel.lines.join("\n"),
            ));
        }
        out
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide-code">` holding each panel
    /// ([`code_panel_html`]: the file as caption, one `<code>` per line,
    /// the `highlightLines` on a tinted band with a primary bar); two
    /// panels are joined by an arrow (`role="img"`, `aria-label` "then").
    /// Both panels are dense (24 px) when either has more than ten lines.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let dense = self
            .panels
            .iter()
            .any(|panel| panel.lines.len() > CODE_DENSE_AFTER);
        let mut out = Html::new();
        for (index, panel) in self.panels.iter().enumerate() {
            if index > 0 {
                out.push(Html::element(
                    "div",
                    &[
                        ("class", "slide-code-arrow"),
                        ("role", "img"),
                        ("aria-label", "then"),
                    ],
                    classed("span", "slide-code-arrow-rail", Html::new()).then(classed(
                        "span",
                        "slide-code-arrow-head",
                        Html::new(),
                    )),
                ));
            }
            let marked = panel.highlight_lines.as_deref().unwrap_or_default();
            out.push(code_panel_html(
                panel.file.as_deref(),
                panel.lines.iter().enumerate().map(|(number, text)| {
                    let look = if marked.contains(&(number as u64 + 1)) {
                        LineLook::Highlight
                    } else {
                        LineLook::Plain
                    };
                    (text.as_str(), look)
                }),
                dense,
            ));
        }
        let class = if self.panels.len() > 1 {
            "slide-code slide-code-pair"
        } else {
            "slide-code"
        };
        classed("div", class, out)
    }

    /// The code panel every code primitive draws (white, 1.5 px border,
    /// 12 px corners, mono 26 px or 24 px dense, 28 × 36 padding), its
    /// highlight band, the file caption and the arrow between two panels.
    const CSS: &'static str = include_str!("slide_code.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: per panel a `section` `file` + a code block; a `→` section
    /// between panels.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = Vec::new();
        for (index, panel) in self.panels.iter().enumerate() {
            if index > 0 {
                blocks.push(section("→"));
            }
            blocks.push(code_slack(
                panel.file.as_deref().map(text_mrkdwn).as_deref(),
                &panel.lines.join("\n"),
            ));
        }
        blocks
    }
}
