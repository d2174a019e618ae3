//! Printing findings as one line of text: `format_validation_error`
//! (sdk.md §2.3) and the agent tools' warning form (agent-tools.md §6.6).

use crate::error::{ValidationError, ValidationWarning};
use crate::js::name_text;

/// Prints a finding as upstream `formatValidationError` does (sdk.md §2.3):
///
/// 1. empty `path` → the message alone (a frame rule, a budget refusal, a
///    non-object root): `input nests deeper than 64 levels`;
/// 2. no `node_type` → `<path> <message>`: `body[0].title is required`;
/// 3. otherwise `<path> (in <name>) <message>`, where `<name>` is the node
///    type as-is when it is made of ASCII letters, digits, `_`, `$` and `-`,
///    else its JSON literal with U+2028/U+2029 escaped
///    ([`name_text`]): `body[0].label (in "my kpi") is required`.
///
/// The `code` is never printed. The result is one line whenever the path and
/// message are.
pub fn format_validation_error(error: &ValidationError) -> String {
    if error.path.is_empty() {
        return error.message.clone();
    }
    match &error.node_type {
        None => format!("{} {}", error.path, error.message),
        Some(node_type) => format!(
            "{} (in {}) {}",
            error.path,
            name_text(node_type),
            error.message
        ),
    }
}

/// Prints a warning as the agent tools do (agent-tools.md §6.6):
/// `<surface>: <text>`, where `<text>` is the message alone when it already
/// starts with the path (an absent path counts as `""`, so a warning without
/// a path prints its message alone), else `<path> <message>`.
///
/// `{surface:"slack", path:"body[0].body[1]", message:"draws nothing"}` →
/// `slack: body[0].body[1] draws nothing`.
pub fn format_validation_warning(warning: &ValidationWarning) -> String {
    let path = warning.path.as_deref().unwrap_or("");
    let text = if warning.message.starts_with(path) {
        warning.message.clone()
    } else {
        format_validation_error(&ValidationError::new(path, warning.message.clone()))
    };
    format!("{}: {}", warning.surface, text)
}
