//! `slideAgenda`: every section of the talk, the current one marked.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Scope};

use crate::authored::LineText;
use crate::check::{Issue, at_most_one};
use crate::html::{classed, line_html, size_class};
use crate::list::{Entry, List, size_for_load};
use crate::primitives::SlideNode;
use crate::text::{SEPARATOR, line};

/// The message when two sections are current.
pub const ONE_CURRENT_SECTION: &str = "at most one section can be current";

/// What string surfaces print instead of the current section's count.
const YOU_ARE_HERE: &str = "YOU ARE HERE";

/// What the drawn slide writes instead of the current section's count
/// (upper-cased by the stylesheet, as upstream's label).
const YOU_ARE_HERE_LABEL: &str = "You are here";

/// The section counts the `l` and `m` steps hold (upstream's agenda fit).
const AGENDA_FIT: [usize; 2] = [4, 5];

slide_node! {
    catalog "slideAgenda" in "Slide structure" {
        purpose: "The outline of the talk: every section with its number, the one about to start marked.",
        use_when: [
            "Showing the whole talk before the first section.",
            "Between sections, marking the next one as current.",
        ],
        avoid_when: [
            "Listing the slides of one section: use slideSection.",
            "Dated events: use slideTimeline.",
            "Stages of planned work: use slideRoadmap.",
        ],
        example: {
            "type": "slideAgenda",
            "sections": [
                { "number": "01", "title": "Why nightly", "count": "3 slides" },
                { "number": "02", "title": "Settlement", "count": "4 slides", "current": true },
                { "number": "03", "title": "Platform", "count": "2 slides" }
            ]
        },
    }

    /// The fields of a `slideAgenda` node.
    pub struct SlideAgenda sized {
        /// Every section of the talk, in order; mark at most one current.
        #[schemars(length(min = 2, max = 8))]
        pub sections: Vec<AgendaSection>,
    }

    /// One section of the talk.
    pub struct AgendaSection {
        /// The section number, e.g. "01".
        pub number: LineText,
        /// The section title.
        pub title: LineText,
        /// How long the section is, e.g. "3 slides".
        pub count: Option<LineText>,
        /// True for the section about to start; at most one.
        pub current: Option<bool>,
    }
}

impl SlideAgenda {
    /// What follows the title: `YOU ARE HERE` for the current section,
    /// else its count.
    fn suffix(section: &AgendaSection) -> Option<String> {
        if section.current == Some(true) {
            Some(YOU_ARE_HERE.to_owned())
        } else {
            section
                .count
                .as_deref()
                .map(|count| line(count).into_owned())
        }
    }
}

impl SlideNode for SlideAgenda {
    const NATIVE_HTML: bool = true;

    const CSS: &'static str = include_str!("slide_agenda.css");

    /// HTML: `<ol class="slide-agenda slide-size-…">` of ruled rows, each
    /// `<li>` a grid of the number (`slide-agenda-number`, in a 160 px
    /// column), the title (`slide-agenda-title`) and the count
    /// (`slide-agenda-count`); the current row (`aria-current="step"`,
    /// primary) says "You are here" (`slide-agenda-here`) instead of its
    /// count, and the rows before it are `slide-agenda-past` (soft). The
    /// size step is the author's, else picked from the number of sections.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let size = size_for_load(self.size, self.sections.len(), AGENDA_FIT);
        let current = self
            .sections
            .iter()
            .position(|section| section.current == Some(true));
        let rows = Html::concat(self.sections.iter().enumerate().map(|(index, section)| {
            let tail = if section.current == Some(true) {
                classed("span", "slide-agenda-here", Html::text(YOU_ARE_HERE_LABEL))
            } else {
                match &section.count {
                    Some(count) => classed("span", "slide-agenda-count", line_html(count)),
                    None => Html::element("span", &[], Html::new()),
                }
            };
            let content = classed("span", "slide-agenda-number", line_html(&section.number))
                .then(Html::text(" "))
                .then(classed(
                    "span",
                    "slide-agenda-title",
                    line_html(&section.title),
                ))
                .then(Html::text(" "))
                .then(tail);
            if section.current == Some(true) {
                Html::element("li", &[("aria-current", "step")], content)
            } else if current.is_some_and(|current| index < current) {
                Html::element("li", &[("class", "slide-agenda-past")], content)
            } else {
                Html::element("li", &[], content)
            }
        }));
        Html::element(
            "ol",
            &[("class", &format!("slide-agenda {}", size_class(size)))],
            rows,
        )
    }

    /// One entry per section: the bold number, then ` Title · count`.
    fn as_list(&self) -> Option<List> {
        Some(List::new(self.sections.iter().map(|section| {
            let rest = match Self::suffix(section) {
                Some(suffix) => format!(" {}{SEPARATOR}{suffix}", line(&section.title)),
                None => format!(" {}", line(&section.title)),
            };
            Entry::lead(&section.number).then_text(&rest)
        })))
    }

    /// At most one section is current.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        at_most_one(
            "sections",
            self.sections.iter().map(|s| s.current),
            ONE_CURRENT_SECTION,
        )
    }

    const NATIVE_SLACK: bool = true;
}
