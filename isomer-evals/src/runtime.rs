//! [`EvalRuntime`]: the narrow slice of a runtime the eval harness reads.
//!
//! Upstream declares `EvalRuntime` structurally (evals.md §3.1) so a pack
//! can pass a stub; here it is a trait, implemented for the sdk's runtime in
//! this crate and by a few lines of test double in the crate's tests.

use isomer_sdk::{AuthoringContext, ChildWalker, ValidationError};
use serde_json::Value;

/// A boxed error from a caller callback (`generate`, `judge`) or a runtime
/// surface. Its `Display` text is what a report shows.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// What the harness reads of a runtime (upstream `EvalRuntime`,
/// evals.md §3.1): the child hooks, the authoring context, the schema-only
/// parse, the semantic validate and the text surface.
///
/// Implementations must not panic on any input: a malformed composition is
/// answered with findings, a malformed container with no children.
pub trait EvalRuntime: Sync {
    /// The walker over every registered primitive's child hook (sdk.md
    /// §1.4). Selection, expected-primitive and payload scoring reach nodes
    /// only through it, so a data field named `type` is never a node.
    fn walker(&self) -> &dyn ChildWalker;

    /// The authoring context (sdk.md §7.3): the JSON Schema and the catalog
    /// entries printed into the prompt. Its catalog `type`s are the *known
    /// types* of the payload score. Read once per run.
    fn authoring_context(&self) -> AuthoringContext;

    /// The schema-only parse of untrusted input (sdk.md §3.1): the input
    /// budget, then the schema. `Ok` holds the *sanitized* composition
    /// (unknown keys of non-strict nested objects dropped); `Err` holds the
    /// findings, which may be empty when the runtime gives no detail.
    fn parse(&self, value: &Value) -> Result<Value, Vec<ValidationError>>;

    /// The semantic validation of a parsed composition (sdk.md §3.2), such
    /// as duplicate ids. `Err` holds the findings (possibly none).
    fn validate(&self, composition: &Value) -> Result<(), Vec<ValidationError>>;

    /// The text surface with default options (sdk.md §8): what the
    /// answerability judge reads.
    ///
    /// # Errors
    /// Whatever the surface refuses (for a composition that validated, in
    /// practice nothing).
    fn render_text(&self, composition: &Value) -> Result<String, BoxError>;

    /// [`EvalRuntime::validate`], and for a composition that passes, its
    /// text surface ready to be rendered on demand. `run_evals` checks
    /// every attempt through this and renders only the one the judge reads,
    /// so a runtime that can render what it has just validated without
    /// validating again (the sdk's runtime can) saves a validation per
    /// judged case.
    ///
    /// The default calls `validate`, then `render_text` when the pending
    /// text is rendered. An override must give the same findings as
    /// `validate` and the same text as `render_text`.
    ///
    /// # Errors
    /// `validate`'s findings (possibly none) when the composition is
    /// invalid.
    fn validate_for_text<'a>(
        &'a self,
        composition: &'a Value,
    ) -> Result<PendingText<'a>, Vec<ValidationError>> {
        self.validate(composition)?;
        Ok(PendingText::new(move || self.render_text(composition)))
    }
}

/// The text surface of a composition that validated, rendered when
/// [`PendingText::render`] is called (what
/// [`EvalRuntime::validate_for_text`] returns).
pub struct PendingText<'a> {
    render: Box<dyn FnOnce() -> Result<String, BoxError> + 'a>,
}

impl<'a> PendingText<'a> {
    /// Wraps the call that renders the text.
    pub fn new(render: impl FnOnce() -> Result<String, BoxError> + 'a) -> Self {
        PendingText {
            render: Box::new(render),
        }
    }

    /// Renders the text.
    ///
    /// # Errors
    /// Whatever the surface refuses.
    pub fn render(self) -> Result<String, BoxError> {
        (self.render)()
    }
}

impl std::fmt::Debug for PendingText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingText").finish_non_exhaustive()
    }
}

impl<R: EvalRuntime + ?Sized> EvalRuntime for &R {
    fn walker(&self) -> &dyn ChildWalker {
        (**self).walker()
    }

