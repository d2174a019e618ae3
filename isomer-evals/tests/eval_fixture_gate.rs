//! An `#[isomer_eval]` gate over the hand-written fixture corpus `tests/fixtures/eval/mini`,
//! against a small stub runtime. It declares every floor, so a floor the macro knows and
//! the harness lacks fails to compile here. `tests/harness_cli.rs` runs this binary with
//! `--list`, `--exact`, `--format json` and a regressed recordings directory, and asserts
//! its output line by line.

use isomer_evals::{BoxError, EvalRuntime};
use isomer_sdk::{AuthoringContext, CatalogEntry, ChildRef, ChildWalker, ValidationError};
use serde_json::{Value, json};

/// Two leaf primitives, `stat` and `callout`; a body node of any other type is refused
/// with `body[<i>]: unknown node type "<type>"`. Text rendering: the body's types, one per
/// line.
struct MiniRuntime;

impl ChildWalker for MiniRuntime {
    fn children<'a>(&self, _node: &'a Value) -> Vec<ChildRef<'a>> {
        Vec::new()
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

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini",
    valid_after_retry,
    min_selection_f1 = 0.6,
    expected_hit,
    no_invented_types,
    max_size_vs_golden = 1.5,
    answerability_not_no,
    min_valid_ratio = 0.6,
    min_valid_after_retry_ratio = 1.0,
    min_mean_selection_f1 = 0.8,
    max_answerability_no = 0
)]
fn mini() -> MiniRuntime {
    MiniRuntime
}
