//! Checking an attempt once: [`check_composition`] and [`check_attempt`]
//! (upstream evals `checkComposition`, plus the frame's body rule).
//!
//! This is the only place parse, validate and the frame rule are combined,
//! so a value that matches the schema but fails a semantic rule (duplicate
//! ids) or the frame is never read as a good composition. The retry
//! decision, the validity score and the payload score all read the one
//! check an attempt gets.

use isomer_sdk::{DeepValue, Document, format_validation_error};
use serde_json::Value;

use crate::callback::guarded_render;
use crate::parse::{ReadAttempt, read_generated};
use crate::report::CaseError;
use crate::runtime::{EvalFrame, EvalRuntime, TextCheck};

/// The verdict on one value (upstream `CheckedComposition`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CheckedComposition {
    /// True when the value passed the schema parse, validation and the
    /// frame's body rule.
    pub valid: bool,
    /// The findings formatted with `format_validation_error` (`<path> (in
    /// <type>) <message>`, a frame finding as its bare message), in the
    /// order parse or validate, then the frame, reported them. Empty when
    /// `valid`; possibly empty when not (a runtime that gives no detail).
    pub errors: Vec<String>,
    /// The sanitized composition the schema parse returned: present whenever
    /// the schema parse succeeded, even when validation or the frame then
    /// failed.
    pub composition: Option<Value>,
}

/// Where a check left its composition, before anyone owns it.
enum Composition {
    /// The schema parse refused the value: there is none.
    Refused,
    /// The sanitized copy equals the checked value (sanitizing dropped
    /// nothing), and none was made.
    Same,
    /// The sanitized copy, which may differ from the value.
    Made(Value),
}

impl Composition {
    /// The composition, owned: `value` copied when it is the composition.
    fn or_clone(self, value: &Value) -> Option<Value> {
        match self {
            Composition::Refused => None,
            Composition::Same => Some(value.clone()),
            Composition::Made(copy) => Some(copy),
        }
    }
}

/// One attempt's model text, read as JSON and checked: what [`check_attempt`] returns
/// (upstream `CheckedAttempt`). Two attempts are equal when their texts, values and
/// checks are.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedAttempt(pub(crate) Attempt);

impl CheckedAttempt {
    /// The model text as sent.
    pub fn raw(&self) -> &str {
        self.0.raw()
    }

    /// True when the text was JSON and its check passed: the schema parse, validation and
    /// the frame's body rule found nothing.
    pub fn is_valid(&self) -> bool {
        self.0.is_valid()
    }

    /// The JSON value as read, unvalidated, when the text was JSON (`None` too for text a
    /// run read over the input budget: no value was built).
    pub fn value(&self) -> Option<&Value> {
        self.0.value()
    }

    /// The sanitized composition the schema parse returned (unknown keys of non-strict
    /// nested objects dropped): present whenever the text was JSON and the schema parse
    /// succeeded, even when validation or the frame then failed.
    pub fn composition(&self) -> Option<&Value> {
        self.0.check()?.composition.as_ref()
    }

    /// What went wrong, as a retry is told (`previousErrors`): the parser's message alone
    /// when the text was not JSON, else the check's findings formatted with
    /// `format_validation_error` (`<path> (in <type>) <message>`, a frame finding as its
    /// bare message), in the order parse or validate, then the frame, reported them.
    /// Empty when valid; possibly empty when not (a runtime that gives no detail).
    pub fn failures(&self) -> Vec<String> {
        self.0.failures()
    }

    /// The check, when the text was JSON.
    pub(crate) fn check(&self) -> Option<&CheckedComposition> {
        self.0.check()
    }
}

/// An attempt read and checked, as the run and the scoring axes hold it (what
/// [`CheckedAttempt`] wraps).
///
/// Two attempts are equal when their texts, values (as
/// [`Attempt::value`] reads them) and checks are, wherever each
/// holds its value.
#[derive(Debug, Clone)]
pub(crate) enum Attempt {
    /// The text was JSON, and the value was checked.
    Parsed {
        /// The model text as sent.
        raw: String,
        /// The JSON value, unvalidated (the payload walk reads this); dropped
        /// without recursion, whatever its depth. `None` when the check's
        /// composition is this value unchanged (sanitizing dropped nothing):
        /// the value then lives there, not in a second copy.
        /// [`Attempt::value`] reads it either way. `None` too, with
        /// no composition, when a run read text over the input budget: no
        /// value was built (the check's one finding is the budget's
        /// message).
        value: Option<DeepValue>,
        /// The check of the value. Taking `check.composition` out of an
        /// attempt whose `value` is `None` takes the value with it.
        check: CheckedComposition,
    },
    /// The text was not JSON; there is nothing to check.
    Unparsed {
        /// The model text as sent.
        raw: String,
        /// The JSON parser's message.
        error: String,
    },
}

