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

use crate::js::{code_span, js_trim};
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
        let mut out = Inline::default();
        for (index, line) in lines.into_iter().enumerate() {
            if index > 0 {
                out.runs.push(Run::HardBreak);
            }
            out.runs.extend(line.into().runs);
        }
        out
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
    /// links, slides-and-runtime.md §3.5 `slideClosing`); other `mailto:`
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

    /// A GFM table, as upstream writes it: `| a | b |`, a `| - | - |`
    /// delimiter row, then the rows; rows shorter than the head are padded
    /// with empty cells. Cells escape inline markup (`|` included) but no
    /// block openers, which cannot start inside a cell.
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
            let text = escape_closing_hashes(&content.markdown_lines(LineBreaks::Space));
            format!("{} {}", "#".repeat(usize::from(*level)), text)
        }
        Block::Bullets(items) => items
            .iter()
            .map(|item| {
                format!(
                    "- {}",
                    item.markdown_lines(LineBreaks::Hard { indent: "  " })
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Ordered(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                let marker = format!("{}. ", index + 1);
                let indent = " ".repeat(marker.len());
                let content = item.markdown_lines(LineBreaks::Hard { indent: &indent });
                format!("{marker}{content}")
            })
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
                    .map(|i| {
                        cells
                            .get(i)
                            .map(|cell| cell.markdown_lines(LineBreaks::Cell))
                            .unwrap_or_default()
                    })
                    .collect();
                for part in &mut parts {
                    if part.is_empty() {
                        part.push(' ');
                    }
                }
                format!("| {} |", parts.join(" | "))
            };
            let mut lines = vec![row(head), format!("|{}", " - |".repeat(width))];
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
/// followed by a space, a tab or the end, a line of only `-`, spaces and
/// tabs (a thematic break such as `-- -`), and `N.` / `N)` ordered-list
/// markers.
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
            // A list marker is followed by a space or a tab (or ends the
            // line); `-- -` and `- -\t-` are thematic breaks.
            let marker = rest.is_empty() || rest.starts_with([' ', '\t']);
            let rule = first == Some('-') && trimmed.chars().all(|c| matches!(c, '-' | ' ' | '\t'));
            (marker || rule).then_some(0)
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

/// Escapes the first `#` of a run of `#` that ends a heading's text after a
/// space or a tab (trailing spaces and tabs aside): CommonMark reads such a
/// run as the optional closing sequence of an ATX heading and drops it, so
/// `## a #` would show `a`. `a \#` shows `a #`.
fn escape_closing_hashes(text: &str) -> String {
    let body = text.trim_end_matches([' ', '\t']);
    let without_run = body.trim_end_matches('#');
    if without_run.len() == body.len() || !without_run.ends_with([' ', '\t']) {
        return text.to_owned();
    }
    format!("{without_run}\\{}", &text[without_run.len()..])
}

/// Escapes a line that would underline the line before it into a setext
/// heading: only `=` or only `-` characters, then optional spaces or tabs
/// (any count; [`escape_block_start`] already escapes three or more and a
/// lone `-`, but `=` and `--` underline too). Applies to lines after a hard
/// break, which follow a paragraph line.
fn escape_setext_underline(line: &str) -> String {
    let body = line.trim_end_matches([' ', '\t']);
    let underline = ["=", "-"]
        .iter()
        .any(|mark| !body.is_empty() && body.trim_start_matches(mark).is_empty());
    if underline {
        format!("\\{line}")
    } else {
        line.to_owned()
    }
}

/// Writes `runs` onto the last of `lines`; a hard break starts a new line.
/// Nothing else writes a line break: text and code turn theirs into
/// spaces, and sanitized hrefs and autolinks hold no control character.
/// `cell`: the runs are in a GFM table cell ([`LineBreaks::Cell`]).
///
/// Strong and emphasis are wrapped line by line (`**a**\` newline
/// `**b**`), and a line of theirs with no content is not wrapped at all: a
/// delimiter run next to a line break cannot open or close, and `****` or
/// `__` alone would be literal (or a thematic break).
fn write_markdown_runs(runs: &[Run], lines: &mut Vec<String>, cell: bool) {
    for run in runs {
        match run {
            Run::HardBreak => {
                lines.push(String::new());
                continue;
            }
            Run::Strong(inner) | Run::Emphasis(inner) => {
                let mark = if matches!(run, Run::Strong(_)) {
                    "**"
                } else {
                    "_"
                };
                let mut inner_lines = vec![String::new()];
                write_markdown_runs(inner, &mut inner_lines, cell);
                for (index, part) in inner_lines.iter().enumerate() {
                    if index > 0 {
                        lines.push(String::new());
                    }
                    push_last(lines, &wrap_mark(part, mark));
                }
                continue;
            }
            _ => {}
        }
        let Some(out) = lines.last_mut() else {
            return;
        };
        match run {
            Run::Text(text) => out.push_str(&escape_markdown_text(text)),
            Run::Code(code) => {
                let span = code_span(&one_line_breaks(code));
                if cell {
                    out.push_str(&span.replace('|', "\\|"));
                } else {
                    out.push_str(&span);
                }
            }
            Run::Autolink(autolink) => {
                out.push('<');
                out.push_str(autolink.text());
                out.push('>');
            }
            Run::HardBreak | Run::Strong(_) | Run::Emphasis(_) => {}
            Run::Link { label, href } => {
                out.push('[');
                write_markdown_runs(label, lines, cell);
                let Some(out) = lines.last_mut() else {
                    return;
                };
                out.push_str("](");
                let href = if cell {
                    href.replace('|', "\\|")
                } else {
                    href.clone()
                };
                if href.contains([' ', '(', ')']) {
                    out.push('<');
                    out.push_str(&href);
                    out.push('>');
                } else {
                    out.push_str(&href);
                }
                out.push(')');
            }
        }
    }
}

/// `part` (one line of a mark's serialized content) between `mark`s, with
/// its leading and trailing whitespace (Unicode `White_Space`, which covers
/// CommonMark's Unicode whitespace) outside them: a delimiter next to
/// whitespace can neither open nor close (`**a **` is literal), and a part
/// of only whitespace (or nothing) gets no delimiters.
fn wrap_mark(part: &str, mark: &str) -> String {
    let core = part.trim_matches(char::is_whitespace);
    if core.is_empty() {
        return part.to_owned();
    }
    let start = part.len() - part.trim_start_matches(char::is_whitespace).len();
    let end = start + core.len();
    format!("{}{mark}{core}{mark}{}", &part[..start], &part[end..])
}

/// Appends `text` to the last line.
fn push_last(lines: &mut [String], text: &str) {
    if let Some(out) = lines.last_mut() {
        out.push_str(text);
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
            Run::Strong(inner) | Run::Emphasis(inner) => {
                // Per line, as in Markdown: Slack's `*…*` and `_…_` do not
                // span a line break, and an empty pair prints literally.
                // The only newlines in `inner`'s output are its hard breaks.
                let mark = if matches!(run, Run::Strong(_)) {
                    "*"
                } else {
                    "_"
                };
                let mut text = String::new();
                write_mrkdwn_runs(inner, &mut text);
                for (index, part) in text.split('\n').enumerate() {
                    if index > 0 {
                        out.push('\n');
                    }
                    out.push_str(&wrap_mark(part, mark));
                }
            }
            Run::Code(code) => {
                out.push('`');
                out.push_str(&escape_mrkdwn(&escape_line_breaks(code)).replace('`', "'"));
                out.push('`');
            }
            Run::HardBreak => out.push('\n'),
            Run::Autolink(autolink) => {
                out.push('<');
                out.push_str(&escape_mrkdwn(&autolink.href()));
                if let Autolink::Email(address) = autolink {
                    out.push('|');
                    out.push_str(&escape_mrkdwn(address));
                }
                out.push('>');
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
            Run::HardBreak => out.push_str("<br>"),
            Run::Autolink(autolink) => {
                out.push_str("<a href=\"");
                out.push_str(&escape_html(&autolink.href()));
                out.push_str("\">");
                out.push_str(&escape_html(autolink.text()));
                out.push_str("</a>");
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
            Run::HardBreak => out.push(' '),
            Run::Autolink(autolink) => out.push_str(autolink.text()),
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

    #[test]
    fn autolinks_absolute_urls() {
        assert_eq!(
            Inline::autolink("https://example.com/a_b*c?d=1&e=2").to_markdown(),
            "<https://example.com/a_b*c?d=1&e=2>"
        );
        assert_eq!(
            Inline::autolink("  HTTP://example.com\n").to_markdown(),
            "<HTTP://example.com>"
        );
        assert_eq!(
            Inline::text("see ")
                .then(Inline::autolink("https://x.test"))
                .to_markdown(),
            "see <https://x.test>"
        );
    }

    #[test]
    fn autolinks_mailto_in_the_email_form_when_the_address_is_plain() {
        assert_eq!(
            Inline::autolink("mailto:ledger.team+eu@mail.example.com").to_markdown(),
            "<ledger.team+eu@mail.example.com>"
        );
        assert_eq!(
            Inline::autolink("mailto:a@b.example?subject=Hi").to_markdown(),
            "<mailto:a@b.example?subject=Hi>"
        );
        assert_eq!(
            Inline::autolink("mailto:!--a@b.example").to_markdown(),
            "<mailto:!--a@b.example>"
        );
        assert_eq!(
            Inline::autolink("mailto:a@-b.example").to_markdown(),
            "<mailto:a@-b.example>"
        );
    }

    #[test]
    fn a_refused_autolink_is_escaped_text() {
        assert_eq!(
            Inline::autolink("javascript:alert(1)").to_markdown(),
            "javascript:alert(1)"
        );
        assert_eq!(
            Inline::autolink("JaVaScRiPt&colon;alert(1)").to_markdown(),
            "JaVaScRiPt\\&colon;alert(1)"
        );
        assert_eq!(Inline::autolink("/docs/a_b").to_markdown(), "/docs/a\\_b");
        assert_eq!(
            Inline::autolink("ftp://x.test").to_markdown(),
            "ftp://x.test"
        );
    }

    #[test]
    fn a_url_an_autolink_cannot_hold_is_escaped_text() {
        assert_eq!(
            Inline::autolink("https://x.test/a>b").to_markdown(),
            "https://x.test/a\\>b"
        );
        assert_eq!(
            Inline::autolink("https://x.test/a b_c").to_markdown(),
            "https://x.test/a b\\_c"
        );
        assert_eq!(
            Inline::autolink("https://x.test/a\nb").to_markdown(),
            "https://x.test/a b"
        );
        assert_eq!(
            Inline::autolink("https://x.test/a\u{7f}b").to_markdown(),
            "https://x.test/a\u{7f}b"
        );
        assert_eq!(
            Inline::autolink("https://x.test/a|b").to_markdown(),
            "https://x.test/a\\|b"
        );
        assert_eq!(
            Inline::autolink("# https://x.test/a b").to_markdown(),
            "\\# https://x.test/a b"
        );
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
