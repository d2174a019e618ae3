//! The inputs of a run: [`EvalCase`], and the two caller callbacks,
//! [`Generate`] (the model) and [`Judge`] (the answerability judge), with
//! their requests (upstream `EvalCase`, `GenerateRequest`, `JudgeRequest`).

use std::fmt;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::callback::Callback;

/// One question of a corpus.
///
/// On the wire (`corpus.json`): `{ "id", "prompt", "golden"?, "expected"? }`, and for an
/// agent corpus `"expectedTools"` (tool names called in this order) or `"expectedToolSet"`
/// (tool names each called, in any order), read into [`EvalCase::expected_tools`].
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
    /// The tools an agent run of the case is expected to call; read only by agent runs,
    /// whose `tools_called` axis scores it (see [`ExpectedTools`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_tools: Option<ExpectedTools>,
}

/// Tools an agent run is expected to call, by name: in this order (each after the one
/// before it, other calls allowed between them) or as a set (each at least once, in any
/// order). Scored per run as the agent axis `tools_called`, which the `tools_called` case
/// floor and the `min_tools_called_ratio` suite floor read.
///
/// On the wire `{ "names": [...], "order": "inOrder" | "anyOrder" }`; in `corpus.json` a
/// case says `"expectedTools": [...]` (in order) or `"expectedToolSet": [...]` (any order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpectedTools {
    /// The tool names.
    pub names: Vec<String>,
    /// Whether their order counts: set by [`ExpectedTools::in_order`] or
    /// [`ExpectedTools::any_order`].
    order: ToolOrder,
}

/// Whether [`ExpectedTools`] are expected in order or as a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum ToolOrder {
    /// Each name called after the one before it (a subsequence of the calls).
    InOrder,
    /// Each name called at least once, in any order.
    AnyOrder,
}

impl ExpectedTools {
    /// `names` called in this order.
    pub fn in_order<I: IntoIterator<Item = S>, S: Into<String>>(names: I) -> Self {
        ExpectedTools {
            names: names.into_iter().map(Into::into).collect(),
            order: ToolOrder::InOrder,
        }
    }

    /// The expectation a manifest case states (`(names, in_order)`, see
    /// `isomer_corpus::ManifestCase::expected_tools`).
    pub(crate) fn from_manifest(stated: Option<(Vec<String>, bool)>) -> Option<Self> {
        stated.map(|(names, in_order)| ExpectedTools {
            names,
            order: if in_order {
                ToolOrder::InOrder
            } else {
                ToolOrder::AnyOrder
            },
        })
    }

    /// `names` each called, in any order.
    pub fn any_order<I: IntoIterator<Item = S>, S: Into<String>>(names: I) -> Self {
        ExpectedTools {
            names: names.into_iter().map(Into::into).collect(),
            order: ToolOrder::AnyOrder,
        }
    }

    /// Whether `called` (the names of a run's tool calls, in the order made) meets the
    /// expectation: in order, the names are a subsequence of `called`; as a set, each
    /// name is in `called`. An empty expectation always holds.
    pub fn met_by(&self, called: &[String]) -> bool {
        match self.order {
            ToolOrder::InOrder => {
                let mut calls = called.iter();
                self.names.iter().all(|name| calls.any(|call| call == name))
            }
            ToolOrder::AnyOrder => self.names.iter().all(|name| called.contains(name)),
        }
    }
}

impl std::fmt::Display for ExpectedTools {
    /// `in order [a, b]` or `in any order [a, b]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let order = match self.order {
            ToolOrder::InOrder => "in order",
            ToolOrder::AnyOrder => "in any order",
        };
        write!(f, "{order} [{}]", self.names.join(", "))
    }
}

impl EvalCase {
    /// A case with an id and a prompt, no golden and no expected types.
    pub fn new(id: impl Into<String>, prompt: impl Into<String>) -> Self {
        EvalCase {
            id: id.into(),
            prompt: prompt.into(),
            golden: None,
            expected: None,
            expected_tools: None,
        }
    }

    /// The same case with a golden composition.
    pub fn with_golden(mut self, golden: Value) -> Self {
        self.golden = Some(golden);
        self
    }

    /// The same case with the tools an agent run is expected to call.
    pub fn with_expected_tools(mut self, expected_tools: ExpectedTools) -> Self {
        self.expected_tools = Some(expected_tools);
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
    /// a run; it holds neither the case prompt nor the previous errors. Built
    /// the first time any request's prompt is read.
    pub prompt: Prompt,
    /// `0` for the first try, `1` for the single retry.
    pub attempt: u32,
    /// Only on attempt `1`: the first attempt's failures (one JSON-parse
    /// message, or the formatted schema, validation and frame findings).
    /// `None` on attempt `0`. May be empty when the runtime gave no detail.
    pub previous_errors: Option<Vec<String>>,
    /// Which run of the case this is, `0 .. repeat` ([`RunEvalsOptions::repeat`](crate::RunEvalsOptions::repeat)):
    /// each repeat asks the model afresh, and a replay answers repeat `k` from its own
    /// recording (see [`isomer_corpus::recording_name`]).
    pub repeat: u32,
    /// Where the call may report the tokens it spent ([`UsageMeter::add`]); a call that
    /// reports nothing counts as zero tokens.
    pub usage: UsageMeter,
}

/// Tokens one turn spent, as the provider reported them (upstream
/// `AgentUsage`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentUsage {
    /// Tokens read (the whole prompt of that turn, as providers bill it).
    pub input_tokens: u64,
    /// Tokens written.
    pub output_tokens: u64,
}

