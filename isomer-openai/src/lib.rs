//! A live model for Isomer evals over any server that speaks the OpenAI Chat Completions
//! API (`POST <base URL>/chat/completions`): OpenAI, and most providers and local servers
//! such as llama.cpp, vLLM and Ollama.
//!
//! [`ChatClient`] holds the endpoint, the model, the API key the caller read, the sampling
//! settings, the timeouts and the retry policy, and hands out the three callbacks an eval
//! takes: [`ChatClient::generate`], [`ChatClient::judge`] and the agent
//! [`ChatClient::step`]. Record a corpus with them through the eval harness
//! (`ISOMER_EVAL_RECORD=missing cargo test ...`, see `isomer_evals::harness`), or pass
//! them to `run_evals` for a live run. The core crates stay free of an HTTP stack: only
//! this crate depends on one (`ureq`, blocking, with rustls).
//!
//! ```no_run
//! use isomer_evals::harness::Suite;
//! use isomer_openai::ChatClient;
//!
//! fn slides(runtime: impl isomer_evals::EvalRuntime + Send + 'static) -> Suite {
//!     let key = std::env::var("OPENAI_API_KEY").unwrap_or_default();
//!     let model = ChatClient::new("https://api.openai.com/v1", "gpt-4.1", key).temperature(0.0);
//!     Suite::new(runtime)
//!         .live(model.generate())
//!         .judge(model.judge())
//!         .provenance(model.provenance())
//! }
//! ```
//!
//! Only text is an answer: a 200 holding a tool call (where no tool was offered), a
//! refusal, empty text, or a finish marking it cut or filtered (`length`,
//! `content_filter`, vLLM's `abort`, `error`, `repetition`) fails the call, naming
//! why ([`ChatError::Unanswered`], [`Unanswered`]), so a recording harness writes
//! nothing for it and asks again on a later run.
//!
//! Time: each HTTP exchange may take [`DEFAULT_TIMEOUT`] (50 s) and a whole call, retries
//! and waits included, [`DEFAULT_DEADLINE`] (110 s), under the harness's 120-second trial
//! timeout, so a hung exchange gets one retry and no call outlives its trial. A 429, a
//! 5xx, a failed connection or a timed-out exchange is retried ([`DEFAULT_RETRIES`]),
//! after the wait the server asks (`retry-after-ms`, or `Retry-After` in seconds or as an
//! HTTP date) or an exponential backoff, each wait capped at [`DEFAULT_MAX_WAIT`]; a 200
//! whose body is cut short is retried once. Every figure is a builder setting.
//!
//! Each call runs on a thread of its own and is awaited without blocking the executor, so
//! the callbacks work under any async executor and the run's timeout can end the wait
//! (and the call: see [`ChatClient::complete`]).
//! This crate reads no environment variable and writes no file.

#![forbid(unsafe_code)]

mod agent;
mod chat;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures::channel::oneshot;
use isomer_evals::agent::{AgentStep, AgentUsage};
use isomer_evals::{
    AnswerabilityVerdict, BoxError, Generate, GenerateRequest, Judge, JudgeRequest, UsageMeter,
};
use serde_json::{Map, Value, json};

use chat::CallSettings;
pub use chat::{ChatError, Completion, ToolCall, Unanswered, Usage};

/// How long one HTTP exchange (connecting, sending, reading the whole answer) may take
/// when the client sets no other: 50 seconds. Two exchanges and the first backoff fit in
/// [`DEFAULT_DEADLINE`], so a hung exchange gets its retry.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(50);

/// How long one call may take, every attempt and wait included, when the client sets no
/// other: 110 seconds, under the eval harness's 120-second trial timeout
/// ([`isomer_evals::harness::DEFAULT_LIVE_TIMEOUT`]), so a call ends, and its thread with it,
/// before the trial that made it gives up. Raise it with that timeout (`Suite::timeout`),
/// keeping it below.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(110);

