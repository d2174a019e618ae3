//! `slideList`: short facts, optionally keyed by a term.

use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::html::{classed, line_html, marks_html, toned_caption};
use crate::list::{Entry, List};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::marks_mrkdwn;
use crate::text::{caption, join_blocks, plain_text};
use isomer_sdk::surface::slack::context;

slide_node! {
    catalog "slideList" in "Text" {
        purpose: "Up to six one-line facts, each optionally keyed by a name, date or id, with a caption and a note.",
        use_when: [
            "Short facts: what changed, what shipped, what is guaranteed.",
            "Each fact belongs to a name, a date or an id.",
            "The facts need a caption or a qualifying note.",
        ],
        avoid_when: [
            "Vocabulary to learn: use slideDefinitions.",
            "Several attributes per item: use slideTable.",
            "Files in a folder: use slideTree.",
            "Main points with a shared marker: use slideBulletList.",
        ],
        example: {
            "type": "slideList",
            "label": "Shipped in March",
            "items": [
                { "term": "v2.4", "body": "Refunds join the **nightly** batch" },
                { "term": "v2.5", "body": "Failed payouts retry until 06:00 UTC" }
            ],
            "footnote": "Both behind a flag per region."
        },
    }

    /// The fields of a `slideList` node.
    pub struct SlideList {
        /// A caption over the list (printed upper-case).
        pub label: Option<LineText>,
        /// One to six facts, one line each.
        #[schemars(length(min = 1, max = 6))]
        pub items: Vec<ListItem>,
        /// A note qualifying the whole list. Accepts inline marks.
        pub footnote: Option<WrappedText>,
    }

    /// One fact.
    pub struct ListItem {
        /// The name, date or id the fact belongs to (set in mono, left column).
        pub term: Option<LineText>,
        /// The fact. Accepts inline marks.
        pub body: WrappedText,
    }
}

impl SlideList {
    /// The facts: `term: body`, or the body alone, under the caption.
    fn list(&self) -> List {
        List::new(self.items.iter().map(|item| match &item.term {
            Some(term) => Entry::pair(term, ": ", Some(&item.body)),
            None => Entry::body(&item.body),
        }))
        .labelled(self.label.as_deref())
    }
}

impl SlideNode for SlideList {
    /// Text: `LABEL`, a blank line, `term: body` (or `body`) lines, a blank
    /// line, the footnote.
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_blocks([
            self.label
                .as_deref()
                .map(caption)
                .unwrap_or_default()
                .into(),
            self.list().text_lines().into(),
            self.footnote.as_deref().map(plain_text).unwrap_or_default(),
        ])
    }

    /// Markdown: `**LABEL**`, a `- **term**: body` list, the footnote.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        self.list().markdown().then(
            self.footnote
                .as_deref()
                .map_or_else(Markdown::new, |f| Markdown::paragraph(marks_inline(f))),
        )
    }

    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_list.css");

    /// HTML: `<div class="slide-facts">` holding the caption
    /// (`<p class="slide-caption">`, upper-cased), a `<ul>` of rows and
    /// the footnote (`slide-facts-footnote`). With any term the rows are
    /// ruled (`slide-facts-termed`), each a grid of the mono term
    /// (`slide-facts-term`, a 300 px column) and the body `<span>` (across
    /// both columns when the row has no term, `slide-facts-wide`); with
    /// none they are plain rows set closer, without rules.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let termed = self.items.iter().any(|item| item.term.is_some());
        let rows = Html::concat(self.items.iter().map(|item| {
            let body = marks_html(&item.body);
            let content = match &item.term {
                Some(term) => classed("span", "slide-facts-term", line_html(term))
                    .then(Html::element("span", &[], body)),
                None if termed => classed("span", "slide-facts-wide", body),
                None => body,
            };
            Html::element("li", &[], content)
        }));
        let mut out = self
            .label
            .as_deref()
            .map_or_else(Html::new, |label| toned_caption(label, None));
        out.push(if termed {
            classed("ul", "slide-facts-termed", rows)
        } else {
            Html::element("ul", &[], rows)
        });
        if let Some(footnote) = &self.footnote {
            out.push(classed("p", "slide-facts-footnote", marks_html(footnote)));
        }
        classed("div", "slide-facts", out)
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: `context` `*LABEL*`, a `rich_text` bullet list (bold term,
    /// `: `, body), a `context` footnote.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = self.list().slack();
        blocks.extend(self.footnote.as_deref().map(|f| context(&marks_mrkdwn(f))));
        blocks
    }
}
