//! Declaring a primitive: [`Primitive::builder`] (upstream
//! `definePrimitive`).
//!
//! A primitive is one node `type` of a vocabulary. It declares
//! - its fields, as the JSON Schema of a Rust struct `T` (`#[derive(Deserialize,
//!   JsonSchema)]`), or a JSON Schema given with [`PrimitiveBuilder::schema_json`];
//! - its catalog entry (purpose, use when, avoid when, example, group);
//! - where its children are: fields typed [`Node`](crate::Node) are child
//!   slots, found from the schema; [`PrimitiveBuilder::children`] replaces that
//!   with an explicit hook;
//! - refinements: rules JSON Schema cannot say, reporting findings with paths
//!   relative to the node ([`PrimitiveBuilder::refine`]);
//! - renderers: `text` and `markdown` required, `html` and `slack` optional
//!   (see [`crate::surface`] for the fallbacks).
//!
//! ```
//! use isomer_sdk::{Markdown, Primitive};
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use serde_json::json;
//!
//! /// A short note.
//! #[derive(Deserialize, JsonSchema)]
//! struct Note {
//!     /// The note's text.
//!     #[schemars(length(min = 1))]
//!     text: String,
//! }
//!
//! let note = Primitive::builder::<Note>("note")
//!     .purpose("A short note.")
//!     .use_when(["the answer is one sentence"])
//!     .example(json!({ "type": "note", "text": "Deploys are frozen." }))
//!     .text(|node, _scope| node.text.clone())
//!     .markdown(|node, _scope| Markdown::paragraph(node.text.as_str()))
//!     .build()
//!     .unwrap();
//! assert_eq!(note.type_name(), "note");
//! ```
//!
//! The node object is strict: keys its schema does not declare are reported
//! (`has unrecognized key(s): …`). Every node also accepts `id` (a non-empty
//! string) and `surfaces` (a non-empty list of surface names); a schema that
//! declares either is refused with [`IsomerError::ReservedNodeField`]. Node
//! structs do not declare `type` (the runtime adds it as a constant).

use std::any::Any;
use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::catalog::CatalogEntry;
use crate::error::IsomerError;
use crate::schema::node::check_reserved_fields;
use crate::schema::shape::{DeriveFn, LazyShape, Shape, declared_fields};
use crate::surface::{Html, Markdown, Scope};
use crate::walk::{ChildRef, ChildWalker};

