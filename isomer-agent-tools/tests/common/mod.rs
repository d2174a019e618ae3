//! A small stub runtime implementing `ToolsRuntime`: two primitives, a
//! `card` leaf (`title` required) and a `stack` container (`children`), an
//! input budget (depth 64, 1,000,000 characters), four renders and views.
//! It records what the tools hand it, so tests can prove which copy was
//! rendered and how often each member ran.

#![allow(dead_code)]

use std::sync::Mutex;

use futures::future::BoxFuture;
use isomer_agent_tools::{
    ParseOutcome, RenderedFormat, RuntimeFailure, RuntimeFormat, ToolsRenderOptions, ToolsRuntime,
    ValidationOutcome, ViewRequestError,
};
use isomer_sdk::{
    AuthoringContext, CatalogEntry, Document, ErrorCode, PrimitiveDescriptions, PrimitiveGroup,
    ValidationError, ValidationWarning, ViewSummary,
};
use serde_json::{Map, Value, json};

pub const TOO_DEEP: &str = "input nests deeper than 64 levels";
pub const FRAME_RULE: &str = "exactly one \"card\" node, got 2 nodes";

/// A view's builder: host context and input to a composition.
pub type Build = Box<dyn Fn(&Value, &Value) -> Result<Value, ViewRequestError> + Send + Sync>;

pub struct StubView {
    pub summary: ViewSummary,
    /// When true, the input must hold a string `title`.
    pub needs_title: bool,
    pub build: Build,
}

#[derive(Default)]
pub struct Calls {
    pub parse: usize,
    pub validate: usize,
    pub builds: usize,
    pub validated: Vec<Value>,
    pub rendered: Vec<(RuntimeFormat, Value, ToolsRenderOptions)>,
}

#[derive(Default)]
pub struct Stub {
    pub views: Mutex<Vec<StubView>>,
    pub calls: Mutex<Calls>,
    /// Every fallible member fails with this message.
    pub fail: Option<&'static str>,
    /// Warnings validate reports.
    pub warnings: Vec<ValidationWarning>,
    /// `parse` panics with this message.
    pub panic: Option<&'static str>,
}

pub fn card_entry() -> CatalogEntry {
    CatalogEntry {
        type_name: "card".to_owned(),
        purpose: "One titled card.".to_owned(),
        use_when: vec!["A single fact.".to_owned()],
        avoid_when: vec!["Several facts; use stack.".to_owned()],
        example: json!({"type": "card", "title": "Revenue"}),
        group: Some("Basics".to_owned()),
    }
}

pub fn stack_entry() -> CatalogEntry {
    CatalogEntry {
        type_name: "stack".to_owned(),
        purpose: "Children one under another.".to_owned(),
        use_when: vec!["Several nodes in order.".to_owned()],
        avoid_when: vec![],
        example: json!({"type": "stack", "children": [{"type": "card", "title": "A"}]}),
        group: None,
    }
}

pub fn defs() -> Value {
    json!({
        "bodyNode": {"description": "any primitive in the catalog"},
        "card": {"type": "object", "properties": {"type": {"const": "card"}, "title": {"type": "string"}}, "required": ["type", "title"]},
        "stack": {"type": "object", "properties": {"type": {"const": "stack"}, "children": {"type": "array", "items": {"$ref": "#/$defs/bodyNode"}}}, "required": ["type", "children"]}
    })
}

pub fn one_card() -> Value {
    json!({"type": "view", "body": [{"type": "card", "title": "Hello"}]})
}

pub fn two_cards() -> Value {
    json!({"type": "view", "body": [{"type": "card", "title": "A"}, {"type": "card", "title": "B"}]})
}

