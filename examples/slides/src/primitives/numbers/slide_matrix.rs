//! `slideMatrix`: yes / partial / no marks for each row against each
//! column (group "Numbers").
//!
//! Marks read `Yes`, `Partial` and `No` on the string surfaces. The
//! reference does not record how they mark the highlighted column; this
//! pack puts the `● ` glyph before its head, as it marks the current item
//! elsewhere. The `legend` explains the drawn marks on the slide; the
//! string surfaces print the words, which need no legend.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::authored::{CURRENT_GLYPH, LineText, Size};
use crate::check::Issue;
use crate::html::{classed, marks_html, size_class};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{bold_cell, raw_cell, table_block};
use crate::table::text_table;
use crate::text::plain_text;

/// The message for a highlight that names no column.
pub const HIGHLIGHT_INDEX: &str = "must be an index into `columns`";

/// The message for a row whose mark count differs from the column count.
pub fn marks_per_row(columns: usize) -> String {
    format!("every row needs one mark per column ({columns})")
}

/// How far a row meets a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum MatrixMark {
    /// Fully: printed `Yes`.
    Full,
    /// In part: printed `Partial`.
    Partial,
    /// Not at all: printed `No`.
    None,
}

impl MatrixMark {
    /// The word string surfaces print for the mark.
    pub fn word(self) -> &'static str {
        match self {
            MatrixMark::Full => "Yes",
            MatrixMark::Partial => "Partial",
            MatrixMark::None => "No",
        }
    }

    /// The class of the drawn mark: a full disc, a half-filled ring, a
    /// dash.
    fn class(self) -> &'static str {
        match self {
            MatrixMark::Full => "slide-matrix-full",
            MatrixMark::Partial => "slide-matrix-partial",
            MatrixMark::None => "slide-matrix-none",
        }
    }

    /// The drawn mark: `<span class="slide-matrix-mark slide-matrix-full">`
    /// (a partial ring holds a `slide-matrix-half` span, its filled half),
    /// named by its word (`role="img"`, `aria-label`) in a cell and hidden
    /// from assistive technology in the legend, where the word follows it.
    fn html(self, legend: bool, highlighted: bool) -> Html {
        let mut class = format!("slide-matrix-mark {}", self.class());
        if highlighted {
            class.push_str(" slide-matrix-mark-highlight");
        }
        let inner = if self == MatrixMark::Partial {
            classed("span", "slide-matrix-half", Html::new())
        } else {
            Html::new()
        };
        if legend {
            Html::element("span", &[("class", &class), ("aria-hidden", "true")], inner)
        } else {
            Html::element(
                "span",
                &[
                    ("class", &class),
                    ("role", "img"),
                    ("aria-label", self.word()),
                ],
                inner,
            )
        }
    }
}

slide_node! {
    catalog "slideMatrix" in "Numbers" {
        purpose: "Two to six options across the top and up to eight capabilities down the side, each cell marked full, partial or none, the recommended option's column optionally highlighted.",
        use_when: [
            "Options against capabilities where each answer is yes, partly or no, and the gaps matter.",
            "Showing the recommended option among the others: highlight its column.",
        ],
        avoid_when: [
            "Cells holding numbers or phrases: use slideTable.",
            "A sentence per option: use slideColumns.",
        ],
        example: {
            "type": "slideMatrix",
            "columns": ["Nightly batch", "Instant", "Manual"],
            "rows": [
                { "label": "Card refunds", "marks": ["full", "full", "partial"] },
                { "label": "Bank refunds", "marks": ["full", "none", "full"] },
                { "label": "Audit trail", "marks": ["full", "partial", "none"] }
            ],
            "highlight": 0
        },
    }

    /// The fields of a `slideMatrix` node.
    pub struct SlideMatrix sized {
        /// Two to six options, one per column, set in mono. Accept inline
        /// marks.
        #[schemars(length(min = 2, max = 6))]
        pub columns: Vec<LineText>,
        /// One to eight capabilities, one per row.
        #[schemars(length(min = 1, max = 8))]
        pub rows: Vec<MatrixRow>,
        /// The index of the column to stress: the recommended option.
        #[schemars(range(min = 0))]
        pub highlight: Option<u32>,
        /// Whether the slide shows a legend of the marks (default true).
        pub legend: Option<bool>,
    }

    /// One row: a capability and how far each option meets it.
    pub struct MatrixRow {
        /// The capability, a few words. Accepts inline marks.
        pub label: LineText,
        /// One mark per column, in column order: "full", "partial" or "none".
        pub marks: Vec<MatrixMark>,
    }
}

impl SlideMatrix {
    /// The column heads, plain, the highlighted one marked `● `.
    fn heads(&self) -> Vec<String> {
        self.columns
            .iter()
            .enumerate()
            .map(|(index, column)| {
                if self.highlight == Some(index as u32) {
                    format!("{CURRENT_GLYPH}{}", plain_text(column))
                } else {
                    plain_text(column).into_owned()
                }
            })
            .collect()
    }

    fn words(row: &MatrixRow) -> impl Iterator<Item = String> + '_ {
        row.marks.iter().map(|m| m.word().to_owned())
    }
}

impl SlideMatrix {
    /// The size step: the authored one, else by row count: `l` up to four
    /// rows, `m` up to five, `s` past that (upstream `matrixFit`).
    fn step(&self) -> Size {
        self.size.unwrap_or(match self.rows.len() {
            0..=4 => Size::L,
            5 => Size::M,
            _ => Size::S,
        })
    }
}

