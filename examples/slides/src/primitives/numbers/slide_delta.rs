//! `slideDelta`: one measure before and after a change.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope};

use crate::html::{classed, fitted_size, line_html, marks_html, size_class};
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::check::Issue;
use crate::figure::{Figure, PENDING};
use crate::markdown::marks_inline;
use crate::marks::{Mark, parse_marks};
use crate::primitives::SlideNode;
use crate::slack::{bold_mark_runs, bold_run, italic_run, mark_runs, rich_section, run};
use crate::text::{ARROW, line, plain_text};

/// The message for a change without both values.
pub const CHANGE_NEEDS_VALUES: &str = "change needs a before and an after value";

slide_node! {
    catalog "slideDelta" in "Numbers" {
        purpose: "One measure before and after a change, with the size of the change and what it means.",
        use_when: [
            "An improvement or a regression of one measure.",
            "How big the change is matters to the point.",
        ],
        avoid_when: [
            "Different measures: use slideStats.",
            "More than two points in time: use slideTimeline or slideBars.",
            "No before value to compare with: use slideStat.",
        ],
        example: {
            "type": "slideDelta",
            "before": { "label": "On demand", "value": "5 days" },
            "after": { "label": "Nightly", "value": "1 day" },
            "change": "−4 days",
            "body": "Customers see their refund **the next morning**."
        },
    }

    /// The fields of a `slideDelta` node.
    pub struct SlideDelta sized {
        /// The measure before the change.
        pub before: DeltaPoint,
        /// The measure after the change.
        pub after: DeltaPoint,
        /// The change as it should read, e.g. "+13" or "−40 %". Needs both values.
        pub change: Option<LineText>,
        /// What the change means. Accepts inline marks.
        pub body: WrappedText,
    }

    /// One side of the change.
    pub struct DeltaPoint {
        /// What the side is, e.g. "Before" or "March" (printed upper-case, code
        /// marks kept). Accepts inline marks.
        pub label: LineText,
        /// The number with its unit, e.g. "13 s". Leave it out for a
        /// placeholder; never invent a number.
        pub value: Option<LineText>,
    }
}

/// What follows the two figures: `. `.
const DELTA_JOIN: &str = ". ";

/// What follows the change, when there is one: `: `.
const CHANGE_JOIN: &str = ": ";

impl DeltaPoint {
    fn figure(&self) -> Figure<'_> {
        Figure::new(self.value.as_deref(), None)
    }
}

/// The label upper-cased except inside code marks, on one line.
fn label_text(label: &str) -> String {
    line(
        &parse_marks(label)
            .into_iter()
            .map(|run| match run {
                Mark::Code(code) => code.to_owned(),
                Mark::Plain(s) | Mark::Strong(s) => s.to_uppercase(),
            })
            .collect::<String>(),
    )
    .into_owned()
}

/// The label for Markdown: upper-cased, code marks as code spans.
fn label_inline(label: &str) -> Inline {
    let mut out = Inline::default();
    for run in parse_marks(&line(label)) {
        out = out.then(match run {
            Mark::Code(code) => Inline::code(code),
            Mark::Plain(s) | Mark::Strong(s) => Inline::text(s.to_uppercase()),
        });
    }
    out
}

impl SlideNode for SlideDelta {
    /// Values need a visible character; a change needs both values.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = Vec::new();
        for (side, point) in [("before", &self.before), ("after", &self.after)] {
            issues.extend(point.figure().check(side));
        }
        if self.change.is_some() && (self.before.value.is_none() || self.after.value.is_none()) {
            issues.push(Issue::new("change", CHANGE_NEEDS_VALUES));
        }
        issues
    }

    /// Text: `BEFORE 13 → AFTER 26. +13: body`: `. ` after the figures,
    /// then the change and `: ` when given, then the body
    /// (`BEFORE 13 → AFTER 26. body` without a change; `[value pending]`
    /// for a missing value).
    fn text(&self, _scope: &Scope<'_>) -> String {
        let side =
            |point: &DeltaPoint| format!("{} {}", label_text(&point.label), point.figure().text());
        let change = self
            .change
            .as_deref()
            .map(|c| format!("{}{CHANGE_JOIN}", line(c)))
            .unwrap_or_default();
        format!(
            "{}{ARROW}{}{DELTA_JOIN}{change}{}",
            side(&self.before),
            side(&self.after),
            plain_text(&self.body)
        )
    }

    /// Markdown: `**BEFORE** 13 → **AFTER** 26. **+13**: body`, joined as
    /// on text (`_value pending_` for a missing value).
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let side = |point: &DeltaPoint| {
            Inline::strong(label_inline(&point.label))
                .then(" ")
                .then(point.figure().plain_inline())
        };
        let mut content = side(&self.before)
            .then(ARROW)
            .then(side(&self.after))
            .then(DELTA_JOIN);
        if let Some(change) = &self.change {
            content = content.then(Inline::strong(line(change))).then(CHANGE_JOIN);
        }
        Markdown::paragraph(content.then(marks_inline(&self.body)))
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide-delta-figure slide-size-…">` holding one
    /// row (`<div class="slide-delta">`): each side as a
    /// `<div class="slide-stat-item">` of its label (a caption, upper-cased
    /// except code) over its value at display size ([`Figure::html`],
    /// 200/128/96 px, the after value primary), a `→` between them, and
    /// the change in `<p class="slide-delta-change">`; the sentence under
    /// the row as `<p class="slide-stat-body">`. An unset size is the
    /// largest step at which both values fit one 1,100 px line.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let side = |point: &DeltaPoint, class: &str| {
            classed(
                "div",
                class,
                classed("p", "slide-caption", Html::text(&label_text(&point.label)))
                    .then(point.figure().html()),
            )
        };
        let mut row = side(&self.before, "slide-stat-item")
            .then(Html::element(
                "p",
                &[("class", "slide-delta-arrow"), ("aria-hidden", "true")],
                Html::text("→"),
            ))
            .then(side(&self.after, "slide-stat-item slide-delta-after"));
        if let Some(change) = &self.change {
            row.push(classed("p", "slide-delta-change", line_html(change)));
        }
        let readings = format!(
            "{} {}",
            self.before.figure().text(),
            self.after.figure().text()
        );
        let size = fitted_size(self.size, &readings, [200.0, 128.0, 96.0], 1100.0, 1.0);
        classed(
            "div",
            &format!("slide-delta-figure {}", size_class(size)),
            classed("div", "slide-delta", row).then(classed(
                "p",
                "slide-stat-body",
                marks_html(&self.body),
            )),
        )
    }

    /// Before → after at 200/128/96 px (the after value primary), a 200 px
    /// arrow, the change 72 px ExtraBold, the note 32 px.
    const CSS: &'static str = include_str!("slide_delta.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: one `rich_text` section with the same reading as Markdown:
    /// bold labels (upper-cased but code) and change, plain values
    /// (`value pending` in italics), the joins as runs of their own, the
    /// body's marks as styled runs.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let side = |point: &DeltaPoint| {
            let value = point
                .figure()
                .reading()
                .map_or_else(|| italic_run(PENDING), |v| run(&v));
            let mut runs = bold_mark_runs(&point.label, str::to_uppercase);
            runs.extend([run(" "), value]);
            runs
        };
        let mut runs = side(&self.before);
        runs.push(run(ARROW));
        runs.extend(side(&self.after));
        runs.push(run(DELTA_JOIN));
        if let Some(change) = &self.change {
            runs.extend([bold_run(&line(change)), run(CHANGE_JOIN)]);
        }
        runs.extend(mark_runs(&self.body));
        vec![rich_section(runs)]
    }
}
