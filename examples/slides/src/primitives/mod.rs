//! The slide primitives, one per file, in folders by catalog group, and
//! the one way they become sdk [`Primitive`]s: `slide_node!` declares a
//! primitive's catalog entry and node struct ([`Catalogued`]), its
//! [`SlideNode`] impl its rules and renderers, and [`primitive`] builds it.

/// Declares a slide primitive's catalog entry and node struct, the one
/// place every primitive file writes them:
///
/// ```ignore
/// slide_node! {
///     catalog "slideStatement" in "Slide structure" {
///         purpose: "A single thesis sentence set large, alone on its slide.",
///         use_when: [
///             "The whole point of the slide fits in one sentence.",
///             "A pause between two dense slides.",
///         ],
///         avoid_when: [
///             "The sentence needs support under it: use slideHeading and a body primitive.",
///             "The words are someone else's: use slideQuote.",
///         ],
///         example: {
///             "type": "slideStatement",
///             "text": "Nobody waits for a refund **overnight** any more."
///         },
///     }
///
///     /// The fields of a `slideStatement` node.
///     pub struct SlideStatement sized {
///         /// The one sentence the slide says. Accepts inline marks; wrap
///         /// the key words in **strong**.
///         pub text: WrappedText,
///     }
/// }
/// ```
///
/// The node struct derives `Deserialize` and `JsonSchema` with camelCase
/// field names, so its fields and their doc comments are the node's JSON
/// Schema (optional fields are `Option`s, list bounds
/// `#[schemars(length(..))]`). `sized` appends the `size` field that many
/// primitives share: an optional [`Size`](crate::authored::Size) step, last
/// in the schema. Any struct after the node struct is one of the node's
/// parts, an object inside the node (a section, a step, a pane): it is
/// inlined in the node's schema, and a field it does not declare is an
/// error rather than ignored. The catalog entry (node type, group, one line
/// of purpose, the intents that call for the primitive, the look-alikes
/// that should use another one, and one valid example node) becomes the
/// node struct's [`Catalogued`] impl.
macro_rules! slide_node {
    (
        catalog $type_name:literal in $group:literal $catalog:tt

        $(#[$attr:meta])*
        pub struct $name:ident sized {
            $($fields:tt)*
        }

        $($parts:tt)*
    ) => {
        slide_node! {
            catalog $type_name in $group $catalog

            $(#[$attr])*
            pub struct $name {
                $($fields)*
                /// Size step "l", "m" or "s"; leave it out to fit automatically.
                pub size: Option<$crate::authored::Size>,
            }

            $($parts)*
        }
    };
    (
        catalog $type_name:literal in $group:literal {
            purpose: $purpose:literal,
            use_when: [$($use_when:literal),+ $(,)?],
            avoid_when: [$($avoid_when:literal),+ $(,)?],
            example: $example:tt $(,)?
        }

        $(#[$attr:meta])*
        pub struct $name:ident {
            $($fields:tt)*
        }

        $(
            $(#[$part_attr:meta])*
            pub struct $part:ident {
                $($part_fields:tt)*
            }
        )*
    ) => {
        $(#[$attr])*
        #[derive(Debug, Clone, ::serde::Deserialize, ::schemars::JsonSchema)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $($fields)*
        }

        $(
            $(#[$part_attr])*
            #[derive(Debug, Clone, ::serde::Deserialize, ::schemars::JsonSchema)]
            #[serde(deny_unknown_fields, rename_all = "camelCase")]
            #[schemars(inline)]
            pub struct $part {
                $($part_fields)*
            }
        )*

        impl $crate::primitives::Catalogued for $name {
            const TYPE: &'static str = $type_name;

            fn catalog() -> ::isomer_sdk::CatalogEntry {
                $crate::catalog::entry(
                    $type_name,
                    $group,
                    $purpose,
                    &[$($use_when),+],
                    &[$($avoid_when),+],
                    ::serde_json::json!($example),
                )
            }
        }
    };
}

pub mod code;
pub mod diagrams;
pub mod layout;
pub mod numbers;
pub mod structure;
pub mod text;

use isomer_sdk::surface::{Html, Markdown, Scope};
use isomer_sdk::{CatalogEntry, IsomerError, Primitive, RefineContext};
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::check::Issue;
use crate::list::List;

/// A slide primitive's node type and catalog entry, as `slide_node!`
/// declares them with its node struct.
pub trait Catalogued {
    /// The node `type`, e.g. `slideStat`.
    const TYPE: &'static str;

    /// The catalog entry (purpose, use when, avoid when, one valid example,
    /// group), written for a model choosing between primitives.
    fn catalog() -> CatalogEntry;
}

/// What every slide primitive declares besides its [`Catalogued`] node
/// struct (fields as JSON Schema through schemars): its cross-field rules,
/// and its text, Markdown and Slack renderers, or the one labelled list it
/// prints as ([`SlideNode::as_list`]).
pub trait SlideNode: Catalogued + DeserializeOwned + JsonSchema + 'static {
    /// The node's refinements: findings with paths relative to the node.
    /// `cx` reaches the node's descendants through the runtime's walker.
    fn check(&self, cx: &RefineContext<'_>) -> Vec<Issue> {
        let _ = cx;
        Vec::new()
    }

    /// Whether a container draws content of its own besides its children
    /// (upstream `hasOwnContent`); `None` for a primitive without children.
    fn has_own_content(node: &Value) -> Option<bool> {
        let _ = node;
        None
    }

    /// The text surface rendering; `scope.text(child)` renders a child.
    /// By default the text of [`SlideNode::as_list`].
    fn text(&self, scope: &Scope<'_>) -> String {
        let _ = scope;
        self.as_list().map(|list| list.text()).unwrap_or_default()
    }

    /// The Markdown surface rendering; `scope.markdown(child)` renders a
    /// child. By default the Markdown of [`SlideNode::as_list`].
    fn markdown(&self, scope: &Scope<'_>) -> Markdown {
        let _ = scope;
        self.as_list()
            .map_or_else(Markdown::new, |list| list.markdown())
    }

    /// True when the node's [`Node`](isomer_sdk::Node) fields are an
    /// embedded body rather than child slots: validated against the node
    /// union with their own rules, but not walked (their ids are their own,
    /// no anchors, no builds, and container rules such as "no window in a
    /// window" do not reach into them). Upstream's `slideRender` and
    /// `slideRenderGrid` hold one.
    const EMBEDDED_BODY: bool = false;

    /// True when [`SlideNode::slack`] is the primitive's own Block Kit
    /// renderer; false leaves Slack to the sdk's conversion of the Markdown
    /// (capability `fallback`), for primitives whose blocks upstream
    /// does not document.
    const NATIVE_SLACK: bool = false;

    /// The Slack surface rendering (Block Kit blocks); `scope.slack(child)`
    /// renders a child. Used only when [`SlideNode::NATIVE_SLACK`]. By
    /// default the blocks of [`SlideNode::as_list`].
    fn slack(&self, scope: &Scope<'_>) -> Vec<Value> {
        let _ = scope;
        self.as_list().map(|list| list.slack()).unwrap_or_default()
    }

    /// True when [`SlideNode::html`] is the primitive's own markup (see
    /// [`crate::html`]); false leaves the `html` surface to the sdk's
    /// conversion of the Markdown. Every primitive of the pack sets it
    /// (`tests/html_renderers.rs`).
    const NATIVE_HTML: bool = false;

    /// The `html` surface rendering; `scope.html(child)` renders a child.
    /// Used only when [`SlideNode::NATIVE_HTML`]. By default the HTML of
    /// [`SlideNode::as_list`] (one marker per item).
    fn html(&self, scope: &Scope<'_>) -> Html {
        let _ = scope;
        self.as_list().map(|list| list.html()).unwrap_or_default()
    }

    /// The primitive's own rules in the slides stylesheet: the classes its
    /// [`SlideNode::html`] writes, as upstream keeps a `styles.ts` beside
    /// each primitive. Kept in a `.css` file beside the primitive's source
    /// (`include_str!`); the slides frame appends every primitive's rules
    /// to its own, in pack order ([`crate::slide_stylesheet`]). Empty by
    /// default.
    const CSS: &'static str = "";

    /// The node as one labelled list, for a primitive that prints as one
    /// (a caption, then an entry per item): the renderers above print it
    /// unless the primitive writes its own. `None` by default; a primitive
    /// that returns `None` writes its text and Markdown renderers (the
    /// crate's tests render every catalog example on every surface).
    fn as_list(&self) -> Option<List> {
        None
    }
}

/// The JSON Schema of `T` as schemars derives it (draft 2020-12), with
/// [`crate::schema::no_null`] applied to every object in it: an optional
/// field may be absent, never `null`.
fn node_schema<T: JsonSchema>() -> Value {
    SchemaSettings::draft2020_12()
        .with_transform(RecursiveTransform(crate::schema::no_null))
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// The sdk primitive of `T`: its catalog entry, refinements and renderers.
///
/// # Errors
/// Whatever [`isomer_sdk::PrimitiveBuilder::build`] refuses (a node struct
/// with a field named `id`/`surfaces`, a catalog example of another type);
/// the crate's tests build every primitive, so this never fails for the
/// pack. The schema itself is made on first use (`schema_with`); the
/// tests validate every primitive's catalog example, which makes and
/// compiles every schema.
pub fn primitive<T: SlideNode>() -> Result<Primitive, IsomerError> {
    let entry = T::catalog();
    let mut builder = Primitive::builder::<T>(T::TYPE)
        .schema_with(node_schema::<T>)
        .purpose(entry.purpose)
        .use_when(entry.use_when)
        .avoid_when(entry.avoid_when)
        .example(entry.example)
        .refine(|node: &T, cx: &mut RefineContext<'_>| {
            for issue in node.check(cx) {
                cx.error(issue.path, issue.message);
            }
        })
        .text(|node: &T, scope: &Scope<'_>| node.text(scope))
        .markdown(|node: &T, scope: &Scope<'_>| node.markdown(scope));
    if let Some(group) = entry.group {
        builder = builder.group(group);
    }
    if T::EMBEDDED_BODY {
        builder = builder.children(|_node: &Value| Vec::new());
    }
    if T::NATIVE_HTML {
        builder = builder.html(|node: &T, scope: &Scope<'_>| node.html(scope));
    }
    if T::NATIVE_SLACK {
        builder = builder.slack(|node: &T, scope: &Scope<'_>| node.slack(scope));
    }
    if T::has_own_content(&Value::Null).is_some() {
        builder = builder.has_own_content(|node: &Value| T::has_own_content(node).unwrap_or(false));
    }
    builder.build()
}
