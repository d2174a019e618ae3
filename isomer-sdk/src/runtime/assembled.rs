//! [`Runtime`]: the assembled vocabulary, what it holds and what it does:
//! parse, validate and check compositions, render them, export its schemas
//! and authoring context, serve its frames and views, report capabilities.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::Value;

use crate::budget::InputBudget;
use crate::capabilities::{Capabilities, SurfaceSupport};
use crate::catalog::{
    AuthoringContext, CatalogEntry, PrimitiveDescriptions, PrimitiveGroup, ViewSummary,
};
use crate::dispatch::Dispatch;
use crate::error::{CompositionValidationError, IsomerError, ValidationError};
use crate::frame::Frame;
use crate::inventory::Inventory;
use crate::json::Document;
use crate::pack::Pack;
use crate::primitive::Primitive;
use crate::surface::html::HtmlRender;
use crate::surface::options::{RenderOptions, ValidationMode};
use crate::surface::render::{Rendered, Surface, render_body};
use crate::surface::slack::SlackRender;
use crate::surface::{RUNTIME_SURFACES, Scope};
use crate::validate::{CheckedValidation, Engine, Measure, ParsedComposition};
use crate::view::{ViewRegistry, ViewResponse};
use crate::walk::{ChildRef, ChildWalker};

use super::checked::Checked;

/// An assembled runtime. `C` is the host context registered views receive
/// (`()` when the host has none).
pub struct Runtime<C = ()> {
    pub(super) packs: Vec<Pack>,
    pub(super) inventory: Inventory,
    pub(super) groups: Vec<PrimitiveGroup>,
    pub(super) frames: Vec<Frame>,
    pub(super) default_frame: Option<String>,
    pub(super) views: ViewRegistry<C>,
    pub(super) budget: InputBudget,
    pub(super) formats: Vec<String>,
    /// Built by [`Runtime::composition_schema`] on first use.
    pub(super) composition_schema: OnceLock<Value>,
    /// Built by [`Runtime::authoring_schema`] on first use.
    pub(super) authoring_schema: OnceLock<Value>,
    pub(super) authoring: crate::schema::authoring::AuthoringOptions,
}

impl<C> std::fmt::Debug for Runtime<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field(
                "packs",
                &self.packs.iter().map(Pack::id).collect::<Vec<_>>(),
            )
            .field("frames", &self.frames)
            .finish_non_exhaustive()
    }
}

