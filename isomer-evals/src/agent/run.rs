//! [`run_agent_evals`]: drive the caller's model through the tools, one turn
//! at a time, and score the answer each run ends on (upstream `runAgentEvals`).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::{FutureExt, StreamExt};
use isomer_sdk::{Tool, ToolResult};
use serde_json::Value;

use crate::agent::report::AgentEvalReport;
use crate::agent::types::{
    AgentEvalCall, AgentEvalCaseResult, AgentMessage, AgentRunError, AgentRunStage, AgentStep,
    AgentStepRequest, AgentStepResult, AgentToolCall, AgentToolResult, AgentToolSpec,
    ToolsCalledScore,
};
use crate::callback::{CallFailure, guard, panic_message};
use crate::case::AgentUsage;
use crate::case::EvalCase;
use crate::check::check_attempt;
use crate::runtime::{BoxError, EvalFrame, EvalRuntime};
use crate::score::{ExpectedPrimitivesScore, score_expected_primitives};

/// The turn limit when the options give none: 12 model turns per run.
///
/// Reading the guide, looking up a few primitives, a validation or two and
/// the answer took 4 to 6 turns (4.4 on average) in the recorded
/// `corpus/slides-agent` runs; 12 leaves room for a model that recovers from
/// a few refusals, and bounds one that never stops calling tools.
pub(crate) const DEFAULT_MAX_TURNS: u32 = 12;

/// The deepest nesting a tool call's input or a turn's `raw` may have:
/// serde_json's default recursion limit, so whatever a provider adapter
/// parsed with serde_json's defaults fits. Deeper values are never cloned
/// into the conversation (cloning and dropping them recursively could
/// overflow the stack); see [`run_agent_evals`].
pub(crate) const MAX_MESSAGE_DEPTH: usize = 128;

/// The system prompt when the options give none. It names the task and the
/// answer's form and leaves the primitives to the tools, which is what an
/// agent run measures.
pub(crate) const DEFAULT_AGENT_SYSTEM: &str = "You write Isomer compositions: JSON documents that \
a host renders for its users. Use the tools to learn the authoring rules and the primitives \
you need, and to check your composition before you answer. When you are done, answer with \
the composition alone, as one JSON object, and call no tool in that turn.";

/// What [`run_agent_evals`] runs (upstream `RunAgentEvalsOptions`). Build it
/// with [`RunAgentEvalsOptions::new`] and set the optional fields directly.
///
/// `'r` borrows the runtime and the frame; `'c` is what the step may borrow.
pub struct RunAgentEvalsOptions<'r, 'c> {
    /// The runtime the answer is checked against (parse, validate, child
    /// hooks); the tools usually wrap the same one.
    pub runtime: &'r dyn EvalRuntime,
    /// The tools offered to the model, in this order (for example the
    /// agent tools' `create_isomer_tools(options)`).
    pub tools: Vec<Tool>,
    /// The cases; each is run `repeat` times. Shared, not copied: every
    /// run of a case holds the same one.
    pub corpus: Vec<Arc<EvalCase>>,
    /// One model turn.
    pub step: AgentStep<'c>,
    /// The system prompt of every turn. Default: "You write Isomer compositions: JSON
    /// documents that a host renders for its users. Use the tools to learn the authoring
    /// rules and the primitives you need, and to check your composition before you
    /// answer. When you are done, answer with the composition alone, as one JSON object,
    /// and call no tool in that turn." (it names the task and the answer's form and
    /// leaves the primitives to the tools, which is what an agent run measures).
    pub system: String,
    /// Runs per case; `0` counts as `1`. Default `1`. With more than one,
    /// every mean of the totals carries its standard error.
    pub repeat: u32,
    /// Model turns a run may take before it ends unfinished; `0` counts as
    /// `1`. Default 12.
    pub max_turns: u32,
    /// Runs in flight at once; `0` counts as `1`. Default `1`.
    pub concurrency: usize,
    /// A frame whose body rule the answer must also pass (the slides frame
    /// wants exactly one `slideFrame`). Default `None`.
    pub frame: Option<&'r dyn EvalFrame>,
    /// The longest each `step` call may take; a step past it ends its run
    /// with a step error (`step turn 2 failed: timed out after
    /// 2s`) and the other runs go on. `None`: no limit, which suits a replay.
    /// A run with a timeout must be driven inside a Tokio runtime with its
    /// time driver enabled (see
    /// [`Callback`](crate::Callback)). Default `None`.
    pub timeout: Option<std::time::Duration>,
}