impl PartialEq for Attempt {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Attempt::Parsed { raw, check, .. },
                Attempt::Parsed {
                    raw: other_raw,
                    check: other_check,
                    ..
                },
            ) => raw == other_raw && self.value() == other.value() && check == other_check,
            (
                Attempt::Unparsed { raw, error },
                Attempt::Unparsed {
                    raw: other_raw,
                    error: other_error,
                },
            ) => raw == other_raw && error == other_error,
            _ => false,
        }
    }
}

impl Attempt {
    /// The model text as sent.
    pub(crate) fn raw(&self) -> &str {
        match self {
            Attempt::Parsed { raw, .. } | Attempt::Unparsed { raw, .. } => raw,
        }
    }

    /// True when the text was JSON and its check passed.
    pub(crate) fn is_valid(&self) -> bool {
        matches!(self, Attempt::Parsed { check, .. } if check.valid)
    }

    /// The JSON value, unvalidated, when the text was JSON: `value`, or the
    /// check's composition when that is the value. `None` also once the
    /// composition was moved out of an attempt that held the value there.
    pub(crate) fn value(&self) -> Option<&Value> {
        match self {
            Attempt::Parsed {
                value: Some(value), ..
            } => Some(value),
            Attempt::Parsed {
                value: None, check, ..
            } => check.composition.as_ref(),
            Attempt::Unparsed { .. } => None,
        }
    }

    /// The check, when the text was JSON.
    pub(crate) fn check(&self) -> Option<&CheckedComposition> {
        match self {
            Attempt::Parsed { check, .. } => Some(check),
            Attempt::Unparsed { .. } => None,
        }
    }

    /// What went wrong, as a retry is told (`previousErrors`): the parser's
    /// message alone when the text was not JSON, else the check's errors.
    pub(crate) fn failures(&self) -> Vec<String> {
        match self {
            Attempt::Parsed { check, .. } => check.errors.clone(),
            Attempt::Unparsed { error, .. } => vec![error.clone()],
        }
    }
}

/// Checks one value (upstream evals `checkComposition`, plus the
/// frame's body rule):
///
/// 1. `runtime.parse(value)`; refused → not valid, its findings formatted,
///    no composition.
/// 2. `runtime.validate(&composition)`; its findings formatted.
///
/// (Steps 1 and 2 are one [`EvalRuntime::check`] call.)
/// 3. With a frame, `frame.validate_body(body)` on the parsed composition's
///    `body` (an empty slice when it has none); each string is a finding
///    with an empty path, so it prints as the bare message.
///
/// `valid` when steps 2 and 3 found nothing; the composition is kept either
/// way. Never panics unless the runtime does.
pub(crate) fn check_composition<R>(
    runtime: &R,
    value: &Value,
    frame: Option<&dyn EvalFrame>,
) -> CheckedComposition
where
    R: EvalRuntime + ?Sized,
{
    let document = Document::new(value.clone());
    let (check, copy, _) = check_and_render(runtime, &document, frame, false);
    CheckedComposition {
        composition: copy.or_clone(value),
        ..check
    }
}

