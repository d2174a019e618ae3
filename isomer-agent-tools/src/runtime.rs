//! [`ToolsRuntime`]: the narrow slice of a runtime the agent tools read
//! (upstream `IsomerToolsRuntime`).
//!
//! The tools read the authoring context, look primitives up, parse and
//! validate, render on the runtime's own four formats, and list and request
//! views. Nothing else. The trait is small enough that a test stub implements
//! it in a few lines, and the sdk's runtime implements it in
//! [`crate::sdk_runtime`].

use std::sync::Arc;

use futures::future::BoxFuture;
use isomer_sdk::composition::Theme;
use isomer_sdk::{
    AuthoringContext, Document, PrimitiveDescriptions, ValidationError, ValidationWarning,
    ViewSummary,
};
use serde_json::Value;

/// Any failure a runtime member reports (upstream: a thrown error). The
/// tools answer it as a failed call whose text is the error's `Display`.
pub type RuntimeFailure = Box<dyn std::error::Error + Send + Sync>;

/// What [`ToolsRuntime::parse`] returns (upstream `ParseResult`).
#[derive(Debug, Clone, PartialEq)]
pub struct ParseOutcome {
    /// True when the input passed the budget and the schema.
    pub valid: bool,
    /// The findings; a budget refusal is one finding with an empty path and
    /// an input-refusal code.
    pub errors: Vec<ValidationError>,
    /// The sanitized composition, present when `valid`.
    pub composition: Option<Value>,
}

/// What [`ToolsRuntime::validate`] returns (upstream
/// `ValidationResult`).
#[derive(Debug, Clone, PartialEq)]
pub struct ValidationOutcome {
    /// True when there are no errors.
    pub valid: bool,
    /// The findings, in validation order.
    pub errors: Vec<ValidationError>,
    /// Advisory findings per surface.
    pub warnings: Vec<ValidationWarning>,
    /// The copy the runtime checked (absent when the input budget refused
    /// the value); this is what the tools render, never the raw input.
    pub composition: Option<Value>,
}

/// The formats a runtime renders itself, in the order the tools offer them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuntimeFormat {
    /// Plain text.
    Text,
    /// Markdown.
    Markdown,
    /// An HTML fragment with its CSS inline in a `<style>` element.
    Html,
    /// A Slack Block Kit message object.
    Slack,
}

impl RuntimeFormat {
    /// Every runtime format, in offer order: `text, markdown, html, slack`.
    pub const ALL: [RuntimeFormat; 4] = [
        RuntimeFormat::Text,
        RuntimeFormat::Markdown,
        RuntimeFormat::Html,
        RuntimeFormat::Slack,
    ];

    /// The format's name as the `isomer_render` tool's `format` enum spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            RuntimeFormat::Text => "text",
            RuntimeFormat::Markdown => "markdown",
            RuntimeFormat::Html => "html",
            RuntimeFormat::Slack => "slack",
        }
    }

    /// The runtime format with this exact (case-sensitive) name, if any.
    pub fn from_name(name: &str) -> Option<RuntimeFormat> {
        RuntimeFormat::ALL
            .into_iter()
            .find(|format| format.as_str() == name)
    }
}

/// Options of a runtime render, as the tools pass them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolsRenderOptions {
    /// Whether the title and subtitle are rendered (upstream `heading`,
    /// default true). With `false`, HTML still keeps the title as the
    /// wrapper's `aria-label`.
    pub heading: bool,
    /// Only HTML reads it, and only when given: it overrides the
    /// composition's own `theme` (`data-theme`). Text, markdown and slack
    /// ignore it.
    pub theme: Option<Theme>,
}

/// A runtime render's output.
#[derive(Debug, Clone, PartialEq)]
pub enum RenderedFormat {
    /// Text, markdown and HTML renders.
    Text(String),
    /// The Slack render: a Block Kit object, answered as pretty JSON.
    Json(Value),
}

/// Why a view request failed (upstream `viewErrorResult`).
///
/// Upstream tells the two validation errors apart from everything else by
/// name and code (`CompositionValidationError`/`COMPOSITION_INVALID` and
/// `RegisteredViewInputError`/`VIEW_INPUT_INVALID`), never by class; here
/// the runtime adapter sorts them into [`ViewRequestError::Findings`].
#[derive(Debug)]
pub enum ViewRequestError {
    /// The view's input, or the composition its builder produced, failed
    /// validation. `message` is the error's whole message (its first line is
    /// the answer's `error`, e.g. `Invalid input for view "one-slide":`);
    /// `errors` the findings. With no findings the tools answer the message
    /// as text, as upstream does.
    Findings {
        /// The error's message.
        message: String,
        /// The findings.
        errors: Vec<ValidationError>,
    },
    /// Anything else (an unknown view, a builder failure); answered as its
    /// message.
    Other(RuntimeFailure),
}

