//! The child hook derived from a schema: every place the schema types as a
//! body node (`{"$ref": "#/$defs/bodyNode"}`, what [`Node`](crate::Node)
//! derives) is a child slot.
//!
//! The slots form a trie of steps (`field`, `[index]`) built once per
//! primitive; walking a node follows the trie in schema key order and array
//! index order, which is the order containers render children. Recursive
//! data types are followed one level (a def is not re-entered while it is
//! being expanded); declare an explicit hook for recursive slots.

use serde_json::{Map, Value};

use crate::node::BODY_NODE_REF;
use crate::walk::ChildRef;

/// One step from a value to a nested value.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    Index,
}

/// The child slots of one primitive, as a trie of steps.
#[derive(Debug, Clone, Default)]
pub(crate) struct SlotTrie {
    /// The value reached here is a child node.
    slot: bool,
    steps: Vec<(Step, SlotTrie)>,
}

impl SlotTrie {
    /// The slots of `member` (a node schema whose refs point into `defs`).
    pub fn from_schema(member: &Value, defs: &Map<String, Value>) -> SlotTrie {
        let mut trie = SlotTrie::default();
        let mut expanding = Vec::new();
        build(member, defs, &mut trie, &mut expanding, true);
        trie.prune();
        trie
    }

    /// True when the primitive has no child slot.
    pub fn is_empty(&self) -> bool {
        !self.slot && self.steps.is_empty()
    }

    /// The child nodes of `node` (objects only), in slot order.
    pub fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        let mut out = Vec::new();
        if !self.is_empty() {
            self.collect(node, &mut String::new(), 0, &mut |child, path: &String| {
                out.push(ChildRef {
                    node: child,
                    path: path.clone(),
                })
            });
        }
        out
    }

    /// The child nodes of [`SlotTrie::children`], in the same order,
    /// without their paths.
    pub(crate) fn child_nodes<'a>(&self, node: &'a Value) -> Vec<&'a Value> {
        let mut out = Vec::new();
        if !self.is_empty() {
            self.collect(node, &mut NoPath, 0, &mut |child, _: &NoPath| {
                out.push(child)
            });
        }
        out
    }

    /// Calls `found` for every child under `value`, with its path:
    /// `path` holds the path so far (restored on return, no allocation per
    /// step) and `depth` the steps taken from the node.
    fn collect<'a, P: SlotPath>(
        &self,
        value: &'a Value,
        path: &mut P,
        depth: usize,
        found: &mut impl FnMut(&'a Value, &P),
    ) {
        if self.slot && depth > 0 {
            if value.is_object() {
                found(value, path);
            }
            return;
        }
        for (step, next) in &self.steps {
            match (step, value) {
                (Step::Key(key), Value::Object(_)) => {
                    if let Some(child) = crate::composition::node_field(value, key) {
                        let mark = path.mark();
                        path.push_key(key);
                        next.collect(child, path, depth + 1, found);
                        path.reset(mark);
                    }
                }
                (Step::Index, Value::Array(items)) => {
                    let mark = path.mark();
                    for (index, child) in items.iter().enumerate() {
                        path.push_index(index);
                        next.collect(child, path, depth + 1, found);
                        path.reset(mark);
                    }
                }
                _ => {}
            }
        }
    }

    fn step(&mut self, step: Step) -> &mut SlotTrie {
        let position = match self.steps.iter().position(|(s, _)| *s == step) {
            Some(position) => position,
            None => {
                self.steps.push((step, SlotTrie::default()));
                self.steps.len() - 1
            }
        };
        &mut self.steps[position].1
    }

    /// Drops branches that lead to no slot; true when this one leads to one.
    fn prune(&mut self) -> bool {
        self.steps.retain_mut(|(_, next)| next.prune());
        self.slot || !self.steps.is_empty()
    }
}

/// The path [`SlotTrie::collect`] keeps of the value it is at, relative
/// to the node (`items[0].body`): a string, or nothing when only the nodes
/// are wanted.
trait SlotPath {
    /// Where the path ends now, for [`SlotPath::reset`].
    fn mark(&self) -> usize;
    /// Appends `.key` (`key` first).
    fn push_key(&mut self, key: &str);
    /// Appends `[index]`.
    fn push_index(&mut self, index: usize);
    /// Cuts the path back to `mark`.
    fn reset(&mut self, mark: usize);
}

impl SlotPath for String {
    fn mark(&self) -> usize {
        self.len()
    }

