//! What a tool answers: [`ToolResult`] and its [`ToolContent`] blocks, the
//! builders upstream calls `textResult`, `jsonResult` and `imageResult`
//! and [`IntoToolResult`], the conversion a handler's
//! return value goes through.
//!
//! The JSON shape is MCP's `CallToolResult`: `{"content":[...]}` on success,
//! with `"isError": true` added on failure. A successful result never carries
//! `"isError": false` (upstream tests compare with `toEqual`). A successful
//! JSON answer whose value is an object also carries it as
//! `"structuredContent"`, for clients that read structured results against
//! the tool's output schema; its text block stays, for clients that read
//! only text.

use std::fmt::Display;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::js::json_stringify_pretty;

/// The answer of one tool call, serialized exactly as MCP's
/// `CallToolResult`: `{"content":[block, ...]}`, plus `"isError":true` when
/// the call failed (the key is omitted on success, never `false`), plus
/// `"structuredContent": {...}` when the answer is also structured data.
///
/// The agent tools answer exactly one block per call;
/// the type allows several, as MCP does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The blocks a model reads, in order.
    pub content: Vec<ToolContent>,
    /// Whether the call failed. A failed call is still an answer the model
    /// reads (MCP's tool-level error), not a protocol error.
    #[serde(rename = "isError", default, skip_serializing_if = "is_false")]
    pub is_error: bool,
    /// The answer as a JSON object, for clients that read MCP's structured
    /// results (and check them against the tool's output schema). Set by
    /// [`ToolResult::json`] when the value is an object; the text block
    /// holds the same value printed. Omitted when `None`.
    #[serde(
        rename = "structuredContent",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub structured_content: Option<Value>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// One block of a [`ToolResult`], tagged by `type` as MCP's content blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ToolContent {
    /// `{"type":"text","text":...}`: text a model reads.
    Text {
        /// The text, as is.
        text: String,
    },
    /// `{"type":"image","data":<base64>,"mimeType":"image/png"}`: an image a
    /// client can display.
    Image {
        /// The image bytes, standard base64 with padding.
        data: String,
        /// The image's MIME type (`image/<subtype>`).
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// `{"type":"resource","resource":{"uri","mimeType","blob"}}`: binary
    /// output embedded as a resource (a rendered PDF, for example).
    Resource {
        /// The embedded resource.
        resource: EmbeddedResource,
    },
}

/// The `resource` of a [`ToolContent::Resource`] block: MCP's
/// `BlobResourceContents`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The resource's URI (the agent tools use `isomer://render/<format>`).
    pub uri: String,
    /// The MIME type of the bytes.
    #[serde(rename = "mimeType")]
    pub mime_type: String,
    /// The bytes, standard base64 with padding.
    pub blob: String,
}

impl ToolResult {
    /// A successful result with one text block (upstream `textResult(text)`):
    /// `{"content":[{"type":"text","text":text}]}`.
    pub fn text(text: impl Into<String>) -> ToolResult {
        ToolResult {
            content: vec![ToolContent::Text { text: text.into() }],
            is_error: false,
            structured_content: None,
        }
    }

    /// A failed result with one text block (upstream
    /// `textResult(text, true)`): `{"content":[{"type":"text","text":text}],"isError":true}`.
    pub fn error(text: impl Into<String>) -> ToolResult {
        ToolResult {
            content: vec![ToolContent::Text { text: text.into() }],
            is_error: true,
            structured_content: None,
        }
    }

    /// A successful result whose one text block is `value` printed as
    /// `JSON.stringify(value, null, 2)` (upstream `jsonResult(value)`):
    /// two-space indent, `"key": value`, no trailing newline, JavaScript
    /// number printing and key order ([`json_stringify_pretty`]).
    ///
    /// When the value is a JSON object, the result also carries it as
    /// [`structured_content`](ToolResult::structured_content); an array or a
    /// scalar is text only (MCP's structured content is an object).
    ///
    /// `None` and unit print as `null`. When `value` fails to serialize (a
    /// map with non-string keys, a `Serialize` impl that errors), the result
    /// is a failed text result with serde's message, whatever was asked, as
    /// upstream turns a throwing `JSON.stringify` into a failed result.
    pub fn json<T: Serialize + ?Sized>(value: &T) -> ToolResult {
        ToolResult::json_with(value, false)
    }

