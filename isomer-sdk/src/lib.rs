//! The Isomer composition contract.
//!
//! (Crate documentation is written as the crate fills in.)

pub mod budget;
pub mod catalog;
pub mod composition;
pub mod error;
pub mod format;
pub mod js;
pub mod json;
pub mod prompt;
pub mod url;
pub mod walk;

// Primitives, packs and the runtime (issue 3).
pub mod capabilities;
pub mod frame;
pub mod node;
pub mod pack;
pub mod primitive;
pub mod runtime;
pub mod schema;
pub mod surface;
pub mod validate;
pub mod view;
pub use capabilities::{Capabilities, SurfaceSupport};
pub use frame::Frame;
pub use node::Node;
pub use pack::{Pack, PackBuilder};
pub use primitive::{Primitive, PrimitiveBuilder, RefineContext};
pub use runtime::{RenderOptions, Rendered, Runtime, RuntimeBuilder, Surface, ValidationMode};
pub use surface::html::HtmlRender;
pub use surface::slack::SlackRender;
pub use surface::{Html, Inline, Markdown, Scope};
pub use validate::{CheckedValidation, ParsedComposition};
pub use view::{View, ViewBuilder, ViewRegistry, ViewResponse};

pub use budget::{InputBudget, InputUsage, check_input_budget};
pub use catalog::{
    AuthoringContext, CatalogEntry, PrimitiveDescriptions, PrimitiveGroup, ViewSummary,
};
pub use composition::{Composition, is_visible_on_surface, renders_on_surface};
pub use error::{
    CompositionValidationError, ErrorCode, IsomerError, SURFACE_NAMES, ValidationError,
    ValidationWarning,
};
pub use format::{format_validation_error, format_validation_warning};
pub use json::{DeepValue, JsonSyntaxError, drop_deep, parse_json};
pub use prompt::{
    AuthoringProfile, CatalogMode, PromptContext, build_authoring_prompt, format_primitive_entry,
};
pub use url::{
    sanitize_asset_url, sanitize_navigation_href, sanitize_parsed_asset_url,
    sanitize_parsed_navigation_href,
};
pub use walk::{BodyWalk, ChildRef, ChildWalker, WalkedNode, child_node_path, walk_body};
pub mod tool;
pub use tool::{
    EmbeddedResource, IntoToolResult, Json, NoInput, Tool, ToolContent, ToolHandler, ToolResult,
    ToolSchemaError, tool_input_schema,
};
/// Support for the code `#[isomer_tool]` expands into; not a public API.
#[doc(hidden)]
pub use tool::macro_support as __private;
