//! `slideRender`: another slide, or loose nodes, as one surface renders it
//! (group "Code and renders").
//!
//! The `body` is an embedded body, not a walked child (see
//! [`super::embedded`]). A render that names only a `slide` reference is a
//! placeholder until the host fills `body` with that slide's body; string
//! surfaces then print the heading alone.

use std::borrow::Cow;

use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use isomer_sdk::{Node, RefineContext};
use serde_json::Value;

use crate::authored::LineText;
use crate::check::Issue;
use crate::html::{classed, line_html};
use crate::primitives::SlideNode;
use crate::primitives::code::embedded::{
    RenderSurface, body_html, body_markdown, body_slack, body_text, check_embedded_body,
};
use crate::slack::text_mrkdwn;
use crate::text::{join_blocks, line};
use isomer_sdk::surface::slack::context;

/// The message for a render with neither a `slide` nor a `body`.
pub const SLIDE_OR_BODY: &str = "needs a `slide` reference or a `body`";

/// What a render without a `slide` reference calls its body.
pub const UNNAMED_BODY: &str = "a composition";

slide_node! {
    catalog "slideRender" in "Code and renders" {
        purpose: "Another slide, or a few nodes, shown as one surface renders it: drawn in a 16:9 panel (react, html, snapshot) or printed in a mono panel (markdown, text, slack).",
        use_when: [
            "Showing real output instead of describing it.",
            "A thumbnail of another slide: name it in slide and the host fills body.",
        ],
        avoid_when: [
            "The same body on several surfaces: use slideRenderGrid.",
            "Authored content inside an app's title bar: use slideWindow.",
            "Source code: use slideCode.",
            "Pointing at parts of the render: use slideAnnotatedRender.",
        ],
        example: {
            "type": "slideRender",
            "surface": "text",
            "caption": "The refund slide on the text surface",
            "body": [
                { "type": "slideHeading", "title": "Refunds settle **nightly**" },
                { "type": "slideBulletList", "items": ["One batch per night", "Retries until 06:00"] }
            ]
        },
    }

    /// The fields of a `slideRender` node.
    pub struct SlideRender {
        /// The host's reference to another slide (a slug); the host fills
        /// `body` with that slide's body. Give slide or body, or both.
        pub slide: Option<LineText>,
        /// The nodes to render: one slideFrame alone, or nodes without a
        /// frame; no render of any kind inside. Give slide or body, or both.
        #[schemars(length(min = 1))]
        pub body: Option<Vec<Node>>,
        /// The surface to show: "react", "html" or "snapshot" draw the slide in
        /// a 16:9 panel; "markdown", "text" or "slack" print that output in a
        /// mono panel.
        pub surface: RenderSurface,
        /// A caption under the panel.
        pub caption: Option<LineText>,
    }
}

impl SlideRender {
    fn body(&self) -> &[Node] {
        self.body.as_deref().unwrap_or_default()
    }

    /// `<surface> render of <slide or "a composition">`.
    fn heading(&self) -> String {
        let label = self
            .slide
            .as_deref()
            .map_or(Cow::Borrowed(UNNAMED_BODY), line);
        format!("{} render of {label}", self.surface.name())
    }

    /// The caption, on one line (empty without one).
    fn caption(&self) -> String {
        self.caption
            .as_deref()
            .map(line)
            .unwrap_or_default()
            .into_owned()
    }
}

impl SlideNode for SlideRender {
    const EMBEDDED_BODY: bool = true;

    /// A slide reference or a body; the body's own rules (one frame alone
    /// or no frame; no render inside).
    fn check(&self, cx: &RefineContext<'_>) -> Vec<Issue> {
        if self.slide.is_none() && self.body.is_none() {
            return vec![Issue::new("", SLIDE_OR_BODY)];
        }
        check_embedded_body("body", self.body(), cx.walker())
    }

    /// Text: `[<surface> render of <slide>] caption`, a blank line, then
    /// the body's text indented two spaces.
    fn text(&self, scope: &Scope<'_>) -> String {
        let heading = format!("[{}] {}", self.heading(), self.caption());
        join_blocks([heading.trim_end().to_owned(), body_text(scope, self.body())])
    }

    /// Markdown: the heading in italics and the caption, then the body's
    /// Markdown as a blockquote.
    fn markdown(&self, scope: &Scope<'_>) -> Markdown {
        let mut heading = Inline::emphasis(self.heading());
        if self.caption.is_some() {
            heading = heading.then(format!(" {}", self.caption()).as_str());
        }
        Markdown::paragraph(heading).then(body_markdown(scope, self.body()))
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<figure class="slide-render">` named by its heading
    /// (`aria-label` "snapshot render of …"): the body as its surface shows
    /// it ([`body_html`]: the slide itself scaled into a 16:9 panel, or the
    /// printed output), or, for a reference the host has not filled, an
    /// empty panel holding the heading; then the caption as
    /// `<figcaption>`.
    fn html(&self, scope: &Scope<'_>) -> Html {
        let mut out = if self.body().is_empty() {
            classed(
                "div",
                "slide-render-viewport slide-render-printed",
                classed("p", "slide-render-placeholder", Html::text(&self.heading())),
            )
        } else {
            body_html(scope, self.body(), self.surface)
        };
        if let Some(caption) = &self.caption {
            out.push(classed(
                "figcaption",
                "slide-render-caption",
                line_html(caption),
            ));
        }
        Html::element(
            "figure",
            &[("class", "slide-render"), ("aria-label", &self.heading())],
            out,
        )
    }

    /// The 16:9 panel (1.5 px border, 12 px corners) the slide is drawn in
    /// at 0.38 of its size (730 × 410 px), the printed surfaces in mono
    /// 24 px, and the mono caption.
    const CSS: &'static str = include_str!("slide_render.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: a `context` with the italic heading and the caption, then the
    /// body's blocks (headers turned into bold sections).
    fn slack(&self, scope: &Scope<'_>) -> Vec<Value> {
        let mut heading = format!("_{}_", text_mrkdwn(&self.heading()));
        if self.caption.is_some() {
            heading = format!("{heading} {}", text_mrkdwn(&self.caption()));
        }
        let mut blocks = vec![context(&heading)];
        blocks.extend(body_slack(scope, self.body()));
        blocks
    }
}