impl SlideNode for SlideMatrix {
    /// One mark per column in every row; `highlight` names a column.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let columns = self.columns.len();
        let mut issues: Vec<Issue> = self
            .rows
            .iter()
            .enumerate()
            .filter(|(_, row)| row.marks.len() != columns)
            .map(|(index, _)| Issue::new(format!("rows[{index}].marks"), marks_per_row(columns)))
            .collect();
        if self.highlight.is_some_and(|h| h as usize >= columns) {
            issues.push(Issue::new("highlight", HIGHLIGHT_INDEX));
        }
        issues
    }

    /// Text: a padded table with an empty corner, the column heads, a row
    /// of dashes, then per row its label and `Yes` / `Partial` / `No`.
    fn text(&self, _scope: &Scope<'_>) -> String {
        let mut header = vec![String::new()];
        header.extend(self.heads());
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|row| {
                std::iter::once(plain_text(&row.label).into_owned())
                    .chain(Self::words(row))
                    .collect()
            })
            .collect();
        text_table(&header, &rows)
    }

    /// Markdown: a GFM table with an empty corner, the column heads (marks
    /// kept; the highlighted one `**● head**`, bold), the row labels (marks
    /// kept) and the mark words.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let mut head = vec![Inline::default()];
        head.extend(self.columns.iter().enumerate().map(|(index, column)| {
            if self.highlight == Some(index as u32) {
                Inline::strong(Inline::text(CURRENT_GLYPH).then(marks_inline(column)))
            } else {
                marks_inline(column)
            }
        }));
        let rows = self
            .rows
            .iter()
            .map(|row| {
                std::iter::once(marks_inline(&row.label))
                    .chain(Self::words(row).map(Inline::text))
                    .collect()
            })
            .collect();
        Markdown::table(head, rows)
    }

    const NATIVE_HTML: bool = true;

    /// HTML, as upstream draws it: `<div class="slide-matrix slide-size-…">`
    /// holding one `<table>`: a head row of an empty corner cell and a
    /// `<th scope="col">` per option (the highlighted one after a primary
    /// disc), then per capability a `<th scope="row">` and one cell per
    /// option holding its drawn mark ([`MatrixMark`]: disc, half ring,
    /// dash), the highlighted column's cells in a tinted band. With
    /// `legend` (the default) a `<ul class="slide-matrix-legend">` follows,
    /// naming each mark the rows use, in the order full, partial, none
    /// (none when the rows use no mark).
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let highlight = self.highlight.map(|h| h as usize);
        let mut head = Html::element("td", &[], Html::new());
        for (index, column) in self.columns.iter().enumerate() {
            if highlight == Some(index) {
                head.push(Html::element(
                    "th",
                    &[("scope", "col"), ("class", "slide-matrix-highlight")],
                    Html::element(
                        "span",
                        &[("class", "slide-matrix-cue"), ("aria-hidden", "true")],
                        Html::new(),
                    )
                    .then(marks_html(column)),
                ));
            } else {
                head.push(Html::element("th", &[("scope", "col")], marks_html(column)));
            }
        }
        let body = Html::concat(self.rows.iter().map(|row| {
            let mut cells = Html::element("th", &[("scope", "row")], marks_html(&row.label));
            for (index, mark) in row.marks.iter().enumerate() {
                let highlighted = highlight == Some(index);
                let cell = mark.html(false, highlighted);
                cells.push(if highlighted {
                    classed("td", "slide-matrix-band", cell)
                } else {
                    Html::element("td", &[], cell)
                });
            }
            Html::element("tr", &[], cells)
        }));
        let table = Html::element(
            "table",
            &[],
            Html::element("thead", &[], Html::element("tr", &[], head)).then(Html::element(
                "tbody",
                &[],
                body,
            )),
        );
        let mut out = table;
        let used: Vec<MatrixMark> = [MatrixMark::Full, MatrixMark::Partial, MatrixMark::None]
            .into_iter()
            .filter(|kind| self.rows.iter().any(|row| row.marks.contains(kind)))
            .collect();
        if self.legend != Some(false) && !used.is_empty() {
            out.push(classed(
                "ul",
                "slide-matrix-legend",
                Html::concat(used.into_iter().map(|kind| {
                    Html::element(
                        "li",
                        &[],
                        kind.html(true, false).then(Html::text(kind.word())),
                    )
                })),
            ));
        }
        classed(
            "div",
            &format!("slide-matrix {}", size_class(self.step())),
            out,
        )
    }

    /// The grid: a 340 px bold label column, mono heads, 28 px marks (a
    /// disc, a 3 px ring half filled, a 24 × 3 px dash) in the text colour,
    /// primary in the highlighted column's tinted band, 2 px row rules and
    /// a legend of 24 px marks.
    const CSS: &'static str = include_str!("slide_matrix.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: one native `table` block ([`table_block`]) of `raw_text`
    /// cells (an empty corner cell), the highlighted column's head a bold
    /// `rich_text` cell, every column wrapped.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let mut header = vec![raw_cell("")];
        header.extend(self.heads().iter().enumerate().map(|(index, head)| {
            if self.highlight == Some(index as u32) {
                bold_cell(head)
            } else {
                raw_cell(head)
            }
        }));
        let mut rows = vec![header];
        rows.extend(self.rows.iter().map(|row| {
            std::iter::once(raw_cell(&plain_text(&row.label)))
                .chain(Self::words(row).map(|w| raw_cell(&w)))
                .collect()
        }));
        vec![table_block(self.columns.len() + 1, rows)]
    }
}
