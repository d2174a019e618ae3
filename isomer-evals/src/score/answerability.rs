//! The answerability axis: does the rendered answer answer the question,
//! by the caller's judge (evals.md §5.4).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::case::{AnswerabilityVerdict, EvalCase, Judge, JudgeRequest};
use crate::report::{CaseError, CaseStage};
use crate::run::guarded;
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
/// composition, or at stage `judge` when the judge fails or panics.
pub async fn score_answerability<R>(
    runtime: &R,
    judge: &Judge<'_>,
    eval_case: Arc<EvalCase>,
    composition: &Value,
) -> Result<AnswerabilityScore, CaseError>
where
    R: EvalRuntime + ?Sized,
{
    let rendered = runtime
        .render_text(composition)
        .map_err(|error| CaseError::failed(CaseStage::Render, None, &*error))?;
    let request = JudgeRequest {
        eval_case,
        rendered,
    };
    let verdict = guarded(CaseStage::Judge, None, || judge.call(request)).await?;
    Ok(AnswerabilityScore { verdict })
}