/// [`check_composition`] with its composition left in a [`Composition`] (the
/// check's own `composition` is `None`), and with `render`, the text
/// surface of the composition when it is valid (what the answerability
/// judge reads), rendered from the check through [`EvalRuntime::check`] so
/// it is not validated twice. A surface that errs or panics gives a
/// [`CaseError`] at stage `render`. Nothing is rendered for an invalid
/// composition or without `render`.
fn check_and_render<R>(
    runtime: &R,
    value: &Document,
    frame: Option<&dyn EvalFrame>,
    render: bool,
) -> (
    CheckedComposition,
    Composition,
    Option<Result<String, CaseError>>,
)
where
    R: EvalRuntime + ?Sized,
{
    let (valid, errors, copy, rendered) = match runtime.check(value) {
        TextCheck::Refused(findings) => {
            let errors = findings.iter().map(format_validation_error).collect();
            (false, errors, Composition::Refused, None)
        }
        TextCheck::Invalid {
            composition,
            errors: findings,
        } => {
            let mut errors: Vec<String> = findings.iter().map(format_validation_error).collect();
            errors.extend(frame_findings(frame, composition.as_ref().unwrap_or(value)));
            let copy = composition.map_or(Composition::Same, Composition::Made);
            (false, errors, copy, None)
        }
        TextCheck::Valid(valid_text) => {
            let errors = frame_findings(frame, valid_text.composition());
            let valid = errors.is_empty();
            let rendered = (valid && render).then(|| guarded_render(|| valid_text.render_text()));
            let copy = valid_text
                .into_copy()
                .map_or(Composition::Same, Composition::Made);
            (valid, errors, copy, rendered)
        }
    };
    let check = CheckedComposition {
        valid,
        errors,
        composition: None,
    };
    (check, copy, rendered)
}

/// The frame's body rule on `composition`'s `body` (an empty slice when it
/// has none); nothing without a frame.
fn frame_findings(frame: Option<&dyn EvalFrame>, composition: &Value) -> Vec<String> {
    let Some(frame) = frame else {
        return Vec::new();
    };
    frame.validate_body(crate::score::body_of(composition))
}

/// Reads one attempt's model text and checks it once (upstream `parseGenerated`, then
/// `checkAttempt`).
///
/// Reading strips the code fence ([`strip_code_fence`](crate::strip_code_fence)), then
/// parses JSON with the sdk's reader, which follows `JSON.parse` where serde_json can:
/// any value at the top level, duplicate keys keep the last value. The text is read
/// under the runtime's input budget ([`EvalRuntime::input_budget`]), as
/// [`run_evals`](crate::run_evals) and the agent run read every answer: nothing past
/// the first value over it is built, and such an attempt is not valid, the budget's
/// message (`input nests deeper than 64 levels`) its one finding. Where
/// `JSON.parse` differs: the error message is serde_json's; a lone surrogate escape
/// (`"\uD800"`), which JS accepts, is a parse failure here (`unexpected end of hex escape
/// at line 1 column 8`); and so is a number beyond the double range (`1e400`, which JS
/// reads as `Infinity`): `number out of range at line 1 column 5`.
///
/// Text that is not JSON is returned unchecked, its one failure the parser's message.
/// A value is checked:
///
/// 1. `runtime.parse(value)`; refused → not valid, its findings formatted,
///    no composition.
/// 2. `runtime.validate(&composition)`; its findings formatted.
///
/// (Steps 1 and 2 are one [`EvalRuntime::check`] call.)
/// 3. With a frame, `frame.validate_body(body)` on the parsed composition's
///    `body` (an empty slice when it has none); each string is a finding
///    with an empty path, so it prints as the bare message.
///
/// `valid` when steps 2 and 3 found nothing; the composition is kept either
/// way. Never panics unless the runtime does.
pub fn check_attempt<R>(
    runtime: &R,
    raw: impl Into<String>,
    frame: Option<&dyn EvalFrame>,
) -> CheckedAttempt
where
    R: EvalRuntime + ?Sized,
{
    let read = read_generated(raw.into(), runtime.input_budget());
    check_attempt_and_render(runtime, read, frame, false).0
}

