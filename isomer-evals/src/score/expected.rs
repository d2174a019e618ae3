//! The expected-primitive axis: did the answer use any of the node types a
//! good answer uses (upstream `scoreExpectedPrimitives`).

use isomer_sdk::ChildWalker;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::score::tree::NodeTypes;

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
pub(crate) fn score_expected_primitives(
    walker: &dyn ChildWalker,
    composition: Option<&Value>,
    expected: &[String],
) -> ExpectedPrimitivesScore {
    let types = composition.map(|composition| NodeTypes::of(walker, composition));
    expected_of(types.as_ref(), expected)
}

/// [`score_expected_primitives`] of a tree's node types.
pub(crate) fn expected_of(
    types: Option<&NodeTypes<'_>>,
    expected: &[String],
) -> ExpectedPrimitivesScore {
    let mut found: Vec<String> = Vec::new();
    for wanted in expected {
        let present = types.is_some_and(|types| types.count(wanted) > 0);
        if present && !found.contains(wanted) {
            found.push(wanted.clone());
        }
    }
    ExpectedPrimitivesScore {
        hit: !found.is_empty(),
        found,
    }
}
