//! Reaching child nodes through containers' child hooks.
//!
//! A container primitive declares which of its fields hold child nodes. The
//! walker turns a node into its children, each with its path *relative to the
//! parent* (`items[0]`, `panes[1].items[0]`, `aside`); the walk
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

    /// The nodes of [`children`](Self::children), in the same order,
    /// without their paths: for walks that never print a path (counting node
    /// types, looking for visible content). The default takes them from
    /// `children`; the runtime's walker reads schema slots without allocating
    /// a path for each child.
    fn child_nodes<'a>(&self, node: &'a Value) -> Vec<&'a Value> {
        self.children(node)
            .into_iter()
            .map(|child| child.node)
            .collect()
    }

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

    fn child_nodes<'a>(&self, node: &'a Value) -> Vec<&'a Value> {
        (**self).child_nodes(node)
    }

    fn has_own_content(&self, node: &Value) -> bool {
        (**self).has_own_content(node)
    }
}

/// The full path of a child: `<parent>.<child>` (upstream `childNodePath`).
///
/// `child_node_path("body[1]", "items[0]")` = `"body[1].items[0]"`. An empty
/// parent gives the child path alone.
pub(crate) fn child_node_path(parent: &str, child: &str) -> String {
    if parent.is_empty() {
        return child.to_owned();
    }
    let mut path = String::with_capacity(parent.len() + 1 + child.len());
    path.push_str(parent);
    path.push('.');
    path.push_str(child);
    path
}

/// The path of the body root at `index`: `body[<index>]`.
pub fn body_root_path(index: usize) -> String {
    format!("body[{index}]")
}

/// One node reached by [`walk_body`].
#[derive(Debug, Clone, PartialEq)]
pub struct WalkedNode<'a> {
    /// The node's full path: `body[1]`, `body[1].items[0]`.
    pub path: String,
    /// The node.
    pub node: &'a Value,
    /// How many containers enclose it: 0 for a body root, 1 for its child.
    pub depth: usize,
}

/// An iterative pre-order walk over a composition body (see [`walk_body`]).
pub struct BodyWalk<'a, W> {
    walker: W,
    stack: Vec<WalkedNode<'a>>,
    /// Pointers of the nodes on the path from the root to the node last
    /// yielded, with their depths.
    ancestors: Vec<*const Value>,
    cycle: Option<String>,
}

/// Walks `body` pre-order: each body root (`body[0]`, `body[1]`, …), and
/// before moving on to the next root, its children through `walker` in hook
/// order, depth first. Yields every node with its full path.
///
/// Iterative (an explicit stack), so any nesting depth is safe. Values that
/// are not objects are yielded too when they sit in the body (a hook decides
/// what its children are; the walker answers "no children" for them). A
/// hook that fails on a malformed node yields no children (the walker's
/// contract). A hook that returns one of the node's own ancestors (a cycle
/// through hooks) is not followed: that child is skipped and its path is
/// kept in [`BodyWalk::cycle_path`], so the walk always ends.
pub fn walk_body<'a, W: ChildWalker>(body: &'a [Value], walker: W) -> BodyWalk<'a, W> {
    let stack = body
        .iter()
        .enumerate()
        .rev()
        .map(|(index, node)| WalkedNode {
            path: body_root_path(index),
            node,
            depth: 0,
        })
        .collect();
    BodyWalk {
        walker,
        stack,
        ancestors: Vec::new(),
        cycle: None,
    }
}

impl<'a, W> BodyWalk<'a, W> {
    /// The path of the first child that was skipped because a hook returned
    /// one of its own ancestors, if any (upstream throws
    /// `CYCLIC_COMPOSITION` for such a tree).
    pub fn cycle_path(&self) -> Option<&str> {
        self.cycle.as_deref()
    }
}

impl<'a, W: ChildWalker> Iterator for BodyWalk<'a, W> {
    type Item = WalkedNode<'a>;