/// `d` levels of nested arrays (`nested(1)` is `[]`).
pub fn nested(depth: usize) -> Value {
    let mut value = json!([]);
    for _ in 1..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// The frame rule: exactly one `card` at the top of the body.
pub fn one_card_frame(body: &[Value]) -> Vec<String> {
    let cards = body.iter().filter(|node| node["type"] == "card").count();
    if cards == 1 {
        vec![]
    } else {
        vec![format!("exactly one \"card\" node, got {cards} nodes")]
    }
}

impl Stub {
    pub fn new() -> Self {
        Stub::default()
    }

    pub fn failing(message: &'static str) -> Self {
        Stub {
            fail: Some(message),
            ..Stub::default()
        }
    }

    pub fn with_view(self, view: StubView) -> Self {
        self.views.lock().unwrap().push(view);
        self
    }

    fn failure(&self) -> Result<(), RuntimeFailure> {
        match self.fail {
            Some(message) => Err(message.into()),
            None => Ok(()),
        }
    }

    fn budget(value: &Value) -> Option<ValidationError> {
        let mut stack = vec![(value, 1usize)];
        let mut characters = 0usize;
        while let Some((value, depth)) = stack.pop() {
            match value {
                Value::Array(items) => {
                    if depth > 64 {
                        return Some(refusal(TOO_DEEP));
                    }
                    stack.extend(items.iter().map(|item| (item, depth + 1)));
                }
                Value::Object(map) => {
                    if depth > 64 {
                        return Some(refusal(TOO_DEEP));
                    }
                    for (key, item) in map {
                        characters += key.encode_utf16().count();
                        stack.push((item, depth + 1));
                    }
                }
                Value::String(text) => characters += text.encode_utf16().count(),
                other => characters += other.to_string().len(),
            }
            if characters > 1_000_000 {
                return Some(refusal("input holds more than 1000000 characters"));
            }
        }
        None
    }

    /// Schema check of one node at `path`, pushing findings.
    fn check_node(node: &Value, path: &str, errors: &mut Vec<ValidationError>) {
        let Some(map) = node.as_object() else {
            errors.push(ValidationError::new(path, "Invalid input: expected object"));
            return;
        };
        let (node_type, fields): (&str, &[&str]) = match map.get("type").and_then(Value::as_str) {
            Some("card") => ("card", &["title"]),
            Some("stack") => ("stack", &["children"]),
            _ => {
                errors.push(ValidationError::new(
                    format!("{path}.type"),
                    "must be one of: card, stack",
                ));
                return;
            }
        };
        for field in fields {
            if !map.contains_key(*field) {
                errors.push(
                    ValidationError::new(format!("{path}.{field}"), "is required")
                        .with_node_type(node_type),
                );
            }
        }
        let extra: Vec<&str> = map
            .keys()
            .map(String::as_str)
            .filter(|key| *key != "type" && *key != "id" && !fields.contains(key))
            .collect();
        if !extra.is_empty() {
            errors.push(
                ValidationError::new(
                    path,
                    format!(
                        "has unrecognized key(s): {}; its fields are {}",
                        extra.join(", "),
                        fields.join(", ")
                    ),
                )
                .with_node_type(node_type),
            );
        }
        if let Some(children) = map
            .get("children")
            .and_then(Value::as_array)
            .filter(|_| node_type == "stack")
        {
            for (index, child) in children.iter().enumerate() {
                if child.is_object() {
                    Stub::check_node(child, &format!("{path}.children[{index}]"), errors);
                }
            }
        }
    }

    fn schema_check(value: &Value) -> Vec<ValidationError> {
        let mut errors = Vec::new();
        if value.get("type") != Some(&json!("view")) {
            errors.push(ValidationError::new("type", "must be one of: view"));
        }
        match value.get("body").and_then(Value::as_array) {
            Some(body) => {
                for (index, node) in body.iter().enumerate() {
                    Stub::check_node(node, &format!("body[{index}]"), &mut errors);
                }
            }
            None => errors.push(ValidationError::new("body", "is required")),
        }
        errors
    }

    /// Drops top-level keys a composition does not declare, as a sanitizing
    /// parse does.
    fn sanitize(value: &Value) -> Value {
        let mut map = Map::new();
        for (key, item) in value.as_object().into_iter().flatten() {
            if ["type", "title", "subtitle", "theme", "body", "meta"].contains(&key.as_str()) {
                map.insert(key.clone(), item.clone());
            }
        }
        Value::Object(map)
    }
}

pub fn refusal(message: &str) -> ValidationError {
    ValidationError::new("", message).with_code(ErrorCode::InputOverBudget)
}

impl ToolsRuntime for Stub {
    type HostContext = Value;

    fn authoring_context(&self) -> Result<AuthoringContext, RuntimeFailure> {
        self.failure()?;
        Ok(AuthoringContext {
            schema: json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs()}),
            primitives: vec![card_entry(), stack_entry()],
            groups: vec![PrimitiveGroup {
                title: "Basics".to_owned(),
                types: vec!["card".to_owned()],
            }],
            views: self.list_views(),
        })
    }

    fn describe_primitives(
        &self,
        types: &[String],
    ) -> Result<PrimitiveDescriptions, RuntimeFailure> {
        self.failure()?;
        let mut seen: Vec<&String> = Vec::new();
        for name in types {
            if !seen.contains(&name) {
                seen.push(name);
            }
        }
        let all = defs();
        let mut picked = Map::new();
        let mut primitives = Vec::new();
        for name in seen {
            primitives.push(match name.as_str() {
                "card" => card_entry(),
                "stack" => stack_entry(),
                other => return Err(format!("unknown primitive type(s) \"{other}\"").into()),
            });
            picked.insert(name.clone(), all[name.as_str()].clone());
            if name == "stack" {
                picked.insert("bodyNode".to_owned(), all["bodyNode"].clone());
            }
        }
        Ok(PrimitiveDescriptions {
            primitives,
            schema: json!({ "$defs": picked }),
            // The tool reads only `primitives` and `schema`.
            props: Default::default(),
        })
    }

    fn parse(&self, value: Document) -> Result<ParseOutcome, RuntimeFailure> {
        self.calls.lock().unwrap().parse += 1;
        if let Some(message) = self.panic {
            panic!("{message}");
        }
        self.failure()?;
        if let Some(refused) = Stub::budget(&value) {
            return Ok(ParseOutcome {
                valid: false,
                errors: vec![refused],
                composition: None,
            });
        }
        let errors = Stub::schema_check(&value);
        Ok(ParseOutcome {
            valid: errors.is_empty(),
            composition: errors.is_empty().then(|| Stub::sanitize(&value)),
            errors,
        })
    }

    fn validate(&self, composition: Document) -> Result<ValidationOutcome, RuntimeFailure> {
        self.failure()?;
        let mut calls = self.calls.lock().unwrap();
        calls.validate += 1;
        if let Some(refused) = Stub::budget(&composition) {
            return Ok(ValidationOutcome {
                valid: false,
                errors: vec![refused],
                warnings: vec![],
                composition: None,
            });
        }
        let errors = Stub::schema_check(&composition);
        let copy = composition.into_value().into_inner();
        calls.validated.push(copy.clone());
        Ok(ValidationOutcome {
            valid: errors.is_empty(),
            errors,
            warnings: self.warnings.clone(),
            composition: Some(copy),
        })
    }

    fn render(
        &self,
        format: RuntimeFormat,
        composition: Document,
        options: &ToolsRenderOptions,
    ) -> Result<RenderedFormat, RuntimeFailure> {
        self.failure()?;
        self.calls
            .lock()
            .unwrap()
            .rendered
            .push((format, Value::clone(&composition), *options));
        let title = composition["title"].as_str().filter(|_| options.heading);
        let cards: Vec<&str> = composition["body"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|node| node["title"].as_str())
            .collect();
        Ok(match format {
            RuntimeFormat::Text => RenderedFormat::Text(
                title
                    .map(|t| format!("{}\n\n", t.to_uppercase()))
                    .unwrap_or_default()
                    + &cards.join("\n\n"),
            ),
            RuntimeFormat::Markdown => RenderedFormat::Text(
                title.map(|t| format!("# {t}\n\n")).unwrap_or_default() + &cards.join("\n\n"),
            ),
            RuntimeFormat::Html => {
                let theme = options
                    .theme
                    .map(|theme| theme.as_str().to_owned())
                    .or_else(|| composition["theme"].as_str().map(str::to_owned))
                    .unwrap_or_else(|| "auto".to_owned());
                RenderedFormat::Text(format!(
                    "<div data-theme=\"{theme}\"><style>.c{{}}</style>{}{}</div>",
                    title.map(|t| format!("<h1>{t}</h1>")).unwrap_or_default(),
                    cards.join("")
                ))
            }
            RuntimeFormat::Slack => RenderedFormat::Json(json!({
                "text": title.unwrap_or(""),
                "blocks": cards.iter().map(|c| json!({"type": "section", "text": c})).collect::<Vec<_>>()
            })),
        })
    }

    fn list_views(&self) -> Vec<ViewSummary> {
        self.views
            .lock()
            .unwrap()
            .iter()
            .map(|view| view.summary.clone())
            .collect()
    }

    fn request_view<'a>(
        &'a self,
        id: &'a str,
        host_context: &'a Value,
        input: Option<Value>,
    ) -> BoxFuture<'a, Result<Value, ViewRequestError>> {
        Box::pin(async move {
            let input = input.unwrap_or_else(|| json!({}));
            let views = self.views.lock().unwrap();
            let Some(view) = views.iter().find(|view| view.summary.id == id) else {
                return Err(ViewRequestError::Other(
                    format!("Unknown view \"{id}\"").into(),
                ));
            };
            let invalid = |errors: Vec<ValidationError>| ViewRequestError::Findings {
                message: format!(
                    "Invalid input for view \"{id}\":\n  {}",
                    errors
                        .iter()
                        .map(|e| e.message.clone())
                        .collect::<Vec<_>>()
                        .join("\n  ")
                ),
                errors,
            };
            if let Some(refused) = Stub::budget(&input) {
                return Err(invalid(vec![refused]));
            }
            if view.needs_title && !input.get("title").is_some_and(Value::is_string) {
                return Err(invalid(vec![ValidationError::new("title", "is required")]));
            }
            self.calls.lock().unwrap().builds += 1;
            (view.build)(host_context, &input)
        })
    }
}

/// The `one-card` view: input `{title}`, builds one card with it.
pub fn one_card_view() -> StubView {
    StubView {
        summary: ViewSummary {
            id: "one-card".to_owned(),
            title: "One card".to_owned(),
            description: "One card".to_owned(),
            answers: vec!["show a card".to_owned()],
            input_schema: Some(
                json!({"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}),
            ),
        },
        needs_title: true,
        build: Box::new(|_, input| {
            Ok(json!({"type": "view", "body": [{"type": "card", "title": input["title"].clone()}]}))
        }),
    }
}

/// A `built` view with no input schema, whose builder is `build`.
pub fn built_view(build: Build) -> StubView {
    StubView {
        summary: ViewSummary {
            id: "built".to_owned(),
            title: "Built".to_owned(),
            description: "Built".to_owned(),
            answers: vec![],
            input_schema: None,
        },
        needs_title: false,
        build,
    }
}
