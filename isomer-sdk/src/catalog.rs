//! What a model reads about a runtime: catalog entries, groups, view
//! summaries, and the authoring context that bundles them with the authoring
//! JSON Schema (upstream `getAuthoringContext`, `describePrimitives`).
//!
//! These are plain data, serialized with upstream's camelCase keys, so the
//! eval harness and the agent tools can read them without the runtime.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The agent-facing description of one primitive (upstream
/// `PrimitiveCatalogEntry`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogEntry {
    /// The primitive's `type`, as in its nodes.
    #[serde(rename = "type")]
    pub type_name: String,
    /// One line saying what the primitive is for; printed in the index.
    pub purpose: String,
    /// The user intents that call for it.
    pub use_when: Vec<String>,
    /// Look-alike situations, each naming the primitive to use instead.
    pub avoid_when: Vec<String>,
    /// One valid node, printed compactly in the full catalog.
    pub example: Value,
    /// The title of the group the primitive belongs to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// A titled list of primitive types, for the catalog index (upstream
/// `authoring.groups`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrimitiveGroup {
    /// The section title (`Numbers`).
    pub title: String,
    /// The types in the group, in the order the index prints them.
    pub types: Vec<String>,
}

/// What a model and a host see of a registered view (upstream
/// `RegisteredViewSummary`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewSummary {
    /// The id a request names.
    pub id: String,
    /// A short title.
    pub title: String,
    /// What the view shows; defaults to the title.
    pub description: String,
    /// Natural-language questions the view answers.
    pub answers: Vec<String>,
    /// The JSON Schema (draft 2020-12) of the input, when the view takes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
}

/// Everything a runtime tells a model about authoring compositions
/// (upstream `getAuthoringContext()`, minus the lookups, which are runtime
/// methods).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthoringContext {
    /// The authoring JSON Schema (draft 2020-12) of a composition over every
    /// registered primitive (the authoring projection).
    pub schema: Value,
    /// Every primitive's catalog entry, in registration order.
    pub primitives: Vec<CatalogEntry>,
    /// Every pack's groups, in pack order.
    pub groups: Vec<PrimitiveGroup>,
    /// The registered views, in registration order, as they are when the
    /// context is read.
    pub views: Vec<ViewSummary>,
}

/// The answer to a lookup of some primitive types (upstream
/// `describePrimitives`): their catalog entries, the `$defs` they reach and
/// each one's fields as [`PropDescriptor`]s.
///
/// Serializes as upstream: `{ "primitives": [...], "schema": { "$defs":
/// {...} }, "props": { "<type>": [...] } }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrimitiveDescriptions {
    /// The entries of the types asked for, deduplicated in first-seen order.
    pub primitives: Vec<CatalogEntry>,
    /// `{ "$defs": { ... } }`: the authoring schema's defs those types reach
    /// through `#/$defs/` references, keyed as in the full schema, with
    /// `bodyNode` replaced by a one-line stub.
    pub schema: Value,
    /// The fields of each type asked for, keyed by type in the order of
    /// [`primitives`](Self::primitives). Read as empty when absent, so an
    /// answer written before `props` existed still deserializes.
    #[serde(default)]
    pub props: PrimitiveProps,
}

/// The most distinct primitive types one `describe_primitives` lookup
/// answers: 100, as upstream caps `describePrimitives`;
/// more is [`IsomerError::TooManyTypes`](crate::IsomerError::TooManyTypes).
pub(crate) const MAX_DESCRIBED_TYPES: usize = 100;

/// What kind of value a field holds, as the upstream runtime's
/// `PropDescriptor.kind` names it; serialized
/// lowercase (`"string"`, `"enum"`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PropKind {
    /// Text (`"type": "string"` without `enum`/`const`).
    String,
    /// A number; JSON Schema `integer` is a number too, as JavaScript has
    /// one number type.
    Number,
    /// `true` or `false`.
    Boolean,
    /// One of fixed strings (`enum` or `const` of strings); the choices are
    /// in [`PropDescriptor::values`].
    Enum,
    /// A list (`"type": "array"`), child slots included.
    Array,
    /// An object: a nested record, or one child node (`bodyNode`).
    Object,
    /// Anything else: a union of different kinds, a non-string enum, `null`,
    /// or a schema that says nothing (`{}`).
    Other,
}

