//! Declaring a primitive: [`Primitive::builder`] (upstream
//! `definePrimitive`).
//!
//! A primitive is one node `type` of a vocabulary. It declares
//! - its fields, as the JSON Schema of a Rust struct `T` (`#[derive(Deserialize,
//!   JsonSchema)]`, derived the first time the runtime needs it), a schema made
//!   on first use by a function given with [`PrimitiveBuilder::schema_with`], or
//!   a JSON Schema given with [`PrimitiveBuilder::schema_json`] (checked at build);
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
//! declares either is refused with [`IsomerError::ReservedNodeField`](crate::IsomerError::ReservedNodeField). Node
//! structs do not declare `type` (the runtime adds it as a constant).

mod builder;
mod refine;
mod registered;
mod source;
mod typed;

pub use builder::PrimitiveBuilder;
pub use refine::RefineContext;
pub use registered::Primitive;
pub(crate) use source::{NodeSource, Places};
pub(crate) use typed::{ErasedPrimitive, HeldNode, TypedSlot};