/// [`check_attempt`] with [`check_and_render`]'s text: present only for a
/// valid attempt checked with `render`.
pub(crate) fn check_attempt_and_render<R>(
    runtime: &R,
    attempt: ReadAttempt,
    frame: Option<&dyn EvalFrame>,
    render: bool,
) -> (CheckedAttempt, Option<Result<String, CaseError>>)
where
    R: EvalRuntime + ?Sized,
{
    match attempt {
        ReadAttempt::Parsed { raw, value } => {
            let (mut check, copy, rendered) = check_and_render(runtime, &value, frame, render);
            let value = value.into_value();
            // The value moves into the composition when that is what it is.
            let value = match copy {
                Composition::Refused => Some(value),
                Composition::Same => {
                    check.composition = Some(value.into_inner());
                    None
                }
                Composition::Made(copy) => {
                    check.composition = Some(copy);
                    Some(value)
                }
            };
            (
                CheckedAttempt(Attempt::Parsed { raw, value, check }),
                rendered,
            )
        }
        ReadAttempt::OverBudget { raw, message } => {
            let check = CheckedComposition {
                valid: false,
                errors: vec![message],
                composition: None,
            };
            let attempt = Attempt::Parsed {
                raw,
                value: None,
                check,
            };
            (CheckedAttempt(attempt), None)
        }
        ReadAttempt::Unparsed { raw, error } => {
            (CheckedAttempt(Attempt::Unparsed { raw, error }), None)
        }
    }
}

#[cfg(test)]
mod tests {
    use isomer_sdk::{AuthoringContext, ChildRef, ChildWalker, ValidationError};
    use serde_json::json;

    use super::*;
    use crate::runtime::BoxError;

    /// Parses anything with a `type`, refuses `"dup"` ids in validation.
    struct Stub;

    impl ChildWalker for Stub {
        fn children<'a>(&self, _node: &'a Value) -> Vec<ChildRef<'a>> {
            Vec::new()
        }
    }

    impl Stub {
        fn parse(&self, value: &Value) -> Result<Value, Vec<ValidationError>> {
            match value.get("type") {
                Some(_) => Ok(value.clone()),
                None => Err(vec![ValidationError::new("type", "is required")]),
            }
        }

        fn validate(&self, composition: &Value) -> Result<(), Vec<ValidationError>> {
            if composition.to_string().contains("\"dup\"") {
                Err(vec![
                    ValidationError::new(
                        "body[1].id",
                        "duplicates id \"dup\" first used at body[0]",
                    )
                    .with_node_type("note"),
                ])
            } else {
                Ok(())
            }
        }
    }

    impl EvalRuntime for Stub {
        fn walker(&self) -> &dyn ChildWalker {
            self
        }

        fn authoring_context(&self) -> AuthoringContext {
            AuthoringContext {
                schema: json!({}),
                primitives: vec![],
                groups: vec![],
                views: vec![],
            }
        }

        fn check<'a>(&'a self, value: &'a Document) -> TextCheck<'a> {
            TextCheck::from_steps(self, self.parse(value), |copy| self.validate(copy))
        }

        fn render_text(&self, _composition: &Value) -> Result<String, BoxError> {
            Ok(String::new())
        }
    }

    fn no_body_frame(body: &[Value]) -> Vec<String> {
        vec![format!("saw {} nodes", body.len())]
    }

    #[test]
    fn a_schema_refusal_keeps_no_composition() {
        let check = check_composition(&Stub, &json!({"body": []}), None);
        assert_eq!(
            check,
            CheckedComposition {
                valid: false,
                errors: vec!["type is required".to_owned()],
                composition: None,
            }
        );
    }

    #[test]
    fn validation_then_frame_findings_are_listed_in_order_and_the_composition_kept() {
        let value = json!({"type": "view", "body": [{"id": "dup"}, {"id": "dup"}]});
        let check = check_composition(&Stub, &value, Some(&no_body_frame));
        assert_eq!(
            check,
            CheckedComposition {
                valid: false,
                errors: vec![
                    "body[1].id (in note) duplicates id \"dup\" first used at body[0]".to_owned(),
                    "saw 2 nodes".to_owned(),
                ],
                composition: Some(value),
            }
        );
    }

    #[test]
    fn a_frame_sees_an_empty_body_when_the_composition_has_none() {
        let check = check_composition(&Stub, &json!({"type": "view"}), Some(&no_body_frame));
        assert_eq!(check.errors, ["saw 0 nodes"]);
        assert!(!check.valid);
    }

    #[test]
    fn an_unparsed_attempt_is_returned_unchanged_and_tells_the_retry_its_parser_message() {
        let attempt = check_attempt(&Stub, "nope", None);
        assert!(!attempt.is_valid());
        assert_eq!(attempt.check(), None);
        assert_eq!(attempt.raw(), "nope");
        assert_eq!(attempt.failures(), ["expected ident at line 1 column 2"]);
    }
}
