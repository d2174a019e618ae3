//! `slideStats`: two to four comparable numbers in ruled columns.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};

use crate::html::{classed, fitted_size, marks_html, size_class, toned_caption};
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::check::Issue;
use crate::figure::Figure;
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{fields_section, marks_mrkdwn, text_mrkdwn};
use crate::text::{join_lines, line, plain_text};

slide_node! {
    catalog "slideStats" in "Numbers" {
        purpose: "Two to four comparable numbers in ruled columns, each with what it counts and a sentence.",
        use_when: [
            "The numbers are the point of the slide.",
            "Several measures side by side.",
            "A measure not taken yet: leave out its value for a placeholder.",
        ],
        avoid_when: [
            "One headline number: use slideStat.",
            "Before and after one change: use slideDelta.",
            "More than four values, or their relative size: use slideBars.",
        ],
        example: {
            "type": "slideStats",
            "items": [
                { "value": "1.2k", "label": "Refunds a night", "body": "Settled in **one** transfer per bank." },
                { "value": "4", "unit": "min", "label": "Batch time", "body": "From cut-off to the last confirmation." },
                { "label": "Partner reach", "body": "Measured after the beta ends." }
            ]
        },
    }

    /// The fields of a `slideStats` node.
    pub struct SlideStats sized {
        /// Two to four measures, side by side.
        #[schemars(length(min = 2, max = 4))]
        pub items: Vec<StatItem>,
    }

    /// One measure.
    pub struct StatItem {
        /// The number as it should read, about four characters. Leave it out for
        /// a placeholder; never invent a number.
        pub value: Option<LineText>,
        /// The unit after the number. Needs a value.
        pub unit: Option<LineText>,
        /// What is counted.
        pub label: LineText,
        /// A sentence on the number. Accepts inline marks.
        pub body: WrappedText,
    }
}

impl StatItem {
    fn figure(&self) -> Figure<'_> {
        Figure::new(self.value.as_deref(), self.unit.as_deref())
    }
}

impl SlideNode for SlideStats {
    /// Each value needs a visible character; each unit needs a value.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        self.items
            .iter()
            .enumerate()
            .flat_map(|(i, item)| item.figure().check(&format!("items[{i}]")))
            .collect()
    }

    /// Text: `value unit Label: body` per measure (`[value pending]` for a
    /// placeholder).
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_lines(self.items.iter().map(|item| {
            format!(
                "{} {}: {}",
                item.figure().text(),
                line(&item.label),
                plain_text(&item.body)
            )
        }))
    }

    /// Markdown: a `- **value unit** Label: body` list.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::bullet_list(self.items.iter().map(|item| {
            item.figure()
                .inline()
                .then(format!(" {}: ", line(&item.label)))
                .then(marks_inline(&item.body))
        }))
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide-stats slide-size-…">`, one equal
    /// `<div class="slide-stat-item">` per measure side by side, apart by
    /// 2 px rules: the value at display size ([`Figure::html`], 200/128/96
    /// px), the label as a caption, the sentence as
    /// `<p class="slide-stat-body">`. An unset size is the largest step at
    /// which the longest value (with its unit) fits its column on one line;
    /// a placeholder does not count.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let longest = self
            .items
            .iter()
            .filter_map(|item| item.figure().reading())
            .max_by_key(|reading| reading.chars().count())
            .unwrap_or_default();
        let columns = self.items.len().max(1) as f32;
        let width = (1664.0 - 56.0 * (columns - 1.0)) / columns;
        let size = fitted_size(self.size, &longest, [200.0, 128.0, 96.0], width, 1.0);
        classed(
            "div",
            &format!("slide-stats {}", size_class(size)),
            Html::concat(self.items.iter().map(|item| {
                classed(
                    "div",
                    "slide-stat-item",
                    item.figure()
                        .html()
                        .then(toned_caption(&item.label, None))
                        .then(classed("p", "slide-stat-body", marks_html(&item.body))),
                )
            })),
        )
    }

    /// Ruled columns; values 200/128/96 px in the text colour, the label
    /// 40 px bold, the body 28 px.
    const CSS: &'static str = include_str!("slide_stats.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: one `section` with a `*value unit* Label: body` field per
    /// measure, as upstream prints them.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![fields_section(
            self.items
                .iter()
                .map(|item| {
                    format!(
                        "{} {}: {}",
                        item.figure().mrkdwn(),
                        text_mrkdwn(&item.label),
                        marks_mrkdwn(&item.body)
                    )
                })
                .collect(),
        )]
    }
}