    fn next(&mut self) -> Option<WalkedNode<'a>> {
        let current = self.stack.pop()?;
        self.ancestors.truncate(current.depth);
        self.ancestors.push(current.node as *const Value);
        let children = self.walker.children(current.node);
        for child in children.into_iter().rev() {
            let pointer = child.node as *const Value;
            let path = child_node_path(&current.path, &child.path);
            if self.ancestors.contains(&pointer) {
                self.cycle.get_or_insert(path);
                continue;
            }
            self.stack.push(WalkedNode {
                path,
                node: child.node,
                depth: current.depth + 1,
            });
        }
        Some(current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Children in `items`, plus `aside` for a `split`; a `bad` node's hook
    /// "fails" (yields nothing); `loop` returns itself.
    struct Walker;

    impl ChildWalker for Walker {
        fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
            let Some(kind) = node.get("type").and_then(Value::as_str) else {
                return Vec::new();
            };
            let mut refs = Vec::new();
            match kind {
                "grid" | "split" => {
                    if let Some(items) = node.get("items").and_then(Value::as_array) {
                        for (i, child) in items.iter().enumerate() {
                            refs.push(ChildRef {
                                node: child,
                                path: format!("items[{i}]"),
                            });
                        }
                    }
                    if let Some(aside) = node.get("aside") {
                        refs.push(ChildRef {
                            node: aside,
                            path: String::from("aside"),
                        });
                    }
                }
                "loop" => refs.push(ChildRef {
                    node,
                    path: String::from("again"),
                }),
                _ => {}
            }
            refs
        }
    }

    #[test]
    fn joins_paths() {
        assert_eq!(child_node_path("body[1]", "items[0]"), "body[1].items[0]");
        assert_eq!(
            child_node_path("body[1].items[0]", "panes[1].items[0]"),
            "body[1].items[0].panes[1].items[0]"
        );
        assert_eq!(child_node_path("", "items[0]"), "items[0]");
        assert_eq!(body_root_path(3), "body[3]");
    }

    #[test]
    fn walks_pre_order_with_full_paths() {
        let body = json!([
            {"type": "kpi"},
            {"type": "split", "items": [{"type": "grid", "items": [{"type": "kpi"}]}, 5], "aside": {"type": "note"}},
            {"type": "kpi"}
        ]);
        let walked: Vec<(String, usize)> = walk_body(body.as_array().unwrap(), Walker)
            .map(|step| (step.path, step.depth))
            .collect();
        let expected = [
            ("body[0]", 0),
            ("body[1]", 0),
            ("body[1].items[0]", 1),
            ("body[1].items[0].items[0]", 2),
            ("body[1].items[1]", 1),
            ("body[1].aside", 1),
            ("body[2]", 0),
        ];
        assert_eq!(
            walked,
            expected.map(|(path, depth)| (path.to_owned(), depth))
        );
    }

    #[test]
    fn a_malformed_container_yields_no_children() {
        let body = json!([{"type": "grid", "items": "oops"}, {"type": "grid"}]);
        let paths: Vec<String> = walk_body(body.as_array().unwrap(), &Walker)
            .map(|step| step.path)
            .collect();
        assert_eq!(paths, ["body[0]", "body[1]"]);
    }

    #[test]
    fn a_cycle_through_hooks_ends_and_is_reported() {
        let body = json!([{"type": "grid", "items": [{"type": "loop"}]}]);
        let mut walk = walk_body(body.as_array().unwrap(), Walker);
        let paths: Vec<String> = walk.by_ref().map(|step| step.path).collect();
        assert_eq!(paths, ["body[0]", "body[0].items[0]"]);
        assert_eq!(walk.cycle_path(), Some("body[0].items[0].again"));
    }

    #[test]
    fn deep_trees_walk_iteratively() {
        let mut node = json!({"type": "kpi"});
        for _ in 0..20_000 {
            node = Value::Object(serde_json::Map::from_iter([
                (String::from("type"), json!("grid")),
                (String::from("items"), Value::Array(vec![node])),
            ]));
        }
        let body = vec![node];
        let walk = walk_body(&body, Walker);
        let last = walk.last().unwrap();
        assert_eq!(last.depth, 20_000);
        assert!(last.path.ends_with(".items[0].items[0]"));
        crate::json::drop_deep(Value::Array(body));
    }
}