impl std::ops::AddAssign for AgentUsage {
    fn add_assign(&mut self, other: AgentUsage) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
    }
}

/// Where a `generate` or `judge` call reports the tokens it spent, as its provider counted
/// them: `request.usage.add(AgentUsage { input_tokens, output_tokens })`, once per model
/// call (reports add up); and, when the provider says why the answer ended, its finish
/// reason (`request.usage.set_finish_reason("stop")`). A callback that reports nothing is
/// left as it was: the run then counts zero tokens for it and knows no finish reason.
///
/// [`run_evals`](crate::run_evals) hands each request a meter of its own and adds what was
/// reported to the case's tokens when [`RunEvalsOptions::measure`](crate::RunEvalsOptions::measure)
/// is set; the eval harness keeps each live call's tokens and finish reason in its run file.
/// Clones share the count. Two meters are equal when their counts and finish reasons are.
#[derive(Clone, Default)]
pub struct UsageMeter(Arc<Mutex<Metered>>);

/// What a [`UsageMeter`] has been told.
#[derive(Debug, Clone, Default, PartialEq)]
struct Metered {
    usage: AgentUsage,
    finish_reason: Option<String>,
}

impl UsageMeter {
    /// Adds `usage` to what this meter has counted (saturating).
    pub fn add(&self, usage: AgentUsage) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).usage += usage;
    }

    /// The tokens reported so far.
    pub fn total(&self) -> AgentUsage {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).usage
    }

    /// Notes why the provider ended the answer, as it names it (Chat Completions'
    /// `finish_reason`: `stop`, `length`, `tool_calls`, `content_filter`); a later report
    /// replaces an earlier one.
    pub fn set_finish_reason(&self, reason: impl Into<String>) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .finish_reason = Some(reason.into());
    }

    /// The finish reason reported last, if any.
    pub fn finish_reason(&self) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .finish_reason
            .clone()
    }
}

impl fmt::Debug for UsageMeter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let metered = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        f.debug_tuple("UsageMeter")
            .field(&metered.usage)
            .field(&metered.finish_reason)
            .finish()
    }
}

impl PartialEq for UsageMeter {
    /// Equal counts and finish reasons.
    fn eq(&self, other: &Self) -> bool {
        let mine = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let theirs = other
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        mine == theirs
    }
}

/// The authoring prompt of a run, shared by every request of it and read as a
/// `str` (`&*request.prompt`, `request.prompt.len()`).
///
/// [`run_evals`](crate::run_evals) builds it from the runtime's authoring context
/// the first time any request reads it, then keeps it: a `generate` that never
/// reads the prompt (a replay of recorded answers) never pays for building it.
/// Clones share the one text.
#[derive(Clone)]
pub struct Prompt(Arc<LazyLock<String, Box<dyn FnOnce() -> String + Send>>>);

impl Prompt {
    /// A prompt that is already built.
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        Prompt::lazy(move || text)
    }

    /// A prompt built by `build` when it is first read.
    pub(crate) fn lazy(build: impl FnOnce() -> String + Send + 'static) -> Self {
        Prompt(Arc::new(LazyLock::new(Box::new(build))))
    }

    /// The text, built now if it was not yet.
    pub fn as_str(&self) -> &str {
        LazyLock::force(&self.0).as_str()
    }
}

impl std::ops::Deref for Prompt {
    type Target = str;

    /// The text, built now if it was not yet.
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Prompt {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Prompt {
    /// The text, as it is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Prompt {
    /// The text as a quoted string, as `Debug` of `str` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for Prompt {
    /// Equal texts (both built to compare).
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl GenerateRequest {
    /// The text a model is handed for this request, as the recorded corpora were written:
    /// the shared prompt, then `## Request` and the case's prompt, then on the retry
    /// `## Previous errors` and the first attempt's failures one per line, the sections
    /// joined by a blank line. A live `generate` sends it as one user message.
    pub fn model_text(&self) -> String {
        let mut text = format!(
            "{}\n\n## Request\n\n{}",
            &*self.prompt, self.eval_case.prompt
        );
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
    /// Which run of the case this is, as in [`GenerateRequest::repeat`].
    pub repeat: u32,
    /// Where the call may report the tokens it spent, as in [`GenerateRequest::usage`].
    pub usage: UsageMeter,
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