    fn push_key(&mut self, key: &str) {
        if !self.is_empty() {
            self.push('.');
        }
        self.push_str(key);
    }

    fn push_index(&mut self, index: usize) {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = index;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        self.push('[');
        for &digit in &digits[at..] {
            self.push(char::from(digit));
        }
        self.push(']');
    }

    fn reset(&mut self, mark: usize) {
        self.truncate(mark);
    }
}

/// No path: what [`SlotTrie::child_nodes`] walks with.
struct NoPath;

impl SlotPath for NoPath {
    fn mark(&self) -> usize {
        0
    }

    fn push_key(&mut self, _key: &str) {}

    fn push_index(&mut self, _index: usize) {}

    fn reset(&mut self, _mark: usize) {}
}

/// Adds the slots of `schema` under `trie`. Recursion is bounded by the
/// schema's size: a def is never entered twice on one branch.
fn build(
    schema: &Value,
    defs: &Map<String, Value>,
    trie: &mut SlotTrie,
    expanding: &mut Vec<String>,
    is_node_root: bool,
) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        if reference == BODY_NODE_REF {
            if !is_node_root {
                trie.slot = true;
            }
        } else if let Some(name) = crate::schema::def_name_of(reference)
            && let Some(def) = defs.get(&name)
            && !expanding.contains(&name)
        {
            expanding.push(name);
            build(def, defs, trie, expanding, false);
            expanding.pop();
        }
    }
    if let Some(Value::Object(properties)) = map.get("properties") {
        for (key, property) in properties {
            if is_node_root && key == "type" {
                continue;
            }
            let next = trie.step(Step::Key(key.clone()));
            build(property, defs, next, expanding, false);
        }
    }
    if let Some(items) = map.get("items") {
        let next = trie.step(Step::Index);
        build(items, defs, next, expanding, false);
    }
    if let Some(Value::Array(items)) = map.get("prefixItems") {
        for item in items {
            let next = trie.step(Step::Index);
            build(item, defs, next, expanding, false);
        }
    }
    for union in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(options)) = map.get(union) {
            for option in options {
                build(option, defs, trie, expanding, false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn trie(member: Value, defs: Value) -> SlotTrie {
        let Value::Object(defs) = defs else {
            panic!("defs is an object")
        };
        SlotTrie::from_schema(&member, &defs)
    }

    #[test]
    fn slots_follow_schema_order_through_defs_and_options() {
        let slots = trie(
            json!({ "properties": {
                "type": { "const": "x" },
                "panes": { "type": "array", "items": { "$ref": "#/$defs/Pane" } },
                "aside": { "$ref": "#/$defs/bodyNode" },
                "label": { "type": "string" }
            } }),
            json!({ "Pane": { "properties": {
                "header": { "anyOf": [ { "$ref": "#/$defs/bodyNode" }, { "type": "string" } ] },
                "items": { "items": { "$ref": "#/$defs/bodyNode" } }
            } } }),
        );
        let node = json!({
            "type": "x",
            "aside": { "type": "a" },
            "panes": [
                { "items": [ { "type": "b" }, 5, { "type": "c" } ], "header": { "type": "h" } },
                { "header": "text", "items": [] }
            ]
        });
        let paths: Vec<String> = slots.children(&node).into_iter().map(|c| c.path).collect();
        assert_eq!(
            paths,
            vec![
                "panes[0].header",
                "panes[0].items[0]",
                "panes[0].items[2]",
                "aside"
            ]
        );
    }

    #[test]
    fn recursive_defs_are_followed_once_and_mismatched_shapes_yield_nothing() {
        let slots = trie(
            json!({ "properties": { "tree": { "$ref": "#/$defs/Tree" } } }),
            json!({ "Tree": { "properties": {
                "node": { "$ref": "#/$defs/bodyNode" },
                "children": { "items": { "$ref": "#/$defs/Tree" } }
            } } }),
        );
        let node = json!({ "tree": { "node": { "type": "a" }, "children": [ { "node": { "type": "b" } } ] } });
        let paths: Vec<String> = slots.children(&node).into_iter().map(|c| c.path).collect();
        assert_eq!(paths, vec!["tree.node"]);
        assert_eq!(slots.child_nodes(&node), [&json!({ "type": "a" })]);
        assert!(slots.children(&json!({ "tree": [1, 2] })).is_empty());
        assert!(slots.children(&json!("x")).is_empty());
        assert!(
            trie(
                json!({ "properties": { "a": { "type": "string" } } }),
                json!({})
            )
            .is_empty()
        );
    }
}
