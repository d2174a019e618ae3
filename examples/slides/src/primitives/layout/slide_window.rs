//! `slideWindow`: slide nodes framed in an app's title bar. Its children are
//! `body[i]`.

use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use isomer_sdk::{Node, RefineContext};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::authored::LineText;
use crate::check::{Issue, nested_frames};
use crate::html::classed;
use crate::primitives::{Catalogued, SlideNode};
use crate::slack::text_mrkdwn;
use crate::text::{join_lines, line};
use isomer_sdk::surface::slack::context;

/// The message for a window anywhere inside another window.
pub const WINDOW_IN_WINDOW: &str = "a window cannot hold another window";

/// The app whose title bar frames the nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum WindowChrome {
    /// A browser; the title is a URL.
    Browser,
    /// A terminal; the title is a command or a path.
    Terminal,
    /// A Slack channel; the title is the channel name without `#`.
    Slack,
    /// A chat app; the title is the thread's name.
    Chat,
}

slide_node! {
    catalog "slideWindow" in "Layout" {
        purpose: "Slide nodes shown inside an app's title bar (browser, terminal, Slack channel or chat).",
        use_when: [
            "Where something appears matters: terminal output, a message in a channel, a page at a URL.",
            "Comparing two apps: two windows in a slideSplit.",
        ],
        avoid_when: [
            "Content not tied to an app: use slideCode, slideTable or slideTranscript directly.",
            "A window inside a window: put two windows in a slideSplit.",
            "A real render of a slide or of nodes: use slideRender.",
            "A terminal holding only a command to run: use slideCommand.",
        ],
        example: {
            "type": "slideWindow",
            "chrome": "terminal",
            "title": "ledger settle --dry-run",
            "body": [
                { "type": "slideCode", "panels": [{ "lines": ["batch 2026-03-02: 1,204 refunds", "ok: 1,203  retry: 1"] }] }
            ]
        },
    }

    /// The fields of a `slideWindow` node.
    pub struct SlideWindow {
        /// "browser", "terminal", "slack" or "chat"; only the title bar changes.
        pub chrome: WindowChrome,
        /// The title bar text: a URL, a command, a thread name, or for "slack" a
        /// channel name without "#".
        pub title: LineText,
        /// The nodes inside the window (no slideFrame, no other slideWindow).
        #[schemars(length(min = 1))]
        pub body: Vec<Node>,
    }
}

impl SlideWindow {
    /// The title bar as string surfaces print it (`# channel` for slack).
    fn caption(&self) -> String {
        match self.chrome {
            WindowChrome::Slack => format!("# {}", line(&self.title)),
            _ => line(&self.title).into_owned(),
        }
    }
}

impl SlideNode for SlideWindow {
    /// No frame in the body; no window anywhere below (the runtime's walker
    /// does not enter embedded render bodies, so a window there is fine).
    fn check(&self, cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = nested_frames("body", &self.body);
        for descendant in cx.descendants() {
            if descendant.node.get("type").and_then(Value::as_str) == Some(Self::TYPE) {
                issues.push(Issue::new(descendant.path, WINDOW_IN_WINDOW));
            }
        }
        issues
    }

    /// The title bar is the window's own content.
    fn has_own_content(_node: &Value) -> Option<bool> {
        Some(true)
    }

    /// Text: `[title]` (`[# channel]` for slack), then the nodes.
    fn text(&self, scope: &Scope<'_>) -> String {
        join_lines([
            format!("[{}]", self.caption()),
            scope.text_all(self.body.iter().map(Node::as_value), "\n\n"),
        ])
    }

    /// Markdown: `**title**`, then the nodes.
    fn markdown(&self, scope: &Scope<'_>) -> Markdown {
        Markdown::paragraph(Inline::strong(self.caption()))
            .then(scope.markdown_all(self.body.iter().map(Node::as_value)))
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<figure class="slide-window slide-window-terminal">` (or
    /// `-browser`, `-slack`, `-chat`): the title bar as its `<figcaption>`
    /// (a Slack channel `# title`), then `<div class="slide-window-body">`
    /// holding each node drawn by its own renderer.
    fn html(&self, scope: &Scope<'_>) -> Html {
        let chrome = match self.chrome {
            WindowChrome::Browser => "slide-window slide-window-browser",
            WindowChrome::Terminal => "slide-window slide-window-terminal",
            WindowChrome::Slack => "slide-window slide-window-slack",
            WindowChrome::Chat => "slide-window slide-window-chat",
        };
        classed(
            "figure",
            chrome,
            classed(
                "figcaption",
                "slide-window-bar",
                Html::text(&self.caption()),
            )
            .then(classed(
                "div",
                "slide-window-body",
                scope.html_all(self.body.iter().map(Node::as_value)),
            )),
        )
    }

    /// The white panel (1.5 px border, 12 px corners) under a muted title
    /// bar in mono 24 px.
    const CSS: &'static str = include_str!("slide_window.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: a bold `context` caption with the title bar, then the nodes'
    /// blocks.
    fn slack(&self, scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = vec![context(&format!("*{}*", text_mrkdwn(&self.caption())))];
        blocks.extend(scope.slack_all(self.body.iter().map(Node::as_value)));
        blocks
    }
}
