//! The escaping Markdown builder every `markdown` renderer returns.
//!
//! Renderers never write raw Markdown strings: they build [`Markdown`]
//! blocks from [`Inline`] runs, and every authored string passes through
//! the Markdown escape on the way out. A line break inside a block
//! exists only as an explicit [`Inline::hard_break`]; a URL is linked only
//! through [`Inline::link`] or [`Inline::autolink`], both behind the URL
//! sanitizer. Because the content stays
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
//!
//! Files: [`Inline`] and its runs in `inline`; the blocks of a [`Markdown`]
//! document, and the methods that turn either into an output form, here;
//! each output syntax's writer in its own file (`gfm` Markdown, `mrkdwn` for
//! Slack, `html`, `plain` text), so the content types import no writer.

mod document;
mod gfm;
mod html;
mod inline;
mod mrkdwn;
mod plain;
#[cfg(test)]
mod tests;

pub use document::Markdown;
pub(crate) use html::escape_html;
pub use inline::Inline;
pub use mrkdwn::escape_mrkdwn;

pub(crate) use document::Block;
use document::LineBreaks;
use gfm::{block_markdown, escape_block_start, escape_setext_underline, write_markdown_runs};
use html::write_html_runs;
use mrkdwn::write_mrkdwn_runs;
use plain::write_plain_runs;

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
        Markdown::of(Block::Paragraph(content))
    }

    /// An ATX heading, `level` clamped to 1..=6 (`## Title`).
    pub fn heading(level: u8, content: impl Into<Inline>) -> Markdown {
        Markdown::of(Block::Heading(level.clamp(1, 6), content.into()))
    }

    /// A bullet list, one `- ` item per entry.
    pub fn bullet_list<I, P>(items: I) -> Markdown
    where
        I: IntoIterator<Item = P>,
        P: Into<Inline>,
    {
        Markdown::list(items, Block::Bullets)
    }

    /// An ordered list, `1. `, `2. `, ….
    pub fn ordered_list<I, P>(items: I) -> Markdown
    where
        I: IntoIterator<Item = P>,
        P: Into<Inline>,
    {
        Markdown::list(items, Block::Ordered)
    }

    /// A fenced code block; the fence is longer than any backtick run in
    /// `code` (at least three), and `language` keeps only
    /// `[A-Za-z0-9_+-]`.
    pub fn code_block(language: &str, code: impl Into<String>) -> Markdown {
        let language = language
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-'))
            .collect();
        Markdown::of(Block::Code {
            language,
            code: code.into(),
        })
    }

    /// A blockquote of `content` (`> ` per line, `>` for blank lines); empty
    /// content is no block.
    pub fn blockquote(content: Markdown) -> Markdown {
        if content.is_empty() {
            return Markdown::new();
        }
        Markdown::of(Block::Quote(content))
    }

    /// A GFM table, as upstream writes it: `| a | b |`, a `| - | - |`
    /// delimiter row, then the rows; rows shorter than the head are padded
    /// with empty cells. Cells escape inline markup (`|` included) but no
    /// block openers, which cannot start inside a cell.
    pub fn table(head: Vec<Inline>, rows: Vec<Vec<Inline>>) -> Markdown {
        Markdown::of(Block::Table { head, rows })
    }

    /// A thematic break (`---`).
    pub fn rule() -> Markdown {
        Markdown::of(Block::Rule)
    }

    /// The document of one block.
    fn of(block: Block) -> Markdown {
        Markdown {
            blocks: vec![block],
        }
    }

    /// The list block `list` makes of `items`; no block without items.
    fn list<I, P>(items: I, list: fn(Vec<Inline>) -> Block) -> Markdown
    where
        I: IntoIterator<Item = P>,
        P: Into<Inline>,
    {
        let items: Vec<Inline> = items.into_iter().map(Into::into).collect();
        if items.is_empty() {
            return Markdown::new();
        }
        Markdown::of(list(items))
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

/// The output forms of inline content; each writer is in the file of its
/// syntax.
impl Inline {
    /// The GFM serialization (escaped), as a paragraph holds it: hard
    /// breaks are `\` and a newline, breaks at either end are dropped, and
    /// each line's start is escaped against block openers.
    pub fn to_markdown(&self) -> String {
        self.markdown_lines(LineBreaks::Hard { indent: "" })
    }

    /// The GFM serialization with hard breaks written as `breaks` says.
    fn markdown_lines(&self, breaks: LineBreaks<'_>) -> String {
        let mut lines = vec![String::new()];
        let cell = matches!(breaks, LineBreaks::Cell);
        write_markdown_runs(self.runs(), &mut lines, cell);
        match breaks {
            LineBreaks::Space => escape_block_start(&lines.join(" ")),
            // A cell is inline content: no block can open in it, so `4.2`
            // or `- 1` stay as written.
            LineBreaks::Cell => lines.join(" ").trim_start_matches([' ', '\t']).to_owned(),
            LineBreaks::Hard { indent } => {
                let lines: Vec<String> = lines
                    .iter()
                    .enumerate()
                    .map(|(index, line)| {
                        let escaped = escape_block_start(line);
                        if index > 0 {
                            escape_setext_underline(&escaped)
                        } else {
                            escaped
                        }
                    })
                    .collect();
                let start = lines
                    .iter()
                    .position(|line| !line.is_empty())
                    .unwrap_or(lines.len());
                let end = lines
                    .iter()
                    .rposition(|line| !line.is_empty())
                    .map_or(start, |last| last + 1);
                lines[start..end].join(&format!("\\\n{indent}"))
            }
        }
    }

    /// The Slack `mrkdwn` serialization (`&`, `<`, `>` escaped; a hard
    /// break is a newline, an autolink `<url>`).
    pub fn to_mrkdwn(&self) -> String {
        let mut out = String::new();
        write_mrkdwn_runs(self.runs(), &mut out);
        out
    }

    /// The HTML serialization (every string escaped; a hard break is
    /// `<br>`, an autolink an `<a>` showing its URL).
    pub fn to_html(&self) -> String {
        let mut out = String::new();
        write_html_runs(self.runs(), &mut out);
        out
    }

    /// The text without any markup, on one line (a hard break becomes a
    /// space, an autolink its URL), for one-line slots such as the Slack
    /// `header` a converted heading becomes.
    pub fn to_plain(&self) -> String {
        let mut out = String::new();
        write_plain_runs(self.runs(), &mut out);
        out
    }
}
