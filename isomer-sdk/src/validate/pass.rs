//! The one pass of the engine: the schema of the root and of every node
//! reached through the slots and child hooks, each node's refinements once
//! its subtree passed, then, for input the schema accepts, the duplicate ids
//! and the empty surfaces, all over one list of visits. The visits keep each
//! node's typed form for the renders that follow.

use std::cell::{OnceCell, RefCell};
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value;

use crate::error::{SURFACE_NAMES, ValidationError, ValidationWarning};
use crate::inventory::Inventory;
use crate::js::quote_text;
use crate::json::Document;
use crate::json::eq_deep;
use crate::node::InTree;
use crate::primitive::{NodeSource, Places, Primitive, RefineContext, TypedSlot};
use crate::walk::{ChildWalker, child_node_path};

use super::messages::{Issue, Subject, format_path, issues};
use super::order::{Seg, key_for, parse_child_path};
use super::{Engine, sanitize};

impl Engine {
    /// The sanitized copy of `value`, which the pass that made `visits`
    /// accepted: unknown keys of the non-strict objects inside `meta` and
    /// inside each node dropped. `None` when there is no such key, so the
    /// copy would equal `value`: nothing is cloned then (the rare case where
    /// a found key cannot be reached, see [`sanitize::Undeclared::apply`], clones and
    /// gives `None` too).
    pub(crate) fn sanitized(&self, value: &Value, visits: &Visits<'_>) -> Option<Value> {
        let mut found = Vec::new();
        // The root is strict; `meta` and its sub-objects are ordinary.
        if crate::composition::node_field(value, "meta").is_some() {
            let root = &self.root_schema;
            sanitize::undeclared_keys(root, root, value, true, Vec::new, &mut found);
        }
        for (at, visit) in visits.list.iter().enumerate() {
            let Some(primitive) = visit.primitive else {
                continue;
            };
            if !primitive.shape().is_ok_and(|shape| shape.schema.strips) {
                continue;
            }
            let schema = primitive.schema();
            let prefix = || visits.segments(at);
            sanitize::undeclared_keys(schema, schema, visit.node, true, prefix, &mut found);
        }
        if found.is_empty() {
            return None;
        }
        let mut copy = value.clone();
        let mut dropped = false;
        for undeclared in &found {
            dropped |= undeclared.apply(&mut copy);
        }
        dropped.then_some(copy)
    }

