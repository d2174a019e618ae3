//! What `slideRender`, `slideRenderGrid` and `slideAnnotatedRender` share,
//! in the "Code and renders" group: the
//! surfaces a render names, the rules of an embedded body, and how string
//! surfaces print one.
//!
//! An embedded body is not a walked child: the runtime validates its nodes
//! against the node union with their own rules, but their ids are their
//! own, they get no anchors or builds, and container rules ("no window in
//! a window") stop at it. Its own rules, checked here: it is either one
//! `slideFrame` alone or nodes without a frame, and it holds no render of
//! any kind anywhere inside.

use isomer_sdk::surface::{Html, Markdown, Scope};
use isomer_sdk::{ChildWalker, Node};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::check::{Issue, SLIDE_FRAME, join_path};
use crate::html::classed;

/// The message for a render anywhere inside an embedded body.
pub const RENDER_IN_RENDER: &str = "an embedded body cannot hold another render";

/// The message for an embedded body mixing a `slideFrame` with other nodes
/// (or holding two frames).
pub const FRAME_ALONE: &str =
    "an embedded body is either one slideFrame alone or nodes without a slideFrame";

/// The node types that render another composition.
pub const RENDER_TYPES: [&str; 3] = ["slideRender", "slideRenderGrid", "slideAnnotatedRender"];

/// The surface a render shows its body on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum RenderSurface {
    /// The slide as the React renderer draws it, scaled into a 16:9 panel.
    React,
    /// The slide as standalone HTML, scaled into a 16:9 panel.
    Html,
    /// The slide as an image, scaled into a 16:9 panel.
    Snapshot,
    /// The Markdown output, in a mono panel.
    Markdown,
    /// The plain-text output, in a mono panel.
    Text,
    /// The Slack output, in a mono panel.
    Slack,
}

impl RenderSurface {
    /// The surface's name as authored (`react`, `markdown`, …).
    pub fn name(self) -> &'static str {
        match self {
            RenderSurface::React => "react",
            RenderSurface::Html => "html",
            RenderSurface::Snapshot => "snapshot",
            RenderSurface::Markdown => "markdown",
            RenderSurface::Text => "text",
            RenderSurface::Slack => "slack",
        }
    }
}

/// The findings of an embedded body at `slot` (`body`, `render.body`): a
/// frame that is not alone, and each outermost render node anywhere inside
/// (found through the runtime's `walker`, so other packs' containers are
/// entered too).
pub fn check_embedded_body(slot: &str, body: &[Node], walker: &dyn ChildWalker) -> Vec<Issue> {
    let mut issues = Vec::new();
    let frames = body
        .iter()
        .filter(|n| n.type_name() == Some(SLIDE_FRAME))
        .count();
    if frames > 0 && body.len() > 1 {
        issues.push(Issue::new(slot, FRAME_ALONE));
    }
    for (index, node) in body.iter().enumerate() {
        let mut stack = vec![(node.as_value(), format!("{slot}[{index}]"))];
        while let Some((value, path)) = stack.pop() {
            let type_name = value.get("type").and_then(Value::as_str);
            if type_name.is_some_and(|t| RENDER_TYPES.contains(&t)) {
                // One finding per offending render; what it holds is its
                // own business.
                issues.push(Issue::new(path, RENDER_IN_RENDER));
                continue;
            }
            for child in walker.children(value).into_iter().rev() {
                stack.push((child.node, join_path(&path, &child.path)));
            }
        }
    }
    issues
}

/// The embedded body as text: each node's text, blank-line joined, every
/// non-empty line indented two spaces.
pub fn body_text(scope: &Scope<'_>, body: &[Node]) -> String {
    scope
        .text_all(body.iter().map(Node::as_value), "\n\n")
        .lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The embedded body as Markdown: the nodes' Markdown in a blockquote.
pub fn body_markdown(scope: &Scope<'_>, body: &[Node]) -> Markdown {
    Markdown::blockquote(scope.markdown_all(body.iter().map(Node::as_value)))
}

/// The embedded body as Block Kit: the nodes' blocks, each `header` turned
/// into a bold `section` (a render is part of a message, not its title).
pub fn body_slack(scope: &Scope<'_>, body: &[Node]) -> Vec<Value> {
    scope
        .slack_all(body.iter().map(Node::as_value))
        .into_iter()
        .map(|block| {
            if block["type"] != "header" {
                return block;
            }
            let text = block["text"]["text"].as_str().unwrap_or_default();
            json!({
                "type": "section",
                "text": { "type": "mrkdwn", "text": format!("*{}*", isomer_sdk::surface::escape_mrkdwn(text)) }
            })
        })
        .collect()
}

/// The `html` surface's drawing of an embedded body as `surface` shows it,
/// in a 16:9 `<div class="slide-render-viewport">` whose size the
/// embedding primitive's stylesheet sets:
/// - `react`, `html` and `snapshot`: the slide itself, drawn at 1920 ×
///   1080 by each node's own renderer in a `slide-render-canvas` that the
///   stylesheet scales into the panel; a body of loose nodes is laid out in
///   a frameless `slide` of its own.
/// - `text`, `markdown` and `slack`: what that surface prints, in a mono
///   `<pre class="slide-render-print">` (Slack: each block's `mrkdwn`
///   text, one block per paragraph).
pub fn body_html(scope: &Scope<'_>, body: &[Node], surface: RenderSurface) -> Html {
    let values = || body.iter().map(Node::as_value);
    let inner = match surface {
        RenderSurface::React | RenderSurface::Html | RenderSurface::Snapshot => {
            let is_frame = body.len() == 1 && body[0].type_name() == Some(SLIDE_FRAME);
            let slide = if is_frame {
                scope.html(body[0].as_value())
            } else {
                Html::element(
                    "div",
                    &[("class", "slide"), ("data-tone", "page")],
                    classed("div", "slide-body", scope.html_all(values())),
                )
            };
            classed("div", "slide-render-canvas", slide)
        }
        RenderSurface::Text => print_html(&scope.text_all(values(), "\n\n")),
        RenderSurface::Markdown => print_html(&scope.markdown_all(values()).to_markdown()),
        RenderSurface::Slack => {
            let mut texts = Vec::new();
            for block in scope.slack_all(values()) {
                collect_texts(&block, &mut texts);
            }
            print_html(&texts.join("\n\n"))
        }
    };
    let class = match surface {
        RenderSurface::React | RenderSurface::Html | RenderSurface::Snapshot => {
            "slide-render-viewport"
        }
        _ => "slide-render-viewport slide-render-printed",
    };
    classed("div", class, inner)
}

/// A surface's printed output in a mono panel.
fn print_html(printed: &str) -> Html {
    classed("pre", "slide-render-print", Html::text(printed))
}

/// Every `text` string of a Block Kit block, depth first: a section's or
/// context element's `mrkdwn`, a header's plain text.
fn collect_texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                match child {
                    Value::String(text) if key == "text" => out.push(text.clone()),
                    _ => collect_texts(child, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_texts(item, out)),
        _ => {}
    }
}
