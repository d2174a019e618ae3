//! One Chat Completions call: the request body, the POST with its retries inside the
//! call's deadline, and the answer read back ([`Completion`]), or a [`ChatError`] saying
//! what went wrong and where.
//!
//! Only text is an answer (and, when tools were offered, a turn of tool calls): a 200
//! whose message holds none is a failed call naming why ([`Unanswered`]).

use std::fmt;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Map, Value, json};

/// Tokens a call spent, as the server reported them in `usage` (`prompt_tokens`,
/// `completion_tokens`); zero when it reported none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Tokens read (`prompt_tokens`).
    pub input_tokens: u64,
    /// Tokens written (`completion_tokens`).
    pub output_tokens: u64,
}

/// A tool call in an answer: `tool_calls[i]` of the first choice's message.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The server's id of the call (`id`), echoed on the tool's result.
    pub id: String,
    /// The function called (`function.name`).
    pub name: String,
    /// The arguments (`function.arguments`), parsed from the JSON text the server sends;
    /// text that is not JSON is kept as a JSON string, for the tool to refuse.
    pub input: Value,
}

/// The answer of one call: the first choice's message, which holds text (not blank), or,
/// when the call offered tools, tool calls (see [`Unanswered`] for every other answer).
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// `message.content` as sent (a list of content parts is joined from its `text`
    /// parts); empty when the server sent `null` in a turn of tool calls.
    pub text: String,
    /// `message.tool_calls`, in order: at least one when `text` is blank, and none when
    /// the call offered no tools.
    pub tool_calls: Vec<ToolCall>,
    /// `choices[0].finish_reason` as the server named it (`stop`, `tool_calls`, or a
    /// server's own name such as TGI's `eos_token`); `None` when it sent none.
    pub finish_reason: Option<String>,
    /// What the call spent.
    pub usage: Usage,
}

/// Why a 200 answer is not an answer. Only text is an answer to `generate` and `judge`
/// (they offer no tools), and text or tool calls to an agent `step`; the fields each
/// provider uses for anything else map here:
///
/// | answer | OpenAI | llama.cpp, vLLM, Ollama |
/// |---|---|---|
/// | [`NoChoices`](Self::NoChoices) | `choices: []` | `choices: []` |
/// | [`Refusal`](Self::Refusal) | `message.refusal` (structured outputs) | (the same field when sent) |
/// | [`ContentFilter`](Self::ContentFilter) | `finish_reason: "content_filter"` (also Azure OpenAI) | — |
/// | [`Length`](Self::Length) | `finish_reason: "length"` | `finish_reason: "length"` (the token limit, or Ollama's `num_ctx` filled by the prompt) |
/// | [`Stopped`](Self::Stopped) | — | vLLM's `finish_reason` `"abort"`, `"error"` or `"repetition"` |
/// | [`ToolCalls`](Self::ToolCalls) | `content: null` with `tool_calls` | `content: null` or `""` with `tool_calls`, `finish_reason: "tool_calls"` |
/// | [`FunctionCall`](Self::FunctionCall) | legacy `message.function_call` | — |
/// | [`Empty`](Self::Empty) | `content` `null`, `""` or blank | the same, or the text only in `reasoning_content` (llama.cpp, vLLM) or `reasoning` (Ollama, newer vLLM) |
///
/// They are checked in that order: a refusal is named before the finish reason, and a
/// cut answer before the tool calls it may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unanswered {
    /// `choices` is an empty array.
    NoChoices,
    /// The message holds a `refusal`: the model declined, and says why.
    Refusal {
        /// The refusal text, as sent.
        text: String,
    },
    /// `finish_reason` is `content_filter`: the provider withheld the answer, or cut it.
    ContentFilter,
    /// `finish_reason` is `length`: the answer was cut at the token limit (or the
    /// context window), mid-text or mid-call.
    Length,
    /// `finish_reason` is one of vLLM's for an answer the server ended before the model
    /// did: `abort`, `error`, or `repetition` (it caught the model repeating itself).
    Stopped,
    /// The message holds `tool_calls` and the call offered no tools.
    ToolCalls {
        /// The functions called, in order.
        names: Vec<String>,
    },
    /// The message holds a legacy `function_call` (this client offers tools only as
    /// `tools`, so it never asks for one).
    FunctionCall {
        /// The function called (`function_call.name`).
        name: String,
    },
    /// The message's text is missing, empty or only whitespace, and it calls no tool.
    Empty {
        /// The field holding the model's reasoning, when it wrote some there
        /// (`reasoning_content` or `reasoning`), and the characters it holds.
        reasoning: Option<(String, usize)>,
    },
}

