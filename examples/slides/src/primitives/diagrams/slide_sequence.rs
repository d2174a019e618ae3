//! `slideSequence`: messages between three to five actors in time order
//! (group "Diagrams").

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Scope};

use crate::authored::{LineText, Tone, tone_glyph};
use crate::check::Issue;
use crate::html::{line_html, marks_html, size_class, tone_name};
use crate::list::{Entry, List, size_for_load};
use crate::primitives::SlideNode;
use crate::text::{ARROW, line};

/// The message for a message sent by an actor to itself.
pub const SAME_ACTOR: &str = "a message goes from one actor to another: `from` and `to` differ";

/// The message for two actors sharing an id.
pub fn duplicate_actor(id: &str) -> String {
    format!("duplicate actor id \"{id}\"")
}

/// The message for a message end (`from` or `to`) naming no actor.
pub fn unknown_actor(end: &str, id: &str) -> String {
    format!("message {end} names unknown actor \"{id}\"")
}

/// The message for an actor in no message.
pub fn idle_actor(id: &str) -> String {
    format!("actor \"{id}\" sends or receives no message")
}

slide_node! {
    catalog "slideSequence" in "Diagrams" {
        purpose: "Messages passed between three to five participants in time order, drawn as arrows between lifelines.",
        use_when: [
            "A request going back and forth among three to five participants, where the order matters.",
            "A failure and its recovery told as the messages exchanged.",
        ],
        avoid_when: [
            "One-way handoffs from step to step: use slidePipeline.",
            "Two routes converging on one step: use slideLanes.",
            "Whole turns of text between a user, a model and a host: use slideTranscript.",
        ],
        example: {
            "type": "slideSequence",
            "actors": [
                { "id": "shop", "label": "Checkout", "tone": "primary" },
                { "id": "ledger", "label": "Ledger" },
                { "id": "bank", "label": "Card network", "tone": "accent" }
            ],
            "messages": [
                { "from": "shop", "to": "ledger", "label": "Refund order 1042" },
                { "from": "ledger", "to": "bank", "label": "Batch at **02:00**" },
                { "from": "bank", "to": "ledger", "label": "Settled" },
                { "from": "ledger", "to": "shop", "label": "`refund.settled`" }
            ]
        },
    }

    /// The fields of a `slideSequence` node.
    pub struct SlideSequence sized {
        /// Three to five participants, left to right; ids unique; each sends or
        /// receives at least one message.
        #[schemars(length(min = 3, max = 5))]
        pub actors: Vec<SequenceActor>,
        /// One to ten messages in time order.
        #[schemars(length(min = 1, max = 10))]
        pub messages: Vec<SequenceMessage>,
    }

    /// One participant.
    pub struct SequenceActor {
        /// The id messages use in `from` / `to`; never drawn.
        pub id: LineText,
        /// The participant's name as drawn, e.g. "Checkout" or "Card network".
        pub label: LineText,
        /// "primary" for your side, "accent" for the host or another party.
        pub tone: Option<Tone>,
    }

    /// One message, an arrow from one actor to another.
    pub struct SequenceMessage {
        /// The sending actor's id.
        pub from: LineText,
        /// The receiving actor's id (not the sender).
        pub to: LineText,
        /// What is sent, a few words. Accepts inline marks.
        pub label: LineText,
    }
}

impl SlideSequence {
    /// `[●/○ ]Label` of the actor `id` names (the id itself if none does,
    /// which validation refuses).
    fn actor(&self, id: &str) -> String {
        match self.actors.iter().find(|a| a.id.as_str() == id) {
            Some(actor) => format!("{}{}", tone_glyph(actor.tone), line(&actor.label)),
            None => line(id).into_owned(),
        }
    }

    /// `[●/○ ]From → [●/○ ]To` of one message.
    fn route(&self, message: &SequenceMessage) -> String {
        format!(
            "{}{ARROW}{}",
            self.actor(&message.from),
            self.actor(&message.to)
        )
    }
}

/// The message counts the `l` and `m` steps hold (upstream's sequence
/// fit).
const SEQUENCE_FIT: [usize; 2] = [7, 8];

/// A horizontal arrow of the diagrams (sequence messages, lanes, graph
/// tracks): `<div class="slide-connector">` holding the rail
/// (`slide-connector-rail`) and a border-drawn head at the end it points
/// to (`slide-connector-head-left|right`), `aria-hidden`. Its rules live
/// in `slide_sequence.css`; `data-tone` recolours it.
pub fn connector_html(rightward: bool, tone: Option<Tone>) -> Html {
    let head = |side: &str| {
        Html::element(
            "span",
            &[("class", &format!("slide-connector-head-{side}"))],
            Html::new(),
        )
    };
    let rail = Html::element("span", &[("class", "slide-connector-rail")], Html::new());
    let content = if rightward {
        rail.then(head("right"))
    } else {
        head("left").then(rail)
    };
    let mut attributes = vec![("class", "slide-connector"), ("aria-hidden", "true")];
    if let Some(tone) = tone_name(tone) {
        attributes.push(("data-tone", tone));
    }
    Html::element("div", &attributes, content)
}

impl SlideNode for SlideSequence {
    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_sequence.css");

