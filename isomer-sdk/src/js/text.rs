//! Text helpers with JavaScript semantics: the `\s` whitespace set, `trim`,
//! and the SDK's `oneLine`, `codeSpan`, `keySpan`, `nameText`, `quoteText`
//! as upstream defines them.

use std::borrow::Cow;

use super::stringify::write_string;

/// True for a character in JavaScript's `\s` / `String.prototype.trim` set:
/// tab, LF, VT, FF, CR, space, U+00A0, U+1680, U+2000–U+200A, U+2028,
/// U+2029, U+202F, U+205F, U+3000 and U+FEFF.
///
/// This differs from Rust's [`char::is_whitespace`]: JavaScript includes
/// U+FEFF and excludes U+0085 (NEL).
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// True for a JavaScript line terminator: `\n`, `\r`, U+2028, U+2029.
pub fn is_js_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// JavaScript's `s.trim()`: strips [`is_js_whitespace`] characters from both
/// ends (so a leading U+FEFF goes, a trailing U+0085 stays).
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// JavaScript's `s.trimStart()` (see [`js_trim`]).
pub fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_whitespace)
}

/// JavaScript's `s.trimEnd()` (see [`js_trim`]).
pub fn js_trim_end(s: &str) -> &str {
    s.trim_end_matches(is_js_whitespace)
}

/// The SDK's `oneLine(text)`: every maximal run of JavaScript whitespace
/// that contains a line terminator becomes one space; runs without a line
/// terminator stay as they are (upstream `oneLine`).
///
/// `"One idea\n## Injected"` → `"One idea ## Injected"`,
/// `"Two\r\nlines"` → `"Two lines"`, `"a  b"` stays `"a  b"`.
///
/// Text without a line terminator is already one line and is lent back as
/// it is; otherwise the result is a new string.
pub fn one_line(text: &str) -> Cow<'_, str> {
    let Some(first) = next_line_terminator(text, 0) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    // `text[..done]` is written; a run can only change around a line
    // terminator, so only those are searched for.
    let mut done = 0;
    let mut next = Some(first);
    while let Some(at) = next {
        // The whitespace run around the terminator; `text[done]` is not
        // whitespace (it ends the previous run), so the run starts after it.
        let start = done + js_trim_end(&text[done..at]).len();
        let end = text.len() - js_trim_start(&text[at..]).len();
        out.push_str(&text[done..start]);
        out.push(' ');
        done = end;
        next = next_line_terminator(text, done);
    }
    out.push_str(&text[done..]);
    Cow::Owned(out)
}

/// The byte offset of the first line terminator at or after `from` (a
/// character boundary). Searches bytes: `\n` and `\r` are ASCII, and
/// U+2028/U+2029 are the only terminators led by `E2` (`E2 80 A8`,
/// `E2 80 A9`).
fn next_line_terminator(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(found) = memchr::memchr3(b'\n', b'\r', 0xE2, &bytes[at..]) {
        at += found;
        if bytes[at] != 0xE2 || crate::json::is_separator_at(bytes, at) {
            return Some(at);
        }
        at += 1;
    }
    None
}

/// The SDK's `codeSpan(text)`: a Markdown code span whose backtick fence is
/// one longer than the longest run of backticks in `text`, with one space of
/// padding inside both ends when `text` starts or ends with a backtick.
///
/// `"a"` → `` `a` ``, `` "a`b" `` → ``` ``a`b`` ```, `` "`a" `` → ``` `` `a `` ```.
pub fn code_span(text: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// The most backticks in a row in `text`: a code span or fence around it
/// needs one more.
pub(crate) fn longest_backtick_run(text: &str) -> usize {
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

/// The SDK's `keySpan(key)`: [`code_span`] of `key` when it is non-empty,
/// equals its own [`js_trim`], and holds no control character (Unicode Cc),
/// U+2028 or U+2029; otherwise the code span of its
/// [`compact_json`](super::stringify::compact_json) form, so a hostile key
/// shows as a quoted one-line literal (`"a\nb"` → `` `"a\nb"` ``).
pub fn key_span(key: &str) -> String {
    let plain = !key.is_empty()
        && js_trim(key) == key
        && !key
            .chars()
            .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}');
    if plain {
        code_span(key)
    } else {
        code_span(&quote_text(key))
    }
}

/// The SDK's `nameText(s)`: `s` unchanged when it is non-empty and made only
/// of ASCII letters, digits, `_`, `$` and `-` (`^[A-Za-z0-9_$-]+$`),
/// otherwise [`quote_text`] of it. `kpi` → `kpi`,
/// `my kpi` → `"my kpi"`, the empty string → `""` (two quote characters).
pub fn name_text(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'-');
    if plain { s.to_owned() } else { quote_text(s) }
}

