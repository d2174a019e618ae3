//! The typed side of a primitive: the node deserialized into its Rust type
//! once per pass ([`TypedSlot`]), and the type's closures behind an
//! object-safe face ([`ErasedPrimitive`]).

use std::any::Any;
use std::cell::RefCell;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::surface::{Html, Markdown, Scope};

use super::refine::RefineContext;
use super::source::NodeSource;

pub(super) type TextFn<T> = Box<dyn Fn(&T, &Scope<'_>) -> String + Send + Sync>;
pub(super) type MarkdownFn<T> = Box<dyn Fn(&T, &Scope<'_>) -> Markdown + Send + Sync>;
pub(super) type HtmlFn<T> = Box<dyn Fn(&T, &Scope<'_>) -> Html + Send + Sync>;
pub(super) type SlackFn<T> = Box<dyn Fn(&T, &Scope<'_>) -> Vec<Value> + Send + Sync>;
pub(super) type RefineFn<T> = Box<dyn Fn(&T, &mut RefineContext<'_>) + Send + Sync>;
pub(super) type SanitizeFn<T> = Box<dyn Fn(T) -> Option<T> + Send + Sync>;

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

/// A node as a render reaches it: read through `source`, its typed form
/// kept in `slot` (the pass's slot of its visit, or a fresh one).
#[derive(Clone, Copy)]
pub(crate) struct HeldNode<'a> {
    pub(crate) source: NodeSource<'a>,
    pub(crate) slot: &'a RefCell<TypedSlot>,
}

/// The typed closures of one primitive, behind an object-safe face. Each
/// method takes the node's [`TypedSlot`] and fills it.
pub(crate) trait ErasedPrimitive: Send + Sync {
    fn has_html(&self) -> bool;
    fn has_slack(&self) -> bool;
    /// Runs the refinements; `Err` when the node does not deserialize.
    fn refine(
        &self,
        node: NodeSource<'_>,
        slot: &mut TypedSlot,
        ctx: &mut RefineContext<'_>,
    ) -> Result<(), String>;
    fn text(&self, node: HeldNode<'_>, scope: &Scope<'_>) -> String;
    fn markdown(&self, node: HeldNode<'_>, scope: &Scope<'_>) -> Markdown;
    /// `None` when the primitive has no html renderer.
    fn html(&self, node: HeldNode<'_>, scope: &Scope<'_>) -> Option<Html>;
    /// `None` when the primitive has no slack renderer.
    fn slack(&self, node: HeldNode<'_>, scope: &Scope<'_>) -> Option<Vec<Value>>;
}

/// Deserializes a node into its struct. JSON (and Zod) make no difference
/// between `1` and `1.0`: the schema's `integer` accepts both, but serde
/// refuses a float for an integer field. So when the first attempt fails
/// and the node holds integral floats, they are rewritten as integers in a
/// copy and the copy is tried (the common case costs nothing extra).
///
/// Both attempts read through [`NodeSource`], so the child nodes that `T`
/// holds in its struct, sequence and option fields are made whole: from
/// `node` as its source makes them, and as clones from the copy.
fn deserialize_node<T: DeserializeOwned>(node: NodeSource<'_>) -> Result<T, serde_json::Error> {
    let error = match T::deserialize(node) {
        Ok(typed) => return Ok(typed),
        Err(error) => error,
    };
    let mut copy = node.value().clone();
    if !integralize(&mut copy) {
        return Err(error);
    }
    T::deserialize(NodeSource::new(&copy))
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

/// The closures a [`PrimitiveBuilder`](super::PrimitiveBuilder) collected
/// for the node type `T`.
pub(super) struct Typed<T> {
    pub(super) refinements: Vec<RefineFn<T>>,
    pub(super) sanitize: Option<SanitizeFn<T>>,
    pub(super) text: TextFn<T>,
    pub(super) markdown: MarkdownFn<T>,
    pub(super) html: Option<HtmlFn<T>>,
    pub(super) slack: Option<SlackFn<T>>,
}

impl<T: DeserializeOwned + 'static> Typed<T> {
    /// Calls `render` with the node ready to render (deserialized, unless
    /// the refinements already did, then sanitized), kept in `slot` for
    /// the node's other renders; `None` when the node is dropped.
    fn with_prepared<R>(&self, node: HeldNode<'_>, render: impl FnOnce(&T) -> R) -> Option<R> {
        let HeldNode { source, slot } = node;
        {
            let mut slot = slot.borrow_mut();
            if !matches!(*slot, TypedSlot::Prepared(_)) {
                let typed = match std::mem::take(&mut *slot) {
                    TypedSlot::Refined(typed) => typed.downcast::<T>().ok().map(|typed| *typed),
                    _ => deserialize_node::<T>(source).ok(),
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

impl<T: DeserializeOwned + 'static> Typed<T> {
    /// What `renderer` makes of the node ready to render; the renderer's
    /// default output when the node was dropped or does not deserialize.
    fn render<R: Default>(
        &self,
        renderer: &dyn Fn(&T, &Scope<'_>) -> R,
        node: HeldNode<'_>,
        scope: &Scope<'_>,
    ) -> R {
        self.with_prepared(node, |typed| renderer(typed, scope))
            .unwrap_or_default()
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
        node: NodeSource<'_>,
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

    fn text(&self, node: HeldNode<'_>, scope: &Scope<'_>) -> String {
        self.render(&*self.text, node, scope)
    }

    fn markdown(&self, node: HeldNode<'_>, scope: &Scope<'_>) -> Markdown {
        self.render(&*self.markdown, node, scope)
    }

    fn html(&self, node: HeldNode<'_>, scope: &Scope<'_>) -> Option<Html> {
        Some(self.render(self.html.as_deref()?, node, scope))
    }

    fn slack(&self, node: HeldNode<'_>, scope: &Scope<'_>) -> Option<Vec<Value>> {
        Some(self.render(self.slack.as_deref()?, node, scope))
    }
}
