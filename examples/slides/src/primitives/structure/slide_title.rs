//! `slideTitle`: the deck's opening slide. Its `aside` is a one-node child
//! slot.

use isomer_sdk::Node;
use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::check::{Issue, nested_frame};
use crate::html::{classed, fitted_size, line_html, marks_html, size_class};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{marks_mrkdwn, text_mrkdwn};
use crate::text::{caption, join_blocks, join_lines, line, plain_text};
use isomer_sdk::surface::slack::{context, header, section};

slide_node! {
    catalog "slideTitle" in "Slide structure" {
        purpose: "The deck's opening slide: the subject's short name set huge, with an optional tagline, definition and aside.",
        use_when: [
            "Opening a deck, as the only node of an inverse slideFrame.",
            "The subject has a short name worth setting very large.",
        ],
        avoid_when: [
            "A claim in the middle of the deck: use slideHeading.",
            "The start of a section: use slideSection.",
            "The end of the deck: use slideClosing.",
        ],
        example: {
            "type": "slideTitle",
            "eyebrow": "Payments review",
            "title": "Ledger",
            "tagline": "One **nightly** batch for every refund",
            "definition": { "term": "ledger n.", "text": "the book where every payment is written down once" }
        },
    }

    /// The fields of a `slideTitle` node.
    pub struct SlideTitle sized {
        /// A short caption above the title (printed upper-case).
        pub eyebrow: Option<LineText>,
        /// The subject's name, usually one or two words, set huge.
        pub title: WrappedText,
        /// One line on what the subject is. Accepts inline marks.
        pub tagline: Option<WrappedText>,
        /// A dictionary-style definition of the title word.
        pub definition: Option<TitleDefinition>,
        /// One compact node drawn beside the title, such as a short
        /// slideBulletList or a slideFanout; use slideStack to put two there.
        pub aside: Option<Node>,
    }

    /// A dictionary-style definition under the title.
    pub struct TitleDefinition {
        /// The headword as a dictionary prints it, e.g. "ledger n." (set in
        /// italics).
        pub term: LineText,
        /// The definition. Accepts inline marks.
        pub text: WrappedText,
    }
}

impl SlideNode for SlideTitle {
    /// The aside slot refuses a nested frame.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        self.aside
            .as_ref()
            .and_then(|aside| nested_frame("aside", aside))
            .into_iter()
            .collect()
    }

    /// The title is the node's own content.
    fn has_own_content(_node: &Value) -> Option<bool> {
        Some(true)
    }

    /// Text: eyebrow (upper-cased), title, tagline and `term text`, one per
    /// line; then a blank line and the aside.
    fn text(&self, scope: &Scope<'_>) -> String {
        let head = join_lines([
            self.eyebrow
                .as_deref()
                .map(caption)
                .unwrap_or_default()
                .into(),
            line(&self.title),
            self.tagline.as_deref().map(plain_text).unwrap_or_default(),
            self.definition
                .as_ref()
                .map(|d| format!("{} {}", line(&d.term), plain_text(&d.text)))
                .unwrap_or_default()
                .into(),
        ]);
        join_blocks([
            head,
            self.aside
                .as_ref()
                .map(|a| scope.text(a))
                .unwrap_or_default(),
        ])
    }

    /// Markdown: `# title`, `_eyebrow_`, the tagline, `_term_ text`, then the
    /// aside, as separate blocks.
    fn markdown(&self, scope: &Scope<'_>) -> Markdown {
        let optional = |text: Option<Inline>| text.map_or_else(Markdown::new, Markdown::paragraph);
        Markdown::heading(1, Inline::text(self.title.as_str()))
            .then(optional(self.eyebrow.as_deref().map(Inline::emphasis)))
            .then(optional(self.tagline.as_deref().map(marks_inline)))
            .then(optional(self.definition.as_ref().map(|d| {
                Inline::emphasis(d.term.as_str())
                    .then(" ")
                    .then(marks_inline(&d.text))
            })))
            .then(
                self.aside
                    .as_ref()
                    .map_or_else(Markdown::new, |a| scope.markdown(a)),
            )
    }

    const NATIVE_HTML: bool = true;

    /// The 1.1 : 1 title row: eyebrow, title 240/176/128 px, tagline, definition, aside.
    const CSS: &'static str = include_str!("slide_title.css");

    /// HTML: `<div class="slide-title">`, then the eyebrow upper-cased
    /// (`<p class="slide-eyebrow">`), the title as `<h1>` with its size
    /// class (240, 176 or 128 px; unset fits it on two lines of the title
    /// column), the tagline (`<p class="slide-tagline">`), the definition
    /// (`<p class="slide-definition">`, the term in `<em>`), all in
    /// `<div class="slide-title-main">`, and the aside in
    /// `<div class="slide-aside">`.
    fn html(&self, scope: &Scope<'_>) -> Html {
        // The title column: the whole content width, or 1.1 of 2.1 parts
        // of it beside an aside (96 px gap).
        let width = if self.aside.is_some() { 821.0 } else { 1664.0 };
        let size = fitted_size(self.size, &self.title, [240.0, 176.0, 128.0], width, 2.0);
        let mut main = Html::new();
        if let Some(eyebrow) = &self.eyebrow {
            main.push(classed("p", "slide-eyebrow", Html::text(&caption(eyebrow))));
        }
        main.push(classed("h1", size_class(size), line_html(&self.title)));
        if let Some(tagline) = &self.tagline {
            main.push(classed("p", "slide-tagline", marks_html(tagline)));
        }
        if let Some(definition) = &self.definition {
            main.push(classed(
                "p",
                "slide-definition",
                Html::element("em", &[], line_html(&definition.term))
                    .then(Html::text(" "))
                    .then(marks_html(&definition.text)),
            ));
        }
        let mut out = classed("div", "slide-title-main", main);
        if let Some(aside) = &self.aside {
            out.push(classed("div", "slide-aside", scope.html(aside)));
        }
        classed("div", "slide-title", out)
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: `header` (title), `context` `*eyebrow*` (as authored, as
    /// upstream keeps it on Slack), `section` tagline,
    /// `context` `_term_ text`, then the aside's blocks.
    fn slack(&self, scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = vec![header(&line(&self.title))];
        blocks.extend(
            self.eyebrow
                .as_deref()
                .map(|e| context(&format!("*{}*", text_mrkdwn(e)))),
        );
        blocks.extend(self.tagline.as_deref().map(|t| section(&marks_mrkdwn(t))));
        blocks.extend(self.definition.as_ref().map(|d| {
            context(&format!(
                "_{}_ {}",
                text_mrkdwn(&d.term),
                marks_mrkdwn(&d.text)
            ))
        }));
        if let Some(aside) = &self.aside {
            blocks.extend(scope.slack(aside));
        }
        blocks
    }
}
