//! Markdown output (GitHub-flavoured): blocks and inline runs written with
//! every authored character escaped.

use crate::js::code_span;
use crate::js::text::longest_backtick_run;

use super::document::{Block, LineBreaks};
use super::inline::{Inline, Run};

pub(super) fn block_markdown(block: &Block) -> String {
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
            // Cells are not padded to their column, and an empty cell is one space between
            // its pipes (`| | Plus |`), as mdast's GFM table writer prints them without
            // pipe alignment.
            let row = |cells: &[Inline]| {
                let mut line = String::from("|");
                for i in 0..width {
                    let cell = cells
                        .get(i)
                        .map(|cell| cell.markdown_lines(LineBreaks::Cell))
                        .unwrap_or_default();
                    if cell.is_empty() {
                        line.push_str(" |");
                    } else {
                        line.push(' ');
                        line.push_str(&cell);
                        line.push_str(" |");
                    }
                }
                line
            };
            let mut lines = vec![row(head), format!("|{}", " - |".repeat(width))];
            lines.extend(rows.iter().map(|cells| row(cells)));
            lines.join("\n")
        }
        Block::Rule => "---".to_owned(),
    }
}

/// Escapes authored text for Markdown inline content, as the slides
/// helpers' `markdownText` does: line breaks
/// (`\r\n`, `\n`, `\r`, U+2028, U+2029) become spaces, and each of
/// `` \ ` * _ [ ] < > & | `` gets a backslash. Block-opening markers at the
/// start of a block are escaped where the block is assembled.
pub(crate) fn escape_markdown_text(text: &str) -> String {
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
pub(super) fn escape_block_start(text: &str) -> String {
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
pub(super) fn escape_closing_hashes(text: &str) -> String {
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
pub(super) fn escape_setext_underline(line: &str) -> String {
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
pub(super) fn write_markdown_runs(runs: &[Run], lines: &mut Vec<String>, cell: bool) {
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
pub(super) fn wrap_mark(part: &str, mark: &str) -> String {
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

pub(super) fn escape_line_breaks(text: &str) -> String {
    text.replace("\r\n", " ")
        .replace(['\n', '\r', '\u{2028}', '\u{2029}'], " ")
}
