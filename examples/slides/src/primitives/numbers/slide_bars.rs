//! `slideBars`: comparable amounts as horizontal bars, at most one
//! highlighted.

use isomer_sdk::RefineContext;
use isomer_sdk::js_parity::format_js_number;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, Size, current_glyph};
use crate::check::{Issue, at_most_one};
use crate::html::{classed, marks_html, size_class};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{bold_cell, raw_cell, table_block};
use crate::table::text_table;
use crate::text::plain_text;

/// The message for a `max` below some value.
pub const MAX_BELOW_VALUE: &str = "max must be at least every value";
/// The message for two highlighted bars.
pub const ONE_HIGHLIGHT: &str = "at most one bar can be highlighted";

/// The share of the line the longest bar fills, in percent: the rest
/// leaves room for its value (upstream `barMaxShare`, 85 %).
pub const BAR_MAX_SHARE: f64 = 85.0;

/// The column heads of the string-surface table.
const HEADS: [&str; 3] = ["Label", "Value", "Detail"];

slide_node! {
    catalog "slideBars" in "Numbers" {
        purpose: "Two to six amounts in one unit drawn as horizontal bars, with at most one highlighted.",
        use_when: [
            "Ranking or comparing amounts that share a unit.",
            "One amount stands out from the rest: highlight it.",
        ],
        avoid_when: [
            "A few numbers to remember: use slideStats.",
            "One measure before and after a change: use slideDelta.",
        ],
        example: {
            "type": "slideBars",
            "items": [
                { "label": "Nightly batch", "value": 1, "detail": "1 day", "highlight": true },
                { "label": "Weekly batch", "value": 4, "detail": "4 days" },
                { "label": "On demand", "value": 5, "detail": "5 days" }
            ]
        },
    }

    /// The fields of a `slideBars` node.
    pub struct SlideBars sized {
        /// Two to six bars, in the order to draw them.
        #[schemars(length(min = 2, max = 6))]
        pub items: Vec<Bar>,
        /// The amount a full-length bar stands for; at least every value.
        /// Leave it out to scale to the largest value.
        #[schemars(extend("exclusiveMinimum" = 0))]
        pub max: Option<f64>,
    }

    /// One bar.
    pub struct Bar {
        /// What the bar measures. Accepts inline marks.
        pub label: LineText,
        /// The amount, zero or more, in the unit every bar shares.
        #[schemars(range(min = 0))]
        pub value: f64,
        /// A short note after the value, e.g. the formatted amount. Accepts
        /// inline marks.
        pub detail: Option<LineText>,
        /// True for the bar that stands out; at most one.
        pub highlight: Option<bool>,
    }
}

impl SlideBars {
    fn with_detail(&self) -> bool {
        self.items.iter().any(|bar| bar.detail.is_some())
    }

    fn heads(&self) -> &'static [&'static str] {
        if self.with_detail() {
            &HEADS
        } else {
            &HEADS[..2]
        }
    }

    /// One row of plain cells per bar: `[● ]label`, the value as
    /// JavaScript prints numbers, and the detail when any bar has one.
    fn text_rows(&self) -> Vec<Vec<String>> {
        let with_detail = self.with_detail();
        self.items
            .iter()
            .map(|bar| {
                let mut row = vec![
                    format!("{}{}", current_glyph(bar.highlight), plain_text(&bar.label)),
                    format_js_number(bar.value),
                ];
                if with_detail {
                    row.push(
                        bar.detail
                            .as_deref()
                            .map(plain_text)
                            .unwrap_or_default()
                            .into_owned(),
                    );
                }
                row
            })
            .collect()
    }
}

impl SlideBars {
    /// The amount a full-length bar stands for: `max`, else the largest
    /// value, else 1 when every value is 0.
    fn full_scale(&self) -> f64 {
        let max = self
            .max
            .unwrap_or_else(|| self.items.iter().map(|bar| bar.value).fold(0.0, f64::max));
        if max > 0.0 { max } else { 1.0 }
    }

    /// The size step: the authored one, else by load (two per label line,
    /// one per detail line): `l` up to 13, `m` up to 16, `s` past that
    /// (upstream `barsFit`).
    fn step(&self) -> Size {
        self.size.unwrap_or_else(|| {
            let load =
                2 * self.items.len() + self.items.iter().filter(|bar| bar.detail.is_some()).count();
            match load {
                0..=13 => Size::L,
                14..=16 => Size::M,
                _ => Size::S,
            }
        })
    }

    /// A bar's length in whole percent of its line: `value / full scale`
    /// of [`BAR_MAX_SHARE`], rounded, so the `slide-bar-w0` … `w85` class
    /// of the stylesheet draws it (the `html` surface writes no inline
    /// style).
    pub fn bar_percent(&self, value: f64) -> u32 {
        ((value / self.full_scale()) * BAR_MAX_SHARE)
            .round()
            .clamp(0.0, BAR_MAX_SHARE) as u32
    }
}

