//! `slideRoadmap`: planned work by horizon, two to four columns with the
//! stage under way marked (group "Text").

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use crate::authored::{CURRENT_GLYPH, LineText, WrappedText};
use crate::check::{Issue, at_most_one};
use crate::html::{classed, line_html, marks_html, size_class};
use crate::list::{Entry, List, TextMarker, row_load, size_for_load};
use crate::primitives::SlideNode;
use crate::slack::{bold_mark_runs, bold_run, mark_runs, rich_list_under, run};
use crate::text::{SEPARATOR, caption, join_blocks, join_lines, line, plain_text};
use isomer_sdk::surface::slack::spacer;

/// The message when two columns are current.
pub const ONE_CURRENT_COLUMN: &str = "at most one column can be current";

slide_node! {
    catalog "slideRoadmap" in "Text" {
        purpose: "Planned work in two to four horizons (Now, Next, Later or quarters), each with a status and up to four named pieces of work, the horizon under way marked.",
        use_when: [
            "Plans by horizon, each holding named work with a sentence on what it delivers.",
            "Showing which stage of a plan is under way now (current).",
        ],
        avoid_when: [
            "Past events with dates: use slideTimeline.",
            "Columns split by owner rather than by time: use slideTerritoryGroup.",
            "Ordered steps of one process: use slidePipeline.",
        ],
        example: {
            "type": "slideRoadmap",
            "columns": [
                {
                    "title": "Now", "status": "Shipping", "current": true,
                    "items": [{ "title": "Nightly batch", "body": "Refunds settle **once a night**." }]
                },
                {
                    "title": "Next", "status": "Designing",
                    "items": [
                        { "title": "Partner reports", "body": "Partners see their own payouts." },
                        { "title": "Retry window", "body": "Failed payouts retry until 06:00." }
                    ]
                },
                {
                    "title": "Later", "status": "Exploring",
                    "items": [{ "title": "Instant refunds", "body": "Card refunds in seconds." }]
                }
            ]
        },
    }

    /// The fields of a `slideRoadmap` node.
    pub struct SlideRoadmap sized {
        /// Two to four horizons, soonest first.
        #[schemars(length(min = 2, max = 4))]
        pub columns: Vec<RoadmapColumn>,
    }

    /// One piece of planned work.
    pub struct RoadmapItem {
        /// The work's name, a few words. Accepts inline marks.
        pub title: LineText,
        /// What it delivers, one sentence. Accepts inline marks.
        pub body: WrappedText,
    }

    /// One horizon of the roadmap.
    pub struct RoadmapColumn {
        /// The horizon, e.g. "Now", "Next", "Q3" (printed as authored).
        pub title: LineText,
        /// Where the work stands, e.g. "Shipping" (printed upper-case).
        pub status: LineText,
        /// True for the horizon under way now; at most one column.
        pub current: Option<bool>,
        /// One to four pieces of work.
        #[schemars(length(min = 1, max = 4))]
        pub items: Vec<RoadmapItem>,
    }
}

/// What joins an item's title and body on every string surface: `: `.
const ITEM_JOIN: &str = ": ";

impl RoadmapColumn {
    /// The column's work as a list: `- title: body` (the title bold on
    /// Markdown and Slack, its marks removed since it is bold as a whole).
    fn list(&self) -> List {
        List::new(
            self.items
                .iter()
                .map(|item| Entry::pair(&plain_text(&item.title), ITEM_JOIN, Some(&item.body))),
        )
        .marked(TextMarker::Dash)
    }

    /// `[● ]Title · STATUS`, the current column marked.
    fn heading(&self) -> String {
        let glyph = if self.current == Some(true) {
            CURRENT_GLYPH
        } else {
            ""
        };
        format!(
            "{glyph}{}{SEPARATOR}{}",
            line(&self.title),
            caption(&self.status)
        )
    }
}

/// The largest load ([`row_load`] of each column's item titles and
/// bodies) the `l` and `m` steps hold (upstream's roadmap fit).
const ROADMAP_FIT: [usize; 2] = [440, 500];

impl SlideNode for SlideRoadmap {
    /// At most one column is current.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        at_most_one(
            "columns",
            self.columns.iter().map(|c| c.current),
            ONE_CURRENT_COLUMN,
        )
    }

    /// Text: per column `[● ]Title · STATUS`, then `- title: body` lines;
    /// columns apart by a blank line.
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_blocks(
            self.columns
                .iter()
                .map(|column| join_lines([column.heading(), column.list().text()])),
        )
    }

    /// Markdown: per column `## [● ]Title · STATUS`, then a
    /// `- **title**: body` list.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::concat(
            self.columns.iter().map(|column| {
                Markdown::heading(2, column.heading()).then(column.list().markdown())
            }),
        )
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_roadmap.css");

    /// HTML: `<ol class="slide-roadmap slide-size-…">` with one `<li>` per
    /// horizon, side by side and ruled apart (`aria-current="step"` on the
    /// current one, which draws a primary bar over its title): the title
    /// as `<h2>`, the status as `<span class="slide-roadmap-status">`
    /// (upper-cased by the stylesheet), then a `<ul>` of the work, each
    /// `<li>` a bold title `<strong>` and a body `<span>`. The size step is
    /// the author's, else picked from the longest column's text times the
    /// number of columns.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let size = size_for_load(
            self.size,
            row_load(self.columns.iter().map(|column| {
                column
                    .items
                    .iter()
                    .flat_map(|item| [item.title.as_str(), item.body.as_str()])
            })),
            ROADMAP_FIT,
        );
        let columns = Html::concat(self.columns.iter().map(|column| {
            let items = Html::concat(column.items.iter().map(|item| {
                Html::element(
                    "li",
                    &[],
                    Html::element("strong", &[], marks_html(&item.title))
                        .then(Html::text(" "))
                        .then(Html::element("span", &[], marks_html(&item.body))),
                )
            }));
            let content = Html::element("h2", &[], line_html(&column.title))
                .then(classed(
                    "span",
                    "slide-roadmap-status",
                    line_html(&column.status),
                ))
                .then(Html::element("ul", &[], items));
            if column.current == Some(true) {
                Html::element("li", &[("aria-current", "step")], content)
            } else {
                Html::element("li", &[], content)
            }
        }));
        Html::element(
            "ol",
            &[("class", &format!("slide-roadmap {}", size_class(size)))],
            columns,
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: one `rich_text` per column (a bold heading section, then a
    /// bullet list of the title as bold runs, one per authored mark segment
    /// and never merged ([`bold_mark_runs`]), `: `, the body's runs), a
    /// spacer section between columns.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = Vec::new();
        for (index, column) in self.columns.iter().enumerate() {
            if index > 0 {
                blocks.push(spacer());
            }
            let items = column
                .items
                .iter()
                .map(|item| {
                    let mut runs = bold_mark_runs(&item.title, str::to_owned);
                    runs.push(run(ITEM_JOIN));
                    runs.extend(mark_runs(&item.body));
                    runs
                })
                .collect();
            blocks.push(rich_list_under(
                vec![bold_run(&column.heading())],
                "bullet",
                items,
            ));
        }
        blocks
    }
}
