//! The escaping Markdown builder every `markdown` renderer returns.
//!
//! Renderers never write raw Markdown strings: they build [`Markdown`]
//! blocks from [`Inline`] runs, and every authored string passes through
//! [`escape_markdown_text`] on the way out. Because the content stays
//! structured, the same value also converts to Slack `mrkdwn` (the Block Kit
//! fallback for primitives without a `slack` renderer) and to HTML (the
//! fallback for primitives without an `html` renderer) without re-parsing.
//!
//! ```
//! use isomer_sdk::{Inline, Markdown};
//!
//! let md = Markdown::heading(2, "Q3 *plan*")
//!     .then(Markdown::paragraph(Inline::strong("Due:").then(" 1. March")))
//!     .then(Markdown::bullet_list(["a_b", "# not a heading"]));
//! assert_eq!(
//!     md.to_markdown(),
//!     "## Q3 \\*plan\\*\n\n**Due:** 1. March\n\n- a\\_b\n- \\# not a heading"
//! );
//! ```

use crate::js::code_span;
use crate::url::sanitize_navigation_href;

/// One run of inline content.
#[derive(Debug, Clone, PartialEq)]
enum Run {
    /// Authored text, escaped when serialized.
    Text(String),
    /// `**…**`.
    Strong(Vec<Run>),
    /// `_…_`.
    Emphasis(Vec<Run>),
    /// A code span; the fence grows with the backtick runs inside.
    Code(String),
    /// A link whose href passed the navigation policy.
    Link { label: Vec<Run>, href: String },
}

/// Inline Markdown content: escaped text, strong, emphasis, code spans and
/// links, concatenated. `From<&str>` and `From<String>` make escaped text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Inline {
    runs: Vec<Run>,
}

impl Inline {
    /// Authored text (escaped on output; line breaks become spaces).
    pub fn text(text: impl Into<String>) -> Inline {
        Inline {
            runs: vec![Run::Text(text.into())],
        }
    }

    /// Strong emphasis, `**…**` (Slack `*…*`, HTML `<strong>`).
    pub fn strong(inner: impl Into<Inline>) -> Inline {
        Inline {
            runs: vec![Run::Strong(inner.into().runs)],
        }
    }

    /// Emphasis, `_…_` (Slack `_…_`, HTML `<em>`).
    pub fn emphasis(inner: impl Into<Inline>) -> Inline {
        Inline {
            runs: vec![Run::Emphasis(inner.into().runs)],
        }
    }

    /// A code span, fenced with one more backtick than the longest run
    /// inside, padded when it starts or ends with a backtick.
    pub fn code(code: impl Into<String>) -> Inline {
        Inline {
            runs: vec![Run::Code(code.into())],
        }
    }

    /// A link. `href` goes through
    /// [`crate::sanitize_navigation_href`]: an
    /// unsafe one leaves the label alone, unlinked.
    pub fn link(label: impl Into<Inline>, href: &str) -> Inline {
        let label = label.into().runs;
        match sanitize_navigation_href(href) {
            Some(href) => Inline {
                runs: vec![Run::Link { label, href }],
            },
            None => Inline { runs: label },
        }
    }

    /// This content followed by `next`.
    pub fn then(mut self, next: impl Into<Inline>) -> Inline {
        self.runs.extend(next.into().runs);
        self
    }

    /// The parts joined by `separator` (escaped text).
    pub fn join<I, P>(parts: I, separator: &str) -> Inline
    where
        I: IntoIterator<Item = P>,
        P: Into<Inline>,
    {
        let mut out = Inline::default();
        for (index, part) in parts.into_iter().enumerate() {
            if index > 0 {
                out.runs.push(Run::Text(separator.to_owned()));
            }
            out.runs.extend(part.into().runs);
        }
        out
    }

    /// True when there is no content at all.
    pub fn is_empty(&self) -> bool {
        self.runs.iter().all(|run| match run {
            Run::Text(text) | Run::Code(text) => text.is_empty(),
            Run::Strong(inner) | Run::Emphasis(inner) => inner.is_empty(),
            Run::Link { .. } => false,
        })
    }

    /// The GFM serialization (escaped).
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        write_markdown_runs(&self.runs, &mut out);
        escape_block_start(&out)
    }

    /// The Slack `mrkdwn` serialization (`&`, `<`, `>` escaped).
    pub fn to_mrkdwn(&self) -> String {
        let mut out = String::new();
        write_mrkdwn_runs(&self.runs, &mut out);
        out
    }

    /// The HTML serialization (every string escaped).
    pub fn to_html(&self) -> String {
        let mut out = String::new();
        write_html_runs(&self.runs, &mut out);
        out
    }

    /// The text without any markup.
    pub fn to_plain(&self) -> String {
        let mut out = String::new();
        write_plain_runs(&self.runs, &mut out);
        out
    }
}

