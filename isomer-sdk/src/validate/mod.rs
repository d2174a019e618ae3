//! Parsing and validating compositions (sdk.md §2.4–2.6, §3.1–3.2).
//!
//! Order of work, as upstream:
//! 1. the input budget ([`check_input_budget`]) runs first; a refusal is the
//!    only finding;
//! 2. the root is checked against the root schema; each body node (and,
//!    through the child hooks, each nested node) is dispatched on its `type`
//!    (a missing or unregistered type reads `must be one of: <every
//!    registered type>` at `<node>.type`) and checked against its
//!    primitive's compiled validator. A node's refinements run once its
//!    subtree is done, and only when no schema issue was found in that
//!    subtree (Zod skips the refinements of an object that holds a
//!    non-continuable issue; refinement findings are continuable). The walk
//!    is iterative (an explicit stack);
//! 3. findings are translated (sdk.md §2.5), given full paths and the
//!    `nodeType` of the node they were found in (the innermost registered
//!    node, §2.6), and sorted into Zod's traversal order;
//! 4. `validate` only: duplicate ids (errors) and empty surfaces (warnings).

pub(crate) mod messages;
pub(crate) mod order;
pub(crate) mod sanitize;

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

use serde::Serialize;
use serde_json::Value;

use crate::budget::{InputBudget, check_input_budget};
use crate::composition::renders_on_surface;
use crate::error::{SURFACE_NAMES, ValidationError, ValidationWarning};
use crate::js::quote_text;
use crate::primitive::{Primitive, RefineContext};
use crate::runtime::inventory::Inventory;
use crate::walk::{ChildWalker, child_node_path, walk_body};

use messages::{Subject, format_path, issues};
use order::{Seg, key_for, parse_child_path};

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

/// A composition that passed [`Runtime::validate`](crate::Runtime::validate)
/// of one runtime, borrowed rather than copied: the proof
/// [`Runtime::render_validated`](crate::Runtime::render_validated) takes so
/// that it renders without validating again.
///
/// Only [`Runtime::validated`](crate::Runtime::validated) makes one, and only
/// when that validation found no error (warnings allowed), so an invalid
/// composition cannot reach a renderer through it. It remembers which
/// runtime validated it; another runtime given it validates again.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidComposition<'v> {
    composition: &'v Value,
    warnings: Vec<ValidationWarning>,
    engine: u64,
}

impl<'v> ValidComposition<'v> {
    /// The composition that validated (the value passed to
    /// [`Runtime::validated`](crate::Runtime::validated); `validate`'s
    /// checked copy is this value).
    pub fn composition(&self) -> &'v Value {
        self.composition
    }

    /// The advisory findings `validate` reports for it (empty surfaces), in
    /// the same order.
    pub fn warnings(&self) -> &[ValidationWarning] {
        &self.warnings
    }

    /// True when `engine` made this proof.
    pub(crate) fn validated_by(&self, engine: &Engine) -> bool {
        self.engine == engine.id
    }
}

/// A sanitized composition that passed validation, owned: what
/// [`Runtime::parse_validated`](crate::Runtime::parse_validated) returns for
/// model output that parses and validates. Only the sdk makes one;
/// [`ValidatedComposition::as_valid`] lends it to
/// [`Runtime::render_validated`](crate::Runtime::render_validated).
#[derive(Debug, Clone, PartialEq)]
pub struct ValidatedComposition {
    composition: Value,
    warnings: Vec<ValidationWarning>,
    engine: u64,
}

impl ValidatedComposition {
    /// The sanitized copy (`parse(value).composition`).
    pub fn composition(&self) -> &Value {
        &self.composition
    }

    /// `validate`'s warnings about the copy (empty surfaces), in its order.
    pub fn warnings(&self) -> &[ValidationWarning] {
        &self.warnings
    }

    /// The proof [`Runtime::render_validated`](crate::Runtime::render_validated)
    /// takes, borrowing this composition.
    pub fn as_valid(&self) -> ValidComposition<'_> {
        ValidComposition {
            composition: &self.composition,
            warnings: self.warnings.clone(),
            engine: self.engine,
        }
    }

    /// The sanitized copy, giving up the proof.
    pub fn into_composition(self) -> Value {
        self.composition
    }
}