impl SlideNode for SlideBars {
    /// `max` is at least every value; at most one bar is highlighted.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = Vec::new();
        if let Some(max) = self.max
            && self.items.iter().any(|bar| bar.value > max)
        {
            issues.push(Issue::new("max", MAX_BELOW_VALUE));
        }
        issues.extend(at_most_one(
            "items",
            self.items.iter().map(|bar| bar.highlight),
            ONE_HIGHLIGHT,
        ));
        issues
    }

    /// Text: a padded table of Label, Value and (when any bar has one)
    /// Detail, marks stripped; `● ` marks the highlighted bar. Values print
    /// as JavaScript prints numbers (`1`, not `1.0`).
    fn text(&self, _scope: &Scope<'_>) -> String {
        let header: Vec<String> = self.heads().iter().map(|h| (*h).to_owned()).collect();
        text_table(&header, &self.text_rows())
    }

    /// Markdown: the same table in GFM, marks kept; every cell of the
    /// highlighted bar's row is bold.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let with_detail = self.with_detail();
        let header: Vec<Inline> = self.heads().iter().map(|h| Inline::text(*h)).collect();
        let rows: Vec<Vec<Inline>> = self
            .items
            .iter()
            .map(|bar| {
                let mut row = vec![
                    Inline::text(current_glyph(bar.highlight)).then(marks_inline(&bar.label)),
                    Inline::text(format_js_number(bar.value)),
                ];
                if with_detail {
                    row.push(bar.detail.as_deref().map(marks_inline).unwrap_or_default());
                }
                if bar.highlight == Some(true) {
                    row = row
                        .into_iter()
                        .map(|cell| {
                            if cell.is_empty() {
                                cell
                            } else {
                                Inline::strong(cell)
                            }
                        })
                        .collect();
                }
                row
            })
            .collect();
        Markdown::table(header, rows)
    }

    const NATIVE_HTML: bool = true;

    /// HTML, as upstream draws it: `<div class="slide-bars slide-size-…">`
    /// holding a `<ul>` with one `<li class="slide-bars-row">` per bar: the
    /// label (after a primary disc when highlighted), then the measure: a
    /// line of the bar (`aria-hidden`, its length a `slide-bar-wN` class of
    /// [`SlideBars::bar_percent`]) and the value, then the detail.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let step = self.step();
        let rows = self.items.iter().map(|bar| {
            let highlighted = bar.highlight == Some(true);
            let mut label = Html::new();
            if highlighted {
                label.push(Html::element(
                    "span",
                    &[("class", "slide-bars-cue"), ("aria-hidden", "true")],
                    Html::new(),
                ));
            }
            label.push(marks_html(&bar.label));
            let width = format!(
                "slide-bar slide-bar-w{}{}",
                self.bar_percent(bar.value),
                if highlighted {
                    " slide-bar-highlight"
                } else {
                    ""
                }
            );
            let line = classed(
                "div",
                "slide-bars-line",
                Html::element(
                    "div",
                    &[("class", &width), ("aria-hidden", "true")],
                    Html::new(),
                )
                .then(classed(
                    "span",
                    if highlighted {
                        "slide-bars-value slide-bars-value-highlight"
                    } else {
                        "slide-bars-value"
                    },
                    Html::text(&format_js_number(bar.value)),
                )),
            );
            let mut measure = line;
            if let Some(detail) = &bar.detail {
                measure.push(classed("span", "slide-bars-detail", marks_html(detail)));
            }
            classed(
                "li",
                "slide-bars-row",
                classed("span", "slide-bars-label", label).then(classed(
                    "div",
                    "slide-bars-measure",
                    measure,
                )),
            )
        });
        classed(
            "div",
            &format!("slide-bars {}", size_class(step)),
            classed("ul", "slide-bars-list", Html::concat(rows)),
        )
    }

    /// The rows: a 340 px bold label column, bars in the text colour (the
    /// highlighted one primary) 48/40/32 px tall with 8 px corners, values
    /// 40/36/32 px ExtraBold after the bar, mono details under it; one
    /// width class per whole percent up to 85.
    const CSS: &'static str = include_str!("slide_bars.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: one native `table` block: the heads, then a row per bar
    /// (label and detail with marks removed); the highlighted bar's cells
    /// are bold.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let mut rows = vec![self.heads().iter().map(|h| raw_cell(h)).collect::<Vec<_>>()];
        rows.extend(
            self.text_rows()
                .into_iter()
                .zip(&self.items)
                .map(|(cells, bar)| {
                    cells
                        .iter()
                        .map(|cell| {
                            if bar.highlight == Some(true) && !cell.is_empty() {
                                bold_cell(cell)
                            } else {
                                raw_cell(cell)
                            }
                        })
                        .collect()
                }),
        );
        vec![table_block(self.heads().len(), rows)]
    }
}
