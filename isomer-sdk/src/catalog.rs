//! What a model reads about a runtime: catalog entries, groups, view
//! summaries, and the authoring context that bundles them with the authoring
//! JSON Schema (sdk.md §7.2–7.3, slides-and-runtime.md §2.7).
//!
//! These are plain data, serialized with upstream's camelCase keys, so the
//! eval harness and the agent tools can read them without the runtime.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The agent-facing description of one primitive (upstream
/// `PrimitiveCatalogEntry`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogEntry {
    /// The primitive's `type`, as in its nodes.
    #[serde(rename = "type")]
    pub type_name: String,
    /// One line saying what the primitive is for; printed in the index.
    pub purpose: String,
    /// The user intents that call for it.
    pub use_when: Vec<String>,
    /// Look-alike situations, each naming the primitive to use instead.
    pub avoid_when: Vec<String>,
    /// One valid node, printed compactly in the full catalog.
    pub example: Value,
    /// The title of the group the primitive belongs to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// A titled list of primitive types, for the catalog index (upstream
/// `authoring.groups`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrimitiveGroup {
    /// The section title (`Numbers`).
    pub title: String,
    /// The types in the group, in the order the index prints them.
    pub types: Vec<String>,
}

/// What a model and a host see of a registered view (upstream
/// `RegisteredViewSummary`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewSummary {
    /// The id a request names.
    pub id: String,
    /// A short title.
    pub title: String,
    /// What the view shows; defaults to the title.
    pub description: String,
    /// Natural-language questions the view answers.
    pub answers: Vec<String>,
    /// The JSON Schema (draft 2020-12) of the input, when the view takes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
}

/// Everything a runtime tells a model about authoring compositions
/// (upstream `getAuthoringContext()`, minus the lookups, which are runtime
/// methods).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthoringContext {
    /// The authoring JSON Schema (draft 2020-12) of a composition over every
    /// registered primitive (sdk.md §9, authoring projection).
    pub schema: Value,
    /// Every primitive's catalog entry, in registration order.
    pub primitives: Vec<CatalogEntry>,
    /// Every pack's groups, in pack order.
    pub groups: Vec<PrimitiveGroup>,
    /// The registered views, in registration order, as they are when the
    /// context is read.
    pub views: Vec<ViewSummary>,
}

/// The answer to a lookup of some primitive types (upstream
/// `describePrimitives`): their catalog entries and the `$defs` they reach.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrimitiveDescriptions {
    /// The entries of the types asked for, deduplicated in first-seen order.
    pub primitives: Vec<CatalogEntry>,
    /// `{ "$defs": { ... } }`: the authoring schema's defs those types reach
    /// through `#/$defs/` references, keyed as in the full schema, with
    /// `bodyNode` replaced by a one-line stub.
    pub schema: Value,
}
