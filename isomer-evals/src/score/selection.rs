//! The primitive-selection axis: did the answer use the golden's node types,
//! counted over the whole tree through the child hooks, not only the body's top level.

use serde::{Deserialize, Serialize};

use crate::score::tree::NodeTypes;
use isomer_sdk::js_parity::sort_utf16;

/// How the answer's node types compare with the golden's, as multisets
/// (upstream `PrimitiveSelectionScore`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrimitiveSelectionScore {
    /// Shared nodes over the answer's nodes, in `[0, 1]`; `0` for an answer
    /// with no node.
    pub precision: f64,
    /// Shared nodes over the golden's nodes, in `[0, 1]`; `0` for a golden
    /// with no node.
    pub recall: f64,
    /// `2·p·r / (p + r)`, or `0` when both are `0` (so two empty bodies
    /// score `0`, not `1`).
    pub f1: f64,
    /// Node types the answer used more often than the golden, one entry per
    /// surplus node, sorted by UTF-16 code units as JS sorts.
    pub extra: Vec<String>,
    /// Node types the golden used more often than the answer, one entry per
    /// missing node, sorted the same way.
    pub missing: Vec<String>,
}

/// Scores primitive selection (upstream `scorePrimitiveSelection`) from the
/// node types of the answer (`got`) and of the golden (`want`).
///
/// Each side's nodes are every node reached from its `body` through the
/// child hooks ([`NodeTypes::of`]), counted with repeats: a data field named
/// `type` is not a node, and a frame wrapper (the slides pack's `slideFrame`)
/// counts once on each side, so two answers that share only the wrapper score
/// above zero, and the choice below it still counts. `[stat]` against
/// `[stat, stat, stat]` scores precision 1, recall 1/3, missing
/// `[stat, stat]`.
pub(crate) fn selection_of(got: &NodeTypes<'_>, want: &NodeTypes<'_>) -> PrimitiveSelectionScore {
    let mut overlap = 0;
    let mut extra = Vec::new();
    for (type_name, &count) in &got.counts {
        let wanted = want.count(type_name);
        overlap += count.min(wanted);
        push_repeated(&mut extra, type_name, count.saturating_sub(wanted));
    }
    let mut missing = Vec::new();
    for (type_name, &count) in &want.counts {
        let used = got.count(type_name);
        push_repeated(&mut missing, type_name, count.saturating_sub(used));
    }
    sort_utf16(&mut extra);
    sort_utf16(&mut missing);
    let precision = ratio(overlap, got.total);
    let recall = ratio(overlap, want.total);
    let f1 = if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    };
    PrimitiveSelectionScore {
        precision,
        recall,
        f1,
        extra,
        missing,
    }
}

/// Adds `times` copies of `type_name` to `names`; nothing is copied when
/// `times` is 0, as it is for most types of a good answer.
fn push_repeated(names: &mut Vec<String>, type_name: &str, times: usize) {
    if times > 0 {
        names.extend(std::iter::repeat_n(type_name.to_owned(), times));
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}