    /// [`ToolResult::json`] marked failed (upstream `jsonResult(value, true)`),
    /// for answers a model must read as an error but parse as data, such as
    /// `{"error", "unknown", "known"}` from the primitive lookup. Text only:
    /// a failed call carries no structured content.
    pub fn json_error<T: Serialize + ?Sized>(value: &T) -> ToolResult {
        ToolResult::json_with(value, true)
    }

    fn json_with<T: Serialize + ?Sized>(value: &T, is_error: bool) -> ToolResult {
        match serde_json::to_value(value) {
            Ok(value) => ToolResult {
                content: vec![ToolContent::Text {
                    text: json_stringify_pretty(&value),
                }],
                is_error,
                structured_content: (!is_error && value.is_object()).then_some(value),
            },
            Err(error) => ToolResult::error(error.to_string()),
        }
    }

    /// A successful result with one image block (upstream
    /// `imageResult(bytes, mimeType)`): `bytes` in standard base64 with
    /// padding and `mime_type` as given (upstream defaults to `image/png`).
    /// Never failed.
    pub fn image(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> ToolResult {
        ToolResult {
            content: vec![ToolContent::Image {
                data: BASE64.encode(bytes),
                mime_type: mime_type.into(),
            }],
            is_error: false,
            structured_content: None,
        }
    }

    /// A successful result with one embedded resource block
    /// `{"type":"resource","resource":{"uri","mimeType","blob"}}`, `blob` being
    /// `bytes` in standard base64 with padding.
    pub fn resource(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: impl AsRef<[u8]>,
    ) -> ToolResult {
        ToolResult {
            content: vec![ToolContent::Resource {
                resource: EmbeddedResource {
                    uri: uri.into(),
                    mime_type: mime_type.into(),
                    blob: BASE64.encode(bytes),
                },
            }],
            is_error: false,
            structured_content: None,
        }
    }

    /// The text of the first text block, if any: what a model reads first.
    /// Handy in tests and in hosts that only speak text.
    pub fn first_text(&self) -> Option<&str> {
        self.content.iter().find_map(|block| match block {
            ToolContent::Text { text } => Some(text.as_str()),
            _ => None,
        })
    }
}

/// Wraps a value a tool answers as JSON text: a handler returning `Json(v)`
/// answers [`ToolResult::json`]`(&v)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

/// How a handler's return value becomes a [`ToolResult`]. `#[isomer_tool]`
/// calls it on whatever the handler returns.
///
/// | returned | answer |
/// |---|---|
/// | [`ToolResult`] | as is |
/// | [`String`], `&'static str` | [`ToolResult::text`] |
/// | [`Json<T>`] with `T: Serialize`, [`serde_json::Value`] | [`ToolResult::json`] |
/// | `Result<T, E>` with `T: IntoToolResult`, `E: Display` | `Ok` converted; `Err(e)` becomes [`ToolResult::error`]`(e.to_string())` (upstream answers a thrown error with its message) |
/// | `Result<T, ToolResult>` with `T: IntoToolResult` | `Ok` converted; `Err(result)` answered as it is (a failed JSON answer, say) |
///
/// Implement it for your own type to return that type from a handler.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool handler",
    label = "the handler returns `{Self}`",
    note = "return `ToolResult`, `String`, `Json<T>` (T: Serialize), `serde_json::Value`, or a `Result<_, E: Display>` or `Result<_, ToolResult>` of one of them",
    note = "or implement `isomer_sdk::IntoToolResult` for `{Self}`"
)]
pub trait IntoToolResult {
    /// Converts the value into the answer of the call.
    fn into_tool_result(self) -> ToolResult;
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self)
    }
}

impl IntoToolResult for &'static str {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self)
    }
}

impl<T: Serialize> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::json(&self.0)
    }
}

impl IntoToolResult for Value {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::json(&self)
    }
}

impl<T: IntoToolResult> IntoToolResult for Result<T, ToolResult> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(result) => result,
        }
    }
}

impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(error) => ToolResult::error(error.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_successful_text_result_omits_is_error() {
        let result = ToolResult::text("hello");
        assert_eq!(
            serde_json::to_string(&result).unwrap(),
            r#"{"content":[{"type":"text","text":"hello"}]}"#
        );
    }

    #[test]
    fn a_failed_text_result_sets_is_error_true() {
        let result = ToolResult::error("boom");
        assert_eq!(
            serde_json::to_string(&result).unwrap(),
            r#"{"content":[{"type":"text","text":"boom"}],"isError":true}"#
        );
    }

    #[test]
    fn json_prints_as_json_stringify_with_two_spaces() {
        // Upstream's test of an ordinary value.
        let result = ToolResult::json(&json!({ "valid": true }));
        assert_eq!(
            serde_json::to_string(&result).unwrap(),
            r#"{"content":[{"type":"text","text":"{\n  \"valid\": true\n}"}],"structuredContent":{"valid":true}}"#
        );
        let nested = ToolResult::json(&json!({ "a": [1.0, 2.5], "b": {}, "c": [] }));
        assert_eq!(
            nested.first_text(),
            Some("{\n  \"a\": [\n    1,\n    2.5\n  ],\n  \"b\": {},\n  \"c\": []\n}")
        );
    }

    #[test]
    fn json_of_nothing_prints_null_and_keeps_the_flag() {
        // Upstream's tests of nothing: undefined prints as null.
        assert_eq!(ToolResult::json(&None::<u8>), ToolResult::text("null"));
        assert_eq!(ToolResult::json_error(&()), ToolResult::error("null"));
    }

    #[test]
    fn json_that_cannot_serialize_is_a_failed_result() {
        // Upstream's tests of a throwing serializer: it fails the call
        // whatever was asked.
        let mut map = std::collections::BTreeMap::new();
        map.insert((1, 2), "tuple keys are not JSON keys");
        let result = ToolResult::json(&map);
        assert_eq!(result, ToolResult::error("key must be a string"));
    }

    #[test]
    fn image_and_resource_blocks_use_standard_padded_base64() {
        let image = ToolResult::image(b"\x89PNG", "image/png");
        assert_eq!(
            serde_json::to_string(&image).unwrap(),
            r#"{"content":[{"type":"image","data":"iVBORw==","mimeType":"image/png"}]}"#
        );
        let pdf = ToolResult::resource("isomer://render/pdf", "application/pdf", b"%PDF-1");
        assert_eq!(
            serde_json::to_string(&pdf).unwrap(),
            r#"{"content":[{"type":"resource","resource":{"uri":"isomer://render/pdf","mimeType":"application/pdf","blob":"JVBERi0x"}}]}"#
        );
    }

    #[test]
    fn results_read_back_from_mcp_json() {
        let text = r#"{"content":[{"type":"text","text":"x"}],"isError":true}"#;
        let result: ToolResult = serde_json::from_str(text).unwrap();
        assert_eq!(result, ToolResult::error("x"));
        let ok: ToolResult = serde_json::from_str(r#"{"content":[]}"#).unwrap();
        assert!(!ok.is_error);
    }

    #[test]
    fn return_values_convert_as_documented() {
        assert_eq!(String::from("a").into_tool_result(), ToolResult::text("a"));
        assert_eq!("b".into_tool_result(), ToolResult::text("b"));
        assert_eq!(
            Json(vec![1, 2]).into_tool_result(),
            ToolResult::text("[\n  1,\n  2\n]")
        );
        assert_eq!(
            json!({"k": 1}).into_tool_result(),
            ToolResult {
                structured_content: Some(json!({"k": 1})),
                ..ToolResult::text("{\n  \"k\": 1\n}")
            }
        );
        assert_eq!(
            ToolResult::json_error(&json!({"k": 1})),
            ToolResult::error("{\n  \"k\": 1\n}")
        );
        let failed: Result<ToolResult, String> = Err("no such view: \"x\"".into());
        assert_eq!(
            failed.into_tool_result(),
            ToolResult::error("no such view: \"x\"")
        );
        let ok: Result<String, std::fmt::Error> = Ok("fine".into());
        assert_eq!(ok.into_tool_result(), ToolResult::text("fine"));
    }
}
