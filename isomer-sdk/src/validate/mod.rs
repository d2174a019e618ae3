//! Parsing and validating compositions (sdk.md §2.4–2.6, §3.1–3.2).
//!
//! Order of work, as upstream:
//! 1. the input budget ([`check_input_budget`]) runs first; a refusal is the
//!    only finding;
//! 2. the root is checked against the root schema; each body node (and,
//!    through the child hooks, each nested node) is dispatched on its `type`
//!    (a missing or unregistered type reads `must be one of: <every
//!    registered type>` at `<node>.type`) and checked against its
//!    primitive's compiled validator; refinements run on nodes whose own
//!    schema passed. The walk is iterative (an explicit stack);
//! 3. findings are translated (sdk.md §2.5), given full paths and the
//!    `nodeType` of the node they were found in (the innermost registered
//!    node, §2.6), and sorted into Zod's traversal order;
//! 4. `validate` only: duplicate ids (errors) and empty surfaces (warnings).

pub(crate) mod messages;
pub(crate) mod order;
pub(crate) mod sanitize;

use std::collections::HashMap;

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

/// Where a node sits, for sanitizing.
struct Site {
    segments: Vec<Seg>,
    primitive: Primitive,
}

/// The compiled root schema; the per-node validators live in the primitives.
pub(crate) struct Engine {
    root_schema: Value,
    root: jsonschema::Validator,
}

impl Engine {
    pub fn new() -> Engine {
        let root_schema = crate::schema::root::validator_root_schema();
        let root = crate::schema::node::compile(&root_schema)
            .unwrap_or_else(|reason| unreachable!("the root schema compiles: {reason}"));
        Engine { root_schema, root }
    }

    /// Upstream `parse` (§3.1).
    pub fn parse(
        &self,
        inventory: &Inventory,
        value: &Value,
        budget: InputBudget,
    ) -> ParsedComposition {
        if let Err(refusal) = check_input_budget(value, budget) {
            return ParsedComposition {
                valid: false,
                errors: vec![refusal],
                composition: None,
            };
        }
        let (errors, sites) = self.schema_pass(inventory, value);
        if !errors.is_empty() {
            return ParsedComposition {
                valid: false,
                errors,
                composition: None,
            };
        }
        let mut copy = value.clone();
        // The root is strict; `meta` and its sub-objects are ordinary.
        sanitize::strip_unknown(&self.root_schema, &self.root_schema, &mut copy, true);
        for site in &sites {
            if let Some(node) = navigate(&mut copy, &site.segments) {
                let schema = site.primitive.schema();
                sanitize::strip_unknown(schema, schema, node, true);
            }
        }
        ParsedComposition {
            valid: true,
            errors: Vec::new(),
            composition: Some(copy),
        }
    }

    /// Upstream `validate` (§3.2).
    pub fn validate(
        &self,
        inventory: &Inventory,
        value: &Value,
        budget: InputBudget,
    ) -> CheckedValidation {
        if let Err(refusal) = check_input_budget(value, budget) {
            return CheckedValidation {
                valid: false,
                errors: vec![refusal],
                warnings: Vec::new(),
                composition: None,
            };
        }
        let (errors, _) = self.schema_pass(inventory, value);
        if !errors.is_empty() {
            return CheckedValidation {
                valid: false,
                errors,
                warnings: Vec::new(),
                composition: Some(value.clone()),
            };
        }
        let body = value
            .get("body")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let errors = duplicate_ids(body, inventory);
        let warnings = empty_surfaces(body, inventory);
        CheckedValidation {
            valid: errors.is_empty(),
            errors,
            warnings,
            composition: Some(value.clone()),
        }
    }

