//! The Isomer composition contract, and the runtime built on it.
//!
//! A *composition* is one JSON document a model writes:
//! `{ "type": "view", "title"?, "subtitle"?, "theme"?, "body": [node, …], "meta"? }`.
//! Each body node is an object whose string `type` names a *primitive*;
//! containers hold child nodes in fields their child hook names. This crate
//! keeps compositions as `serde_json::Value` (insertion-ordered) and gives
//! every consumer (the runtime, the eval harness, the agent tools) the same
//! vocabulary for reading, refusing, reporting and describing them.
//!
//! # The contract
//!
//! | concept | where | upstream (TypeScript) |
//! |---|---|---|
//! | the document: root fields, body nodes, `meta`, surface visibility | [`composition`] | `isVisibleOnSurface`, `rendersOnSurface`, `someBodyNode` |
//! | reaching child nodes; full paths (`body[1].items[0]`); iterative walks | [`walk`] | `createChildNodeWalker`, `childNodePath` |
//! | findings ([`ValidationError`], [`ValidationWarning`]), codes, construction errors | [`error`] | `ValidationError`, `ValidationWarning`, `IsomerError` |
//! | printing a finding as one line | [`format`](mod@format) | `formatValidationError` |
//! | refusing deep, wide or huge input before any schema runs | [`budget`] | `checkInputBudget` |
//! | parsing untrusted JSON text of any depth; dropping deep values | [`json`] | `JSON.parse` |
//! | which URLs a node may carry | [`url`] | `sanitizeNavigationHref`, `sanitizeAssetUrl` |
//! | catalog entries, groups, views, authoring context | [`catalog`] | `getAuthoringContext`, `describePrimitives` |
//! | the authoring prompt a model reads | [`prompt`] | `buildAuthoringPrompt` |
//! | JavaScript parity: number text, `JSON.stringify`, `toFixed`, UTF-16 lengths, `\s` | [`js_parity`] | the JavaScript engine itself |
//!
//! # Rules every part keeps
//!
//! - **Byte parity with the upstream packages.** Wherever upstream counts,
//!   prints, rounds or orders, this crate does it the JavaScript way: string
//!   lengths in UTF-16 code units, numbers as `String(n)` prints them (`1`,
//!   `1e+21`, `-0` → `0`), `toFixed(2)` rounding the exact binary value half
//!   up, `Math.round` ties toward +∞, sorting by UTF-16 code units, trimming
//!   with the JavaScript whitespace set, object keys in JavaScript property
//!   order. See [`js_parity`].
//! - **Hostile input never crashes.** Parsing, budget checks, walks, JSON
//!   printing and drops are iterative or run on a heap-grown stack: a
//!   1,000,000-deep array parses, is refused by the budget
//!   (`input nests deeper than 64 levels`) and is dropped safely. A child
//!   hook that fails yields no children; a hook that loops is cut.
//! - **Findings are data, mistakes are errors.** Problems with a composition
//!   come back as [`ValidationError`]s (path, predicate message, innermost
//!   known node type, and a code only for input refusals). Mistakes of the
//!   host building a runtime are [`IsomerError`]s with upstream's codes.
//! - **No side effects.** Nothing here reads the environment, writes a file
//!   or calls a model.
//!
//! # Example: refuse, then report
//!
//! ```
//! use isomer_sdk::{InputBudget, check_input_budget, format_validation_error, parse_json};
//!
//! // Model output, 100 levels deep: parses fine, refused by the budget.
//! let text = format!("{}{}", "[".repeat(100), "]".repeat(100));
//! let value = parse_json(&text).expect("valid JSON");
//! let refusal = check_input_budget(&value, InputBudget::default()).unwrap_err();
//! assert_eq!(refusal.path, "");
//! assert_eq!(format_validation_error(&refusal), "input nests deeper than 64 levels");
//!
//! // A small composition passes and reports what it measured.
//! let value = parse_json(r#"{"type":"view","body":[{"type":"kpi","label":"P99"}]}"#).unwrap();
//! let usage = check_input_budget(&value, InputBudget::default()).unwrap();
//! // Keys type, body, type, label (17) + strings view, kpi, P99 (10).
//! assert_eq!((usage.depth, usage.values, usage.characters), (3, 6, 27));
//! ```
//!
//! Printing JSON and prompt text the way the upstream packages do is in
//! [`js_parity`].
//!
//! # The runtime
//!
//! Primitives, packs, frames, views and the [`Runtime`] (parse, validate,
//! surfaces, JSON Schema export, authoring context) are built on the
//! contract above; see [`runtime`].

#![forbid(unsafe_code)]

pub mod budget;
pub mod catalog;
pub mod composition;
pub mod error;
pub mod format;
mod js;
pub mod js_parity;
pub mod json;
pub mod prompt;
pub mod url;
pub mod walk;

// Primitives, packs and the runtime.
pub mod capabilities;
mod dispatch;
pub mod frame;
mod inventory;
pub mod node;
pub mod pack;
pub mod primitive;
pub mod runtime;
mod schema;
#[cfg(test)]
mod small_stack;
pub mod surface;
mod validate;
pub mod view;
pub use capabilities::{Capabilities, SurfaceSupport};
pub use frame::Frame;
pub use node::Node;
pub use pack::{Pack, PackBuilder};
pub use primitive::{Primitive, PrimitiveBuilder, RefineContext};
pub use runtime::{
    Checked, RenderOptions, Rendered, Runtime, RuntimeBuilder, Surface, ValidationMode,
};
pub use surface::html::HtmlRender;
pub use surface::slack::SlackRender;
pub use surface::snapshot::{
    Snapshot, SnapshotError, SnapshotOptions, SnapshotPage, SnapshotPages, SnapshotRender,
};
pub use surface::{Html, Inline, Markdown, Scope};
pub use validate::{CheckedValidation, ParsedComposition};
pub use view::{View, ViewBuilder, ViewRegistry, ViewResponse};

pub use budget::{InputBudget, InputUsage, check_input_budget};
pub use catalog::{
    AuthoringContext, CatalogEntry, PrimitiveDescriptions, PrimitiveGroup, PrimitiveProps,
    PropDescriptor, PropKind, ViewSummary,
};
pub use composition::{Composition, is_visible_on_surface, renders_on_surface};
pub use error::{
    CompositionValidationError, ErrorCode, IsomerError, ValidationError, ValidationWarning,
};
pub use format::{format_validation_error, format_validation_warning};
pub use json::{
    DeepValue, Document, JsonRefusal, JsonSyntaxError, clone_deep, drop_deep, parse_json,
};
pub use prompt::{
    AuthoringProfile, CatalogMode, PromptContext, build_authoring_prompt, format_primitive_entry,
};
pub use url::{sanitize_asset_url, sanitize_navigation_href};
pub use walk::{BodyWalk, ChildRef, ChildWalker, WalkedNode, walk_body};
pub mod tool;
/// Not a public API; anything here may change in any release. It holds the
/// support for the code `#[isomer_tool]` expands into, and the crate's
/// JavaScript-parity internals (`js`), which the other workspace crates
/// (the evals, the agent tools, the example packs) share so that each rule
/// has one implementation. A pack or a host uses [`js_parity`] instead.
#[doc(hidden)]
pub mod __private {
    pub use crate::tool::macro_support::*;

    /// The crate's JavaScript-parity helpers, for the other workspace crates.
    pub mod js {
        pub use crate::js::*;
    }
}
pub use tool::{
    EmbeddedResource, IntoToolResult, Json, NoInput, Tool, ToolContent, ToolResult,
    ToolSchemaError, tool_input_schema,
};
