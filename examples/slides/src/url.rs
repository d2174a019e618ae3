//! URL rules of the pack:
//! navigation hrefs go through the sdk's sanitizer, and the footer `url`
//! must be an absolute http(s) URL with a host.

use isomer_sdk::js_parity::js_trim;

/// The message for an href the navigation sanitizer refuses.
pub const NAVIGATION_HREF_MESSAGE: &str =
    "must be an https, http, or mailto URL, or a relative path";

/// The message for a footer `url` that is not an absolute http(s) URL.
pub const ABSOLUTE_URL_MESSAGE: &str =
    "must be an absolute http or https URL, such as \"https://example.com\"";

/// The refinement of a `boundedHref` field: `Some(message)` when the
/// sdk's navigation sanitizer refuses `href`.
pub fn check_navigation_href(href: &str) -> Option<&'static str> {
    isomer_sdk::sanitize_navigation_href(href)
        .is_none()
        .then_some(NAVIGATION_HREF_MESSAGE)
}

/// The safe form of a navigation href for rendering, or `None` when it must
/// not become a link (the render-time half of URL trust).
pub fn safe_navigation_href(href: &str) -> Option<String> {
    isomer_sdk::sanitize_navigation_href(href).map(|safe| safe.to_string())
}

/// The footer `url` when it is an absolute `http:` or `https:` URL with a
/// non-empty host and no whitespace, control character, `<` or `>`
/// (compared case-insensitively on the scheme, after a JavaScript trim);
/// otherwise `None`.
pub fn absolute_http_url(url: &str) -> Option<&str> {
    let url = js_trim(url);
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>')
    {
        return None;
    }
    let lower = url.to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return None;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_and_port = authority.rsplit('@').next().unwrap_or("");
    let host = host_and_port.split(':').next().unwrap_or("");
    (!host.is_empty() && !authority.contains('\\')).then_some(url)
}

/// The address as a reader says it: the URL without its `http://`,
/// `https://` or `mailto:` scheme (`https://example.com/crate` gives
/// `example.com/crate`).
pub fn bare_address(url: &str) -> &str {
    let lower = url.to_ascii_lowercase();
    for scheme in ["https://", "http://", "mailto:"] {
        if lower.starts_with(scheme) {
            return &url[scheme.len()..];
        }
    }
    url
}

/// An address drawn as one line of HTML text that may wrap only where a
/// reader breaks an address: after a `/`, `.` or `-` that has more of the
/// address after it. A zero-width space (U+200B) marks each such point, as
/// the picture renderer breaks lines there and ignores `<wbr>`; the text,
/// Markdown and Slack surfaces print the address without it.
pub fn address_html(text: &str) -> isomer_sdk::Html {
    let text = crate::text::line(text);
    let mut marked = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        marked.push(c);
        if matches!(c, '/' | '.' | '-')
            && chars
                .peek()
                .is_some_and(|next| !matches!(next, '/' | '.' | '-'))
        {
            marked.push('\u{200b}');
        }
    }
    isomer_sdk::Html::text(&marked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_may_break_after_a_slash_a_dot_or_a_hyphen() {
        assert_eq!(
            address_html("wiki.northwind.example/ledger/run-book").as_str(),
            "wiki.\u{200b}northwind.\u{200b}example/\u{200b}ledger/\u{200b}run-\u{200b}book"
        );
        // Not at the end, and once after a run such as `//`.
        assert_eq!(address_html("a//b.").as_str(), "a//\u{200b}b.");
    }

    #[test]
    fn accepts_absolute_http_urls_only() {
        assert_eq!(
            absolute_http_url("https://example.com/a"),
            Some("https://example.com/a")
        );
        assert_eq!(absolute_http_url(" HTTP://x.io "), Some("HTTP://x.io"));
        assert_eq!(absolute_http_url("example.com"), None);
        assert_eq!(absolute_http_url("https:///path"), None);
        assert_eq!(absolute_http_url("javascript:alert(1)"), None);
        assert_eq!(absolute_http_url("https://a b.com"), None);
        assert_eq!(absolute_http_url("mailto:a@b.c"), None);
    }

    #[test]
    fn strips_the_scheme() {
        assert_eq!(
            bare_address("https://example.com/crate"),
            "example.com/crate"
        );
        assert_eq!(bare_address("mailto:hi@crate.dev"), "hi@crate.dev");
        assert_eq!(bare_address("/docs"), "/docs");
    }
}
