//! Test doubles shared by the integration tests: upstream's stub runtime
//! (the one its tests use), a replaying `generate`, and fixture compositions.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use isomer_evals::{BoxError, EvalRuntime, Generate, GenerateRequest, TextCheck};
use isomer_sdk::{AuthoringContext, CatalogEntry, ChildRef, ChildWalker, ValidationError};
use serde_json::{Value, json};

/// The upstream stub: `stat` and `callout`, no hooks unless containers are
/// added. `validate` refuses a body that is not an array and every body
/// node of an unknown type; `parse` is `validate` returning the input (or,
/// with `drop_unknown`, the input without root keys other than `type`,
/// `title`, `subtitle`, `body`). Text = body types joined by `\n`.
pub struct StubRuntime {
    types: Vec<&'static str>,
    /// type → the field holding its children (an array of nodes).
    containers: HashMap<&'static str, &'static str>,
    drop_unknown: bool,
}

impl StubRuntime {
    pub fn new() -> Self {
        StubRuntime {
            types: vec!["stat", "callout"],
            containers: HashMap::new(),
            drop_unknown: false,
        }
    }

    /// The stub whose parse drops unknown root keys (the "sanitized" form).
    pub fn dropping_unknown_keys() -> Self {
        StubRuntime {
            drop_unknown: true,
            ..StubRuntime::new()
        }
    }

    /// Adds a container type whose children are the nodes in `field`.
    pub fn with_container(mut self, type_name: &'static str, field: &'static str) -> Self {
        self.types.push(type_name);
        self.containers.insert(type_name, field);
        self
    }
}

impl ChildWalker for StubRuntime {
    fn children<'a>(&self, node: &'a Value) -> Vec<ChildRef<'a>> {
        let Some(field) = node
            .get("type")
            .and_then(Value::as_str)
            .and_then(|t| self.containers.get(t))
        else {
            return Vec::new();
        };
        // A malformed container (items missing or not an array) has no
        // children, as the sdk walker's contract says.
        node.get(*field)
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .enumerate()
                    .map(|(i, node)| ChildRef {
                        node,
                        path: format!("{field}[{i}]"),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl StubRuntime {
    pub fn parse(&self, value: &Value) -> Result<Value, Vec<ValidationError>> {
        // Like the real runtime's input budget, refuse deep input before
        // copying it (the copy would recurse).
        if depth(value) > 64 {
            return Err(vec![ValidationError::new(
                "",
                "input nests deeper than 64 levels",
            )]);
        }
        self.validate(value)?;
        let mut composition = value.clone();
        if self.drop_unknown
            && let Some(map) = composition.as_object_mut()
        {
            map.retain(|k, _| matches!(k.as_str(), "type" | "title" | "subtitle" | "body"));
        }
        Ok(composition)
    }

    pub fn validate(&self, composition: &Value) -> Result<(), Vec<ValidationError>> {
        let Some(body) = composition.get("body").and_then(Value::as_array) else {
            return Err(vec![ValidationError::new("body", "is required")]);
        };
        let errors: Vec<ValidationError> = body
            .iter()
            .filter_map(|node| {
                let t = node.get("type").and_then(Value::as_str).unwrap_or("");
                (!self.types.contains(&t))
                    .then(|| ValidationError::new("body", format!("unknown node type \"{t}\"")))
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

impl EvalRuntime for StubRuntime {
    fn walker(&self) -> &dyn ChildWalker {
        self
    }

    fn authoring_context(&self) -> AuthoringContext {
        AuthoringContext {
            schema: json!({"type": "object"}),
            primitives: self
                .types
                .iter()
                .map(|t| CatalogEntry {
                    type_name: (*t).to_owned(),
                    purpose: format!("A {t}."),
                    use_when: vec![],
                    avoid_when: vec![],
                    example: json!({"type": t}),
                    group: None,
                })
                .collect(),
            groups: vec![],
            views: vec![],
        }
    }

    fn check<'a>(&'a self, value: &'a isomer_sdk::Document) -> TextCheck<'a> {
        TextCheck::from_steps(self, self.parse(value), |copy| self.validate(copy))
    }

    fn render_text(&self, composition: &Value) -> Result<String, BoxError> {
        let body = composition
            .get("body")
            .and_then(Value::as_array)
            .ok_or("no body")?;
        Ok(body
            .iter()
            .filter_map(|node| node.get("type").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

/// Nesting depth of containers, counted iteratively.
fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 1)];
    while let Some((value, level)) = stack.pop() {
        let children: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            Value::Object(map) => map.values().collect(),
            _ => continue,
        };
        deepest = deepest.max(level);
        stack.extend(children.into_iter().map(|child| (child, level + 1)));
    }
    deepest
}

/// `{type:"view", title:"Fixture", body:[{type:<t>}…]}` as JSON text.
pub fn fixture(types: &[&str]) -> String {
    fixture_value(types).to_string()
}

pub fn fixture_value(types: &[&str]) -> Value {
    json!({
        "type": "view",
        "title": "Fixture",
        "body": types.iter().map(|t| json!({"type": t})).collect::<Vec<_>>(),
    })
}

/// A replaying `generate`: the recorded string for (case id, attempt), or
/// `{}` when there is none. Every request is kept in `calls`.
pub struct Replay {
    pub recordings: HashMap<(String, u32), String>,
    pub calls: Arc<Mutex<Vec<GenerateRequest>>>,
}

impl Replay {
    pub fn new(recordings: &[(&str, u32, &str)]) -> Self {
        Replay {
            recordings: recordings
                .iter()
                .map(|(id, attempt, text)| (((*id).to_owned(), *attempt), (*text).to_owned()))
                .collect(),
            calls: Arc::new(Mutex::new(Vec::new())),
        }
    }

    pub fn generate(&self) -> Generate<'static> {
        let recordings = self.recordings.clone();
        let calls = Arc::clone(&self.calls);
        Generate::new(move |request: GenerateRequest| {
            let answer = recordings
                .get(&(request.eval_case.id.clone(), request.attempt))
                .cloned()
                .unwrap_or_else(|| "{}".to_owned());
            calls.lock().unwrap().push(request);
            async move { Ok::<_, BoxError>(answer) }
        })
    }

    pub fn calls(&self) -> Vec<GenerateRequest> {
        self.calls.lock().unwrap().clone()
    }
}