/// What [`Runtime::parse_validated`](crate::Runtime::parse_validated) found:
/// `parse`, then `validate` of the sanitized copy, in one call.
#[derive(Debug, Clone, PartialEq)]
pub enum ParsedValidation {
    /// `parse` refused the input (budget or schema): its findings, in its
    /// order (`parse(value).errors`).
    Refused(Vec<ValidationError>),
    /// It parsed, but `validate` of the sanitized copy found errors (such
    /// as duplicate ids).
    Invalid {
        /// The sanitized copy.
        composition: Value,
        /// `validate(copy).errors`, in its order.
        errors: Vec<ValidationError>,
    },
    /// It parsed and the sanitized copy validated.
    Valid(ValidatedComposition),
}

/// Engine identities, so a [`ValidComposition`] knows its runtime.
static NEXT_ENGINE_ID: AtomicU64 = AtomicU64::new(0);

/// What [`Engine::check`] found: the validation result without its copy.
pub(crate) struct Check {
    /// The budget refused the input (the only error).
    pub refused: bool,
    /// The findings; `composition` is `None`.
    pub result: CheckedValidation,
}

/// The compiled root schema; the per-node validators live in the primitives.
pub(crate) struct Engine {
    /// Unique per engine (so per runtime) for the process's lifetime.
    id: u64,
    root_schema: Value,
    root: jsonschema::Validator,
    /// The traversal-order key of `body` under the root schema.
    body_key: Vec<u64>,
}

impl Engine {
    pub fn new() -> Engine {
        let root_schema = crate::schema::root::validator_root_schema();
        let root = crate::schema::node::compile(&root_schema)
            .unwrap_or_else(|reason| unreachable!("the root schema compiles: {reason}"));
        let body_key = key_for(&root_schema, &[Seg::Key("body".into())]);
        Engine {
            id: NEXT_ENGINE_ID.fetch_add(1, AtomicOrdering::Relaxed),
            root_schema,
            root,
            body_key,
        }
    }

    /// Upstream `parse` (§3.1).
    pub fn parse(
        &self,
        inventory: &Inventory,
        value: &Value,
        budget: InputBudget,
    ) -> ParsedComposition {
        match self.parse_pass(inventory, value, budget) {
            Ok((copy, _, _)) => ParsedComposition {
                valid: true,
                errors: Vec::new(),
                composition: Some(copy),
            },
            Err(errors) => ParsedComposition {
                valid: false,
                errors,
                composition: None,
            },
        }
    }

    /// Upstream `parse`, then upstream `validate` of the sanitized copy
    /// (what an eval check does), with the schema pass run once when the
    /// sanitizing dropped nothing: the copy then equals `value`, so
    /// validating it would find exactly what the pass over `value` found
    /// (nothing), and the duplicate-id and empty-surface passes read the
    /// same nodes. When a key was dropped, the copy is validated in full.
    pub fn parse_validated(
        &self,
        inventory: &Inventory,
        value: &Value,
        budget: InputBudget,
    ) -> ParsedValidation {
        let (copy, dropped, visits) = match self.parse_pass(inventory, value, budget) {
            Ok(parsed) => parsed,
            Err(errors) => return ParsedValidation::Refused(errors),
        };
        let (errors, warnings) = if dropped {
            drop(visits);
            let checked = self.check(inventory, &copy, budget);
            (checked.result.errors, checked.result.warnings)
        } else {
            self.semantic_pass(inventory, value, &visits)
        };
        if errors.is_empty() {
            ParsedValidation::Valid(ValidatedComposition {
                composition: copy,
                warnings,
                engine: self.id,
            })
        } else {
            ParsedValidation::Invalid {
                composition: copy,
                errors,
            }
        }
    }