impl std::fmt::Display for ViewRequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ViewRequestError::Findings { message, .. } => f.write_str(message),
            ViewRequestError::Other(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for ViewRequestError {}

/// The members the agent tools read from a runtime (upstream
/// `IsomerToolsRuntime`). Implemented for the sdk's runtime; a test passes a
/// stub.
///
/// Members that can fail return [`RuntimeFailure`]; a tool answers such a
/// failure as a failed call with the error's message, never a panic.
pub trait ToolsRuntime: Send + Sync {
    /// What a view's builder receives from the host (upstream `THostContext`),
    /// e.g. the caller's identity. `()` when views need none.
    type HostContext: Send + Sync;

    /// The catalog, groups, views (read live) and authoring JSON Schema.
    fn authoring_context(&self) -> Result<AuthoringContext, RuntimeFailure>;

    /// The catalog entries of `types` (deduplicated, first-seen order) and
    /// the `$defs` they reach. Unknown types are an error; the describe tool
    /// checks for them first.
    fn describe_primitives(
        &self,
        types: &[String],
    ) -> Result<PrimitiveDescriptions, RuntimeFailure>;

    /// Parses untrusted input: input budget first, then the schema.
    ///
    /// Each check takes the [`Document`] it reads by value, so a runtime can
    /// check it in place and hand its value back as the outcome's copy
    /// without copying it (the sdk's runtime does).
    fn parse(&self, composition: Document) -> Result<ParseOutcome, RuntimeFailure>;

    /// Validates a parsed composition: budget, schema, duplicate ids, surface
    /// warnings; returns the checked copy.
    fn validate(&self, composition: Document) -> Result<ValidationOutcome, RuntimeFailure>;

    /// Renders a (checked) composition on one of the runtime's formats.
    fn render(
        &self,
        format: RuntimeFormat,
        composition: Document,
        options: &ToolsRenderOptions,
    ) -> Result<RenderedFormat, RuntimeFailure>;

    /// The registered views, in registration order.
    fn list_views(&self) -> Vec<ViewSummary>;

    /// Builds the view `id` for `host_context` from `input` (absent: `{}`).
    /// The runtime budget-checks and schema-checks the input before the
    /// builder runs.
    fn request_view<'a>(
        &'a self,
        id: &'a str,
        host_context: &'a Self::HostContext,
        input: Option<Value>,
    ) -> BoxFuture<'a, Result<Value, ViewRequestError>>;
}

impl<R: ToolsRuntime + ?Sized> ToolsRuntime for Arc<R> {
    type HostContext = R::HostContext;

    fn authoring_context(&self) -> Result<AuthoringContext, RuntimeFailure> {
        (**self).authoring_context()
    }

    fn describe_primitives(
        &self,
        types: &[String],
    ) -> Result<PrimitiveDescriptions, RuntimeFailure> {
        (**self).describe_primitives(types)
    }

    fn parse(&self, composition: Document) -> Result<ParseOutcome, RuntimeFailure> {
        (**self).parse(composition)
    }

    fn validate(&self, composition: Document) -> Result<ValidationOutcome, RuntimeFailure> {
        (**self).validate(composition)
    }

    fn render(
        &self,
        format: RuntimeFormat,
        composition: Document,
        options: &ToolsRenderOptions,
    ) -> Result<RenderedFormat, RuntimeFailure> {
        (**self).render(format, composition, options)
    }

    fn list_views(&self) -> Vec<ViewSummary> {
        (**self).list_views()
    }

    fn request_view<'a>(
        &'a self,
        id: &'a str,
        host_context: &'a Self::HostContext,
        input: Option<Value>,
    ) -> BoxFuture<'a, Result<Value, ViewRequestError>> {
        (**self).request_view(id, host_context, input)
    }
}

/// A runtime with its host context bound, so the tools hold one erased
/// `dyn ToolsRuntime<HostContext = ()>` whatever the host's context type.
pub(crate) struct BoundRuntime<R: ToolsRuntime + ?Sized> {
    pub(crate) runtime: Arc<R>,
    pub(crate) host_context: R::HostContext,
}

/// The erased runtime the tools hold.
pub(crate) type ErasedRuntime = dyn ToolsRuntime<HostContext = ()>;

impl<R: ToolsRuntime + ?Sized> ToolsRuntime for BoundRuntime<R> {
    type HostContext = ();

    fn authoring_context(&self) -> Result<AuthoringContext, RuntimeFailure> {
        self.runtime.authoring_context()
    }

    fn describe_primitives(
        &self,
        types: &[String],
    ) -> Result<PrimitiveDescriptions, RuntimeFailure> {
        self.runtime.describe_primitives(types)
    }

    fn parse(&self, composition: Document) -> Result<ParseOutcome, RuntimeFailure> {
        self.runtime.parse(composition)
    }

    fn validate(&self, composition: Document) -> Result<ValidationOutcome, RuntimeFailure> {
        self.runtime.validate(composition)
    }

    fn render(
        &self,
        format: RuntimeFormat,
        composition: Document,
        options: &ToolsRenderOptions,
    ) -> Result<RenderedFormat, RuntimeFailure> {
        self.runtime.render(format, composition, options)
    }

    fn list_views(&self) -> Vec<ViewSummary> {
        self.runtime.list_views()
    }

    fn request_view<'a>(
        &'a self,
        id: &'a str,
        _host_context: &'a (),
        input: Option<Value>,
    ) -> BoxFuture<'a, Result<Value, ViewRequestError>> {
        self.runtime.request_view(id, &self.host_context, input)
    }
}
