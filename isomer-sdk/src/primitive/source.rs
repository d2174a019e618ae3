//! [`NodeSource`]: the deserializer a node's typed form is read from.
//!
//! It reads a checked node as `serde_json`'s `&Value` deserializer does and
//! hands every request to that deserializer, with one difference: structs,
//! sequences and options are read through `NodeSource` again, so that each
//! [`Node`](crate::Node) reached through them is made whole, instead of by
//! `serde` rebuilding it entry by entry (every key hashed into a new map,
//! every value through a visitor call): a node sharing the child with its
//! document when the source reads a node of one (a check of a
//! [`Document`](crate::Document)), else a clone of the child. The node holds
//! the same value either way.
//!
//! Sharing is safe code: the source knows where it is, as the steps (array
//! index, or object entry index) from the checked node it started at, and
//! the node is projected from that checked node's place in the document
//! (`yoke`'s `map_project_cloned`, which lets the projection return only a
//! borrow of the value it is given) along those steps. A source more than
//! [`MAX_STEPS`] steps below its checked node makes copies.
//!
//! `Node`'s `Deserialize` asks for a newtype struct with a private name
//! (the kind of hand-over `serde_json` uses for its `RawValue`);
//! `NodeSource` answers it by lending the node it made (see `with_lent`).
//! A child reached another way (inside a map, a tuple, an enum, another
//! newtype struct, a `#[serde(flatten)]` struct or anything read through
//! `deserialize_any`, all of which `NodeSource` hands to `serde_json`
//! whole) is rebuilt as before: the hand-over changes how fast a typed form
//! is made, never what it holds.

use serde::de::value::{BorrowedStrDeserializer, MapDeserializer, SeqDeserializer};
use serde::de::{self, IntoDeserializer, Visitor};
use serde_json::{Map, Value};

use crate::node::{InTree, NODE_TOKEN, Node, with_lent};

/// How many steps below its checked node a source still shares the nodes
/// it makes (a typed form's nodes sit one to three steps down: `items[0]`,
/// `panes[1].items[0]`); deeper ones are copies.
pub(crate) const MAX_STEPS: usize = 8;

/// Where checked nodes sit in their document: the pass's visits.
pub(crate) trait Places {
    /// The checked node `at`, borrowed from its document together with the
    /// document's tree; `None` when it is not in the document (a child hook
    /// may return a value from elsewhere) or the pass read no document.
    fn place(&self, at: usize) -> Option<&InTree>;
}

/// Where a source is: below the checked node `at` of `places`, by `steps`.
#[derive(Clone, Copy)]
struct Place<'de> {
    places: &'de dyn Places,
    at: usize,
    steps: Steps,
}

/// The steps from a checked node to a value inside it: at each level the
/// array index, or the object's entry index (in document order).
#[derive(Clone, Copy, Default)]
struct Steps {
    len: u8,
    at: [u32; MAX_STEPS],
}

impl Steps {
    /// These steps and one more; `None` past [`MAX_STEPS`].
    fn then(mut self, index: usize) -> Option<Steps> {
        let slot = self.at.get_mut(usize::from(self.len))?;
        *slot = u32::try_from(index).ok()?;
        self.len += 1;
        Some(self)
    }

    /// The value these steps lead to from `value`, if they lead anywhere.
    fn follow<'a>(&self, mut value: &'a Value) -> Option<&'a Value> {
        for &index in &self.at[..usize::from(self.len)] {
            let index = index as usize;
            value = match value {
                Value::Array(items) => items.get(index)?,
                Value::Object(map) => map.values().nth(index)?,
                _ => return None,
            };
        }
        Some(value)
    }
}

/// A checked node (or a part of one), read as `serde_json` reads a
/// `&Value`, with [`Node`]s made whole (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct NodeSource<'de> {
    value: &'de Value,
    /// Where `value` is in its document, when the source reads one.
    place: Option<Place<'de>>,
}

impl<'de> NodeSource<'de> {
    /// Reads `value`; its nodes are clones of its children.
    pub(crate) fn new(value: &'de Value) -> Self {
        NodeSource { value, place: None }
    }

    /// Reads `value`, the checked node `at` of `places`; its nodes share
    /// their values with its document when it is in one.
    pub(crate) fn placed(value: &'de Value, places: &'de dyn Places, at: usize) -> Self {
        NodeSource {
            value,
            place: Some(Place {
                places,
                at,
                steps: Steps::default(),
            }),
        }
    }