    /// Budget, schema pass and sanitized copy: the copy, whether a key was
    /// dropped from it, and the nodes the pass reached (in `value`); else
    /// the findings.
    fn parse_pass<'v>(
        &'v self,
        inventory: &'v Inventory,
        value: &'v Value,
        budget: InputBudget,
    ) -> Result<(Value, bool, Visits<'v>), Vec<ValidationError>> {
        if let Err(refusal) = check_input_budget(value, budget) {
            return Err(vec![refusal]);
        }
        let (errors, visits) = self.schema_pass(inventory, value);
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut copy = value.clone();
        let mut dropped = false;
        // The root is strict; `meta` and its sub-objects are ordinary.
        if copy.get("meta").is_some() {
            dropped |=
                sanitize::strip_unknown(&self.root_schema, &self.root_schema, &mut copy, true);
        }
        for (at, visit) in visits.list.iter().enumerate() {
            let Some(primitive) = visit.primitive else {
                continue;
            };
            if !primitive.inner.schema.strips {
                continue;
            }
            if let Some(node) = navigate(&mut copy, &visits.segments(at)) {
                let schema = primitive.schema();
                dropped |= sanitize::strip_unknown(schema, schema, node, true);
            }
        }
        Ok((copy, dropped, visits))
    }

    /// Upstream `validate` (§3.2).
    pub fn validate(
        &self,
        inventory: &Inventory,
        value: &Value,
        budget: InputBudget,
    ) -> CheckedValidation {
        let mut checked = self.check(inventory, value, budget);
        if !checked.refused {
            checked.result.composition = Some(value.clone());
        }
        checked.result
    }

    /// [`Engine::check`] as a proof: `Ok` when the result is valid (its
    /// warnings kept), else `validate`'s errors, in its order.
    pub fn validated<'v>(
        &self,
        inventory: &Inventory,
        value: &'v Value,
        budget: InputBudget,
    ) -> Result<ValidComposition<'v>, Vec<ValidationError>> {
        let checked = self.check(inventory, value, budget);
        if checked.result.valid {
            Ok(ValidComposition {
                composition: value,
                warnings: checked.result.warnings,
                engine: self.id,
            })
        } else {
            Err(checked.result.errors)
        }
    }

    /// [`Engine::validate`] without the copy: `result.composition` is
    /// always `None`, and `refused` tells a budget refusal apart. Surfaces
    /// render the borrowed value itself (it is what the copy would hold).
    pub fn check(&self, inventory: &Inventory, value: &Value, budget: InputBudget) -> Check {
        if let Err(refusal) = check_input_budget(value, budget) {
            return Check {
                refused: true,
                result: CheckedValidation {
                    valid: false,
                    errors: vec![refusal],
                    warnings: Vec::new(),
                    composition: None,
                },
            };
        }
        let (errors, visits) = self.schema_pass(inventory, value);
        if !errors.is_empty() {
            return Check {
                refused: false,
                result: CheckedValidation {
                    valid: false,
                    errors,
                    warnings: Vec::new(),
                    composition: None,
                },
            };
        }
        let (errors, warnings) = self.semantic_pass(inventory, value, &visits);
        Check {
            refused: false,
            result: CheckedValidation {
                valid: errors.is_empty(),
                errors,
                warnings,
                composition: None,
            },
        }
    }

    /// `validate`'s passes after the schema (§3.2): duplicate ids (errors)
    /// and empty surfaces (warnings) of `value`, whose schema pass found
    /// nothing and reached `visits`.
    fn semantic_pass(
        &self,
        inventory: &Inventory,
        value: &Value,
        visits: &Visits<'_>,
    ) -> (Vec<ValidationError>, Vec<ValidationWarning>) {
        let body = value
            .get("body")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        // Without explicit hooks, the schema pass visited exactly the
        // walker's nodes, in the walker's order: the semantic passes reuse
        // its visits instead of walking again.
        if inventory.has_explicit_hooks() {
            (
                duplicate_ids(body, inventory),
                empty_surfaces(body, inventory),
            )
        } else {
            (
                visits.duplicate_ids(),
                visits.empty_surfaces(body.len(), inventory),
            )
        }
    }

    /// The schema findings of `value`, sorted, and the nodes reached.
    ///
    /// Cheap for valid input: a node whose compiled schema accepts it costs
    /// one `is_valid`; traversal-order keys (from the schema) and full
    /// segment lists are only worked out for nodes that have findings, or,
    /// for `parse`, that need sanitizing.
    fn schema_pass<'v>(
        &'v self,
        inventory: &'v Inventory,
        value: &'v Value,
    ) -> (Vec<ValidationError>, Visits<'v>) {
        let mut found: Vec<(Vec<u64>, ValidationError)> = Vec::new();
        let root_subject = Subject {
            schema: &self.root_schema,
            instance: value,
            node_fields: None,
        };
        for issue in issues(&self.root, &root_subject) {
            let path = format_path("", &issue.segments);
            found.push((issue.key, ValidationError::new(path, issue.message)));
        }
        // Built on first use: valid input never needs it.
        let mut unknown_type_message: Option<String> = None;
        let mut visits = Visits {
            body_key: &self.body_key,
            list: Vec::new(),
            order: Vec::new(),
        };
        /// Work left: visit a node, or run a node's refinements once its
        /// subtree is done (if no schema issue was found meanwhile).
        enum Task {
            Visit(usize),
            Refine { at: usize, schema_issues: usize },
        }
        let mut stack: Vec<Task> = Vec::new();
        // How many of `found` are refinement findings (the rest are schema
        // issues).
        let mut refine_findings = 0;
        if let Some(Value::Array(body)) = value.get("body") {
            visits.list.reserve(body.len());
            for (index, node) in body.iter().enumerate() {
                visits.list.push(Visit {
                    node,
                    path: crate::walk::body_root_path(index),
                    parent: None,
                    relative_at: "body".len(),
                    walked: true,
                    inherited: None,
                    primitive: None,
                    children: 0..0,
                });
            }
            stack.extend((0..body.len()).rev().map(Task::Visit));
        }
        while let Some(task) = stack.pop() {
            let at = match task {
                Task::Visit(at) => at,
                Task::Refine { at, schema_issues } => {
                    if found.len() - refine_findings == schema_issues {
                        refine_findings += self.refine(inventory, &visits, at, &mut found);
                    }
                    continue;
                }
            };
            visits.order.push(at);
            let visit = &visits.list[at];
            let node = visit.node;
            if !node.is_object() {
                continue;
            }
            let Some(primitive) = inventory.for_node(node) else {
                let mut key = visits.key(at);
                key.push(0);
                let path = format!("{}.type", visit.path);
                let message = unknown_type_message.get_or_insert_with(|| {
                    let registered: Vec<String> =
                        inventory.types().map(crate::js::name_text).collect();
                    format!("must be one of: {}", registered.join(", "))
                });
                let mut error = ValidationError::new(path, message.clone());
                if !visit.walked
                    && let Some(type_name) = visit.inherited
                {
                    error = error.with_node_type(type_name);
                }
                found.push((key, error));
                continue;
            };
            let walked = visit.walked;
            let reported: Option<&'v str> = if walked {
                Some(primitive.type_name())
            } else {
                visit.inherited
            };
            let with_type = |error: ValidationError| match reported {
                Some(type_name) => error.with_node_type(type_name),
                None => error,
            };
            let subject = Subject {
                schema: primitive.schema(),
                instance: node,
                node_fields: Some(primitive.field_names()),
            };
            let own = issues(&primitive.inner.schema.compiled, &subject);
            let own_failed = !own.is_empty();
            if own_failed {
                let node_key = visits.key(at);
                let path = &visits.list[at].path;
                for issue in own {
                    let mut key = node_key.clone();
                    key.extend(issue.key);
                    let path = format_path(path, &issue.segments);
                    found.push((key, with_type(ValidationError::new(path, issue.message))));
                }
            }
            visits.list[at].primitive = Some(primitive);
            if !own_failed {
                // Zod runs an object's refinements after its fields and
                // skips them when any schema issue was found inside it
                // (sdk.md §2.5: a refinement sees only a well-formed
                // node): the refinement waits until the subtree is done.
                stack.push(Task::Refine {
                    at,
                    schema_issues: found.len() - refine_findings,
                });
            }
            let base = &visits.list[at].path;
            let relative_at = base.len() + 1;
            let children = primitive.validated_children_under(node, base);
            let first = visits.list.len();
            for (child, path, reached) in children {
                visits.list.push(Visit {
                    node: child,
                    path,
                    parent: Some(at),
                    relative_at,
                    walked: walked && reached,
                    inherited: reported,
                    primitive: None,
                    children: 0..0,
                });
            }
            visits.list[at].children = first..visits.list.len();
            stack.extend((first..visits.list.len()).rev().map(Task::Visit));
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        (found.into_iter().map(|(_, error)| error).collect(), visits)
    }
}

