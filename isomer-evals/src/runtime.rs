//! [`EvalRuntime`]: the narrow slice of a runtime the eval harness reads.
//!
//! Upstream declares `EvalRuntime` structurally so a pack
//! can pass a stub; here it is a trait, implemented for the sdk's runtime in
//! this crate and by a few lines of test double in the crate's tests.

use isomer_sdk::{AuthoringContext, ChildWalker, Document, InputBudget, ValidationError};
use serde_json::Value;

/// A boxed error from a caller callback (`generate`, `judge`) or a runtime
/// surface. Its `Display` text is what a report shows.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// What the harness reads of a runtime (upstream `EvalRuntime`): the child
/// hooks, the authoring context, the check of model output and the text
/// surface.
///
/// Implementations must not panic on any input: a malformed composition is
/// answered with findings, a malformed container with no children.
pub trait EvalRuntime: Sync {
    /// The walker over every registered primitive's child hook. Selection,
    /// expected-primitive and payload scoring reach nodes only through it,
    /// so a data field named `type` is never a node.
    fn walker(&self) -> &dyn ChildWalker;

    /// The authoring context: the JSON Schema and the catalog entries
    /// printed into the prompt. Read once per run, and only when a request
    /// reads the prompt.
    fn authoring_context(&self) -> AuthoringContext;

    /// The `type` of every catalog entry, in catalog order: the *known
    /// types* of the payload score. Read once per run. Defaults to the
    /// catalog of [`EvalRuntime::authoring_context`]; a runtime that knows
    /// its types without building the authoring schema answers directly.
    fn node_types(&self) -> Vec<String> {
        self.authoring_context()
            .primitives
            .into_iter()
            .map(|entry| entry.type_name)
            .collect()
    }

    /// The check of model output, as upstream's eval check reads a runtime:
    /// the schema-only `parse` of untrusted input (the input budget, then
    /// the schema; on success the *sanitized* copy, with unknown keys of
    /// non-strict nested objects dropped), then the semantic `validate` of
    /// that copy (such as duplicate ids). A copy that validates comes with
    /// its text surface, rendered on demand: `run_evals` renders only the
    /// attempt the judge reads.
    ///
    /// The sdk's runtime does this in one pass and renders from it. A
    /// runtime made of separate steps (a test double) can answer with
    /// [`TextCheck::from_steps`].
    ///
    /// `document` dereferences to the `&Value` to check. The run hands over
    /// each answer as read within [`EvalRuntime::input_budget`]: the sdk's
    /// runtime then shares its typed nodes with the document and, the read
    /// count being within its budget, skips the budget's walk (see
    /// [`Document`]).
    fn check<'a>(&'a self, document: &'a Document) -> TextCheck<'a>;

    /// The input budget a run reads each answer under
    /// ([`Document::parse_within`]): text over it stops being built at the
    /// first value over it and the attempt is scored invalid with the
    /// budget's message as its one finding (upstream's check would refuse
    /// it with that message too). Defaults to the sdk's default budget
    /// (64 levels, 20,000 values, 1,000,000 characters); the sdk's runtime
    /// answers with its own.
    fn input_budget(&self) -> InputBudget {
        InputBudget::default()
    }

    /// The text surface with default options: what the answerability judge
    /// reads.
    ///
    /// # Errors
    /// Whatever the surface refuses (for a composition that validated, in
    /// practice nothing).
    fn render_text(&self, composition: &Value) -> Result<String, BoxError>;

    /// The html surface with `options`, for the HTML report: `None` when the runtime has
    /// no html surface, which is the default (a test double need not render; the report
    /// then shows the JSON). The surface escapes or sanitizes all model text itself, so
    /// its markup goes into the report as it is.
    ///
    /// # Errors
    /// Whatever the surface refuses (the sdk's html surface renders an invalid
    /// composition's checked copy and refuses only input over its budget).
    fn render_html(
        &self,
        composition: &Value,
        options: &isomer_sdk::RenderOptions,
    ) -> Option<Result<isomer_sdk::HtmlRender, BoxError>> {
        let _ = (composition, options);
        None
    }
}