/// Retries a 429, a 5xx, a failed connection or a timed-out exchange gets when the client
/// sets no other: 3.
pub const DEFAULT_RETRIES: u32 = 3;

/// The wait before the first retry when the client sets no other (and the server asks for
/// none): one second, doubled before each further retry.
pub const DEFAULT_BACKOFF: Duration = Duration::from_secs(1);

/// The longest wait between two attempts when the client sets no other, whatever the
/// server asks (`Retry-After`, `retry-after-ms`) or the backoff comes to: 30 seconds.
pub const DEFAULT_MAX_WAIT: Duration = Duration::from_secs(30);

/// The system message [`ChatClient::judge`] sends: the judge reads the request and the
/// text rendering of the validated answer, and answers one word.
pub const JUDGE_SYSTEM: &str = "You judge whether an answer, shown as the text a host renders \
for its user, answers the user's request. Reply with exactly one word: yes if it answers the \
whole request, partial if it answers part of it, no if it does not answer it.";

/// A Chat Completions client for one model. Build it with [`ChatClient::new`] and the
/// setters; `Clone` shares the connection pool and the token counters.
#[derive(Debug, Clone)]
pub struct ChatClient {
    settings: CallSettings,
    base_url: String,
    agent: ureq::Agent,
    spent: Arc<Spent>,
}

#[derive(Debug, Default)]
struct Spent {
    input: AtomicU64,
    output: AtomicU64,
}

impl ChatClient {
    /// A client for `model` at `base_url` (the API root, such as
    /// `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`; calls go to
    /// `<base_url>/chat/completions`), sending `api_key` as a bearer token (none when
    /// empty, as local servers take). The server's default temperature, no token limit,
    /// [`DEFAULT_TIMEOUT`], [`DEFAULT_DEADLINE`], [`DEFAULT_RETRIES`], [`DEFAULT_BACKOFF`],
    /// [`DEFAULT_MAX_WAIT`].
    pub fn new(
        base_url: impl Into<String>,
        model: impl Into<String>,
        api_key: impl Into<String>,
    ) -> Self {
        let base_url: String = base_url.into();
        let url = format!("{}/chat/completions", base_url.trim_end_matches('/'));
        ChatClient {
            settings: CallSettings {
                url,
                model: model.into(),
                api_key: api_key.into(),
                temperature: None,
                max_tokens: None,
                retries: DEFAULT_RETRIES,
                backoff: DEFAULT_BACKOFF,
                max_wait: DEFAULT_MAX_WAIT,
                timeout: DEFAULT_TIMEOUT,
                deadline: DEFAULT_DEADLINE,
            },
            base_url,
            agent: agent(),
            spent: Arc::default(),
        }
    }