    fn authoring_context(&self) -> AuthoringContext {
        (**self).authoring_context()
    }

    fn parse(&self, value: &Value) -> Result<Value, Vec<ValidationError>> {
        (**self).parse(value)
    }

    fn validate(&self, composition: &Value) -> Result<(), Vec<ValidationError>> {
        (**self).validate(composition)
    }

    fn render_text(&self, composition: &Value) -> Result<String, BoxError> {
        (**self).render_text(composition)
    }

    fn validate_for_text<'a>(
        &'a self,
        composition: &'a Value,
    ) -> Result<PendingText<'a>, Vec<ValidationError>> {
        (**self).validate_for_text(composition)
    }
}

/// A frame's body rule, as the eval check applies it (upstream
/// `EvalFrame`, seed 001): each returned string is a finding about the whole
/// composition, printed with an empty path (so the bare message), such as
/// `an svg render needs exactly one "slideFrame" node, got 2 nodes; render
/// one slide per spec` (sdk.md §5).
///
/// Any `Fn(&[Value]) -> Vec<String>` is an `EvalFrame`.
pub trait EvalFrame: Sync {
    /// The rule's findings about `body` (the composition's `body` array; an
    /// empty slice when the composition has none). Empty means it passes.
    fn validate_body(&self, body: &[Value]) -> Vec<String>;
}

impl<F> EvalFrame for F
where
    F: Fn(&[Value]) -> Vec<String> + Sync,
{
    fn validate_body(&self, body: &[Value]) -> Vec<String> {
        self(body)
    }
}

/// The sdk's runtime is an [`EvalRuntime`]: its walker, authoring context,
/// `parse` (the sanitized copy) and `validate`, and its text surface with
/// default options (heading on, `throw` mode), as upstream's `runEvals`
/// reads an `IsomerRuntime`. Validation warnings are not read.
///
/// `validate` checks without copying the composition
/// ([`isomer_sdk::Runtime::validated`]), and `validate_for_text` renders
/// from that check ([`isomer_sdk::Runtime::render_validated`]), so a judged
/// attempt is validated once.
impl<C: Send + 'static> EvalRuntime for isomer_sdk::Runtime<C> {
    fn walker(&self) -> &dyn ChildWalker {
        isomer_sdk::Runtime::walker(self)
    }

    fn authoring_context(&self) -> AuthoringContext {
        isomer_sdk::Runtime::authoring_context(self)
    }

    fn parse(&self, value: &Value) -> Result<Value, Vec<ValidationError>> {
        let parsed = isomer_sdk::Runtime::parse(self, value);
        match parsed.composition {
            Some(composition) if parsed.valid => Ok(composition),
            _ => Err(parsed.errors),
        }
    }

    fn validate(&self, composition: &Value) -> Result<(), Vec<ValidationError>> {
        isomer_sdk::Runtime::validated(self, composition).map(drop)
    }

    fn render_text(&self, composition: &Value) -> Result<String, BoxError> {
        let options = isomer_sdk::RenderOptions::default();
        isomer_sdk::Runtime::render_text(self, composition, &options).map_err(BoxError::from)
    }

    fn validate_for_text<'a>(
        &'a self,
        composition: &'a Value,
    ) -> Result<PendingText<'a>, Vec<ValidationError>> {
        let valid = isomer_sdk::Runtime::validated(self, composition)?;
        Ok(PendingText::new(move || {
            let options = isomer_sdk::RenderOptions::default();
            match isomer_sdk::Runtime::render_validated(
                self,
                isomer_sdk::Surface::Text,
                &valid,
                &options,
            )? {
                isomer_sdk::Rendered::Text(text) => Ok(text),
                other => Ok(other.to_text()),
            }
        }))
    }
}

/// An sdk frame is an [`EvalFrame`]: its body rule (none means every body
/// passes), e.g. the slides frame's "exactly one `slideFrame`".
impl EvalFrame for isomer_sdk::Frame {
    fn validate_body(&self, body: &[Value]) -> Vec<String> {
        isomer_sdk::Frame::validate_body(self, body)
    }
}