    /// The schema findings of `value`, sorted, and the nodes reached.
    ///
    /// Cheap for valid input: a node whose compiled schema accepts it costs
    /// one `is_valid`; traversal-order keys (from the schema) and full
    /// segment lists are only worked out for nodes that have findings, or,
    /// for `parse`, that need sanitizing.
    pub(super) fn schema_pass<'v>(
        &'v self,
        inventory: &'v Inventory,
        document: &'v Document,
    ) -> (Vec<ValidationError>, Visits<'v>) {
        let value: &Value = document;
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
        let mut visits = Visits {
            tree: Some(document.tree()),
            roots: 0,
            body_key: &self.body_key,
            list: Vec::new(),
            order: Vec::new(),
            child_paths: RefCell::default(),
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
        if let Some(Value::Array(body)) = crate::composition::node_field(value, "body") {
            visits.roots = body.len();
            visits.list.reserve(body.len());
            for node in body {
                visits.list.push(Visit {
                    node,
                    parent: None,
                    walked: true,
                    inherited: None,
                    primitive: None,
                    children: 0..0,
                    slot: RefCell::new(TypedSlot::Empty),
                    place: OnceCell::new(),
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
                let path = format!("{}.type", visits.path(at));
                let message = inventory.unknown_type_message().to_owned();
                let mut error = ValidationError::new(path, message);
                if !visit.walked
                    && let Some(type_name) = visit.inherited
                {
                    error = error.with_node_type(type_name);
                }
                found.push((key, error));
                continue;
            };
            let walked = visit.walked;
            let reported = visit.reported_type(primitive);
            let with_type = |error: ValidationError| with_node_type(error, reported);
            let subject = Subject {
                schema: primitive.schema(),
                instance: node,
                node_fields: Some(primitive.field_names()),
            };
            let own = match primitive.validator() {
                Ok(compiled) => issues(compiled, &subject),
                // A pack bug the build could not see: the node is
                // reported, not silently accepted.
                Err(reason) => vec![Issue {
                    key: Vec::new(),
                    segments: Vec::new(),
                    message: format!("cannot be checked: {reason}"),
                }],
            };
            let own_failed = !own.is_empty();
            if own_failed {
                let node_key = visits.key(at);
                let node_path = visits.path(at);
                for issue in own {
                    let mut key = node_key.clone();
                    key.extend(issue.key);
                    let path = format_path(&node_path, &issue.segments);
                    found.push((key, with_type(ValidationError::new(path, issue.message))));
                }
            }
            visits.list[at].primitive = Some(primitive);
            if !own_failed {
                // Zod runs an object's refinements after its fields and
                // skips them when any schema issue was found inside it
                // (a refinement sees only a well-formed
                // node): the refinement waits until the subtree is done.
                stack.push(Task::Refine {
                    at,
                    schema_issues: found.len() - refine_findings,
                });
            }
            let children = primitive.validated_child_nodes(node);
            let first = visits.list.len();
            for (child, reached) in children {
                visits.list.push(Visit {
                    node: child,
                    parent: Some(at),
                    walked: walked && reached,
                    inherited: reported,
                    primitive: None,
                    children: 0..0,
                    slot: RefCell::new(TypedSlot::Empty),
                    place: OnceCell::new(),
                });
            }
            visits.list[at].children = first..visits.list.len();
            stack.extend((first..visits.list.len()).rev().map(Task::Visit));
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        (found.into_iter().map(|(_, error)| error).collect(), visits)
    }

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
        let reported = visit.reported_type(primitive);
        let with_type = |error: ValidationError| with_node_type(error, reported);
        let mut context = RefineContext::new(visit.node, inventory as &dyn ChildWalker);
        let outcome = primitive.inner.erased.refine(
            visits.source(at),
            &mut visit.slot.borrow_mut(),
            &mut context,
        );
        let findings = context.into_findings();
        if outcome.is_ok() && findings.is_empty() {
            return 0;
        }
        let before = found.len();
        let mut key = visits.key(at);
        key.push(u64::MAX);
        let path = &visits.path(at);
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
    /// The enclosing node's visit; `None` for a body root. The node's
    /// path is not kept: [`Visits::path`] works it out when a finding
    /// needs it, so valid input keeps no path string.
    parent: Option<usize>,
    /// Reached by the walker from the body roots (a node whose type
    /// findings name as `nodeType`). Nodes only the schema reaches (an
    /// embedded body that an explicit hook leaves out) are validated but
    /// not walked.
    walked: bool,
    /// The `nodeType` of the innermost walked ancestor: what findings
    /// in an unwalked node carry.
    inherited: Option<&'v str>,
    /// Its primitive, once the node was found to be of a registered type.
    primitive: Option<&'v Primitive>,
    /// The visits of its children (they are added together): first the
    /// walked ones in hook order, then the ones only the schema reaches.
    children: Range<usize>,
    /// Its typed form, made once and shared by refinements and renders.
    slot: RefCell<TypedSlot>,
    /// The node borrowed from the document together with its tree, found
    /// the first time a node in its typed form is shared (only containers'
    /// typed forms hold nodes); `None` inside when it is not in the
    /// document.
    place: OnceCell<Option<InTree>>,
}

impl<'v> Visit<'v> {
    /// The `nodeType` of findings in this node, of type `primitive`: its
    /// own type when walked, else the innermost walked ancestor's.
    fn reported_type(&self, primitive: &'v Primitive) -> Option<&'v str> {
        if self.walked {
            Some(primitive.type_name())
        } else {
            self.inherited
        }
    }
}

/// `error` with `nodeType` set to `reported`, when there is one.
fn with_node_type(error: ValidationError, reported: Option<&str>) -> ValidationError {
    match reported {
        Some(type_name) => error.with_node_type(type_name),
        None => error,
    }
}

/// Every node the schema pass reached. Children are added after their
/// parent, so a parent's index is below its children's.
pub(crate) struct Visits<'v> {
    /// The document's tree the pass read (`None` only when there are no
    /// visits, the budget having refused it). A visit's node is a value
    /// inside it, or (from a child hook) possibly a value from
    /// elsewhere, which [`Places::place`] tells apart.
    tree: Option<&'v Arc<Value>>,
    /// How many body roots there are (the first visits).
    roots: usize,
    body_key: &'v [u64],
    list: Vec<Visit<'v>>,
    /// Indexes of `list` in visiting order: pre-order, children in slot
    /// order.
    order: Vec<usize>,
    /// The paths of a visit's children from it, in the order of its
    /// `children`, by the visit's index: asked of its primitive the first
    /// time one of them is needed, then shared by every finding under it
    /// (many findings among many siblings ask once).
    child_paths: RefCell<foldhash::HashMap<usize, Vec<String>>>,
}

impl<'v> Visits<'v> {
    /// No visits (the budget refused the input).
    pub(super) fn empty(body_key: &'v [u64]) -> Self {
        Visits {
            tree: None,
            roots: 0,
            body_key,
            list: Vec::new(),
            order: Vec::new(),
            child_paths: RefCell::default(),
        }
    }
}

impl Visits<'_> {
    /// The node of the visit `at`, as its typed form is read: the nodes it
    /// makes share their values with the document the pass read.
    pub(crate) fn source(&self, at: usize) -> NodeSource<'_> {
        NodeSource::placed(self.list[at].node, self, at)
    }

    /// Finds the place of the visit `at`, given its parent's: a body root
    /// is `body[at]` of the tree, a child is at its relative path
    /// (`items[1]`) from its parent. `None` when that path does not lead to
    /// the visit's very node (a child hook gave a value from elsewhere).
    fn find_place(&self, at: usize, tree: &Arc<Value>) -> Option<InTree> {
        let visit = &self.list[at];
        let node = visit.node;
        let is_node = |found: &Value| std::ptr::eq(found, node);
        match visit.parent {
            None => InTree::try_attach_to_cart(Arc::clone(tree), |root| {
                crate::composition::node_field(root, "body")
                    .and_then(|body| body.get(at))
                    .filter(|found| is_node(found))
                    .ok_or(())
            })
            .ok(),
            Some(parent) => {
                let from = self.list[parent].place.get()?.as_ref()?;
                let steps = parse_child_path(&self.relative_path(at));
                from.try_map_project_cloned(|value, _| {
                    let mut found = *value;
                    for step in &steps {
                        found = match step {
                            Seg::Key(key) => crate::composition::node_field(found, key),
                            Seg::Index(index) => found.get(*index),
                        }
                        .ok_or(())?;
                    }
                    if is_node(found) { Ok(found) } else { Err(()) }
                })
                .ok()
            }
        }
    }

    /// The typed-form slot of the visit `at`.
    pub(crate) fn slot(&self, at: usize) -> &RefCell<TypedSlot> {
        &self.list[at].slot
    }

    /// The visit of `node` among the children of the visit `parent` (the
    /// body roots for `None`): the same value (the same place, or equal
    /// content, as in a renderer's typed copy of its children).
    pub(crate) fn find_child(&self, parent: Option<usize>, node: &Value) -> Option<usize> {
        let candidates = match parent {
            Some(parent) => self.list.get(parent)?.children.clone(),
            None => 0..self.roots.min(self.list.len()),
        };
        candidates
            .clone()
            .find(|&at| std::ptr::eq(self.list[at].node, node))
            .or_else(|| {
                candidates
                    .into_iter()
                    .find(|&at| eq_deep(self.list[at].node, node))
            })
    }

    /// The enclosing visits of `at`, outermost first, then `at`.
    fn chain(&self, at: usize) -> Vec<usize> {
        let mut chain = Vec::with_capacity(4);
        chain.push(at);
        let mut current = at;
        while let Some(parent) = self.list[current].parent {
            chain.push(parent);
            current = parent;
        }
        chain.reverse();
        chain
    }

    /// The full path of the node at `at` (`body[0].items[1]`): `body`, the
    /// root's `[index]`, then each step from its enclosing node after a
    /// `.` (upstream `childNodePath`).
    pub(super) fn path(&self, at: usize) -> String {
        let mut path = String::from("body");
        for index in self.chain(at) {
            if self.list[index].parent.is_some() {
                path.push('.');
            }
            path.push_str(&self.relative_path(index));
        }
        path
    }

    /// The path of the node at `at` from its enclosing node (`items[1]`),
    /// or from `body` for a root (`[0]`). Asked again of the enclosing
    /// node's primitive, once for all its children: the pass added them in
    /// the order [`Primitive::validated_children`] gives them (child hooks
    /// give the same children for the same node every time), so the
    /// child's place among them picks its path.
    fn relative_path(&self, at: usize) -> String {
        let visit = &self.list[at];
        let Some(parent) = visit.parent else {
            // The body roots are the first visits, in body order.
            return format!("[{at}]");
        };
        let enclosing = &self.list[parent];
        let mut child_paths = self.child_paths.borrow_mut();
        let paths = child_paths.entry(parent).or_insert_with(|| {
            enclosing.primitive.map_or_else(Vec::new, |primitive| {
                primitive
                    .validated_children(enclosing.node)
                    .into_iter()
                    .map(|(child, _)| child.path)
                    .collect()
            })
        });
        let place = at - enclosing.children.start;
        debug_assert!(
            place < paths.len(),
            "a child hook gave fewer children the second time"
        );
        paths.get(place).cloned().unwrap_or_default()
    }

    /// The traversal-order key of the node at `at` (Zod's order): the
    /// `body` key, the root's index, then each step's rank in its
    /// enclosing node's schema.
    fn key(&self, at: usize) -> Vec<u64> {
        let mut key = self.body_key.to_vec();
        for index in self.chain(at) {
            let Some(parent) = self.list[index].parent else {
                // A body root: its index in `body` (the roots are the first
                // visits, in body order).
                key.push(index as u64);
                continue;
            };
            let relative = parse_child_path(&self.relative_path(index));
            match self.list[parent].primitive {
                Some(parent) => key.extend(key_for(parent.schema(), &relative)),
                None => key.extend(relative.iter().map(|seg| match seg {
                    Seg::Index(index) => *index as u64,
                    Seg::Key(_) => 0,
                })),
            }
        }
        key
    }

    /// Duplicate ids: the walked nodes in pre-order (body roots, then
    /// children in hook order, depth first); only string ids count; each
    /// later use is `<nodePath>.id duplicates id "<id>" first used at
    /// <firstPath>`, with the node's `type` as `nodeType`.
    pub(super) fn duplicate_ids(&self) -> Vec<ValidationError> {
        let mut first_use: foldhash::HashMap<&str, usize> = foldhash::HashMap::default();
        let mut errors = Vec::new();
        for &at in &self.order {
            let visit = &self.list[at];
            if !visit.walked {
                continue;
            }
            let Some(id) = crate::composition::node_id(visit.node) else {
                continue;
            };
            match first_use.get(id) {
                Some(&first) => {
                    let mut error = ValidationError::new(
                        format!("{}.id", self.path(at)),
                        format!(
                            "duplicates id {} first used at {}",
                            quote_text(id),
                            self.path(first)
                        ),
                    );
                    if let Some(type_name) = crate::composition::node_type(visit.node) {
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

    /// Empty surfaces: for each surface in list order, a warning when no
    /// body root renders on it. One bottom-up pass over the walked nodes
    /// computes, per node, the set of surfaces it renders on
    /// (`renders_on_surface` for every surface at once): a node renders
    /// where it is visible and either draws itself (no walked children, or
    /// content of its own) or some walked child renders.
    pub(super) fn empty_surfaces(
        &self,
        roots: usize,
        walker: &Inventory,
    ) -> Vec<ValidationWarning> {
        let all: u32 = (1 << SURFACE_NAMES.len()) - 1;
        let mut renders = vec![0u32; self.list.len()];
        for at in (0..self.list.len()).rev() {
            let visit = &self.list[at];
            if !visit.walked {
                continue;
            }
            let visible = visible_surfaces(visit.node);
            if visible == 0 {
                continue;
            }
            let mut walked_children = visit
                .children
                .clone()
                .filter(|&child| self.list[child].walked);
            let drawn = match walked_children.next() {
                None => all,
                Some(_) if walker.has_own_content(visit.node) => all,
                Some(first) => {
                    walked_children.fold(renders[first], |mask, child| mask | renders[child])
                }
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
    pub(super) fn segments(&self, at: usize) -> Vec<Seg> {
        let mut segments = vec![Seg::Key("body".into())];
        for index in self.chain(at) {
            segments.extend(parse_child_path(&self.relative_path(index)));
        }
        segments
    }
}

impl Places for Visits<'_> {
    /// Found once per visit, outermost first (each from its parent's).
    fn place(&self, at: usize) -> Option<&InTree> {
        let tree = self.tree?;
        if let Some(place) = self.list.get(at)?.place.get() {
            return place.as_ref();
        }
        for index in self.chain(at) {
            self.list[index]
                .place
                .get_or_init(|| self.find_place(index, tree));
        }
        self.list[at].place.get()?.as_ref()
    }
}

/// `composition renders no nodes on surface "<surface>"`, upstream's warning.
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
    if !node.is_object() {
        return 0;
    }
    match crate::composition::node_field(node, "surfaces") {
        Some(Value::Array(listed)) => SURFACE_NAMES
            .iter()
            .enumerate()
            .filter(|(_, surface)| listed.iter().any(|s| s.as_str() == Some(surface)))
            .fold(0, |mask, (bit, _)| mask | (1 << bit)),
        _ => (1 << SURFACE_NAMES.len()) - 1,
    }
}