impl Engine {
    /// Runs the refinements of the visited node `at` (its schema passed),
    /// adding their findings to `found`; returns how many it added.
    fn refine<'v>(
        &self,
        inventory: &'v Inventory,
        visits: &Visits<'v>,
        at: usize,
        found: &mut Vec<(Vec<u64>, ValidationError)>,
    ) -> usize {
        let visit = &visits.list[at];
        let Some(primitive) = visit.primitive else {
            return 0;
        };
        let reported = if visit.walked {
            Some(primitive.type_name())
        } else {
            visit.inherited
        };
        let with_type = |error: ValidationError| match reported {
            Some(type_name) => error.with_node_type(type_name),
            None => error,
        };
        let mut context = RefineContext::new(visit.node, inventory as &dyn ChildWalker);
        let outcome = primitive.inner.erased.refine(visit.node, &mut context);
        let findings = context.into_findings();
        if outcome.is_ok() && findings.is_empty() {
            return 0;
        }
        let before = found.len();
        let mut key = visits.key(at);
        key.push(u64::MAX);
        let path = &visit.path;
        if outcome.is_err() {
            found.push((
                key.clone(),
                with_type(ValidationError::new(path.clone(), "Invalid input")),
            ));
        }
        for (relative, message) in findings {
            let path = if relative.is_empty() {
                path.clone()
            } else {
                child_node_path(path, &relative)
            };
            found.push((key.clone(), with_type(ValidationError::new(path, message))));
        }
        found.len() - before
    }
}

