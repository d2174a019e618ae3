//! `slideTable`: a headed grid of short cells, optionally in named groups.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::LineText;
use crate::check::Issue;
use crate::html::{classed, line_html};
use crate::markdown::caption_paragraph;
use crate::primitives::SlideNode;
use crate::slack::{bold_cell, caption_blocks, raw_cell, table_block};
use crate::table::{TextRow, text_table_rows};
use crate::text::{caption, join_lines, line};

/// The most rows a table holds, across all its groups.
pub const MAX_ROWS: usize = 12;

/// The message when both or neither of `rows` and `groups` are given.
pub const ROWS_OR_GROUPS: &str = "give exactly one of rows or groups";
/// The message when the groups hold more than [`MAX_ROWS`] rows in total.
pub const TOO_MANY_GROUP_ROWS: &str = "a table holds at most 12 rows across its groups";

/// The message for a row whose cell count differs from the column count.
pub fn cells_per_row(columns: usize) -> String {
    format!("every row needs one cell per column ({columns})")
}

slide_node! {
    catalog "slideTable" in "Numbers" {
        purpose: "A grid of short cells under one to six column heads, with up to twelve rows, optionally in named groups.",
        use_when: [
            "Several items compared across the same two to six attributes.",
            "Items that fall into named groups.",
        ],
        avoid_when: [
            "More than twelve rows: split the table across two slides.",
            "Cells that are yes, partial or no: use slideMatrix.",
        ],
        example: {
            "type": "slideTable",
            "label": "Settlement by region",
            "columns": ["Region", "Cut-off", "Banks"],
            "rowHeaders": true,
            "rows": [
                ["EU", "02:00 UTC", "14"],
                ["UK", "03:00 UTC", "6"],
                ["US", "07:00 UTC", "21"]
            ]
        },
    }

    /// The fields of a `slideTable` node.
    pub struct SlideTable {
        /// A caption over the table (printed upper-case).
        pub label: Option<LineText>,
        /// One to six column heads (printed upper-case).
        #[schemars(length(min = 1, max = 6))]
        pub columns: Vec<LineText>,
        /// True when the first cell of each row names the row (set bold).
        pub row_headers: Option<bool>,
        /// Up to twelve rows, each with one cell per column. Give rows or
        /// groups, not both.
        #[schemars(length(min = 1, max = 12))]
        pub rows: Option<Vec<Vec<LineText>>>,
        /// Rows in named groups, at most twelve rows in all. Give rows or
        /// groups, not both.
        #[schemars(length(min = 1, max = 12))]
        pub groups: Option<Vec<TableGroup>>,
    }

    /// A named group of rows.
    pub struct TableGroup {
        /// The group's name, printed as a row above its rows.
        pub label: LineText,
        /// The group's rows, each with one cell per column.
        #[schemars(length(min = 1))]
        pub rows: Vec<Vec<LineText>>,
    }
}

impl SlideTable {
    /// The rows as `(group label, rows)` sections; one unnamed section for
    /// plain rows.
    fn sections(&self) -> Vec<(Option<&LineText>, &[Vec<LineText>])> {
        let mut sections: Vec<(Option<&LineText>, &[Vec<LineText>])> = Vec::new();
        if let Some(rows) = &self.rows {
            sections.push((None, rows));
        }
        for group in self.groups.iter().flatten() {
            sections.push((Some(&group.label), &group.rows));
        }
        sections
    }
}

