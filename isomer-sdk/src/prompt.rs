//! `build_authoring_prompt`: the authoring prompt a model reads (sdk.md §7.4).

use serde_json::Value;

use crate::catalog::{CatalogEntry, PrimitiveGroup, ViewSummary};
use crate::composition::without_meta;
use crate::js::{code_span, compact_json, key_span, one_line};

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
    let inlined_schema = context.schema.filter(|_| profile.inlines_schema());
    let mut sections: Vec<String> = Vec::new();
    sections.push(context.heading.unwrap_or(DEFAULT_HEADING).to_owned());
    sections.push(match context.intro {
        Some(intro) => intro.to_owned(),
        None => profile_intro(profile, inlined_schema.is_some()).to_owned(),
    });
    sections.push(format!("## Guide\n\n{}", context.guide));
    if let Some(rules) = context.rules.filter(|rules| !rules.is_empty()) {
        sections.push(format!("## Rules\n\n{rules}"));
    }
    if !context.views.is_empty() {
        let views: Vec<String> = context.views.iter().map(format_view).collect();
        sections.push(format!("## Registered views\n\n{}", views.join("\n")));
    }
    let catalog = match context.catalog {
        CatalogMode::Full => context
            .primitives
            .iter()
            .map(format_primitive_entry)
            .collect::<Vec<_>>()
            .join("\n"),
        CatalogMode::Index => format_catalog_index(context.primitives, context.groups),
    };
    sections.push(format!("## Primitive catalog\n\n{catalog}"));
    if let Some(schema) = inlined_schema {
        sections.push(format!(
            "## JSON Schema\n\n```json\n{}\n```",
            compact_json(schema)
        ));
    }
    let examples: Vec<String> = context
        .examples
        .iter()
        .take(profile.examples_kept())
        .map(|example| format!("```json\n{}\n```", compact_json(&without_meta(example))))
        .collect();
    if !examples.is_empty() {
        sections.push(format!("## Examples\n\n{}", examples.join("\n\n")));
    }
    sections.join("\n\n")
}

/// The heading printed when the context names none.
pub const DEFAULT_HEADING: &str = "# View authoring";

/// The paragraph under the heading for `profile` when the context gives no
/// intro. `schema_inlined` selects the compose intro that asks the model to
/// check its answer against the inlined JSON Schema.
pub fn profile_intro(profile: AuthoringProfile, schema_inlined: bool) -> &'static str {
    match profile {
        AuthoringProfile::General => {
            "You author compact views that any host can display, each written as one JSON \
             object. When a registered view answers the request, route to it; otherwise \
             compose the view from the primitive catalog."
        }
        AuthoringProfile::RegisteredViewRouter => {
            "You route questions to registered views. Prefer a registered view whose answers \
             match the request and request it by id with its input; compose a view from the \
             primitive catalog only when no registered view fits."
        }
        AuthoringProfile::ComposeFromPrimitives if schema_inlined => {
            "You compose views from scratch: write one JSON object built only from the \
             primitives in the catalog, and check it against the JSON Schema before you answer."
        }
        AuthoringProfile::ComposeFromPrimitives => {
            "You compose views from scratch: write one JSON object built only from the \
             primitives in the catalog."
        }
    }
}

/// The paragraph that opens an index catalog.
pub const CATALOG_INDEX_NOTE: &str = "Each primitive is listed here by type and purpose only. \
     Before you use one, request its catalog entry and JSON Schema by type, and compose only \
     from primitives whose details you have read.";

/// One registered view: the title bullet, then its description, answers and
/// input schema as indented bullets when present.
fn format_view(view: &ViewSummary) -> String {
    let mut lines = vec![format!(
        "- {} \u{2014} {}",
        key_span(&view.id),
        one_line(&view.title)
    )];
    if !view.description.is_empty() {
        lines.push(format!("  - {}", one_line(&view.description)));
    }
    if !view.answers.is_empty() {
        lines.push(format!(
            "  - Answers: {}",
            one_line(&view.answers.join("; "))
        ));
    }
    if let Some(schema) = &view.input_schema {
        lines.push(format!("  - Input: {}", code_span(&compact_json(schema))));
    }
    lines.join("\n")
}

/// The index form of the catalog: the note, one `###` section per group
/// with at least one catalog type, then `### Other` for the rest.
fn format_catalog_index(primitives: &[CatalogEntry], groups: &[PrimitiveGroup]) -> String {
    let index_line = |entry: &CatalogEntry| {
        format!(
            "- {} \u{2014} {}",
            key_span(&entry.type_name),
            one_line(&entry.purpose)
        )
    };
    let find = |type_name: &str| primitives.iter().find(|entry| entry.type_name == type_name);
    let mut sections = vec![CATALOG_INDEX_NOTE.to_owned()];
    for group in groups {
        let lines: Vec<String> = group
            .types
            .iter()
            .filter_map(|type_name| find(type_name))
            .map(index_line)
            .collect();
        if !lines.is_empty() {
            sections.push(format!(
                "### {}\n\n{}",
                one_line(&group.title),
                lines.join("\n")
            ));
        }
    }
    let others: Vec<String> = primitives
        .iter()
        .filter(|entry| {
            !groups
                .iter()
                .any(|group| group.types.contains(&entry.type_name))
        })
        .map(index_line)
        .collect();
    if !others.is_empty() {
        sections.push(format!("### Other\n\n{}", others.join("\n")));
    }
    sections.join("\n\n")
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
    let mut lines = vec![format!(
        "- {} \u{2014} {}",
        key_span(&entry.type_name),
        one_line(&entry.purpose)
    )];
    if !entry.use_when.is_empty() {
        lines.push(format!(
            "  - Use when: {}",
            one_line(&entry.use_when.join(" "))
        ));
    }
    if !entry.avoid_when.is_empty() {
        lines.push(format!(
            "  - Avoid when: {}",
            one_line(&entry.avoid_when.join(" "))
        ));
    }
    lines.push(format!(
        "  - Example: {}",
        code_span(&compact_json(&entry.example))
    ));
    lines.join("\n")
}
