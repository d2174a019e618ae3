//! URL trust: which URLs a node may carry.
//!
//! Two policies:
//! - **navigation** (`href`-like fields): `https:`, `http:`, `mailto:`, or a
//!   relative path;
//! - **asset** (`src`-like fields): `https:`, `http:`, `data:image/…`, or a
//!   relative path.
//!
//! The decision is made on a *decision form* of the string: character
//! references decoded once (numeric `&#x6a;` / `&#106;` with the `;`
//! optional; named `&colon; &tab; &newline; &sol; &bsol; &lt; &gt;`, `;`
//! required, any case; code point 0 or above U+10FFFF becomes U+FFFD), then
//! every U+0000–U+001F and U+007F deleted, then trimmed with JavaScript's
//! whitespace set. The form is refused when it is empty, starts with two
//! slashes or backslashes in any mix (`//`, `\\`, `/\`, `\/`), or holds `<`
//! or `>`; when it starts with a scheme (`^[A-Za-z][A-Za-z0-9+.-]*:`), the
//! scheme must be one the policy allows (any case); anything else is a
//! relative path and passes.
//!
//! A passing URL is returned as *authored*, only with its controls removed
//! and trimmed: references are decoded for the decision, never in the
//! result.

use crate::js::js_trim;

/// Where a URL is used, which decides the schemes it may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum UrlPolicy {
    /// A link a reader follows: `https:`, `http:`, `mailto:`, relative.
    Navigation,
    /// Something a renderer loads: `https:`, `http:`, `data:image/`, relative.
    Asset,
}

/// Upstream `sanitizeNavigationHref`: `Some(url)` (the authored string with
/// controls removed, trimmed) when `url` is an https, http or mailto URL or
/// a relative path after character references are decoded; `None` otherwise.
///
/// `"javascript:alert(1)"`, `"JaVaScRiPt&colon;x"`, `"&#106;avascript:x"`,
/// `" //evil.example"` → `None`; `" /docs\n"` → `Some("/docs")`.
pub fn sanitize_navigation_href(url: &str) -> Option<String> {
    sanitize_url(url, UrlPolicy::Navigation, true)
}

/// Upstream `sanitizeAssetUrl`: as [`sanitize_navigation_href`] with the
/// asset allow-list (https, http, `data:image/`, relative).
pub fn sanitize_asset_url(url: &str) -> Option<String> {
    sanitize_url(url, UrlPolicy::Asset, true)
}

/// The decision procedure of the module docs: `Some(authored form)` when
/// `url` passes `policy`, else `None`. `decode_references` is false for the
/// text a Markdown parser has already decoded.
pub(crate) fn sanitize_url(
    url: &str,
    policy: UrlPolicy,
    decode_references: bool,
) -> Option<String> {
    let decoded;
    let source = if decode_references {
        decoded = decode_character_references(url);
        decoded.as_str()
    } else {
        url
    };
    let without_controls = remove_controls(source);
    let decision = js_trim(&without_controls);
    if !is_allowed(decision, policy) {
        return None;
    }
    Some(js_trim(&remove_controls(url)).to_owned())
}

/// True when the decision form passes steps 2 and 3 of the procedure.
fn is_allowed(decision: &str, policy: UrlPolicy) -> bool {
    let bytes = decision.as_bytes();
    if bytes.is_empty() || decision.contains(['<', '>']) {
        return false;
    }
    let is_slash = |b: u8| b == b'/' || b == b'\\';
    if bytes.len() >= 2 && is_slash(bytes[0]) && is_slash(bytes[1]) {
        return false;
    }
    if !has_scheme(decision) {
        return true;
    }
    let lower = decision.to_ascii_lowercase();
    match policy {
        UrlPolicy::Navigation => ["https:", "http:", "mailto:"]
            .iter()
            .any(|scheme| lower.starts_with(scheme)),
        UrlPolicy::Asset => ["https:", "http:", "data:image/"]
            .iter()
            .any(|scheme| lower.starts_with(scheme)),
    }
}

