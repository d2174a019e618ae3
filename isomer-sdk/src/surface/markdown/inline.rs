//! Inline content: [`Inline`], runs of escaped text, strong and emphasis,
//! code spans, links, autolinks and hard line breaks, and the rules that
//! decide which URL may become a link or an autolink.

use crate::js::js_trim;
use crate::url::sanitize_navigation_href;

/// One run of inline content.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Run {
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
pub(super) enum Autolink {
    /// `<https://…>`, `<http://…>` or `<mailto:…>`: the URL is both the
    /// destination and the text.
    Uri(String),
    /// `<name@host>` for a `mailto:` URL whose address is a plain one: the
    /// text is the address and the destination `mailto:` plus the address.
    Email(String),
}

impl Autolink {
    /// The link destination.
    pub(super) fn href(&self) -> String {
        match self {
            Autolink::Uri(url) => url.clone(),
            Autolink::Email(address) => format!("mailto:{address}"),
        }
    }

    /// What a reader sees.
    pub(super) fn text(&self) -> &str {
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

    /// The runs, in order, for the output forms.
    pub(super) fn runs(&self) -> &[Run] {
        &self.runs
    }
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

impl From<std::borrow::Cow<'_, str>> for Inline {
    fn from(text: std::borrow::Cow<'_, str>) -> Inline {
        Inline::text(text.into_owned())
    }
}

impl From<&String> for Inline {
    fn from(text: &String) -> Inline {
        Inline::text(text.clone())
    }
}
