//! What every part of the Slack surface reads of a Block Kit block, kept apart from the
//! surface's root so that its parts (the table budget among them) import nothing from it.

use serde_json::Value;

/// A block's `type` (`section`, `table`, `rich_text`…), or `""` when it has none.
pub(super) fn block_type(block: &Value) -> &str {
    block.get("type").and_then(Value::as_str).unwrap_or("")
}
