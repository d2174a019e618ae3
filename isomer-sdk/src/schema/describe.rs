//! `describe_primitives` (upstream `describePrimitives`, sdk.md §7.3): the
//! catalog entries of some types and the authoring-schema defs they reach.

use serde_json::{Map, Value, json};

use crate::catalog::PrimitiveDescriptions;
use crate::node::BODY_NODE_DEF;
use crate::primitive::Primitive;
use crate::schema::referenced_defs;

/// The stub that stands for the body-node union in a lookup's defs.
pub const BODY_NODE_STUB: &str = "Any primitive in the catalog, as its own object with its type.";

/// The entries of `primitives` (already deduplicated, first-seen order) and
/// `{ "$defs": … }`: the defs they reach through `#/$defs/` refs, keyed and
/// ordered as in `authoring`, `bodyNode` replaced by [`BODY_NODE_STUB`].
pub(crate) fn describe_primitives(
    authoring: &Value,
    primitives: &[Primitive],
) -> PrimitiveDescriptions {
    let all = authoring
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut reached: Vec<String> = primitives
        .iter()
        .map(|p| p.type_name().to_owned())
        .collect();
    let mut next = 0;
    while next < reached.len() {
        if reached[next] != BODY_NODE_DEF
            && let Some(def) = all.get(&reached[next])
        {
            for name in referenced_defs(def) {
                if !reached.contains(&name) {
                    reached.push(name);
                }
            }
        }
        next += 1;
    }
    let mut defs = Map::new();
    for (name, def) in &all {
        if !reached.contains(name) {
            continue;
        }
        if name == BODY_NODE_DEF {
            defs.insert(name.clone(), json!({ "description": BODY_NODE_STUB }));
        } else {
            defs.insert(name.clone(), def.clone());
        }
    }
    PrimitiveDescriptions {
        primitives: primitives
            .iter()
            .map(|p| p.catalog_entry().clone())
            .collect(),
        schema: json!({ "$defs": defs }),
    }
}
