//! Temporary stand-ins for sdk items other helpers are writing right now
//! (issue 2: JS-parity helpers, `format_validation_error`,
//! `build_authoring_prompt`; the tool-macro helper: `Tool`, `ToolResult`,
//! `ToolContent`). Each item is replaced by the sdk's own as soon as it lands,
//! and this file is then deleted. See `/work/notes/requests.md`.

use std::sync::Arc;

use base64::Engine as _;
use futures::future::BoxFuture;
use isomer_sdk::{AuthoringProfile, CatalogEntry, CatalogMode, PromptContext, ValidationError};
use serde::Serialize;
use serde_json::Value;

/// One content block of a tool result (MCP `CallToolResult` content).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ToolContent {
    /// `{ "type": "text", "text" }`.
    Text {
        /// The text.
        text: String,
    },
    /// `{ "type": "image", "data", "mimeType" }`.
    Image {
        /// Standard base64 with padding.
        data: String,
        /// `image/<subtype>`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// `{ "type": "resource", "resource": { "uri", "mimeType", "blob" } }`.
    Resource {
        /// The embedded resource.
        resource: EmbeddedResource,
    },
}

/// The resource inside a [`ToolContent::Resource`] block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EmbeddedResource {
    /// Where the content would live.
    pub uri: String,
    /// Its media type.
    #[serde(rename = "mimeType")]
    pub mime_type: String,
    /// Standard base64 with padding.
    pub blob: String,
}

/// A tool's answer (MCP `CallToolResult`); `isError` omitted on success.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolResult {
    /// The blocks; the agent tools always answer exactly one.
    pub content: Vec<ToolContent>,
    /// True for a failed call.
    #[serde(rename = "isError", skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

impl ToolResult {
    /// One text block.
    pub fn text(text: impl Into<String>) -> Self {
        ToolResult {
            content: vec![ToolContent::Text { text: text.into() }],
            is_error: false,
        }
    }

    /// One text block, failed.
    pub fn error(text: impl Into<String>) -> Self {
        ToolResult {
            content: vec![ToolContent::Text { text: text.into() }],
            is_error: true,
        }
    }

    /// Pretty JSON (2-space indent) as one text block.
    pub fn json(value: &impl Serialize, is_error: bool) -> Self {
        match serde_json::to_string_pretty(value) {
            Ok(text) => ToolResult {
                content: vec![ToolContent::Text { text }],
                is_error,
            },
            Err(error) => ToolResult::error(error.to_string()),
        }
    }

    /// One image block from bytes.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        ToolResult {
            content: vec![ToolContent::Image {
                data: base64::engine::general_purpose::STANDARD.encode(bytes),
                mime_type: mime_type.into(),
            }],
            is_error: false,
        }
    }

    /// One embedded resource block from bytes.
    pub fn resource(uri: impl Into<String>, mime_type: impl Into<String>, bytes: &[u8]) -> Self {
        ToolResult {
            content: vec![ToolContent::Resource {
                resource: EmbeddedResource {
                    uri: uri.into(),
                    mime_type: mime_type.into(),
                    blob: base64::engine::general_purpose::STANDARD.encode(bytes),
                },
            }],
            is_error: false,
        }
    }
}

/// The erased handler of a [`Tool`].
pub type ToolHandler = Arc<dyn Fn(Value) -> BoxFuture<'static, ToolResult> + Send + Sync>;

/// A tool definition: plain data plus an erased handler.
#[derive(Clone)]
pub struct Tool {
    /// The tool's name.
    pub name: String,
    /// A short human title.
    pub title: String,
    /// What the tool does, for the model.
    pub description: String,
    /// Draft 2020-12 JSON Schema of the input (root `type: object`).
    pub input_schema: Value,
    /// The handler.
    pub handler: ToolHandler,
}

impl Tool {
    /// Runs the handler on raw JSON input.
    pub async fn call(&self, input: Value) -> ToolResult {
        (self.handler)(input).await
    }
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("title", &self.title)
            .field("description", &self.description)
            .field("input_schema", &self.input_schema)
            .finish_non_exhaustive()
    }
}

/// The input schema of a type, as the tool macro will give it: draft
/// 2020-12, inlined, no `$schema`, no root title/description.
pub fn input_schema_for<T: schemars::JsonSchema>() -> Value {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    let generator = settings.into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let mut value = schema.to_value();
    if let Value::Object(map) = &mut value {
        map.remove("title");
        map.remove("description");
        map.entry("properties")
            .or_insert_with(|| Value::Object(Default::default()));
    }
    value
}

fn js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

fn line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// `oneLine`.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.chars().any(line_terminator) {
            out.push(' ');
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in text.chars() {
        if js_whitespace(c) {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// `compactJson`.
pub fn compact_json(value: &Value) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "undefined".to_owned())
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// `codeSpan`.
pub fn code_span(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// `keySpan`.
pub fn key_span(key: &str) -> String {
    let plain = !key.is_empty()
        && key.trim_matches(js_whitespace) == key
        && !key
            .chars()
            .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}');
    if plain {
        code_span(key)
    } else {
        code_span(&compact_json(&Value::String(key.to_owned())))
    }
}

/// `formatValidationError`.
pub fn format_validation_error(error: &ValidationError) -> String {
    if error.path.is_empty() {
        return error.message.clone();
    }
    match &error.node_type {
        None => format!("{} {}", error.path, error.message),
        Some(name) => {
            let plain = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '-');
            let name = if plain {
                name.clone()
            } else {
                compact_json(&Value::String(name.clone()))
            };
            format!("{} (in {}) {}", error.path, name, error.message)
        }
    }
}

