//! [`Checked`]: model output after the engine's one pass, holding what the
//! pass found and made, so that rendering it checks and deserializes
//! nothing again.

use serde_json::Value;

use crate::budget::InputBudget;
use crate::dispatch::Dispatch;
use crate::error::{CompositionValidationError, ValidationError, ValidationWarning};
use crate::inventory::Inventory;
use crate::json::Document;
use crate::surface::Scope;
use crate::surface::options::{RenderOptions, ValidationMode};
use crate::surface::render::{Rendered, Surface, render_body};
use crate::validate::{Engine, Measure, Visits};

/// Model output checked as a host reads it: upstream `parse`, then
/// upstream `validate` of the sanitized copy. Made by
/// [`Runtime::check`](crate::Runtime::check).
///
/// - [`Checked::errors`] are `parse`'s findings when `parse` refused the
///   value (the budget refusal, or the schema and refinement findings);
///   otherwise `validate`'s errors of the sanitized copy (such as duplicate
///   ids), in their order.
/// - [`Checked::composition`] is the sanitized copy (`parse`'s), present
///   whenever `parse` accepted the value. When sanitizing drops nothing the
///   copy equals the value, and no copy is made: the value itself is lent.
/// - [`Checked::render`] renders the copy as [`Runtime::render`](crate::Runtime::render)
///   would, from the typed nodes of the pass.
///
/// It borrows the runtime and the value, and is not `Send`: render it where
/// it was made.
pub struct Checked<'a> {
    inventory: &'a Inventory,
    state: State<'a>,
}

enum State<'a> {
    /// `parse` refused the value.
    Refused(Vec<ValidationError>),
    /// `parse` accepted it and sanitizing dropped nothing: the copy would
    /// equal `value`, whose pass found `errors` and `warnings` and holds the
    /// typed nodes.
    Unchanged {
        value: &'a Value,
        visits: Visits<'a>,
        errors: Vec<ValidationError>,
        warnings: Vec<ValidationWarning>,
    },
    /// `parse` accepted it and sanitizing dropped a key: the copy went
    /// through a pass of its own, which found `errors` and `warnings`.
    Sanitized {
        copy: Document,
        errors: Vec<ValidationError>,
        warnings: Vec<ValidationWarning>,
    },
}

impl<'a> Checked<'a> {
    pub(crate) fn new(
        engine: &'a Engine,
        inventory: &'a Inventory,
        budget: InputBudget,
        document: &'a Document,
    ) -> Self {
        let value: &Value = document;
        let pass = engine.run(inventory, document, Measure::Check(budget));
        if !pass.schema_errors.is_empty() {
            return Checked {
                inventory,
                state: State::Refused(pass.schema_errors),
            };
        }
        let state = match engine.sanitized(value, &pass.visits) {
            Some(copy) => {
                drop(pass);
                // Rare: a key was dropped, so the copy is checked itself (a
                // refinement may read the raw node); its pass is not kept.
                let copy = Document::new(copy);
                let (_, _, errors, warnings) =
                    engine.run(inventory, &copy, Measure::Within).into_parts();
                State::Sanitized {
                    copy,
                    errors,
                    warnings,
                }
            }
            None => {
                let (_, visits, errors, warnings) = pass.into_parts();
                State::Unchanged {
                    value,
                    visits,
                    errors,
                    warnings,
                }
            }
        };
        Checked { inventory, state }
    }

    /// True when `parse` accepted the value and `validate` of the copy
    /// found no error (warnings do not count).
    pub fn valid(&self) -> bool {
        !matches!(self.state, State::Refused(_)) && self.errors().is_empty()
    }

    /// `parse`'s findings when it refused the value, else `validate`'s
    /// errors of the sanitized copy.
    pub fn errors(&self) -> &[ValidationError] {
        match &self.state {
            State::Refused(errors)
            | State::Unchanged { errors, .. }
            | State::Sanitized { errors, .. } => errors,
        }
    }

    /// `validate`'s warnings of the copy (empty surfaces); none when `parse`
    /// refused the value or the copy has errors.
    pub fn warnings(&self) -> &[ValidationWarning] {
        match &self.state {
            State::Refused(_) => &[],
            State::Unchanged { warnings, .. } | State::Sanitized { warnings, .. } => warnings,
        }
    }

    /// The sanitized copy, when `parse` accepted the value: the checked
    /// value itself when sanitizing dropped nothing.
    pub fn composition(&self) -> Option<&Value> {
        match &self.state {
            State::Refused(_) => None,
            State::Unchanged { value, .. } => Some(value),
            State::Sanitized { copy, .. } => Some(&**copy),
        }
    }

    /// True when `parse` accepted the value and sanitizing dropped a key,
    /// so [`Checked::composition`] is a copy that differs from the value.
    pub fn sanitized(&self) -> bool {
        matches!(self.state, State::Sanitized { .. })
    }

    /// The sanitized copy, giving up the rest; the checked value is cloned
    /// when sanitizing dropped nothing (see [`Checked::sanitized`] to avoid
    /// that when the caller owns the value).
    pub fn into_composition(self) -> Option<Value> {
        match self.state {
            State::Refused(_) => None,
            State::Unchanged { value, .. } => Some(value.clone()),
            State::Sanitized { copy, .. } => Some(copy.into_value().into_inner()),
        }
    }

    /// Renders the sanitized copy on `surface`: what
    /// [`Runtime::render`](crate::Runtime::render) of the copy gives, read
    /// from the typed nodes of the pass.
    ///
    /// # Errors
    /// [`CompositionValidationError`] with [`Checked::errors`] when `parse`
    /// refused the value (there is no copy to render), or when the copy has
    /// errors and the mode is `Throw`.
    pub fn render(
        &self,
        surface: Surface,
        options: &RenderOptions,
    ) -> Result<Rendered, CompositionValidationError> {
        let mode = options
            .on_validation_error
            .unwrap_or(surface.default_mode());
        let errors = self.errors();
        if matches!(self.state, State::Refused(_))
            || (!errors.is_empty() && mode == ValidationMode::Throw)
        {
            return Err(CompositionValidationError {
                errors: errors.to_vec(),
            });
        }
        Ok(match &self.state {
            State::Unchanged { value, visits, .. } => render_body(
                Scope::new(&Dispatch::in_pass(self.inventory, visits)),
                surface,
                value,
                options,
                errors.to_vec(),
            ),
            State::Sanitized { copy, .. } => render_body(
                Scope::new(&Dispatch::new(self.inventory)),
                surface,
                copy,
                options,
                errors.to_vec(),
            ),
            State::Refused(_) => unreachable!("a refused value returned above"),
        })
    }
}

impl std::fmt::Debug for Checked<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checked")
            .field("valid", &self.valid())
            .field("errors", &self.errors())
            .field("warnings", &self.warnings())
            .field("composition", &self.composition())
            .finish()
    }
}
