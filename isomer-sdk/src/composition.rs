//! The composition document: the root object, body nodes, `meta`,
//! and the surface-visibility helpers.
//!
//! A composition stays a `serde_json::Value` (insertion-ordered, as the JSON
//! text has it). [`Composition::from_value`] gives typed, borrowed views of
//! its fields without copying or checking anything; validation is the
//! runtime's job.
//!
//! ```text
//! { "type": "view", "version"?: 1, "title"?, "subtitle"?,
//!   "theme"?: "auto" | "light" | "dark", "body": [node, …], "meta"? }
//! ```

use serde_json::{Map, Value};

use crate::walk::ChildWalker;

/// The root's `type`: always the string `view`.
pub(crate) const VIEW_TYPE: &str = "view";

/// The keys a root may have, in schema order (the order issues are reported
/// in): `type, version, title, subtitle, theme, body, meta`. The root is
/// strict: any other key is an error.
pub(crate) const ROOT_FIELDS: [&str; 7] = [
    "type", "version", "title", "subtitle", "theme", "body", "meta",
];

/// The accepted `theme` values, in declaration order (`RenderTheme`).
pub(crate) const THEMES: [&str; 3] = ["auto", "light", "dark"];

/// A rendering preference (`theme`); not a palette. `auto` resolves to
/// light where no media query exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Theme {
    /// `auto`: follow the host.
    Auto,
    /// `light`.
    Light,
    /// `dark`.
    Dark,
}

impl Theme {
    /// The theme a string names (`"dark"` → `Dark`), or `None`.
    pub fn parse(name: &str) -> Option<Theme> {
        match name {
            "auto" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    /// The wire name: `auto`, `light` or `dark`.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// A borrowed view of a composition's root object.
///
/// Accessors read the field when it has the expected JSON type and answer
/// `None` (or an empty body) otherwise; they never check the rest of the
/// document. Use the runtime's `validate` for that.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Composition<'a> {
    root: &'a Map<String, Value>,
}

impl<'a> Composition<'a> {
    /// A view of `value` when it is a JSON object (any object: its `type` is
    /// not checked, see [`Composition::is_view`]); `None` for arrays, strings
    /// and other non-objects.
    pub fn from_value(value: &'a Value) -> Option<Self> {
        value.as_object().map(|root| Composition { root })
    }

    /// The root object.
    pub fn as_map(&self) -> &'a Map<String, Value> {
        self.root
    }

    /// True when `type` is the string `view`.
    pub fn is_view(&self) -> bool {
        object_field(self.root, "type").and_then(Value::as_str) == Some(VIEW_TYPE)
    }

    /// `title`, when it is a string.
    pub fn title(&self) -> Option<&'a str> {
        object_field(self.root, "title").and_then(Value::as_str)
    }

    /// `subtitle`, when it is a string.
    pub fn subtitle(&self) -> Option<&'a str> {
        object_field(self.root, "subtitle").and_then(Value::as_str)
    }

    /// `theme`, when it is one of `auto`, `light`, `dark`.
    pub fn theme(&self) -> Option<Theme> {
        object_field(self.root, "theme")
            .and_then(Value::as_str)
            .and_then(Theme::parse)
    }

    /// `body`'s nodes, when it is an array; empty otherwise.
    pub fn body(&self) -> &'a [Value] {
        object_field(self.root, "body")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// `meta`, when it is an object.
    pub fn meta(&self) -> Option<Meta<'a>> {
        object_field(self.root, "meta")
            .and_then(Value::as_object)
            .map(|fields| Meta { fields })
    }

    /// The root keys other than `type`, `version`, `title`, `subtitle`,
    /// `theme`, `body` and `meta`, in document order
    /// (what `has unrecognized key(s)` lists at the root).
    pub fn unknown_fields(&self) -> Vec<&'a str> {
        self.root
            .keys()
            .filter(|key| !ROOT_FIELDS.contains(&key.as_str()))
            .map(String::as_str)
            .collect()
    }
}

/// A borrowed view of `meta`: advisory, passed through, never
/// affects rendering. String accessors answer `None` unless the field is a
/// string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Meta<'a> {
    fields: &'a Map<String, Value>,
}

