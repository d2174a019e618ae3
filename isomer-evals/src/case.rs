//! The inputs of a run: [`EvalCase`], and the two caller callbacks,
//! [`Generate`] (the model) and [`Judge`] (the answerability judge), with
//! their requests (upstream `EvalCase`, `GenerateRequest`, `JudgeRequest`).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::callback::Callback;

/// One question of a corpus.
///
/// On the wire (`corpus.json`): `{ "id", "prompt", "golden"?, "expected"? }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalCase {
    /// Stable identifier; becomes `caseId` in results and is what a
    /// replaying `generate` keys on.
    pub id: String,
    /// The user's question in host words. The harness does not put it into
    /// the shared prompt: `generate` sends it, after the prompt, under `## Request`.
    pub prompt: String,
    /// A reference composition a good answer resembles; needed only by
    /// primitive selection and `sizeVsGolden`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub golden: Option<Value>,
    /// Node types any one of which a good answer uses, anywhere in its tree;
    /// needed only by the expected-primitive hit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Vec<String>>,
}

impl EvalCase {
    /// A case with an id and a prompt, no golden and no expected types.
    pub fn new(id: impl Into<String>, prompt: impl Into<String>) -> Self {
        EvalCase {
            id: id.into(),
            prompt: prompt.into(),
            golden: None,
            expected: None,
        }
    }

    /// The same case with a golden composition.
    pub fn with_golden(mut self, golden: Value) -> Self {
        self.golden = Some(golden);
        self
    }

    /// The same case with expected node types.
    pub fn with_expected<I, S>(mut self, expected: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.expected = Some(expected.into_iter().map(Into::into).collect());
        self
    }
}

/// What [`Generate`] is asked (upstream `GenerateRequest`).
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateRequest {
    /// The case, as in the corpus.
    pub eval_case: Arc<EvalCase>,
    /// The shared authoring prompt: identical for every case and attempt of
    /// a run; it holds neither the case prompt nor the previous errors.
    pub prompt: Arc<str>,
    /// `0` for the first try, `1` for the single retry.
    pub attempt: u32,
    /// Only on attempt `1`: the first attempt's failures (one JSON-parse
    /// message, or the formatted schema, validation and frame findings).
    /// `None` on attempt `0`. May be empty when the runtime gave no detail.
    pub previous_errors: Option<Vec<String>>,
}

impl GenerateRequest {
    /// The text a model is handed for this request, as the recorded corpora were written:
    /// the shared prompt, then `## Request` and the case's prompt, then on the retry
    /// `## Previous errors` and the first attempt's failures one per line, the sections
    /// joined by a blank line. A live `generate` sends it as one user message.
    pub fn model_text(&self) -> String {
        let mut text = format!("{}\n\n## Request\n\n{}", self.prompt, self.eval_case.prompt);
        if let Some(errors) = &self.previous_errors {
            text.push_str("\n\n## Previous errors\n\n");
            text.push_str(&errors.join("\n"));
        }
        text
    }
}

pub use isomer_corpus::AnswerabilityVerdict;

/// What [`Judge`] is asked (upstream `JudgeRequest`).
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeRequest {
    /// The case, as in the corpus.
    pub eval_case: Arc<EvalCase>,
    /// The validated composition rendered through the runtime's text surface.
    pub rendered: String,
}

/// The model call: an async function from a [`GenerateRequest`] to the raw
/// model text. The only way a run reaches a model; a replaying one makes the
/// run deterministic.
///
/// An `Err`, or a panic, marks that case as errored with the message; the
/// run goes on with the other cases.
pub type Generate<'a> = Callback<'a, GenerateRequest, String>;

/// The answerability judge: an async function from a [`JudgeRequest`] to a
/// verdict. Optional; without it the answerability axis is skipped.
///
/// An `Err`, or a panic, marks that case as errored with the message; the
/// run goes on with the other cases.
pub type Judge<'a> = Callback<'a, JudgeRequest, AnswerabilityVerdict>;
