//! Host formats: renders the runtime does not do itself (PNG, SVG, PDF, CSV
//! ...), each a name → [`HostFormat`] `{ mime_type, render }`
//! (upstream `IsomerToolsFormat`).

use std::sync::Arc;

use futures::future::BoxFuture;
use isomer_sdk::__private::js::is_array_index_key;
use isomer_sdk::{IsomerError, ToolResult};
use serde_json::Value;

use isomer_sdk::composition::Theme;

use crate::runtime::{RuntimeFailure, RuntimeFormat};

/// What a host format's render produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatOutput {
    /// Markup or text (an SVG document, CSV).
    Text(String),
    /// Binary output (PNG, PDF).
    Bytes(Vec<u8>),
}

impl From<String> for FormatOutput {
    fn from(text: String) -> Self {
        FormatOutput::Text(text)
    }
}

impl From<&str> for FormatOutput {
    fn from(text: &str) -> Self {
        FormatOutput::Text(text.to_owned())
    }
}

impl From<Vec<u8>> for FormatOutput {
    fn from(bytes: Vec<u8>) -> Self {
        FormatOutput::Bytes(bytes)
    }
}

/// What a host format's render receives beside the composition: the theme,
/// only when the caller gave one. Never `heading`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HostRenderOptions {
    /// The theme the caller asked for.
    pub theme: Option<Theme>,
}

/// The render function of a host format: the validated copy of the
/// composition and the options, to the output or a failure.
pub type HostRender = Arc<
    dyn Fn(Value, HostRenderOptions) -> BoxFuture<'static, Result<FormatOutput, RuntimeFailure>>
        + Send
        + Sync,
>;

/// A render the host provides (upstream `IsomerToolsFormat`), typically over
/// the runtime's `snapshot` surface through a rasterizer.
///
/// How its output answers follows `mime_type` (see [`format_result`]).
#[derive(Clone)]
pub struct HostFormat {
    /// The media type of the output, e.g. `image/png`, `application/pdf`.
    pub mime_type: String,
    /// The render.
    pub render: HostRender,
}

impl HostFormat {
    /// A format from an async render.
    pub fn new<F, Fut>(mime_type: impl Into<String>, render: F) -> Self
    where
        F: Fn(Value, HostRenderOptions) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Result<FormatOutput, RuntimeFailure>> + Send + 'static,
    {
        HostFormat {
            mime_type: mime_type.into(),
            render: Arc::new(move |composition, options| Box::pin(render(composition, options))),
        }
    }

    /// A format from a synchronous render.
    pub fn from_fn<F>(mime_type: impl Into<String>, render: F) -> Self
    where
        F: Fn(Value, HostRenderOptions) -> Result<FormatOutput, RuntimeFailure>
            + Send
            + Sync
            + 'static,
    {
        HostFormat {
            mime_type: mime_type.into(),
            render: Arc::new(move |composition, options| {
                let output = render(composition, options);
                Box::pin(async move { output })
            }),
        }
    }
}

impl std::fmt::Debug for HostFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostFormat")
            .field("mime_type", &self.mime_type)
            .finish_non_exhaustive()
    }
}

/// The URI of a host format's embedded-resource answer:
/// `isomer://render/<name>`, the name percent-encoded as
/// `encodeURIComponent` does.
pub fn render_uri(name: &str) -> String {
    format!("isomer://render/{}", encode_uri_component(name))
}

/// Turns a host format's output into a tool result (upstream
/// `formatResult`):
/// - `mime_type` starting with `image/` (case-sensitive): one image block,
///   a text output UTF-8 encoded first (so an SVG reaches a client that
///   shows images);
/// - otherwise text: one text block;
/// - otherwise bytes: one embedded resource at [`render_uri`]`(name)`.
///
/// None of them is a failed result.
pub fn format_result(name: &str, mime_type: &str, output: FormatOutput) -> ToolResult {
    if mime_type.starts_with("image/") {
        let bytes = match output {
            FormatOutput::Text(text) => text.into_bytes(),
            FormatOutput::Bytes(bytes) => bytes,
        };
        return ToolResult::image(bytes, mime_type);
    }
    match output {
        FormatOutput::Text(text) => ToolResult::text(text),
        FormatOutput::Bytes(bytes) => ToolResult::resource(render_uri(name), mime_type, bytes),
    }
}

