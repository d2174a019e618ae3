//! A primitive's shape: its node schema and the child slots read from it,
//! made when the primitive is declared or the first time they are needed.
//!
//! - A schema given as JSON ([`PrimitiveBuilder::schema_json`]) is
//!   normalized, checked against the draft 2020-12 meta-schema and sliced
//!   into slots when the primitive is built, so its faults are refused by
//!   [`PrimitiveBuilder::build`].
//! - A schema derived from the node's Rust type (or made by the function
//!   given with [`PrimitiveBuilder::schema_with`]) is derived, normalized
//!   and sliced the first time the runtime needs it (a node of the type to
//!   check or walk, the composition schema, the catalog's field list).
//!   Building a 40-primitive pack then costs next to nothing, and a process
//!   that checks one answer pays for the types that answer uses. Only a
//!   plain struct waits, and only when none of its serde field names (read
//!   from its `Deserialize` implementation by [`declared_fields`], without
//!   deriving the schema) is `id` or `surfaces`; any other type's schema is
//!   made and checked at build, as a given one is. A plain struct's
//!   schema can then only be unusable when its `JsonSchema` disagrees with
//!   its `Deserialize`; the fault is kept and every node of the type is
//!   reported with it (`cannot be checked: …`), which a pack's conformance
//!   test ([`Runtime::check_examples`](crate::Runtime::check_examples))
//!   shows. A lazily made schema is checked against the meta-schema when
//!   its validator compiles, on the first node of the type.
//!
//! [`PrimitiveBuilder::schema_json`]: crate::PrimitiveBuilder::schema_json
//! [`PrimitiveBuilder::schema_with`]: crate::PrimitiveBuilder::schema_with
//! [`PrimitiveBuilder::build`]: crate::PrimitiveBuilder::build

use std::sync::OnceLock;

use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::Value;

use crate::error::IsomerError;
use crate::schema::node::{MetaCheck, NodeSchema};
use crate::schema::slots::SlotTrie;

/// A node schema with the child slots read from it.
pub(crate) struct Shape {
    pub schema: NodeSchema,
    pub slots: SlotTrie,
}

impl Shape {
    /// Normalizes `raw` for `type_name` and reads its slots.
    fn new(type_name: &str, raw: Value, meta: MetaCheck) -> Result<Shape, IsomerError> {
        let schema = NodeSchema::new(type_name, raw, meta)?;
        let slots = SlotTrie::from_schema(&schema.member, &schema.defs);
        Ok(Shape { schema, slots })
    }
}

/// Makes a primitive's raw node schema on first use.
pub(crate) type DeriveFn = Box<dyn Fn() -> Value + Send + Sync>;

/// A primitive's [`Shape`], ready now or on first use (see the module docs).
pub(crate) struct LazyShape {
    type_name: String,
    /// Makes the raw schema (unused when the shape was made at build).
    derive: DeriveFn,
    ready: OnceLock<Result<Shape, IsomerError>>,
}

impl LazyShape {
    /// The shape of a schema given as JSON, made now.
    ///
    /// # Errors
    /// The [`NodeSchema::new`] errors, with the meta-schema check.
    pub fn given(type_name: &str, raw: Value) -> Result<LazyShape, IsomerError> {
        let shape = Shape::new(type_name, raw, MetaCheck::Now)?;
        Ok(LazyShape {
            type_name: type_name.to_owned(),
            derive: Box::new(|| Value::Null),
            ready: OnceLock::from(Ok(shape)),
        })
    }

    /// The shape of the schema `derive` makes, made on first use.
    pub fn derived(type_name: &str, derive: DeriveFn) -> LazyShape {
        LazyShape {
            type_name: type_name.to_owned(),
            derive,
            ready: OnceLock::new(),
        }
    }

    /// The shape, made on the first call (thread-safe; later calls share
    /// it), or the fault of the derived schema.
    pub fn get(&self) -> Result<&Shape, &IsomerError> {
        self.ready
            .get_or_init(|| Shape::new(&self.type_name, (self.derive)(), MetaCheck::OnCompile))
            .as_ref()
    }

    /// Whether the shape has been made.
    #[cfg(test)]
    pub fn is_ready(&self) -> bool {
        self.ready.get().is_some()
    }
}

/// The field names `T`'s `Deserialize` implementation declares when it
/// reads a struct (serde's derive passes them to `deserialize_struct`),
/// serde renames applied; `None` when `T` reads anything else (a map, a
/// `serde_json::Value`, a struct with `#[serde(flatten)]`).
pub(crate) fn declared_fields<T: DeserializeOwned>() -> Option<&'static [&'static str]> {
    match T::deserialize(FieldProbe) {
        Err(Probed::Fields(fields)) => Some(fields),
        Err(Probed::Other) | Ok(_) => None,
    }
}

/// A deserializer that reads nothing: it answers `deserialize_struct` with
/// the declared field names and everything else with an error.
struct FieldProbe;

/// What [`FieldProbe`] found.
#[derive(Debug)]
enum Probed {
    Fields(&'static [&'static str]),
    Other,
}

impl std::fmt::Display for Probed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a struct")
    }
}

impl std::error::Error for Probed {}

impl de::Error for Probed {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Probed::Other
    }
}

impl<'de> de::Deserializer<'de> for FieldProbe {
    type Error = Probed;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Probed> {
        Err(Probed::Other)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Probed> {
        Err(Probed::Fields(fields))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Card {
        title: String,
        #[serde(rename = "subTitle")]
        sub_title: Option<String>,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Flattened {
        #[serde(flatten)]
        card: Card,
    }

    #[test]
    fn a_struct_declares_its_serde_field_names() {
        assert_eq!(declared_fields::<Card>(), Some(&["title", "subTitle"][..]));
    }

    #[test]
    fn values_maps_and_flattened_structs_declare_none() {
        assert_eq!(declared_fields::<Value>(), None);
        assert_eq!(
            declared_fields::<std::collections::BTreeMap<String, String>>(),
            None
        );
        assert_eq!(declared_fields::<Flattened>(), None);
        assert_eq!(declared_fields::<String>(), None);
    }
}