/// What [`EvalRuntime::check`] found about one value.
pub enum TextCheck<'a> {
    /// The schema-only parse refused it: its findings (possibly none).
    Refused(Vec<ValidationError>),
    /// It parsed, and the sanitized copy failed validation.
    Invalid {
        /// The sanitized copy; `None` when it equals the checked value
        /// (sanitizing dropped nothing), so no copy was made. Give `None`
        /// only for a value within a depth budget (the sdk's is 64 levels):
        /// the harness then moves the value into a plain `Value`, whose drop
        /// recurses once per level.
        composition: Option<Value>,
        /// The validation findings (possibly none).
        errors: Vec<ValidationError>,
    },
    /// It parsed and the sanitized copy validated.
    Valid(Box<dyn ValidText + 'a>),
}

impl<'a> TextCheck<'a> {
    /// The check of a runtime made of separate steps: `parsed` is its
    /// schema parse of the value (the sanitized copy, or the findings);
    /// `validate` checks that copy. A copy that validates renders through
    /// `runtime`'s [`EvalRuntime::render_text`] when asked.
    pub fn from_steps<R: EvalRuntime + ?Sized>(
        runtime: &'a R,
        parsed: Result<Value, Vec<ValidationError>>,
        validate: impl FnOnce(&Value) -> Result<(), Vec<ValidationError>>,
    ) -> TextCheck<'a> {
        let composition = match parsed {
            Ok(composition) => composition,
            Err(findings) => return TextCheck::Refused(findings),
        };
        match validate(&composition) {
            Ok(()) => TextCheck::Valid(Box::new(RenderOnDemand {
                runtime,
                composition,
            })),
            Err(errors) => TextCheck::Invalid {
                composition: Some(composition),
                errors,
            },
        }
    }
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
    /// The sanitized copy (the checked value itself when sanitizing
    /// dropped nothing).
    fn composition(&self) -> &Value;

    /// Its text surface with default options ([`EvalRuntime::render_text`]'s
    /// text).
    ///
    /// # Errors
    /// Whatever the surface refuses.
    fn render_text(&self) -> Result<String, BoxError>;

    /// The sanitized copy, dropping the means to render it; `None` when it
    /// equals the checked value, so the caller, who owns that value, uses
    /// it rather than a copy. `Some` may also equal it. As for
    /// [`TextCheck::Invalid`], give `None` only for a value within a depth
    /// budget.
    fn into_copy(self: Box<Self>) -> Option<Value>;
}

/// The [`ValidText`] of [`TextCheck::from_steps`]: the copy, rendered by
/// the runtime's `render_text`.
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

    fn into_copy(self: Box<Self>) -> Option<Value> {
        Some(self.composition)
    }
}

/// The sdk's [`ValidText`]: the runtime's [`Checked`](isomer_sdk::Checked)
/// of a valid value, rendered from its pass.
struct SdkValidText<'a> {
    /// A valid check, so one with a copy.
    checked: isomer_sdk::Checked<'a>,
}

/// What a check without a copy would lend (a valid one has a copy).
const NO_COPY: &Value = &Value::Null;

impl ValidText for SdkValidText<'_> {
    fn composition(&self) -> &Value {
        self.checked.composition().unwrap_or(NO_COPY)
    }

    fn render_text(&self) -> Result<String, BoxError> {
        let options = isomer_sdk::RenderOptions::default();
        let rendered = self.checked.render(isomer_sdk::Surface::Text, &options)?;
        Ok(match rendered {
            isomer_sdk::Rendered::Text(text) => text,
            other => other.to_text(),
        })
    }

    fn into_copy(self: Box<Self>) -> Option<Value> {
        sanitized_copy(self.checked)
    }
}