type TextFn<T> = Box<dyn Fn(&T, &Scope<'_>) -> String + Send + Sync>;
type MarkdownFn<T> = Box<dyn Fn(&T, &Scope<'_>) -> Markdown + Send + Sync>;
type HtmlFn<T> = Box<dyn Fn(&T, &Scope<'_>) -> Html + Send + Sync>;
type SlackFn<T> = Box<dyn Fn(&T, &Scope<'_>) -> Vec<Value> + Send + Sync>;
type RefineFn<T> = Box<dyn Fn(&T, &mut RefineContext<'_>) + Send + Sync>;
type SanitizeFn<T> = Box<dyn Fn(T) -> Option<T> + Send + Sync>;
type ChildrenFn = Box<dyn for<'a> Fn(&'a Value) -> Vec<ChildRef<'a>> + Send + Sync>;
type OwnContentFn = Box<dyn Fn(&Value) -> bool + Send + Sync>;

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
    /// Starts declaring the primitive `type_name`, whose fields are the
    /// JSON Schema of `T` (derived with schemars, draft 2020-12).
    ///
    /// `T` is what refinements and renderers receive: the runtime
    /// deserializes each node into `T` after its schema passed. Use
    /// `T = serde_json::Value` with [`PrimitiveBuilder::schema_json`] to
    /// declare the schema as JSON instead.
    ///
    /// Schema conventions (the Rust spelling of upstream's Zod schemas):
    /// - `Option<X>` and `#[serde(default)]` fields are optional: the key may
    ///   be absent (a `null` is refused, as Zod's `.optional()` does);
    /// - nested structs are ordinary objects: unknown keys in them are
    ///   dropped by `parse`, unless the struct has
    ///   `#[serde(deny_unknown_fields)]` (then they are reported);
    /// - `#[schemars(extend("errorMessage" = "…"))]` sets the message of
    ///   every failure of that field; an object `{ "minLength": "…" }` sets it
    ///   per keyword; custom messages are kept verbatim, as upstream keeps them;
    /// - fields typed [`Node`](crate::Node) (also in `Vec`, `Option`, nested
    ///   structs) are child slots;
    /// - the node object is strict; a schema whose root says
    ///   `"additionalProperties": true` makes a loose node whose extra keys
    ///   pass through (upstream's deliberately loose object schemas).
    pub fn builder<T>(type_name: impl Into<String>) -> PrimitiveBuilder<T>
    where
        T: DeserializeOwned + JsonSchema + 'static,
    {
        PrimitiveBuilder {
            type_name: type_name.into(),
            schema: SchemaSource::Derived,
            purpose: String::new(),
            use_when: Vec::new(),
            avoid_when: Vec::new(),
            example: None,
            examples: Vec::new(),
            group: None,
            children: None,
            own_content: None,
            refinements: Vec::new(),
            sanitize: None,
            text: None,
            markdown: None,
            html: None,
            slack: None,
            _node: PhantomData,
        }
    }

    /// The node `type` this primitive handles.
    pub fn type_name(&self) -> &str {
        &self.inner.entry.type_name
    }

    /// The catalog entry (purpose, use when, avoid when, example, group).
    pub fn catalog_entry(&self) -> &CatalogEntry {
        &self.inner.entry
    }

    /// The conformance examples: the catalog example first, then every
    /// [`PrimitiveBuilder::examples`] node. Each is a bare node.
    pub fn examples(&self) -> &[Value] {
        &self.inner.examples
    }

    /// The node's standalone JSON Schema (draft 2020-12): `type` constant,
    /// the declared fields, `id`, `surfaces`, `required`,
    /// `additionalProperties: false`, its own `$defs`, with child slots as
    /// `{"$ref": "#/$defs/bodyNode"}` and `bodyNode` an object.
    ///
    /// A schema derived from the node's Rust type is derived on the first
    /// call (see [`PrimitiveBuilder::build`]); when that derived schema is
    /// unusable (only a hand-written `JsonSchema` implementation can make
    /// one), this is `false`, the schema no node passes.
    pub fn schema(&self) -> &Value {
        static UNUSABLE: Value = Value::Bool(false);
        self.shape().map_or(&UNUSABLE, |shape| &shape.schema.validator)
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

    /// [`Primitive::validated_children`] with full paths: each child's
    /// path is `base` joined with its path from the node
    /// (`child_node_path`), built in one buffer for schema slots.
    pub(crate) fn validated_children_under<'a>(
        &self,
        node: &'a Value,
        base: &str,
    ) -> Vec<(&'a Value, String, bool)> {
        if self.inner.children.is_none() {
            let Ok(shape) = self.shape() else {
                return Vec::new();
            };
            return shape
                .slots
                .children_under(node, base)
                .into_iter()
                .map(|(child, path)| (child, path, true))
                .collect();
        }
        self.validated_children(node)
            .into_iter()
            .map(|(child, walked)| {
                let path = crate::walk::child_node_path(base, &child.path);
                (child.node, path, walked)
            })
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

/// Where a primitive's node schema comes from.
enum SchemaSource {
    /// Derived from the node's Rust type on first use.
    Derived,
    /// Given as JSON ([`PrimitiveBuilder::schema_json`]), checked at build.
    Given(Value),
    /// Made on first use by a function ([`PrimitiveBuilder::schema_with`]).
    Lazy(DeriveFn),
}

/// The builder [`Primitive::builder`] returns. Every method consumes and
/// returns the builder; [`PrimitiveBuilder::build`] checks it.
#[must_use = "call .build() to get the primitive"]
pub struct PrimitiveBuilder<T> {
    type_name: String,
    schema: SchemaSource,
    purpose: String,
    use_when: Vec<String>,
    avoid_when: Vec<String>,
    example: Option<Value>,
    examples: Vec<Value>,
    group: Option<String>,
    children: Option<ChildrenFn>,
    own_content: Option<OwnContentFn>,
    refinements: Vec<RefineFn<T>>,
    sanitize: Option<SanitizeFn<T>>,
    text: Option<TextFn<T>>,
    markdown: Option<MarkdownFn<T>>,
    html: Option<HtmlFn<T>>,
    slack: Option<SlackFn<T>>,
    _node: PhantomData<fn() -> T>,
}

impl<T> PrimitiveBuilder<T>
where
    T: DeserializeOwned + JsonSchema + 'static,
{
    /// Declares the node's fields as a JSON Schema object (draft 2020-12)
    /// instead of deriving them from `T`: `{"type": "object", "properties":
    /// {...}, "required": [...], "$defs"?: {...}}`. A child slot is
    /// `{"$ref": "#/$defs/bodyNode"}`.
    /// The schema is checked when the primitive is built (see
    /// [`PrimitiveBuilder::build`]).
    pub fn schema_json(mut self, schema: Value) -> Self {
        self.schema = SchemaSource::Given(schema);
        self
    }

    /// Declares the node's fields as the JSON Schema `make` returns, called
    /// the first time the runtime needs the schema instead of at build: for
    /// a schema derived from `T` with settings of one's own (a schemars
    /// transform, say). The schema has the shape
    /// [`PrimitiveBuilder::schema_json`] describes and is treated as a
    /// derived one (see [`PrimitiveBuilder::build`]).
    pub fn schema_with<F>(mut self, make: F) -> Self
    where
        F: Fn() -> Value + Send + Sync + 'static,
    {
        self.schema = SchemaSource::Lazy(Box::new(make));
        self
    }

    /// The one line saying what the primitive is for (required, non-blank).
    pub fn purpose(mut self, purpose: impl Into<String>) -> Self {
        self.purpose = purpose.into();
        self
    }

    /// The user intents that call for the primitive.
    pub fn use_when<I, S>(mut self, items: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.use_when = items.into_iter().map(Into::into).collect();
        self
    }

    /// Look-alike situations, each naming the primitive to use instead.
    pub fn avoid_when<I, S>(mut self, items: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.avoid_when = items.into_iter().map(Into::into).collect();
        self
    }

    /// The catalog example: one valid node (required). It must be an object
    /// whose `type` is this primitive's.
    pub fn example(mut self, node: Value) -> Self {
        self.example = Some(node);
        self
    }

    /// More conformance examples (bare nodes), never printed in prompts.
    pub fn examples<I: IntoIterator<Item = Value>>(mut self, nodes: I) -> Self {
        self.examples.extend(nodes);
        self
    }

    /// The title of the catalog group the primitive belongs to.
    pub fn group(mut self, title: impl Into<String>) -> Self {
        self.group = Some(title.into());
        self
    }

    /// An explicit child hook, replacing the slots derived from the schema:
    /// returns the nested body nodes with paths relative to the node
    /// (`items[0]`, `panes[1].items[0]`), in rendering order. Must not panic
    /// on a malformed node (return fewer children instead).
    pub fn children<F>(mut self, hook: F) -> Self
    where
        F: for<'a> Fn(&'a Value) -> Vec<ChildRef<'a>> + Send + Sync + 'static,
    {
        self.children = Some(Box::new(hook));
        self
    }

    /// Declares that a container renders content of its own besides its
    /// children (upstream `hasOwnContent`), so it renders on a surface even
    /// when every child is hidden there.
    pub fn has_own_content<F>(mut self, hook: F) -> Self
    where
        F: Fn(&Value) -> bool + Send + Sync + 'static,
    {
        self.own_content = Some(Box::new(hook));
        self
    }

    /// Adds a cross-field rule. It runs after the node's whole subtree was
    /// checked, and only when no schema issue was found in it (neither in
    /// the node's own fields nor in any nested node, walked child or
    /// embedded body): Zod skips an object's refinements once a
    /// non-continuable issue was raised inside it. Findings of other
    /// refinements (a child's) do not stop it. So a rule may rely on the
    /// node and its descendants being well-formed.
    ///
    /// Report findings with [`RefineContext::error`], paths relative to the
    /// node (`"label"`, `"items[1].href"`, `""` for the node itself); the
    /// runtime prefixes the node's path and sets `nodeType`. They sort after
    /// every finding inside the node. Several refinements run in the order
    /// added.
    pub fn refine<F>(mut self, rule: F) -> Self
    where
        F: Fn(&T, &mut RefineContext<'_>) + Send + Sync + 'static,
    {
        self.refinements.push(Box::new(rule));
        self
    }

    /// A render-time repair (upstream `sanitize`): receives the node before
    /// any renderer, returns the node to render, or `None` to drop it from
    /// every surface (for example when its essential URL is unsafe).
    pub fn sanitize<F>(mut self, hook: F) -> Self
    where
        F: Fn(T) -> Option<T> + Send + Sync + 'static,
    {
        self.sanitize = Some(Box::new(hook));
        self
    }

    /// The `text` renderer (required): plain text; `""` renders nothing.
    /// Containers render children with [`Scope::text`].
    pub fn text<F>(mut self, renderer: F) -> Self
    where
        F: Fn(&T, &Scope<'_>) -> String + Send + Sync + 'static,
    {
        self.text = Some(Box::new(renderer));
        self
    }

    /// The `markdown` renderer (required): escaped [`Markdown`] built with its
    /// constructors. Containers render children with [`Scope::markdown`].
    pub fn markdown<F>(mut self, renderer: F) -> Self
    where
        F: Fn(&T, &Scope<'_>) -> Markdown + Send + Sync + 'static,
    {
        self.markdown = Some(Box::new(renderer));
        self
    }

    /// The `html` renderer (optional): escaped [`Html`]. Without it the
    /// node's Markdown is converted to HTML.
    pub fn html<F>(mut self, renderer: F) -> Self
    where
        F: Fn(&T, &Scope<'_>) -> Html + Send + Sync + 'static,
    {
        self.html = Some(Box::new(renderer));
        self
    }

    /// The `slack` renderer (optional): Block Kit blocks. Without it the
    /// node's Markdown is converted to Block Kit (capability `fallback`).
    pub fn slack<F>(mut self, renderer: F) -> Self
    where
        F: Fn(&T, &Scope<'_>) -> Vec<Value> + Send + Sync + 'static,
    {
        self.slack = Some(Box::new(renderer));
        self
    }

    /// Checks the declaration and builds the primitive.
    ///
    /// # Errors
    /// - [`IsomerError::InvalidPrimitive`] when the type is empty or
    ///   `bodyNode` (the name of the body-node union def), the purpose is
    ///   blank, the example is missing or not a node of this
    ///   type, or the `text`/`markdown` renderer is missing;
    /// - [`IsomerError::ReservedNodeField`] when the schema declares `id` or
    ///   `surfaces` (for a derived schema: when the struct `T` has a field
    ///   of that serde name);
    /// - [`IsomerError::InvalidSchema`] when a schema given with
    ///   [`PrimitiveBuilder::schema_json`] is not an object schema with
    ///   `properties` or breaks the draft 2020-12 meta-schema
    ///   (`{"type": 5}`).
    ///
    /// Work waits for the first node that needs it, so a process pays only
    /// for the types it meets:
    /// - a schema derived from `T` (or made by
    ///   [`PrimitiveBuilder::schema_with`]) is derived, normalized and read
    ///   for child slots on first use (the struct's field names are read now,
    ///   from its `Deserialize` implementation, for the reserved-field
    ///   check); if it is unusable, which only a hand-written `JsonSchema`
    ///   implementation can cause, every node of the type is reported with
    ///   `cannot be checked: primitive "<type>" has an unusable schema:
    ///   <reason>`;
    /// - the validator is compiled when the first node of the type is
    ///   checked, and a derived schema is checked against the meta-schema
    ///   then. A schema that does not compile (a `pattern` that is not a
    ///   regular expression, a `$ref` to nothing) is therefore not refused
    ///   here: every node of the type is reported with `cannot be checked:
    ///   its schema does not compile (<reason>)`.
    ///
    /// A pack's conformance test
    /// ([`Runtime::check_examples`](crate::Runtime::check_examples)) shows
    /// both.
    pub fn build(self) -> Result<Primitive, IsomerError> {
        let invalid = |reason: &str| IsomerError::InvalidPrimitive {
            type_name: self.type_name.clone(),
            reason: reason.to_owned(),
        };
        if self.type_name.is_empty() {
            return Err(invalid("the type is empty"));
        }
        if self.type_name == crate::node::BODY_NODE_DEF {
            // The schemas key each primitive's def by its type, beside the
            // body-node union `bodyNode`: a primitive of that name would
            // replace the union (and with it every other def).
            return Err(invalid(
                "the type bodyNode is reserved for the body-node union of the schema",
            ));
        }
        if crate::js::js_trim(&self.purpose).is_empty() {
            return Err(invalid("the catalog purpose is blank"));
        }
        let Some(example) = self.example.clone() else {
            return Err(invalid("the catalog example is missing"));
        };
        if example.get("type").and_then(Value::as_str) != Some(self.type_name.as_str()) {
            return Err(invalid("the catalog example is not a node of this type"));
        }
        let (Some(text), Some(markdown)) = (self.text, self.markdown) else {
            return Err(IsomerError::InvalidPrimitive {
                type_name: self.type_name,
                reason: "the text and markdown renderers are required".to_owned(),
            });
        };
        let shape = match self.schema {
            SchemaSource::Given(schema) => LazyShape::given(&self.type_name, schema)?,
            source => {
                if let Some(fields) = declared_fields::<T>() {
                    check_reserved_fields(&self.type_name, fields.iter().copied())?;
                }
                let make: DeriveFn = match source {
                    SchemaSource::Lazy(make) => make,
                    _ => Box::new(crate::schema::node::derive_schema::<T>),
                };
                LazyShape::derived(&self.type_name, make)
            }
        };
        let mut examples = vec![example.clone()];
        examples.extend(self.examples);
        let erased = Typed::<T> {
            refinements: self.refinements,
            sanitize: self.sanitize,
            text,
            markdown,
            html: self.html,
            slack: self.slack,
        };
        Ok(Primitive {
            inner: Arc::new(PrimitiveInner {
                entry: CatalogEntry {
                    type_name: self.type_name,
                    purpose: self.purpose,
                    use_when: self.use_when,
                    avoid_when: self.avoid_when,
                    example,
                    group: self.group,
                },
                examples,
                shape,
                children: self.children,
                own_content: self.own_content,
                erased: Box::new(erased),
            }),
        })
    }
}

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

/// The typed form of one node in a pass: nothing yet, the form its
/// refinements read (before `sanitize`), or the form its renderers read
/// (after `sanitize`; `None` when `sanitize` dropped the node or it does not
/// deserialize). A node is deserialized at most once per pass: the
/// refinements' form becomes the renderers' one.
#[derive(Default)]
pub(crate) enum TypedSlot {
    /// Not deserialized yet.
    #[default]
    Empty,
    /// Deserialized for the refinements.
    Refined(Box<dyn Any>),
    /// Ready to render.
    Prepared(Option<Box<dyn Any>>),
}

/// The typed closures of one primitive, behind an object-safe face. Each
/// method takes the node's [`TypedSlot`] and fills it.
pub(crate) trait ErasedPrimitive: Send + Sync {
    fn has_html(&self) -> bool;
    fn has_slack(&self) -> bool;
    /// Runs the refinements; `Err` when the node does not deserialize.
    fn refine(
        &self,
        node: &Value,
        slot: &mut TypedSlot,
        ctx: &mut RefineContext<'_>,
    ) -> Result<(), String>;
    fn text(&self, node: &Value, slot: &RefCell<TypedSlot>, scope: &Scope<'_>) -> String;
    fn markdown(&self, node: &Value, slot: &RefCell<TypedSlot>, scope: &Scope<'_>) -> Markdown;
    /// `None` when the primitive has no html renderer.
    fn html(&self, node: &Value, slot: &RefCell<TypedSlot>, scope: &Scope<'_>) -> Option<Html>;
    /// `None` when the primitive has no slack renderer.
    fn slack(
        &self,
        node: &Value,
        slot: &RefCell<TypedSlot>,
        scope: &Scope<'_>,
    ) -> Option<Vec<Value>>;
}

/// Deserializes a node into its struct. JSON (and Zod) make no difference
/// between `1` and `1.0`: the schema's `integer` accepts both, but serde
/// refuses a float for an integer field. So when the first attempt fails
/// and the node holds integral floats, they are rewritten as integers in a
/// copy and the copy is tried (the common case costs nothing extra).
fn deserialize_node<T: DeserializeOwned>(node: &Value) -> Result<T, serde_json::Error> {
    let error = match T::deserialize(node) {
        Ok(typed) => return Ok(typed),
        Err(error) => error,
    };
    let mut copy = node.clone();
    if !integralize(&mut copy) {
        return Err(error);
    }
    T::deserialize(&copy)
}

/// Rewrites every float with no fraction that fits an `i64`/`u64` as that
/// integer, in place and iteratively; true when something changed.
fn integralize(value: &mut Value) -> bool {
    let mut changed = false;
    let mut pending: Vec<&mut Value> = vec![value];
    while let Some(current) = pending.pop() {
        match current {
            Value::Array(items) => pending.extend(items.iter_mut()),
            Value::Object(map) => pending.extend(map.values_mut()),
            Value::Number(number) if number.is_f64() => {
                let float = number.as_f64().unwrap_or(f64::NAN);
                if float.fract() != 0.0 || !float.is_finite() {
                    continue;
                }
                // 2^63 and 2^64 are exact doubles: the casts below are exact
                // inside these bounds.
                if (0.0..18_446_744_073_709_551_616.0).contains(&float) {
                    *number = serde_json::Number::from(float as u64);
                    changed = true;
                } else if (-9_223_372_036_854_775_808.0..0.0).contains(&float) {
                    *number = serde_json::Number::from(float as i64);
                    changed = true;
                }
            }
            _ => {}
        }
    }
    changed
}

struct Typed<T> {
    refinements: Vec<RefineFn<T>>,
    sanitize: Option<SanitizeFn<T>>,
    text: TextFn<T>,
    markdown: MarkdownFn<T>,
    html: Option<HtmlFn<T>>,
    slack: Option<SlackFn<T>>,
}

impl<T: DeserializeOwned + 'static> Typed<T> {
    /// Calls `render` with the node ready to render (deserialized, unless
    /// the refinements already did, then sanitized), kept in `slot` for
    /// the node's other renders; `None` when the node is dropped.
    fn with_prepared<R>(
        &self,
        node: &Value,
        slot: &RefCell<TypedSlot>,
        render: impl FnOnce(&T) -> R,
    ) -> Option<R> {
        {
            let mut slot = slot.borrow_mut();
            if !matches!(*slot, TypedSlot::Prepared(_)) {
                let typed = match std::mem::take(&mut *slot) {
                    TypedSlot::Refined(typed) => typed.downcast::<T>().ok().map(|typed| *typed),
                    _ => deserialize_node::<T>(node).ok(),
                };
                let prepared = match (&self.sanitize, typed) {
                    (Some(hook), Some(typed)) => hook(typed),
                    (None, typed) => typed,
                    (_, None) => None,
                };
                *slot = TypedSlot::Prepared(prepared.map(|typed| Box::new(typed) as Box<dyn Any>));
            }
        }
        let slot = slot.borrow();
        match &*slot {
            TypedSlot::Prepared(Some(typed)) => typed.downcast_ref::<T>().map(render),
            _ => None,
        }
    }
}

impl<T: DeserializeOwned + 'static> ErasedPrimitive for Typed<T> {
    fn has_html(&self) -> bool {
        self.html.is_some()
    }

    fn has_slack(&self) -> bool {
        self.slack.is_some()
    }

    fn refine(
        &self,
        node: &Value,
        slot: &mut TypedSlot,
        ctx: &mut RefineContext<'_>,
    ) -> Result<(), String> {
        if self.refinements.is_empty() {
            return Ok(());
        }
        let typed = deserialize_node::<T>(node).map_err(|error| error.to_string())?;
        for rule in &self.refinements {
            rule(&typed, ctx);
        }
        *slot = TypedSlot::Refined(Box::new(typed));
        Ok(())
    }

    fn text(&self, node: &Value, slot: &RefCell<TypedSlot>, scope: &Scope<'_>) -> String {
        self.with_prepared(node, slot, |typed| (self.text)(typed, scope))
            .unwrap_or_default()
    }

    fn markdown(&self, node: &Value, slot: &RefCell<TypedSlot>, scope: &Scope<'_>) -> Markdown {
        self.with_prepared(node, slot, |typed| (self.markdown)(typed, scope))
            .unwrap_or_default()
    }

    fn html(&self, node: &Value, slot: &RefCell<TypedSlot>, scope: &Scope<'_>) -> Option<Html> {
        let renderer = self.html.as_ref()?;
        Some(
            self.with_prepared(node, slot, |typed| renderer(typed, scope))
                .unwrap_or_default(),
        )
    }

    fn slack(
        &self,
        node: &Value,
        slot: &RefCell<TypedSlot>,
        scope: &Scope<'_>,
    ) -> Option<Vec<Value>> {
        let renderer = self.slack.as_ref()?;
        Some(
            self.with_prepared(node, slot, |typed| renderer(typed, scope))
                .unwrap_or_default(),
        )
    }
}
