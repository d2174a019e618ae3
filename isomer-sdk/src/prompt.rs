//! `build_authoring_prompt`: the authoring prompt a model reads (sdk.md §7.4).

use serde_json::Value;

use crate::catalog::{CatalogEntry, PrimitiveGroup, ViewSummary};

/// Which framing the prompt gives the model (upstream `AuthoringProfile`).
///
/// | profile | inlines schema | host examples kept |
/// |---|---|---|
/// | `general` | yes | first 1 |
/// | `registered-view-router` | no | 0 |
/// | `compose-from-primitives` | yes | first 1 |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AuthoringProfile {
    /// Author compact views; route to a registered view when one answers,
    /// otherwise compose from the catalog.
    #[default]
    General,
    /// Prefer a registered view; compose only as a fallback.
    RegisteredViewRouter,
    /// Compose from the catalog only.
    ComposeFromPrimitives,
}

/// How the catalog section lists primitives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CatalogMode {
    /// Every entry in full: purpose, use when, avoid when, example.
    #[default]
    Full,
    /// An index: type and purpose per group; the model looks entries up.
    Index,
}

/// The inputs of [`build_authoring_prompt`] (upstream `AuthoringPromptContext`).
#[derive(Debug, Clone, Default)]
pub struct PromptContext<'a> {
    /// The host's guide text (required upstream; printed under `## Guide`).
    pub guide: &'a str,
    /// Rules, printed under `## Rules` when non-empty.
    pub rules: Option<&'a str>,
    /// The authoring JSON Schema, inlined when the profile says so.
    pub schema: Option<&'a Value>,
    /// The catalog entries.
    pub primitives: &'a [CatalogEntry],
    /// Full entries or an index.
    pub catalog: CatalogMode,
    /// Groups, for the index.
    pub groups: &'a [PrimitiveGroup],
    /// Host examples (compositions); trimmed per profile, `meta` removed.
    pub examples: &'a [Value],
    /// Registered views.
    pub views: &'a [ViewSummary],
    /// Replaces the `# View authoring` heading.
    pub heading: Option<&'a str>,
    /// Replaces the profile's intro paragraph.
    pub intro: Option<&'a str>,
}
