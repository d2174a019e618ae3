//! The nodes of an answer's tree, as every tree-reading axis reaches them:
//! the `body` elements, then whatever the child hooks return, iteratively.

use isomer_sdk::{ChildWalker, Composition};
use serde_json::Value;

/// The `body` array of a composition-shaped value; an empty slice when the
/// value is not an object or its `body` is missing or not an array.
pub(crate) fn body_of(value: &Value) -> &[Value] {
    Composition::from_value(value).map_or(&[], |composition| composition.body())
}

/// Calls `visit` with the `type` of every node of the tree rooted at `roots`
/// (the body), each node once.
///
/// A node is an object with a string `type` that is a body element or a
/// child a hook returned, so a data field named `type` (a chart series'
/// `{ "type": "bar" }`) is never a node, and the composition's own `view`
/// is not visited. The walk uses an explicit stack (a 10,000-deep tree does
/// not touch the call stack) and a visited set by identity (a hook that
/// returns a node again, or the node itself, does not loop). A container
/// too malformed for its hook yields no children (the walker's contract),
/// so only that branch goes unread. Order: last root first, depth first;
/// callers count or collect, so order does not matter.
pub(crate) fn for_each_node_type<'a>(
    walker: &dyn ChildWalker,
    roots: &'a [Value],
    mut visit: impl FnMut(&'a str),
) {
    // Node addresses: a fast hasher, not SipHash (an address is no attacker's key).
    // Room for an answer's worth of nodes before the first growth.
    let mut visited: foldhash::HashSet<*const Value> =
        foldhash::HashSet::with_capacity_and_hasher(32, Default::default());
    let mut stack: Vec<&'a Value> = Vec::with_capacity(roots.len().max(16));
    stack.extend(roots);
    while let Some(node) = stack.pop() {
        if !node.is_object() || !visited.insert(std::ptr::from_ref(node)) {
            continue;
        }
        if let Some(type_name) = isomer_sdk::composition::node_type(node) {
            visit(type_name);
        }
        stack.extend(walker.child_nodes(node));
    }
}

/// The node types of one tree, counted with repeats (what the selection
/// and expected-primitive axes read): made by one [`for_each_node_type`]
/// walk, so a run that scores both axes walks the composition once.
pub(crate) struct NodeTypes<'a> {
    /// Each type's number of nodes.
    pub counts: foldhash::HashMap<&'a str, usize>,
    /// The number of nodes.
    pub total: usize,
}

impl<'a> NodeTypes<'a> {
    /// The node types of the tree under `composition`'s `body`.
    pub(crate) fn of(walker: &dyn ChildWalker, composition: &'a Value) -> Self {
        // A handful of catalog types per answer: a fast hasher, not SipHash.
        let mut counts: foldhash::HashMap<&'a str, usize> = foldhash::HashMap::default();
        let mut total = 0;
        for_each_node_type(walker, body_of(composition), |type_name| {
            *counts.entry(type_name).or_default() += 1;
            total += 1;
        });
        NodeTypes { counts, total }
    }

    /// How many nodes are of `type_name`.
    pub(crate) fn count(&self, type_name: &str) -> usize {
        self.counts.get(type_name).copied().unwrap_or(0)
    }
}
