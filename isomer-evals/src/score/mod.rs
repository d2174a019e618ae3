//! The scoring axes, as upstream scores them and `run_evals` applies them to
//! every run: validity, primitive selection, expected primitives, payload
//! and answerability. The run walks an attempt's node types once
//! ([`NodeTypes::of`]) and scores every tree axis from them.
//!
//! | axis | reads | needs |
//! | --- | --- | --- |
//! | [`validity_without_composition`] | the first attempt, and the retry for `validAfterRetry` | nothing |
//! | [`payload_of`] | the first attempt only, even when the retry succeeds | a golden for `sizeVsGolden` |
//! | [`selection_of`] | the composition that validated | a golden |
//! | [`score_expected_primitives`] | the composition that validated | expected types |
//! | [`judge_rendered`] | the text rendering of the composition that validated | a judge |

mod answerability;
mod expected;
mod payload;
mod selection;
mod tree;
mod validity;

pub use answerability::AnswerabilityScore;
pub(crate) use answerability::judge_rendered;
pub use expected::ExpectedPrimitivesScore;
pub(crate) use expected::expected_of;
pub(crate) use expected::score_expected_primitives;
pub use payload::PayloadScore;
pub(crate) use payload::payload_of;
pub use selection::PrimitiveSelectionScore;
pub(crate) use selection::selection_of;
pub(crate) use tree::{NodeTypes, body_of};
pub use validity::ValidityScore;
pub(crate) use validity::validity_without_composition;
