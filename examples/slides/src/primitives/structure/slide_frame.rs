//! `slideFrame`: one whole 16:9 slide, with its footer.

use std::borrow::Cow;

use isomer_sdk::surface::{Html, Inline, Markdown, Scope};
use isomer_sdk::{Node, RefineContext};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::authored::LineText;
use crate::check::{Issue, nested_frames};
use crate::html::classed;
use crate::primitives::SlideNode;
use crate::text::{SEPARATOR, join_blocks, line};
use crate::url::{ABSOLUTE_URL_MESSAGE, absolute_http_url, address_html, bare_address};
use isomer_sdk::surface::escape_mrkdwn;
use isomer_sdk::surface::slack::context;

/// The background of a slide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub enum FrameTone {
    /// The light page background, for content slides.
    Page,
    /// The dark background, for title, section and closing slides.
    Inverse,
}

slide_node! {
    catalog "slideFrame" in "Slide structure" {
        purpose: "One whole 16:9 slide: its content top to bottom, and a footer naming the deck and the section.",
        use_when: [
            "Every slide: a composition's body is exactly one slideFrame.",
            "A title, section or closing slide, with tone \"inverse\".",
            "Keeping the footer in step with the talk: set section and sectionNumber on every slide after the title.",
        ],
        avoid_when: [
            "Grouping nodes inside a slide: frames never nest; put nodes side by side with slideSplit or stack them with slideStack.",
        ],
        example: {
            "type": "slideFrame",
            "brand": "Ledger",
            "section": "Settlement",
            "sectionNumber": "02",
            "logo": false,
            "url": "https://example.com/ledger",
            "body": [
                { "type": "slideHeading", "title": "Settlement runs **nightly**, not on demand" },
                { "type": "slideBulletList", "items": ["One batch at 02:00 UTC", "Retries until 06:00 UTC"] }
            ]
        },
    }

    /// The fields of a `slideFrame` node.
    pub struct SlideFrame {
        /// The slide's content, top to bottom; each node keeps its size. Any
        /// primitive but another slideFrame: frames never nest.
        #[schemars(length(min = 1))]
        pub body: Vec<Node>,
        /// The deck's name, at the left of the footer; the same on every slide.
        pub brand: Option<LineText>,
        /// The section title shown in the footer.
        pub section: Option<LineText>,
        /// The section number shown before the section title, e.g. "02".
        pub section_number: Option<LineText>,
        /// Whether the Isomer mark shows beside the footer (default true); set
        /// false unless the deck is about Isomer.
        pub logo: Option<bool>,
        /// "page" (default) for content slides; "inverse" for title, section and
        /// closing slides.
        pub tone: Option<FrameTone>,
        /// An absolute http or https URL, at the right of the footer; the same on
        /// every slide.
        pub url: Option<LineText>,
    }
}

impl SlideFrame {
    /// The footer parts: brand, `sectionNumber section`, and the url when it
    /// is safe to show (an unsafe one is dropped).
    fn footer_parts(&self) -> (Option<Cow<'_, str>>, Option<Cow<'_, str>>, Option<&str>) {
        let brand = self.brand.as_deref().map(line);
        let section = match (self.section_number.as_deref(), self.section.as_deref()) {
            (Some(number), Some(section)) => {
                Some(format!("{} {}", line(number), line(section)).into())
            }
            (Some(only), None) | (None, Some(only)) => Some(line(only)),
            (None, None) => None,
        };
        let url = self.url.as_deref().and_then(absolute_http_url);
        (brand, section.filter(|section| !section.is_empty()), url)
    }

    /// The plain footer line: the parts apart by ` · `, the url without
    /// its scheme (`Ledger · 02 Settlement · example.com/ledger`); empty
    /// when the frame has none.
    fn footer_line(&self) -> String {
        let (brand, section, url) = self.footer_parts();
        [brand, section, url.map(|u| line(bare_address(u)))]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(SEPARATOR)
    }
}

