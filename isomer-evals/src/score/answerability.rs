//! The answerability axis: does the rendered answer answer the question,
//! by the caller's judge (upstream `scoreAnswerability`).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::callback::guarded_render;
use crate::case::{AnswerabilityVerdict, EvalCase, Judge, JudgeRequest, UsageMeter};
use crate::report::{CaseError, CaseStage};
use crate::runtime::EvalRuntime;

/// The judge's verdict on one case (upstream `AnswerabilityScore`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerabilityScore {
    /// `yes`, `partial` or `no`.
    pub verdict: AnswerabilityVerdict,
}

/// Renders `composition` through the runtime's text surface and asks the
/// judge (upstream `scoreAnswerability`). The judge gets exactly the case
/// and the rendering.
///
/// # Errors
/// A [`CaseError`] at stage `render` when the text surface refuses the
/// composition or panics, or at stage `judge` when the judge fails or
/// panics.
pub async fn score_answerability<R>(
    runtime: &R,
    judge: &Judge<'_>,
    eval_case: Arc<EvalCase>,
    composition: &Value,
) -> Result<AnswerabilityScore, CaseError>
where
    R: EvalRuntime + ?Sized,
{
    let rendered = guarded_render(|| runtime.render_text(composition));
    judge_rendered(judge, eval_case, rendered, (0, UsageMeter::default()), None).await
}

/// The second half of [`score_answerability`]: asks the judge about a
/// rendering already made (`run_evals` renders while it checks the
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
