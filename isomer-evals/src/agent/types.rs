//! The data an agent run exchanges with the caller's model and reports: the
//! conversation ([`AgentMessage`]), one model turn ([`AgentStep`] with its
//! [`AgentStepRequest`] and [`AgentStepResult`]), tool calls and results,
//! and the per-run result ([`AgentEvalCaseResult`]). Names follow upstream's
//! `runAgentEvals` types; on the wire every struct is camelCase.

use std::sync::Arc;

use isomer_sdk::ToolContent;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::callback::Callback;
use crate::case::{AgentUsage, EvalCase, ExpectedTools};
use crate::score::ExpectedPrimitivesScore;

/// One tool as the model is offered it (upstream `AgentToolSpec`):
/// `{ "name", "description", "parameters" }`, `parameters` being the JSON
/// Schema (draft 2020-12, root `type: object`) of the input the tool
/// accepts, as the sdk's [`isomer_sdk::Tool::input_schema`] holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentToolSpec {
    /// The name the model calls the tool by.
    pub name: String,
    /// What the tool does and when to call it.
    pub description: String,
    /// The JSON Schema of the tool's input.
    pub parameters: Value,
}

/// A tool call the model made in one turn (upstream `AgentToolCall`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentToolCall {
    /// The provider's id of the call, echoed on its result so a provider
    /// adapter can pair them. The harness never reads it otherwise.
    pub id: String,
    /// The tool the model asked for (possibly one that does not exist).
    pub name: String,
    /// The arguments, as the model wrote them (unchecked).
    #[serde(default)]
    pub input: Value,
}

/// What the model receives for one tool call (upstream `AgentToolResult`):
/// the tool's content blocks, and whether the call failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentToolResult {
    /// The [`AgentToolCall::id`] this answers.
    pub call_id: String,
    /// The tool name as the model called it.
    pub name: String,
    /// The blocks the model reads (one text block for every agent tool
    /// answer except a rendered image or document).
    pub content: Vec<ToolContent>,
    /// True when the call failed: refused input, an unknown tool, a handler
    /// that failed or panicked. Omitted on the wire when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

impl AgentToolResult {
    /// The text blocks joined with `\n`: what a text-only provider sends.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter_map(|block| match block {
                ToolContent::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        texts.join("\n")
    }

    /// The bytes the result is sent as: for each block, the UTF-8 length of
    /// a text block's text, or the length of an image's or resource's
    /// base64 data (what travels; the MIME type and URI are not counted).
    pub fn bytes(&self) -> usize {
        self.content
            .iter()
            .map(|block| match block {
                ToolContent::Text { text } => text.len(),
                ToolContent::Image { data, .. } => data.len(),
                ToolContent::Resource { resource } => resource.blob.len(),
            })
            .sum()
    }
}

/// One message of the conversation handed to [`AgentStep`] (upstream
/// `AgentMessage`), tagged by `role` on the wire:
///
/// - `{"role":"user","content":"..."}`: the case's request, always first;
/// - `{"role":"assistant","text","toolCalls","raw"?}`: an earlier turn of the
///   model, `raw` handed back verbatim;
/// - `{"role":"tool","results":[...]}`: the answers to the previous
///   assistant turn's calls, in call order.
///
/// A provider adapter translates these to its own wire format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "camelCase")]
pub enum AgentMessage {
    /// The user's request.
    User {
        /// The case's prompt, as the corpus has it.
        content: String,
    },
    /// A turn of the model.
    #[serde(rename_all = "camelCase")]
    Assistant {
        /// The turn's text.
        text: String,
        /// The turn's tool calls; empty only on the final answer, which is
        /// never handed back.
        tool_calls: Vec<AgentToolCall>,
        /// The provider's own value for the turn
        /// ([`AgentStepResult::raw`]), verbatim.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        raw: Option<Value>,
    },
    /// The answers to the previous turn's tool calls.
    Tool {
        /// One result per call, in call order.
        results: Vec<AgentToolResult>,
    },
}