impl fmt::Display for Unanswered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unanswered::NoChoices => f.write_str("`choices` is empty"),
            Unanswered::Refusal { text } => write!(f, "the model refused: {text:?}"),
            Unanswered::ContentFilter => f.write_str("the provider's content filter withheld it"),
            Unanswered::Length => f.write_str("the answer was cut at the token limit"),
            Unanswered::Stopped => f.write_str("the server stopped the answer before its end"),
            Unanswered::ToolCalls { names } => write!(
                f,
                "the model called tools ({}) where only text answers",
                names.join(", ")
            ),
            Unanswered::FunctionCall { name } => write!(
                f,
                "the model called the function {name} (legacy `function_call`) where only text answers"
            ),
            Unanswered::Empty { reasoning: None } => f.write_str("the answer is empty"),
            Unanswered::Empty {
                reasoning: Some((field, chars)),
            } => write!(
                f,
                "the answer is empty (the model wrote only reasoning: {chars} characters in `{field}`)"
            ),
        }
    }
}

/// Why a call failed. Nothing of a failed call is an answer: a harness records nothing
/// and asks again later.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChatError {
    /// The server could not be reached, or the connection failed, or no answer came
    /// within the exchange's timeout, on every attempt.
    #[error("POST {url} failed after {attempts} attempt(s): {message}")]
    Transport {
        /// The endpoint.
        url: String,
        /// Calls made, retries included.
        attempts: u32,
        /// What went wrong on the last attempt.
        message: String,
    },
    /// The server answered with a status other than 200, after the retries a 429 or a
    /// 5xx gets; `body` is the start of its answer (at most 500 characters).
    #[error("POST {url} answered HTTP {status} after {attempts} attempt(s): {body}")]
    Status {
        /// The endpoint.
        url: String,
        /// The HTTP status of the last answer.
        status: u16,
        /// Calls made, retries included.
        attempts: u32,
        /// The start of the last answer's body.
        body: String,
    },
    /// The server answered 200 and the body was cut short (the connection closed
    /// mid-body, or its JSON ends early), on the last attempt and the one retry a cut
    /// body gets.
    #[error("POST {url} answered 200 with a body cut short after {attempts} attempt(s): {message}")]
    CutBody {
        /// The endpoint.
        url: String,
        /// Calls made, retries included.
        attempts: u32,
        /// How the body ended.
        message: String,
    },
    /// The server answered 200 with a body that is not a Chat Completions answer.
    #[error("POST {url} answered with no usable completion: {message}")]
    Malformed {
        /// The endpoint.
        url: String,
        /// What is missing or wrong.
        message: String,
    },
    /// The server answered 200 with a completion that is not an answer: no text (or, for
    /// a call offering tools, no tool call), or text it marks as refused, filtered or cut.
    #[error("POST {url} gave no answer: {reason} (finish_reason {})", finish(.finish_reason))]
    Unanswered {
        /// The endpoint.
        url: String,
        /// Why it is not an answer.
        reason: Unanswered,
        /// `choices[0].finish_reason` as the server named it.
        finish_reason: Option<String>,
        /// `message.content` as sent (the cut text of a `length` answer), empty when none.
        text: String,
        /// What the call spent (counted in [`ChatClient::usage`](crate::ChatClient::usage)).
        usage: Usage,
    },
    /// The call's deadline came before an answer: the last attempt was failing, and
    /// another would not fit (or the last one was cut off by the deadline).
    #[error(
        "POST {url} gave up after {attempts} attempt(s): the call's deadline of {deadline:?} leaves no time for another; the last attempt: {last}"
    )]
    Deadline {
        /// The endpoint.
        url: String,
        /// Calls made, retries included.
        attempts: u32,
        /// The deadline ([`ChatClient::deadline`](crate::ChatClient::deadline)).
        deadline: Duration,
        /// What the last attempt met.
        last: String,
    },
}

fn finish(reason: &Option<String>) -> String {
    reason
        .as_ref()
        .map_or_else(|| "none".to_owned(), |reason| format!("{reason:?}"))
}

