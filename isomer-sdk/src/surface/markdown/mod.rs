//! The escaping Markdown builder every `markdown` renderer returns.
//!
//! Renderers never write raw Markdown strings: they build [`Markdown`]
//! blocks from [`Inline`] runs, and every authored string passes through
//! [`escape_markdown_text`] on the way out. A line break inside a block
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

mod gfm;
mod html;
mod mrkdwn;
mod plain;

use crate::js::js_trim;
use crate::url::sanitize_navigation_href;

pub use gfm::escape_markdown_text;
pub use html::escape_html;
pub use mrkdwn::escape_mrkdwn;

use gfm::{block_markdown, escape_block_start, escape_setext_underline, write_markdown_runs};
use html::write_html_runs;
use mrkdwn::write_mrkdwn_runs;
use plain::write_plain_runs;

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
    /// A hard line break inside the block (`\` and a newline).
    HardBreak,
    /// An autolink: an absolute URL that passed the navigation policy and
    /// holds nothing an autolink cannot (see [`Inline::autolink`]).
    Autolink(Autolink),
}

/// The two CommonMark autolink forms an [`Inline::autolink`] can take.
#[derive(Debug, Clone, PartialEq)]
enum Autolink {
    /// `<https://…>`, `<http://…>` or `<mailto:…>`: the URL is both the
    /// destination and the text.
    Uri(String),
    /// `<name@host>` for a `mailto:` URL whose address is a plain one: the
    /// text is the address and the destination `mailto:` plus the address.
    Email(String),
}

impl Autolink {
    /// The link destination.
    fn href(&self) -> String {
        match self {
            Autolink::Uri(url) => url.clone(),
            Autolink::Email(address) => format!("mailto:{address}"),
        }
    }

    /// What a reader sees.
    fn text(&self) -> &str {
        match self {
            Autolink::Uri(url) | Autolink::Email(url) => url,
        }
    }
}

