//! [`Node`]: a child body node inside a primitive's fields.
//!
//! A container's Rust struct types its child slots as [`Node`] (`items:
//! Vec<Node>`, `aside: Option<Node>`). The JSON Schema of [`Node`] is a
//! reference to `#/$defs/bodyNode`, so the runtime can
//! - find the child slots of a primitive from its schema alone (the derived
//!   child hook visits every value the schema types as a body node, in schema
//!   key order and array index order), and
//! - bind those slots to the composition's body-node union when it exports the
//!   composition JSON Schema (a slot accepts any registered primitive, of any
//!   pack).
//!
//! In a primitive's standalone validation a slot only has to be an object:
//! the runtime validates the child against its own primitive.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use yoke::Yoke;

/// The name of the `$defs` entry that stands for "any registered primitive
/// node" in every schema the runtime builds (upstream `bodyNode`).
pub(crate) const BODY_NODE_DEF: &str = "bodyNode";

/// The `$ref` a child slot carries: `#/$defs/bodyNode`.
pub(crate) const BODY_NODE_REF: &str = "#/$defs/bodyNode";

/// A value inside a [`Document`](crate::Document)'s tree, borrowed together
/// with the `Arc` that owns the tree: the borrow lives exactly as long as
/// the `Arc` it came from, with no `unsafe` anywhere (`yoke` checks, at
/// compile time, that the borrow was projected from the `Arc`'s value).
pub(crate) type InTree = Yoke<&'static Value, Arc<Value>>;

/// A child body node held by a container: the JSON object as authored, so
/// renderers can hand it to the dispatcher (`scope.text(&node.items[0])`).
///
/// Dereferences to [`serde_json::Value`]. Its JSON Schema is
/// `{"$ref": "#/$defs/bodyNode"}`, which marks the field as a child slot.
///
/// A node either owns its value or shares it with the
/// [`Document`](crate::Document) it was read from: the typed forms a
/// [`Runtime::check`](crate::Runtime::check) makes hold their children that
/// way (the `Arc` of the document's tree and a borrow of the child inside
/// it, carried together by `yoke`), so a container does not copy its
/// subtree. Either way the node reads the same, compares by value, and
/// clones cheaply when shared. It is `Send` and `Sync`.
#[derive(Clone)]
pub struct Node(Repr);

#[derive(Clone)]
enum Repr {
    Owned(Value),
    Shared(InTree),
}

impl Node {
    /// A node that owns `value`.
    pub fn new(value: Value) -> Self {
        Node(Repr::Owned(value))
    }

    /// A node sharing `in_tree`'s value with its document.
    pub(crate) fn shared(in_tree: InTree) -> Self {
        Node(Repr::Shared(in_tree))
    }

    /// The node's `type`, when it has a string one.
    pub fn type_name(&self) -> Option<&str> {
        crate::composition::node_type(self)
    }

    /// The raw JSON value.
    pub fn as_value(&self) -> &Value {
        match &self.0 {
            Repr::Owned(value) => value,
            Repr::Shared(in_tree) => in_tree.get(),
        }
    }

    /// The value, owned: a copy when the node shares it with a document.
    pub fn into_value(self) -> Value {
        match self.0 {
            Repr::Owned(value) => value,
            Repr::Shared(in_tree) => Value::clone(in_tree.get()),
        }
    }
}

impl Default for Node {
    /// A node owning `null`.
    fn default() -> Self {
        Node::new(Value::Null)
    }
}

impl fmt::Debug for Node {
    /// `Node(<the value's Debug>)`, however the node holds it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Node").field(self.as_value()).finish()
    }
}

impl PartialEq for Node {
    /// Equal values, however each node holds its value.
    fn eq(&self, other: &Self) -> bool {
        self.as_value() == other.as_value()
    }
}

impl Deref for Node {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.as_value()
    }
}

impl AsRef<Value> for Node {
    fn as_ref(&self) -> &Value {
        self.as_value()
    }
}

impl From<Value> for Node {
    fn from(value: Value) -> Self {
        Node::new(value)
    }
}

/// The newtype name [`Node`] asks a deserializer for. The deserializer the
/// runtime reads typed forms from answers it by lending the node it made
/// for the child (sharing it with the document, or else one copy of the
/// child: no map rebuilt either way, see [`with_lent`]). Any other
/// deserializer answers it as it answers any newtype struct (most hand the
/// node their value, some visit the value straight away), and the node
/// reads that value as [`serde_json::Value`] would.
pub(crate) const NODE_TOKEN: &str = "$isomer_sdk::private::Node";

thread_local! {
    /// The node lent to the node visitor being called; empty at any other
    /// time.
    static LENT: RefCell<Option<Node>> = const { RefCell::new(None) };
}

