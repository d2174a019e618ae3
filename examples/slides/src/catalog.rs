//! Building catalog entries, the agent-facing description of a primitive
//! (purpose, use when, avoid when, one example). Each primitive writes its
//! own entry's words; this file only assembles them.

use isomer_sdk::CatalogEntry;
use serde_json::Value;

/// A catalog entry for `type_name` in group `group`: one line of purpose,
/// the intents that call for it, the look-alikes that should use another
/// primitive (each naming it), and one valid example node.
pub fn entry(
    type_name: &str,
    group: &str,
    purpose: &str,
    use_when: &[&str],
    avoid_when: &[&str],
    example: Value,
) -> CatalogEntry {
    CatalogEntry {
        type_name: type_name.to_owned(),
        purpose: purpose.to_owned(),
        use_when: use_when.iter().map(|s| (*s).to_owned()).collect(),
        avoid_when: avoid_when.iter().map(|s| (*s).to_owned()).collect(),
        example,
        group: Some(group.to_owned()),
    }
}
