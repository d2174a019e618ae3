//! The expected-primitive axis: did the answer use any of the node types a
//! good answer uses (upstream `scoreExpectedPrimitives`).

use isomer_sdk::ChildWalker;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::score::tree::{body_of, for_each_node_type};

/// Whether an expected node type appears in the answer (upstream
/// `ExpectedPrimitivesScore`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpectedPrimitivesScore {
    /// True when at least one expected type appears as a node anywhere in
    /// the answer's tree.
    pub hit: bool,
    /// The expected types that appear, each once, in the order the case
    /// lists them.
    pub found: Vec<String>,
}

/// Scores the expected-primitive hit (upstream `scoreExpectedPrimitives`):
/// a hit when any of `expected` is the `type` of a node reached from the
/// composition's `body` through the child hooks, at any depth (a data field
/// named `type` is not a node). `None` for the composition (no validated
/// answer) scores a miss with nothing found.
pub fn score_expected_primitives(
    walker: &dyn ChildWalker,
    composition: Option<&Value>,
    expected: &[String],
) -> ExpectedPrimitivesScore {
    let mut present = vec![false; expected.len()];
    if let Some(composition) = composition {
        for_each_node_type(walker, body_of(composition), |type_name| {
            for (slot, wanted) in present.iter_mut().zip(expected) {
                if wanted == type_name {
                    *slot = true;
                }
            }
        });
    }
    let mut found: Vec<String> = Vec::new();
    for (wanted, present) in expected.iter().zip(present) {
        if present && !found.contains(wanted) {
            found.push(wanted.clone());
        }
    }
    ExpectedPrimitivesScore {
        hit: !found.is_empty(),
        found,
    }
}
