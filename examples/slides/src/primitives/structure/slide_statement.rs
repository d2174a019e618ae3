//! `slideStatement`: one thesis sentence, set large and alone.

use isomer_sdk::CatalogEntry;
use isomer_sdk::surface::{Html, Markdown, Scope};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::authored::{Size, WrappedText};
use crate::catalog::entry;
use crate::html::{fitted_size, marks_html, size_class};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::text::plain_text;
use isomer_sdk::surface::slack::header;

/// The fields of a `slideStatement` node.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SlideStatement {
    /// The one sentence the slide says. Accepts inline marks; wrap the key
    /// words in **strong**.
    pub text: WrappedText,
    /// Size step "l", "m" or "s"; leave it out to fit automatically.
    pub size: Option<Size>,
}

impl SlideNode for SlideStatement {
    const TYPE: &'static str = "slideStatement";

    /// Text: the sentence upper-cased.
    fn text(&self, _scope: &Scope<'_>) -> String {
        plain_text(&self.text).to_uppercase()
    }

    /// Markdown: `# sentence`, marks kept.
    const NATIVE_HTML: bool = true;

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

    fn catalog() -> CatalogEntry {
        entry(
            Self::TYPE,
            "Slide structure",
            "A single thesis sentence set large, alone on its slide.",
            &[
                "The whole point of the slide fits in one sentence.",
                "A pause between two dense slides.",
            ],
            &[
                "The sentence needs support under it: use slideHeading and a body primitive.",
                "The words are someone else's: use slideQuote.",
            ],
            json!({
                "type": "slideStatement",
                "text": "Nobody waits for a refund **overnight** any more."
            }),
        )
    }
}