impl<C: Send + 'static> Runtime<C> {
    /// The packs, as passed.
    pub fn packs(&self) -> &[Pack] {
        &self.packs
    }

    /// Every primitive of every pack, flattened in pack order (the
    /// dispatcher's inventory).
    pub fn primitives(&self) -> &[Primitive] {
        self.inventory.primitives()
    }

    /// The primitive of `type_name`.
    pub fn primitive(&self, type_name: &str) -> Option<&Primitive> {
        self.inventory.get(type_name)
    }

    /// Every primitive's catalog entry, registration order.
    pub fn catalog(&self) -> Vec<CatalogEntry> {
        self.primitives()
            .iter()
            .map(|p| p.catalog_entry().clone())
            .collect()
    }

    /// Every pack's groups, pack order.
    pub fn groups(&self) -> &[PrimitiveGroup] {
        &self.groups
    }

    /// The input budget in force.
    pub fn input_budget(&self) -> InputBudget {
        self.budget
    }

    /// A walker over every primitive's child hook (the runtime itself).
    pub fn walker(&self) -> &dyn ChildWalker {
        &self.inventory
    }

    /// Untrusted input (model output), upstream `parse`: the input budget,
    /// then the schema and refinements. Valid → the *sanitized* copy
    /// (unknown keys of non-strict nested objects dropped). No duplicate-id
    /// finding, no warnings. A projection of the one pass
    /// ([`Runtime::check`]).
    ///
    /// Takes the [`Document`] the pass reads (see [`Runtime::check`]): an
    /// owned `Value` or `Document` moves in, and when sanitizing drops
    /// nothing the copy is that value itself, moved out; a `&Document`
    /// shares its tree (the copy is then cloned from it); a `&Value` is
    /// deep-copied into a document first.
    pub fn parse(&self, composition: impl Into<Document>) -> ParsedComposition {
        Engine::shared().parse(&self.inventory, composition.into(), self.budget)
    }

    /// Trusted input, upstream `validate`: budget, schema and refinements,
    /// then duplicate ids and empty-surface warnings. `composition` is the
    /// checked copy (absent only when the budget refused). A projection of
    /// the one pass.
    ///
    /// Takes the [`Document`] the pass reads, as [`Runtime::parse`] does:
    /// an owned value is moved out again as the checked copy, not copied.
    pub fn validate(&self, composition: impl Into<Document>) -> CheckedValidation {
        Engine::shared().validate(
            &self.inventory,
            composition.into(),
            Measure::Check(self.budget),
        )
    }

    /// [`Runtime::validate`] of JSON text, with the input budget enforced
    /// while the text is read ([`Document::parse_within`](crate::Document::parse_within)):
    /// text over the budget is refused without being built (the refusal is
    /// the only finding and `composition` is `None`), so hostile text costs
    /// little more memory than itself. Within the budget, the result is
    /// `validate` of the text's value.
    ///
    /// # Errors
    /// [`JsonSyntaxError`](crate::JsonSyntaxError) when the text is not JSON
    /// (checked over the whole text before the budget, as `JSON.parse` runs
    /// before upstream's budget check).
    pub fn validate_json(&self, text: &str) -> Result<CheckedValidation, crate::JsonSyntaxError> {
        Engine::shared().validate_json(&self.inventory, text, self.budget)
    }

    /// Model output checked the way a host reads it: `parse`, then
    /// `validate` of the sanitized copy, in one pass over `value` (a second
    /// pass over the copy only when sanitizing dropped a key). The result
    /// holds the findings, the copy (or, when sanitizing dropped nothing,
    /// a borrow of `value` itself: no copy is made), and the typed form of
    /// every node the pass deserialized, so [`Checked::render`] renders
    /// without checking or deserializing again.
    ///
    /// The typed forms share the child nodes they hold with `document`
    /// instead of copying them, and its read count, when it was read from
    /// text within the budget ([`Runtime::read`]), spares the budget's walk
    /// (see [`Document`](crate::Document)).
    pub fn check<'a>(&'a self, document: &'a Document) -> Checked<'a> {
        Checked::new(Engine::shared(), &self.inventory, self.budget, document)
    }

    /// Reads model output under this runtime's input budget
    /// ([`Document::parse_within`](crate::Document::parse_within)): what
    /// [`Runtime::check`] takes. Text over the budget is refused at the first
    /// value over it, in memory close to the text's own size.
    ///
    /// # Errors
    /// [`JsonRefusal::Syntax`](crate::JsonRefusal::Syntax) when the text is
    /// not JSON; [`JsonRefusal::OverBudget`](crate::JsonRefusal::OverBudget)
    /// when it is over the budget ([`BudgetRefusal::to_error`](crate::budget::BudgetRefusal::to_error)
    /// gives upstream's `INPUT_OVER_BUDGET` finding).
    pub fn read(&self, text: &str) -> Result<Document, crate::JsonRefusal> {
        Document::parse_within(text, self.budget)
    }

    /// Renders a composition on `surface` (validating first, in the same
    /// pass whose typed nodes the renderers read).
    ///
    /// Takes the [`Document`] the pass reads, as [`Runtime::parse`] does: the
    /// typed forms share their child nodes with it. Pass an owned `Value`,
    /// a [`Document`] (or a `&Document`, shared); a `&Value` is deep-copied
    /// into a document first.
    ///
    /// # Errors
    /// [`CompositionValidationError`] when the composition is invalid and
    /// the mode is `Throw`, or the budget refused it (any mode).
    pub fn render(
        &self,
        surface: Surface,
        composition: impl Into<Document>,
        options: &RenderOptions,
    ) -> Result<Rendered, CompositionValidationError> {
        let mode = options
            .on_validation_error
            .unwrap_or(surface.default_mode());
        let document = composition.into();
        let pass = Engine::shared().run(&self.inventory, &document, Measure::Check(self.budget));
        let valid = pass.valid();
        let (refused, visits, errors, _) = pass.into_parts();
        if refused || (!valid && mode == ValidationMode::Throw) {
            return Err(CompositionValidationError { errors });
        }
        // Upstream renders the checked copy; the borrowed value is that
        // copy's content, so it is rendered without copying it.
        let dispatch = Dispatch::in_pass(&self.inventory, &visits);
        Ok(render_body(
            Scope::new(&dispatch),
            surface,
            &document,
            options,
            errors,
        ))
    }

    /// Renders one node on `surface`: validated as the sole body node of
    /// `{ "type": "view", "body": [node] }`, no heading.
    ///
    /// # Errors
    /// As [`Runtime::render`].
    pub fn render_node(
        &self,
        surface: Surface,
        node: &Value,
        mode: Option<ValidationMode>,
    ) -> Result<Rendered, CompositionValidationError> {
        let view = serde_json::json!({ "type": "view", "body": [node] });
        self.render(
            surface,
            view,
            &RenderOptions {
                heading: false,
                on_validation_error: mode,
                ..RenderOptions::default()
            },
        )
    }

    /// The text surface: `TITLE`, subtitle, each node's text,
    /// empty ones dropped, joined by a blank line.
    ///
    /// # Errors
    /// As [`Runtime::render`].
    pub fn render_text(
        &self,
        composition: impl Into<Document>,
        options: &RenderOptions,
    ) -> Result<String, CompositionValidationError> {
        self.render(Surface::Text, composition, options)
            .map(|r| r.to_text())
    }

    /// The Markdown surface: `# title`, `_subtitle_`, each node's Markdown.
    ///
    /// # Errors
    /// As [`Runtime::render`].
    pub fn render_markdown(
        &self,
        composition: impl Into<Document>,
        options: &RenderOptions,
    ) -> Result<String, CompositionValidationError> {
        self.render(Surface::Markdown, composition, options)
            .map(|r| r.to_text())
    }

    /// The HTML surface (collects findings by default).
    ///
    /// # Errors
    /// As [`Runtime::render`].
    pub fn render_html(
        &self,
        composition: impl Into<Document>,
        options: &RenderOptions,
    ) -> Result<HtmlRender, CompositionValidationError> {
        match self.render(Surface::Html, composition, options)? {
            Rendered::Html(html) => Ok(html),
            _ => unreachable!("the html surface renders html"),
        }
    }

    /// The Slack surface: `{ text, blocks }`.
    ///
    /// # Errors
    /// As [`Runtime::render`].
    pub fn render_slack(
        &self,
        composition: impl Into<Document>,
        options: &RenderOptions,
    ) -> Result<SlackRender, CompositionValidationError> {
        match self.render(Surface::Slack, composition, options)? {
            Rendered::Slack(slack) => Ok(slack),
            _ => unreachable!("the slack surface renders slack"),
        }
    }

    /// The validator projection of the composition JSON Schema:
    /// draft 2020-12, `$defs` per type plus `bodyNode`, `id`/`surfaces`
    /// kept. What the `isomer://composition-schema`-style resources serve
    /// when they need the exact validator shape.
    ///
    /// Built on the first call and kept (a runtime that never exports it
    /// never builds it).
    pub fn composition_schema(&self) -> &Value {
        self.composition_schema.get_or_init(|| {
            crate::schema::composition::composition_schema(self.inventory.primitives(), None)
        })
    }

    /// The authoring projection: what a model reads.
    /// Built on the first call and kept.
    pub fn authoring_schema(&self) -> &Value {
        self.authoring_schema.get_or_init(|| {
            crate::schema::authoring::authoring_schema(self.composition_schema(), &self.authoring)
        })
    }

    /// The authoring context: authoring schema, catalog entries, groups and
    /// the views registered now.
    pub fn authoring_context(&self) -> AuthoringContext {
        AuthoringContext {
            schema: self.authoring_schema().clone(),
            primitives: self.catalog(),
            groups: self.groups.clone(),
            views: self.views.list(),
        }
    }

    /// The authoring schema restricted to `types` (the body union lists only
    /// them, and only what they reach is kept).
    ///
    /// # Errors
    /// [`IsomerError::UnknownPrimitiveType`] naming the unknown types.
    pub fn schema_for(&self, types: &[&str]) -> Result<Value, IsomerError> {
        let primitives = self.lookup(types, "getAuthoringContext.schemaFor")?;
        let composition = crate::schema::composition::composition_schema(&primitives, None);
        Ok(crate::schema::authoring::authoring_schema(
            &composition,
            &self.authoring,
        ))
    }

    /// Catalog entries, reachable `$defs` and field descriptors (`props`)
    /// of `types` (upstream `describePrimitives`): types deduplicated in
    /// first-seen order; `bodyNode` replaced by a one-line stub.
    ///
    /// # Errors
    /// - [`IsomerError::TooManyTypes`] when more than
    ///   100 distinct types are asked for, checked first;
    /// - [`IsomerError::UnknownPrimitiveType`] naming every unknown type
    ///   (message `getAuthoringContext.describePrimitives: unknown primitive
    ///   type(s) "a", "b"`).
    pub fn describe_primitives(
        &self,
        types: &[&str],
    ) -> Result<PrimitiveDescriptions, IsomerError> {
        crate::schema::describe::check_type_count(types, "getAuthoringContext.describePrimitives")?;
        let primitives = self.lookup(types, "getAuthoringContext.describePrimitives")?;
        Ok(crate::schema::describe::describe_primitives(
            self.authoring_schema(),
            &primitives,
        ))
    }

    /// The primitives of `types`, deduplicated; every unknown one named.
    fn lookup(&self, types: &[&str], context: &str) -> Result<Vec<Primitive>, IsomerError> {
        let mut unknown: Vec<String> = Vec::new();
        let mut found: Vec<Primitive> = Vec::new();
        for type_name in types {
            match self.inventory.get(type_name) {
                Some(primitive) => {
                    if !found.iter().any(|p| p.type_name() == *type_name) {
                        found.push(primitive.clone());
                    }
                }
                None => {
                    if !unknown.iter().any(|u| u == type_name) {
                        unknown.push((*type_name).to_owned());
                    }
                }
            }
        }
        if !unknown.is_empty() {
            return Err(IsomerError::UnknownPrimitiveType {
                context: context.to_owned(),
                types: unknown,
            });
        }
        Ok(found)
    }

    /// Validates every primitive's conformance examples, each as the sole
    /// body node of `{ "type": "view", "body": [example] }`, and returns the
    /// failing ones as `(type, example index, findings)` (index 0 is the
    /// catalog example). Empty when every example is valid: a pack's
    /// conformance test asserts exactly that.
    pub fn check_examples(&self) -> Vec<(String, usize, Vec<ValidationError>)> {
        let mut failing = Vec::new();
        for primitive in self.primitives() {
            for (index, example) in primitive.examples().iter().enumerate() {
                let checked =
                    self.validate(serde_json::json!({ "type": "view", "body": [example] }));
                if !checked.valid {
                    failing.push((primitive.type_name().to_owned(), index, checked.errors));
                }
            }
        }
        failing
    }

    /// The registered frames, registration order.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The frame called `name`, or the default frame for `None`.
    ///
    /// # Errors
    /// [`IsomerError::UnknownFrame`] when no frame has that name (or there
    /// is no default).
    pub fn frame(&self, name: Option<&str>) -> Result<&Frame, IsomerError> {
        let wanted = name.or(self.default_frame.as_deref());
        wanted
            .and_then(|wanted| self.frames.iter().find(|frame| frame.name() == wanted))
            .ok_or_else(|| IsomerError::UnknownFrame {
                name: wanted.unwrap_or("").to_owned(),
            })
    }

    /// The view registry (register more views at any time).
    pub fn views(&self) -> &ViewRegistry<C> {
        &self.views
    }

    /// Every registered view's summary, registration order.
    pub fn list_views(&self) -> Vec<ViewSummary> {
        self.views.list()
    }

    /// Requests a registered view (upstream `viewRegistry.request`): checks
    /// the input against the budget and the view's input schema, awaits the
    /// builder with `context`, validates the built composition (reported,
    /// not enforced).
    ///
    /// # Errors
    /// [`IsomerError::UnknownView`], [`IsomerError::ViewInputInvalid`].
    pub async fn request_view(
        &self,
        id: &str,
        context: C,
        input: Value,
    ) -> Result<ViewResponse, IsomerError> {
        self.views
            .request_with(id, context, input, |built| self.validate(built))
            .await
    }

    /// What the runtime renders: types, surfaces, formats, and per type and
    /// surface whether the primitive's own renderer or a fallback is used.
    pub fn capabilities(&self) -> Capabilities {
        let mut support = BTreeMap::new();
        for primitive in self.primitives() {
            let mut surfaces = BTreeMap::new();
            for surface in RUNTIME_SURFACES {
                let native = match surface {
                    "html" => primitive.has_html_renderer(),
                    "slack" => primitive.has_slack_renderer(),
                    _ => true,
                };
                let level = if native {
                    SurfaceSupport::Native
                } else {
                    SurfaceSupport::Fallback
                };
                surfaces.insert(surface.to_owned(), level);
            }
            support.insert(primitive.type_name().to_owned(), surfaces);
        }
        Capabilities {
            primitives: self.inventory.types().map(str::to_owned).collect(),
            surfaces: RUNTIME_SURFACES.iter().map(|s| (*s).to_owned()).collect(),
            formats: self.formats.clone(),
            support,
        }
    }
}

