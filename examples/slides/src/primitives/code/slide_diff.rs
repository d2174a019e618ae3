//! `slideDiff`: one snippet with its added and removed lines marked.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};
use schemars::JsonSchema;
use serde::Deserialize;
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

/// What a change did to a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum DiffOp {
    /// The line was added.
    Add,
    /// The line was removed.
    Remove,
}

slide_node! {
    catalog "slideDiff" in "Code and renders" {
        purpose: "One snippet with its added and removed lines marked, among unchanged context lines.",
        use_when: [
            "Showing a fix, a refactor or a config change as before and after of the same snippet.",
            "The changed lines need their context to make sense.",
        ],
        avoid_when: [
            "Code that did not change: use slideCode.",
            "Two separate ideas: use slideSplit.",
        ],
        example: {
            "type": "slideDiff",
            "file": "settle.ts",
            "language": "ts",
            "lines": [
                { "text": "for (const refund of queue) {" },
                { "text": "  await bank.transfer(refund);", "op": "remove" },
                { "text": "  batch.add(refund);", "op": "add" },
                { "text": "}" }
            ]
        },
    }

    /// The fields of a `slideDiff` node.
    pub struct SlideDiff {
        /// The file name, shown as the caption.
        pub file: Option<LineText>,
        /// The language of the code, e.g. "ts".
        pub language: Option<LineText>,
        /// One to fourteen lines, changed and unchanged, in order.
        #[schemars(length(min = 1, max = 14))]
        pub lines: Vec<DiffLine>,
    }

    /// One line of the snippet.
    pub struct DiffLine {
        /// The line's code; may be empty. No line breaks or tabs.
        #[schemars(length(max = 10000))]
        pub text: String,
        /// "add" or "remove"; leave it out for an unchanged context line.
        pub op: Option<DiffOp>,
    }
}

impl SlideDiff {
    /// The unified form, as upstream prints it: a one-character marker
    /// column, then the line as authored: `+text` added, `-text` removed,
    /// ` text` unchanged (an empty unchanged line is one space).
    fn unified(&self) -> String {
        self.lines
            .iter()
            .map(|entry| {
                let sign = match entry.op {
                    Some(DiffOp::Add) => '+',
                    Some(DiffOp::Remove) => '-',
                    None => ' ',
                };
                format!("{sign}{}", entry.text)
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl SlideNode for SlideDiff {
    /// Each line is one line, without tabs, within the panel's width.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let columns = panel_columns(1, self.lines.len());
        self.lines
            .iter()
            .enumerate()
            .filter_map(|(index, entry)| {
                check_code_line(format!("lines[{index}].text"), &entry.text, columns)
            })
            .collect()
    }

    /// Text: the file line, then the unified lines.
    fn text(&self, _scope: &Scope<'_>) -> String {
        code_text(self.file.as_deref().map(line).as_deref(), &self.unified())
    }

    /// Markdown: `**file**`, then the unified lines in a `diff` fence.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        code_markdown(self.file.as_deref(), "diff", &self.unified())
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide-diff">` holding one code panel
    /// ([`code_panel_html`]) whose lines open with their sign in a 56 px
    /// gutter: an added line on the primary tint with a 4 px primary bar
    /// and a primary `+`, a removed one on the muted fill in the soft text
    /// colour after a `-`, context lines plain.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let lines = self.lines.iter().map(|entry| {
            let look = match entry.op {
                Some(DiffOp::Add) => LineLook::Added,
                Some(DiffOp::Remove) => LineLook::Removed,
                None => LineLook::Context,
            };
            (entry.text.as_str(), look)
        });
        classed(
            "div",
            "slide-diff",
            code_panel_html(
                self.file.as_deref(),
                lines,
                self.lines.len() > CODE_DENSE_AFTER,
            ),
        )
    }

    /// The sign gutter and the added and removed line tints.
    const CSS: &'static str = include_str!("slide_diff.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: a `section` `file` + the unified lines in a code block.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![code_slack(
            self.file.as_deref().map(text_mrkdwn).as_deref(),
            &self.unified(),
        )]
    }
}
