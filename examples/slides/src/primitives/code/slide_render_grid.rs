//! `slideRenderGrid`: one body on two to six surfaces side by side
//! (group "Code and renders").
//!
//! The `body` is an embedded body, not a walked child (see
//! [`super::embedded`]). String surfaces print it once, after the list of
//! tiles.

use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use isomer_sdk::{Node, RefineContext};
use serde_json::{Value, json};

use crate::authored::LineText;
use crate::check::Issue;
use crate::html::{classed, line_html};
use crate::list::{Entry, List};
use crate::primitives::SlideNode;
use crate::primitives::code::embedded::{
    RenderSurface, body_html, body_markdown, body_slack, body_text, check_embedded_body,
};
use crate::primitives::code::slide_render::UNNAMED_BODY;
use crate::slack::text_mrkdwn;
use crate::text::{join_blocks, join_lines};
use isomer_sdk::surface::slack::{SLACK_SECTION_LIMIT, clamp_text};

/// The message for a surface named by two tiles.
pub const SURFACE_ONCE: &str = "each surface may appear once";

slide_node! {
    catalog "slideRenderGrid" in "Code and renders" {
        purpose: "One body rendered on two to six surfaces side by side, each tile captioned.",
        use_when: [
            "Proving one composition reaches several places.",
            "Comparing how the surfaces show the same content.",
        ],
        avoid_when: [
            "A single surface: use slideRender.",
            "Authored nodes inside an app's title bar: use slideWindow.",
            "Source or JSON: use slideCode.",
        ],
        example: {
            "type": "slideRenderGrid",
            "body": [
                { "type": "slideStat", "value": "1,204", "body": "refunds settled last night" }
            ],
            "tiles": [
                { "surface": "snapshot", "caption": "On a slide" },
                { "surface": "markdown", "caption": "In a README" },
                { "surface": "slack", "caption": "In a channel" }
            ]
        },
    }

    /// The fields of a `slideRenderGrid` node.
    pub struct SlideRenderGrid {
        /// The nodes every tile renders: one slideFrame alone, or nodes without
        /// a frame; no render of any kind inside.
        #[schemars(length(min = 1))]
        pub body: Vec<Node>,
        /// Two to six tiles, each surface at most once (4 tiles lay out 2×2,
        /// 5–6 tiles 3×2).
        #[schemars(length(min = 2, max = 6))]
        pub tiles: Vec<RenderTile>,
    }

    /// One tile: the body on one surface.
    pub struct RenderTile {
        /// The surface this tile shows.
        pub surface: RenderSurface,
        /// A caption under the tile, e.g. "Slack thread".
        pub caption: LineText,
    }
}

impl SlideRenderGrid {
    /// The tiles as a list: `surface: caption`.
    fn tiles(&self) -> List {
        List::new(
            self.tiles
                .iter()
                .map(|t| Entry::pair(t.surface.name(), ": ", Some(&t.caption))),
        )
    }

    fn heading(&self) -> String {
        format!("{UNNAMED_BODY} on {} surfaces", self.tiles.len())
    }
}

impl SlideNode for SlideRenderGrid {
    const EMBEDDED_BODY: bool = true;

    /// Each surface once; the body's own rules (one frame alone or no
    /// frame; no render inside).
    fn check(&self, cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues: Vec<Issue> = self
            .tiles
            .iter()
            .enumerate()
            .filter(|(index, tile)| {
                self.tiles[..*index]
                    .iter()
                    .any(|t| t.surface == tile.surface)
            })
            .map(|(index, _)| Issue::new(format!("tiles[{index}].surface"), SURFACE_ONCE))
            .collect();
        issues.extend(check_embedded_body("body", &self.body, cx.walker()));
        issues
    }

    /// Text: `[a composition on N surfaces]`, `surface: caption` per tile,
    /// a blank line, then the body's text indented two spaces.
    fn text(&self, scope: &Scope<'_>) -> String {
        join_blocks([
            join_lines([format!("[{}]", self.heading()), self.tiles().text()]),
            body_text(scope, &self.body),
        ])
    }

    /// Markdown: the heading in italics, a `- **surface**: caption` list,
    /// then the body's Markdown as a blockquote.
    fn markdown(&self, scope: &Scope<'_>) -> Markdown {
        Markdown::paragraph(Inline::emphasis(self.heading()))
            .then(self.tiles().markdown())
            .then(body_markdown(scope, &self.body))
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide-render-grid slide-render-grid-N">` (N the
    /// tile count) with one `<figure class="slide-render-tile">` per tile:
    /// the body as that tile's surface shows it ([`body_html`]), then a
    /// `<figcaption>` of the surface's name and the caption.
    fn html(&self, scope: &Scope<'_>) -> Html {
        let tiles = self.tiles.iter().map(|tile| {
            classed(
                "figure",
                "slide-render-tile",
                body_html(scope, &self.body, tile.surface).then(classed(
                    "figcaption",
                    "slide-render-caption",
                    Html::element("strong", &[], Html::text(tile.surface.name()))
                        .then(Html::text(" "))
                        .then(line_html(&tile.caption)),
                )),
            )
        });
        classed(
            "div",
            &format!("slide-render-grid slide-render-grid-{}", self.tiles.len()),
            Html::concat(tiles),
        )
    }

    /// Tiles two or three to a row: two at 0.42 of the slide's size (806 ×
    /// 454 px), three at 0.27 (518 × 292), four to six at 0.21 (403 × 227).
    const CSS: &'static str = include_str!("slide_render_grid.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: a `context` with one `*surface* caption` element per tile,
    /// then the body's blocks (headers turned into bold sections).
    fn slack(&self, scope: &Scope<'_>) -> Vec<Value> {
        let elements: Vec<Value> = self
            .tiles
            .iter()
            .map(|t| {
                let text = format!("*{}* {}", t.surface.name(), text_mrkdwn(&t.caption));
                json!({ "type": "mrkdwn", "text": clamp_text(&text, SLACK_SECTION_LIMIT) })
            })
            .collect();
        let mut blocks = vec![json!({ "type": "context", "elements": elements })];
        blocks.extend(body_slack(scope, &self.body));
        blocks
    }
}