    /// HTML: `<div class="slide-sequence slide-size-…">`, a grid of two
    /// tracks per actor, so each actor's centre is a grid line: a lifeline
    /// per actor (`slide-sequence-lifeline`, the full height), the actor
    /// chips on row 1 (`slide-sequence-actor`, toned by `data-tone`), and
    /// one row per message (`slide-sequence-message`) spanning from the
    /// sender's centre to the receiver's: its label (on the page colour,
    /// so it masks the lifelines it crosses; set by the sender when the
    /// message skips an actor) over an arrow ([`connector_html`]) pointing
    /// at the receiver, toned as the sender. Places are
    /// `slide-sequence-row-N`, `slide-sequence-col-N` and
    /// `slide-sequence-cols-N` classes, the tracks
    /// `slide-sequence-actors-N` and `slide-sequence-messages-N`. The size
    /// step is the author's, else picked from the number of messages.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let size = size_for_load(self.size, self.messages.len(), SEQUENCE_FIT);
        let index_of = |id: &str| {
            self.actors
                .iter()
                .position(|actor| actor.id.as_str() == id)
                .unwrap_or(0)
        };
        let span =
            |index: usize| format!("slide-sequence-col-{} slide-sequence-cols-2", 2 * index + 1);
        let mut out = Html::new();
        for index in 0..self.actors.len() {
            out.push(Html::element(
                "span",
                &[
                    ("class", &format!("slide-sequence-lifeline {}", span(index))),
                    ("aria-hidden", "true"),
                ],
                Html::new(),
            ));
        }
        for (index, actor) in self.actors.iter().enumerate() {
            let class = format!("slide-sequence-actor slide-sequence-row-1 {}", span(index));
            let mut attributes = vec![("class", class.as_str())];
            if let Some(tone) = tone_name(actor.tone) {
                attributes.push(("data-tone", tone));
            }
            out.push(Html::element("span", &attributes, line_html(&actor.label)));
        }
        for (row, message) in self.messages.iter().enumerate() {
            let (from, to) = (index_of(&message.from), index_of(&message.to));
            // The centre of actor `i` is grid line 2i + 2.
            let (start, end) = (2 * from + 2, 2 * to + 2);
            let rightward = end > start;
            let skips = from.abs_diff(to) > 1;
            let tone = self.actors.get(from).and_then(|actor| actor.tone);
            let mut label_class = String::from("slide-sequence-label");
            if skips {
                label_class.push_str(if rightward {
                    " slide-sequence-label-from-start"
                } else {
                    " slide-sequence-label-from-end"
                });
            }
            let class = format!(
                "slide-sequence-message slide-sequence-row-{} slide-sequence-col-{} slide-sequence-cols-{}",
                row + 2,
                start.min(end),
                start.abs_diff(end)
            );
            let mut attributes = vec![("class", class.as_str())];
            if let Some(tone) = tone_name(tone) {
                attributes.push(("data-tone", tone));
            }
            out.push(Html::element(
                "div",
                &attributes,
                Html::element(
                    "span",
                    &[("class", &label_class)],
                    marks_html(&message.label),
                )
                .then(connector_html(rightward, tone)),
            ));
        }
        Html::element(
            "div",
            &[(
                "class",
                &format!(
                    "slide-sequence {} slide-sequence-actors-{} slide-sequence-messages-{}",
                    size_class(size),
                    self.actors.len(),
                    self.messages.len()
                ),
            )],
            out,
        )
    }

    /// Unique actor ids; `from` / `to` name actors and differ; every actor
    /// is in some message.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = Vec::new();
        for (index, actor) in self.actors.iter().enumerate() {
            if self.actors[..index].iter().any(|a| a.id == actor.id) {
                issues.push(Issue::new(
                    format!("actors[{index}].id"),
                    duplicate_actor(&actor.id),
                ));
            }
        }
        let known = |id: &str| self.actors.iter().any(|a| a.id.as_str() == id);
        for (index, message) in self.messages.iter().enumerate() {
            for (end, id) in [("from", &message.from), ("to", &message.to)] {
                if !known(id) {
                    issues.push(Issue::new(
                        format!("messages[{index}].{end}"),
                        unknown_actor(end, id),
                    ));
                }
            }
            if message.from == message.to {
                issues.push(Issue::new(format!("messages[{index}].to"), SAME_ACTOR));
            }
        }
        for (index, actor) in self.actors.iter().enumerate() {
            let used = self
                .messages
                .iter()
                .any(|m| m.from == actor.id || m.to == actor.id);
            if !used {
                issues.push(Issue::new(
                    format!("actors[{index}]"),
                    idle_actor(&actor.id),
                ));
            }
        }
        issues
    }

    /// Every surface prints the numbered list of messages: text
    /// `N. [●/○ ]From → [●/○ ]To: label` (actors by label, marks removed),
    /// a Markdown ordered list and a Slack `rich_text` ordered list with
    /// the marks kept.
    /// The messages as a numbered list: the route `[●/○ ]From →
    /// [●/○ ]To: ` printed as is before the label, whose marks count.
    fn as_list(&self) -> Option<List> {
        Some(List::numbered(self.messages.iter().map(|message| {
            Entry::body(&message.label).with_glyph(&format!("{}: ", self.route(message)))
        })))
    }

    const NATIVE_SLACK: bool = true;
}