impl<'a> Meta<'a> {
    /// The whole `meta` object.
    pub fn as_map(&self) -> &'a Map<String, Value> {
        self.fields
    }

    /// `source`.
    pub fn source(&self) -> Option<&'a str> {
        self.string("source")
    }

    /// `generatedAt` (conventionally ISO 8601; unchecked).
    pub fn generated_at(&self) -> Option<&'a str> {
        self.string("generatedAt")
    }

    /// `ariaLabel`.
    pub fn aria_label(&self) -> Option<&'a str> {
        self.string("ariaLabel")
    }

    /// `provenance` (`{ source?, query?, provider? }`), when it is an object.
    pub fn provenance(&self) -> Option<&'a Map<String, Value>> {
        object_field(self.fields, "provenance").and_then(Value::as_object)
    }

    /// `freshness` (`{ asOf?, stale?: bool, ttlSeconds?: number }`), when it
    /// is an object.
    pub fn freshness(&self) -> Option<&'a Map<String, Value>> {
        object_field(self.fields, "freshness").and_then(Value::as_object)
    }

    /// `partialFailure` (`{ degraded?: bool, reason? }`), when it is an object.
    pub fn partial_failure(&self) -> Option<&'a Map<String, Value>> {
        object_field(self.fields, "partialFailure").and_then(Value::as_object)
    }

    fn string(&self, key: &str) -> Option<&'a str> {
        object_field(self.fields, key).and_then(Value::as_str)
    }
}

/// A copy of `value` without a top-level `meta` key, when it is an object;
/// anything else is copied unchanged (upstream `withoutMeta`, used for
/// prompt examples). Only the top level loses `meta`; nested `meta` keys
/// stay.
///
/// The copy is made without recursion ([`clone_deep`](crate::json::clone_deep)),
/// so an example of any depth is safe to copy; drop a copy that may be deep
/// with [`drop_deep`](crate::json::drop_deep), as `Value`'s own drop
/// recurses once per level.
pub(crate) fn without_meta(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| key.as_str() != "meta")
                .map(|(key, item)| (key.clone(), crate::json::clone_deep(item)))
                .collect(),
        ),
        other => crate::json::clone_deep(other),
    }
}

/// The `type` of a node, when it is an object with a string `type`.
pub fn node_type(node: &Value) -> Option<&str> {
    node_field(node, "type").and_then(Value::as_str)
}

/// The `id` of a node, when it is an object with a string `id` (only string
/// ids take part in the duplicate-id rule).
pub(crate) fn node_id(node: &Value) -> Option<&str> {
    node_field(node, "id").and_then(Value::as_str)
}

/// `node[key]` when `node` is an object (see [`object_field`]).
pub(crate) fn node_field<'a>(node: &'a Value, key: &str) -> Option<&'a Value> {
    object_field(node.as_object()?, key)
}

/// `fields[key]`. A node or a composition root has a handful of fields, so a
/// small object is scanned in order (`type` and `id` come first in most
/// nodes), which costs less than hashing `key` for the map's index
/// (SipHash); a larger one is looked up by the index.
pub(crate) fn object_field<'a>(fields: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    /// Up to this many fields, a scan does fewer comparisons than a hash.
    const SCANNED: usize = 8;
    if fields.len() > SCANNED {
        return fields.get(key);
    }
    fields
        .iter()
        .find_map(|(name, value)| (name == key).then_some(value))
}

/// Upstream `isVisibleOnSurface(node, surface)`: false for a
/// non-object; true when the node has no `surfaces` array (absent, or not an
/// array, which validation refuses separately) or its `surfaces` contains
/// `surface`.
pub fn is_visible_on_surface(node: &Value, surface: &str) -> bool {
    if !node.is_object() {
        return false;
    }
    match node_field(node, "surfaces") {
        Some(Value::Array(surfaces)) => surfaces.iter().any(|s| s.as_str() == Some(surface)),
        _ => true,
    }
}

/// Upstream `rendersOnSurface(node, surface, walk)`: false
/// when the node is not visible on `surface`; true when it is visible and
/// the walker gives it no children or says it has content of its own;
/// otherwise true exactly when some child renders on `surface`.
///
/// Iterative: children are explored with an explicit stack, so any depth is
/// safe. A child that is one of its own ancestors (a cycle through hooks) is
/// not explored again and counts as not rendering.
pub fn renders_on_surface(node: &Value, surface: &str, walker: &impl ChildWalker) -> bool {
    // Some visible path must end at a node that draws something itself: one
    // without children, or one with content of its own. A node already
    // explored has the same answer the second time, so it is skipped.
    let mut explored: foldhash::HashSet<*const Value> = foldhash::HashSet::default();
    let mut pending = vec![node];
    while let Some(current) = pending.pop() {
        if !is_visible_on_surface(current, surface) || !explored.insert(current as *const Value) {
            continue;
        }
        let children = walker.child_nodes(current);
        if children.is_empty() || walker.has_own_content(current) {
            return true;
        }
        pending.extend(children.into_iter().rev());
    }
    false
}

