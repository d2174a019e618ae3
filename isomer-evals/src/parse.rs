//! Reading model output: [`strip_code_fence`] and [`read_generated`], with
//! upstream's fence rule and JSON parse under the runtime's input budget
//! (and, for the tests that need a value built whole, `parse_generated`).

use isomer_corpus::Position;
use isomer_sdk::js_parity::{is_js_whitespace, js_trim};
#[cfg(test)]
use isomer_sdk::{DeepValue, parse_json};
use isomer_sdk::{Document, InputBudget, JsonRefusal};

/// One attempt's model text, read as JSON (upstream `ParsedAttempt`).
///
/// `raw` is always the untouched model text. A `Parsed` value may be any
/// JSON value (an object, but also `42`, `null`, `[]`), nested to any
/// depth; it is held as a [`DeepValue`], which drops without recursion.
#[cfg(test)]
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ParsedAttempt {
    /// The text (after fence stripping) was JSON.
    Parsed {
        /// The model text as sent.
        raw: String,
        /// The JSON value; dropped without recursion, whatever its depth.
        value: DeepValue,
    },
    /// It was not.
    Unparsed {
        /// The model text as sent.
        raw: String,
        /// The JSON parser's message (serde_json's wording, not V8's, e.g.
        /// `expected value at line 1 column 1`).
        error: String,
    },
}

/// The text a model meant as JSON: the content of the first Markdown code
/// fence whose opener is ```` ``` ```` or ```` ```json ```` followed by a
/// whitespace run holding a line break, up to the next ```` ``` ````;
/// or the whole text when no fence matches. Trimmed with the JS whitespace
/// set (which includes U+FEFF and excludes U+0085).
///
/// This is upstream's fence regex, leftmost match first:
/// an opener with another info string (`ts`, `JSON`) is not stripped; a
/// fence whose content starts on the opener's line is not stripped; a JSON
/// string holding three backticks ends the content there; prose around the
/// fence is ignored. Returns a slice of `raw`.
pub fn strip_code_fence(raw: &str) -> &str {
    match find_fence(raw) {
        Fence::Closed(content) => js_trim(content),
        Fence::Unclosed { .. } | Fence::None => js_trim(raw),
    }
}

/// What the fence rule of [`strip_code_fence`] finds in a text.
enum Fence<'a> {
    /// A fence and its content, up to the closing ```` ``` ````.
    Closed(&'a str),
    /// A fence opener (at this byte offset) with no closing ```` ``` ```` after it.
    Unclosed { opener: usize },
    /// No opener the rule accepts.
    None,
}

fn find_fence(raw: &str) -> Fence<'_> {
    let mut at = 0;
    while let Some(offset) = find_backticks(&raw[at..]) {
        let opener = at + offset;
        at = opener + 1;
        let mut cursor = opener + 3;
        if raw[cursor..].starts_with("json") {
            cursor += 4;
        }
        // The greedy `\s*\n`: the content starts after the last line feed
        // of the whitespace run that follows the opener.
        let mut content_start = None;
        for (index, c) in raw[cursor..].char_indices() {
            if !is_js_whitespace(c) {
                break;
            }
            if c == '\n' {
                content_start = Some(cursor + index + 1);
            }
        }
        let Some(start) = content_start else {
            continue;
        };
        return match find_backticks(&raw[start..]) {
            Some(length) => Fence::Closed(&raw[start..start + length]),
            // No closing fence after this opener means none after any later
            // opener either.
            None => Fence::Unclosed { opener },
        };
    }
    Fence::None
}

/// The byte offset of the first ```` ``` ```` in `text`. A backtick is
/// ASCII, so a byte-string search (`memchr::memmem`) finds it.
fn find_backticks(text: &str) -> Option<usize> {
    memchr::memmem::find(text.as_bytes(), b"```")
}

