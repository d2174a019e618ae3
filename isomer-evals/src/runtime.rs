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

    /// [`EvalRuntime::parse`], then [`EvalRuntime::validate`] of the
    /// sanitized copy, in one call; a copy that validates comes with its
    /// text surface, rendered on demand. `run_evals` checks every attempt
    /// through this and renders only the one the judge reads, so a runtime
    /// that validates model output in one pass and renders what it has
    /// validated without validating again (the sdk's runtime does both)
    /// saves that work.
    ///
    /// The default calls `parse`, then `validate`, and `render_text` when
    /// the text is asked for. An override must give the same findings, the
    /// same copy and the same text as those three.
    fn check_for_text<'a>(&'a self, value: &Value) -> TextCheck<'a> {
        let composition = match self.parse(value) {
            Ok(composition) => composition,
            Err(findings) => return TextCheck::Refused(findings),
        };
        match self.validate(&composition) {
            Ok(()) => TextCheck::Valid(Box::new(RenderOnDemand {
                runtime: self,
                composition,
            })),
            Err(errors) => TextCheck::Invalid {
                composition,
                errors,
            },
        }
    }
}

/// What [`EvalRuntime::check_for_text`] found about one value.
pub enum TextCheck<'a> {
    /// The schema-only parse refused it: its findings (possibly none).
    Refused(Vec<ValidationError>),
    /// It parsed, and the sanitized copy failed validation.
    Invalid {
        /// The sanitized copy.
        composition: Value,
        /// The validation findings (possibly none).
        errors: Vec<ValidationError>,
    },
    /// It parsed and the sanitized copy validated.
    Valid(Box<dyn ValidText + 'a>),
}

impl std::fmt::Debug for TextCheck<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextCheck::Refused(errors) => f.debug_tuple("Refused").field(errors).finish(),
            TextCheck::Invalid {
                composition,
                errors,
            } => f
                .debug_struct("Invalid")
                .field("composition", composition)
                .field("errors", errors)
                .finish(),
            TextCheck::Valid(valid) => f.debug_tuple("Valid").field(valid.composition()).finish(),
        }
    }
}

/// A sanitized copy that validated, with the means to render its text
/// surface (what [`TextCheck::Valid`] holds).
pub trait ValidText {
    /// The sanitized copy.
    fn composition(&self) -> &Value;

    /// Its text surface with default options ([`EvalRuntime::render_text`]'s
    /// text).
    ///
    /// # Errors
    /// Whatever the surface refuses.
    fn render_text(&self) -> Result<String, BoxError>;

    /// The sanitized copy, dropping the means to render it.
    fn into_composition(self: Box<Self>) -> Value;
}

/// The default [`ValidText`]: the copy, rendered by the runtime's
/// `render_text`.
struct RenderOnDemand<'a, R: ?Sized> {
    runtime: &'a R,
    composition: Value,
}

impl<R: EvalRuntime + ?Sized> ValidText for RenderOnDemand<'_, R> {
    fn composition(&self) -> &Value {
        &self.composition
    }

    fn render_text(&self) -> Result<String, BoxError> {
        self.runtime.render_text(&self.composition)
    }

    fn into_composition(self: Box<Self>) -> Value {
        self.composition
    }
}

/// The sdk's [`ValidText`]: the proof `parse_validated` gave, rendered
/// through `render_validated` without validating again.
struct SdkValidText<'a, C> {
    runtime: &'a isomer_sdk::Runtime<C>,
    valid: isomer_sdk::validate::ValidatedComposition,
}

impl<C: Send + 'static> ValidText for SdkValidText<'_, C> {
    fn composition(&self) -> &Value {
        self.valid.composition()
    }

    fn render_text(&self) -> Result<String, BoxError> {
        let options = isomer_sdk::RenderOptions::default();
        let rendered = self.runtime.render_validated(
            isomer_sdk::Surface::Text,
            &self.valid.as_valid(),
            &options,
        )?;
        Ok(match rendered {
            isomer_sdk::Rendered::Text(text) => text,
            other => other.to_text(),
        })
    }

    fn into_composition(self: Box<Self>) -> Value {
        self.valid.into_composition()
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

    fn check_for_text<'a>(&'a self, value: &Value) -> TextCheck<'a> {
        (**self).check_for_text(value)
    }
}

/// A frame's body rule, as the eval check applies it (upstream
/// `EvalFrame`, seed 001): each returned string is a finding about the whole
/// composition, printed with an empty path (so the bare message), such as
/// `a snapshot render needs exactly one "slideFrame" node, got 2 nodes; render
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
/// ([`isomer_sdk::Runtime::validated`]); `check_for_text` parses and
/// validates in one call ([`isomer_sdk::Runtime::parse_validated`]) and
/// renders from that check ([`isomer_sdk::Runtime::render_validated`]), so
/// a judged attempt is validated once.
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

    fn check_for_text<'a>(&'a self, value: &Value) -> TextCheck<'a> {
        use isomer_sdk::validate::ParsedValidation;
        match isomer_sdk::Runtime::parse_validated(self, value) {
            ParsedValidation::Refused(errors) => TextCheck::Refused(errors),
            ParsedValidation::Invalid {
                composition,
                errors,
            } => TextCheck::Invalid {
                composition,
                errors,
            },
            ParsedValidation::Valid(valid) => TextCheck::Valid(Box::new(SdkValidText {
                runtime: self,
                valid,
            })),
        }
    }
}

/// An sdk frame is an [`EvalFrame`]: its body rule (none means every body
/// passes), e.g. the slides frame's "exactly one `slideFrame`".
impl EvalFrame for isomer_sdk::Frame {
    fn validate_body(&self, body: &[Value]) -> Vec<String> {
        isomer_sdk::Frame::validate_body(self, body)
    }
}