/// What [`AgentStep`] is asked for one model turn (upstream
/// `AgentStepRequest`).
#[derive(Debug, Clone, PartialEq)]
pub struct AgentStepRequest {
    /// The system prompt, identical for every turn of a run.
    pub system: Arc<str>,
    /// The tools offered, identical for every turn of a run.
    pub tools: Arc<[AgentToolSpec]>,
    /// The conversation so far: the request, then each earlier turn and its
    /// tool results.
    pub messages: Vec<AgentMessage>,
    /// The case being run (what a replaying step keys on).
    pub eval_case: Arc<EvalCase>,
    /// Which run of the case this is: `0 .. repeat`.
    pub repeat: u32,
    /// Which turn of the run this is, from `0`.
    pub turn: u32,
}

/// One model turn (upstream `AgentStepResult`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentStepResult {
    /// The turn's text; on the final turn (no tool calls) the answer.
    #[serde(default)]
    pub text: String,
    /// The tool calls, run in this order. None makes this turn the answer.
    #[serde(default)]
    pub tool_calls: Vec<AgentToolCall>,
    /// Tokens spent on the turn.
    #[serde(default)]
    pub usage: AgentUsage,
    /// A provider-specific value for the turn (its own content blocks, say),
    /// handed back verbatim in the assistant message of later turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<Value>,
}

/// One model turn (upstream `AgentStep`): an async function from an
/// [`AgentStepRequest`] to an [`AgentStepResult`]. The only way an agent run
/// reaches a model; a replaying one (the eval harness's, over recorded
/// transcripts) makes the run deterministic.
///
/// An `Err`, or a panic, ends that run with an [`AgentRunError`]; the other
/// runs go on.
pub type AgentStep<'a> = Callback<'a, AgentStepRequest, AgentStepResult>;

/// One tool call of a run, as the report counts it (upstream
/// `AgentEvalCall`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AgentEvalCall {
    /// The turn that made the call, from `0`.
    pub turn: u32,
    /// The tool name as the model called it.
    pub name: String,
    /// True when the model received a failed result.
    pub is_error: bool,
    /// The result's bytes as sent ([`AgentToolResult::bytes`]).
    pub result_bytes: usize,
}

/// The part of a run that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AgentRunStage {
    /// The caller's [`AgentStep`].
    Step,
    /// Scoring the answer (a runtime or child hook that panicked).
    Score,
}

/// Why a run did not complete: its [`AgentStep`] returned an error or
/// panicked (the run stops there), or scoring panicked (the run is then
/// reported unscored). Displays as `step turn 2 failed: <message>`, `step
/// turn 2 panicked: <message>` or `scoring panicked: <message>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentRunError {
    /// What failed.
    pub stage: AgentRunStage,
    /// For a step: the turn that failed, from `0`. For scoring: the turns
    /// the run had taken.
    pub turn: u32,
    /// True when it panicked rather than returning an error.
    pub panicked: bool,
    /// The error's `Display` text, or the panic's message.
    pub message: String,
}

impl std::fmt::Display for AgentRunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let outcome = if self.panicked { "panicked" } else { "failed" };
        match self.stage {
            AgentRunStage::Step => write!(f, "step turn {} {outcome}: {}", self.turn, self.message),
            AgentRunStage::Score => write!(f, "scoring {outcome}: {}", self.message),
        }
    }
}

impl std::error::Error for AgentRunError {}

/// The `tools_called` axis of one run: the tools its case expects and whether the run's
/// calls (every call, failed ones included, in the order made) meet them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolsCalledScore {
    /// Whether the calls meet the expectation ([`ExpectedTools::met_by`]).
    pub met: bool,
    /// What the case expects.
    pub expected: ExpectedTools,
}

impl ToolsCalledScore {
    /// The score of a run that called `called` (tool names, in the order made) against
    /// `expected`.
    pub fn of(expected: &ExpectedTools, called: &[String]) -> Self {
        ToolsCalledScore {
            met: expected.met_by(called),
            expected: expected.clone(),
        }
    }
}