impl From<&str> for Inline {
    fn from(text: &str) -> Inline {
        Inline::text(text)
    }
}

impl From<String> for Inline {
    fn from(text: String) -> Inline {
        Inline::text(text)
    }
}

impl From<&String> for Inline {
    fn from(text: &String) -> Inline {
        Inline::text(text.clone())
    }
}

/// One block of a Markdown document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Block {
    Paragraph(Inline),
    Heading(u8, Inline),
    Bullets(Vec<Inline>),
    Ordered(Vec<Inline>),
    Code {
        language: String,
        code: String,
    },
    Quote(Markdown),
    Table {
        head: Vec<Inline>,
        rows: Vec<Vec<Inline>>,
    },
    Rule,
}

/// A Markdown document: a list of blocks, serialized joined by a blank line.
/// Empty paragraphs and empty documents are dropped, so containers can push
/// their children's output without checking it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Markdown {
    pub(crate) blocks: Vec<Block>,
}

impl Markdown {
    /// No content (renders nothing).
    pub fn new() -> Markdown {
        Markdown::default()
    }

    /// A paragraph; an empty one is no block at all.
    pub fn paragraph(content: impl Into<Inline>) -> Markdown {
        let content = content.into();
        if content.is_empty() {
            return Markdown::new();
        }
        Markdown {
            blocks: vec![Block::Paragraph(content)],
        }
    }

    /// An ATX heading, `level` clamped to 1..=6 (`## Title`).
    pub fn heading(level: u8, content: impl Into<Inline>) -> Markdown {
        Markdown {
            blocks: vec![Block::Heading(level.clamp(1, 6), content.into())],
        }
    }

    /// A bullet list, one `- ` item per entry.
    pub fn bullet_list<I, P>(items: I) -> Markdown
    where
        I: IntoIterator<Item = P>,
        P: Into<Inline>,
    {
        let items: Vec<Inline> = items.into_iter().map(Into::into).collect();
        if items.is_empty() {
            return Markdown::new();
        }
        Markdown {
            blocks: vec![Block::Bullets(items)],
        }
    }

    /// An ordered list, `1. `, `2. `, ….
    pub fn ordered_list<I, P>(items: I) -> Markdown
    where
        I: IntoIterator<Item = P>,
        P: Into<Inline>,
    {
        let items: Vec<Inline> = items.into_iter().map(Into::into).collect();
        if items.is_empty() {
            return Markdown::new();
        }
        Markdown {
            blocks: vec![Block::Ordered(items)],
        }
    }

    /// A fenced code block; the fence is longer than any backtick run in
    /// `code` (at least three), and `language` keeps only
    /// `[A-Za-z0-9_+-]`.
    pub fn code_block(language: &str, code: impl Into<String>) -> Markdown {
        let language = language
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-'))
            .collect();
        Markdown {
            blocks: vec![Block::Code {
                language,
                code: code.into(),
            }],
        }
    }

    /// A blockquote of `content` (`> ` per line, `>` for blank lines); empty
    /// content is no block.
    pub fn blockquote(content: Markdown) -> Markdown {
        if content.is_empty() {
            return Markdown::new();
        }
        Markdown {
            blocks: vec![Block::Quote(content)],
        }
    }

    /// A GFM table; rows shorter than the head are padded with empty cells.
    pub fn table(head: Vec<Inline>, rows: Vec<Vec<Inline>>) -> Markdown {
        Markdown {
            blocks: vec![Block::Table { head, rows }],
        }
    }

    /// A thematic break (`---`).
    pub fn rule() -> Markdown {
        Markdown {
            blocks: vec![Block::Rule],
        }
    }

    /// This document followed by `next`'s blocks.
    pub fn then(mut self, next: Markdown) -> Markdown {
        self.blocks.extend(next.blocks);
        self
    }

    /// Appends `next`'s blocks.
    pub fn push(&mut self, next: Markdown) {
        self.blocks.extend(next.blocks);
    }

    /// The documents' blocks in order.
    pub fn concat<I: IntoIterator<Item = Markdown>>(parts: I) -> Markdown {
        let mut out = Markdown::new();
        for part in parts {
            out.push(part);
        }
        out
    }

    /// True when there is no block.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The GFM text: blocks joined by a blank line.
    pub fn to_markdown(&self) -> String {
        self.blocks
            .iter()
            .map(block_markdown)
            .filter(|text| !text.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n")
    }
}

impl std::fmt::Display for Markdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_markdown())
    }
}