impl SlideNode for SlideFrame {
    /// Frames never nest; the footer url is an absolute http(s) URL.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        let mut issues = nested_frames("body", &self.body);
        if let Some(url) = &self.url
            && absolute_http_url(url).is_none()
        {
            issues.push(Issue::new("url", ABSOLUTE_URL_MESSAGE));
        }
        issues
    }

    /// The footer is the frame's own content.
    fn has_own_content(_node: &Value) -> Option<bool> {
        Some(true)
    }

    /// Text: the children, a blank line, then the footer line
    /// (`Ledger · 02 Settlement · example.com/ledger`).
    fn text(&self, scope: &Scope<'_>) -> String {
        join_blocks([
            scope.text_all(self.body.iter().map(Node::as_value), "\n\n"),
            self.footer_line(),
        ])
    }

    /// Markdown: the children, then the footer in italics with the url as a
    /// link (`_Ledger · 02 Settlement · [example.com/ledger](https://example.com/ledger)_`).
    fn markdown(&self, scope: &Scope<'_>) -> Markdown {
        let (brand, section, url) = self.footer_parts();
        let mut parts: Vec<Inline> = brand.into_iter().chain(section).map(Inline::text).collect();
        if let Some(url) = url {
            parts.push(Inline::link(bare_address(url), url));
        }
        let footer = if parts.is_empty() {
            Markdown::new()
        } else {
            Markdown::paragraph(Inline::emphasis(Inline::join(parts, SEPARATOR)))
        };
        scope
            .markdown_all(self.body.iter().map(Node::as_value))
            .then(footer)
    }

    const NATIVE_HTML: bool = true;

    /// HTML: `<div class="slide" data-tone="page|inverse">` holding the
    /// children in `<div class="slide-body">`, then the footer as
    /// `<p class="slide-footer">`: the Isomer mark (five empty spans the
    /// stylesheet draws as dots, hidden from assistive technology, unless
    /// `logo` is false), the brand in `<strong>`, a `·`, `sectionNumber section`,
    /// and the url without its scheme in `<a class="slide-url">`. A frame
    /// without brand, section and url has no footer.
    fn html(&self, scope: &Scope<'_>) -> Html {
        let tone = match self.tone {
            Some(FrameTone::Inverse) => "inverse",
            Some(FrameTone::Page) | None => "page",
        };
        let body = classed(
            "div",
            "slide-body",
            scope.html_all(self.body.iter().map(Node::as_value)),
        );
        let (brand, section, url) = self.footer_parts();
        let mut footer = Html::new();
        if brand.is_some() || section.is_some() || url.is_some() {
            if self.logo != Some(false) {
                footer.push(Html::element(
                    "span",
                    &[("class", "slide-logo"), ("aria-hidden", "true")],
                    Html::concat((0..5).map(|_| Html::element("span", &[], Html::new()))),
                ));
            }
            let has_brand = brand.is_some();
            if let Some(brand) = brand {
                footer.push(Html::element("strong", &[], Html::text(&brand)));
            }
            if let Some(section) = section {
                if has_brand {
                    footer.push(Html::element("span", &[], Html::text("·")));
                }
                footer.push(Html::element("span", &[], Html::text(&section)));
            }
            if let Some(url) = url {
                footer.push(Html::element(
                    "a",
                    &[("class", "slide-url"), ("href", url)],
                    address_html(bare_address(url)),
                ));
            }
            footer = classed("p", "slide-footer", footer);
        }
        Html::element(
            "div",
            &[("class", "slide"), ("data-tone", tone)],
            body.then(footer),
        )
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: the children's blocks, then one `context` block with the
    /// footer line.
    fn slack(&self, scope: &Scope<'_>) -> Vec<Value> {
        let mut blocks = scope.slack_all(self.body.iter().map(Node::as_value));
        let footer = self.footer_line();
        if !footer.is_empty() {
            blocks.push(context(&escape_mrkdwn(&footer)));
        }
        blocks
    }
}