/// One field of a primitive as an editor or a model lists it (upstream
/// `PropDescriptor`): `{ "name", "type",
/// "kind", "values"?, "required", "description" }`.
///
/// Derived from the primitive's def in the authoring schema (so `omit`ted
/// properties are absent and authoring `describe` texts apply), one per
/// property in the schema's order; the `type` discriminator is not a field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PropDescriptor {
    /// The property name as it appears in a node (`columns`, `items`).
    pub name: String,
    /// The value's type for a reader, TypeScript-style: `string`, `number`,
    /// `boolean`, `"left" | "right"`, `string[]`, `("a" | "b")[]`,
    /// `BodyNode[]`, `object`, `[number, number]`, `string | number`,
    /// `unknown`.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The kind of value, for code that branches on it.
    pub kind: PropKind,
    /// The string choices when [`kind`](Self::kind) is [`PropKind::Enum`], in
    /// schema order; absent otherwise (upstream `values?`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// Whether a node must carry the field (it is in the def's `required`).
    pub required: bool,
    /// The field's description: its own, else the description of the def it
    /// references, else `""`. Always present, as upstream's `description` is
    /// (upstream's type writes `values?` but plain `description`), so a reader
    /// never branches on a missing key.
    pub description: String,
}

/// The fields of each described type, in the order the types were first
/// asked for: the `props` map of [`PrimitiveDescriptions`].
///
/// Serializes as a JSON object `{ "<type>": [PropDescriptor, ...], ... }`
/// whose keys keep that order (a `HashMap` would lose it); deserializing
/// keeps the object's key order and refuses a type given twice.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrimitiveProps {
    entries: Vec<(String, Vec<PropDescriptor>)>,
}

impl PrimitiveProps {
    /// No types.
    pub fn new() -> Self {
        PrimitiveProps::default()
    }

    /// The fields of `type_name`, or `None` when it was not described.
    pub fn get(&self, type_name: &str) -> Option<&[PropDescriptor]> {
        self.entries
            .iter()
            .find(|(name, _)| name == type_name)
            .map(|(_, props)| props.as_slice())
    }

    /// Sets the fields of `type_name`: replaces them in place when the type
    /// is already present, else appends it last.
    pub fn insert(&mut self, type_name: impl Into<String>, props: Vec<PropDescriptor>) {
        let type_name = type_name.into();
        match self.entries.iter_mut().find(|(name, _)| *name == type_name) {
            Some((_, existing)) => *existing = props,
            None => self.entries.push((type_name, props)),
        }
    }

    /// `(type, fields)` pairs in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[PropDescriptor])> {
        self.entries
            .iter()
            .map(|(name, props)| (name.as_str(), props.as_slice()))
    }

    /// The described types, in order.
    pub fn types(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(name, _)| name.as_str())
    }

    /// How many types are described.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no type is described.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl FromIterator<(String, Vec<PropDescriptor>)> for PrimitiveProps {
    /// Collects pairs in order; a repeated type keeps its first position and
    /// its last fields, as [`PrimitiveProps::insert`] does.
    fn from_iter<I: IntoIterator<Item = (String, Vec<PropDescriptor>)>>(pairs: I) -> Self {
        let mut props = PrimitiveProps::new();
        for (type_name, fields) in pairs {
            props.insert(type_name, fields);
        }
        props
    }
}

impl Serialize for PrimitiveProps {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (type_name, props) in &self.entries {
            map.serialize_entry(type_name, props)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for PrimitiveProps {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PropsVisitor;

        impl<'de> serde::de::Visitor<'de> for PropsVisitor {
            type Value = PrimitiveProps;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of primitive type to an array of prop descriptors")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut access: A,
            ) -> Result<PrimitiveProps, A::Error> {
                let mut props = PrimitiveProps::new();
                let mut seen = std::collections::HashSet::new();
                while let Some((type_name, fields)) =
                    access.next_entry::<String, Vec<PropDescriptor>>()?
                {
                    if !seen.insert(type_name.clone()) {
                        return Err(serde::de::Error::custom(format_args!(
                            "primitive type {} appears twice in props",
                            crate::js::quote_text(&type_name)
                        )));
                    }
                    props.entries.push((type_name, fields));
                }
                Ok(props)
            }
        }

        deserializer.deserialize_map(PropsVisitor)
    }
}