    /// The sampling temperature sent with every call (default: none sent, the server's).
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.settings.temperature = Some(temperature);
        self
    }

    /// The most tokens one answer may have, sent as `max_tokens` (default: none sent).
    pub fn max_tokens(mut self, max_tokens: u32) -> Self {
        self.settings.max_tokens = Some(max_tokens);
        self
    }

    /// How long one HTTP exchange may take, connecting to reading the whole answer
    /// (default [`DEFAULT_TIMEOUT`]), and never past the call's [`ChatClient::deadline`];
    /// one past it is retried like a failed connection. Keep two of them and the first
    /// backoff inside the deadline, so a hung exchange gets its retry.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.settings.timeout = timeout;
        self
    }

    /// How long one call may take, every attempt and every wait included (default
    /// [`DEFAULT_DEADLINE`]). The exchange running when it comes is cut off, and a retry
    /// whose wait would end past it is not made: the call fails as
    /// [`ChatError::Deadline`]. Keep it below the harness's trial timeout
    /// (`Suite::timeout`), so no call outlives the trial that made it.
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.settings.deadline = deadline;
        self
    }

    /// How many times a 429, a 5xx, a failed connection or a timed-out exchange is retried
    /// (default [`DEFAULT_RETRIES`]; `0` tries once). A 200 whose body is cut short (the
    /// connection closed mid-body, or JSON ending early) is retried once, within these.
    pub fn retries(mut self, retries: u32) -> Self {
        self.settings.retries = retries;
        self
    }

    /// The wait before the first retry, doubled before each further one, when the server
    /// asks for no wait of its own (default [`DEFAULT_BACKOFF`]).
    pub fn backoff(mut self, backoff: Duration) -> Self {
        self.settings.backoff = backoff;
        self
    }

    /// The longest wait between two attempts (default [`DEFAULT_MAX_WAIT`]): a server
    /// asking for more (`retry-after-ms` in milliseconds, else `Retry-After` in seconds or
    /// as an HTTP date) is retried after this much instead.
    pub fn max_wait(mut self, max_wait: Duration) -> Self {
        self.settings.max_wait = max_wait;
        self
    }

    /// What a recording notes of this client (the API key never): `model`, `baseUrl`,
    /// `temperature` and `maxTokens` when set, and `client` (`isomer-openai <version>`).
    /// Hand it to `Suite::provenance` (or `Configuration::provenance`).
    pub fn provenance(&self) -> Map<String, Value> {
        let mut provenance = Map::new();
        provenance.insert("model".to_owned(), json!(self.settings.model));
        provenance.insert("baseUrl".to_owned(), json!(self.base_url));
        if let Some(temperature) = self.settings.temperature {
            provenance.insert("temperature".to_owned(), json!(temperature));
        }
        if let Some(max_tokens) = self.settings.max_tokens {
            provenance.insert("maxTokens".to_owned(), json!(max_tokens));
        }
        provenance.insert(
            "client".to_owned(),
            json!(concat!("isomer-openai ", env!("CARGO_PKG_VERSION"))),
        );
        provenance
    }

    /// The tokens every call of this client and its clones has spent so far, as the
    /// server reported them: answers, and 200s that were no answer
    /// ([`ChatError::Unanswered`]).
    pub fn usage(&self) -> Usage {
        Usage {
            input_tokens: self.spent.input.load(Ordering::Relaxed),
            output_tokens: self.spent.output.load(Ordering::Relaxed),
        }
    }

    /// One call with `messages` (and `tools`, Chat Completions `tools` entries), on the
    /// calling thread, within the client's [`ChatClient::deadline`].
    ///
    /// Only text is an answer: a 200 whose message holds no text, or text the server marks
    /// refused, filtered or cut, fails as [`ChatError::Unanswered`]. When `tools` is not
    /// empty, a turn of tool calls (with or without text) is an answer too.
    ///
    /// # Errors
    /// See [`ChatError`]: the server unreachable or silent, an error status after the
    /// retries, a body cut short twice, an answer with no completion, a completion that is
    /// no answer, or the deadline passed.
    pub fn complete_blocking(
        &self,
        messages: Vec<Value>,
        tools: &[Value],
    ) -> Result<Completion, ChatError> {
        self.complete_until(messages, tools, &|| false)
    }

    /// [`ChatClient::complete_blocking`], ending early once `cancelled` says yes (asked
    /// before each attempt and during each wait).
    fn complete_until(
        &self,
        messages: Vec<Value>,
        tools: &[Value],
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Completion, ChatError> {
        let body = chat::request_body(&self.settings, messages, tools);
        let answer = chat::complete(
            &self.agent,
            &self.settings,
            &body,
            !tools.is_empty(),
            cancelled,
        );
        let usage = match &answer {
            Ok(completion) => completion.usage,
            Err(ChatError::Unanswered { usage, .. }) => *usage,
            Err(_) => Usage::default(),
        };
        self.spent
            .input
            .fetch_add(usage.input_tokens, Ordering::Relaxed);
        self.spent
            .output
            .fetch_add(usage.output_tokens, Ordering::Relaxed);
        answer
    }

    /// [`ChatClient::complete_blocking`] on a thread of its own, awaited without blocking
    /// the executor. Dropping the future (a trial's timeout does) ends the call: no
    /// further attempt or wait is made, and the exchange under way ends within its
    /// [`ChatClient::timeout`].
    ///
    /// # Errors
    /// As [`ChatClient::complete_blocking`].
    pub async fn complete(
        &self,
        messages: Vec<Value>,
        tools: Vec<Value>,
    ) -> Result<Completion, ChatError> {
        let (answer, answered) = oneshot::channel();
        let client = self.clone();
        std::thread::spawn(move || {
            let completion = client.complete_until(messages, &tools, &|| answer.is_canceled());
            let _ = answer.send(completion);
        });
        answered.await.unwrap_or_else(|_| {
            Err(ChatError::Transport {
                url: self.settings.url.clone(),
                attempts: 0,
                message: "the thread making the call ended without an answer".to_owned(),
            })
        })
    }

    /// A model configuration labelled `label` for `Suite::configuration`, with this
    /// client's [`generate`](ChatClient::generate), [`judge`](ChatClient::judge) and
    /// [`provenance`](ChatClient::provenance); add its price, caps and recordings
    /// directory there. The judge asks this same model: for another judge, build the
    /// configuration with `Configuration::new` and that client's `judge`.
    ///
    /// ```no_run
    /// use isomer_evals::harness::Suite;
    /// use isomer_evals::run_file::Price;
    /// use isomer_openai::ChatClient;
    ///
    /// fn slides(runtime: impl isomer_evals::EvalRuntime + Send + 'static) -> Suite {
    ///     let key = std::env::var("OPENAI_API_KEY").unwrap_or_default();
    ///     let gpt = ChatClient::new("https://api.openai.com/v1", "gpt-4.1", key);
    ///     let local = ChatClient::new("http://127.0.0.1:8080/v1", "qwen2.5", "");
    ///     Suite::new(runtime)
    ///         .configuration(gpt.configuration("gpt-4.1").price(Price::per_million(2.0, 8.0)))
    ///         .configuration(local.configuration("qwen2.5").recordings("corpus/slides-qwen2.5"))
    /// }
    /// ```
    pub fn configuration(&self, label: impl Into<String>) -> isomer_evals::harness::Configuration {
        isomer_evals::harness::Configuration::new(label)
            .live(self.generate())
            .judge(self.judge())
            .provenance(self.provenance())
    }

    /// A `generate`: sends [`GenerateRequest::model_text`] as one user message, returns
    /// the answer's text as it came, and reports the call's tokens to
    /// [`GenerateRequest::usage`] (a live run's report counts them). An answer that is not
    /// text fails the call ([`ChatError::Unanswered`]).
    pub fn generate(&self) -> Generate<'static> {
        let client = self.clone();
        Generate::new(move |request: GenerateRequest| {
            let client = client.clone();
            async move {
                let messages = vec![json!({"role": "user", "content": request.model_text()})];
                let answer = client.complete(messages, Vec::new()).await;
                note_finish_reason(&request.usage, &answer);
                let completion = answer?;
                request.usage.add(agent_usage(completion.usage));
                Ok::<_, BoxError>(completion.text)
            }
        })
    }

    /// A `judge`: sends [`JUDGE_SYSTEM`], then one user message with `## Request` and the
    /// case's prompt and `## Answer` and the text rendering, and reads the verdict from
    /// the answer's first word (`yes`, `partial` or `no`, any case, punctuation ignored);
    /// the call's tokens go to [`JudgeRequest::usage`].
    ///
    /// Any other answer fails the call, quoting it; so does one that is not text
    /// ([`ChatError::Unanswered`]: a refusal, a cut or filtered answer, no text).
    pub fn judge(&self) -> Judge<'static> {
        let client = self.clone();
        Judge::new(move |request: JudgeRequest| {
            let client = client.clone();
            async move {
                let messages = vec![
                    json!({"role": "system", "content": JUDGE_SYSTEM}),
                    json!({
                        "role": "user",
                        "content": format!(
                            "## Request\n\n{}\n\n## Answer\n\n{}",
                            request.eval_case.prompt, request.rendered
                        ),
                    }),
                ];
                let answer = client.complete(messages, Vec::new()).await;
                note_finish_reason(&request.usage, &answer);
                let completion = answer?;
                request.usage.add(agent_usage(completion.usage));
                verdict(&completion.text).ok_or_else(|| {
                    BoxError::from(format!(
                        "the judge answered {:?}, not yes, partial or no",
                        completion.text
                    ))
                })
            }
        })
    }

    /// An agent `step`: the system prompt, the conversation and the tools in Chat
    /// Completions form (tool results as `tool` messages, one per call, their text blocks
    /// joined by newlines), and the answer's text, tool calls and token usage back. A turn
    /// of tool calls is an answer here (when the eval offers tools); a refusal, a cut or
    /// filtered turn, or one with neither text nor a tool call fails the call
    /// ([`ChatError::Unanswered`]).
    pub fn step(&self) -> AgentStep<'static> {
        agent::step(self.clone())
    }
}