/// Inline Markdown content: escaped text, strong, emphasis, code spans,
/// links, autolinks and hard line breaks, concatenated. `From<&str>` and
/// `From<String>` make escaped text.
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

    /// Strong emphasis, `**…**` (Slack `*…*`, HTML `<strong>`). Across a
    /// [`Inline::hard_break`] each line is wrapped on its own (`**a**\`,
    /// newline, `**b**`; Slack `*a*`, newline, `*b*`), and whitespace at
    /// either end of a line's content stays outside the delimiters
    /// (`strong(" a ")` is ` **a** `), since a delimiter beside a line
    /// break or whitespace can neither open nor close; a line with no
    /// content gets no delimiters.
    pub fn strong(inner: impl Into<Inline>) -> Inline {
        Inline {
            runs: vec![Run::Strong(inner.into().runs)],
        }
    }

    /// Emphasis, `_…_` (Slack `_…_`, HTML `<em>`), wrapped line by line
    /// across hard breaks as [`Inline::strong`] is.
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

    /// A hard line break: the content after it starts a new line of the
    /// same paragraph (or list item, or quote).
    ///
    /// Serialized as CommonMark's backslash hard break, `\` followed by a
    /// newline, rather than as two trailing spaces: the break is visible in
    /// the source, and editors, linters and `git diff --check` clean-ups that
    /// trim trailing whitespace cannot silently turn it into a soft break
    /// (which a renderer joins with a space). Where a block cannot hold a
    /// line break (a heading, a table cell) it becomes one space; a break at
    /// either end of a block is dropped, because CommonMark would print the
    /// backslash there. Every line after a break gets the same block-opener
    /// escaping as a block's first line, so `# x` after a break stays text;
    /// in a list item the following lines are indented under the item.
    /// Slack `mrkdwn`: a newline; HTML: `<br>`; plain text: a space.
    ///
    /// ```
    /// use isomer_sdk::{Inline, Markdown};
    ///
    /// let turn = Inline::text("Where is it?").then(Inline::hard_break()).then("# 4411");
    /// assert_eq!(Markdown::paragraph(turn).to_markdown(), "Where is it?\\\n\\# 4411");
    /// ```
    pub fn hard_break() -> Inline {
        Inline {
            runs: vec![Run::HardBreak],
        }
    }

    /// The lines as one run of content, apart by [`Inline::hard_break`]s
    /// (each line is escaped text, or any other inline content).
    pub fn lines<I, P>(lines: I) -> Inline
    where
        I: IntoIterator<Item = P>,
        P: Into<Inline>,
    {
        Inline::joined(lines, Run::HardBreak)
    }

    /// An autolink, `<https://example.com/a>`, for an absolute `https:`,
    /// `http:` or `mailto:` URL (scheme in any case).
    ///
    /// The URL must pass [`crate::sanitize_navigation_href`], and the
    /// string it returns (the authored URL trimmed) must start with one of
    /// those schemes and hold no character an autolink cannot: no
    /// whitespace, no control character, no `<` or `>` (CommonMark's
    /// autolink grammar), and no `|` (which would end a GFM table cell; the
    /// builder does not know whether the link lands in one). Anything else
    /// (`javascript:…`, a relative path, `https://a b`) becomes escaped text
    /// of the URL as given, exactly as [`Inline::text`] would print it:
    /// never raw Markdown.
    ///
    /// A `mailto:` URL whose address is a plain `name@host` (name of
    /// `[A-Za-z0-9._%+-]`, host of CommonMark's dot-separated labels) is
    /// written in CommonMark's email form, `<name@host>`, which shows the
    /// address and links to `mailto:name@host` (the slides pack's closing
    /// links, upstream `slideClosing`); other `mailto:`
    /// URLs keep the `<mailto:…>` form. The narrower name alphabet keeps
    /// `<!…` and `<?…`, which open raw HTML blocks, out of the output.
    ///
    /// Slack `mrkdwn`: `<url>` (`<mailto:a@b.example|a@b.example>` for the
    /// email form); HTML: `<a href="url">url</a>`; plain text: the URL.
    ///
    /// ```
    /// use isomer_sdk::Inline;
    ///
    /// assert_eq!(Inline::autolink("https://example.com/a_b").to_markdown(), "<https://example.com/a_b>");
    /// assert_eq!(Inline::autolink("mailto:team@example.com").to_markdown(), "<team@example.com>");
    /// assert_eq!(Inline::autolink("javascript:alert(1)").to_markdown(), "javascript:alert(1)");
    /// assert_eq!(Inline::autolink("https://a.example/<b>").to_markdown(), "https://a.example/\\<b\\>");
    /// ```
    pub fn autolink(url: &str) -> Inline {
        Inline::try_autolink(url).unwrap_or_else(|| Inline::text(url))
    }

    /// [`Inline::autolink`] without the fallback: `None` when `url` cannot
    /// be an autolink, so a renderer can pick another form (a labelled
    /// [`Inline::link`], plain text).
    ///
    /// ```
    /// use isomer_sdk::Inline;
    ///
    /// assert!(Inline::try_autolink("https://example.com").is_some());
    /// assert_eq!(Inline::try_autolink("/docs"), None);
    /// ```
    pub fn try_autolink(url: &str) -> Option<Inline> {
        autolink_form(url).map(|autolink| Inline {
            runs: vec![Run::Autolink(autolink)],
        })
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
        Inline::joined(parts, Run::Text(separator.to_owned()))
    }

    /// The parts with the run `separator` between each two.
    fn joined<I, P>(parts: I, separator: Run) -> Inline
    where
        I: IntoIterator<Item = P>,
        P: Into<Inline>,
    {
        let mut out = Inline::default();
        for (index, part) in parts.into_iter().enumerate() {
            if index > 0 {
                out.runs.push(separator.clone());
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
            Run::HardBreak => true,
            Run::Link { .. } | Run::Autolink(_) => false,
        })
    }

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
        write_markdown_runs(&self.runs, &mut lines, cell);
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
        write_mrkdwn_runs(&self.runs, &mut out);
        out
    }

    /// The HTML serialization (every string escaped; a hard break is
    /// `<br>`, an autolink an `<a>` showing its URL).
    pub fn to_html(&self) -> String {
        let mut out = String::new();
        write_html_runs(&self.runs, &mut out);
        out
    }

    /// The text without any markup, on one line (a hard break becomes a
    /// space, an autolink its URL), for one-line slots such as the Slack
    /// `header` a converted heading becomes.
    pub fn to_plain(&self) -> String {
        let mut out = String::new();
        write_plain_runs(&self.runs, &mut out);
        out
    }
}

/// How a block writes its content's hard line breaks.
#[derive(Debug, Clone, Copy)]
enum LineBreaks<'a> {
    /// `\` and a newline, the next line starting with `indent` (the width
    /// of a list item's marker, so the line stays in the item).
    Hard { indent: &'a str },
    /// One space, for a heading, which ends at a newline.
    Space,
    /// One space, as [`LineBreaks::Space`], in a GFM table cell: GFM splits
    /// a row at every unescaped `|` before it parses inlines, code spans
    /// and link destinations included, so those write theirs as `\|`
    /// (which GFM reads back as `|`).
    Cell,
}

/// The autolink `url` can be, if any (the rules of [`Inline::autolink`]).
fn autolink_form(url: &str) -> Option<Autolink> {
    // The sanitizer deletes control characters, so the authored URL is
    // checked too: `https://a\nb` is no autolink to `https://ab`.
    let fits = |url: &str| {
        !url.is_empty()
            && !url
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '|'))
    };
    if !fits(js_trim(url)) {
        return None;
    }
    let url = sanitize_navigation_href(url)?;
    if !fits(&url) {
        return None;
    }
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("mailto:") {
        let address = &url["mailto:".len()..];
        return Some(if is_plain_email(address) {
            Autolink::Email(address.to_owned())
        } else {
            Autolink::Uri(url)
        });
    }
    (lower.starts_with("https:") || lower.starts_with("http:")).then_some(Autolink::Uri(url))
}