impl SlideNode for SlideTable {
    /// Exactly one of `rows` / `groups`; one cell per column in every row;
    /// at most twelve rows across groups.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = Vec::new();
        if self.rows.is_some() == self.groups.is_some() {
            issues.push(Issue::new("", ROWS_OR_GROUPS));
        }
        let columns = self.columns.len();
        let mut check_rows = |prefix: String, rows: &[Vec<LineText>]| {
            for (index, row) in rows.iter().enumerate() {
                if row.len() != columns {
                    issues.push(Issue::new(
                        format!("{prefix}[{index}]"),
                        cells_per_row(columns),
                    ));
                }
            }
        };
        if let Some(rows) = &self.rows {
            check_rows("rows".to_owned(), rows);
        }
        if let Some(groups) = &self.groups {
            for (index, group) in groups.iter().enumerate() {
                check_rows(format!("groups[{index}].rows"), &group.rows);
            }
            if groups.iter().map(|g| g.rows.len()).sum::<usize>() > MAX_ROWS {
                issues.push(Issue::new("groups", TOO_MANY_GROUP_ROWS));
            }
        }
        issues
    }

    /// Text: the `LABEL` line, then one padded table under upper-cased
    /// heads; each group's label is an upper-cased line of its own before
    /// its rows, which widens no column.
    fn text(&self, _scope: &Scope<'_>) -> String {
        let header: Vec<String> = self.columns.iter().map(|c| caption(c)).collect();
        let sections: Vec<(Option<String>, Vec<Vec<String>>)> = self
            .sections()
            .into_iter()
            .map(|(label, rows)| {
                let rows = rows
                    .iter()
                    .map(|row| row.iter().map(|c| line(c).into_owned()).collect())
                    .collect();
                (label.map(|l| caption(l)), rows)
            })
            .collect();
        let mut rows = Vec::new();
        for (label, cells) in &sections {
            rows.extend(label.as_deref().map(TextRow::Line));
            rows.extend(cells.iter().map(|row| TextRow::Cells(row)));
        }
        join_lines([
            self.label.as_deref().map(caption).unwrap_or_default(),
            text_table_rows(&header, &rows),
        ])
    }

    /// Markdown: the `**LABEL**` paragraph, then per group a `**GROUP**`
    /// paragraph (upper-cased) and a GFM table (one table for plain rows)
    /// under upper-cased heads; with `rowHeaders` the first cell of each row
    /// is bold.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let header: Vec<Inline> = self
            .columns
            .iter()
            .map(|c| Inline::text(caption(c)))
            .collect();
        let mut out = caption_paragraph(self.label.as_deref());
        for (label, section) in self.sections() {
            if let Some(label) = label {
                out.push(Markdown::paragraph(Inline::strong(caption(label))));
            }
            let rows: Vec<Vec<Inline>> = section
                .iter()
                .map(|row| {
                    row.iter()
                        .enumerate()
                        .map(|(index, cell)| {
                            if index == 0 && self.row_headers == Some(true) {
                                Inline::strong(cell.as_str())
                            } else {
                                Inline::text(cell.as_str())
                            }
                        })
                        .collect()
                })
                .collect();
            out.push(Markdown::table(header.clone(), rows));
        }
        out
    }

    const NATIVE_HTML: bool = true;

    /// HTML: one `<table class="slide-table">`: the label as its
    /// `<caption>`, a `<thead>` row of `<th scope="col">` heads, then one
    /// `<tbody>` per group (one for plain rows) opening with the group's
    /// label as a `<th scope="rowgroup">` spanning every column; with
    /// `rowHeaders` a row's first cell is a `<th scope="row">`. Heads,
    /// caption and group labels are upper-cased by the stylesheet.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let columns = self.columns.len().to_string();
        let mut table = Html::new();
        if let Some(label) = &self.label {
            table.push(Html::element("caption", &[], line_html(label)));
        }
        table.push(Html::element(
            "thead",
            &[],
            Html::element(
                "tr",
                &[],
                Html::concat(
                    self.columns
                        .iter()
                        .map(|column| Html::element("th", &[("scope", "col")], line_html(column))),
                ),
            ),
        ));
        for (label, rows) in self.sections() {
            let mut body = Html::new();
            if let Some(label) = label {
                body.push(classed(
                    "tr",
                    "slide-table-group",
                    Html::element(
                        "th",
                        &[("scope", "rowgroup"), ("colspan", &columns)],
                        line_html(label),
                    ),
                ));
            }
            for row in rows {
                body.push(Html::element(
                    "tr",
                    &[],
                    Html::concat(row.iter().enumerate().map(|(index, cell)| {
                        if index == 0 && self.row_headers == Some(true) {
                            Html::element(
                                "th",
                                &[("scope", "row"), ("class", "slide-table-row-head")],
                                line_html(cell),
                            )
                        } else {
                            Html::element("td", &[], line_html(cell))
                        }
                    })),
                ));
            }
            table.push(Html::element("tbody", &[], body));
        }
        classed("table", "slide-table", table)
    }

    /// The white grid (1.5 px border, 10 px corners), its head on the
    /// table-head fill in 24 px bold upper-case, cells 30 px with 16 × 24
    /// padding and row dividers, row headers bold in the text colour.
    const CSS: &'static str = include_str!("slide_table.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: the caption as a `context` `*LABEL*`, then one native `table`
    /// block ([`table_block`]): a header row of upper-cased heads, a group's
    /// upper-cased label as a row of one bold cell and empty cells, body
    /// cells as `raw_text` (the first bold with `rowHeaders`), every column
    /// wrapped.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let columns = self.columns.len();
        let mut rows = vec![
            self.columns
                .iter()
                .map(|c| raw_cell(&caption(c)))
                .collect::<Vec<_>>(),
        ];
        for (label, section_rows) in self.sections() {
            if let Some(label) = label {
                let mut row = vec![bold_cell(&caption(label))];
                row.extend((1..columns).map(|_| raw_cell("")));
                rows.push(row);
            }
            for cells in section_rows {
                rows.push(
                    cells
                        .iter()
                        .enumerate()
                        .map(|(index, cell)| {
                            if index == 0 && self.row_headers == Some(true) {
                                bold_cell(&line(cell))
                            } else {
                                raw_cell(&line(cell))
                            }
                        })
                        .collect(),
                );
            }
        }
        let mut blocks = caption_blocks(self.label.as_deref());
        blocks.push(table_block(columns, rows));
        blocks
    }
}
