//! `slideClosing`: the deck's last slide, with links and next steps.

use isomer_sdk::RefineContext;
use isomer_sdk::surface::{Html, Inline, Markdown, Scope, escape_mrkdwn};
use serde_json::Value;

use crate::authored::{Href, LineText, WrappedText};
use crate::check::Issue;
use crate::html::{classed, fitted_size, line_html, marks_html, size_class};
use crate::markdown::marks_inline;
use crate::primitives::SlideNode;
use crate::slack::{bold_run, mark_runs, rich_list, run, text_mrkdwn};
use crate::text::{SEPARATOR, caption, join_blocks, join_lines, line, plain_text};
use crate::url::{address_html, bare_address, check_navigation_href, safe_navigation_href};
use isomer_sdk::surface::slack::{header, section};

slide_node! {
    catalog "slideClosing" in "Slide structure" {
        purpose: "The deck's last slide: a short sign-off, the links to keep, and optional next steps.",
        use_when: [
            "Ending a deck, as the only node of an inverse slideFrame.",
            "The audience will want addresses to visit after the talk.",
        ],
        avoid_when: [
            "Opening the deck: use slideTitle.",
            "Opening a section: use slideSection.",
            "A claim in the middle of the deck: use slideHeading.",
        ],
        example: {
            "type": "slideClosing",
            "title": "Settle tonight",
            "links": [
                { "label": "Docs", "href": "https://example.com/ledger/docs", "text": "example.com/ledger/docs" },
                { "label": "Team", "href": "mailto:ledger@example.com", "text": "ledger@example.com" }
            ],
            "paths": [
                { "title": "Try one region", "body": "Switch the **EU** refunds to the nightly batch first." }
            ]
        },
    }

    /// The fields of a `slideClosing` node.
    pub struct SlideClosing sized {
        /// Two or three words to end on.
        pub title: LineText,
        /// One to four links.
        #[schemars(length(min = 1, max = 4))]
        pub links: Vec<ClosingLink>,
        /// Up to five next steps.
        #[schemars(length(min = 1, max = 5))]
        pub paths: Option<Vec<ClosingPath>>,
    }

    /// A link the audience can follow afterwards.
    pub struct ClosingLink {
        /// What the link is, e.g. "Docs" (printed upper-case).
        pub label: LineText,
        /// Where it goes: an https, http, or mailto URL, or a relative path.
        pub href: Href,
        /// The address as a person would read it aloud, without the scheme.
        pub text: LineText,
    }

    /// A next step for the audience.
    pub struct ClosingPath {
        /// The goal, as an imperative ("Try it on one team").
        pub title: LineText,
        /// How to go about it. Accepts inline marks.
        pub body: WrappedText,
    }
}

impl SlideNode for SlideClosing {
    /// Every link's href passes the navigation sanitizer.
    fn check(&self, _cx: &RefineContext<'_>) -> Vec<Issue> {
        self.links
            .iter()
            .enumerate()
            .filter_map(|(i, link)| {
                check_navigation_href(&link.href).map(|m| Issue::new(format!("links[{i}].href"), m))
            })
            .collect()
    }

    /// Text: the title upper-cased; a `LABEL · text` line per link (with
    /// ` (href)` when the href's address differs from the text); a
    /// `- goal: body` line per path. The three parts are apart by blank
    /// lines.
    fn text(&self, _scope: &Scope<'_>) -> String {
        let links = join_lines(self.links.iter().map(|link| {
            let mut out = format!("{}{SEPARATOR}{}", caption(&link.label), line(&link.text));
            if let Some(href) = safe_navigation_href(&link.href)
                && bare_address(&href) != link.text.as_str()
            {
                out.push_str(&format!(" ({})", line(&href)));
            }
            out
        }));
        let paths = join_lines(
            self.paths
                .iter()
                .flatten()
                .map(|path| format!("- {}: {}", line(&path.title), plain_text(&path.body))),
        );
        join_blocks([line(&self.title).to_uppercase(), links, paths])
    }

    /// Markdown: `# Title`; a `**LABEL** · [text](href)` paragraph per link
    /// (a mailto href as an autolink, `<address>` as upstream shows,
    /// or `[address](href)` when no autolink can hold it; an unsafe href as
    /// plain text); a `- **goal**: body` list.
    const NATIVE_HTML: bool = true;

    /// The closing row: title 160/128/96 px, labelled links 48 px primary, ruled paths.
    const CSS: &'static str = include_str!("slide_closing.css");

