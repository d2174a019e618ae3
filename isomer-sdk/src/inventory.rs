//! The runtime's inventory: every primitive of every pack, flattened in pack
//! order, looked up by type. It is the dispatcher's table and the
//! [`ChildWalker`] over all child hooks.

use serde_json::Value;

use crate::primitive::Primitive;
use crate::walk::{ChildRef, ChildWalker};

/// The flattened primitives of a runtime.
pub(crate) struct Inventory {
    primitives: Vec<Primitive>,
    /// Every node lookup hashes its `type`: a fast hasher (an input's
    /// `type` can only pick a bucket, not grow the table).
    index: foldhash::HashMap<String, usize>,
    /// The schema finding's message for a node whose `type` is missing or
    /// not registered: `must be one of: ` and every registered type through
    /// `nameText`, in registration order. Made once: a runtime checks many
    /// answers that misspell a type.
    unknown_type_message: String,
}

impl Inventory {
    /// Indexes `primitives` (types already checked unique).
    pub fn new(primitives: Vec<Primitive>) -> Self {
        let index = primitives
            .iter()
            .enumerate()
            .map(|(position, primitive)| (primitive.type_name().to_owned(), position))
            .collect();
        let registered: Vec<String> = primitives
            .iter()
            .map(|primitive| crate::js::name_text(primitive.type_name()))
            .collect();
        let unknown_type_message = format!("must be one of: {}", registered.join(", "));
        Inventory {
            primitives,
            index,
            unknown_type_message,
        }
    }

    /// Every primitive, registration order.
    pub fn primitives(&self) -> &[Primitive] {
        &self.primitives
    }

    /// The primitive of `type_name`.
    pub fn get(&self, type_name: &str) -> Option<&Primitive> {
        self.index
            .get(type_name)
            .map(|&position| &self.primitives[position])
    }

    /// The primitive of an object node with a registered string `type`.
    pub fn for_node(&self, node: &Value) -> Option<&Primitive> {
        crate::composition::node_type(node).and_then(|t| self.get(t))
    }

    /// The message of the finding at `<node>.type` when the node's `type`
    /// is missing or not registered (`must be one of: a, b`).
    pub fn unknown_type_message(&self) -> &str {
        &self.unknown_type_message
    }

    /// Every registered type, registration order.
    pub fn types(&self) -> impl Iterator<Item = &str> {
        self.primitives.iter().map(Primitive::type_name)
    }
}

impl ChildWalker for Inventory {
    fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        match self.for_node(node) {
            Some(primitive) => primitive.children(node),
            None => Vec::new(),
        }
    }

    fn child_nodes<'a>(&self, node: &'a Value) -> Vec<&'a Value> {
        match self.for_node(node) {
            Some(primitive) => primitive.child_nodes(node),
            None => Vec::new(),
        }
    }

    fn has_own_content(&self, node: &Value) -> bool {
        self.for_node(node)
            .is_some_and(|primitive| primitive.has_own_content(node))
    }
}
