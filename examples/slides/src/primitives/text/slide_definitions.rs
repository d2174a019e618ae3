//! `slideDefinitions`: a ruled glossary.

use isomer_sdk::surface::{Html, Scope};
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::html::{classed, line_html, marks_html, size_class};
use crate::list::{Entry, List, row_load, size_for_load};
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

/// Past this many terms the glossary splits into two columns (upstream's
/// single-column maximum).
const SINGLE_COLUMN_MAX: usize = 4;

/// The largest load ([`row_load`] of each column's terms and bodies) the
/// `l` and `m` steps hold (upstream's definitions fit).
const DEFINITIONS_FIT: [usize; 2] = [480, 560];

impl SlideDefinitions {
    /// The terms as they are laid out: one column, or past
    /// [`SINGLE_COLUMN_MAX`] two, the first one the longer, read top to
    /// bottom then left to right.
    fn columns(&self) -> Vec<&[Definition]> {
        if self.items.len() <= SINGLE_COLUMN_MAX {
            vec![&self.items[..]]
        } else {
            let (first, second) = self.items.split_at(self.items.len().div_ceil(2));
            vec![first, second]
        }
    }
}

impl SlideNode for SlideDefinitions {
    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_definitions.css");

    /// HTML: `<div class="slide-definitions slide-size-…">` holding one
    /// `<dl>` per column (two past four terms), each term a ruled
    /// `<div>` of the mono term `<dt>` over its meaning `<dd>`. The size
    /// step is the author's, else picked from the longest column's text
    /// times the number of columns.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let columns = self.columns();
        let size = size_for_load(
            self.size,
            row_load(columns.iter().map(|column| {
                column
                    .iter()
                    .flat_map(|item| [item.term.as_str(), item.body.as_str()])
            })),
            DEFINITIONS_FIT,
        );
        let lists = Html::concat(columns.iter().map(|column| {
            Html::element(
                "dl",
                &[],
                Html::concat(column.iter().map(|item| {
                    Html::element(
                        "div",
                        &[],
                        Html::element("dt", &[], line_html(&item.term)).then(Html::element(
                            "dd",
                            &[],
                            marks_html(&item.body),
                        )),
                    )
                })),
            )
        }));
        classed(
            "div",
            &format!("slide-definitions {}", size_class(size)),
            lists,
        )
    }

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
