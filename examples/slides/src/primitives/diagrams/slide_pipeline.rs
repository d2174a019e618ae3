//! `slidePipeline`: the ordered steps of one process, optionally grouped
//! into owned spans.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, Tone, WrappedText};
use crate::check::Issue;
use crate::list::{Entry, List};
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

    /// HTML: as Markdown, the chain as `<p>`, then the list's own markup
    /// ([`List::html`], one marker per item).
    fn html(&self, _scope: &Scope<'_>) -> Html {
        Html::element("p", &[], Html::text(&self.chain())).then(self.list().html())
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