/// Upstream `someBodyNode(nodes, surface, predicate, walk)`:
/// true when `predicate` holds for some node visible on `surface`, searching
/// `nodes` and, depth first in hook order, the children of every visible
/// node (a hidden node hides its children).
///
/// Iterative; a node reached twice (a cycle through hooks) is tested once.
pub fn some_body_node(
    nodes: &[Value],
    surface: &str,
    walker: &impl ChildWalker,
    mut predicate: impl FnMut(&Value) -> bool,
) -> bool {
    let mut explored: foldhash::HashSet<*const Value> = foldhash::HashSet::default();
    let mut pending: Vec<&Value> = nodes.iter().rev().collect();
    while let Some(current) = pending.pop() {
        if !is_visible_on_surface(current, surface) || !explored.insert(current as *const Value) {
            continue;
        }
        if predicate(current) {
            return true;
        }
        pending.extend(walker.child_nodes(current).into_iter().rev());
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SURFACE_NAMES;
    use crate::walk::ChildRef;
    use serde_json::json;

    /// `grid` holds children in `items`; `card` also draws its own title.
    struct Walker;

    impl ChildWalker for Walker {
        fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
            match node_type(node) {
                Some("grid" | "card") => node
                    .get("items")
                    .and_then(Value::as_array)
                    .map(|items| {
                        items
                            .iter()
                            .enumerate()
                            .map(|(i, child)| ChildRef {
                                node: child,
                                path: format!("items[{i}]"),
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                Some("loop") => vec![ChildRef {
                    node,
                    path: String::from("self"),
                }],
                _ => Vec::new(),
            }
        }

        fn has_own_content(&self, node: &Value) -> bool {
            node_type(node) == Some("card")
        }
    }

    #[test]
    fn borrowed_accessors_read_typed_fields() {
        let value = json!({
            "type": "view", "title": "Checkout", "subtitle": 3, "theme": "dark",
            "body": [{"type": "kpi"}],
            "meta": {"source": "es", "generatedAt": "2026-01-01T00:00:00Z", "ariaLabel": 1,
                     "provenance": {"query": "q"}},
            "extra": true, "more": 1
        });
        let composition = Composition::from_value(&value).unwrap();
        assert!(composition.is_view());
        assert_eq!(composition.title(), Some("Checkout"));
        assert_eq!(composition.subtitle(), None);
        assert_eq!(composition.theme(), Some(Theme::Dark));
        assert_eq!(composition.body(), &[json!({"type": "kpi"})]);
        let meta = composition.meta().unwrap();
        assert_eq!(meta.source(), Some("es"));
        assert_eq!(meta.generated_at(), Some("2026-01-01T00:00:00Z"));
        assert_eq!(meta.aria_label(), None);
        assert_eq!(meta.provenance().unwrap()["query"], "q");
        assert_eq!(meta.freshness(), None);
        assert_eq!(composition.unknown_fields(), ["extra", "more"]);

        let bare = json!({"type": "View", "theme": "sepia", "body": {}});
        let composition = Composition::from_value(&bare).unwrap();
        assert!(!composition.is_view());
        assert_eq!(composition.theme(), None);
        assert!(composition.body().is_empty());
        assert_eq!(composition.meta(), None);
        assert_eq!(Composition::from_value(&json!([1])), None);
        assert_eq!(Theme::parse("auto").map(Theme::as_str), Some("auto"));
    }

    #[test]
    fn without_meta_is_shallow_and_top_level_only() {
        assert_eq!(
            without_meta(&json!({"type":"view","meta":{"a":1},"body":[{"meta":1}]})),
            json!({"type":"view","body":[{"meta":1}]})
        );
        assert_eq!(without_meta(&json!([{"meta": 1}])), json!([{"meta": 1}]));
        assert_eq!(without_meta(&json!("meta")), json!("meta"));
    }

    #[test]
    fn without_meta_copies_a_deep_example_on_a_small_stack() {
        // A host example nested 100,000 levels deep: `Value::clone` would
        // overflow a 256 KiB stack here.
        assert!(crate::small_stack::on_a_small_stack(|| {
            let depth = 100_000;
            let text = format!(
                "{{\"meta\":1,\"body\":{}{}}}",
                "[".repeat(depth),
                "]".repeat(depth)
            );
            let example = crate::json::parse_json(&text).unwrap();
            let copy = without_meta(&example);
            let printed = crate::js::json_stringify(&copy);
            crate::json::drop_deep(copy);
            printed == format!("{{\"body\":{}{}}}", "[".repeat(depth), "]".repeat(depth))
        }));
    }

    #[test]
    fn node_accessors() {
        let node = json!({"type": "kpi", "id": "a", "surfaces": ["text", 1, "slack"]});
        assert_eq!(node_type(&node), Some("kpi"));
        assert_eq!(node_id(&node), Some("a"));
        let bare = json!({"type": 3, "id": 7, "surfaces": "text"});
        assert_eq!(node_type(&bare), None);
        assert_eq!(node_id(&bare), None);
        assert_eq!(node_type(&json!("kpi")), None);
        // Small objects are scanned, larger ones looked up: the field is
        // found wherever it stands, and a missing one is missing.
        for fields in [1, 8, 9, 40] {
            let mut node: serde_json::Map<String, Value> =
                (1..fields).map(|n| (format!("f{n}"), json!(n))).collect();
            assert_eq!(node_type(&Value::Object(node.clone())), None);
            node.insert("type".to_owned(), json!("kpi"));
            assert_eq!(node_type(&Value::Object(node)), Some("kpi"), "{fields}");
        }
        assert_eq!(
            SURFACE_NAMES,
            ["react", "snapshot", "text", "markdown", "slack"]
        );
    }

    #[test]
    fn visibility_follows_the_surfaces_array() {
        assert!(is_visible_on_surface(&json!({"type":"kpi"}), "text"));
        assert!(is_visible_on_surface(
            &json!({"type":"kpi","surfaces":["text"]}),
            "text"
        ));
        assert!(!is_visible_on_surface(
            &json!({"type":"kpi","surfaces":["react"]}),
            "text"
        ));
        assert!(!is_visible_on_surface(
            &json!({"type":"kpi","surfaces":[]}),
            "text"
        ));
        // Not an array: visible everywhere (validation refuses it separately).
        assert!(is_visible_on_surface(
            &json!({"type":"kpi","surfaces":"react"}),
            "text"
        ));
        assert!(!is_visible_on_surface(&json!("kpi"), "text"));
        assert!(!is_visible_on_surface(&json!(null), "text"));
    }

    #[test]
    fn renders_on_surface_needs_a_visible_drawing_descendant() {
        let text_only = json!({"type":"kpi","surfaces":["text"]});
        let react_only = json!({"type":"kpi","surfaces":["react"]});
        assert!(renders_on_surface(&json!({"type":"kpi"}), "slack", &Walker));
        assert!(!renders_on_surface(&react_only, "text", &Walker));
        let grid = json!({"type":"grid","items":[react_only.clone(), text_only.clone()]});
        assert!(renders_on_surface(&grid, "text", &Walker));
        assert!(renders_on_surface(&grid, "react", &Walker));
        assert!(!renders_on_surface(&grid, "slack", &Walker));
        // A container with no children draws nothing but is "rendering".
        assert!(renders_on_surface(
            &json!({"type":"grid","items":[]}),
            "slack",
            &Walker
        ));
        // Own content counts even when every child is hidden.
        let card = json!({"type":"card","items":[react_only.clone()]});
        assert!(renders_on_surface(&card, "text", &Walker));
        // A hidden container hides its children.
        let hidden = json!({"type":"grid","surfaces":["react"],"items":[text_only]});
        assert!(!renders_on_surface(&hidden, "text", &Walker));
        // A node that is its own child ends.
        assert!(!renders_on_surface(
            &json!({"type":"loop"}),
            "text",
            &Walker
        ));
    }

    #[test]
    fn some_body_node_searches_visible_nodes_in_order() {
        let body = json!([
            {"type": "kpi", "surfaces": ["react"], "n": 1},
            {"type": "grid", "items": [{"type": "kpi", "n": 2}, {"type": "kpi", "n": 3}]},
            {"type": "grid", "surfaces": ["react"], "items": [{"type": "kpi", "n": 4}]}
        ]);
        let body = body.as_array().unwrap();
        let mut seen = Vec::new();
        let found = some_body_node(body, "text", &Walker, |node| {
            seen.push(node["n"].as_i64().unwrap_or(0));
            false
        });
        assert!(!found);
        // n 1 and the react-only grid (with n 4) are hidden from text.
        assert_eq!(seen, [0, 2, 3]);
        assert!(some_body_node(body, "react", &Walker, |node| node["n"] == 4));
        assert!(!some_body_node(body, "text", &Walker, |node| node["n"] == 4));
        let looped = [json!({"type": "loop"})];
        assert!(!some_body_node(&looped, "text", &Walker, |_| false));
    }

    #[test]
    fn renders_on_surface_is_iterative() {
        let mut node = json!({"type":"kpi","surfaces":["react"]});
        for _ in 0..50_000 {
            node = Value::Object(Map::from_iter([
                (String::from("type"), json!("grid")),
                (String::from("items"), Value::Array(vec![node])),
            ]));
        }
        assert!(!renders_on_surface(&node, "text", &Walker));
        assert!(renders_on_surface(&node, "react", &Walker));
        crate::json::drop_deep(node);
    }
}
