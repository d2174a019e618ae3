//! `slidePipeline`: the ordered steps of one process, optionally grouped
//! into owned spans.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, Size, Tone, WrappedText, display_columns};
use crate::check::Issue;
use crate::html::{classed, display_width_em, line_html, marks_html, size_class, tone_name};
use crate::list::{Entry, List, row_load, size_for_load};
use crate::primitives::SlideNode;
use crate::slack::text_mrkdwn;
use crate::text::{ARROW, DASH, caption, join_lines, line};
use isomer_sdk::surface::slack::context;

/// The message for a span outside the steps or running backwards.
pub const SPAN_RANGE: &str = "each span needs `from` ≤ `to` < the number of steps";
/// The message for two spans sharing a step.
pub const SPANS_OVERLAP: &str = "spans must not overlap";
/// The message for `start` in spans mode.
pub const SPANS_NO_START: &str = "`start` is for steps mode; leave it out when there are spans";
/// The message for `end` in spans mode.
pub const SPANS_NO_END: &str = "`end` is for steps mode; leave it out when there are spans";
/// The message for a step body in spans mode.
pub const SPANS_NO_STEP_BODY: &str =
    "a step body is for steps mode; leave it out when there are spans";

slide_node! {
    catalog "slidePipeline" in "Diagrams" {
        purpose: "The numbered steps of one process, from what goes in to what comes out; spans can show who owns which run of steps.",
        use_when: [
            "Two to six steps that turn one thing into another, in order.",
            "Who owns which run of the steps: spans, each with a tone and an owner.",
        ],
        avoid_when: [
            "Two paths that meet in one step: use slideLanes.",
            "Messages going back and forth: use slideSequence.",
            "One source reaching several targets: use slideFanout.",
            "Points with no order: use slideBulletList.",
        ],
        example: {
            "type": "slidePipeline",
            "start": "Refund request",
            "end": "Paid",
            "steps": [
                { "title": "Queue", "body": "Held until the **02:00 UTC** cut-off." },
                { "title": "Batch", "body": "One transfer per bank." },
                { "title": "Confirm", "body": "Each bank answers within the hour." }
            ]
        },
    }

    /// The fields of a `slidePipeline` node.
    pub struct SlidePipeline sized {
        /// A chip before the first step: what goes in (steps mode only).
        pub start: Option<LineText>,
        /// A chip after the last step: what comes out (steps mode only).
        pub end: Option<LineText>,
        /// Two to six steps, in order.
        #[schemars(length(min = 2, max = 6))]
        pub steps: Vec<PipelineStep>,
        /// Up to three owned runs of steps; any span switches to spans mode,
        /// where steps become chips (no start, end or step bodies, no size).
        #[schemars(length(max = 3))]
        pub spans: Option<Vec<PipelineSpan>>,
    }

    /// One step of the process.
    pub struct PipelineStep {
        /// The step's name.
        pub title: LineText,
        /// What the step does (steps mode only). Accepts inline marks.
        pub body: Option<WrappedText>,
    }

    /// A run of neighbouring steps owned by one party.
    pub struct PipelineSpan {
        /// The index (from 0) of the first step of the run.
        #[schemars(range(min = 0))]
        pub from: u64,
        /// The index (from 0) of the last step of the run.
        #[schemars(range(min = 0))]
        pub to: u64,
        /// "primary" for your side, "accent" for the other party.
        pub tone: Tone,
        /// The owner (printed upper-case).
        pub label: LineText,
        /// What the run achieves.
        pub title: LineText,
        /// How. Accepts inline marks.
        pub body: WrappedText,
    }
}

impl SlidePipeline {
    fn spans(&self) -> &[PipelineSpan] {
        self.spans.as_deref().unwrap_or_default()
    }

    /// `start → step → … → end`, one line.
    fn chain(&self) -> String {
        let parts = self
            .start
            .iter()
            .chain(self.steps.iter().map(|s| &s.title))
            .chain(self.end.iter());
        parts.map(|part| line(part)).collect::<Vec<_>>().join(ARROW)
    }

    fn step_title(&self, index: u64) -> String {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.steps.get(i))
            .map_or_else(String::new, |s| line(&s.title).into_owned())
    }

    /// The steps a span covers: ` (first → last)`, or ` (only)` for a
    /// one-step span, as upstream prints them.
    fn span_steps(&self, span: &PipelineSpan) -> String {
        if span.from == span.to {
            format!(" ({})", self.step_title(span.from))
        } else {
            format!(
                " ({}{ARROW}{})",
                self.step_title(span.from),
                self.step_title(span.to)
            )
        }
    }

    /// Steps mode: one numbered `title — body` entry per step. Spans mode:
    /// one `● LABEL (first → last): title — body` entry per span, the
    /// steps and their `: ` one part (one Slack run, ` (first → last): `).
    fn list(&self) -> List {
        if self.spans().is_empty() {
            List::numbered(
                self.steps
                    .iter()
                    .map(|step| Entry::pair(&step.title, DASH, step.body.as_deref())),
            )
        } else {
            List::new(self.spans().iter().map(|span| {
                Entry::lead(&caption(&span.label))
                    .with_glyph(span.tone.glyph())
                    .then_text(&format!("{}: ", self.span_steps(span)))
                    .then_text(&span.title)
                    .then_text(DASH)
                    .then_marks(&span.body)
            }))
        }
    }
}