impl<'r, 'c> RunAgentEvalsOptions<'r, 'c> {
    /// Options with every default: the default system prompt, one run per
    /// case, 12 turns, one run at a time, no frame.
    ///
    /// The cases are shared from here on; to run cases that are shared
    /// already, pass an empty list and set [`RunAgentEvalsOptions::corpus`].
    pub fn new(
        runtime: &'r dyn EvalRuntime,
        tools: Vec<Tool>,
        corpus: Vec<EvalCase>,
        step: AgentStep<'c>,
    ) -> Self {
        RunAgentEvalsOptions {
            runtime,
            tools,
            corpus: corpus.into_iter().map(Arc::new).collect(),
            step,
            system: DEFAULT_AGENT_SYSTEM.to_owned(),
            repeat: 1,
            max_turns: DEFAULT_MAX_TURNS,
            concurrency: 1,
            frame: None,
            timeout: None,
        }
    }
}

impl std::fmt::Debug for RunAgentEvalsOptions<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunAgentEvalsOptions")
            .field("tools", &self.tools)
            .field("corpus", &self.corpus)
            .field("system", &self.system)
            .field("repeat", &self.repeat)
            .field("max_turns", &self.max_turns)
            .field("concurrency", &self.concurrency)
            .field("frame", &self.frame.is_some())
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// The tools as the model is offered them: `{name, description,
/// parameters}` with `parameters` the tool's input JSON Schema.
pub(crate) fn agent_tool_specs(tools: &[Tool]) -> Vec<AgentToolSpec> {
    tools
        .iter()
        .map(|tool| AgentToolSpec {
            name: tool.name.clone(),
            description: tool.description.clone(),
            parameters: tool.input_schema.clone(),
        })
        .collect()
}

/// Runs every case `repeat` times and scores each run (upstream
/// `runAgentEvals`).
///
/// A run starts from one user message, the case's prompt. Each turn calls
/// `step` with the system prompt, the tool specs and the conversation so
/// far, and appends the assistant message (its `raw` kept verbatim). A turn
/// with no tool calls is the answer and ends the run `finished`. Otherwise
/// the calls run in order and one tool message carries their results:
///
/// | call | what the model receives |
/// |---|---|
/// | a known tool | [`Tool::call`]'s result: input the schema refuses, and a handler error or panic, come back as failed results with the sdk's texts |
/// | an unknown name | failed, `unknown tool "<name>"; the tools are: <names joined by ", ">` (`the tools are: none` when none is offered) |
/// | a handler that panics past the sdk's guard (a hand-built [`Tool`]) | failed, `the tool "<name>" panicked: <message>` |
/// | an input nested deeper than 128 levels | failed, `the input of tool "<name>" nests deeper than 128 levels; it was not run`; the conversation then holds `null` as that call's input |
///
/// A `raw` nested deeper than 128 levels is not handed back
/// (`None`). Deep values are dropped without recursion.
///
/// A run that spends `max_turns` turns without an answer ends unfinished;
/// its last turn's text is scored. A `step` that fails or panics ends its
/// run with an [`AgentRunError`], scored on the last text it had.
///
/// Scoring reads and checks the answer once with [`check_attempt`] (code
/// fence stripped, JSON parsed, then checked with the frame), giving `parsed`, `valid` and the formatted `errors`. The
/// expected hit reads the answer's JSON through the child hooks, valid or
/// not. There is no retry.
///
/// Runs start in corpus order, the repeats of a case together, at most
/// `concurrency` in flight; the report lists them in that order whatever
/// order they finish in. Never fails as a whole.
pub async fn run_agent_evals(options: RunAgentEvalsOptions<'_, '_>) -> AgentEvalReport {
    let specs: Arc<[AgentToolSpec]> = agent_tool_specs(&options.tools).into();
    let system: Arc<str> = options.system.as_str().into();
    let repeat = options.repeat.max(1);
    let runs: Vec<(Arc<EvalCase>, u32)> = options
        .corpus
        .iter()
        .flat_map(|eval_case| (0..repeat).map(move |r| (Arc::clone(eval_case), r)))
        .collect();
    let workers = options.concurrency.clamp(1, runs.len().max(1));
    let context = AgentRunContext {
        options: &options,
        specs,
        system,
    };
    let results = futures::stream::iter(runs)
        .map(|(eval_case, r)| context.run_guarded(eval_case, r))
        .buffered(workers)
        .collect::<Vec<_>>()
        .await;
    AgentEvalReport::new(results, repeat, &options.tools)
}