/// How one client calls: the endpoint, what it sends, and how it waits and retries.
#[derive(Debug, Clone)]
pub(crate) struct CallSettings {
    pub url: String,
    pub model: String,
    pub api_key: String,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub retries: u32,
    pub backoff: Duration,
    pub max_wait: Duration,
    pub timeout: Duration,
    pub deadline: Duration,
}

/// The most characters of an error body a [`ChatError::Status`] keeps.
const BODY_SHOWN: usize = 500;

/// How often a wait between attempts checks whether its caller still waits.
const CANCEL_CHECK: Duration = Duration::from_millis(20);

/// The request body: `model`, `messages`, then `temperature`, `max_tokens` and `tools`
/// when set.
pub(crate) fn request_body(
    settings: &CallSettings,
    messages: Vec<Value>,
    tools: &[Value],
) -> Value {
    let mut body = Map::new();
    body.insert("model".to_owned(), Value::String(settings.model.clone()));
    body.insert("messages".to_owned(), Value::Array(messages));
    if let Some(temperature) = settings.temperature {
        body.insert("temperature".to_owned(), json!(temperature));
    }
    if let Some(max_tokens) = settings.max_tokens {
        body.insert("max_tokens".to_owned(), json!(max_tokens));
    }
    if !tools.is_empty() {
        body.insert("tools".to_owned(), Value::Array(tools.to_vec()));
    }
    Value::Object(body)
}

/// What one attempt met, when it is worth another.
enum Failure {
    Transport(String),
    Status { status: u16, body: String },
    Cut(String),
}

impl Failure {
    /// The error the call ends with when this was its last attempt.
    fn into_error(self, url: &str, attempts: u32) -> ChatError {
        let url = url.to_owned();
        match self {
            Failure::Transport(message) => ChatError::Transport {
                url,
                attempts,
                message,
            },
            Failure::Status { status, body } => ChatError::Status {
                url,
                status,
                attempts,
                body,
            },
            Failure::Cut(message) => ChatError::CutBody {
                url,
                attempts,
                message,
            },
        }
    }

    fn describe(&self) -> String {
        match self {
            Failure::Transport(message) => message.clone(),
            Failure::Status { status, body } => format!("HTTP {status}: {body}"),
            Failure::Cut(message) => format!("a body cut short: {message}"),
        }
    }
}

