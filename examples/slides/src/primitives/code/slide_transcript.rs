//! `slideTranscript`: a short exchange between a user, a model and a host.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::check::Issue;
use crate::code_block::{code_markdown, code_slack};
use crate::html::{classed, line_html};
use crate::markdown::caption_paragraph;
use crate::primitives::SlideNode;
use crate::slack::caption_blocks;
use crate::text::{caption, join_lines};
use isomer_sdk::surface::escape_mrkdwn;
use isomer_sdk::surface::slack::section;

/// The message for a turn with only blank lines.
pub const BLANK_TURN: &str = "a turn says something: text is blank";

/// How a turn's text is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum TurnFormat {
    /// Running text (the default).
    Prose,
    /// Verbatim, in mono.
    Code,
}

/// Who speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum TurnRole {
    /// The person.
    User,
    /// The model.
    Model,
    /// The host program.
    Host,
}

impl TurnRole {
    fn label(self) -> &'static str {
        match self {
            TurnRole::User => "USER",
            TurnRole::Model => "MODEL",
            TurnRole::Host => "HOST",
        }
    }
}

impl Turn {
    /// The turn's lines without the blank lines at either end.
    fn lines(&self) -> Vec<&str> {
        let lines: Vec<&str> = self
            .text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        let blank = |l: &&str| l.trim().is_empty();
        let start = lines.iter().position(|l| !blank(l)).unwrap_or(lines.len());
        let end = lines
            .iter()
            .rposition(|l| !blank(l))
            .map_or(start, |e| e + 1);
        lines[start..end].to_vec()
    }
}

slide_node! {
    catalog "slideTranscript" in "Code and renders" {
        purpose: "A short exchange of up to four turns between a user, a model and the host program.",
        use_when: [
            "Replaying what an assistant was asked, what it answered and how the host responded.",
            "Showing a retry after a failed answer.",
        ],
        avoid_when: [
            "Only one side of the exchange, such as a program's output: use slideCode.",
            "More than four turns: split the exchange over two slides.",
        ],
        example: {
            "type": "slideTranscript",
            "label": "Refund question",
            "turns": [
                { "role": "user", "text": "Where is my refund for order 4411?" },
                { "role": "model", "format": "code", "text": "{\"type\":\"view\",\"body\":[{\"type\":\"slideStat\",\"value\":\"1\",\"unit\":\"day\",\"body\":\"until it lands\"}]}" },
                { "role": "host", "text": "Rendered one stat card." }
            ]
        },
    }

    /// The fields of a `slideTranscript` node.
    pub struct SlideTranscript {
        /// A caption over the exchange (printed upper-case).
        pub label: Option<LineText>,
        /// One to four turns, in order.
        #[schemars(length(min = 1, max = 4))]
        pub turns: Vec<Turn>,
    }

    /// One turn of the exchange.
    pub struct Turn {
        /// "prose" (default) or "code".
        pub format: Option<TurnFormat>,
        /// "user", "model" or "host".
        pub role: TurnRole,
        /// What was said; line breaks are kept, blank lines at either end are
        /// dropped.
        pub text: WrappedText,
    }
}