struct AgentRunContext<'o, 'r, 'c> {
    options: &'o RunAgentEvalsOptions<'r, 'c>,
    specs: Arc<[AgentToolSpec]>,
    system: Arc<str>,
}

/// What a run gathered before it was scored.
struct Transcript {
    finished: bool,
    turns: u32,
    usage: AgentUsage,
    tool_result_bytes: usize,
    calls: Vec<AgentEvalCall>,
    answer: String,
    error: Option<AgentRunError>,
}

impl AgentRunContext<'_, '_, '_> {
    /// One run, with a panic while scoring recorded as the run's error (the answer then
    /// scores nothing: not parsed, not valid, no errors, a miss of the expected types).
    async fn run_guarded(&self, eval_case: Arc<EvalCase>, repeat: u32) -> AgentEvalCaseResult {
        let mut transcript = self.converse(&eval_case, repeat).await;
        let scored = std::panic::catch_unwind(AssertUnwindSafe(|| {
            self.score(&eval_case, &transcript.answer)
        }));
        let scores = match scored {
            Ok(scores) => scores,
            Err(panic) => {
                transcript.error = Some(AgentRunError {
                    stage: AgentRunStage::Score,
                    turn: transcript.turns,
                    panicked: true,
                    message: panic_message(&*panic),
                });
                AnswerScores::nothing(&eval_case)
            }
        };
        transcript.into_result(&eval_case, repeat, scores)
    }

    async fn converse(&self, eval_case: &Arc<EvalCase>, repeat: u32) -> Transcript {
        let max_turns = self.options.max_turns.max(1);
        let mut messages = vec![AgentMessage::User {
            content: eval_case.prompt.clone(),
        }];
        let mut transcript = Transcript {
            finished: false,
            turns: 0,
            usage: AgentUsage::default(),
            tool_result_bytes: 0,
            calls: Vec::new(),
            answer: String::new(),
            error: None,
        };
        for turn in 0..max_turns {
            let request = AgentStepRequest {
                system: Arc::clone(&self.system),
                tools: Arc::clone(&self.specs),
                messages: messages.clone(),
                eval_case: Arc::clone(eval_case),
                repeat,
                turn,
            };
            let step = match self
                .options
                .step
                .call_within(request, self.options.timeout)
                .await
            {
                Ok(step) => step,
                Err(CallFailure {
                    panicked, message, ..
                }) => {
                    transcript.error = Some(AgentRunError {
                        stage: AgentRunStage::Step,
                        turn,
                        panicked,
                        message,
                    });
                    break;
                }
            };
            let AgentStepResult {
                text,
                mut tool_calls,
                usage,
                mut raw,
            } = step;
            if let Some(deep) = raw.take_if(|raw| too_deep(raw)) {
                isomer_sdk::json::drop_deep(deep);
            }
            transcript.turns += 1;
            transcript.usage += usage;
            transcript.answer.clone_from(&text);
            if tool_calls.is_empty() {
                transcript.finished = true;
                break;
            }
            let mut results = Vec::with_capacity(tool_calls.len());
            for call in &mut tool_calls {
                let result = if too_deep(&call.input) {
                    isomer_sdk::json::drop_deep(std::mem::take(&mut call.input));
                    AgentToolResult {
                        call_id: call.id.clone(),
                        name: call.name.clone(),
                        content: ToolResult::error(format!(
                            "the input of tool \"{}\" nests deeper than {MAX_MESSAGE_DEPTH} levels; it was not run",
                            call.name
                        ))
                        .content,
                        is_error: true,
                    }
                } else {
                    self.call_tool(call).await
                };
                let bytes = result.bytes();
                transcript.tool_result_bytes += bytes;
                transcript.calls.push(AgentEvalCall {
                    turn,
                    name: call.name.clone(),
                    is_error: result.is_error,
                    result_bytes: bytes,
                });
                results.push(result);
            }
            messages.push(AgentMessage::Assistant {
                text,
                tool_calls,
                raw,
            });
            messages.push(AgentMessage::Tool { results });
        }
        transcript
    }

    /// Answers one call; never panics.
    async fn call_tool(&self, call: &AgentToolCall) -> AgentToolResult {
        let tools = &self.options.tools;
        let result = match tools.iter().find(|tool| tool.name == call.name) {
            Some(tool) => {
                let input = call.input.clone();
                match guard(|| tool.call(input).map(Ok::<_, BoxError>)).await {
                    Ok(result) => result,
                    Err(CallFailure { message, .. }) => {
                        ToolResult::error(format!("the tool \"{}\" panicked: {message}", tool.name))
                    }
                }
            }
            None => {
                let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
                let names = if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                };
                ToolResult::error(format!(
                    "unknown tool \"{}\"; the tools are: {names}",
                    call.name
                ))
            }
        };
        AgentToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: result.content,
            is_error: result.is_error,
        }
    }

    /// Scores `answer`, the text a run ended on, as a first attempt of `run_evals` is read.
    fn score(&self, eval_case: &EvalCase, answer: &str) -> AnswerScores {
        let runtime = self.options.runtime;
        let checked = check_attempt(runtime, answer, self.options.frame);
        let value = checked.value();
        let expected = eval_case
            .expected
            .as_deref()
            .map(|expected| score_expected_primitives(runtime.walker(), value, expected));
        let valid = checked.is_valid();
        AnswerScores {
            parsed: checked.check().is_some(),
            valid,
            errors: if valid {
                Vec::new()
            } else {
                checked.failures()
            },
            expected,
        }
    }
}