    /// HTML: `<div class="slide-closing">`; in its first column the title
    /// as `<h1>` with its size class (160, 128 or 96 px; unset fits it on
    /// two lines of the column) and the links as
    /// `<ul class="slide-links">`, each an upper-cased label
    /// (`<span class="slide-label">`) over its address (`<a>` when the href
    /// is safe, else text; a `mailto:` link shows its address, as the
    /// Markdown does); in the second the paths as
    /// `<ol class="slide-rows">`, each a `<strong>` title and its body.
    fn html(&self, _scope: &Scope<'_>) -> Html {
        let width = if self.paths.is_some() { 821.0 } else { 1664.0 };
        let size = fitted_size(self.size, &self.title, [160.0, 128.0, 96.0], width, 2.0);
        let links = self.links.iter().map(|link| {
            let label = classed("span", "slide-label", Html::text(&caption(&link.label)));
            let target = match safe_navigation_href(&link.href) {
                Some(href) if href.to_ascii_lowercase().starts_with("mailto:") => {
                    Html::element("a", &[("href", &href)], address_html(bare_address(&href)))
                }
                // Link text that is the address itself wraps as an address does.
                Some(href) if bare_address(&href) == link.text.as_str() => {
                    Html::element("a", &[("href", &href)], address_html(&link.text))
                }
                Some(href) => Html::element("a", &[("href", &href)], line_html(&link.text)),
                None => classed("span", "slide-address", line_html(&link.text)),
            };
            Html::element("li", &[], label.then(target))
        });
        let main = classed("h1", size_class(size), line_html(&self.title)).then(classed(
            "ul",
            "slide-links",
            Html::concat(links),
        ));
        let mut out = classed("div", "slide-closing-main", main);
        if let Some(paths) = &self.paths {
            out.push(classed(
                "ol",
                "slide-rows",
                Html::concat(paths.iter().map(|path| {
                    Html::element(
                        "li",
                        &[],
                        Html::element("strong", &[], line_html(&path.title)).then(classed(
                            "span",
                            "slide-row-body",
                            marks_html(&path.body),
                        )),
                    )
                })),
            ));
        }
        classed("div", "slide-closing", out)
    }

    fn markdown(&self, _scope: &Scope<'_>) -> Markdown {
        let mut out = Markdown::heading(1, line(&self.title));
        for link in &self.links {
            let label = Inline::strong(caption(&link.label)).then(SEPARATOR);
            let target = match safe_navigation_href(&link.href) {
                Some(href) if href.to_ascii_lowercase().starts_with("mailto:") => {
                    Inline::try_autolink(&href)
                        .unwrap_or_else(|| Inline::link(bare_address(&href), &href))
                }
                Some(href) => Inline::link(link.text.as_str(), &href),
                None => Inline::text(link.text.as_str()),
            };
            out.push(Markdown::paragraph(label.then(target)));
        }
        out.then(Markdown::bullet_list(self.paths.iter().flatten().map(
            |path| {
                Inline::strong(path.title.as_str())
                    .then(": ")
                    .then(marks_inline(&path.body))
            },
        )))
    }

    const NATIVE_SLACK: bool = true;

    /// Slack: `header`; one `section` of `*LABEL* · <href|text>` lines
    /// (plain text when the href is relative or unsafe, as Slack links only
    /// absolute URLs; a `|` or `>` in the href as `%7C` / `%3E`, `&` as
    /// `&amp;`); a
    /// `rich_text` bullet list of the paths.
    fn slack(&self, _scope: &Scope<'_>) -> Vec<Value> {
        let lines: Vec<String> = self
            .links
            .iter()
            .map(|link| {
                let text = text_mrkdwn(&link.text);
                let target = match safe_navigation_href(&link.href) {
                    Some(href) if bare_address(&href) != href => {
                        // `|` and `>` would end the link: percent-encoded,
                        // so the target stays the same address; `&` is one
                        // of Slack's three control characters, escaped as
                        // the sdk's mrkdwn links escape it.
                        let href = escape_mrkdwn(&href.replace('|', "%7C").replace('>', "%3E"));
                        format!("<{href}|{text}>")
                    }
                    _ => text,
                };
                format!(
                    "*{}*{SEPARATOR}{target}",
                    text_mrkdwn(&caption(&link.label))
                )
            })
            .collect();
        let mut blocks = vec![header(&line(&self.title)), section(&lines.join("\n"))];
        let paths: Vec<Vec<Value>> = self
            .paths
            .iter()
            .flatten()
            .map(|path| {
                let mut runs = vec![bold_run(&line(&path.title)), run(": ")];
                runs.extend(mark_runs(&path.body));
                runs
            })
            .collect();
        if !paths.is_empty() {
            blocks.push(rich_list("bullet", paths));
        }
        blocks
    }
}

#[cfg(test)]
mod tests {
    use isomer_sdk::Surface;
    use serde_json::json;

    #[test]
    fn mailto_links_are_autolinks_and_web_links_keep_their_text() {
        let node = json!({
            "type": "slideClosing",
            "title": "Thanks",
            "links": [
                { "label": "Docs", "href": "https://example.com/docs", "text": "example.com/docs" },
                { "label": "Team", "href": "mailto:team@example.com", "text": "team@example.com" },
                { "label": "Ask", "href": "mailto:team@example.com?subject=Ledger", "text": "team@example.com" },
                { "label": "Guide", "href": "/guide", "text": "the guide" }
            ]
        });
        let runtime = crate::runtime().expect("the slides runtime builds");
        let markdown = runtime
            .render_node(Surface::Markdown, &node, None)
            .expect("the node renders")
            .to_text();
        assert_eq!(
            markdown,
            "# Thanks\n\n**DOCS** · [example.com/docs](https://example.com/docs)\n\n**TEAM** · <team@example.com>\n\n**ASK** · <mailto:team@example.com?subject=Ledger>\n\n**GUIDE** · [the guide](/guide)"
        );
    }
}
