//! `slideQuote`: someone else's words with their source.

use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
use crate::html::{classed, fitted_size, line_html, marks_html, size_class};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{marks_mrkdwn, text_mrkdwn};
use crate::text::{join_lines, line, plain_text};
use isomer_sdk::surface::slack::section;

slide_node! {
    catalog "slideQuote" in "Slide structure" {
        purpose: "Another person's words, set large, with who said them.",
        use_when: [
            "Someone else's exact words carry more weight than a paraphrase.",
            "Stopping on one piece of evidence from a customer, a review or a report.",
        ],
        avoid_when: [
            "Your own claim: use slideStatement.",
            "Several speakers taking turns: use slideTranscript.",
            "Naming the dataset behind the figures: use slideSource.",
        ],
        example: {
            "type": "slideQuote",
            "text": "We stopped reconciling by hand the week the **nightly batch** shipped.",
            "source": "Dana Ortiz",
            "context": "Head of Finance, March review"
        },
    }

    /// The fields of a `slideQuote` node.
    pub struct SlideQuote sized {
        /// The quoted words, without quotation marks (the slide adds them).
        /// Accepts inline marks.
        pub text: WrappedText,
        /// Who said it: a person, a document or a team.
        pub source: LineText,
        /// Where or when: a role, a meeting, a date.
        pub context: Option<LineText>,
    }
}

impl SlideQuote {
    /// `— source, context`.
    fn attribution(&self) -> String {
        match &self.context {
            Some(context) => format!("— {}, {}", line(&self.source), line(context)),
            None => format!("— {}", line(&self.source)),
        }
    }
}

impl SlideNode for SlideQuote {
    /// Text: `“text”`, then `— source, context`.
    fn text(&self, _scope: &Scope<'_>) -> String {
        join_lines([format!("“{}”", plain_text(&self.text)), self.attribution()])
    }

    /// Markdown: a blockquote of `“text”`, an empty line, `— source, context`.
    const NATIVE_HTML: bool = true;

    /// The words at 96/76/64 px under a hanging quote, the ruled caption: source 32 px bold, context 28 px.
    const CSS: &'static str = include_str!("slide_quote.css");

    /// HTML: `<figure class="slide-quote">`, the words in curly quotes as a
    /// `<blockquote>` with its size class (96, 76 or 64 px; unset fits them
    /// on four lines of 1,500 px), then `<figcaption>` with the source in
    /// `<strong>` and the context in `<span>`, a space between them so the
    /// page's text reads `source context`.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let size = fitted_size(self.size, &self.text, [96.0, 76.0, 64.0], 1500.0, 4.0);
        let words = Html::text("“")
            .then(marks_html(&self.text))
            .then(Html::text("”"));
        let mut source = Html::element("strong", &[], line_html(&self.source));
        if let Some(context) = &self.context {
            source.push(Html::text(" "));
            source.push(Html::element("span", &[], line_html(context)));
        }
        classed(
            "figure",
            "slide-quote",
            classed("blockquote", size_class(size), words).then(Html::element(
                "figcaption",
                &[],
                source,
            )),
        )
    }

    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let quote = Inline::text("“").then(marks_inline(&self.text)).then("”");
        Markdown::blockquote(
            Markdown::paragraph(quote).then(Markdown::paragraph(self.attribution())),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: one `section`, `> “text”` then `> — source, context`.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![section(&format!(
            "> “{}”\n> {}",
            marks_mrkdwn(&self.text),
            text_mrkdwn(&self.attribution())
        ))]
    }
}