impl SlideNode for SlideTranscript {
    /// Every turn says something.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        self.turns
            .iter()
            .enumerate()
            .filter(|(_, turn)| turn.lines().is_empty())
            .map(|(index, _)| Issue::new(format!("turns[{index}].text"), BLANK_TURN))
            .collect()
    }

    /// Text: `LABEL`, then `ROLE: text` per turn, later lines of a turn on
    /// their own lines.
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_lines(
            std::iter::once(self.label.as_deref().map(caption).unwrap_or_default()).chain(
                self.turns
                    .iter()
                    .map(|turn| format!("{}: {}", turn.role.label(), turn.lines().join("\n"))),
            ),
        )
    }

    /// Markdown: `**LABEL**`, then per turn a `**ROLE**` paragraph and the
    /// text: prose as one paragraph whose lines are joined by hard breaks
    /// (`\` and a newline, as upstream shows), code in a `text` fence.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let mut out = caption_paragraph(self.label.as_deref());
        for turn in &self.turns {
            out.push(Markdown::paragraph(Inline::strong(turn.role.label())));
            match turn.format {
                Some(TurnFormat::Code) => {
                    out.push(code_markdown(None, "text", &turn.lines().join("\n")))
                }
                _ => out.push(Markdown::paragraph(Inline::lines(turn.lines()))),
            }
        }
        out
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide-transcript">`, the label as a caption, then
    /// an `<ol>` with one `<li class="slide-turn slide-turn-user">` (or
    /// `-model`, `-host`) per turn: the role upper-case, then the bubble: a
    /// prose turn's lines apart by `<br>`, a code turn's in `<pre>`. The
    /// user's bubbles sit on the right, the others on the left.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let turns = self.turns.iter().map(|turn| {
            let lines = turn.lines();
            let bubble = match turn.format {
                Some(TurnFormat::Code) => Html::element(
                    "pre",
                    &[("class", "slide-turn-code")],
                    Html::text(&lines.join("\n")),
                ),
                _ => {
                    let mut prose = Html::new();
                    for (index, text) in lines.iter().enumerate() {
                        if index > 0 {
                            prose.push(Html::element("br", &[], Html::new()));
                        }
                        prose.push(Html::text(text));
                    }
                    classed("p", "slide-turn-prose", prose)
                }
            };
            let role = match turn.role {
                TurnRole::User => "slide-turn slide-turn-user",
                TurnRole::Model => "slide-turn slide-turn-model",
                TurnRole::Host => "slide-turn slide-turn-host",
            };
            classed(
                "li",
                role,
                classed("p", "slide-turn-role", Html::text(turn.role.label())).then(classed(
                    "div",
                    "slide-turn-bubble",
                    bubble,
                )),
            )
        });
        let mut out = Html::new();
        if let Some(label) = &self.label {
            out.push(classed("p", "slide-caption", line_html(label)));
        }
        out.push(classed("ol", "slide-transcript-turns", Html::concat(turns)));
        classed("div", "slide-transcript", out)
    }

    /// Bubbles (1.5 px border, 12 px corners): the user's on the right, at
    /// most 70 % wide, on the primary background; the others on the left,
    /// at most 92 %; upper-case role labels; prose 30 px, code mono 26 px.
    const CSS: &'static str = include_str!("slide_transcript.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: `context` `*LABEL*`, then one `section` per turn: `*ROLE*`
    /// and the text (prose lines kept), or a code block for code turns.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = caption_blocks(self.label.as_deref());
        for turn in &self.turns {
            let role = turn.role.label();
            blocks.push(match turn.format {
                Some(TurnFormat::Code) => {
                    code_slack(Some(&format!("*{role}*")), &turn.lines().join("\n"))
                }
                _ => section(&format!(
                    "*{role}*\n{}",
                    escape_mrkdwn(&turn.lines().join("\n"))
                )),
            });
        }
        blocks
    }
}

#[cfg(test)]
mod tests {
    use isomer_sdk::Surface;
    use serde_json::{Value, json};

    fn markdown(node: Value) -> String {
        let runtime = crate::runtime().expect("the slides runtime builds");
        runtime
            .render_node(Surface::Markdown, &node, None)
            .expect("the node renders")
            .to_text()
    }

    #[test]
    fn prose_turn_lines_are_joined_by_hard_breaks() {
        let node = json!({
            "type": "slideTranscript",
            "label": "Refunds",
            "turns": [
                { "role": "user", "text": "\nRefund *now*?\n# 4411\r\n\n  ok\n\n" },
                { "role": "model", "format": "code", "text": "a\nb" }
            ]
        });
        assert_eq!(
            markdown(node),
            "**REFUNDS**\n\n**USER**\n\nRefund \\*now\\*?\\\n\\# 4411\\\n\\\nok\n\n**MODEL**\n\n```text\na\nb\n```"
        );
    }

    #[test]
    fn a_one_line_turn_has_no_break() {
        let node = json!({
            "type": "slideTranscript",
            "turns": [{ "role": "host", "text": "Rendered one card." }]
        });
        assert_eq!(markdown(node), "**HOST**\n\nRendered one card.");
    }
}