/// POSTs `body` to the endpoint within the call's deadline (`settings.deadline` from now),
/// each exchange within `settings.timeout` and what is left of the deadline. A 429, a 5xx,
/// a failed connection or an exchange past its timeout is retried up to `settings.retries`
/// times; a 200 whose body is cut short is retried once (within the same retries). The
/// wait before retry `n` (from 1) is what the answer asks ([`server_wait`]), else
/// `settings.backoff` doubled `n - 1` times, never more than `settings.max_wait`; a retry
/// whose wait would end past the deadline is not made. `cancelled` is asked before each
/// attempt and during each wait: once it says yes, the call ends at once.
///
/// `tools_offered` says whether the call offered tools: then a turn of tool calls is an
/// answer too.
pub(crate) fn complete(
    agent: &ureq::Agent,
    settings: &CallSettings,
    body: &Value,
    tools_offered: bool,
    cancelled: &dyn Fn() -> bool,
) -> Result<Completion, ChatError> {
    let url = settings.url.as_str();
    let text = body.to_string();
    let deadline = Instant::now() + settings.deadline;
    let mut attempts = 0;
    let mut cut_retried = false;
    loop {
        if cancelled() {
            return Err(ChatError::Transport {
                url: url.to_owned(),
                attempts,
                message: "the caller stopped waiting".to_owned(),
            });
        }
        attempts += 1;
        let limit = settings
            .timeout
            .min(deadline.saturating_duration_since(Instant::now()));
        let mut request = agent
            .post(url)
            .header("Content-Type", "application/json")
            .config()
            .timeout_global(Some(limit))
            .build();
        if !settings.api_key.is_empty() {
            request = request.header("Authorization", &format!("Bearer {}", settings.api_key));
        }
        let (failure, asked) = match request.send(text.as_str()) {
            Ok(mut response) => {
                let status = response.status().as_u16();
                let header = |name: &str| {
                    response
                        .headers()
                        .get(name)
                        .and_then(|value| value.to_str().ok())
                        .map(str::to_owned)
                };
                let asked = server_wait(
                    header("retry-after-ms").as_deref(),
                    header("retry-after").as_deref(),
                    SystemTime::now(),
                );
                let answer = response.body_mut().read_to_string();
                match (status, answer) {
                    (200, Ok(answer)) => match parse_completion(url, &answer, tools_offered) {
                        Ok(completion) => return Ok(completion),
                        Err(Parsed::Cut(message)) if !cut_retried => {
                            cut_retried = true;
                            (Failure::Cut(message), None)
                        }
                        Err(Parsed::Cut(message)) => {
                            return Err(Failure::Cut(message).into_error(url, attempts));
                        }
                        Err(Parsed::Failed(error)) => return Err(error),
                    },
                    (_, Err(ureq::Error::Timeout(_))) => {
                        (Failure::Transport(no_answer(settings, limit)), None)
                    }
                    (200, Err(error @ (ureq::Error::Io(_) | ureq::Error::Protocol(_)))) => {
                        let cut = Failure::Cut(format!("the connection ended mid-body ({error})"));
                        if cut_retried {
                            return Err(cut.into_error(url, attempts));
                        }
                        cut_retried = true;
                        (cut, None)
                    }
                    (200, Err(error)) => {
                        return Err(ChatError::Malformed {
                            url: url.to_owned(),
                            message: format!("the body could not be read ({error})"),
                        });
                    }
                    (status, answer) => {
                        let body = answer.unwrap_or_else(|error| {
                            format!("(the body could not be read: {error})")
                        });
                        let failure = Failure::Status {
                            status,
                            body: body.chars().take(BODY_SHOWN).collect(),
                        };
                        if status != 429 && !(500..600).contains(&status) {
                            return Err(failure.into_error(url, attempts));
                        }
                        (failure, asked)
                    }
                }
            }
            Err(ureq::Error::Timeout(_)) => (Failure::Transport(no_answer(settings, limit)), None),
            Err(error) => (Failure::Transport(error.to_string()), None),
        };
        if attempts > settings.retries {
            return Err(failure.into_error(url, attempts));
        }
        let pause = wait(settings.backoff, settings.max_wait, attempts, asked);
        if Instant::now() + pause >= deadline {
            return Err(ChatError::Deadline {
                url: url.to_owned(),
                attempts,
                deadline: settings.deadline,
                last: failure.describe(),
            });
        }
        sleep(pause, cancelled);
    }
}

/// What an exchange cut off after `limit` met: the exchange's timeout, or what was left of
/// the call's deadline.
fn no_answer(settings: &CallSettings, limit: Duration) -> String {
    if limit < settings.timeout {
        "no answer before the call's deadline".to_owned()
    } else {
        format!("no answer within {limit:?}")
    }
}

/// Sleeps `pause`, or less once `cancelled` says yes.
fn sleep(pause: Duration, cancelled: &dyn Fn() -> bool) {
    let end = Instant::now() + pause;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() || cancelled() {
            return;
        }
        std::thread::sleep(left.min(CANCEL_CHECK));
    }
}

