//! Parsing and validating compositions: upstream `parse` (budget, schema,
//! sanitized copy) and `validate` (budget, schema, duplicate ids, empty
//! surfaces).
//!
//! Order of work, as upstream:
//! 1. the input budget ([`check_input_budget`]) runs first; a refusal is the
//!    only finding. A value already known to be within it is not measured
//!    again (see `Measure::Within`);
//! 2. the root is checked against the root schema; each body node (and,
//!    through the child hooks, each nested node) is dispatched on its `type`
//!    (a missing or unregistered type reads `must be one of: <every
//!    registered type>` at `<node>.type`) and checked against its
//!    primitive's compiled validator. A node's refinements run once its
//!    subtree is done, and only when no schema issue was found in that
//!    subtree (Zod skips the refinements of an object that holds a
//!    non-continuable issue; refinement findings are continuable). The walk
//!    is iterative (an explicit stack);
//! 3. findings are translated into upstream's messages, given full paths and the
//!    `nodeType` of the node they were found in (the innermost registered
//!    node), and sorted into Zod's traversal order;
//! 4. when the schema found nothing: duplicate ids (errors) and empty
//!    surfaces (warnings), over the nodes step 2 visited.
//!
//! That is one pass; `parse`, `validate`, every render and
//! [`Runtime::check`](crate::Runtime::check) read what it found. `parse`
//! reports only steps 1–3 and returns the sanitized copy.

pub(crate) mod messages;
pub(crate) mod order;
mod pass;
pub(crate) mod sanitize;

use std::sync::LazyLock;

use serde::Serialize;
use serde_json::Value;

use crate::budget::{InputBudget, check_input_budget};
use crate::error::{ValidationError, ValidationWarning};
use crate::inventory::Inventory;
use crate::json::{Document, JsonRefusal, JsonSyntaxError};

use order::{Seg, key_for};

pub(crate) use pass::Visits;

/// The result of `parse` (upstream `ParsedComposition`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParsedComposition {
    /// True when there is no finding.
    pub valid: bool,
    /// The findings, in traversal order.
    pub errors: Vec<ValidationError>,
    /// The sanitized copy, only when valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composition: Option<Value>,
}

/// The result of `validate` (upstream `CheckedValidationResult`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckedValidation {
    /// True when there is no error (warnings do not count).
    pub valid: bool,
    /// Schema findings, or else duplicate-id findings.
    pub errors: Vec<ValidationError>,
    /// Advisory findings (empty surfaces).
    pub warnings: Vec<ValidationWarning>,
    /// The checked copy; `None` only when the budget refused the input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composition: Option<Value>,
}

impl CheckedValidation {
    /// The warnings about one surface (upstream `warningsForSurface`).
    pub fn warnings_for_surface(&self, surface: &str) -> Vec<&ValidationWarning> {
        self.warnings
            .iter()
            .filter(|w| w.surface == surface)
            .collect()
    }
}

/// What the one pass found about a value.
pub(crate) struct Pass<'v> {
    /// The budget refused the input: `schema_errors` holds its refusal only.
    pub refused: bool,
    /// The budget refusal, or the schema and refinement findings, sorted:
    /// what `parse` reports.
    pub schema_errors: Vec<ValidationError>,
    /// Duplicate ids, pre-order; empty unless `schema_errors` is.
    pub id_errors: Vec<ValidationError>,
    /// Empty surfaces; empty unless `schema_errors` is.
    pub warnings: Vec<ValidationWarning>,
    /// The nodes the pass visited, with their typed forms.
    pub visits: Visits<'v>,
}

impl<'v> Pass<'v> {
    /// True when `validate` finds no error.
    pub fn valid(&self) -> bool {
        self.schema_errors.is_empty() && self.id_errors.is_empty()
    }

    /// Whether the budget refused the input, the visits, `validate`'s
    /// errors (the schema findings, else the duplicate ids) and its warnings.
    pub fn into_parts(
        self,
    ) -> (
        bool,
        Visits<'v>,
        Vec<ValidationError>,
        Vec<ValidationWarning>,
    ) {
        let errors = if self.schema_errors.is_empty() {
            self.id_errors
        } else {
            self.schema_errors
        };
        (self.refused, self.visits, errors, self.warnings)
    }
}

/// What the pass does about the input budget before it walks a value.
#[derive(Clone, Copy)]
pub(crate) enum Measure {
    /// Measure the value against this budget first; a refusal is the only
    /// finding. A document read from text whose count is within the budget
    /// ([`Document::read_usage`]) is not
    /// measured again: its reader fed the same meter, with the same rule
    /// for each leaf and key, every value it read (also one a repeated key
    /// later replaced), so the value holds no more than the count, and it
    /// cannot have changed since.
    Check(InputBudget),
    /// The value is known to be within the budget, so measuring it again
    /// could only agree:
    /// - it was read under the budget: [`Document::parse_within`] feeds the same
    ///   meter, with the same rule for each leaf and key, every value it
    ///   reads (also one a repeated key later replaces), so a value it
    ///   accepts is within by its own measure too;
    /// - or it is the sanitized copy of a value that passed
    ///   [`Measure::Check`]: sanitizing only removes keys, so the copy holds
    ///   no more values, characters or depth.
    Within,
}

