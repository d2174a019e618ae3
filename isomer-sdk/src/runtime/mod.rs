//! The runtime: packs assembled into one vocabulary that parses, validates,
//! renders, describes itself to a model and serves registered views
//! (upstream `createIsomerRuntime`).
//!
//! ```
//! # use isomer_sdk::{Markdown, Pack, Primitive, RenderOptions, Runtime};
//! # use serde_json::json;
//! # let note = Primitive::builder::<serde_json::Value>("note")
//! #     .schema_json(json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}))
//! #     .purpose("A note.").example(json!({"type": "note", "text": "x"}))
//! #     .text(|node, _| node["text"].as_str().unwrap_or("").to_owned())
//! #     .markdown(|node, _| Markdown::paragraph(node["text"].as_str().unwrap_or("")))
//! #     .build().unwrap();
//! let runtime = Runtime::builder()
//!     .pack(Pack::new("notes").primitive(note).build().unwrap())
//!     .build()
//!     .unwrap();
//! let view = json!({ "type": "view", "title": "Checkout", "body": [ { "type": "note", "text": "Up." } ] });
//! assert!(runtime.validate(&view).valid);
//! assert_eq!(runtime.render_text(&view, &RenderOptions::default()).unwrap(), "CHECKOUT\n\nUp.");
//! ```
//!
//! A runtime is immutable after [`RuntimeBuilder::build`] except for its view
//! registry, and is `Send + Sync`: share it (`Arc<Runtime>`) across tasks.

mod assembled;
mod builder;
mod checked;

pub use crate::surface::options::{RenderOptions, ValidationMode};
pub use crate::surface::render::{Rendered, Surface};
pub use assembled::Runtime;
pub use builder::RuntimeBuilder;
pub use checked::Checked;
