//! `slideCommand`: one shell command the audience can run.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use super::line_width::check_code_line;
use crate::authored::{LineText, Size};
use crate::check::Issue;
use crate::code_block::{code_markdown, code_slack, code_text};
use crate::html::{classed, line_html, size_class};
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

/// The width the prompt and command have on the slide, in px: the
/// 1664 px content width less the panel's 40 px sides, the Copy chip and
/// the gap before it.
const COMMAND_LINE_WIDTH: f32 = 1440.0;

impl SlideCommand {
    /// The size step: the largest of 38, 32 and 28 px at which `$ ` and
    /// the command, in mono glyphs 0.6 em wide, fit on one line.
    fn step(&self) -> Size {
        let em = 0.6 * (line(&self.command).chars().count() + 2) as f32;
        [(Size::L, 38.0), (Size::M, 32.0)]
            .into_iter()
            .find(|&(_, px)| em * px <= COMMAND_LINE_WIDTH)
            .map_or(Size::S, |(size, _)| size)
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

    const NATIVE_HTML: bool = true;

    /// HTML, as upstream draws it: `<div class="slide-command">`, the label
    /// as a caption, then the panel: the `$` prompt (`aria-hidden`), the
    /// command in `<code>` with its `highlightPrefix` in a primary
    /// `slide-command-prefix` span, then a small `Copy` chip
    /// (`aria-hidden`). The panel's size class is the largest step whose
    /// line fits.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let command = line(&self.command);
        let prefix = self
            .highlight_prefix
            .as_deref()
            .map(line)
            .filter(|prefix| command.starts_with(prefix.as_ref()));
        let mut code = Html::new();
        let rest = match &prefix {
            Some(prefix) => {
                code.push(classed("span", "slide-command-prefix", Html::text(prefix)));
                &command[prefix.len()..]
            }
            None => &command[..],
        };
        code.push(Html::text(rest));
        let panel = Html::element(
            "span",
            &[("class", "slide-command-prompt"), ("aria-hidden", "true")],
            Html::text("$"),
        )
        .then(classed("code", "slide-command-line", code))
        .then(Html::element(
            "span",
            &[("class", "slide-command-copy"), ("aria-hidden", "true")],
            Html::text("Copy"),
        ));
        let mut out = Html::new();
        if let Some(label) = &self.label {
            out.push(classed("p", "slide-caption", line_html(label)));
        }
        out.push(classed(
            "div",
            &format!("slide-command-panel {}", size_class(self.step())),
            panel,
        ));
        classed("div", "slide-command", out)
    }

    /// The panel (32 × 40 padding, white, 1.5 px border, 12 px corners), the
    /// subtle `$`, mono 38/32/28 px, the primary prefix and the Copy chip.
    const CSS: &'static str = include_str!("slide_command.css");

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