/// The compiled root schema; the per-node validators live in the primitives.
/// The root schema is the same for every runtime, so one engine serves them
/// all: [`Engine::shared`] builds it on first use.
pub(crate) struct Engine {
    root_schema: Value,
    root: jsonschema::Validator,
    /// The traversal-order key of `body` under the root schema.
    body_key: Vec<u64>,
}

/// The process's engine, built when the first composition is checked.
static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
    let root_schema = crate::schema::root::validator_root_schema();
    let root = crate::schema::node::compile(&root_schema)
        .unwrap_or_else(|reason| unreachable!("the root schema compiles: {reason}"));
    let body_key = key_for(&root_schema, &[Seg::Key("body".into())]);
    Engine {
        root_schema,
        root,
        body_key,
    }
});

impl Engine {
    /// The engine every runtime shares, built on the first call.
    pub fn shared() -> &'static Engine {
        &ENGINE
    }

    /// The one pass over `input`: budget, schema and refinements, then
    /// (when those found nothing) duplicate ids and empty surfaces.
    pub fn run<'v>(
        &'v self,
        inventory: &'v Inventory,
        document: &'v Document,
        measure: Measure,
    ) -> Pass<'v> {
        let value: &Value = document;
        let refusal = match measure {
            Measure::Check(budget) => {
                // A count read from the text, within the budget, vouches
                // for the value (see `Measure::Check`).
                let read_within = document
                    .read_usage()
                    .is_some_and(|read| read.is_within(&budget));
                if read_within {
                    None
                } else {
                    check_input_budget(value, budget).err()
                }
            }
            Measure::Within => None,
        };
        if let Some(refusal) = refusal {
            return Pass {
                refused: true,
                schema_errors: vec![refusal],
                id_errors: Vec::new(),
                warnings: Vec::new(),
                visits: Visits::empty(&self.body_key),
            };
        }
        let (schema_errors, visits) = self.schema_pass(inventory, document);
        let (id_errors, warnings) = if schema_errors.is_empty() {
            let roots = crate::composition::node_field(value, "body")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            (
                visits.duplicate_ids(),
                visits.empty_surfaces(roots, inventory),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        Pass {
            refused: false,
            schema_errors,
            id_errors,
            warnings,
            visits,
        }
    }

    /// Upstream `parse`: the pass's budget and schema findings; valid →
    /// the sanitized copy: `document`'s own value when sanitizing drops
    /// nothing (moved out, not copied, when nothing else shares it).
    pub fn parse(
        &self,
        inventory: &Inventory,
        document: Document,
        budget: InputBudget,
    ) -> ParsedComposition {
        let pass = self.run(inventory, &document, Measure::Check(budget));
        if !pass.schema_errors.is_empty() {
            return ParsedComposition {
                valid: false,
                errors: pass.schema_errors,
                composition: None,
            };
        }
        let sanitized = self.sanitized(&document, &pass.visits);
        // The typed forms share the tree: gone before it is taken back.
        drop(pass);
        ParsedComposition {
            valid: true,
            errors: Vec::new(),
            composition: Some(sanitized.unwrap_or_else(|| document.into_value().into_inner())),
        }
    }

    /// Upstream `validate` of JSON text: the text read within `budget`
    /// ([`Document::parse_within`], which builds nothing past the first value
    /// over a limit), then [`Engine::validate`] of its value, known to be
    /// within ([`Measure::Within`]). Text over the budget gives the refusal
    /// as the only finding and no copy.
    pub fn validate_json(
        &self,
        inventory: &Inventory,
        text: &str,
        budget: InputBudget,
    ) -> Result<CheckedValidation, JsonSyntaxError> {
        match Document::parse_within(text, budget) {
            Ok(document) => Ok(self.validate(inventory, document, Measure::Within)),
            Err(JsonRefusal::OverBudget(refusal)) => Ok(CheckedValidation {
                valid: false,
                errors: vec![refusal.to_error()],
                warnings: Vec::new(),
                composition: None,
            }),
            Err(JsonRefusal::Syntax(error)) => Err(error),
        }
    }

    /// Upstream `validate`: the pass's findings and the checked copy:
    /// `document`'s own value (moved out, not copied, when nothing else
    /// shares it), none when the budget refused it.
    pub fn validate(
        &self,
        inventory: &Inventory,
        document: Document,
        measure: Measure,
    ) -> CheckedValidation {
        let Pass {
            refused,
            schema_errors,
            id_errors,
            warnings,
            ..
        } = self.run(inventory, &document, measure);
        let errors = if schema_errors.is_empty() {
            id_errors
        } else {
            schema_errors
        };
        CheckedValidation {
            valid: errors.is_empty(),
            errors,
            warnings,
            composition: (!refused).then(|| document.into_value().into_inner()),
        }
    }
}