    /// The schema findings of `value`, sorted, and the nodes reached.
    fn schema_pass(
        &self,
        inventory: &Inventory,
        value: &Value,
    ) -> (Vec<ValidationError>, Vec<Site>) {
        let mut found: Vec<(Vec<u64>, ValidationError)> = Vec::new();
        let mut sites = Vec::new();
        let root_subject = Subject {
            schema: &self.root_schema,
            instance: value,
            node_fields: None,
        };
        for issue in issues(&self.root, &root_subject) {
            let path = format_path("", &issue.segments);
            found.push((issue.key, ValidationError::new(path, issue.message)));
        }
        let body_key = key_for(&self.root_schema, &[Seg::Key("body".into())]);
        let registered: Vec<String> = inventory.types().map(crate::js::name_text).collect();
        let unknown_type_message = format!("must be one of: {}", registered.join(", "));

        struct Pending<'a> {
            node: &'a Value,
            path: String,
            key: Vec<u64>,
            segments: Vec<Seg>,
            /// Reached by the walker from the body roots (a recorded node of
            /// §2.6). Nodes only the schema reaches (an embedded body that
            /// an explicit hook leaves out) are validated but not walked.
            walked: bool,
            /// The `nodeType` of the innermost walked ancestor (§2.6): what
            /// findings in an unwalked node carry.
            inherited: Option<String>,
        }
        let mut stack: Vec<Pending<'_>> = Vec::new();
        if let Some(Value::Array(body)) = value.get("body") {
            for (index, node) in body.iter().enumerate().rev() {
                let mut key = body_key.clone();
                key.push(index as u64);
                stack.push(Pending {
                    node,
                    path: format!("body[{index}]"),
                    key,
                    segments: vec![Seg::Key("body".into()), Seg::Index(index)],
                    walked: true,
                    inherited: None,
                });
            }
        }
        while let Some(pending) = stack.pop() {
            if !pending.node.is_object() {
                continue;
            }
            let Some(primitive) = inventory.for_node(pending.node) else {
                let mut key = pending.key.clone();
                key.push(0);
                let path = format!("{}.type", pending.path);
                let mut error = ValidationError::new(path, unknown_type_message.clone());
                if !pending.walked
                    && let Some(type_name) = &pending.inherited
                {
                    error = error.with_node_type(type_name.clone());
                }
                found.push((key, error));
                continue;
            };
            let reported: Option<String> = if pending.walked {
                Some(primitive.type_name().to_owned())
            } else {
                pending.inherited.clone()
            };
            let with_type = |error: ValidationError| match &reported {
                Some(type_name) => error.with_node_type(type_name.clone()),
                None => error,
            };
            let schema = primitive.schema();
            let subject = Subject {
                schema,
                instance: pending.node,
                node_fields: Some(primitive.field_names()),
            };
            let own = issues(&primitive.inner.schema.compiled, &subject);
            let own_failed = !own.is_empty();
            for issue in own {
                let mut key = pending.key.clone();
                key.extend(issue.key);
                let path = format_path(&pending.path, &issue.segments);
                found.push((key, with_type(ValidationError::new(path, issue.message))));
            }
            if !own_failed {
                let mut context = RefineContext::new(pending.node, inventory as &dyn ChildWalker);
                let outcome = primitive.inner.erased.refine(pending.node, &mut context);
                let mut key = pending.key.clone();
                key.push(u64::MAX);
                if outcome.is_err() {
                    found.push((
                        key.clone(),
                        with_type(ValidationError::new(pending.path.clone(), "Invalid input")),
                    ));
                }
                for (relative, message) in context.into_findings() {
                    let path = if relative.is_empty() {
                        pending.path.clone()
                    } else {
                        child_node_path(&pending.path, &relative)
                    };
                    found.push((key.clone(), with_type(ValidationError::new(path, message))));
                }
            }
            for (child, walked) in primitive.validated_children(pending.node).into_iter().rev() {
                let relative = parse_child_path(&child.path);
                let mut key = pending.key.clone();
                key.extend(key_for(schema, &relative));
                let mut segments = pending.segments.clone();
                segments.extend(relative);
                stack.push(Pending {
                    node: child.node,
                    path: child_node_path(&pending.path, &child.path),
                    key,
                    segments,
                    walked: pending.walked && walked,
                    inherited: reported.clone(),
                });
            }
            sites.push(Site {
                segments: pending.segments,
                primitive: primitive.clone(),
            });
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        (found.into_iter().map(|(_, error)| error).collect(), sites)
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
        .map(|surface| ValidationWarning {
            surface: (*surface).to_owned(),
            path: None,
            message: format!("composition renders no nodes on surface \"{surface}\""),
        })
        .collect()
}