/// The SDK's `quoteText(s)`: the JSON string literal of `s` as
/// `JSON.stringify` writes it, with U+2028/U+2029 also escaped as `\u2028`
/// and `\u2029`, so the result is always one line.
///
/// `odd\u{2028}type` → `"odd\u2028type"` (backslash literal), `a"b` →
/// `"a\"b"`, `line\nfield` → `"line\nfield"`.
pub fn quote_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_string(&mut out, s, true);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts `f(input) == expected` for every row, naming the row's
    /// input when one fails.
    fn check<R: AsRef<str>>(f: impl Fn(&str) -> R, rows: &[(&str, &str)]) {
        for &(input, expected) in rows {
            assert_eq!(f(input).as_ref(), expected, "input {input:?}");
        }
    }

    #[test]
    fn whitespace_set_is_javascripts() {
        for c in [
            '\t', '\n', '\u{0B}', '\u{0C}', '\r', ' ', '\u{A0}', '\u{1680}', '\u{2000}',
            '\u{200A}', '\u{2028}', '\u{2029}', '\u{202F}', '\u{205F}', '\u{3000}', '\u{FEFF}',
        ] {
            assert!(is_js_whitespace(c), "{:04X}", u32::from(c));
        }
        for c in ['\u{85}', '\u{200B}', 'a', '\u{180E}', '\0'] {
            assert!(!is_js_whitespace(c), "{:04X}", u32::from(c));
        }
        assert!(char::is_whitespace('\u{85}'));
    }

    #[test]
    fn trims_the_javascript_set() {
        assert_eq!(js_trim("\u{FEFF} a b\u{3000}\n"), "a b");
        assert_eq!(js_trim("\u{85}a\u{85}"), "\u{85}a\u{85}");
        assert_eq!(js_trim_start("  a  "), "a  ");
        assert_eq!(js_trim_end("  a  "), "  a");
        assert_eq!(js_trim(" \t "), "");
    }

    #[test]
    fn one_line_joins_runs_with_line_terminators() {
        check(
            |text| one_line(text).into_owned(),
            &[
                ("One idea\n## Injected", "One idea ## Injected"),
                ("Short\u{2028}## Also", "Short ## Also"),
                ("Two\r\nlines", "Two lines"),
                ("a \t\n  b", "a b"),
                ("a  \t b", "a  \t b"),
                ("\npara\u{2029}", " para "),
                ("a\u{A0}\u{A0}b", "a\u{A0}\u{A0}b"),
                ("a\u{85}b", "a\u{85}b"),
                ("  \n lead", " lead"),
                ("a\n b\r\n\u{3000}c \u{2028}", "a b c "),
                ("é\u{A0}\n\u{FEFF}😀", "é 😀"),
                ("", ""),
                // Other characters led by the byte `E2` are not terminators.
                (
                    "\u{2027}€\u{202F}\n\u{2030}x\u{2029}",
                    "\u{2027}€ \u{2030}x ",
                ),
            ],
        );
        // Text already on one line is lent back, not copied.
        assert!(matches!(one_line("a  \t b"), Cow::Borrowed("a  \t b")));
        assert!(matches!(one_line("\u{2027}€"), Cow::Borrowed("\u{2027}€")));
        assert!(matches!(one_line("a\nb"), Cow::Owned(text) if text == "a b"));
    }

    #[test]
    fn code_span_fences_past_the_longest_backtick_run() {
        check(
            code_span,
            &[
                ("kpi", "`kpi`"),
                ("a`b", "``a`b``"),
                ("a``b`c", "```a``b`c```"),
                ("`a", "`` `a ``"),
                ("a`", "`` a` ``"),
                ("`", "`` ` ``"),
                ("", "``"),
                ("{\"a\":1}", "`{\"a\":1}`"),
            ],
        );
    }

    #[test]
    fn key_span_quotes_keys_that_are_not_plain() {
        check(
            key_span,
            &[
                ("kpi", "`kpi`"),
                ("one-slide", "`one-slide`"),
                ("my kpi", "`my kpi`"),
                ("a`b", "``a`b``"),
                ("", "`\"\"`"),
                (" kpi", "`\" kpi\"`"),
                ("kpi\u{FEFF}", "`\"kpi\u{FEFF}\"`"),
                ("a\nb", "`\"a\\nb\"`"),
                ("a\u{7F}b", "`\"a\u{7F}b\"`"),
                ("a\u{2028}b", "`\"a\\u2028b\"`"),
            ],
        );
    }

    #[test]
    fn name_text_keeps_plain_names() {
        check(
            name_text,
            &[
                ("kpi", "kpi"),
                ("slide_Frame-2$", "slide_Frame-2$"),
                ("my kpi", "\"my kpi\""),
                ("", "\"\""),
                ("é", "\"é\""),
                ("odd\u{2028}type", "\"odd\\u2028type\""),
            ],
        );
    }

    #[test]
    fn quote_text_is_json_on_one_line() {
        check(
            quote_text,
            &[
                ("a", "\"a\""),
                ("a\"b\\c", "\"a\\\"b\\\\c\""),
                ("line\nfield", "\"line\\nfield\""),
                ("\u{1}\u{1b}\u{7f}", "\"\\u0001\\u001b\u{7f}\""),
                ("key\u{2029}x", "\"key\\u2029x\""),
                ("/é😀", "\"/é😀\""),
            ],
        );
    }
}