/// Where a text opens a code fence (by the rule of [`strip_code_fence`]) that it never
/// closes, and where the text ends: the sign of an answer cut off mid-way. Both are
/// 1-based line and byte column; the end is just past the last byte. `None` when the text
/// has no such opener.
pub(crate) fn unclosed_fence(raw: &str) -> Option<(Position, Position)> {
    let Fence::Unclosed { opener } = find_fence(raw) else {
        return None;
    };
    let place = |offset: usize| {
        let before = &raw.as_bytes()[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        Position {
            line: 1 + before.iter().filter(|&&b| b == b'\n').count(),
            column: offset - line_start + 1,
        }
    };
    Some((place(opener), place(raw.len())))
}

/// Reads one attempt's model text (upstream `parseGenerated`): strips the
/// code fence, then parses JSON. Never panics.
///
/// Parsing is the sdk's reader ([`parse_json`]), which follows
/// `JSON.parse` where serde_json can: any value at the top level, duplicate
/// keys keep the last value, no depth limit (any depth parses, in memory
/// proportional to the text). This function builds the value whole, with
/// no budget: a run does not call it, but reads each answer under the
/// runtime's input budget ([`EvalRuntime::input_budget`](crate::EvalRuntime::input_budget)),
/// which stops building at the first value over it (see
/// [`run_evals`](crate::run_evals)). Where JSON.parse differs: the error message is
/// serde_json's; a lone surrogate escape (`"\uD800"`), which JS accepts,
/// is a parse failure here (`unexpected end of hex escape at line 1 column
/// 8`); and so is a number beyond the double range (`1e400`, which JS
/// reads as `Infinity`): `number out of range at line 1 column 5`. Such an
/// attempt scores `parsed: false` where upstream's would have parsed.
#[cfg(test)]
pub(crate) fn parse_generated(raw: impl Into<String>) -> ParsedAttempt {
    let raw = raw.into();
    match parse_json(strip_code_fence(&raw)) {
        Ok(value) => ParsedAttempt::Parsed { raw, value },
        Err(error) => ParsedAttempt::Unparsed {
            raw,
            error: error.message,
        },
    }
}

/// How a run reads an attempt: `parse_generated`'s reading under an
/// input budget, the value kept as a [`Document`] for the check (its nodes
/// shared, its read count sparing the budget's walk).
pub(crate) enum ReadAttempt {
    /// The text was JSON within the budget.
    Parsed { raw: String, value: Document },
    /// The text was JSON over the budget: nothing past the first value over
    /// it was built, and the budget's message (`input nests deeper than 64
    /// levels`) is the attempt's one finding.
    OverBudget { raw: String, message: String },
    /// It was not JSON: the parser's message.
    Unparsed { raw: String, error: String },
}

/// Reads one attempt's model text: strips the code fence, then reads JSON
/// as `parse_generated` does, but within `budget`
/// ([`Document::parse_within`]): text over it stops being built at the
/// first value over it, so a hostile answer costs little more memory than
/// its text. A syntax error anywhere wins over the budget, as `JSON.parse`
/// runs before upstream's budget check.
pub(crate) fn read_generated(raw: String, budget: InputBudget) -> ReadAttempt {
    match Document::parse_within(strip_code_fence(&raw), budget) {
        Ok(value) => ReadAttempt::Parsed { raw, value },
        Err(JsonRefusal::OverBudget(refusal)) => ReadAttempt::OverBudget {
            raw,
            message: refusal.message(),
        },
        Err(JsonRefusal::Syntax(error)) => ReadAttempt::Unparsed {
            raw,
            error: error.message,
        },
    }
}

#[cfg(test)]
impl From<ParsedAttempt> for ReadAttempt {
    /// A value parsed elsewhere, shared without a read count.
    fn from(attempt: ParsedAttempt) -> Self {
        match attempt {
            ParsedAttempt::Parsed { raw, value } => ReadAttempt::Parsed {
                raw,
                value: value.into(),
            },
            ParsedAttempt::Unparsed { raw, error } => ReadAttempt::Unparsed { raw, error },
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn finds_the_first_run_of_three_backticks() {
        assert_eq!(find_backticks("```"), Some(0));
        assert_eq!(find_backticks("a`b``c```d```"), Some(6));
        assert_eq!(find_backticks("é``````"), Some(2));
        assert_eq!(find_backticks("``"), None);
        assert_eq!(find_backticks("`x`y``"), None);
        assert_eq!(find_backticks(""), None);
    }

    #[test]
    fn unwraps_a_fenced_block() {
        assert_eq!(strip_code_fence("```json\n{\"a\":1}\n```"), "{\"a\":1}");
    }

    #[test]
    fn unwraps_a_fenced_block_with_no_newline_before_the_closing_fence() {
        assert_eq!(strip_code_fence("```json\n{\"a\":1}```"), "{\"a\":1}");
    }

    #[test]
    fn leaves_bare_json_alone() {
        assert_eq!(
            parse_generated("{\"a\":1}"),
            ParsedAttempt::Parsed {
                raw: "{\"a\":1}".to_owned(),
                value: DeepValue::new(json!({"a": 1})),
            }
        );
        assert_eq!(strip_code_fence("  {\"a\":1}\n"), "{\"a\":1}");
    }

    #[test]
    fn ignores_prose_around_the_first_fence() {
        let raw = "Here you go:\n```\n{\"a\":1}\n```\nand another\n```json\n{\"b\":2}\n```";
        assert_eq!(strip_code_fence(raw), "{\"a\":1}");
    }

    #[test]
    fn does_not_strip_other_info_strings_or_same_line_content() {
        let ts = "```ts\n{\"a\":1}\n```";
        assert_eq!(strip_code_fence(ts), ts);
        let upper = "```JSON\n{}\n```";
        assert_eq!(strip_code_fence(upper), upper);
        let same_line = "```json {\"a\":1}```";
        assert_eq!(strip_code_fence(same_line), same_line);
    }

    #[test]
    fn a_later_fence_followed_by_a_newline_acts_as_opener() {
        // The `ts` block's closing fence opens an empty block.
        assert_eq!(strip_code_fence("```ts\n{}\n```\n```"), "");
    }

    #[test]
    fn three_backticks_inside_a_string_end_the_content() {
        assert_eq!(
            strip_code_fence("```json\n{\"a\":\"x```y\"}\n```"),
            "{\"a\":\"x"
        );
    }

    #[test]
    fn an_empty_fence_is_empty() {
        assert_eq!(strip_code_fence("```json\n```"), "");
        assert!(matches!(
            parse_generated("```json\n```"),
            ParsedAttempt::Unparsed { .. }
        ));
    }

    #[test]
    fn trims_the_js_whitespace_set() {
        // U+FEFF is JS whitespace; U+0085 is not.
        assert_eq!(strip_code_fence("\u{FEFF}{}\u{3000}"), "{}");
        assert_eq!(strip_code_fence("\u{85}{}"), "\u{85}{}");
        assert_eq!(strip_code_fence("```\r\n\u{A0}\n {} \n```"), "{}");
    }

    #[test]
    fn non_object_json_parses() {
        for (raw, value) in [
            ("42", json!(42)),
            ("null", json!(null)),
            ("[]", json!([])),
            ("\"x\"", json!("x")),
        ] {
            assert_eq!(
                parse_generated(raw),
                ParsedAttempt::Parsed {
                    raw: raw.to_owned(),
                    value: DeepValue::new(value),
                }
            );
        }
    }

    #[test]
    fn text_that_is_not_json_keeps_its_raw_text_and_the_parser_message() {
        let ParsedAttempt::Unparsed { raw, error } = parse_generated("I cannot help with that.")
        else {
            panic!("expected a parse failure");
        };
        assert_eq!(raw, "I cannot help with that.");
        assert_eq!(error, "expected value at line 1 column 1");
    }

    #[test]
    fn lone_surrogates_and_numbers_beyond_a_double_do_not_parse() {
        for (raw, message) in [
            (
                "\"\\ud800\"",
                "unexpected end of hex escape at line 1 column 8",
            ),
            ("1e400", "number out of range at line 1 column 5"),
            ("[-1e400]", "number out of range at line 1 column 7"),
        ] {
            assert_eq!(
                parse_generated(raw),
                ParsedAttempt::Unparsed {
                    raw: raw.to_owned(),
                    error: message.to_owned(),
                },
                "{raw}"
            );
        }
    }

    #[test]
    fn duplicate_keys_keep_the_last_value() {
        assert_eq!(
            parse_generated("{\"a\":1,\"a\":2}"),
            ParsedAttempt::Parsed {
                raw: "{\"a\":1,\"a\":2}".to_owned(),
                value: DeepValue::new(json!({"a": 2})),
            }
        );
    }
}