/// The copy a check made, `None` when sanitizing dropped nothing (the
/// composition is then the checked value, and cloning it is the caller's
/// choice) or the value was refused.
fn sanitized_copy(checked: isomer_sdk::Checked<'_>) -> Option<Value> {
    checked
        .sanitized()
        .then(|| checked.into_composition())
        .flatten()
}

impl<R: EvalRuntime + ?Sized> EvalRuntime for &R {
    fn walker(&self) -> &dyn ChildWalker {
        (**self).walker()
    }

    fn authoring_context(&self) -> AuthoringContext {
        (**self).authoring_context()
    }

    fn node_types(&self) -> Vec<String> {
        (**self).node_types()
    }

    fn check<'a>(&'a self, document: &'a Document) -> TextCheck<'a> {
        (**self).check(document)
    }

    fn input_budget(&self) -> InputBudget {
        (**self).input_budget()
    }

    fn render_text(&self, composition: &Value) -> Result<String, BoxError> {
        (**self).render_text(composition)
    }

    fn render_html(
        &self,
        composition: &Value,
        options: &isomer_sdk::RenderOptions,
    ) -> Option<Result<isomer_sdk::HtmlRender, BoxError>> {
        (**self).render_html(composition, options)
    }
}

/// A frame's body rule, as the eval check applies it (upstream
/// `EvalFrame`): each returned string is a finding about the whole
/// composition, printed with an empty path (so the bare message), such as
/// `a snapshot render needs exactly one "slideFrame" node, got 2 nodes; render
/// one slide per spec`.
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
/// [`check`](isomer_sdk::Runtime::check) (`parse`, then `validate` of the
/// sanitized copy, in one pass whose typed nodes the text render reads), and
/// its text surface with default options (heading on, `throw` mode), as
/// upstream's `runEvals` reads an `IsomerRuntime`. Validation warnings are
/// not read.
impl<C: Send + 'static> EvalRuntime for isomer_sdk::Runtime<C> {
    fn walker(&self) -> &dyn ChildWalker {
        isomer_sdk::Runtime::walker(self)
    }

    fn authoring_context(&self) -> AuthoringContext {
        isomer_sdk::Runtime::authoring_context(self)
    }

    /// The registered primitives' types, without building the authoring schema.
    fn node_types(&self) -> Vec<String> {
        self.primitives()
            .iter()
            .map(|primitive| primitive.type_name().to_owned())
            .collect()
    }

    fn check<'a>(&'a self, document: &'a Document) -> TextCheck<'a> {
        let checked = isomer_sdk::Runtime::check(self, document);
        if checked.valid() {
            return TextCheck::Valid(Box::new(SdkValidText { checked }));
        }
        let errors = checked.errors().to_vec();
        if checked.composition().is_none() {
            return TextCheck::Refused(errors);
        }
        TextCheck::Invalid {
            composition: sanitized_copy(checked),
            errors,
        }
    }

    /// The runtime's own budget ([`Runtime::input_budget`](isomer_sdk::Runtime::input_budget)).
    fn input_budget(&self) -> InputBudget {
        isomer_sdk::Runtime::input_budget(self)
    }

    fn render_text(&self, composition: &Value) -> Result<String, BoxError> {
        let options = isomer_sdk::RenderOptions::default();
        isomer_sdk::Runtime::render_text(self, composition, &options).map_err(BoxError::from)
    }

    fn render_html(
        &self,
        composition: &Value,
        options: &isomer_sdk::RenderOptions,
    ) -> Option<Result<isomer_sdk::HtmlRender, BoxError>> {
        Some(isomer_sdk::Runtime::render_html(self, composition, options).map_err(BoxError::from))
    }
}

/// An sdk frame is an [`EvalFrame`]: its body rule (none means every body
/// passes), e.g. the slides frame's "exactly one `slideFrame`".
impl EvalFrame for isomer_sdk::Frame {
    fn validate_body(&self, body: &[Value]) -> Vec<String> {
        isomer_sdk::Frame::validate_body(self, body)
    }
}
