//! `slideQuote`: someone else's words with their source.

use isomer_sdk::surface::{Inline, Markdown, Scope};
use serde_json::Value;

use crate::authored::{LineText, WrappedText};
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
