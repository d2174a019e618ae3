//! `slideLanes`: two paths converging on one shared step
//! (group "Diagrams").

use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, Tone, WrappedText, display_columns, tone_glyph};
use crate::html::{classed, line_html, marks_html, tone_name};
use crate::list::{Entry, List};
use crate::primitives::SlideNode;
use crate::slack::{fields_section, marks_mrkdwn, text_mrkdwn};
use crate::text::{ARROW, caption, join_blocks, line};
use isomer_sdk::surface::slack::{section, spacer};

slide_node! {
    catalog "slideLanes" in "Diagrams" {
        purpose: "Two paths, each a row of short steps, that end in one shared step, with optional notes on how they differ.",
        use_when: [
            "Two sources or workflows with different steps that finish at the same place.",
            "Notes on how each of two routes differs before they meet.",
        ],
        avoid_when: [
            "One path of ordered steps: use slidePipeline.",
            "One source reaching several targets: use slideFanout.",
            "Two opposing claims side by side: use slideSplit.",
            "Messages going back and forth: use slideSequence.",
        ],
        example: {
            "type": "slideLanes",
            "lanes": [
                { "label": "Card refunds", "tone": "primary", "steps": ["Request", "Card check"] },
                { "label": "Bank refunds", "tone": "accent", "steps": ["Request", "IBAN check", "Hold"] }
            ],
            "join": "Nightly batch",
            "notes": [
                { "title": "Cards", "body": "Checked **in seconds** by the network." },
                { "title": "Banks", "body": "Held a day for fraud review." }
            ]
        },
    }

    /// The fields of a `slideLanes` node.
    pub struct SlideLanes {
        /// Exactly two paths, top then bottom.
        #[schemars(length(min = 2, max = 2))]
        pub lanes: Vec<Lane>,
        /// The shared final step both paths end in.
        pub join: LineText,
        /// Up to four notes under the lanes.
        #[schemars(length(max = 4))]
        pub notes: Option<Vec<LaneNote>>,
    }

    /// One path.
    pub struct Lane {
        /// The path's name, e.g. "Card refunds" (printed upper-case).
        pub label: LineText,
        /// One to five steps before the shared one, each a short chip.
        #[schemars(length(min = 1, max = 5))]
        pub steps: Vec<LineText>,
        /// "primary" for your side, "accent" for the host or another party.
        pub tone: Option<Tone>,
    }

    /// A note on how the paths differ.
    pub struct LaneNote {
        /// The note's title, a few words.
        pub title: LineText,
        /// The note, one sentence. Accepts inline marks.
        pub body: WrappedText,
    }
}

impl SlideLanes {
    /// `s1 → s2 → join` of one lane.
    fn chain(&self, lane: &Lane) -> String {
        lane.steps
            .iter()
            .map(|s| line(s))
            .chain(std::iter::once(line(&self.join)))
            .collect::<Vec<_>>()
            .join(ARROW)
    }

    fn notes(&self) -> &[LaneNote] {
        self.notes.as_deref().unwrap_or_default()
    }

    /// The lanes as a list: `[●/○ ]LABEL: s1 → s2 → join`.
    fn lanes(&self) -> List {
        List::new(self.lanes.iter().map(|lane| {
            Entry::pair(&caption(&lane.label), ": ", Some(&self.chain(lane)))
                .with_glyph(tone_glyph(lane.tone))
        }))
    }

    /// The notes as entries: `title: body`.
    fn note_entries(&self) -> List {
        List::new(
            self.notes()
                .iter()
                .map(|n| Entry::pair(&n.title, ": ", Some(&n.body))),
        )
    }
}

/// The slide's content width in px (1,920 less two 128 px margins).
const CONTENT_WIDTH: f32 = 1664.0;

impl SlideLanes {
    /// True when a lane's chips and the 32 px lines after them are
    /// estimated wider than the steps column (the content width less the
    /// 240 px label column, the 72 px merge and the join box), set in mono
    /// 26 px at about 0.6 em a character with 48 px of padding and border
    /// a chip. The drawn slide then sets the chips smaller
    /// (`slide-lanes-compact`), rather than letting them overlap.
    fn crowded(&self) -> bool {
        let mono = |text: &str, px: f32| display_columns(text) as f32 * 0.6 * px;
        let join = mono(&self.join, 30.0) + 64.0;
        let room = CONTENT_WIDTH - 240.0 - 72.0 - join;
        self.lanes.iter().any(|lane| {
            let chips: f32 = lane.steps.iter().map(|step| mono(step, 26.0) + 48.0).sum();
            chips + 32.0 * lane.steps.len() as f32 > room
        })
    }
}

