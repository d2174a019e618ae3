//! Cross-field rules: findings a primitive's JSON Schema cannot express
//! (upstream Zod refinements), and the rule every child slot shares,
//! "frames never nest".

use isomer_sdk::node::Node;

/// One refinement finding, with its path relative to the node
/// (`hrefs`, `panes[0].tone`, `` for the node itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Where the finding is, relative to the node: dotted / bracketed steps
    /// (`sections[2].current`), empty for the node itself.
    pub path: String,
    /// The upstream message, e.g. `at most one section can be current`.
    pub message: String,
}

impl Issue {
    /// A finding at `path` (relative to the node) with `message`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Issue {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// The message for a `slideFrame` placed in a child slot.
pub const FRAMES_NEVER_NEST: &str =
    "a slideFrame cannot sit inside another node; frames never nest";

/// The `slideFrame` type string.
pub const SLIDE_FRAME: &str = "slideFrame";

/// One finding per `slideFrame` among `nodes`, at `<slot>[i]`: every child
/// slot of the pack refuses a nested frame.
pub fn nested_frames(slot: &str, nodes: &[Node]) -> Vec<Issue> {
    nodes
        .iter()
        .enumerate()
        .filter(|(_, node)| node.type_name() == Some(SLIDE_FRAME))
        .map(|(index, _)| Issue::new(format!("{slot}[{index}]"), FRAMES_NEVER_NEST))
        .collect()
}

/// The finding for a one-node slot (`aside`) holding a `slideFrame`.
pub fn nested_frame(slot: &str, node: &Node) -> Option<Issue> {
    (node.type_name() == Some(SLIDE_FRAME)).then(|| Issue::new(slot, FRAMES_NEVER_NEST))
}

/// The finding at `path` when more than one of `flags` is `Some(true)`
/// (at most one current section, moment or column; at most one
/// highlighted bar), with `message`; no finding otherwise.
pub fn at_most_one<I>(path: &str, flags: I, message: &str) -> Vec<Issue>
where
    I: IntoIterator<Item = Option<bool>>,
{
    let set = flags.into_iter().filter(|flag| *flag == Some(true)).count();
    if set > 1 {
        vec![Issue::new(path, message)]
    } else {
        Vec::new()
    }
}

/// Joins a relative path onto a prefix: `panes[0]` + `tone` is
/// `panes[0].tone`; an empty prefix or step yields the other.
pub fn join_path(prefix: &str, step: &str) -> String {
    match (prefix.is_empty(), step.is_empty()) {
        (true, _) => step.to_owned(),
        (_, true) => prefix.to_owned(),
        _ if step.starts_with('[') => format!("{prefix}{step}"),
        _ => format!("{prefix}.{step}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_every_nested_frame() {
        let nodes = vec![
            Node::new(json!({"type": "slideHeading", "title": "a"})),
            Node::new(json!({"type": "slideFrame", "body": []})),
        ];
        assert_eq!(
            nested_frames("items", &nodes),
            vec![Issue::new("items[1]", FRAMES_NEVER_NEST)]
        );
    }

    #[test]
    fn joins_paths() {
        assert_eq!(join_path("panes[0]", "tone"), "panes[0].tone");
        assert_eq!(join_path("", "tone"), "tone");
        assert_eq!(join_path("rows", "[2]"), "rows[2]");
    }
}
