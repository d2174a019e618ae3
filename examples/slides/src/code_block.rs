//! Code blocks on every string surface, shared by `slideCode`,
//! `slideDiff`, `slideCommand` and `slideTranscript`'s code turns: an
//! optional caption line, then the code as written.
//!
//! | surface | caption `settle.ts`, code `a\nb` |
//! |---|---|
//! | text | `settle.ts\na\nb` |
//! | Markdown | `**settle.ts**`, then a fence named by the language |
//! | Slack | one `section`: `settle.ts\n` + ```` ``` ```` + `\na\nb\n` + ```` ``` ```` |
//!
//! On Slack the code sits on its own lines between the fences, as upstream
//! prints it, and is left raw: nothing is escaped (`=>` stays `=>`) and
//! only a run of three backticks is broken, as upstream's `codeBlock` does.

use isomer_sdk::surface::slack::section;
use isomer_sdk::surface::{Inline, Markdown};
use serde_json::Value;

use crate::text::join_lines;

/// Text: the caption line (when given), then the code.
pub fn code_text(caption: Option<&str>, code: &str) -> String {
    join_lines([caption.unwrap_or_default(), code])
}

/// Markdown: a `**caption**` paragraph (when given), then the code in a
/// fence named by `language` (`""` for none), longer than any backtick run
/// inside.
pub fn code_markdown(caption: Option<&str>, language: &str, code: &str) -> Markdown {
    caption
        .map_or_else(Markdown::new, |c| Markdown::paragraph(Inline::strong(c)))
        .then(Markdown::code_block(language, code))
}

/// What a run of three backticks inside Slack code becomes: two
/// backticks, a zero-width joiner (U+200D), then the third, which cannot
/// close the block.
pub const SLACK_FENCE_BREAK: &str = "``\u{200d}`";

/// Slack: one `section` holding the caption line (already `mrkdwn`, e.g.
/// `*LABEL*`; none for `None`) and the code between ```` ``` ```` fences,
/// each on its own line. The code is left raw (Slack prints a code block
/// as written, so `&`, `<` and `>` are not escaped); Slack has no longer
/// fences, so each run of three backticks, left to right, becomes
/// [`SLACK_FENCE_BREAK`] and cannot close the block. A single or double
/// backtick stays as written.
pub fn code_slack(caption_mrkdwn: Option<&str>, code: &str) -> Value {
    let code = code.replace("```", SLACK_FENCE_BREAK);
    let block = format!("```\n{code}\n```");
    section(&match caption_mrkdwn {
        Some(caption) => format!("{caption}\n{block}"),
        None => block,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn code_sits_on_its_own_lines_on_slack_raw() {
        assert_eq!(
            code_slack(Some("a.ts"), "x = `y`;\nz < 1 && f => g"),
            json!({ "type": "section", "text": { "type": "mrkdwn", "text": "a.ts\n```\nx = `y`;\nz < 1 && f => g\n```" } })
        );
        assert_eq!(code_slack(None, "ls")["text"]["text"], "```\nls\n```");
    }

    #[test]
    fn only_runs_of_three_backticks_are_broken_left_to_right() {
        // Four backticks: the first three are broken, the fourth stays.
        assert_eq!(
            code_slack(None, "`` ``` ````")["text"]["text"],
            "```\n`` ``\u{200d}` ``\u{200d}``\n```"
        );
    }

    #[test]
    fn caption_then_code_on_text_and_markdown() {
        assert_eq!(code_text(Some("a.ts"), "a\nb"), "a.ts\na\nb");
        assert_eq!(code_text(None, "a"), "a");
        assert_eq!(
            code_markdown(Some("a_b.ts"), "ts", "x").to_markdown(),
            "**a\\_b.ts**\n\n```ts\nx\n```"
        );
    }
}
