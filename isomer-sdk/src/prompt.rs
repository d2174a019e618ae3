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
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
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

impl AuthoringProfile {
    /// The upstream name: `general`, `registered-view-router`,
    /// `compose-from-primitives`.
    pub fn as_str(self) -> &'static str {
        match self {
            AuthoringProfile::General => "general",
            AuthoringProfile::RegisteredViewRouter => "registered-view-router",
            AuthoringProfile::ComposeFromPrimitives => "compose-from-primitives",
        }
    }

    /// True when the profile prints `## JSON Schema` (given a schema):
    /// `general` and `compose-from-primitives`.
    pub fn inlines_schema(self) -> bool {
        !matches!(self, AuthoringProfile::RegisteredViewRouter)
    }

    /// How many host examples the profile keeps (the first ones): 1 for
    /// `general` and `compose-from-primitives`, 0 for the router.
    pub fn examples_kept(self) -> usize {
        match self {
            AuthoringProfile::RegisteredViewRouter => 0,
            AuthoringProfile::General | AuthoringProfile::ComposeFromPrimitives => 1,
        }
    }
}

/// Builds the authoring prompt a model reads (upstream `buildAuthoringPrompt`,
/// sdk.md §7.4, evals.md §9.1). Sections are separated by one blank line, in
/// this order, absent ones skipped:
///
/// 1. the heading (`# View authoring`, or `context.heading`);
/// 2. the profile's intro paragraph (or `context.intro`);
/// 3. `## Guide` and the guide text, as given;
/// 4. `## Rules` and the rules, when they are a non-empty string;
/// 5. `## Registered views`, when there are views: per view
///    `- <key_span(id)> — <one_line(title)>`, then indented bullets for the
///    description, `Answers:` and `Input:` when present;
/// 6. `## Primitive catalog`: the full entries ([`format_primitive_entry`]
///    each, joined by newlines) or, with [`CatalogMode::Index`], a note and
///    one `### <group title>` list of `- <type> — <purpose>` lines per
///    non-empty group, then `### Other` for types in no group;
/// 7. `## JSON Schema` and the compact schema in a `json` fence, when the
///    profile inlines it and a schema is given;
/// 8. `## Examples`: the examples the profile keeps, top-level `meta`
///    removed, each in a `json` fence.
///
/// The dash in bullets is U+2014 with a space on each side. All JSON is
/// printed with [`compact_json`](crate::js::compact_json), so no section
/// breaks a line with U+2028/U+2029.
pub fn build_authoring_prompt(profile: AuthoringProfile, context: &PromptContext<'_>) -> String {
    let _ = (profile, context);
    todo!("issue 2")
}

/// One full catalog bullet (upstream `formatPrimitiveEntry`):
///
/// ```text
/// - `kpi` — One number that matters.
///   - Use when: <use_when joined by " ", one line>
///   - Avoid when: <avoid_when joined by " ", one line>
///   - Example: `{"type":"kpi",...}`
/// ```
///
/// The `Use when` / `Avoid when` lines are left out when their list is
/// empty; the example is always printed, as a code span of its compact JSON.
pub fn format_primitive_entry(entry: &CatalogEntry) -> String {
    let _ = entry;
    todo!("issue 2")
}
