//! `slideDefinitions`: a ruled glossary.

use isomer_sdk::surface::Scope;
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::list::{Entry, List};
use crate::primitives::SlideNode;
use crate::slack::{fields_section, marks_mrkdwn, text_mrkdwn};

slide_node! {
    catalog "slideDefinitions" in "Text" {
        purpose: "A small glossary: up to six terms, each with a one-sentence meaning.",
        use_when: [
            "Vocabulary the audience will hear again in the talk.",
            "The name is the thing to remember.",
        ],
        avoid_when: [
            "Facts rather than terms: use slideList.",
            "Several attributes per item: use slideTable.",
            "Terms split by owner: use slideTerritoryGroup.",
            "Terms connected by arrows: use slideGraph.",
        ],
        example: {
            "type": "slideDefinitions",
            "items": [
                { "term": "batch", "body": "Every refund raised before the cut-off, paid together." },
                { "term": "cut-off", "body": "02:00 UTC; later refunds wait for the **next** batch." }
            ]
        },
    }

    /// The fields of a `slideDefinitions` node.
    pub struct SlideDefinitions sized {
        /// One to six terms; five or six lay out in two columns.
        #[schemars(length(min = 1, max = 6))]
        pub items: Vec<Definition>,
    }

    /// One term and its meaning.
    pub struct Definition {
        /// The term, a few words (set in mono).
        pub term: LineText,
        /// Its meaning in one sentence. Accepts inline marks.
        pub body: WrappedText,
    }
}

impl SlideNode for SlideDefinitions {
    /// HTML: the list's own, one marker per item ([`List::html`](crate::list::List::html)).
    const NATIVE_HTML: bool = true;

    fn as_list(&self) -> Option<List> {
        Some(List::new(
            self.items
                .iter()
                .map(|d| Entry::pair(&d.term, ": ", Some(&d.body))),
        ))
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: one `section` with a `*term*\nbody` field per term.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![fields_section(
            self.items
                .iter()
                .map(|d| format!("*{}*\n{}", text_mrkdwn(&d.term), marks_mrkdwn(&d.body)))
                .collect(),
        )]
    }
}