/// The outcome of one run of one case (upstream `AgentEvalCaseResult`). Every tool call
/// of the run, in the order made (turn, tool name, failed or not, result bytes), is on the
/// wire as `calls` and shown on the HTML report; [`AgentEvalCaseResult::tools_called`]
/// scores them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentEvalCaseResult {
    /// The case's id.
    pub case_id: String,
    /// Which run of the case, `0 .. repeat`.
    pub repeat: u32,
    /// True when the model ended on a turn with no tool calls; false when
    /// the run reached `max_turns` or its step failed.
    pub finished: bool,
    /// Model turns taken (steps that returned).
    pub turns: u32,
    /// Tokens spent over all turns.
    pub usage: AgentUsage,
    /// Bytes of every tool result sent to the model.
    pub tool_result_bytes: usize,
    /// Every tool call, in the order made.
    pub(crate) calls: Vec<AgentEvalCall>,
    /// The text scored as the answer: the final turn's, or the last turn's
    /// when the run did not finish (empty when no turn returned).
    pub answer: String,
    /// The answer (after code-fence stripping) was JSON.
    pub parsed: bool,
    /// The answer passed the schema parse, validation and the frame rule.
    pub valid: bool,
    /// The answer's findings, formatted as in `run_evals` (the JSON
    /// parser's message alone when it was not JSON); empty when valid.
    pub errors: Vec<String>,
    /// Present exactly when the case lists expected types; scored on the
    /// answer's JSON whether or not it validated, a miss when it was not
    /// JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<ExpectedPrimitivesScore>,
    /// Present exactly when the case states the tools it expects
    /// ([`EvalCase::expected_tools`]): whether the run's calls meet them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_called: Option<ToolsCalledScore>,
    /// Present when the step failed (the run is scored on what it had) or
    /// scoring panicked (then `parsed` and `valid` are false, no errors,
    /// and the expected score a miss).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<AgentRunError>,
}

#[cfg(test)]
mod tests {
    use isomer_sdk::{ToolResult, tool::EmbeddedResource};
    use serde_json::json;

    use super::*;

    #[test]
    fn messages_are_tagged_by_role_with_camel_case_fields() {
        let user = AgentMessage::User {
            content: "A slide.".into(),
        };
        assert_eq!(
            serde_json::to_value(&user).unwrap(),
            json!({ "role": "user", "content": "A slide." })
        );
        let tool = AgentMessage::Tool {
            results: vec![AgentToolResult {
                call_id: "c1".into(),
                name: "isomer_validate".into(),
                content: ToolResult::error("no").content,
                is_error: true,
            }],
        };
        let wire = json!({
            "role": "tool",
            "results": [{
                "callId": "c1",
                "name": "isomer_validate",
                "content": [{ "type": "text", "text": "no" }],
                "isError": true
            }]
        });
        assert_eq!(serde_json::to_value(&tool).unwrap(), wire);
        assert_eq!(serde_json::from_value::<AgentMessage>(wire).unwrap(), tool);
    }

    #[test]
    fn result_bytes_count_text_as_utf8_and_binary_as_its_base64() {
        let result = AgentToolResult {
            call_id: "r".into(),
            name: "isomer_render".into(),
            content: vec![
                ToolContent::Text {
                    text: "d\u{e9}j\u{e0}".into(),
                },
                ToolContent::Image {
                    data: "iVBORw==".into(),
                    mime_type: "image/png".into(),
                },
                ToolContent::Resource {
                    resource: EmbeddedResource {
                        uri: "isomer://render/pdf".into(),
                        mime_type: "application/pdf".into(),
                        blob: "JVBERg==".into(),
                    },
                },
            ],
            is_error: false,
        };
        assert_eq!(result.bytes(), 6 + 8 + 8);
        assert_eq!(result.text(), "d\u{e9}j\u{e0}");
    }
}
