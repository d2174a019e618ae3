//! `slideHeading`: a content slide's claim and an optional lede.

use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use crate::authored::WrappedText;
use crate::html::{classed, fitted_size, marks_html, size_class};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::marks_mrkdwn;
use crate::text::{join_lines, plain_text};
use isomer_sdk::surface::slack::{header, section};

slide_node! {
    catalog "slideHeading" in "Slide structure" {
        purpose: "The claim a content slide makes, as a sentence, with an optional lede under it.",
        use_when: [
            "Opening a page-tone content slide that has something under the heading.",
            "The audience should know the point before they read the body.",
        ],
        avoid_when: [
            "Opening the deck: use slideTitle.",
            "Opening a section: use slideSection.",
            "Ending the deck: use slideClosing.",
            "One sentence with nothing under it: use slideStatement.",
            "Someone else's words: use slideQuote.",
        ],
        example: {
            "type": "slideHeading",
            "title": "Refunds settle in **one** nightly batch",
            "lede": "Every refund raised before 02:00 UTC is paid the same morning."
        },
    }

    /// The fields of a `slideHeading` node.
    pub struct SlideHeading sized {
        /// The slide's claim as a sentence; aim for one line, two at most.
        /// Accepts inline marks: `code` and **strong** (strong takes the primary
        /// colour).
        pub title: WrappedText,
        /// One or two sentences under the claim. Accepts inline marks.
        pub lede: Option<WrappedText>,
    }
}

impl SlideNode for SlideHeading {
    /// Text: the title upper-cased, then the lede on the next line.
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_lines([
            plain_text(&self.title).to_uppercase().into(),
            self.lede.as_deref().map(plain_text).unwrap_or_default(),
        ])
    }

    /// Markdown: `# title`, then the lede as a paragraph.
    const NATIVE_HTML: bool = true;

    /// The heading block: title 76/64/56 px, lede 36 px, strong words primary.
    const CSS: &'static str = include_str!("slide_heading.css");

    /// HTML: `<div class="slide-heading">` with the title as `<h1>` and its
    /// size class (76, 64 or 56 px; unset fits it on two lines of 1,560 px),
    /// then the lede as `<p class="slide-lede">`.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let size = fitted_size(self.size, &self.title, [76.0, 64.0, 56.0], 1560.0, 2.0);
        let mut out = classed("h1", size_class(size), marks_html(&self.title));
        if let Some(lede) = &self.lede {
            out.push(classed("p", "slide-lede", marks_html(lede)));
        }
        classed("div", "slide-heading", out)
    }

    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::heading(1, marks_inline(&self.title)).then(
            self.lede.as_deref().map_or_else(Markdown::new, |lede| {
                Markdown::paragraph(marks_inline(lede))
            }),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: a `header` with the title (marks stripped), then a `section`
    /// with the lede.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = vec![header(&plain_text(&self.title))];
        blocks.extend(
            self.lede
                .as_deref()
                .map(|lede| section(&marks_mrkdwn(lede))),
        );
        blocks
    }
}
