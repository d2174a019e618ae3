//! One case's result ([`EvalCaseResult`]): its scores, its error and what it cost.

use serde::{Deserialize, Serialize};

use super::measured::CaseMeasures;
use crate::callback::CaseError;
use crate::score::{
    AnswerabilityScore, ExpectedPrimitivesScore, PayloadScore, PrimitiveSelectionScore,
    ValidityScore,
};
use crate::scorer::ScorerScore;

/// The scores of one case (upstream `EvalCaseResult`, plus
/// `expected` and an `error` for a case whose callback failed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalCaseResult {
    /// The case's id.
    pub case_id: String,
    /// Which run of the case this is, `0 .. repeat`; omitted on the wire when `0`, so a
    /// report of a run without repeats reads as before.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub repeat: u32,
    /// The validity axis. For a case whose first `generate` failed: all
    /// false, no errors.
    pub validity: ValidityScore,
    /// Absent without a golden or without a validated composition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<PrimitiveSelectionScore>,
    /// Present exactly when the case lists expected types; a miss when no
    /// composition validated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<ExpectedPrimitivesScore>,
    /// The first attempt's payload. For a case whose first `generate`
    /// failed: all zero.
    pub payload: PayloadScore,
    /// Absent without a judge or without a validated composition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answerability: Option<AnswerabilityScore>,
    /// Present when a step failed; the scores hold what completed before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<CaseError>,
    /// Wall time and tokens of the run's calls; present only when the run measured them
    /// ([`RunEvalsOptions::measure`](crate::RunEvalsOptions::measure), set for a live run;
    /// a replay measures nothing). What [`EvalTotals::measured`](crate::EvalTotals::measured)
    /// adds up; on the wire as `measured`: `generateMs`, `judgeMs`, `inputTokens`,
    /// `outputTokens`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) measured: Option<CaseMeasures>,
    /// The values the run's pack scorers gave it, in registration order (a scorer that
    /// does not apply to the run gives none); omitted on the wire when empty. See
    /// [`crate::scorer`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scorers: Vec<ScorerScore>,
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}