/// Calls `visit` (a call of the node visitor, as a unit) with `node` lent
/// to it; nothing stays lent afterwards, also when `visit` panics.
pub(crate) fn with_lent<R>(node: Node, visit: impl FnOnce() -> R) -> R {
    /// Takes back what the visitor left lent when it goes out of scope.
    struct TakeBack;

    impl Drop for TakeBack {
        fn drop(&mut self) {
            drop(take_lent());
        }
    }

    LENT.with(|lent| *lent.borrow_mut() = Some(node));
    let _take_back = TakeBack;
    visit()
}

/// The node lent to the node visitor being called, if any.
pub(crate) fn take_lent() -> Option<Node> {
    LENT.with(|lent| lent.borrow_mut().take())
}

/// Deserializes any value a [`serde_json::Value`] deserializes from, to the
/// same value.
impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(NODE_TOKEN, NodeVisitor)
    }
}

/// Reads a node: the value lent by the runtime's deserializer, or else what
/// the deserializer visits, handed to [`serde_json::Value`]'s own visitor
/// through serde's value deserializers.
struct NodeVisitor;

/// Visitor methods that hand a scalar to [`serde_json::Value`]'s visitor.
macro_rules! visit_scalars {
    ($($method:ident($type:ty))*) => {$(
        fn $method<E: de::Error>(self, value: $type) -> Result<Node, E> {
            Value::deserialize(value.into_deserializer()).map(Node::new)
        }
    )*};
}

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    visit_scalars! {
        visit_bool(bool) visit_i64(i64) visit_i128(i128) visit_u64(u64) visit_u128(u128)
        visit_f64(f64) visit_str(&str) visit_string(String)
    }

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        Value::deserialize(deserializer).map(Node::new)
    }

    /// The runtime's deserializer lends the node here; from any other
    /// deserializer a unit is `null`, as for [`serde_json::Value`].
    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(take_lent().unwrap_or_default())
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::default())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        Value::deserialize(deserializer).map(Node::new)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Node, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(Node::new)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Node, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(Node::new)
    }
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_value().serialize(serializer)
    }
}

impl JsonSchema for Node {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(BODY_NODE_DEF)
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed("isomer_sdk::Node")
    }

    /// The slot's standalone schema: an object (the runtime validates the
    /// child against its own primitive and replaces this def with the
    /// body-node union in exported schemas).
    fn json_schema(_generator: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "object" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::forward_to_deserialize_any;
    use serde_json::json;

    #[test]
    fn a_node_outside_a_source_deserializes_its_value() {
        let node: Node = serde_json::from_str(r#"{"type": "note", "text": "x"}"#).unwrap();
        assert_eq!(*node, json!({"type": "note", "text": "x"}));
        let node = Node::deserialize(&json!(null)).unwrap();
        assert_eq!(*node, Value::Null);
        let nodes: Vec<Node> = serde_json::from_value(json!([1, "two"])).unwrap();
        assert_eq!(nodes, [Node::new(json!(1)), Node::new(json!("two"))]);
    }

    struct Unit;

    impl<'de> de::Deserializer<'de> for Unit {
        type Error = serde_json::Error;

        fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            visitor.visit_unit()
        }

        forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map struct enum identifier ignored_any
        }
    }

    #[test]
    fn a_node_reads_what_any_deserializer_visits_as_a_value_does() {
        use serde::de::IntoDeserializer;
        use serde::de::value::{MapDeserializer, SeqDeserializer};
        type Error = serde_json::Error;
        // serde_json's map deserializers visit the map straight away.
        let map = serde_json::Map::from_iter([(String::from("type"), json!("note"))]);
        assert_eq!(
            Node::deserialize(&map).unwrap().into_value(),
            json!({"type": "note"})
        );
        assert_eq!(
            Node::deserialize(map).unwrap().into_value(),
            json!({"type": "note"})
        );
        // serde's value deserializers visit scalars, sequences and maps.
        let text = IntoDeserializer::<Error>::into_deserializer("x");
        assert_eq!(Node::deserialize(text).unwrap().into_value(), json!("x"));
        let number = IntoDeserializer::<Error>::into_deserializer(-3_i64);
        assert_eq!(Node::deserialize(number).unwrap().into_value(), json!(-3));
        let float = IntoDeserializer::<Error>::into_deserializer(f64::NAN);
        assert_eq!(Node::deserialize(float).unwrap().into_value(), Value::Null);
        let flag = IntoDeserializer::<Error>::into_deserializer(true);
        assert_eq!(Node::deserialize(flag).unwrap().into_value(), json!(true));
        let seq = SeqDeserializer::<_, Error>::new([1_u64, 2].into_iter());
        assert_eq!(Node::deserialize(seq).unwrap().into_value(), json!([1, 2]));
        let entries = MapDeserializer::<_, Error>::new([("a", 1_u64)].into_iter());
        assert_eq!(
            Node::deserialize(entries).unwrap().into_value(),
            json!({"a": 1})
        );
    }

    #[test]
    fn a_unit_from_another_deserializer_is_a_null_node() {
        // What `serde_json::Value` makes of a unit, with nothing lent.
        assert_eq!(Node::deserialize(Unit).unwrap().into_value(), Value::Null);
    }
}
