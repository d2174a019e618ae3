//! The scoring axes, each usable on its own, as upstream scores them:
//! validity, primitive selection, expected primitives, payload and
//! answerability.
//!
//! | axis | reads | needs |
//! | --- | --- | --- |
//! | [`score_validity`] | the first attempt, and the retry for `validAfterRetry` | nothing |
//! | [`score_payload`] | the first attempt only, even when the retry succeeds | a golden for `sizeVsGolden` |
//! | [`score_primitive_selection`] | the composition that validated | a golden |
//! | [`score_expected_primitives`] | the composition that validated | expected types |
//! | [`score_answerability`] | the composition that validated | a judge |

mod answerability;
mod expected;
mod payload;
mod selection;
mod tree;
mod validity;

pub(crate) use answerability::judge_rendered;
pub use answerability::{AnswerabilityScore, score_answerability};
pub(crate) use expected::expected_of;
pub use expected::{ExpectedPrimitivesScore, score_expected_primitives};
pub(crate) use payload::payload_of;
pub use payload::{PayloadScore, score_payload};
pub(crate) use selection::selection_of;
pub use selection::{PrimitiveSelectionScore, score_primitive_selection};
pub(crate) use tree::{NodeTypes, body_of};
pub(crate) use validity::validity_without_composition;
pub use validity::{ValidityScore, score_validity};
