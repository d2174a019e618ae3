//! URL trust: which URLs a node may carry (sdk.md §6).
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

/// Where a URL is used, which decides the schemes it may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UrlPolicy {
    /// A link a reader follows: `https:`, `http:`, `mailto:`, relative.
    Navigation,
    /// Something a renderer loads: `https:`, `http:`, `data:image/`, relative.
    Asset,
}

impl UrlPolicy {
    /// The validation message for a URL this policy refuses (sdk.md §6):
    /// `must be an https, http, or mailto URL, or a relative path` /
    /// `must be an https, http, or data:image URL, or a relative path`.
    pub fn message(self) -> &'static str {
        match self {
            UrlPolicy::Navigation => NAVIGATION_URL_MESSAGE,
            UrlPolicy::Asset => ASSET_URL_MESSAGE,
        }
    }

    /// The JSON Schema `description` stating the rule, since a refinement
    /// does not reach the schema (sdk.md §6).
    pub fn description(self) -> &'static str {
        match self {
            UrlPolicy::Navigation => "An https, http, or mailto URL, or a relative path.",
            UrlPolicy::Asset => "An https, http, or data:image URL, or a relative path.",
        }
    }
}

/// The validation message for a refused navigation URL.
pub const NAVIGATION_URL_MESSAGE: &str =
    "must be an https, http, or mailto URL, or a relative path";
/// The validation message for a refused asset URL.
pub const ASSET_URL_MESSAGE: &str = "must be an https, http, or data:image URL, or a relative path";
/// What a renderer writes in place of a refused navigation href, so the
/// link's label stays (upstream `BLOCKED_HREF`).
pub const BLOCKED_HREF: &str = "#";

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

/// Upstream `sanitizeParsedNavigationHref`: as [`sanitize_navigation_href`]
/// without decoding character references (for text a Markdown parser has
/// already decoded).
pub fn sanitize_parsed_navigation_href(url: &str) -> Option<String> {
    sanitize_url(url, UrlPolicy::Navigation, false)
}

/// Upstream `sanitizeParsedAssetUrl`: as [`sanitize_asset_url`] without
/// decoding character references.
pub fn sanitize_parsed_asset_url(url: &str) -> Option<String> {
    sanitize_url(url, UrlPolicy::Asset, false)
}

/// The decision procedure of the module docs: `Some(authored form)` when
/// `url` passes `policy`, else `None`. `decode_references` is false for the
/// `sanitize_parsed_*` variants.
pub fn sanitize_url(url: &str, policy: UrlPolicy, decode_references: bool) -> Option<String> {
    let _ = (url, policy, decode_references);
    todo!("issue 2")
}