fn block_markdown(block: &Block) -> String {
    match block {
        Block::Paragraph(content) => content.to_markdown(),
        Block::Heading(level, content) => {
            let text = content.to_markdown();
            format!("{} {}", "#".repeat(usize::from(*level)), text)
        }
        Block::Bullets(items) => items
            .iter()
            .map(|item| format!("- {}", item.to_markdown()))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Ordered(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| format!("{}. {}", index + 1, item.to_markdown()))
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Code { language, code } => {
            let fence = "`".repeat(longest_backtick_run(code).max(2) + 1);
            format!("{fence}{language}\n{code}\n{fence}")
        }
        Block::Quote(content) => content
            .to_markdown()
            .split('\n')
            .map(|line| {
                if line.is_empty() {
                    ">".to_owned()
                } else {
                    format!("> {line}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Table { head, rows } => {
            let width = head.len().max(1);
            let row = |cells: &[Inline]| {
                let mut parts: Vec<String> = (0..width)
                    .map(|i| cells.get(i).map(Inline::to_markdown).unwrap_or_default())
                    .collect();
                for part in &mut parts {
                    if part.is_empty() {
                        part.push(' ');
                    }
                }
                format!("| {} |", parts.join(" | "))
            };
            let mut lines = vec![row(head), format!("|{}", " --- |".repeat(width))];
            lines.extend(rows.iter().map(|cells| row(cells)));
            lines.join("\n")
        }
        Block::Rule => "---".to_owned(),
    }
}

fn longest_backtick_run(text: &str) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// Escapes authored text for Markdown inline content, as the slides
/// helpers' `markdownText` does (slides-and-runtime.md §3.3.3): line breaks
/// (`\r\n`, `\n`, `\r`, U+2028, U+2029) become spaces, and each of
/// `` \ ` * _ [ ] < > & | `` gets a backslash. Block-opening markers at the
/// start of a block are escaped where the block is assembled.
pub fn escape_markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push(' ');
            }
            '\n' | '\u{2028}' | '\u{2029}' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Escapes a block-opening marker at the start of a serialized block (after
/// leading whitespace, which is removed): `#`…, `---`, `===`, `~~~`, `+`/`-`
/// followed by a space or the end, and `N.` / `N)` ordered-list markers.
fn escape_block_start(text: &str) -> String {
    let trimmed = text.trim_start_matches([' ', '\t']);
    let first = trimmed.chars().next();
    let escaped = match first {
        Some('#') => Some(0),
        Some('-' | '=' | '~') if trimmed.starts_with(&first.unwrap().to_string().repeat(3)) => {
            Some(0)
        }
        Some('+' | '-') => {
            let rest = &trimmed[1..];
            (rest.is_empty() || rest.starts_with(' ')).then_some(0)
        }
        Some(c) if c.is_ascii_digit() => {
            let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
            matches!(trimmed[digits..].chars().next(), Some('.' | ')')).then_some(digits)
        }
        _ => None,
    };
    match escaped {
        Some(at) => format!("{}\\{}", &trimmed[..at], &trimmed[at..]),
        None => trimmed.to_owned(),
    }
}

fn write_markdown_runs(runs: &[Run], out: &mut String) {
    for run in runs {
        match run {
            Run::Text(text) => out.push_str(&escape_markdown_text(text)),
            Run::Strong(inner) => {
                out.push_str("**");
                write_markdown_runs(inner, out);
                out.push_str("**");
            }
            Run::Emphasis(inner) => {
                out.push('_');
                write_markdown_runs(inner, out);
                out.push('_');
            }
            Run::Code(code) => out.push_str(&code_span(&one_line_breaks(code))),
            Run::Link { label, href } => {
                out.push('[');
                write_markdown_runs(label, out);
                out.push_str("](");
                if href.contains([' ', '(', ')']) {
                    out.push('<');
                    out.push_str(href);
                    out.push('>');
                } else {
                    out.push_str(href);
                }
                out.push(')');
            }
        }
    }
}

fn one_line_breaks(text: &str) -> String {
    escape_line_breaks(text)
}

fn escape_line_breaks(text: &str) -> String {
    text.replace("\r\n", " ")
        .replace(['\n', '\r', '\u{2028}', '\u{2029}'], " ")
}

/// Escapes `&`, `<`, `>` for Slack `mrkdwn` and `plain_text`
/// (Slack's three control characters).
pub fn escape_mrkdwn(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn write_mrkdwn_runs(runs: &[Run], out: &mut String) {
    for run in runs {
        match run {
            Run::Text(text) => out.push_str(&escape_mrkdwn(&escape_line_breaks(text))),
            Run::Strong(inner) => {
                out.push('*');
                write_mrkdwn_runs(inner, out);
                out.push('*');
            }
            Run::Emphasis(inner) => {
                out.push('_');
                write_mrkdwn_runs(inner, out);
                out.push('_');
            }
            Run::Code(code) => {
                out.push('`');
                out.push_str(&escape_mrkdwn(&escape_line_breaks(code)).replace('`', "'"));
                out.push('`');
            }
            Run::Link { label, href } => {
                let mut text = String::new();
                write_mrkdwn_runs(label, &mut text);
                let absolute = ["https:", "http:", "mailto:"]
                    .iter()
                    .any(|scheme| href.to_ascii_lowercase().starts_with(scheme));
                if absolute {
                    out.push('<');
                    out.push_str(&escape_mrkdwn(href).replace('|', "%7C"));
                    out.push('|');
                    out.push_str(&text.replace('|', "¦"));
                    out.push('>');
                } else {
                    out.push_str(&text);
                }
            }
        }
    }
}

/// Escapes `&`, `<`, `>`, `"`, `'` for HTML text and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn write_html_runs(runs: &[Run], out: &mut String) {
    for run in runs {
        match run {
            Run::Text(text) => out.push_str(&escape_html(text)),
            Run::Strong(inner) => {
                out.push_str("<strong>");
                write_html_runs(inner, out);
                out.push_str("</strong>");
            }
            Run::Emphasis(inner) => {
                out.push_str("<em>");
                write_html_runs(inner, out);
                out.push_str("</em>");
            }
            Run::Code(code) => {
                out.push_str("<code>");
                out.push_str(&escape_html(code));
                out.push_str("</code>");
            }
            Run::Link { label, href } => {
                out.push_str("<a href=\"");
                out.push_str(&escape_html(href));
                out.push_str("\">");
                write_html_runs(label, out);
                out.push_str("</a>");
            }
        }
    }
}

fn write_plain_runs(runs: &[Run], out: &mut String) {
    for run in runs {
        match run {
            Run::Text(text) | Run::Code(text) => out.push_str(text),
            Run::Strong(inner) | Run::Emphasis(inner) => write_plain_runs(inner, out),
            Run::Link { label, .. } => write_plain_runs(label, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_inline_punctuation_and_line_breaks() {
        assert_eq!(
            escape_markdown_text("a*b_c\nd|e<f>&\\`"),
            "a\\*b\\_c d\\|e\\<f\\>\\&\\\\\\`"
        );
    }

    #[test]
    fn escapes_block_openers_at_the_start_only() {
        assert_eq!(Markdown::paragraph("# x").to_markdown(), "\\# x");
        assert_eq!(Markdown::paragraph("- x").to_markdown(), "\\- x");
        assert_eq!(Markdown::paragraph("-x").to_markdown(), "-x");
        assert_eq!(Markdown::paragraph("---").to_markdown(), "\\---");
        assert_eq!(Markdown::paragraph("12. x").to_markdown(), "12\\. x");
        assert_eq!(Markdown::paragraph("12 x. y").to_markdown(), "12 x. y");
        assert_eq!(Markdown::paragraph("  + ").to_markdown(), "\\+ ");
    }

    #[test]
    fn serializes_blocks() {
        let md = Markdown::code_block("rust", "a ``` b")
            .then(Markdown::blockquote(
                Markdown::paragraph("one").then(Markdown::paragraph("two")),
            ))
            .then(Markdown::table(
                vec!["k".into(), "v".into()],
                vec![vec!["a|b".into()]],
            ))
            .then(Markdown::ordered_list(["x", "y"]));
        assert_eq!(
            md.to_markdown(),
            "````rust\na ``` b\n````\n\n> one\n>\n> two\n\n| k | v |\n| --- | --- |\n| a\\|b |   |\n\n1. x\n2. y"
        );
    }

    #[test]
    fn links_only_safe_hrefs() {
        assert_eq!(
            Inline::link("docs", "https://x.test/a").to_markdown(),
            "[docs](https://x.test/a)"
        );
        assert_eq!(
            Inline::link("docs", "javascript:alert(1)").to_markdown(),
            "docs"
        );
        assert_eq!(
            Inline::link("a|b", "https://x.test").to_mrkdwn(),
            "<https://x.test|a¦b>"
        );
        assert_eq!(Inline::link("rel", "/a").to_mrkdwn(), "rel");
        assert_eq!(
            Inline::link("<x>", "https://x.test/?a=1&b=2").to_html(),
            "<a href=\"https://x.test/?a=1&amp;b=2\">&lt;x&gt;</a>"
        );
    }

    #[test]
    fn empty_content_is_no_block() {
        assert!(Markdown::paragraph("").is_empty());
        assert!(Markdown::bullet_list(Vec::<Inline>::new()).is_empty());
        assert_eq!(
            Markdown::paragraph("a").then(Markdown::new()).to_markdown(),
            "a"
        );
    }
}