/// True for `name@host` where the name is one or more of
/// `[A-Za-z0-9._%+-]` and the host is CommonMark's email-autolink host:
/// labels of ASCII letters, digits and inner hyphens, 1–63 long, apart by
/// dots.
fn is_plain_email(address: &str) -> bool {
    let Some((name, host)) = address.split_once('@') else {
        return false;
    };
    let name_ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-'));
    let label_ok = |label: &str| {
        let bytes = label.as_bytes();
        (1..=63).contains(&bytes.len())
            && bytes
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
            && bytes[0] != b'-'
            && bytes[bytes.len() - 1] != b'-'
    };
    name_ok && host.split('.').all(label_ok)
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
                vec![vec!["a|b".into()], vec!["4.2".into(), "- 1".into()]],
            ))
            .then(Markdown::ordered_list(["x", "y"]));
        assert_eq!(
            md.to_markdown(),
            "````rust\na ``` b\n````\n\n> one\n>\n> two\n\n| k | v |\n| - | - |\n| a\\|b |   |\n| 4.2 | - 1 |\n\n1. x\n2. y"
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
    fn hard_break_is_a_backslash_and_a_newline() {
        let lines = Inline::text("one").then(Inline::hard_break()).then("two");
        assert_eq!(lines.to_markdown(), "one\\\ntwo");
        assert_eq!(
            Markdown::paragraph(Inline::lines(["a", "b", "c"])).to_markdown(),
            "a\\\nb\\\nc"
        );
    }

    #[test]
    fn hard_break_next_to_text_that_needs_escaping() {
        // A trailing authored backslash is escaped, so the break's own
        // backslash still starts a hard break; the next line's block
        // opener and punctuation are escaped as on a block's first line.
        let md = Markdown::paragraph(
            Inline::text("C:\\")
                .then(Inline::hard_break())
                .then("# not *a* heading")
                .then(Inline::hard_break())
                .then("- no list")
                .then(Inline::hard_break())
                .then("1) nor this"),
        );
        assert_eq!(
            md.to_markdown(),
            "C:\\\\\\\n\\# not \\*a\\* heading\\\n\\- no list\\\n1\\) nor this"
        );
    }

    #[test]
    fn a_line_after_a_break_never_underlines_the_one_before() {
        for (line, escaped) in [("=", "\\="), ("==", "\\=="), ("--", "\\--"), ("-", "\\-")] {
            let md = Inline::lines(["Title", line]).to_markdown();
            assert_eq!(md, format!("Title\\\n{escaped}"), "{line}");
        }
        assert_eq!(Inline::lines(["a", "= ="]).to_markdown(), "a\\\n= =");
    }

    #[test]
    fn breaks_at_either_end_are_dropped_and_inner_blank_lines_kept() {
        let md = Inline::hard_break()
            .then("  ")
            .then(Inline::hard_break())
            .then("a")
            .then(Inline::hard_break())
            .then(" ")
            .then(Inline::hard_break())
            .then("b")
            .then(Inline::hard_break());
        assert_eq!(md.to_markdown(), "a\\\n\\\nb");
        assert!(Markdown::paragraph(Inline::hard_break()).is_empty());
    }

    #[test]
    fn text_line_terminators_stay_spaces_beside_hard_breaks() {
        let md = Inline::text("a\nb\r\nc\u{2028}d")
            .then(Inline::hard_break())
            .then(Inline::code("x\ny"));
        assert_eq!(md.to_markdown(), "a b c d\\\n`x y`");
    }

    #[test]
    fn hard_breaks_inside_marks_break_the_line_inside_them() {
        // Each line is wrapped on its own, so no delimiter sits next to the
        // break (where it could not open or close) and `#` starts no line.
        let md = Inline::strong(Inline::lines(["a", "# b"]));
        assert_eq!(md.to_markdown(), "**a**\\\n**# b**");
    }

    #[test]
    fn hard_breaks_by_block() {
        let two = || Inline::lines(["a", "b"]);
        let md = Markdown::heading(2, two())
            .then(Markdown::bullet_list([two()]))
            .then(Markdown::ordered_list(
                std::iter::repeat_n(Inline::text("x"), 9).chain([two()]),
            ))
            .then(Markdown::blockquote(Markdown::paragraph(two())))
            .then(Markdown::table(vec![two()], vec![vec![two()]]));
        assert_eq!(
            md.to_markdown(),
            "## a b\n\n- a\\\n  b\n\n1. x\n2. x\n3. x\n4. x\n5. x\n6. x\n7. x\n8. x\n9. x\n10. a\\\n    b\n\n> a\\\n> b\n\n| a b |\n| - |\n| a b |"
        );
    }

    /// Asserts the Markdown of `Inline::autolink(url)` for each
    /// `(url, markdown)`.
    fn assert_autolinks(cases: &[(&str, &str)]) {
        for (url, markdown) in cases {
            assert_eq!(Inline::autolink(url).to_markdown(), *markdown, "{url:?}");
        }
    }

    #[test]
    fn autolinks_absolute_urls() {
        assert_autolinks(&[
            (
                "https://example.com/a_b*c?d=1&e=2",
                "<https://example.com/a_b*c?d=1&e=2>",
            ),
            ("  HTTP://example.com\n", "<HTTP://example.com>"),
        ]);
        assert_eq!(
            Inline::text("see ")
                .then(Inline::autolink("https://x.test"))
                .to_markdown(),
            "see <https://x.test>"
        );
    }

    #[test]
    fn autolinks_mailto_in_the_email_form_when_the_address_is_plain() {
        assert_autolinks(&[
            (
                "mailto:ledger.team+eu@mail.example.com",
                "<ledger.team+eu@mail.example.com>",
            ),
            (
                "mailto:a@b.example?subject=Hi",
                "<mailto:a@b.example?subject=Hi>",
            ),
            ("mailto:!--a@b.example", "<mailto:!--a@b.example>"),
            ("mailto:a@-b.example", "<mailto:a@-b.example>"),
        ]);
    }

    #[test]
    fn a_refused_autolink_is_escaped_text() {
        assert_autolinks(&[
            ("javascript:alert(1)", "javascript:alert(1)"),
            ("JaVaScRiPt&colon;alert(1)", "JaVaScRiPt\\&colon;alert(1)"),
            ("/docs/a_b", "/docs/a\\_b"),
            ("ftp://x.test", "ftp://x.test"),
        ]);
    }

    #[test]
    fn a_url_an_autolink_cannot_hold_is_escaped_text() {
        assert_autolinks(&[
            ("https://x.test/a>b", "https://x.test/a\\>b"),
            ("https://x.test/a b_c", "https://x.test/a b\\_c"),
            ("https://x.test/a\nb", "https://x.test/a b"),
            ("https://x.test/a\u{7f}b", "https://x.test/a\u{7f}b"),
            ("https://x.test/a|b", "https://x.test/a\\|b"),
            ("# https://x.test/a b", "\\# https://x.test/a b"),
        ]);
    }

    #[test]
    fn hard_breaks_and_autolinks_on_the_other_serializations() {
        let md = Inline::text("a<b")
            .then(Inline::hard_break())
            .then(Inline::autolink("https://x.test/?a=1&b=2"))
            .then(" ")
            .then(Inline::autolink("mailto:t@x.test"));
        assert_eq!(
            md.to_mrkdwn(),
            "a&lt;b\n<https://x.test/?a=1&amp;b=2> <mailto:t@x.test|t@x.test>"
        );
        assert_eq!(
            md.to_html(),
            "a&lt;b<br><a href=\"https://x.test/?a=1&amp;b=2\">https://x.test/?a=1&amp;b=2</a> <a href=\"mailto:t@x.test\">t@x.test</a>"
        );
        assert_eq!(md.to_plain(), "a<b https://x.test/?a=1&b=2 t@x.test");
        assert_eq!(Inline::autolink("javascript:x").to_mrkdwn(), "javascript:x");
    }

    #[test]
    fn slack_fallback_converts_hard_breaks_and_autolinks() {
        let md = Markdown::heading(1, Inline::lines(["Two", "lines"]))
            .then(Markdown::paragraph(
                Inline::lines(["**USER**", "Where <is> it?"])
                    .then(Inline::hard_break())
                    .then(Inline::autolink("https://x.test/a")),
            ))
            .then(Markdown::blockquote(Markdown::paragraph(Inline::lines([
                "one", "two",
            ]))))
            .then(Markdown::paragraph(Inline::autolink("javascript:x")));
        assert_eq!(
            crate::surface::slack::markdown_to_blocks(&md),
            vec![
                serde_json::json!({
                    "type": "header",
                    "text": { "type": "plain_text", "text": "Two lines", "emoji": true }
                }),
                serde_json::json!({
                    "type": "section",
                    "text": { "type": "mrkdwn", "text": "**USER**\nWhere &lt;is&gt; it?\n<https://x.test/a>" }
                }),
                serde_json::json!({
                    "type": "section",
                    "text": { "type": "mrkdwn", "text": "> one\n> two" }
                }),
                serde_json::json!({
                    "type": "section",
                    "text": { "type": "mrkdwn", "text": "javascript:x" }
                }),
            ]
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