impl SlideNode for SlideLanes {
    /// Text: `[●/○ ]LABEL: s1 → s2 → join` per lane; a blank line;
    /// `title: body` per note.
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_blocks([self.lanes().text(), self.note_entries().text()])
    }

    /// Markdown: a `- [●/○ ]**LABEL**: s1 → … → join` list, then one
    /// `**title**: body` paragraph per note.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        self.lanes().markdown().then(Markdown::concat(
            self.note_entries()
                .entries
                .iter()
                .map(|note| Markdown::paragraph(note.inline())),
        ))
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_lanes.css");

    /// HTML: `<div class="slide-lanes">` holding the lanes grid
    /// (`slide-lanes-grid`): per lane its label (`slide-lanes-label`,
    /// upper-cased, toned and cued by `data-tone`) and an `<ol>` of step
    /// chips, each followed by a line towards the join; then the merge
    /// (`slide-lanes-merge`, `role="img"` labelled "A and B → join": a
    /// rounded bracket from one lane's centre to the other's and a stub)
    /// and the join box (`slide-lanes-join`, mono on primary). The notes
    /// follow as a `<dl>` of two columns, each note a `<div>` of its title
    /// `<dt>` and body `<dd>`.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let mut grid = Html::new();
        for (index, lane) in self.lanes.iter().enumerate() {
            let row = index + 1;
            let tone = tone_name(lane.tone);
            let label_class = format!("slide-lanes-label slide-lanes-row-{row}");
            let steps_class = format!("slide-lanes-steps slide-lanes-row-{row}");
            let mut label = vec![("class", label_class.as_str())];
            let mut steps = vec![("class", steps_class.as_str())];
            if let Some(tone) = tone {
                label.push(("data-tone", tone));
                steps.push(("data-tone", tone));
            }
            grid.push(Html::element("span", &label, line_html(&lane.label)));
            grid.push(Html::element(
                "ol",
                &steps,
                Html::concat(lane.steps.iter().map(|step| {
                    Html::element(
                        "li",
                        &[],
                        Html::element("span", &[], line_html(step)).then(Html::element(
                            "span",
                            &[("class", "slide-lanes-line"), ("aria-hidden", "true")],
                            Html::new(),
                        )),
                    )
                })),
            ));
        }
        let names: Vec<_> = self.lanes.iter().map(|lane| line(&lane.label)).collect();
        let merge = format!("{}{ARROW}{}", names.join(" and "), line(&self.join));
        grid.push(Html::element(
            "div",
            &[
                ("class", "slide-lanes-merge"),
                ("role", "img"),
                ("aria-label", &merge),
            ],
            classed("span", "slide-lanes-bracket", Html::new()).then(classed(
                "span",
                "slide-lanes-stub",
                Html::new(),
            )),
        ));
        grid.push(classed("span", "slide-lanes-join", line_html(&self.join)));
        let mut out = classed("div", "slide-lanes-grid", grid);
        if !self.notes().is_empty() {
            out.push(Html::element(
                "dl",
                &[],
                Html::concat(self.notes().iter().map(|note| {
                    Html::element(
                        "div",
                        &[],
                        Html::element("dt", &[], line_html(&note.title)).then(Html::element(
                            "dd",
                            &[],
                            marks_html(&note.body),
                        )),
                    )
                })),
            ));
        }
        if self.crowded() {
            classed("div", "slide-lanes slide-lanes-compact", out)
        } else {
            classed("div", "slide-lanes", out)
        }
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: one `section` with a `[●/○ ]*LABEL*: s1 → … → join` line per
    /// lane; with notes, a spacer and a `fields` section of `*title*\nbody`.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let lanes = self
            .lanes()
            .entries
            .iter()
            .map(Entry::mrkdwn)
            .collect::<Vec<_>>()
            .join("\n");
        let mut blocks = vec![section(&lanes)];
        if !self.notes().is_empty() {
            blocks.push(spacer());
            blocks.push(fields_section(
                self.notes()
                    .iter()
                    .map(|n| format!("*{}*\n{}", text_mrkdwn(&n.title), marks_mrkdwn(&n.body)))
                    .collect(),
            ));
        }
        blocks
    }
}
