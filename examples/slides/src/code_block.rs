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
//! prints it.

use isomer_sdk::surface::escape_mrkdwn;
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

/// Slack: one `section` holding the caption line (already `mrkdwn`, e.g.
/// `*LABEL*`; none for `None`) and the code between ```` ``` ```` fences,
/// each on its own line. Slack has no longer fences, so a backtick inside
/// the code is replaced by a modifier-letter grave `ˋ` that cannot close
/// the block; `&`, `<` and `>` are escaped.
pub fn code_slack(caption_mrkdwn: Option<&str>, code: &str) -> Value {
    let code = escape_mrkdwn(&code.replace('`', "ˋ"));
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
    fn code_sits_on_its_own_lines_on_slack() {
        assert_eq!(
            code_slack(Some("a.ts"), "x = `y`;\nz < 1"),
            json!({ "type": "section", "text": { "type": "mrkdwn", "text": "a.ts\n```\nx = ˋyˋ;\nz &lt; 1\n```" } })
        );
        assert_eq!(code_slack(None, "ls")["text"]["text"], "```\nls\n```");
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
