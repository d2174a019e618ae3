//! The stub runtime the eval fixture gates run the mini corpus against.

use isomer_evals::{BoxError, EvalRuntime, TextCheck};
use isomer_sdk::{AuthoringContext, CatalogEntry, ChildRef, ChildWalker, ValidationError};
use serde_json::{Value, json};

/// Two leaf primitives, `stat` and `callout`; a body node of any other type is refused
/// with `body[<i>]: unknown node type "<type>"`. Text rendering: the body's types, one per
/// line.
pub struct MiniRuntime;

impl ChildWalker for MiniRuntime {
    fn children<'a>(&self, _node: &'a Value) -> Vec<ChildRef<'a>> {
        Vec::new()
    }
}

impl MiniRuntime {
    fn parse(&self, value: &Value) -> Result<Value, Vec<ValidationError>> {
        self.validate(value)?;
        Ok(value.clone())
    }

    fn validate(&self, composition: &Value) -> Result<(), Vec<ValidationError>> {
        let Some(body) = composition.get("body").and_then(Value::as_array) else {
            return Err(vec![ValidationError::new("body", "is required")]);
        };
        let errors: Vec<ValidationError> = body
            .iter()
            .enumerate()
            .filter_map(|(index, node)| {
                let name = node.get("type").and_then(Value::as_str).unwrap_or("");
                (!matches!(name, "stat" | "callout")).then(|| {
                    ValidationError::new(
                        format!("body[{index}]"),
                        format!("unknown node type \"{name}\""),
                    )
                })
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

impl EvalRuntime for MiniRuntime {
    fn walker(&self) -> &dyn ChildWalker {
        self
    }

    fn authoring_context(&self) -> AuthoringContext {
        AuthoringContext {
            schema: json!({ "type": "object" }),
            primitives: ["stat", "callout"]
                .iter()
                .map(|name| CatalogEntry {
                    type_name: (*name).to_owned(),
                    purpose: format!("A {name}."),
                    use_when: vec![],
                    avoid_when: vec![],
                    example: json!({ "type": name }),
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