/// The largest load ([`row_load`] of each step's title and body) the `l`
/// and `m` steps hold (upstream's pipeline fit).
const PIPELINE_FIT: [usize; 2] = [940, 1030];

/// The title sizes in px of the `l`, `m` and `s` steps.
const TITLE_PX: [(Size, f32); 3] = [(Size::L, 44.0), (Size::M, 36.0), (Size::S, 32.0)];

/// The slide's content width in px (1,920 less two 128 px margins).
const CONTENT_WIDTH: f32 = 1664.0;

/// The smaller of two steps.
fn smaller(a: Size, b: Size) -> Size {
    let rank = |size| match size {
        Size::L => 0,
        Size::M => 1,
        Size::S => 2,
    };
    if rank(a) >= rank(b) { a } else { b }
}

impl SlidePipeline {
    /// The largest step at which every step title's widest word fits its
    /// column (so no word breaks), `s` when none does: the content width
    /// less the terminals (mono 26 px, about 0.6 em a character, 44 px of
    /// padding and border) and their 48 px stubs, less the 48 px gaps,
    /// shared by the steps; titles in Inter ExtraBold
    /// ([`display_width_em`]).
    fn title_step(&self) -> Size {
        let terminal = |text: &Option<LineText>| {
            text.as_deref().map_or(0.0, |text| {
                display_columns(text) as f32 * 0.6 * 26.0 + 44.0 + 48.0
            })
        };
        let count = self.steps.len() as f32;
        let column =
            (CONTENT_WIDTH - terminal(&self.start) - terminal(&self.end) - 48.0 * (count - 1.0))
                / count;
        let widest = self
            .steps
            .iter()
            .flat_map(|step| step.title.split_whitespace())
            .map(display_width_em)
            .fold(0.0, f32::max);
        TITLE_PX
            .into_iter()
            .find(|&(_, px)| widest * px <= column)
            .map_or(Size::S, |(size, _)| size)
    }

    fn steps_html(&self) -> Html {
        let size = self.size.unwrap_or_else(|| {
            let by_load = size_for_load(
                None,
                row_load(self.steps.iter().map(|step| {
                    [
                        step.title.as_str(),
                        step.body.as_deref().unwrap_or_default(),
                    ]
                })),
                PIPELINE_FIT,
            );
            smaller(by_load, self.title_step())
        });
        let count = self.steps.len();
        let mut rail = format!("slide-pipeline-rail slide-pipeline-steps-{count}");
        if self.start.is_none() {
            rail.push_str(" slide-pipeline-rail-from-first");
        }
        if self.end.is_none() {
            rail.push_str(" slide-pipeline-rail-to-last");
        }
        let steps = Html::concat(self.steps.iter().enumerate().map(|(index, step)| {
            let mut item = Html::element(
                "span",
                &[("class", "slide-pipeline-numeral"), ("aria-hidden", "true")],
                Html::text(&(index + 1).to_string()),
            )
            .then(Html::element("strong", &[], line_html(&step.title)));
            if let Some(body) = &step.body {
                item.push(Html::element("p", &[], marks_html(body)));
            }
            Html::element("li", &[], item)
        }));
        let stub = || {
            Html::element(
                "span",
                &[("class", "slide-pipeline-stub"), ("aria-hidden", "true")],
                Html::new(),
            )
        };
        let mut out = Html::new();
        if let Some(start) = &self.start {
            out.push(classed("span", "slide-pipeline-terminal", line_html(start)));
            out.push(stub());
        }
        out.push(classed(
            "div",
            "slide-pipeline-track",
            Html::element(
                "div",
                &[("class", &rail), ("aria-hidden", "true")],
                Html::new(),
            )
            .then(Html::element("ol", &[], steps)),
        ));
        if let Some(end) = &self.end {
            out.push(stub());
            out.push(classed("span", "slide-pipeline-terminal", line_html(end)));
        }
        Html::element(
            "div",
            &[("class", &format!("slide-pipeline {}", size_class(size)))],
            out,
        )
    }

