//! Declaring a primitive: [`Primitive::builder`] and the checks of
//! [`PrimitiveBuilder::build`].

use std::marker::PhantomData;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::catalog::CatalogEntry;
use crate::error::IsomerError;
use crate::schema::node::check_reserved_fields;
use crate::schema::shape::{DeriveFn, LazyShape, declared_fields};
use crate::surface::{Html, Markdown, Scope};
use crate::walk::ChildRef;

use super::refine::RefineContext;
use super::registered::{ChildrenFn, OwnContentFn, Primitive, PrimitiveInner};
use super::typed::{HtmlFn, MarkdownFn, RefineFn, SanitizeFn, SlackFn, TextFn, Typed};

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
    /// derived one: for a plain struct `T`, only its serde field names are
    /// checked at build, the schema itself when it is made and compiled
    /// (see [`PrimitiveBuilder::build`]).
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
    /// on a malformed node (return fewer children instead), and must give
    /// the same children for the same node each time it is called: the
    /// validation pass calls it again to name the path of a finding.
    /// A child's path should lead to the value returned for it: the typed
    /// forms of a check of a [`Document`](crate::Document) share a child's
    /// nodes with the document only when it does (otherwise they hold
    /// copies, which read the same).
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
    ///   `surfaces`;
    /// - [`IsomerError::InvalidSchema`] when the schema is not an object
    ///   schema with `properties` or breaks the draft 2020-12 meta-schema
    ///   (`{"type": 5}`).
    ///
    /// A schema given with [`PrimitiveBuilder::schema_json`] is checked here,
    /// and so is a schema derived from (or made by
    /// [`PrimitiveBuilder::schema_with`] for) a `T` that is not a plain
    /// struct (a newtype, an enum, a struct with a flattened field) or whose
    /// serde field names or aliases include `id` or `surfaces`.
    ///
    /// Otherwise work waits for the first node that needs it, so a process
    /// pays only for the types it meets:
    /// - the schema of a plain struct is derived (or made), normalized and
    ///   read for child slots on first use. It can only be unusable when
    ///   its `JsonSchema` (or the `schema_with` function) disagrees with its
    ///   `Deserialize` (a hand-written implementation, a schemars-only
    ///   rename to `id`); every node of the type is then reported with
    ///   `cannot be checked: ` and the error this method would have
    ///   returned (`primitive "<type>" has an unusable schema: <reason>`),
    ///   and its def in the composition schema is `false`;
    /// - the validator is compiled when the first node of the type is
    ///   checked, and a lazily made schema is checked against the
    ///   meta-schema then. A schema that does not compile (one breaking the
    ///   meta-schema, a `pattern` that is not a regular expression, a `$ref`
    ///   to nothing) is therefore not refused here: every node of the type
    ///   is reported with `cannot be checked: its schema does not compile
    ///   (<reason>)`.
    ///
    /// A pack's conformance test
    /// ([`Runtime::check_examples`](crate::Runtime::check_examples)) makes
    /// and compiles the schema of every primitive that has an example, so
    /// it shows both.
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
        let Some(example) = self.example else {
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
                let make: DeriveFn = match source {
                    SchemaSource::Lazy(make) => make,
                    _ => Box::new(crate::schema::node::derive_schema::<T>),
                };
                // Only a plain struct whose serde fields avoid the reserved
                // names waits: anything else (a newtype, an enum, a
                // flattened struct, a field or alias named `id`) is made
                // and checked now, as a given schema is.
                let plain = declared_fields::<T>().is_some_and(|fields| {
                    check_reserved_fields(&self.type_name, fields.iter().copied()).is_ok()
                });
                if plain {
                    LazyShape::derived(&self.type_name, make)
                } else {
                    LazyShape::given(&self.type_name, make())?
                }
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
