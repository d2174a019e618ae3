//! A live model for Isomer evals over any server that speaks the OpenAI Chat Completions
//! API (`POST <base URL>/chat/completions`): OpenAI, and most providers and local servers
//! such as llama.cpp, vLLM and Ollama.
//!
//! [`ChatClient`] holds the endpoint, the model, the API key the caller read, the sampling
//! settings, a timeout and the retry policy, and hands out the three callbacks an eval
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
//! Each call runs on a thread of its own and is awaited without blocking the executor, so
//! the callbacks work under any async executor and the run's timeout can end the wait.
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
    AnswerabilityVerdict, BoxError, Generate, GenerateRequest, Judge, JudgeRequest,
};
use serde_json::{Map, Value, json};

use chat::CallSettings;
pub use chat::{ChatError, Completion, ToolCall, Usage};

/// How long one HTTP exchange may take when the client sets no other: 120 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// Retries a 429, a 5xx or a failed connection gets when the client sets no other: 3.
pub const DEFAULT_RETRIES: u32 = 3;

/// The wait before the first retry when the client sets no other (and the server sends no
/// `Retry-After`): one second, doubled before each further retry.
pub const DEFAULT_BACKOFF: Duration = Duration::from_secs(1);

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
    timeout: Duration,
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
    /// [`DEFAULT_TIMEOUT`], [`DEFAULT_RETRIES`], [`DEFAULT_BACKOFF`].
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
            },
            base_url,
            timeout: DEFAULT_TIMEOUT,
            agent: agent(DEFAULT_TIMEOUT),
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
    /// (default [`DEFAULT_TIMEOUT`]); one past it fails as a [`ChatError::Transport`] and
    /// is retried like a failed connection.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self.agent = agent(timeout);
        self
    }

    /// How many times a 429, a 5xx or a failed connection is retried (default
    /// [`DEFAULT_RETRIES`]; `0` tries once).
    pub fn retries(mut self, retries: u32) -> Self {
        self.settings.retries = retries;
        self
    }

    /// The wait before the first retry, doubled before each further one, when the server
    /// sends no `Retry-After` seconds (default [`DEFAULT_BACKOFF`]; at most a minute).
    pub fn backoff(mut self, backoff: Duration) -> Self {
        self.settings.backoff = backoff;
        self
    }

    /// What a recording notes of this client (the API key never): `model`, `baseUrl`,
    /// `temperature` and `maxTokens` when set, and `client` (`isomer-openai <version>`).
    /// Hand it to `Suite::provenance`.
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
    /// server reported them.
    pub fn usage(&self) -> Usage {
        Usage {
            input_tokens: self.spent.input.load(Ordering::Relaxed),
            output_tokens: self.spent.output.load(Ordering::Relaxed),
        }
    }

    /// One call with `messages` (and `tools`, Chat Completions `tools` entries), on the
    /// calling thread.
    ///
    /// # Errors
    /// See [`ChatError`]: the server unreachable, an error status after the retries, or
    /// an answer with no completion.
    pub fn complete_blocking(
        &self,
        messages: Vec<Value>,
        tools: &[Value],
    ) -> Result<Completion, ChatError> {
        let body = chat::request_body(&self.settings, messages, tools);
        let completion = chat::complete(&self.agent, &self.settings, &body)?;
        self.spent
            .input
            .fetch_add(completion.usage.input_tokens, Ordering::Relaxed);
        self.spent
            .output
            .fetch_add(completion.usage.output_tokens, Ordering::Relaxed);
        Ok(completion)
    }

    /// [`ChatClient::complete_blocking`] on a thread of its own, awaited without blocking
    /// the executor. Dropping the future stops the wait (the thread ends with its call).
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
            let _ = answer.send(client.complete_blocking(messages, &tools));
        });
        answered.await.unwrap_or_else(|_| {
            Err(ChatError::Transport {
                url: self.settings.url.clone(),
                message: "the thread making the call ended without an answer".to_owned(),
            })
        })
    }

    /// A `generate`: sends [`GenerateRequest::model_text`] as one user message, returns
    /// the answer's text as it came, and reports the call's tokens to
    /// [`GenerateRequest::usage`] (a live run's report counts them).
    pub fn generate(&self) -> Generate<'static> {
        let client = self.clone();
        Generate::new(move |request: GenerateRequest| {
            let client = client.clone();
            async move {
                let messages = vec![json!({"role": "user", "content": request.model_text()})];
                let completion = client.complete(messages, Vec::new()).await?;
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
    /// Any other answer fails the call, quoting it.
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
                let completion = client.complete(messages, Vec::new()).await?;
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
    /// joined by newlines), and the answer's text, tool calls and token usage back.
    pub fn step(&self) -> AgentStep<'static> {
        agent::step(self.clone())
    }
}

/// A call's tokens as the evals count them.
pub(crate) fn agent_usage(usage: Usage) -> AgentUsage {
    AgentUsage {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
    }
}

fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
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
