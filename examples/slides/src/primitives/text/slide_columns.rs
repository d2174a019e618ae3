//! `slideColumns`: two to four parallel options, one optionally
//! recommended.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope};

use crate::authored::{CURRENT_GLYPH, LineText, WrappedText, display_columns};
use crate::check::Issue;
use crate::html::{classed, line_html, marks_html, size_class};
use crate::list::{row_load, size_for_load};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::text::{join_blocks, join_lines, line, plain_text};

/// The message for a `highlight` that names no column.
pub const HIGHLIGHT_NOT_AN_INDEX: &str = "must be an index into `items`";

slide_node! {
    catalog "slideColumns" in "Text" {
        purpose: "Two to four parallel options side by side, each with a name, tags and a sentence; one can be marked as recommended.",
        use_when: [
            "Comparing approaches, tiers or strategies that each fit a name, a few tags and a sentence.",
            "One remark qualifies every option: the footnote.",
            "One option is the recommendation: highlight.",
        ],
        avoid_when: [
            "Exactly two sides that each hold nodes: use slideSplit.",
            "Who owns what: use slideTerritoryGroup.",
            "Terms and meanings: use slideDefinitions.",
            "A single list: use slideList.",
            "The same attributes compared cell by cell: use slideTable.",
            "Inside a slideSplit pane: there is no room; use slideList there.",
        ],
        example: {
            "type": "slideColumns",
            "items": [
                { "title": "On demand", "tags": ["per refund"], "body": "Pays at once, but every refund is its own transfer." },
                { "title": "Nightly", "tags": ["batch", "02:00 UTC"], "body": "One transfer a night; **cheapest** per refund." }
            ],
            "highlight": 1,
            "footnote": { "code": "SETTLE_MODE", "text": "switches a region between the two." }
        },
    }

    /// The fields of a `slideColumns` node.
    pub struct SlideColumns sized {
        /// Two to four options, side by side.
        #[schemars(length(min = 2, max = 4))]
        pub items: Vec<Column>,
        /// The index (from 0) of the recommended option.
        #[schemars(range(min = 0))]
        pub highlight: Option<u64>,
        /// A remark under all the columns.
        pub footnote: Option<ColumnsFootnote>,
    }

    /// One option.
    pub struct Column {
        /// The option's name.
        pub title: LineText,
        /// Up to six short chips under the name (set in mono).
        #[schemars(length(min = 1, max = 6))]
        pub tags: Option<Vec<LineText>>,
        /// One or two sentences on the option. Accepts inline marks.
        pub body: WrappedText,
    }

    /// A remark that qualifies every column.
    pub struct ColumnsFootnote {
        /// An identifier the remark is about (set in mono).
        pub code: LineText,
        /// The remark. Accepts inline marks.
        pub text: WrappedText,
    }
}

impl SlideColumns {
    /// `● ` before the recommended column.
    fn glyph(&self, index: usize) -> &'static str {
        if self.highlight == Some(index as u64) {
            CURRENT_GLYPH
        } else {
            ""
        }
    }
}

/// The largest load (the longest column's characters times the number of
/// columns, plus the footnote's) the `l` and `m` steps hold (upstream's
/// columns fit).
const COLUMNS_FIT: [usize; 2] = [400, 520];

impl SlideNode for SlideColumns {
    /// `highlight` is an index into `items`.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        match self.highlight {
            Some(index) if index >= self.items.len() as u64 => {
                vec![Issue::new("highlight", HIGHLIGHT_NOT_AN_INDEX)]
            }
            _ => Vec::new(),
        }
    }

    /// Text: per column `[● ]Title (tag, tag)` then its body; columns apart
    /// by blank lines; the footnote `code text` last. `● ` marks the
    /// recommended column.
    fn text(&self, _scope: &Scope<'_>) -> String {
        let mut blocks: Vec<String> = self
            .items
            .iter()
            .enumerate()
            .map(|(index, column)| {
                let mut head = format!("{}{}", self.glyph(index), line(&column.title));
                if let Some(tags) = &column.tags {
                    let tags: Vec<_> = tags.iter().map(|t| line(t)).collect();
                    head.push_str(&format!(" ({})", tags.join(", ")));
                }
                join_lines([head.into(), plain_text(&column.body)])
            })
            .collect();
        if let Some(footnote) = &self.footnote {
            blocks.push(format!(
                "{} {}",
                line(&footnote.code),
                plain_text(&footnote.text)
            ));
        }
        join_blocks(blocks)
    }

    /// Markdown: per column `## [● ]title`, the tags as code spans, the
    /// body; the footnote as `` `code` text``.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let mut out = Markdown::new();
        for (index, column) in self.items.iter().enumerate() {
            out.push(Markdown::heading(
                2,
                format!("{}{}", self.glyph(index), line(&column.title)),
            ));
            if let Some(tags) = &column.tags {
                out.push(Markdown::paragraph(Inline::join(
                    tags.iter().map(|t| Inline::code(t.as_str())),
                    " ",
                )));
            }
            out.push(Markdown::paragraph(marks_inline(&column.body)));
        }
        if let Some(footnote) = &self.footnote {
            out.push(Markdown::paragraph(
                Inline::code(footnote.code.as_str())
                    .then(" ")
                    .then(marks_inline(&footnote.text)),
            ));
        }
        out
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_columns.css");

    /// HTML: `<div class="slide-columns-group slide-size-…">` holding the
    /// row `<div class="slide-columns">`, one equal
    /// `<div class="slide-column">` per option side by side, ruled apart
    /// (the recommended one also `slide-column-highlight`, its title in
    /// primary with a disc instead of a `●`): the title as `<h2>`, the
    /// tags as mono `<code>` chips in `<p class="slide-tags">`, the body
    /// as `<p>`; the footnote under the row, over a rule, as
    /// `<p class="slide-footnote">` (`<code>` then text). The size step is
    /// the author's, else picked from the longest column's text times the
    /// number of columns, plus the footnote.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let columns = Html::concat(self.items.iter().enumerate().map(|(index, column)| {
            let mut body = Html::element("h2", &[], line_html(&column.title));
            if let Some(tags) = &column.tags {
                body.push(classed(
                    "p",
                    "slide-tags",
                    Html::concat(
                        tags.iter()
                            .map(|tag| Html::element("code", &[], line_html(tag))),
                    ),
                ));
            }
            body.push(Html::element("p", &[], marks_html(&column.body)));
            let class = if self.glyph(index).is_empty() {
                "slide-column"
            } else {
                "slide-column slide-column-highlight"
            };
            classed("div", class, body)
        }));
        let mut out = classed("div", "slide-columns", columns);
        if let Some(footnote) = &self.footnote {
            out.push(classed(
                "p",
                "slide-footnote",
                Html::element("code", &[], line_html(&footnote.code))
                    .then(Html::text(" "))
                    .then(marks_html(&footnote.text)),
            ));
        }
        let footnote = self.footnote.as_ref().map_or(0, |footnote| {
            display_columns(&footnote.code) + display_columns(&plain_text(&footnote.text))
        });
        let load = row_load(self.items.iter().map(|column| {
            std::iter::once(column.title.as_str())
                .chain(column.tags.iter().flatten().map(|tag| tag.as_str()))
                .chain(std::iter::once(column.body.as_str()))
        })) + footnote;
        let size = size_for_load(self.size, load, COLUMNS_FIT);
        classed(
            "div",
            &format!("slide-columns-group {}", size_class(size)),
            out,
        )
    }
}