    /// The value read.
    pub(crate) fn value(self) -> &'de Value {
        self.value
    }

    /// `child`, the value at `index` in this source's array or object, read
    /// the same way.
    fn child(self, index: usize, child: &'de Value) -> Self {
        let place = self.place.and_then(|place| {
            Some(Place {
                steps: place.steps.then(index)?,
                ..place
            })
        });
        NodeSource {
            value: child,
            place,
        }
    }

    /// The node for this source's value: shared with its document, or a
    /// clone.
    fn node(self) -> Node {
        self.place
            .and_then(|place| {
                let checked = place.places.place(place.at)?;
                let in_tree: InTree = checked
                    .try_map_project_cloned(|value, _| place.steps.follow(value).ok_or(()))
                    .ok()?;
                // The steps were taken from this very value, so they lead
                // back to it; were they ever not to, a copy is still right.
                std::ptr::eq(*in_tree.get(), self.value).then(|| Node::shared(in_tree))
            })
            .unwrap_or_else(|| Node::new(self.value.clone()))
    }
}

/// Methods that hand the request to `serde_json`'s `&Value` deserializer
/// as it is: `method(arguments before the visitor);`.
macro_rules! hand_over {
    ($($method:ident($($arg:ident: $type:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(
            self,
            $($arg: $type,)*
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            self.value.$method($($arg,)* visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for NodeSource<'de> {
    type Error = serde_json::Error;

    hand_over! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16();
        deserialize_i32(); deserialize_i64(); deserialize_i128(); deserialize_u8();
        deserialize_u16(); deserialize_u32(); deserialize_u64(); deserialize_u128();
        deserialize_f32(); deserialize_f64(); deserialize_char(); deserialize_str();
        deserialize_string(); deserialize_bytes(); deserialize_byte_buf(); deserialize_unit();
        deserialize_map(); deserialize_identifier(); deserialize_ignored_any();
        deserialize_unit_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.value {
            Value::Object(map) => visit_entries(self, map, visitor),
            Value::Array(items) => visit_items(self, items, visitor),
            other => other.deserialize_struct(name, fields, visitor),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.value {
            Value::Array(items) => visit_items(self, items, visitor),
            other => other.deserialize_seq(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        if name != NODE_TOKEN {
            return self.value.deserialize_newtype_struct(name, visitor);
        }
        // Only the node visitor asks for this name, and it takes the node.
        with_lent(self.node(), || visitor.visit_unit())
    }
}

impl<'de> IntoDeserializer<'de, serde_json::Error> for NodeSource<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// `items` (the array `source` reads) as a sequence, each item read
/// through [`NodeSource`]; an error when the visitor leaves items unread.
fn visit_items<'de, V: Visitor<'de>>(
    source: NodeSource<'de>,
    items: &'de [Value],
    visitor: V,
) -> Result<V::Value, serde_json::Error> {
    let mut items = SeqDeserializer::new(
        items
            .iter()
            .enumerate()
            .map(|(index, item)| source.child(index, item)),
    );
    let seq = visitor.visit_seq(&mut items)?;
    items.end()?;
    Ok(seq)
}

/// `map` (the object `source` reads) as a map of field names, each value
/// read through [`NodeSource`]; an error when the visitor leaves entries
/// unread. A struct's keys are its field names, lent as borrowed strings,
/// as `serde_json` lends them.
fn visit_entries<'de, V: Visitor<'de>>(
    source: NodeSource<'de>,
    map: &'de Map<String, Value>,
    visitor: V,
) -> Result<V::Value, serde_json::Error> {
    let mut entries = MapDeserializer::new(map.iter().enumerate().map(|(index, (key, value))| {
        (
            BorrowedStrDeserializer::<serde_json::Error>::new(key),
            source.child(index, value),
        )
    }));
    let fields = visitor.visit_map(&mut entries)?;
    entries.end()?;
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Node;
    use crate::node::take_lent;
    use serde::Deserialize;
    use serde_json::json;
    use std::collections::BTreeMap;
    use std::sync::Arc;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Pane {
        items: Vec<Node>,
        title: Option<String>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(untagged)]
    enum Either {
        Node { node: Node },
        Text(String),
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Container {
        body: Vec<Node>,
        aside: Option<Node>,
        panes: Vec<Pane>,
        pair: Option<(Node, u32)>,
        by_name: Option<BTreeMap<String, Node>>,
        either: Option<Either>,
        count: Option<u32>,
        #[serde(default)]
        section_number: Option<String>,
    }

    /// Reads `value` as `T` both ways: through `NodeSource`, and through
    /// `serde_json`'s own deserializer.
    fn both<T: for<'de> Deserialize<'de>>(value: &Value) -> (Result<T, String>, Result<T, String>) {
        (
            T::deserialize(NodeSource::new(value)).map_err(|error| error.to_string()),
            T::deserialize(value).map_err(|error| error.to_string()),
        )
    }

    #[test]
    fn a_typed_form_holds_the_children_serde_json_gives() {
        let value = json!({
            "type": "container",
            "body": [{"type": "kpi", "value": 1.5, "tags": ["a", {"b": null}]}, {"type": "note"}],
            "aside": {"type": "note", "text": "x"},
            "panes": [{"items": [{"type": "kpi", "deep": {"a": [1, 2, {"c": "d"}]}}], "title": "t"}],
            "pair": [{"type": "note"}, 7],
            "byName": {"first": {"type": "note"}},
            "either": {"node": {"type": "note"}},
            "count": 3,
            "sectionNumber": "02",
        });
        let (lent, rebuilt) = both::<Container>(&value);
        let lent = lent.unwrap();
        assert_eq!(Ok(&lent), rebuilt.as_ref());
        assert_eq!(*lent.body[0], value["body"][0]);
        assert_eq!(*lent.panes[0].items[0], value["panes"][0]["items"][0]);
        assert_eq!(*lent.aside.unwrap(), value["aside"]);
        assert!(take_lent().is_none(), "nothing is left lent");
    }

    /// More ways to hold a node, each of which `NodeSource` hands to
    /// `serde_json` whole or reads itself.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        #[serde(alias = "children")]
        items: Vec<Node>,
        boxed: Option<Box<Node>>,
        tagged: Option<Tagged>,
        adjacent: Option<Adjacent>,
        numbered: Option<std::collections::HashMap<u32, Node>>,
        wrapped: Option<Wrapped>,
        raw: Option<Value>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "kind")]
    enum Tagged {
        One { node: Node },
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent {
        Pair(Node, Node),
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Wrapped(Vec<Node>);

    #[derive(Debug, PartialEq, Deserialize)]
    struct Flat {
        #[serde(flatten)]
        rest: BTreeMap<String, Node>,
        first: Node,
    }

    #[test]
    fn every_way_of_holding_a_node_gives_what_serde_json_gives() {
        let strict = json!({
            "children": [{"type": "a"}, 2],
            "boxed": {"type": "h"},
            "tagged": {"kind": "One", "node": {"type": "b"}},
            "adjacent": {"t": "Pair", "c": [{"type": "c"}, null]},
            "numbered": {"1": {"type": "d"}},
            "wrapped": [{"type": "e"}],
            "raw": {"type": "f", "items": [{"type": "g"}]},
        });
        let (lent, rebuilt) = both::<Strict>(&strict);
        assert_eq!(lent, rebuilt);
        assert_eq!(*lent.unwrap().items[0], json!({"type": "a"}));
        let flat = json!({"first": {"type": "a"}, "second": {"type": "b"}});
        let (lent, rebuilt) = both::<Flat>(&flat);
        assert_eq!(lent, rebuilt);
        assert_eq!(*lent.unwrap().rest["second"], json!({"type": "b"}));
        // A struct read from an array, as serde_json allows.
        let (lent, rebuilt) = both::<Pane>(&json!([[{"type": "a"}], "t"]));
        assert_eq!(lent, rebuilt);
        assert!(lent.is_ok());
        for refused in [
            json!({"items": [], "extra": 1}),
            json!({"items": [], "numbered": {"x": {}}}),
            json!({"items": [], "tagged": {"kind": "Two"}}),
        ] {
            let (lent, rebuilt) = both::<Strict>(&refused);
            assert!(lent.is_err() && rebuilt.is_err(), "{refused}");
        }
        assert!(take_lent().is_none(), "nothing is left lent");
    }

    #[test]
    fn a_node_serde_json_refuses_is_refused() {
        for value in [
            json!({"body": [], "panes": [], "count": 1.5}),
            json!({"body": [], "panes": [], "count": -1}),
            json!({"body": {}, "panes": []}),
            json!({"body": [], "panes": [{"items": 3}]}),
            json!({"panes": []}),
            json!([[], null, []]),
            json!([[], null, [], null, null, null, null, null, null, "extra"]),
            json!("container"),
        ] {
            let (lent, rebuilt) = both::<Container>(&value);
            assert!(lent.is_err(), "{value}");
            assert!(rebuilt.is_err(), "{value}");
        }
    }

    /// What a visitor of the node token gets from a source: a unit, with
    /// the node lent.
    struct Lent;

    impl<'de> Visitor<'de> for Lent {
        type Value = Option<Node>;

        fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str("a lent node")
        }

        fn visit_unit<E: de::Error>(self) -> Result<Option<Node>, E> {
            Ok(take_lent())
        }
    }

    #[test]
    fn the_node_token_lends_a_clone_of_a_borrowed_value() {
        let value = json!({"type": "note", "items": [{"type": "kpi"}]});
        let lent =
            de::Deserializer::deserialize_newtype_struct(NodeSource::new(&value), NODE_TOKEN, Lent);
        let lent = lent.unwrap().unwrap();
        assert_eq!(*lent, value);
        assert!(!std::ptr::eq(lent.as_value(), &value), "a copy");
        // Another newtype goes to serde_json, which lends nothing.
        let other =
            de::Deserializer::deserialize_newtype_struct(NodeSource::new(&value), "Other", Lent);
        assert!(other.is_err());
        assert!(take_lent().is_none());
    }

    #[test]
    fn a_document_lends_nodes_that_share_its_tree() {
        let tree = Arc::new(json!({
            "type": "container",
            "body": [{"type": "kpi", "value": 1}, {"type": "note"}],
            "aside": {"type": "note", "text": "x"},
            "panes": [{"items": [{"type": "kpi"}], "title": "t"}],
        }));
        let places = Whole(InTree::attach_to_cart(Arc::clone(&tree), |value| value));
        let source = NodeSource::placed(&tree, &places, 0);
        let typed = Container::deserialize(source).unwrap();
        assert!(std::ptr::eq(typed.body[0].as_value(), &tree["body"][0]));
        assert!(std::ptr::eq(typed.body[1].as_value(), &tree["body"][1]));
        assert!(std::ptr::eq(
            typed.aside.as_ref().unwrap().as_value(),
            &tree["aside"]
        ));
        let pane_item = &tree["panes"][0]["items"][0];
        assert!(std::ptr::eq(typed.panes[0].items[0].as_value(), pane_item));
        // The nodes keep the tree alive: 1 + the place + the four nodes.
        assert_eq!(Arc::strong_count(&tree), 6);
        // A clone shares too; what it reads is the same value.
        let kept = typed.body[0].clone();
        drop(typed);
        drop(places);
        assert_eq!(Arc::strong_count(&tree), 2);
        assert_eq!(*kept, json!({"type": "kpi", "value": 1}));
        assert_eq!(
            kept.clone().into_value(),
            json!({"type": "kpi", "value": 1})
        );
        // Dropping the caller's handle first leaves the node reading a
        // value that is still alive.
        drop(tree);
        assert_eq!(kept.type_name(), Some("kpi"));
        assert_eq!(kept, Node::new(json!({"type": "kpi", "value": 1})));
        assert!(take_lent().is_none());
    }

    /// One checked node: the whole tree.
    struct Whole(InTree);

    impl Places for Whole {
        fn place(&self, at: usize) -> Option<&InTree> {
            (at == 0).then_some(&self.0)
        }
    }

    /// Places that know no checked node.
    struct Nowhere;

    impl Places for Nowhere {
        fn place(&self, _at: usize) -> Option<&InTree> {
            None
        }
    }

    #[test]
    fn a_node_too_deep_below_its_checked_node_or_outside_a_document_is_a_copy() {
        /// Four levels of lists.
        type Four<T> = Vec<Vec<Vec<Vec<T>>>>;
        /// Nine steps down to `a`'s node (the field, then eight indexes),
        /// eight to `b`'s.
        #[derive(Deserialize)]
        struct Deep {
            a: Four<Four<Node>>,
            b: Four<Vec<Vec<Vec<Node>>>>,
        }
        let tree = Arc::new(json!({
            "a": [[[[[[[[{"type": "deep"}]]]]]]]],
            "b": [[[[[[[{"type": "shallow"}]]]]]]],
        }));
        let places = Whole(InTree::attach_to_cart(Arc::clone(&tree), |value| value));
        let typed = Deep::deserialize(NodeSource::placed(&tree, &places, 0)).unwrap();
        let deep = &typed.a[0][0][0][0][0][0][0][0];
        let shallow = &typed.b[0][0][0][0][0][0][0];
        assert_eq!(**deep, json!({"type": "deep"}));
        assert!(!std::ptr::eq(
            deep.as_value(),
            &tree["a"][0][0][0][0][0][0][0][0]
        ));
        assert!(std::ptr::eq(
            shallow.as_value(),
            &tree["b"][0][0][0][0][0][0][0]
        ));
        let pane = json!({"items": [{"type": "x"}]});
        let typed = Pane::deserialize(NodeSource::placed(&pane, &Nowhere, 0)).unwrap();
        assert_eq!(*typed.items[0], json!({"type": "x"}));
        assert!(!std::ptr::eq(typed.items[0].as_value(), &pane["items"][0]));
    }

    #[test]
    fn a_node_is_send_and_sync() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Node>();
        shareable::<crate::Document>();
    }
}