impl<C> ChildWalker for Runtime<C> {
    fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        self.inventory.children(node)
    }

    fn child_nodes<'a>(&self, node: &'a Value) -> Vec<&'a Value> {
        self.inventory.child_nodes(node)
    }

    fn has_own_content(&self, node: &Value) -> bool {
        self.inventory.has_own_content(node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::Markdown;
    use serde_json::json;

    fn leaf(type_name: &str) -> Primitive {
        Primitive::builder::<Value>(type_name)
            .schema_json(
                json!({ "type": "object", "properties": { "text": { "type": "string" } } }),
            )
            .purpose("A leaf.")
            .example(json!({ "type": type_name, "text": "x" }))
            .text(|_, _| String::new())
            .markdown(|_, _| Markdown::new())
            .build()
            .unwrap()
    }

    #[test]
    fn a_check_compiles_only_the_validators_of_the_types_it_meets() {
        let runtime = Runtime::builder()
            .pack(
                Pack::new("p")
                    .primitive(leaf("a"))
                    .primitive(leaf("b"))
                    .build()
                    .unwrap(),
            )
            .build()
            .unwrap();
        let compiled = |type_name: &str| {
            runtime
                .primitive(type_name)
                .unwrap()
                .shape()
                .unwrap()
                .schema
                .is_compiled()
        };
        assert_eq!((compiled("a"), compiled("b")), (false, false));
        assert!(runtime.composition_schema.get().is_none());
        assert!(runtime.authoring_schema.get().is_none());
        let view = json!({ "type": "view", "body": [ { "type": "a", "text": "x" } ] });
        assert!(runtime.check(&Document::new(view.clone())).valid());
        assert_eq!((compiled("a"), compiled("b")), (true, false));
        assert!(runtime.composition_schema.get().is_none());
        assert_eq!(
            runtime.authoring_schema()["$defs"]["b"]["properties"]["text"],
            json!({ "type": "string" })
        );
        assert!(runtime.composition_schema.get().is_some());
    }

    /// A node type whose schema is derived from its fields.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Note {
        #[allow(dead_code)]
        text: String,
    }

    fn derived(type_name: &str) -> Primitive {
        Primitive::builder::<Note>(type_name)
            .purpose("A note.")
            .example(json!({ "type": type_name, "text": "x" }))
            .text(|note, _| note.text.clone())
            .markdown(|_, _| Markdown::new())
            .build()
            .unwrap()
    }

    #[test]
    fn a_derived_schema_is_derived_when_a_node_of_its_type_is_first_checked() {
        let runtime = Runtime::builder()
            .pack(
                Pack::new("p")
                    .primitive(derived("a"))
                    .primitive(derived("b"))
                    .build()
                    .unwrap(),
            )
            .build()
            .unwrap();
        let derived =
            |type_name: &str| runtime.primitive(type_name).unwrap().inner.shape.is_ready();
        assert_eq!((derived("a"), derived("b")), (false, false));
        let view = json!({ "type": "view", "body": [ { "type": "a", "text": "x" } ] });
        assert!(runtime.check(&Document::new(view.clone())).valid());
        assert_eq!((derived("a"), derived("b")), (true, false));
        assert_eq!(
            runtime.primitive("b").unwrap().field_names(),
            ["text".to_owned()]
        );
        assert_eq!((derived("a"), derived("b")), (true, true));
    }
}
