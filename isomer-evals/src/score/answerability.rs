//! The answerability axis: does the rendered answer answer the question,
//! by the caller's judge (upstream `scoreAnswerability`).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::case::{AnswerabilityVerdict, EvalCase, Judge, JudgeRequest, UsageMeter};
use crate::report::{CaseError, CaseStage};

/// The judge's verdict on one case (upstream `AnswerabilityScore`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerabilityScore {
    /// `yes`, `partial` or `no`.
    pub verdict: AnswerabilityVerdict,
}

/// Asks the judge about the text rendering of a composition (upstream
/// `scoreAnswerability`, whose rendering `run_evals` makes while it checks the
/// attempt): the judge gets exactly the case and the rendering. A rendering
/// already made (`run_evals` renders while it checks the
/// attempt), or passes on the rendering's error. `(repeat, usage)` are the
/// request's run and usage meter. A judge still unanswered after `timeout`
/// fails with a timed-out [`CaseError`].
pub(crate) async fn judge_rendered(
    judge: &Judge<'_>,
    eval_case: Arc<EvalCase>,
    rendered: Result<String, CaseError>,
    (repeat, usage): (u32, UsageMeter),
    timeout: Option<std::time::Duration>,
) -> Result<AnswerabilityScore, CaseError> {
    let rendered = rendered?;
    let request = JudgeRequest {
        eval_case,
        rendered,
        repeat,
        usage,
    };
    let verdict = judge
        .call_within(request, timeout)
        .await
        .map_err(|failure| CaseError::from_failure(CaseStage::Judge, None, failure))?;
    Ok(AnswerabilityScore { verdict })
}
