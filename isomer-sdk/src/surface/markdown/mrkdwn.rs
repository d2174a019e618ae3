//! Slack `mrkdwn` output of inline runs (the Block Kit fallback).

use super::gfm::{escape_line_breaks, wrap_mark};
use super::inline::{Autolink, Run};

/// Escapes `&`, `<`, `>` for Slack `mrkdwn` and `plain_text`
/// (Slack's three control characters).
pub fn escape_mrkdwn(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

pub(super) fn write_mrkdwn_runs(runs: &[Run], out: &mut String) {
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
