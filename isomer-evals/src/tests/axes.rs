//! Each scoring axis on its own, composed from the steps `run_evals` composes (which
//! scores every axis in one pass over an attempt's node types): what the tests under
//! `tests` score single attempts and compositions with.

use std::collections::HashSet;
use std::sync::Arc;

use isomer_sdk::ChildWalker;
use serde_json::Value;

use crate::callback::guarded_render;
use crate::case::{EvalCase, Judge, UsageMeter};
use crate::check::CheckedAttempt;
use crate::report::CaseError;
use crate::runtime::EvalRuntime;
use crate::score::{
    AnswerabilityScore, NodeTypes, PayloadScore, PrimitiveSelectionScore, ValidityScore,
    judge_rendered, payload_of, selection_of, validity_without_composition,
};

/// [`check_attempt`](crate::check_attempt) of a value built whole: the text read with no
/// input budget (`parse_generated`), so the check and the scorers' walks meet a tree as
/// deep and as wide as the text, where a run stops building at the budget.
pub(crate) fn check_whole<R>(runtime: &R, raw: impl Into<String>) -> CheckedAttempt
where
    R: EvalRuntime + ?Sized,
{
    crate::check::check_attempt_and_render(
        runtime,
        crate::parse::parse_generated(raw).into(),
        None,
        false,
    )
    .0
}

/// The expected-primitive hit (upstream `scoreExpectedPrimitives`), as the run scores it.
pub(crate) use crate::score::score_expected_primitives;

/// Validity from the two checked attempts (upstream `scoreValidity`; pure), with the
/// composition the tree axes read.
pub(crate) fn score_validity(
    first: &CheckedAttempt,
    retry: Option<&CheckedAttempt>,
) -> ValidityScore {
    let (mut score, source) = validity_without_composition(first, retry);
    score.composition = source.composition(first, retry).cloned();
    score
}

/// The payload of one checked attempt (upstream `scorePayload`), its node types walked
/// through the runtime's child hooks.
pub(crate) fn score_payload<R>(
    runtime: &R,
    attempt: &CheckedAttempt,
    known_types: &HashSet<String>,
    golden: Option<&Value>,
) -> PayloadScore
where
    R: EvalRuntime + ?Sized,
{
    let types = attempt
        .value()
        .map(|value| NodeTypes::of(runtime.walker(), value));
    payload_of(attempt, types.as_ref(), known_types, golden)
}

/// Primitive selection of `generated` against `golden` (upstream
/// `scorePrimitiveSelection`).
pub(crate) fn score_primitive_selection(
    walker: &dyn ChildWalker,
    generated: &Value,
    golden: &Value,
) -> PrimitiveSelectionScore {
    selection_of(
        &NodeTypes::of(walker, generated),
        &NodeTypes::of(walker, golden),
    )
}

/// Renders `composition` through the runtime's text surface and asks the judge
/// (upstream `scoreAnswerability`).
pub(crate) async fn score_answerability<R>(
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