/// `encodeURIComponent`: keeps `A–Z a–z 0–9 - _ . ! ~ * ' ( )` and
/// percent-encodes (uppercase hex) every UTF-8 byte of anything else.
pub(crate) fn encode_uri_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        let keep = byte.is_ascii_alphanumeric()
            || matches!(
                byte,
                b'-' | b'_' | b'.' | b'!' | b'~' | b'*' | b'\'' | b'(' | b')'
            );
        if keep {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Orders host formats as JavaScript orders an object's keys: array-index
/// names ascending, then the rest in insertion order.
pub(crate) fn order_host_formats(formats: &[(String, HostFormat)]) -> Vec<(String, HostFormat)> {
    let mut indexed: Vec<&(String, HostFormat)> = formats
        .iter()
        .filter(|(name, _)| is_array_index_key(name))
        .collect();
    indexed.sort_by_key(|(name, _)| name.parse::<u64>().unwrap_or(u64::MAX));
    indexed
        .into_iter()
        .chain(formats.iter().filter(|(name, _)| !is_array_index_key(name)))
        .cloned()
        .collect()
}

/// Refuses host formats named like a runtime format (`text`, `markdown`,
/// `html`, `slack`), naming every offender in `names` order.
///
/// # Errors
/// [`IsomerError::HostFormatsShadow`] (code `DUPLICATE_FORMAT`), whose
/// message reads `Host formats "html", "text" shadow the runtime's own;
/// rename them.`
pub(crate) fn check_host_format_names<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<(), IsomerError> {
    let shadowing: Vec<String> = names
        .into_iter()
        .filter(|name| RuntimeFormat::from_name(name).is_some())
        .map(str::to_owned)
        .collect();
    if shadowing.is_empty() {
        return Ok(());
    }
    Err(IsomerError::HostFormatsShadow { names: shadowing })
}

#[cfg(test)]
mod tests {
    use super::*;
    use isomer_sdk::{EmbeddedResource, ToolContent};

    #[test]
    fn encodes_a_name_as_encode_uri_component_does() {
        assert_eq!(encode_uri_component("pdf"), "pdf");
        assert_eq!(encode_uri_component("A-z_0.9!~*'()"), "A-z_0.9!~*'()");
        assert_eq!(encode_uri_component("a b/c?é"), "a%20b%2Fc%3F%C3%A9");
        assert_eq!(render_uri("my pdf"), "isomer://render/my%20pdf");
    }

    #[test]
    fn puts_integer_like_names_first_as_javascript_keys() {
        let format = HostFormat::from_fn("text/plain", |_, _| Ok("x".into()));
        let formats: Vec<(String, HostFormat)> = ["png", "10", "2", "02", "pdf", "4294967295"]
            .iter()
            .map(|name| ((*name).to_owned(), format.clone()))
            .collect();
        let names: Vec<String> = order_host_formats(&formats)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(names, ["2", "10", "png", "02", "pdf", "4294967295"]);
    }

    #[test]
    fn answers_by_mime_type() {
        assert_eq!(
            format_result(
                "png",
                "image/png",
                FormatOutput::Bytes(vec![137, 80, 78, 71])
            ),
            ToolResult {
                content: vec![ToolContent::Image {
                    data: "iVBORw==".to_owned(),
                    mime_type: "image/png".to_owned()
                }],
                is_error: false,
                structured_content: None
            }
        );
        assert_eq!(
            format_result(
                "svg",
                "image/svg+xml",
                FormatOutput::Text("<svg/>".to_owned())
            ),
            ToolResult::image(b"<svg/>", "image/svg+xml")
        );
        assert_eq!(
            format_result(
                "pdf",
                "application/pdf",
                FormatOutput::Bytes(b"%PDF".to_vec())
            ),
            ToolResult {
                content: vec![ToolContent::Resource {
                    resource: EmbeddedResource {
                        uri: "isomer://render/pdf".to_owned(),
                        mime_type: "application/pdf".to_owned(),
                        blob: "JVBERg==".to_owned()
                    }
                }],
                is_error: false,
                structured_content: None
            }
        );
        assert_eq!(
            format_result("csv", "text/csv", FormatOutput::Text("a,b".to_owned())),
            ToolResult::text("a,b")
        );
        // Case-sensitive, as upstream's `startsWith("image/")`.
        assert_eq!(
            format_result("odd", "Image/png", FormatOutput::Text("x".to_owned())),
            ToolResult::text("x")
        );
    }
}
