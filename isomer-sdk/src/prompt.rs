//! `build_authoring_prompt`: the authoring prompt a model reads.

use serde_json::Value;

use crate::catalog::{CatalogEntry, PrimitiveGroup, ViewSummary};
use crate::composition::without_meta;
use crate::js::{code_span, compact_json, key_span, one_line};
use crate::json::drop_deep;

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
/// from `@elastic/isomer-sdk/author`). Sections are separated by one blank
/// line, in this order, absent ones skipped:
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
/// printed with [`compact_json`], so no section
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
        .map(|example| {
            // The copy may be as deep as the host's example: drop it flat.
            let trimmed = without_meta(example);
            let text = format!("```json\n{}\n```", compact_json(&trimmed));
            drop_deep(trimmed);
            text
        })
        .collect();
    if !examples.is_empty() {
        sections.push(format!("## Examples\n\n{}", examples.join("\n\n")));
    }
    sections.join("\n\n")
}

/// The heading printed when the context names none.
pub(crate) const DEFAULT_HEADING: &str = "# View authoring";

/// The paragraph under the heading for `profile` when the context gives no
/// intro. `schema_inlined` selects the compose intro that asks the model to
/// check its answer against the inlined JSON Schema.
pub(crate) fn profile_intro(profile: AuthoringProfile, schema_inlined: bool) -> &'static str {
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
pub(crate) const CATALOG_INDEX_NOTE: &str = "Each primitive is listed here by type and purpose only. \
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(
        type_name: &str,
        purpose: &str,
        use_when: &[&str],
        avoid_when: &[&str],
    ) -> CatalogEntry {
        CatalogEntry {
            type_name: type_name.to_owned(),
            purpose: purpose.to_owned(),
            use_when: use_when.iter().map(|s| (*s).to_owned()).collect(),
            avoid_when: avoid_when.iter().map(|s| (*s).to_owned()).collect(),
            example: json!({"type": type_name, "label": "Error rate", "value": "0.4%"}),
            group: None,
        }
    }

    fn catalog() -> Vec<CatalogEntry> {
        vec![
            entry(
                "kpi",
                "One number that matters,\nwith its change.",
                &["The answer is a single figure.", "A trend is secondary."],
                &["Several figures compare: use `table`."],
            ),
            entry(
                "table",
                "Rows and columns of values.",
                &["Values compare across rows."],
                &[],
            ),
            entry("bullets", "A short list of points.", &[], &[]),
            entry("weird key", "Listed in no group.", &[], &[]),
        ]
    }

    fn groups() -> Vec<PrimitiveGroup> {
        vec![
            PrimitiveGroup {
                title: "Numbers\nand data".to_owned(),
                types: vec!["table".to_owned(), "kpi".to_owned(), "missing".to_owned()],
            },
            PrimitiveGroup {
                title: "Empty".to_owned(),
                types: vec!["missing".to_owned()],
            },
            PrimitiveGroup {
                title: "Text".to_owned(),
                types: vec!["bullets".to_owned()],
            },
        ]
    }

    fn views() -> Vec<ViewSummary> {
        vec![
            ViewSummary {
                id: "one-slide".to_owned(),
                title: "One slide\nper spec".to_owned(),
                description: "A whole slide for one topic.".to_owned(),
                answers: vec![
                    "What is the status?".to_owned(),
                    "How did we do?".to_owned(),
                ],
                input_schema: Some(
                    json!({"type":"object","properties":{"topic":{"type":"string"}}}),
                ),
            },
            ViewSummary {
                id: "bare view".to_owned(),
                title: "Bare".to_owned(),
                description: String::new(),
                answers: Vec::new(),
                input_schema: None,
            },
        ]
    }

    fn schema() -> Value {
        json!({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","required":["type","body"]})
    }

    fn examples() -> Vec<Value> {
        vec![
            json!({"type":"view","title":"Host example","body":[],"meta":{"source":"x"}}),
            json!({"type":"view","title":"Second","body":[]}),
        ]
    }

    #[test]
    fn primitive_entry_bullets() {
        let entries = catalog();
        assert_eq!(
            format_primitive_entry(&entries[0]),
            "- `kpi` \u{2014} One number that matters, with its change.\n  \
             - Use when: The answer is a single figure. A trend is secondary.\n  \
             - Avoid when: Several figures compare: use `table`.\n  \
             - Example: `{\"type\":\"kpi\",\"label\":\"Error rate\",\"value\":\"0.4%\"}`"
        );
        let mut bare = entries[2].clone();
        bare.example = json!({"type":"bullets","items":["a`b"]});
        assert_eq!(
            format_primitive_entry(&bare),
            "- `bullets` \u{2014} A short list of points.\n  \
             - Example: ``{\"type\":\"bullets\",\"items\":[\"a`b\"]}``"
        );
        let mut hostile = entries[2].clone();
        hostile.type_name = "a\nb".to_owned();
        assert!(format_primitive_entry(&hostile).starts_with("- `\"a\\nb\"` \u{2014} "));
    }

    #[test]
    fn smallest_prompt_for_each_profile() {
        let context = PromptContext {
            guide: "Answer with one composition.",
            ..PromptContext::default()
        };
        assert_eq!(
            build_authoring_prompt(AuthoringProfile::General, &context),
            format!(
                "# View authoring\n\n{}\n\n## Guide\n\nAnswer with one composition.\n\n## Primitive catalog\n\n",
                profile_intro(AuthoringProfile::General, false)
            )
        );
        let router = build_authoring_prompt(AuthoringProfile::RegisteredViewRouter, &context);
        assert!(
            router.starts_with("# View authoring\n\nYou route questions to registered views. ")
        );
        let compose = build_authoring_prompt(AuthoringProfile::ComposeFromPrimitives, &context);
        assert!(compose.starts_with("# View authoring\n\nYou compose views from scratch"));
        assert!(!compose.contains("JSON Schema"));
    }

    #[test]
    fn heading_and_intro_overrides() {
        let context = PromptContext {
            guide: "G",
            heading: Some("# Slides"),
            intro: Some("Make slides."),
            rules: Some(""),
            ..PromptContext::default()
        };
        assert_eq!(
            build_authoring_prompt(AuthoringProfile::General, &context),
            "# Slides\n\nMake slides.\n\n## Guide\n\nG\n\n## Primitive catalog\n\n"
        );
    }

    #[test]
    fn schema_is_inlined_only_where_the_profile_says() {
        let schema = schema();
        let context = PromptContext {
            guide: "G",
            schema: Some(&schema),
            ..PromptContext::default()
        };
        let fence = "## JSON Schema\n\n```json\n{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\",\"required\":[\"type\",\"body\"]}\n```";
        let general = build_authoring_prompt(AuthoringProfile::General, &context);
        assert!(general.ends_with(&format!("## Primitive catalog\n\n\n\n{fence}")));
        let compose = build_authoring_prompt(AuthoringProfile::ComposeFromPrimitives, &context);
        assert!(compose.contains(fence));
        assert!(compose.contains(profile_intro(AuthoringProfile::ComposeFromPrimitives, true)));
        let router = build_authoring_prompt(AuthoringProfile::RegisteredViewRouter, &context);
        assert!(!router.contains("## JSON Schema"));
        assert_ne!(
            profile_intro(AuthoringProfile::ComposeFromPrimitives, true),
            profile_intro(AuthoringProfile::ComposeFromPrimitives, false)
        );
    }

    #[test]
    fn examples_are_trimmed_and_lose_meta() {
        let examples = examples();
        let context = PromptContext {
            guide: "G",
            examples: &examples,
            ..PromptContext::default()
        };
        let compose = build_authoring_prompt(AuthoringProfile::ComposeFromPrimitives, &context);
        assert!(compose.ends_with(
            "## Examples\n\n```json\n{\"type\":\"view\",\"title\":\"Host example\",\"body\":[]}\n```"
        ));
        assert!(!compose.contains("Second"));
        let router = build_authoring_prompt(AuthoringProfile::RegisteredViewRouter, &context);
        assert!(!router.contains("## Examples"));
    }

    #[test]
    fn a_deep_host_example_prints_on_a_small_stack() {
        // 100,000 nested arrays under `body`: copying the example without
        // `meta` and dropping the copy must not recurse per level.
        assert!(crate::small_stack::on_a_small_stack(|| {
            let depth = 100_000;
            let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let text = format!("{{\"type\":\"view\",\"meta\":{{\"a\":1}},\"body\":{nested}}}");
            let examples = vec![crate::json::parse_json(&text).unwrap().into_inner()];
            let prompt = build_authoring_prompt(
                AuthoringProfile::General,
                &PromptContext {
                    guide: "G",
                    examples: &examples,
                    ..PromptContext::default()
                },
            );
            for example in examples {
                drop_deep(example);
            }
            prompt.ends_with(&format!(
                "## Examples\n\n```json\n{{\"type\":\"view\",\"body\":{nested}}}\n```"
            ))
        }));
    }

    #[test]
    fn views_section() {
        let views = views();
        let context = PromptContext {
            guide: "G",
            views: &views,
            ..PromptContext::default()
        };
        let prompt = build_authoring_prompt(AuthoringProfile::RegisteredViewRouter, &context);
        assert!(prompt.contains(
            "## Registered views\n\n\
             - `one-slide` \u{2014} One slide per spec\n  \
             - A whole slide for one topic.\n  \
             - Answers: What is the status?; How did we do?\n  \
             - Input: `{\"type\":\"object\",\"properties\":{\"topic\":{\"type\":\"string\"}}}`\n\
             - `bare view` \u{2014} Bare\n\n## Primitive catalog"
        ));
    }

    #[test]
    fn index_catalog_groups_types() {
        let primitives = catalog();
        let groups = groups();
        let context = PromptContext {
            guide: "G",
            primitives: &primitives,
            groups: &groups,
            catalog: CatalogMode::Index,
            ..PromptContext::default()
        };
        let prompt = build_authoring_prompt(AuthoringProfile::ComposeFromPrimitives, &context);
        let expected_catalog = format!(
            "## Primitive catalog\n\n{CATALOG_INDEX_NOTE}\n\n\
             ### Numbers and data\n\n\
             - `table` \u{2014} Rows and columns of values.\n\
             - `kpi` \u{2014} One number that matters, with its change.\n\n\
             ### Text\n\n\
             - `bullets` \u{2014} A short list of points.\n\n\
             ### Other\n\n\
             - `weird key` \u{2014} Listed in no group."
        );
        assert!(prompt.ends_with(&expected_catalog), "{prompt}");
        assert!(!prompt.contains("Use when:"));
        assert!(!prompt.contains("### Empty"));
    }

    #[test]
    fn no_prompt_line_breaks_inside_a_field() {
        let primitives = catalog();
        let groups = groups();
        let views = views();
        let schema = json!({"description": "a\u{2028}b"});
        for catalog in [CatalogMode::Full, CatalogMode::Index] {
            let context = PromptContext {
                guide: "G",
                primitives: &primitives,
                groups: &groups,
                views: &views,
                schema: Some(&schema),
                catalog,
                ..PromptContext::default()
            };
            let prompt = build_authoring_prompt(AuthoringProfile::General, &context);
            assert!(!prompt.contains(['\r', '\u{2028}', '\u{2029}']));
        }
    }

    #[test]
    fn full_prompts_snapshot() {
        let primitives = catalog();
        let groups = groups();
        let views = views();
        let schema = schema();
        let examples = examples();
        for profile in [
            AuthoringProfile::General,
            AuthoringProfile::RegisteredViewRouter,
            AuthoringProfile::ComposeFromPrimitives,
        ] {
            for (mode, catalog) in [("full", CatalogMode::Full), ("index", CatalogMode::Index)] {
                let context = PromptContext {
                    guide: "Answer with a single composition.\nPrefer one primitive that says everything.",
                    rules: Some("- Never invent numbers.\n- Keep titles short."),
                    schema: Some(&schema),
                    primitives: &primitives,
                    catalog,
                    groups: &groups,
                    examples: &examples,
                    views: &views,
                    heading: None,
                    intro: None,
                };
                insta::assert_snapshot!(
                    format!("{}_{mode}", profile.as_str()),
                    build_authoring_prompt(profile, &context)
                );
            }
        }
    }
}