/// The wait an answer asks for before the next attempt: `retry-after-ms` (milliseconds,
/// as OpenAI sends it) when it is a number, else `Retry-After` as delta-seconds (a
/// decimal tolerated) or as an HTTP date (RFC 9110 §10.2.3: IMF-fixdate, or the obsolete
/// RFC 850 and asctime forms; a date already past asks for no wait), measured from `now`.
/// `None` when neither header says.
pub(crate) fn server_wait(
    retry_after_ms: Option<&str>,
    retry_after: Option<&str>,
    now: SystemTime,
) -> Option<Duration> {
    let seconds = |text: &str| {
        text.trim()
            .parse::<f64>()
            .ok()
            .filter(|value| value.is_finite() && *value >= 0.0)
    };
    if let Some(millis) = retry_after_ms.and_then(seconds) {
        return Some(Duration::from_secs_f64((millis / 1000.0).min(1e9)));
    }
    let retry_after = retry_after?.trim();
    if let Some(seconds) = seconds(retry_after) {
        return Some(Duration::from_secs_f64(seconds.min(1e9)));
    }
    let date = http_date(retry_after)?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// An HTTP date in any of its three forms, as a time.
fn http_date(text: &str) -> Option<SystemTime> {
    use chrono::{DateTime, NaiveDateTime};
    if let Ok(date) = DateTime::parse_from_rfc2822(text) {
        return Some(date.into());
    }
    // RFC 850 ("Sunday, 06-Nov-94 08:49:37 GMT") and asctime ("Sun Nov  6 08:49:37 1994").
    ["%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"]
        .into_iter()
        .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
        .map(|date| date.and_utc().into())
}

/// The wait before the retry after attempt `attempt` (from 1): what the server asked, else
/// `backoff` doubled `attempt - 1` times; at most `max_wait`.
fn wait(backoff: Duration, max_wait: Duration, attempt: u32, asked: Option<Duration>) -> Duration {
    let doubled = backoff.saturating_mul(1 << (attempt - 1).min(16));
    asked.unwrap_or(doubled).min(max_wait)
}

/// Why a 200 body gave no completion.
enum Parsed {
    /// The body ends early: worth one retry.
    Cut(String),
    /// Anything else: the call's error.
    Failed(ChatError),
}

/// Reads a 200 answer: `choices[0]` with its `message` (`content`, `tool_calls`,
/// `refusal`) and `finish_reason`, and `usage`; then keeps it only if it is an answer
/// (see [`Unanswered`]).
fn parse_completion(url: &str, answer: &str, tools_offered: bool) -> Result<Completion, Parsed> {
    let malformed = |message: String| {
        Parsed::Failed(ChatError::Malformed {
            url: url.to_owned(),
            message,
        })
    };
    let root: Value = serde_json::from_str(answer).map_err(|error| {
        if error.is_eof() {
            Parsed::Cut(format!("the JSON ends early ({error})"))
        } else {
            malformed(format!("the body is not JSON ({error})"))
        }
    })?;
    let tokens = |key: &str| {
        root.pointer(&format!("/usage/{key}"))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let usage = Usage {
        input_tokens: tokens("prompt_tokens"),
        output_tokens: tokens("completion_tokens"),
    };
    let choices = root
        .get("choices")
        .and_then(Value::as_array)
        .ok_or_else(|| malformed("it has no `choices` array".to_owned()))?;
    let unanswered = |reason: Unanswered, finish_reason: Option<String>, text: String| {
        Parsed::Failed(ChatError::Unanswered {
            url: url.to_owned(),
            reason,
            finish_reason,
            text,
            usage,
        })
    };
    let Some(choice) = choices.first() else {
        return Err(unanswered(Unanswered::NoChoices, None, String::new()));
    };
    let message = choice
        .get("message")
        .and_then(Value::as_object)
        .ok_or_else(|| malformed("it has no `choices[0].message` object".to_owned()))?;
    let finish_reason = choice
        .get("finish_reason")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let text = match message.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        // Content parts (Mistral's reasoning models): the text parts, joined.
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|part| part.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect(),
        Some(_) => {
            return Err(malformed(
                "`choices[0].message.content` is neither a string nor a list of parts".to_owned(),
            ));
        }
    };
    let tool_calls = tool_calls(message).map_err(malformed)?;

    if let Some(refusal) = message
        .get("refusal")
        .and_then(Value::as_str)
        .filter(|refusal| !refusal.trim().is_empty())
    {
        let reason = Unanswered::Refusal {
            text: refusal.to_owned(),
        };
        return Err(unanswered(reason, finish_reason, text));
    }
    match finish_reason.as_deref() {
        Some("content_filter") => {
            return Err(unanswered(Unanswered::ContentFilter, finish_reason, text));
        }
        Some("length") => return Err(unanswered(Unanswered::Length, finish_reason, text)),
        Some("abort" | "error" | "repetition") => {
            return Err(unanswered(Unanswered::Stopped, finish_reason, text));
        }
        _ => {}
    }
    if !tool_calls.is_empty() && !tools_offered {
        let names = tool_calls.iter().map(|call| call.name.clone()).collect();
        return Err(unanswered(
            Unanswered::ToolCalls { names },
            finish_reason,
            text,
        ));
    }
    if let Some(name) = message
        .get("function_call")
        .and_then(|call| call.get("name"))
        .and_then(Value::as_str)
    {
        let reason = Unanswered::FunctionCall {
            name: name.to_owned(),
        };
        return Err(unanswered(reason, finish_reason, text));
    }
    if text.trim().is_empty() && tool_calls.is_empty() {
        let reasoning = ["reasoning_content", "reasoning"]
            .into_iter()
            .find_map(|field| {
                message
                    .get(field)
                    .and_then(Value::as_str)
                    .filter(|reasoning| !reasoning.trim().is_empty())
                    .map(|reasoning| (field.to_owned(), reasoning.chars().count()))
            });
        return Err(unanswered(
            Unanswered::Empty { reasoning },
            finish_reason,
            text,
        ));
    }
    Ok(Completion {
        text,
        tool_calls,
        finish_reason,
        usage,
    })
}

/// `message.tool_calls`, each with an `id` and a `function.name`.
fn tool_calls(message: &Map<String, Value>) -> Result<Vec<ToolCall>, String> {
    let mut calls = Vec::new();
    for (index, call) in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let field = |pointer: &str| call.pointer(pointer).and_then(Value::as_str);
        let (Some(id), Some(name)) = (field("/id"), field("/function/name")) else {
            return Err(format!(
                "`tool_calls[{index}]` needs an `id` and a `function.name`"
            ));
        };
        let arguments = field("/function/arguments").unwrap_or("{}");
        let input =
            serde_json::from_str(arguments).unwrap_or_else(|_| Value::String(arguments.to_owned()));
        calls.push(ToolCall {
            id: id.to_owned(),
            name: name.to_owned(),
            input,
        });
    }
    Ok(calls)
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "http://x/v1/chat/completions";

    /// The error `parse_completion` names for `answer`, as its message.
    fn refused(answer: Value, tools_offered: bool) -> String {
        match parse_completion(URL, &answer.to_string(), tools_offered) {
            Ok(completion) => panic!("an answer: {completion:?}"),
            Err(Parsed::Cut(message)) => panic!("cut: {message}"),
            Err(Parsed::Failed(error)) => error.to_string(),
        }
    }

    fn answer(message: Value, finish_reason: Value) -> Value {
        json!({
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 3},
        })
    }

    #[test]
    fn waits_double_from_the_backoff_unless_the_server_says_how_long() {
        let backoff = Duration::from_millis(250);
        let max = Duration::from_secs(30);
        assert_eq!(wait(backoff, max, 1, None), Duration::from_millis(250));
        assert_eq!(wait(backoff, max, 3, None), Duration::from_secs(1));
        assert_eq!(
            wait(backoff, max, 1, Some(Duration::from_secs(7))),
            Duration::from_secs(7)
        );
        assert_eq!(wait(backoff, max, 40, None), max);
        assert_eq!(wait(backoff, max, 1, Some(Duration::from_secs(3600))), max);
    }

    #[test]
    fn the_server_asks_for_a_wait_in_milliseconds_seconds_or_a_date() {
        // Wed, 21 Oct 2015 07:28:00 GMT.
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480);
        let asked = |ms: Option<&str>, after: Option<&str>| server_wait(ms, after, now);
        assert_eq!(asked(None, None), None);
        assert_eq!(asked(None, Some("7")), Some(Duration::from_secs(7)));
        assert_eq!(asked(None, Some(" 0 ")), Some(Duration::ZERO));
        assert_eq!(asked(None, Some("1.5")), Some(Duration::from_millis(1500)));
        assert_eq!(asked(Some("250"), None), Some(Duration::from_millis(250)));
        // `retry-after-ms` is the finer of the two, and wins.
        assert_eq!(
            asked(Some("250"), Some("7")),
            Some(Duration::from_millis(250))
        );
        assert_eq!(asked(Some("soon"), Some("7")), Some(Duration::from_secs(7)));
        // IMF-fixdate, RFC 850 and asctime, 90 seconds after `now`.
        for date in [
            "Wed, 21 Oct 2015 07:29:30 GMT",
            "Wednesday, 21-Oct-15 07:29:30 GMT",
            "Wed Oct 21 07:29:30 2015",
        ] {
            assert_eq!(
                asked(None, Some(date)),
                Some(Duration::from_secs(90)),
                "{date}"
            );
        }
        assert_eq!(
            asked(None, Some("Sun Nov  6 08:49:37 1994")),
            Some(Duration::ZERO),
            "a date already past asks for no wait"
        );
        assert_eq!(asked(None, Some("-3")), None);
        assert_eq!(asked(None, Some("tomorrow")), None);
    }

    #[test]
    fn an_answer_without_a_choice_is_named() {
        assert_eq!(
            refused(json!({"choices": []}), false),
            "POST http://x/v1/chat/completions gave no answer: `choices` is empty (finish_reason none)"
        );
        assert_eq!(
            refused(json!({"object": "error"}), false),
            "POST http://x/v1/chat/completions answered with no usable completion: it has no `choices` array"
        );
    }

    #[test]
    fn json_that_ends_early_is_a_cut_body_and_other_json_errors_are_not() {
        assert!(matches!(
            parse_completion(URL, "{\"choices\":[{\"message\":{\"content\":\"Hel", false),
            Err(Parsed::Cut(message)) if message == "the JSON ends early (EOF while parsing a string at line 1 column 38)"
        ));
        assert!(matches!(
            parse_completion(URL, "<html>bad gateway</html>", false),
            Err(Parsed::Failed(ChatError::Malformed { .. }))
        ));
    }

    #[test]
    fn only_text_answers_a_call_offering_no_tools() {
        let calls = json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}},
            {"id": "c2", "type": "function", "function": {"name": "search", "arguments": "{}"}}]});
        assert_eq!(
            refused(answer(calls.clone(), json!("tool_calls")), false),
            "POST http://x/v1/chat/completions gave no answer: the model called tools (lookup, search) where only text answers (finish_reason \"tool_calls\")"
        );
        // Offered tools, the same turn is an answer.
        let turn = parse_completion(URL, &answer(calls, json!("tool_calls")).to_string(), true)
            .ok()
            .unwrap();
        assert_eq!(turn.text, "");
        assert_eq!(turn.tool_calls.len(), 2);
        assert_eq!(turn.finish_reason.as_deref(), Some("tool_calls"));
    }

    #[test]
    fn tool_arguments_that_are_not_json_are_kept_as_text() {
        let answer = r#"{"choices":[{"message":{"content":null,"tool_calls":[
            {"id":"c1","type":"function","function":{"name":"guide","arguments":"{\"a\":1}"}},
            {"id":"c2","type":"function","function":{"name":"validate","arguments":"{oops"}}]}}],
            "usage":{"prompt_tokens":12,"completion_tokens":3}}"#;
        let Ok(completion) = parse_completion("u", answer, true) else {
            panic!("not an answer");
        };
        assert_eq!(completion.text, "");
        assert_eq!(completion.tool_calls[0].input, json!({"a": 1}));
        assert_eq!(completion.tool_calls[1].input, json!("{oops"));
        assert_eq!(completion.finish_reason, None);
        assert_eq!(
            completion.usage,
            Usage {
                input_tokens: 12,
                output_tokens: 3
            }
        );
    }

    #[test]
    fn each_provider_field_for_a_non_answer_is_named() {
        let cases = [
            // OpenAI structured outputs: a refusal, `content` null.
            (
                answer(
                    json!({"role": "assistant", "content": null, "refusal": "I can't help with that."}),
                    json!("stop"),
                ),
                true,
                "the model refused: \"I can't help with that.\" (finish_reason \"stop\")",
            ),
            // OpenAI and Azure OpenAI: the content filter.
            (
                answer(
                    json!({"role": "assistant", "content": null}),
                    json!("content_filter"),
                ),
                false,
                "the provider's content filter withheld it (finish_reason \"content_filter\")",
            ),
            // Every server: the token limit, mid-answer, and mid-call when tools are offered.
            (
                answer(
                    json!({"role": "assistant", "content": "{\"type\":\"vi"}),
                    json!("length"),
                ),
                false,
                "the answer was cut at the token limit (finish_reason \"length\")",
            ),
            (
                answer(
                    json!({"role": "assistant", "content": "", "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "validate", "arguments": "{\"view\":"}}]}),
                    json!("length"),
                ),
                true,
                "the answer was cut at the token limit (finish_reason \"length\")",
            ),
            // vLLM: an answer its engine ended.
            (
                answer(
                    json!({"role": "assistant", "content": "{\"type\":\"view\",\"type\":\"view\""}),
                    json!("repetition"),
                ),
                false,
                "the server stopped the answer before its end (finish_reason \"repetition\")",
            ),
            (
                answer(json!({"role": "assistant", "content": ""}), json!("abort")),
                false,
                "the server stopped the answer before its end (finish_reason \"abort\")",
            ),
            // Ollama: tool calls with `content: ""`.
            (
                answer(
                    json!({"role": "assistant", "content": "", "tool_calls": [
                        {"id": "call_x", "function": {"name": "get_weather", "arguments": "{}"}}]}),
                    json!("tool_calls"),
                ),
                false,
                "the model called tools (get_weather) where only text answers (finish_reason \"tool_calls\")",
            ),
            // OpenAI's legacy functions.
            (
                answer(
                    json!({"role": "assistant", "content": null, "function_call": {"name": "get_weather", "arguments": "{}"}}),
                    json!("function_call"),
                ),
                true,
                "the model called the function get_weather (legacy `function_call`) where only text answers (finish_reason \"function_call\")",
            ),
            // Empty, `null` (Ollama under load), blank.
            (
                answer(
                    json!({"role": "assistant", "content": null, "refusal": null}),
                    json!("stop"),
                ),
                false,
                "the answer is empty (finish_reason \"stop\")",
            ),
            (
                answer(
                    json!({"role": "assistant", "content": " \n "}),
                    json!("stop"),
                ),
                true,
                "the answer is empty (finish_reason \"stop\")",
            ),
            (
                answer(json!({"role": "assistant"}), Value::Null),
                false,
                "the answer is empty (finish_reason none)",
            ),
            // llama.cpp and vLLM: the text only in `reasoning_content`; Ollama: in `reasoning`.
            (
                answer(
                    json!({"role": "assistant", "content": "", "reasoning_content": "Let me think."}),
                    json!("stop"),
                ),
                false,
                "the answer is empty (the model wrote only reasoning: 13 characters in `reasoning_content`) (finish_reason \"stop\")",
            ),
            (
                answer(
                    json!({"role": "assistant", "content": "", "reasoning": "The capital is Canberra."}),
                    json!("stop"),
                ),
                false,
                "the answer is empty (the model wrote only reasoning: 24 characters in `reasoning`) (finish_reason \"stop\")",
            ),
        ];
        for (answer, tools_offered, expected) in cases {
            assert_eq!(
                refused(answer.clone(), tools_offered),
                format!("POST {URL} gave no answer: {expected}"),
                "{answer}"
            );
        }
    }

    #[test]
    fn a_non_answer_keeps_its_text_and_usage() {
        let Err(Parsed::Failed(error)) = parse_completion(
            URL,
            &answer(json!({"content": "{\"a\":"}), json!("length")).to_string(),
            false,
        ) else {
            panic!("an answer");
        };
        assert_eq!(
            error,
            ChatError::Unanswered {
                url: URL.to_owned(),
                reason: Unanswered::Length,
                finish_reason: Some("length".to_owned()),
                text: "{\"a\":".to_owned(),
                usage: Usage {
                    input_tokens: 12,
                    output_tokens: 3
                },
            }
        );
    }

    #[test]
    fn text_answers_from_each_server_are_kept_as_sent() {
        for (message, finish_reason) in [
            (
                json!({"role": "assistant", "content": " yes\n"}),
                json!("stop"),
            ),
            // TGI names its own finish reasons; a name not known to mark a cut is taken.
            (
                json!({"role": "assistant", "content": " yes\n"}),
                json!("eos_token"),
            ),
            (
                json!({"role": "assistant", "content": " yes\n", "refusal": null, "reasoning_content": "short"}),
                Value::Null,
            ),
            // Content parts: the text parts, joined; thinking parts dropped.
            (
                json!({"role": "assistant", "content": [
                    {"type": "thinking", "thinking": [{"type": "text", "text": "hm"}]},
                    {"type": "text", "text": " yes"}, {"type": "text", "text": "\n"}]}),
                json!("stop"),
            ),
        ] {
            let completion = parse_completion(
                URL,
                &answer(message, finish_reason.clone()).to_string(),
                false,
            )
            .ok()
            .unwrap();
            assert_eq!(completion.text, " yes\n");
            assert_eq!(
                completion.finish_reason.as_ref(),
                finish_reason.as_str().map(str::to_owned).as_ref()
            );
        }
    }
}