/// One node the schema pass reached.
pub(crate) struct Visit<'v> {
    node: &'v Value,
    /// Its full path (`body[0].items[1]`).
    path: String,
    /// The enclosing node's visit; `None` for a body root.
    parent: Option<usize>,
    /// Where in `path` the path from the enclosing node starts (`[0]`
    /// after `body` for a root, `items[1]` after `body[0].`).
    relative_at: usize,
    /// Reached by the walker from the body roots (a recorded node of
    /// §2.6). Nodes only the schema reaches (an embedded body that an
    /// explicit hook leaves out) are validated but not walked.
    walked: bool,
    /// The `nodeType` of the innermost walked ancestor (§2.6): what findings
    /// in an unwalked node carry.
    inherited: Option<&'v str>,
    /// Its primitive, once the node was found to be of a registered type.
    primitive: Option<&'v Primitive>,
    /// The visits of its children (they are added together).
    children: Range<usize>,
}

impl Visit<'_> {
    /// The steps from the enclosing node (from `body` for a root).
    fn relative(&self) -> Vec<Seg> {
        parse_child_path(&self.path[self.relative_at..])
    }
}

/// Every node the schema pass reached. Children are added after their
/// parent, so a parent's index is below its children's.
pub(crate) struct Visits<'v> {
    body_key: &'v [u64],
    list: Vec<Visit<'v>>,
    /// Indexes of `list` in visiting order: pre-order, children in slot
    /// order.
    order: Vec<usize>,
}

impl Visits<'_> {
    /// The enclosing visits of `at`, outermost first, then `at`.
    fn chain(&self, at: usize) -> Vec<usize> {
        let mut chain = vec![at];
        let mut current = at;
        while let Some(parent) = self.list[current].parent {
            chain.push(parent);
            current = parent;
        }
        chain.reverse();
        chain
    }

    /// The traversal-order key of the node at `at` (sdk.md §2.5): the
    /// `body` key, the root's index, then each step's rank in its
    /// enclosing node's schema.
    fn key(&self, at: usize) -> Vec<u64> {
        let mut key = self.body_key.to_vec();
        for index in self.chain(at) {
            let visit = &self.list[index];
            let relative = visit.relative();
            match visit.parent.and_then(|parent| self.list[parent].primitive) {
                Some(parent) => key.extend(key_for(parent.schema(), &relative)),
                None => key.extend(relative.iter().map(|seg| match seg {
                    Seg::Index(index) => *index as u64,
                    Seg::Key(_) => 0,
                })),
            }
        }
        key
    }

    /// [`duplicate_ids`] over the visits (valid only when every visit is a
    /// walked one, that is without explicit hooks).
    fn duplicate_ids(&self) -> Vec<ValidationError> {
        let mut first_use: HashMap<&str, usize> = HashMap::new();
        let mut errors = Vec::new();
        for &at in &self.order {
            let visit = &self.list[at];
            let Some(id) = visit.node.get("id").and_then(Value::as_str) else {
                continue;
            };
            match first_use.get(id) {
                Some(&first) => {
                    let mut error = ValidationError::new(
                        format!("{}.id", visit.path),
                        format!(
                            "duplicates id {} first used at {}",
                            quote_text(id),
                            self.list[first].path
                        ),
                    );
                    if let Some(type_name) = visit.node.get("type").and_then(Value::as_str) {
                        error = error.with_node_type(type_name);
                    }
                    errors.push(error);
                }
                None => {
                    first_use.insert(id, at);
                }
            }
        }
        errors
    }

    /// [`empty_surfaces`] over the visits (valid only without explicit
    /// hooks): one bottom-up pass computes, per node, the set of surfaces
    /// it renders on (`renders_on_surface` for every surface at once).
    fn empty_surfaces(&self, roots: usize, walker: &Inventory) -> Vec<ValidationWarning> {
        let all: u32 = (1 << SURFACE_NAMES.len()) - 1;
        let mut renders = vec![0u32; self.list.len()];
        for at in (0..self.list.len()).rev() {
            let visit = &self.list[at];
            let visible = visible_surfaces(visit.node);
            if visible == 0 {
                continue;
            }
            let drawn = if visit.children.is_empty() || walker.has_own_content(visit.node) {
                all
            } else {
                visit
                    .children
                    .clone()
                    .fold(0, |mask, child| mask | renders[child])
            };
            renders[at] = visible & drawn;
        }
        let covered = renders[..roots.min(renders.len())]
            .iter()
            .fold(0, |mask, &node| mask | node);
        SURFACE_NAMES
            .iter()
            .enumerate()
            .filter(|(bit, _)| covered & (1 << bit) == 0)
            .map(|(_, surface)| empty_surface_warning(surface))
            .collect()
    }

    /// The steps from the composition root to the node at `at`.
    fn segments(&self, at: usize) -> Vec<Seg> {
        let mut segments = vec![Seg::Key("body".into())];
        for index in self.chain(at) {
            segments.extend(self.list[index].relative());
        }
        segments
    }
}

