//! Reaching child nodes through containers' child hooks (sdk.md §1.4).
//!
//! A container primitive declares which of its fields hold child nodes. The
//! walker turns a node into its children, each with its path *relative to the
//! parent* (`items[0]`, `panes[1].items[0]`, `aside`); [`child_node_path`]
//! joins that onto the parent's full path (`body[1]` + `items[0]` =
//! `body[1].items[0]`).
//!
//! Walks over a composition are iterative (an explicit stack), so a
//! 10,000-deep tree never overflows the stack, and a hook that meets a
//! malformed container yields no children rather than failing.

use serde_json::Value;

/// One child node of a container, as a child hook returns it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildRef<'a> {
    /// The nested body node.
    pub node: &'a Value,
    /// The field path of the child relative to its parent: dotted steps, each
    /// `field` or `field[index]` (`items[0]`, `items[2].node`, `header`).
    pub path: String,
}

/// What reaches children: implemented by the runtime over every registered
/// primitive's child hook, and by test stubs.
///
/// Contract (upstream `createChildNodeWalker`): for a value that is an object
/// with a string `type` whose primitive has a child hook, return that hook's
/// refs in rendering order; for anything else (a leaf, an unknown type, a
/// primitive without children, a container too malformed for its hook)
/// return an empty list. Never panics.
pub trait ChildWalker {
    /// The children of `node`, in the order its renderer draws them.
    fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>>;

    /// True when a container also renders content of its own besides its
    /// children (upstream `hasOwnContent`); false unless the primitive says so.
    fn has_own_content(&self, node: &Value) -> bool {
        let _ = node;
        false
    }
}

impl<W: ChildWalker + ?Sized> ChildWalker for &W {
    fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        (**self).children(node)
    }

    fn has_own_content(&self, node: &Value) -> bool {
        (**self).has_own_content(node)
    }
}
