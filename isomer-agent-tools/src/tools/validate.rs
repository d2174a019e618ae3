//! `isomer_validate`: upstream's tool that checks a composition.

use std::sync::Arc;

use isomer_evals_macros::isomer_tool;
use isomer_sdk::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::ToolsContext;
use crate::RuntimeFailure;

/// The composition to check.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ValidateInput {
    /// A composition: `{ "type": "view", "body": [...] }`. Before writing one, read isomer_authoring_guide for the primitives and isomer_describe_primitives for each one's schema.
    composition: Map<String, Value>,
}

/// What `isomer_validate` answers.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ValidateAnswer {
    /// True when the composition has no error.
    valid: bool,
    /// Each error as `<path> (in <type>) <message>`; past the host's cap, a last line counts the rest.
    errors: Vec<String>,
    /// Each warning as `<surface>: <text>`; past the host's cap, a last line counts the rest.
    warnings: Vec<String>,
}

/// Checks a composition against the schema and the host's rules and answers { valid, errors, warnings }. Fix every error and validate again before you render.
#[isomer_tool(title = "Validate a composition")]
pub(crate) async fn isomer_validate(
    context: Arc<ToolsContext>,
    input: ValidateInput,
) -> Result<Json<ValidateAnswer>, RuntimeFailure> {
    // An invalid composition, even one the input budget refuses, is a normal
    // answer: the model reads the errors and tries again.
    // The model's value may nest far past the budget: as a document it is dropped without
    // recursion, and it is checked where it is, not copied.
    let check = context.check(Value::Object(input.composition))?;
    Ok(Json(ValidateAnswer {
        valid: check.valid,
        errors: check.errors,
        warnings: check.warnings,
    }))
}
