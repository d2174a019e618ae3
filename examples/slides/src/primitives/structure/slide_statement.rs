//! `slideStatement`: one thesis sentence, set large and alone.

use isomer_sdk::surface::{Html, Markdown, Scope};
use serde_json::Value;

use crate::authored::WrappedText;
use crate::html::{fitted_size, marks_html, size_class};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::text::plain_text;
use isomer_sdk::surface::slack::header;

slide_node! {
    catalog "slideStatement" in "Slide structure" {
        purpose: "A single thesis sentence set large, alone on its slide.",
        use_when: [
            "The whole point of the slide fits in one sentence.",
            "A pause between two dense slides.",
        ],
        avoid_when: [
            "The sentence needs support under it: use slideHeading and a body primitive.",
            "The words are someone else's: use slideQuote.",
        ],
        example: {
            "type": "slideStatement",
            "text": "Nobody waits for a refund **overnight** any more."
        },
    }

    /// The fields of a `slideStatement` node.
    pub struct SlideStatement sized {
        /// The one sentence the slide says. Accepts inline marks; wrap the key
        /// words in **strong**.
        pub text: WrappedText,
    }
}

impl SlideNode for SlideStatement {
    /// Text: the sentence upper-cased.
    fn text(&self, _scope: &Scope<'_>) -> String {
        plain_text(&self.text).to_uppercase()
    }

    /// Markdown: `# sentence`, marks kept.
    const NATIVE_HTML: bool = true;

    /// One claim at 128/112/96 px ExtraBold, strong words primary.
    const CSS: &'static str = include_str!("slide_statement.css");

    /// HTML: `<p class="slide-statement slide-size-…">` (128, 112 or 96 px;
    /// unset fits it on three lines of 1,560 px).
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let size = fitted_size(self.size, &self.text, [128.0, 112.0, 96.0], 1560.0, 3.0);
        Html::element(
            "p",
            &[("class", &format!("slide-statement {}", size_class(size)))],
            marks_html(&self.text),
        )
    }

    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        Markdown::heading(1, marks_inline(&self.text))
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: one `header` with the sentence.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        vec![header(&plain_text(&self.text))]
    }
}
