//! `slideStat`: one headline number with its sentence.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Markdown, Scope};

use crate::html::{classed, marks_html};
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::check::Issue;
use crate::figure::Figure;
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::marks_mrkdwn;
use crate::text::{DASH, plain_text};
use isomer_sdk::surface::slack::section;

slide_node! {
    catalog "slideStat" in "Numbers" {
        purpose: "One headline number and the sentence it backs, drawn as a band under the slide's body.",
        use_when: [
            "One measured number that backs a diagram or a list above it.",
            "A closing proof point.",
            "A number that is not measured yet: leave out value for a placeholder.",
        ],
        avoid_when: [
            "Two to four numbers: use slideStats.",
            "A number before and after a change: use slideDelta.",
            "Many values to rank: use slideBars.",
        ],
        example: {
            "type": "slideStat",
            "value": "99.9",
            "unit": "%",
            "body": "of refunds settle in the **first** batch"
        },
    }

    /// The fields of a `slideStat` node.
    pub struct SlideStat {
        /// The number as it should read, e.g. "99.9". Leave it out for a
        /// placeholder; never invent a number.
        pub value: Option<LineText>,
        /// The unit after the number, e.g. "%" or "ms". Needs a value.
        pub unit: Option<LineText>,
        /// The sentence the number backs. Accepts inline marks.
        pub body: WrappedText,
    }
}

impl SlideStat {
    fn figure(&self) -> Figure<'_> {
        Figure::new(self.value.as_deref(), self.unit.as_deref())
    }
}

impl SlideNode for SlideStat {
    /// A value needs a visible character; a unit needs a value.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        self.figure().check("")
    }

    /// Text: `value unit — body`, or `[value pending] — body`.
    fn text(&self, _scope: &Scope<'_>) -> String {
        format!("{}{DASH}{}", self.figure().text(), plain_text(&self.body))
    }

    /// Markdown: `**value unit** — body`, or `_value pending_ — body`.
    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::paragraph(
            self.figure()
                .inline()
                .then(DASH)
                .then(marks_inline(&self.body)),
        )
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide-stat">` holding the value
    /// ([`Figure::html`], 112 px primary) beside the sentence
    /// (`<p class="slide-stat-body">`), under a top rule.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        classed(
            "div",
            "slide-stat",
            self.figure()
                .html()
                .then(classed("p", "slide-stat-body", marks_html(&self.body))),
        )
    }

    /// The stat under its rule, and the figure every number primitive
    /// shares (`slide-value`, `slide-unit`, `slide-pending`, the body
    /// sentence `slide-stat-body`), which never wraps between a number and
    /// its unit.
    const CSS: &'static str = include_str!("slide_stat.css");

    const NATIVE_SLACK: bool = true;

    /// Slack: a `section` `*value unit* — body` (`_value pending_` for a
    /// placeholder).
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![section(&format!(
            "{}{DASH}{}",
            self.figure().mrkdwn(),
            marks_mrkdwn(&self.body)
        ))]
    }
}