/// What scoring read from the answer of a run.
struct AnswerScores {
    parsed: bool,
    valid: bool,
    errors: Vec<String>,
    expected: Option<ExpectedPrimitivesScore>,
}

impl AnswerScores {
    /// The scores of an answer whose scoring panicked: not parsed, not valid, no errors,
    /// and a miss of the expected types when the case lists some.
    fn nothing(eval_case: &EvalCase) -> Self {
        AnswerScores {
            parsed: false,
            valid: false,
            errors: Vec::new(),
            expected: eval_case
                .expected
                .as_ref()
                .map(|_| ExpectedPrimitivesScore {
                    hit: false,
                    found: Vec::new(),
                }),
        }
    }
}

impl Transcript {
    /// The run's result: what it gathered, and the scores of its answer.
    fn into_result(
        self,
        eval_case: &EvalCase,
        repeat: u32,
        scores: AnswerScores,
    ) -> AgentEvalCaseResult {
        AgentEvalCaseResult {
            case_id: eval_case.id.clone(),
            repeat,
            finished: self.finished,
            turns: self.turns,
            usage: self.usage,
            tool_result_bytes: self.tool_result_bytes,
            answer: self.answer,
            parsed: scores.parsed,
            valid: scores.valid,
            errors: scores.errors,
            expected: scores.expected,
            tools_called: eval_case.expected_tools.as_ref().map(|expected| {
                let called: Vec<String> = self.calls.iter().map(|call| call.name.clone()).collect();
                ToolsCalledScore::of(expected, &called)
            }),
            calls: self.calls,
            error: self.error,
        }
    }
}

/// True when `value` nests deeper than [`MAX_MESSAGE_DEPTH`] (a scalar is
/// depth 1); walks with an explicit stack and stops at the first value past
/// the limit.
fn too_deep(value: &Value) -> bool {
    let mut stack = vec![(value, 1usize)];
    while let Some((value, depth)) = stack.pop() {
        if depth > MAX_MESSAGE_DEPTH {
            return true;
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|item| (item, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|item| (item, depth + 1))),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn nested(levels: usize) -> Value {
        let mut value = json!(0);
        for _ in 1..levels {
            value = json!([value]);
        }
        value
    }

    #[test]
    fn depth_counts_a_scalar_as_one_level() {
        assert!(!too_deep(&json!(null)));
        assert!(!too_deep(&nested(MAX_MESSAGE_DEPTH)));
        assert!(too_deep(&nested(MAX_MESSAGE_DEPTH + 1)));
        assert!(too_deep(&json!({ "a": [1, nested(MAX_MESSAGE_DEPTH)] })));
    }
}