    fn spans_html(&self) -> Html {
        // Step `i` is grid column 2i+1; the connector after it 2i+2.
        let chip_line = |index: u64| 2 * index + 1;
        let placed = |first: u64, last: u64| {
            format!(
                "slide-pipeline-col-{first} slide-pipeline-cols-{}",
                last - first + 1
            )
        };
        let mut out = Html::new();
        for (index, step) in self.steps.iter().enumerate() {
            if index > 0 {
                out.push(Html::element(
                    "span",
                    &[
                        ("class", "slide-pipeline-connector"),
                        ("aria-hidden", "true"),
                    ],
                    Html::new(),
                ));
            }
            out.push(classed(
                "span",
                "slide-pipeline-chip",
                line_html(&step.title),
            ));
        }
        let last_step = self.steps.len() as u64 - 1;
        for span in self.spans() {
            let (first, last) = (chip_line(span.from), chip_line(span.to));
            // A caption also takes the connector beside its bracket, for
            // room to wrap: the one before, or at the first step the one
            // after, unless another span's caption starts there.
            let caption_first = if span.from == 0 { first } else { first - 1 };
            let caption_last = if span.from == 0
                && span.to < last_step
                && !self.spans().iter().any(|other| other.from == span.to + 1)
            {
                last + 1
            } else {
                last
            };
            let tone = tone_name(Some(span.tone)).unwrap_or_default();
            let covered = if span.from == span.to {
                self.step_title(span.from)
            } else {
                format!(
                    "{}{ARROW}{}",
                    self.step_title(span.from),
                    self.step_title(span.to)
                )
            };
            out.push(Html::element(
                "span",
                &[
                    (
                        "class",
                        &format!("slide-pipeline-bracket {}", placed(first, last)),
                    ),
                    ("data-tone", tone),
                    ("role", "img"),
                    ("aria-label", &covered),
                ],
                Html::new(),
            ));
            out.push(Html::element(
                "div",
                &[
                    (
                        "class",
                        &format!(
                            "slide-pipeline-caption {}",
                            placed(caption_first, caption_last)
                        ),
                    ),
                    ("data-tone", tone),
                ],
                Html::element("strong", &[], line_html(&span.label))
                    .then(classed(
                        "p",
                        "slide-pipeline-caption-title",
                        line_html(&span.title),
                    ))
                    .then(Html::element("p", &[], marks_html(&span.body))),
            ));
        }
        Html::element(
            "div",
            &[(
                "class",
                &format!(
                    "slide-pipeline-spans slide-pipeline-steps-{}",
                    self.steps.len()
                ),
            )],
            out,
        )
    }
}

impl SlideNode for SlidePipeline {
    /// Spans mode has no `start`, `end` or step bodies; spans stay within
    /// the steps, run forwards and do not overlap.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let spans = self.spans();
        if spans.is_empty() {
            return Vec::new();
        }
        let mut issues = Vec::new();
        if self.start.is_some() {
            issues.push(Issue::new("start", SPANS_NO_START));
        }
        if self.end.is_some() {
            issues.push(Issue::new("end", SPANS_NO_END));
        }
        for (index, step) in self.steps.iter().enumerate() {
            if step.body.is_some() {
                issues.push(Issue::new(
                    format!("steps[{index}].body"),
                    SPANS_NO_STEP_BODY,
                ));
            }
        }
        let steps = self.steps.len() as u64;
        let mut in_range = Vec::new();
        for (index, span) in spans.iter().enumerate() {
            if span.from <= span.to && span.to < steps {
                in_range.push(span);
            } else {
                issues.push(Issue::new(format!("spans[{index}]"), SPAN_RANGE));
            }
        }
        let overlaps = in_range.iter().enumerate().any(|(i, a)| {
            in_range[i + 1..]
                .iter()
                .any(|b| a.from <= b.to && b.from <= a.to)
        });
        if overlaps {
            issues.push(Issue::new("spans", SPANS_OVERLAP));
        }
        issues
    }

    /// Text: the chain `start → step → … → end`; then, in steps mode,
    /// `1. title — body` lines, or, in spans mode, one
    /// `● LABEL (first → last): title — body` line per span.
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_lines([self.chain(), self.list().text_lines()])
    }

    /// Markdown: the chain as a paragraph; then a `1. **title** — body`
    /// list, or a `- ● **LABEL** (first → last): title — body` list for
    /// spans.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::paragraph(self.chain()).then(self.list().markdown())
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_pipeline.css");

    /// HTML, steps mode: `<div class="slide-pipeline slide-size-…">` with
    /// the start terminal (`slide-pipeline-terminal`) and a stub, the track
    /// (the rail, then an `<ol>` of steps side by side: a numbered circle
    /// `slide-pipeline-numeral`, the title as `<strong>`, the body as
    /// `<p>`), then a stub and the end terminal. The rail runs from the
    /// first circle's centre to the last one's unless a terminal continues
    /// it (`slide-pipeline-rail-from-first`, `…-to-last`, inset by half a
    /// column for the step count, `slide-pipeline-steps-N`).
    ///
    /// Spans mode: `<div class="slide-pipeline-spans slide-pipeline-steps-N">`,
    /// a grid of step chips joined by connectors on row 1, and per span a
    /// tone-coloured bracket under its chips (row 2, `role="img"` labelled
    /// with the steps it covers) and its caption under the bracket (row 3:
    /// label, title, body), placed by `slide-pipeline-col-N` and
    /// `slide-pipeline-cols-N` classes.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        if self.spans().is_empty() {
            self.steps_html()
        } else {
            self.spans_html()
        }
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: a `context` with the chain, then a `rich_text` ordered list
    /// (bold title, ` — `, body), or a bullet list of spans whose parts
    /// (glyph, bold label, steps, `: `, title, ` — `, body) stay separate
    /// runs.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = vec![context(&text_mrkdwn(&self.chain()))];
        blocks.extend(self.list().slack());
        blocks
    }
}
