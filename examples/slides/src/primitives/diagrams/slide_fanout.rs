//! `slideFanout`: one source going to several unordered targets
//! (group "Diagrams").

use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, Tone, WrappedText, tone_glyph};
use crate::html::{classed, line_html, marks_html, tone_name};
use crate::list::{Entry, List};
use crate::primitives::SlideNode;
use crate::slack::{bold_run, rich_list_under, run};
use crate::text::{join_lines, line};

slide_node! {
    catalog "slideFanout" in "Diagrams" {
        purpose: "One source (an event, a request, an artifact) going to two to six targets that each use it independently.",
        use_when: [
            "One event or request reaching several consumers, each on its own.",
            "A compact picture beside a title: the aside of slideTitle.",
        ],
        avoid_when: [
            "Ordered steps: use slidePipeline.",
            "Things connected to each other: use slideGraph.",
            "Who owns what is the point: use slideTerritoryGroup.",
            "Points with no shared source: use slideBulletList.",
        ],
        example: {
            "type": "slideFanout",
            "source": "refund.settled",
            "targets": [
                { "name": "ledger", "body": "Closes the refund", "tone": "primary" },
                { "name": "email", "body": "Tells the customer" },
                { "name": "partner-api", "body": "Updates the partner report", "tone": "accent" }
            ]
        },
    }

    /// The fields of a `slideFanout` node.
    pub struct SlideFanout {
        /// What fans out, set in mono: an event, a request, an artifact.
        pub source: LineText,
        /// Two to six targets, in no particular order.
        #[schemars(length(min = 2, max = 6))]
        pub targets: Vec<FanoutTarget>,
    }

    /// One consumer of the source.
    pub struct FanoutTarget {
        /// The target's name, set in mono (a service, a queue, a team).
        pub name: LineText,
        /// What the target does with it, a short phrase. Accepts inline marks.
        pub body: WrappedText,
        /// "primary" for your side, "accent" for the host or another party.
        pub tone: Option<Tone>,
    }
}

impl SlideFanout {
    /// The targets as a list: `[●/○ ]name: body`.
    fn list(&self) -> List {
        List::new(
            self.targets
                .iter()
                .map(|t| Entry::pair(&t.name, ": ", Some(&t.body)).with_glyph(tone_glyph(t.tone))),
        )
    }
}

impl SlideNode for SlideFanout {
    /// Text: `source →`, then `  [●/○ ]name: body` per target (indented two
    /// spaces).
    fn text(&self, _scope: &Scope<'_>) -> String {
        let targets = self.list().text_lines();
        join_lines(
            std::iter::once(format!("{} →", line(&self.source)))
                .chain(targets.lines().map(|target| format!("  {target}"))),
        )
    }

    /// Markdown: a `**source** →` paragraph, then a `- [●/○ ]**name**: body`
    /// list.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::paragraph(Inline::strong(line(&self.source)).then(" →"))
            .then(self.list().markdown())
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_fanout.css");

    /// HTML: `<div class="slide-fanout">` in a row: the source box
    /// (`slide-fanout-source`, mono, primary border), the stem
    /// (`slide-fanout-stem`, `role="img"` labelled "→"), then a `<ul>` of
    /// targets, each `<li>` (`data-tone` when toned) holding its piece of
    /// the spine (`slide-fanout-spine-first|middle|last`), its tick
    /// (`slide-fanout-tick`) and its label: the mono name `<strong>` over
    /// the body `<span>`.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let last = self.targets.len() - 1;
        let hidden = |class: &str| {
            Html::element(
                "span",
                &[("class", class), ("aria-hidden", "true")],
                Html::new(),
            )
        };
        let targets = Html::concat(self.targets.iter().enumerate().map(|(index, target)| {
            let spine = match index {
                0 => "slide-fanout-spine slide-fanout-spine-first",
                i if i == last => "slide-fanout-spine slide-fanout-spine-last",
                _ => "slide-fanout-spine slide-fanout-spine-middle",
            };
            let content = hidden(spine)
                .then(hidden("slide-fanout-tick"))
                .then(classed(
                    "div",
                    "slide-fanout-label",
                    Html::element("strong", &[], line_html(&target.name))
                        .then(Html::text(" "))
                        .then(Html::element("span", &[], marks_html(&target.body))),
                ));
            match tone_name(target.tone) {
                Some(tone) => Html::element("li", &[("data-tone", tone)], content),
                None => Html::element("li", &[], content),
            }
        }));
        classed(
            "div",
            "slide-fanout",
            classed("div", "slide-fanout-source", line_html(&self.source))
                .then(Html::element(
                    "div",
                    &[
                        ("class", "slide-fanout-stem"),
                        ("role", "img"),
                        ("aria-label", "→"),
                    ],
                    Html::new(),
                ))
                .then(Html::element("ul", &[], targets)),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: one `rich_text`: a section with the bold source and ` →`, then
    /// a bullet list of `[●/○ ]`, bold name, `: `, body.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let source = vec![bold_run(&line(&self.source)), run(" →")];
        let items = self.list().entries.iter().map(Entry::runs).collect();
        vec![rich_list_under(source, "bullet", items)]
    }
}