/// `formatPrimitiveEntry`.
pub fn format_primitive_entry(entry: &CatalogEntry) -> String {
    let mut lines = vec![format!(
        "- {} — {}",
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

/// `buildAuthoringPrompt`, the subset the guide uses (no schema inlined).
pub fn build_authoring_prompt(profile: AuthoringProfile, context: &PromptContext<'_>) -> String {
    let mut sections = vec![context.heading.unwrap_or("# View authoring").to_owned()];
    sections.push(match context.intro {
        Some(intro) => intro.to_owned(),
        None => match profile {
            AuthoringProfile::General => "You write compact displays that any host can show, each as one JSON object: request a registered view when one answers the question, and compose from the catalog otherwise.".to_owned(),
            AuthoringProfile::RegisteredViewRouter => "You route questions to registered views. Prefer a view whose answers match, request it by id with its input, and compose only when none fits.".to_owned(),
            AuthoringProfile::ComposeFromPrimitives => "You compose views from scratch: build one JSON object from the catalog's primitives and nothing else.".to_owned(),
        },
    });
    sections.push(format!("## Guide\n\n{}", context.guide));
    if let Some(rules) = context.rules.filter(|rules| !rules.is_empty()) {
        sections.push(format!("## Rules\n\n{rules}"));
    }
    if !context.views.is_empty() {
        let views: Vec<String> = context
            .views
            .iter()
            .map(|view| {
                let mut lines = vec![format!(
                    "- {} — {}",
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
            })
            .collect();
        sections.push(format!("## Registered views\n\n{}", views.join("\n")));
    }
    let catalog = match context.catalog {
        CatalogMode::Full => context
            .primitives
            .iter()
            .map(format_primitive_entry)
            .collect::<Vec<_>>()
            .join("\n"),
        CatalogMode::Index => {
            let mut parts = vec!["Each primitive is listed by type and purpose. Look up a primitive's entry and schema by type before you use it.".to_owned()];
            let line = |entry: &CatalogEntry| {
                format!(
                    "- {} — {}",
                    key_span(&entry.type_name),
                    one_line(&entry.purpose)
                )
            };
            let mut grouped = std::collections::HashSet::new();
            for group in context.groups {
                let lines: Vec<String> = group
                    .types
                    .iter()
                    .filter_map(|t| context.primitives.iter().find(|e| &e.type_name == t))
                    .map(|entry| {
                        grouped.insert(entry.type_name.clone());
                        line(entry)
                    })
                    .collect();
                if !lines.is_empty() {
                    parts.push(format!(
                        "### {}\n\n{}",
                        one_line(&group.title),
                        lines.join("\n")
                    ));
                }
            }
            let other: Vec<String> = context
                .primitives
                .iter()
                .filter(|e| !grouped.contains(&e.type_name))
                .map(line)
                .collect();
            if !other.is_empty() {
                parts.push(format!("### Other\n\n{}", other.join("\n")));
            }
            parts.join("\n\n")
        }
    };
    sections.push(format!("## Primitive catalog\n\n{catalog}"));
    let budget = match profile {
        AuthoringProfile::RegisteredViewRouter => 0,
        _ => 1,
    };
    let examples: Vec<String> = context
        .examples
        .iter()
        .take(budget)
        .map(|example| {
            let mut example = example.clone();
            if let Value::Object(map) = &mut example {
                map.shift_remove("meta");
            }
            format!("```json\n{}\n```", compact_json(&example))
        })
        .collect();
    if !examples.is_empty() {
        sections.push(format!("## Examples\n\n{}", examples.join("\n\n")));
    }
    sections.join("\n\n")
}

/// What `#[isomer_tool]` will generate: a [`Tool`] whose handler
/// deserializes the input (a refusal is a failed result) and runs `handler`
/// with a clone of `context`.
pub fn tool_from_handler<C, I, F, Fut>(
    name: &str,
    title: &str,
    description: &str,
    context: C,
    handler: F,
) -> Tool
where
    C: Clone + Send + Sync + 'static,
    I: serde::de::DeserializeOwned + schemars::JsonSchema + Send + 'static,
    F: Fn(C, I) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = ToolResult> + Send + 'static,
{
    let handler = Arc::new(handler);
    let tool_name = name.to_owned();
    Tool {
        name: name.to_owned(),
        title: title.to_owned(),
        description: description.to_owned(),
        input_schema: input_schema_for::<I>(),
        handler: Arc::new(move |input: Value| {
            let context = context.clone();
            let handler = Arc::clone(&handler);
            let tool_name = tool_name.clone();
            Box::pin(async move {
                match serde_json::from_value::<I>(input) {
                    Ok(input) => handler(context, input).await,
                    Err(error) => ToolResult::error(format!("{tool_name}: invalid input: {error}")),
                }
            })
        }),
    }
}
