//! A registered primitive: its catalog entry, shape, child hook and erased
//! renderers, and what the runtime asks of it.

use std::sync::Arc;

use serde_json::Value;

use crate::catalog::CatalogEntry;
use crate::error::IsomerError;
use crate::schema::shape::{LazyShape, Shape};
use crate::walk::ChildRef;

use super::typed::ErasedPrimitive;

pub(super) type ChildrenFn = Box<dyn for<'a> Fn(&'a Value) -> Vec<ChildRef<'a>> + Send + Sync>;
pub(super) type OwnContentFn = Box<dyn Fn(&Value) -> bool + Send + Sync>;

/// One registered node type: its schema, catalog entry, child hook,
/// refinements and renderers. Cheap to clone (shared).
///
/// Built with [`Primitive::builder`]; assembled into a [`Pack`](crate::Pack).
#[derive(Clone)]
pub struct Primitive {
    pub(crate) inner: Arc<PrimitiveInner>,
}

pub(crate) struct PrimitiveInner {
    pub(crate) entry: CatalogEntry,
    pub(crate) examples: Vec<Value>,
    pub(crate) shape: LazyShape,
    pub(crate) children: Option<ChildrenFn>,
    pub(crate) own_content: Option<OwnContentFn>,
    pub(crate) erased: Box<dyn ErasedPrimitive>,
}

impl std::fmt::Debug for Primitive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Primitive")
            .field("type", &self.inner.entry.type_name)
            .finish_non_exhaustive()
    }
}

impl Primitive {
    /// The node `type` this primitive handles.
    pub fn type_name(&self) -> &str {
        &self.inner.entry.type_name
    }

    /// The catalog entry (purpose, use when, avoid when, example, group).
    pub fn catalog_entry(&self) -> &CatalogEntry {
        &self.inner.entry
    }

    /// The conformance examples: the catalog example first, then every
    /// [`PrimitiveBuilder::examples`](super::PrimitiveBuilder::examples) node. Each is a bare node.
    pub fn examples(&self) -> &[Value] {
        &self.inner.examples
    }

    /// The node's standalone JSON Schema (draft 2020-12): `type` constant,
    /// the declared fields, `id`, `surfaces`, `required`,
    /// `additionalProperties: false`, its own `$defs`, with child slots as
    /// `{"$ref": "#/$defs/bodyNode"}` and `bodyNode` an object.
    ///
    /// A plain struct's schema is made on the first call (see
    /// [`PrimitiveBuilder::build`](super::PrimitiveBuilder::build)); when it
    /// is unusable (its `JsonSchema` disagrees with its `Deserialize`), this
    /// is `false`, the schema no node passes.
    pub fn schema(&self) -> &Value {
        static UNUSABLE: Value = Value::Bool(false);
        self.shape()
            .map_or(&UNUSABLE, |shape| &shape.schema.validator)
    }

    /// The declared field names in declaration order, without `type`, `id`
    /// and `surfaces` (what `; its fields are …` lists); empty when the
    /// derived schema is unusable.
    pub fn field_names(&self) -> &[String] {
        self.shape().map_or(&[], |shape| &shape.schema.fields)
    }

    /// The node schema and slots, made on first use for a derived schema.
    pub(crate) fn shape(&self) -> Result<&Shape, &IsomerError> {
        self.inner.shape.get()
    }

    /// The compiled validator of the node schema (compiled on the first
    /// call), or why nodes of this type cannot be checked: the message the
    /// validation pass prints after `cannot be checked: `.
    pub(crate) fn validator(&self) -> Result<&jsonschema::Validator, String> {
        let shape = self.shape().map_err(ToString::to_string)?;
        shape
            .schema
            .compiled()
            .map_err(|reason| format!("its schema does not compile ({reason})"))
    }

    /// The child slots read from the schema (none when the derived schema
    /// is unusable).
    fn slot_children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        self.shape()
            .map_or_else(|_| Vec::new(), |shape| shape.slots.children(node))
    }

    /// True when the primitive has its own `html` renderer.
    pub fn has_html_renderer(&self) -> bool {
        self.inner.erased.has_html()
    }

    /// True when the primitive has its own `slack` renderer (otherwise its
    /// Markdown is converted to Block Kit: the capability is `fallback`).
    pub fn has_slack_renderer(&self) -> bool {
        self.inner.erased.has_slack()
    }

    /// The child nodes of `node` through this primitive's hook (explicit, or
    /// derived from the schema's [`Node`](crate::Node) slots), in rendering
    /// order, with paths relative to `node`. Non-object slot values are not
    /// nodes and are skipped.
    pub fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        match &self.inner.children {
            Some(hook) => hook(node),
            None => self.slot_children(node),
        }
    }

    /// The nodes of [`Primitive::children`], in the same order, without
    /// their paths: schema slots are read without allocating a path for
    /// each child (an explicit hook still makes its paths).
    pub(crate) fn child_nodes<'a>(&self, node: &'a Value) -> Vec<&'a Value> {
        match &self.inner.children {
            Some(hook) => hook(node).into_iter().map(|child| child.node).collect(),
            None => self
                .shape()
                .map_or_else(|_| Vec::new(), |shape| shape.slots.child_nodes(node)),
        }
    }

    /// The nested nodes validation visits, each with whether the walker
    /// reaches it: without an explicit hook, every object in a schema slot
    /// ([`Node`](crate::Node) / `#/$defs/bodyNode`), in slot order. With
    /// one, the hook's children in hook order (the walked ones), then every
    /// slot child the hook leaves out (an embedded body), validated but not
    /// walked.
    pub(crate) fn validated_children<'a>(&self, node: &'a Value) -> Vec<(ChildRef<'a>, bool)> {
        let slots = self.slot_children(node);
        let Some(hook) = &self.inner.children else {
            return slots.into_iter().map(|child| (child, true)).collect();
        };
        let mut out: Vec<(ChildRef<'a>, bool)> = Vec::new();
        for child in hook(node) {
            if !out.iter().any(|(seen, _)| seen.path == child.path) {
                out.push((child, true));
            }
        }
        let walked = out.len();
        for child in slots {
            if !out[..walked]
                .iter()
                .any(|(seen, _)| seen.path == child.path)
            {
                out.push((child, false));
            }
        }
        out
    }

    /// The nodes of [`Primitive::validated_children`], without their
    /// paths, in the same order: what the validation pass visits (it works
    /// out a path only for a node with a finding). Schema slots are read
    /// without copying a path for each child.
    pub(crate) fn validated_child_nodes<'a>(&self, node: &'a Value) -> Vec<(&'a Value, bool)> {
        if self.inner.children.is_none() {
            return self
                .child_nodes(node)
                .into_iter()
                .map(|child| (child, true))
                .collect();
        }
        self.validated_children(node)
            .into_iter()
            .map(|(child, walked)| (child.node, walked))
            .collect()
    }

    /// Whether `node` renders content of its own besides its children.
    pub fn has_own_content(&self, node: &Value) -> bool {
        self.inner
            .own_content
            .as_ref()
            .is_some_and(|hook| hook(node))
    }
}
