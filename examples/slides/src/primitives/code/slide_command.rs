//! `slideCommand`: one shell command the audience can run.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Markdown, Scope};
use serde_json::Value;

use super::line_width::check_code_line;
use crate::authored::LineText;
use crate::check::Issue;
use crate::code_block::{code_markdown, code_slack, code_text};
use crate::primitives::SlideNode;
use crate::slack::caption_mrkdwn;
use crate::text::{caption, line};

/// The most characters (and display columns) a command may take: 85.
///
/// Derived from the slide's geometry as upstream derives it: 1,664 px of
/// content width less the panel's 40 px side padding (1,584 px), less about
/// 120 px for the Copy chip and its gap, in the smallest command face (28 px
/// Roboto Mono, 0.6 em advance: 16.8 px a column), gives 87 columns; the
/// `$ ` prompt takes two of them. Upstream's own examples hold commands of
/// 61 and 84 characters, which this cap accepts. The chip's width is this
/// port's estimate; upstream's exact theme metrics were not captured.
pub const COMMAND_MAX_LENGTH: usize = 85;

/// The message for a `highlightPrefix` the command does not start with.
pub const NOT_A_PREFIX: &str = "must be a prefix of `command`";

slide_node! {
    catalog "slideCommand" in "Code and renders" {
        purpose: "One shell command on one line, ready to copy and run.",
        use_when: [
            "Telling the audience what to run: install, set up, try it.",
            "A sequence of single commands, each with its own label.",
        ],
        avoid_when: [
            "A command over several lines, or source code: use slideCode.",
        ],
        example: {
            "type": "slideCommand",
            "label": "Try a dry run",
            "command": "ledger settle --region eu --dry-run",
            "highlightPrefix": "ledger"
        },
    }

    /// The fields of a `slideCommand` node.
    pub struct SlideCommand {
        /// What the command does, e.g. "Install" (printed upper-case).
        pub label: Option<LineText>,
        /// The command, on one line, without the prompt.
        #[schemars(length(min = 1, max = 85))]
        pub command: String,
        /// The start of the command to emphasize, e.g. the program name; must be
        /// a prefix of command.
        #[schemars(length(min = 1, max = 85))]
        pub highlight_prefix: Option<String>,
    }
}

impl SlideNode for SlideCommand {
    /// The command is one line, without tabs, within the width; the
    /// highlighted prefix is a prefix of it.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues: Vec<Issue> =
            check_code_line("command".to_owned(), &self.command, COMMAND_MAX_LENGTH)
                .into_iter()
                .collect();
        if let Some(prefix) = &self.highlight_prefix
            && !self.command.starts_with(prefix.as_str())
        {
            issues.push(Issue::new("highlightPrefix", NOT_A_PREFIX));
        }
        issues
    }

    /// Text: the `LABEL` line (upper-cased), then `$ command`.
    fn text(&self, _scope: &Scope<'_>) -> String {
        code_text(
            self.label.as_deref().map(caption).as_deref(),
            &format!("$ {}", line(&self.command)),
        )
    }

    /// Markdown: `**LABEL**`, then the command in an `sh` fence (no prompt).
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        code_markdown(
            self.label.as_deref().map(caption).as_deref(),
            "sh",
            &line(&self.command),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: a `section`: the label upper-cased and bold (`*LABEL*`), as on
    /// text and Markdown, then the command in a code block.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![code_slack(
            self.label.as_deref().map(caption_mrkdwn).as_deref(),
            &line(&self.command),
        )]
    }
}
