//! `slideSection`: a section divider listing the section's slides.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::{Href, LineText};
use crate::check::Issue;
use crate::html::{classed, line_html, marks_html};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{mark_runs, rich_list};
use crate::text::{SEPARATOR, join_lines, line, plain_text};
use crate::url::{check_navigation_href, safe_navigation_href};
use isomer_sdk::surface::slack::header;

/// The message when `hrefs` and `contents` differ in length.
pub const HREFS_PER_CONTENTS: &str = "`hrefs` needs one entry per `contents` line";

slide_node! {
    catalog "slideSection" in "Slide structure" {
        purpose: "A section divider: the section's number and title, and the titles of the slides it holds.",
        use_when: [
            "Starting a section of a longer deck, as the only node of an inverse slideFrame.",
            "Letting the audience see which slides the section will cover.",
        ],
        avoid_when: [
            "A claim of its own: use slideHeading.",
            "Opening the deck: use slideTitle.",
            "Ending the deck: use slideClosing.",
            "Showing where this part sits among all the sections: use slideAgenda.",
        ],
        example: {
            "type": "slideSection",
            "number": "02",
            "title": "Settlement",
            "contents": ["Refunds settle nightly", "Where a batch can fail", "What the retry costs"]
        },
    }

    /// The fields of a `slideSection` node.
    pub struct SlideSection sized {
        /// The section number, e.g. "01".
        pub number: LineText,
        /// The section title, two or three words.
        pub title: LineText,
        /// The titles of the section's slides, in order (their composition
        /// titles, under about 40 characters each). Accept inline marks.
        #[schemars(length(min = 1, max = 8))]
        pub contents: Vec<LineText>,
        /// Optional links, one per contents line, in the same order. Each is an
        /// https, http, or mailto URL, or a relative path.
        pub hrefs: Option<Vec<Href>>,
    }
}

impl SlideNode for SlideSection {
    /// Each href passes the navigation sanitizer; `hrefs` has one entry per
    /// `contents` line.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = Vec::new();
        if let Some(hrefs) = &self.hrefs {
            for (index, href) in hrefs.iter().enumerate() {
                if let Some(message) = check_navigation_href(href) {
                    issues.push(Issue::new(format!("hrefs[{index}]"), message));
                }
            }
            if hrefs.len() != self.contents.len() {
                issues.push(Issue::new("hrefs", HREFS_PER_CONTENTS));
            }
        }
        issues
    }

    /// Text: `NN · TITLE`, then `1. item` lines.
    fn text(&self, _scope: &Scope<'_>) -> String {
        let head = format!(
            "{}{SEPARATOR}{}",
            line(&self.number),
            line(&self.title).to_uppercase()
        );
        let items = self
            .contents
            .iter()
            .enumerate()
            .map(|(i, item)| format!("{}. {}", i + 1, plain_text(item)));
        join_lines(std::iter::once(head).chain(items))
    }

    /// Markdown: `# NN · Title`, then an ordered list whose items link to
    /// their `hrefs` when given (an unsafe href leaves the item unlinked).
    const NATIVE_HTML: bool = true;

    /// The section row: number 280 px primary over the title 120 px, ruled rows 34 px (the rows `slideClosing` shares).
    const CSS: &'static str = include_str!("slide_section.css");

    /// HTML: `<div class="slide-section">` holding the number
    /// (`<p class="slide-section-number">`) over the title (`<h1>`), then
    /// the contents as an `<ol class="slide-rows">`, each linked when it has
    /// a safe href (an unsafe one leaves the entry unlinked).
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let head = classed("p", "slide-section-number", line_html(&self.number))
            .then(Html::element("h1", &[], line_html(&self.title)));
        let rows = self.contents.iter().enumerate().map(|(i, item)| {
            let item = marks_html(item);
            let href = self
                .hrefs
                .as_ref()
                .and_then(|hrefs| hrefs.get(i))
                .and_then(|href| safe_navigation_href(href));
            let item = match href {
                Some(href) => Html::element("a", &[("href", &href)], item),
                None => item,
            };
            Html::element("li", &[], item)
        });
        classed(
            "div",
            "slide-section",
            classed("div", "slide-section-head", head).then(classed(
                "ol",
                "slide-rows",
                Html::concat(rows),
            )),
        )
    }

    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let head = Markdown::heading(
            1,
            format!("{}{SEPARATOR}{}", line(&self.number), line(&self.title)),
        );
        let items = self.contents.iter().enumerate().map(|(i, item)| {
            match self.hrefs.as_ref().and_then(|hrefs| hrefs.get(i)) {
                Some(href) => Inline::link(marks_inline(item), href),
                None => marks_inline(item),
            }
        });
        head.then(Markdown::ordered_list(items))
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: `header` `NN · Title`, then a `rich_text` ordered list of the
    /// contents.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![
            header(&format!(
                "{}{SEPARATOR}{}",
                line(&self.number),
                line(&self.title)
            )),
            rich_list(
                "ordered",
                self.contents.iter().map(|item| mark_runs(item)).collect(),
            ),
        ]
    }
}