/// True when `text` starts with `^[A-Za-z][A-Za-z0-9+.-]*:`.
fn has_scheme(text: &str) -> bool {
    let mut bytes = text.bytes();
    if !bytes.next().is_some_and(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    for b in bytes {
        match b {
            b':' => return true,
            b if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-') => {}
            _ => return false,
        }
    }
    false
}

/// Deletes every U+0000–U+001F and U+007F.
fn remove_controls(text: &str) -> String {
    text.chars()
        .filter(|&c| !(c <= '\u{1F}' || c == '\u{7F}'))
        .collect()
}

/// The named references the decision form decodes (`;` required, any case).
const NAMED_REFERENCES: [(&str, char); 7] = [
    ("colon", ':'),
    ("tab", '\t'),
    ("newline", '\n'),
    ("sol", '/'),
    ("bsol", '\\'),
    ("lt", '<'),
    ("gt", '>'),
];

/// Decodes character references once, left to right: `&#x<hex>` and
/// `&#<decimal>` (`;` optional, `x` in any case) and the
/// named ones listed in the module docs. A code point of 0, a surrogate, or one above
/// U+10FFFF decodes to U+FFFD (a Rust string cannot hold a lone surrogate;
/// JavaScript would keep it, and either way it is not a scheme character).
/// Anything else starting with `&` is kept as written.
pub(crate) fn decode_character_references(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match decode_reference(after) {
            Some((decoded, used)) => {
                out.push(decoded);
                rest = &after[used..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Decodes the reference at the start of `text` (the text after `&`):
/// the character and how many bytes of `text` it used.
fn decode_reference(text: &str) -> Option<(char, usize)> {
    if let Some(numeric) = text.strip_prefix('#') {
        let (radix, digits_at) = match numeric.as_bytes().first() {
            Some(b'x' | b'X') => (16, 2),
            _ => (10, 1),
        };
        let digits = &text[digits_at..];
        let length = digits
            .bytes()
            .take_while(|b| (*b as char).is_digit(radix))
            .count();
        if length == 0 {
            return None;
        }
        let code = digits[..length]
            .bytes()
            .try_fold(0u32, |acc, b| {
                let digit = (b as char).to_digit(radix)?;
                acc.checked_mul(radix)?.checked_add(digit)
            })
            .unwrap_or(u32::MAX);
        let decoded = match code {
            0 => '\u{FFFD}',
            code => char::from_u32(code).unwrap_or('\u{FFFD}'),
        };
        let mut used = digits_at + length;
        if digits[length..].starts_with(';') {
            used += 1;
        }
        return Some((decoded, used));
    }
    NAMED_REFERENCES.iter().find_map(|(name, decoded)| {
        let candidate = text.get(..name.len())?;
        let semicolon = text.get(name.len()..name.len() + 1)?;
        (candidate.eq_ignore_ascii_case(name) && semicolon == ";")
            .then_some((*decoded, name.len() + 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `sanitize` keeps each of `kept` as authored and
    /// refuses each of `refused`, naming the input when one fails.
    fn check(sanitize: fn(&str) -> Option<String>, kept: &[&str], refused: &[&str]) {
        for &input in kept {
            assert_eq!(sanitize(input).as_deref(), Some(input), "{input:?}");
        }
        for &input in refused {
            assert_eq!(sanitize(input), None, "{input:?}");
        }
    }

    #[test]
    fn navigation_table() {
        let kept = [
            "https://example.com/a?b=1#c",
            "http://example.com",
            "HTTPS://EXAMPLE.COM",
            "mailto:a@example.com",
            "/docs/page",
            "docs/page",
            "./page",
            "../page",
            "#anchor",
            "?q=1",
            "/a:b",
            "&#X6a avascript:alert(1)",
        ];
        let refused = [
            "page:colon-later/x",
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "JaVaScRiPt&colon;alert(1)",
            "javascript&COLON;alert(1)",
            "&#106;avascript:alert(1)",
            "&#x6A;avascript:alert(1)",
            "&#106avascript:alert(1)",
            "java&tab;script:alert(1)",
            "java\tscript:alert(1)",
            "java\u{0}script:alert(1)",
            " javascript:alert(1)",
            "\u{FEFF}javascript:alert(1)",
            " //evil.example",
            "\\\\evil.example",
            "/\\evil.example",
            "&sol;&sol;evil.example",
            "data:text/html,<b>",
            "data:image/png;base64,AAAA",
            "ftp://example.com",
        ];
        check(sanitize_navigation_href, &kept, &refused);
    }

    #[test]
    fn asset_table() {
        let kept = [
            "https://example.com/a.png",
            "http://example.com/a.png",
            "data:image/png;base64,AAAA",
            "DATA:IMAGE/SVG+XML,x",
            "img/a.png",
        ];
        let refused = [
            "data:text/html,hi",
            "data:image",
            "mailto:a@example.com",
            "javascript:alert(1)",
            "//cdn.example/a.png",
            "",
            "   ",
        ];
        check(sanitize_asset_url, &kept, &refused);
    }

    #[test]
    fn returns_the_authored_string_without_controls_trimmed() {
        // References are decoded for the decision only.
        assert_eq!(
            sanitize_navigation_href(" /a&colon;b\n").as_deref(),
            Some("/a&colon;b")
        );
        assert_eq!(
            sanitize_navigation_href("\u{A0}https://exa\tmple.com/\u{1}x\u{7F} ").as_deref(),
            Some("https://example.com/x")
        );
        assert_eq!(
            sanitize_navigation_href("htt\np://example.com").as_deref(),
            Some("http://example.com")
        );
        // Controls inside a scheme are removed before the decision.
        assert_eq!(sanitize_navigation_href("jav\u{1F}ascript:x"), None);
        assert_eq!(sanitize_navigation_href("java&#9;script:x"), None);
        assert_eq!(sanitize_navigation_href("java&newline;script:x"), None);
    }

    #[test]
    fn angle_brackets_refuse_even_when_encoded() {
        assert_eq!(sanitize_navigation_href("/a<b"), None);
        assert_eq!(sanitize_navigation_href("/a&lt;b"), None);
        assert_eq!(sanitize_navigation_href("/a&GT;b"), None);
        assert_eq!(sanitize_navigation_href("/a&#62;b"), None);
        assert_eq!(
            sanitize_navigation_href("/a&lt").as_deref(),
            Some("/a&lt"),
            "a named reference needs its semicolon"
        );
    }

    #[test]
    fn parsed_variants_do_not_decode() {
        assert_eq!(
            sanitize_url("JaVaScRiPt&colon;alert(1)", UrlPolicy::Navigation, false).as_deref(),
            Some("JaVaScRiPt&colon;alert(1)")
        );
        assert_eq!(
            sanitize_url("javascript:alert(1)", UrlPolicy::Navigation, false),
            None
        );
        assert_eq!(
            sanitize_url("&#106;avascript:x", UrlPolicy::Asset, false).as_deref(),
            Some("&#106;avascript:x")
        );
        assert_eq!(
            sanitize_url("java\tscript:x", UrlPolicy::Asset, false),
            None
        );
    }

    #[test]
    fn decodes_references_once() {
        assert_eq!(decode_character_references("&amp;#106;"), "&amp;#106;");
        assert_eq!(decode_character_references("&#38;#106;"), "&#106;");
        assert_eq!(
            decode_character_references("&#0;&#x110000;&#xD800;"),
            "\u{FFFD}\u{FFFD}\u{FFFD}"
        );
        assert_eq!(decode_character_references("&#99999999999999;"), "\u{FFFD}");
        assert_eq!(decode_character_references("&#;&#x;&"), "&#;&#x;&");
        assert_eq!(decode_character_references("&BSol;&Sol;&Tab;"), "\\/\t");
    }
}