/// The value at `segments` inside `value`.
fn navigate<'a>(value: &'a mut Value, segments: &[Seg]) -> Option<&'a mut Value> {
    let mut current = value;
    for segment in segments {
        current = match (segment, current) {
            (Seg::Key(key), Value::Object(map)) => map.get_mut(key)?,
            (Seg::Index(index), Value::Array(items)) => items.get_mut(*index)?,
            _ => return None,
        };
    }
    Some(current)
}

/// Duplicate ids (§3.2 a): pre-order over body roots then children; only
/// string ids count; each later use is
/// `<nodePath>.id duplicates id "<id>" first used at <firstPath>`.
fn duplicate_ids(body: &[Value], walker: &Inventory) -> Vec<ValidationError> {
    let mut first_use: HashMap<&str, String> = HashMap::new();
    let mut errors = Vec::new();
    for walked in walk_body(body, walker) {
        let Some(id) = walked.node.get("id").and_then(Value::as_str) else {
            continue;
        };
        match first_use.get(id) {
            Some(first_path) => {
                let mut error = ValidationError::new(
                    format!("{}.id", walked.path),
                    format!(
                        "duplicates id {} first used at {first_path}",
                        quote_text(id)
                    ),
                );
                if let Some(type_name) = walked.node.get("type").and_then(Value::as_str) {
                    error = error.with_node_type(type_name);
                }
                errors.push(error);
            }
            None => {
                first_use.insert(id, walked.path.clone());
            }
        }
    }
    errors
}

/// Empty surfaces (§3.2 b): for each surface in list order, a warning when
/// no body root renders on it.
fn empty_surfaces(body: &[Value], walker: &Inventory) -> Vec<ValidationWarning> {
    SURFACE_NAMES
        .iter()
        .filter(|surface| {
            !body
                .iter()
                .any(|node| renders_on_surface(node, surface, walker))
        })
        .map(|surface| empty_surface_warning(surface))
        .collect()
}

/// `composition renders no nodes on surface "<surface>"` (§3.2 b).
fn empty_surface_warning(surface: &str) -> ValidationWarning {
    ValidationWarning {
        surface: surface.to_owned(),
        path: None,
        message: format!("composition renders no nodes on surface \"{surface}\""),
    }
}

/// The surfaces `node` is visible on, one bit per [`SURFACE_NAMES`] entry
/// (`is_visible_on_surface` for every surface at once): none for a
/// non-object, all without a `surfaces` list.
fn visible_surfaces(node: &Value) -> u32 {
    let Some(fields) = node.as_object() else {
        return 0;
    };
    match fields.get("surfaces") {
        Some(Value::Array(listed)) => SURFACE_NAMES
            .iter()
            .enumerate()
            .filter(|(_, surface)| listed.iter().any(|s| s.as_str() == Some(surface)))
            .fold(0, |mask, (bit, _)| mask | (1 << bit)),
        _ => (1 << SURFACE_NAMES.len()) - 1,
    }
}
