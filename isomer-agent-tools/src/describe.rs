//! What `isomer_describe_primitives` answers for known types (upstream
//! `buildPrimitiveDescriptions`).

use isomer_sdk::format_primitive_entry;
use isomer_sdk::js_parity::compact_json;
use serde_json::Value;

use crate::runtime::{RuntimeFailure, ToolsRuntime};

/// The short note above the `$defs` block.
const SCHEMA_NOTE: &str = "Each primitive's fields are `$defs.<type>` below; `bodyNode` stands for any primitive in the index.";

/// Describes `types` (all known to the runtime) in three parts separated by
/// a blank line:
///
/// 1. `## Primitives`, then one catalog entry per unique type in first-seen
///    order: `- `type` — purpose`, `  - Use when: …`, `  - Avoid when: …`
///    (each only when non-empty), `  - Example: `{…}``;
/// 2. `## JSON Schema` and a one-line note;
/// 3. a fenced `json` block holding `{"$defs":{…}}`, the definitions those
///    types reach, printed compact (upstream pretty-prints them; here
///    JSON Schema is compact wherever a model reads it).
///
/// # Errors
/// The runtime's failure, e.g. `UNKNOWN_PRIMITIVE_TYPE` for a type it does
/// not know (the tool checks for unknown types before calling this).
pub fn build_primitive_descriptions<R>(
    runtime: &R,
    types: &[String],
) -> Result<String, RuntimeFailure>
where
    R: ToolsRuntime + ?Sized,
{
    let described = runtime.describe_primitives(types)?;
    let entries = described
        .primitives
        .iter()
        .map(format_primitive_entry)
        .collect::<Vec<_>>()
        .join("\n");
    Ok(format!(
        "## Primitives\n\n{entries}\n\n## JSON Schema\n\n{SCHEMA_NOTE}\n\n```json\n{}\n```",
        schema_text(&described.schema)
    ))
}

fn schema_text(schema: &Value) -> String {
    compact_json(schema)
}
