//! What a refinement sees: [`RefineContext`].

use serde_json::Value;

use crate::walk::{ChildRef, ChildWalker};

/// What a refinement sees besides the typed node: the raw node, its
/// children and descendants through the runtime's walker (any pack), and a
/// place to report findings.
pub struct RefineContext<'a> {
    node: &'a Value,
    walker: &'a dyn ChildWalker,
    findings: Vec<(String, String)>,
}

impl<'a> RefineContext<'a> {
    pub(crate) fn new(node: &'a Value, walker: &'a dyn ChildWalker) -> Self {
        RefineContext {
            node,
            walker,
            findings: Vec::new(),
        }
    }

    pub(crate) fn into_findings(self) -> Vec<(String, String)> {
        self.findings
    }

    /// The node as authored (the checked copy).
    pub fn node(&self) -> &'a Value {
        self.node
    }

    /// Reports a finding at `path`, relative to the node: `""` for the node
    /// itself, `"label"`, `"items[1].href"`. The runtime prints it at
    /// `<node path>.<path>` with this node's type.
    pub fn error(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.findings.push((path.into(), message.into()));
    }

    /// The node's direct children (through the runtime's walker), paths
    /// relative to the node.
    pub fn children(&self) -> Vec<ChildRef<'a>> {
        self.walker.children(self.node)
    }

    /// Every node below this one, pre-order (a child, then its subtree, in
    /// hook order), paths relative to this node (`items[0].items[1]`).
    /// Iterative.
    pub fn descendants(&self) -> Vec<ChildRef<'a>> {
        let mut out = Vec::new();
        let mut stack: Vec<ChildRef<'a>> = self.walker.children(self.node);
        stack.reverse();
        while let Some(child) = stack.pop() {
            let mut grandchildren = self.walker.children(child.node);
            for grandchild in grandchildren.iter_mut().rev() {
                let path = crate::walk::child_node_path(&child.path, &grandchild.path);
                stack.push(ChildRef {
                    node: grandchild.node,
                    path,
                });
            }
            out.push(child);
        }
        out
    }

    /// The walker of the runtime, for walks of one's own.
    pub fn walker(&self) -> &'a dyn ChildWalker {
        self.walker
    }
}