/// A call's tokens as the evals count them.
/// Notes the provider's `finish_reason` of a call on `meter`, for the run file: the
/// answer's, or the one a non-answer ([`ChatError::Unanswered`]) carries; nothing when the
/// provider sent none or the call failed before an answer came.
fn note_finish_reason(meter: &UsageMeter, answer: &Result<Completion, ChatError>) {
    let reason = match answer {
        Ok(completion) => completion.finish_reason.as_deref(),
        Err(ChatError::Unanswered { finish_reason, .. }) => finish_reason.as_deref(),
        Err(_) => None,
    };
    if let Some(reason) = reason {
        meter.set_finish_reason(reason);
    }
}

pub(crate) fn agent_usage(usage: Usage) -> AgentUsage {
    AgentUsage {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
    }
}

/// The connection pool every clone shares; each request sets its own timeout.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// The verdict an answer's first word names.
fn verdict(answer: &str) -> Option<AnswerabilityVerdict> {
    let word: String = answer
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect();
    match word.as_str() {
        "yes" => Some(AnswerabilityVerdict::Yes),
        "partial" | "partially" => Some(AnswerabilityVerdict::Partial),
        "no" => Some(AnswerabilityVerdict::No),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hung_exchange_and_its_retry_fit_in_the_deadline_and_the_deadline_in_a_trial() {
        assert!(DEFAULT_TIMEOUT * 2 + DEFAULT_BACKOFF <= DEFAULT_DEADLINE);
        assert!(DEFAULT_DEADLINE < isomer_evals::harness::DEFAULT_LIVE_TIMEOUT);
        assert!(DEFAULT_MAX_WAIT < DEFAULT_DEADLINE);
    }

    #[test]
    fn the_verdict_is_the_first_word() {
        assert_eq!(verdict("Yes."), Some(AnswerabilityVerdict::Yes));
        assert_eq!(
            verdict(" partial: the totals are missing"),
            Some(AnswerabilityVerdict::Partial)
        );
        assert_eq!(verdict("NO"), Some(AnswerabilityVerdict::No));
        assert_eq!(verdict("Maybe"), None);
        assert_eq!(verdict(""), None);
    }

    #[test]
    fn provenance_names_the_model_and_settings_but_not_the_key() {
        let client =
            ChatClient::new("http://127.0.0.1:8080/v1/", "qwen", "secret").temperature(0.5);
        assert_eq!(
            Value::Object(client.provenance()),
            json!({
                "model": "qwen",
                "baseUrl": "http://127.0.0.1:8080/v1/",
                "temperature": 0.5,
                "client": concat!("isomer-openai ", env!("CARGO_PKG_VERSION")),
            })
        );
        assert_eq!(
            client.settings.url,
            "http://127.0.0.1:8080/v1/chat/completions"
        );
    }
}
