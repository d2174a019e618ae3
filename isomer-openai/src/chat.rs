//! One Chat Completions call: the request body, the POST with its retries, and the answer
//! read back ([`Completion`]), or a [`ChatError`] saying what went wrong and where.

use std::time::Duration;

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

/// The answer of one call: the first choice's message.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// `message.content`; empty when the server sent `null` (a turn of tool calls only).
    pub text: String,
    /// `message.tool_calls`, in order.
    pub tool_calls: Vec<ToolCall>,
    /// What the call spent.
    pub usage: Usage,
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChatError {
    /// The server could not be reached, or the connection failed or timed out.
    #[error("POST {url} failed: {message}")]
    Transport {
        /// The endpoint.
        url: String,
        /// The client's description of the failure.
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
    /// The server answered 200 with a body that is not a Chat Completions answer.
    #[error("POST {url} answered with no usable completion: {message}")]
    Malformed {
        /// The endpoint.
        url: String,
        /// What is missing or wrong.
        message: String,
    },
}

/// How one client calls: the endpoint, what it sends, and how it retries.
#[derive(Debug, Clone)]
pub(crate) struct CallSettings {
    pub url: String,
    pub model: String,
    pub api_key: String,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    pub retries: u32,
    pub backoff: Duration,
}

/// The most characters of an error body a [`ChatError::Status`] keeps.
const BODY_SHOWN: usize = 500;

/// The longest wait between two attempts, whatever `Retry-After` or the backoff say.
const MAX_WAIT: Duration = Duration::from_secs(60);

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

/// POSTs `body` to the endpoint, retrying a 429, a 5xx or a failed connection up to
/// `retries` times. The wait before retry `n` (from 1) is the answer's `Retry-After`
/// seconds when it gives them, else `backoff` doubled `n - 1` times; never more than a
/// minute.
pub(crate) fn complete(
    agent: &ureq::Agent,
    settings: &CallSettings,
    body: &Value,
) -> Result<Completion, ChatError> {
    let url = settings.url.as_str();
    let text = body.to_string();
    let mut attempts = 0;
    loop {
        attempts += 1;
        let retry_left = attempts <= settings.retries;
        let mut request = agent.post(url).header("Content-Type", "application/json");
        if !settings.api_key.is_empty() {
            request = request.header("Authorization", &format!("Bearer {}", settings.api_key));
        }
        let (status, retry_after, answer) = match request.send(text.as_str()) {
            Ok(mut response) => {
                let status = response.status().as_u16();
                let retry_after = response
                    .headers()
                    .get("retry-after")
                    .and_then(|value| value.to_str().ok())
                    .and_then(|value| value.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                let answer = response.body_mut().read_to_string();
                (status, retry_after, answer)
            }
            Err(error) => {
                if retry_left {
                    std::thread::sleep(wait(settings.backoff, attempts, None));
                    continue;
                }
                return Err(ChatError::Transport {
                    url: url.to_owned(),
                    message: error.to_string(),
                });
            }
        };
        let answer = answer.map_err(|error| ChatError::Transport {
            url: url.to_owned(),
            message: format!("reading the answer: {error}"),
        })?;
        if status == 200 {
            return parse_completion(url, &answer);
        }
        if retry_left && (status == 429 || (500..600).contains(&status)) {
            std::thread::sleep(wait(settings.backoff, attempts, retry_after));
            continue;
        }
        return Err(ChatError::Status {
            url: url.to_owned(),
            status,
            attempts,
            body: answer.chars().take(BODY_SHOWN).collect(),
        });
    }
}

/// The wait before the retry after attempt `attempt` (from 1).
fn wait(backoff: Duration, attempt: u32, retry_after: Option<Duration>) -> Duration {
    let doubled = backoff.saturating_mul(1 << (attempt - 1).min(16));
    retry_after.unwrap_or(doubled).min(MAX_WAIT)
}

/// Reads a 200 answer: `choices[0].message` with `content` and `tool_calls`, and `usage`.
fn parse_completion(url: &str, answer: &str) -> Result<Completion, ChatError> {
    let malformed = |message: String| ChatError::Malformed {
        url: url.to_owned(),
        message,
    };
    let root: Value = serde_json::from_str(answer)
        .map_err(|error| malformed(format!("the body is not JSON ({error})")))?;
    let message = root
        .pointer("/choices/0/message")
        .and_then(Value::as_object)
        .ok_or_else(|| malformed("it has no `choices[0].message` object".to_owned()))?;
    let text = match message.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(_) => {
            return Err(malformed(
                "`choices[0].message.content` is not a string".to_owned(),
            ));
        }
    };
    let mut tool_calls = Vec::new();
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
            return Err(malformed(format!(
                "`tool_calls[{index}]` needs an `id` and a `function.name`"
            )));
        };
        let arguments = field("/function/arguments").unwrap_or("{}");
        let input =
            serde_json::from_str(arguments).unwrap_or_else(|_| Value::String(arguments.to_owned()));
        tool_calls.push(ToolCall {
            id: id.to_owned(),
            name: name.to_owned(),
            input,
        });
    }
    let tokens = |key: &str| {
        root.pointer(&format!("/usage/{key}"))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Ok(Completion {
        text,
        tool_calls,
        usage: Usage {
            input_tokens: tokens("prompt_tokens"),
            output_tokens: tokens("completion_tokens"),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_from_the_backoff_unless_the_server_says_how_long() {
        let backoff = Duration::from_millis(250);
        assert_eq!(wait(backoff, 1, None), Duration::from_millis(250));
        assert_eq!(wait(backoff, 3, None), Duration::from_secs(1));
        assert_eq!(
            wait(backoff, 1, Some(Duration::from_secs(7))),
            Duration::from_secs(7)
        );
        assert_eq!(wait(backoff, 40, None), MAX_WAIT);
    }

    #[test]
    fn an_answer_without_a_choice_is_named() {
        assert_eq!(
            parse_completion("http://x/v1/chat/completions", "{\"choices\": []}")
                .unwrap_err()
                .to_string(),
            "POST http://x/v1/chat/completions answered with no usable completion: it has no `choices[0].message` object"
        );
    }

    #[test]
    fn tool_arguments_that_are_not_json_are_kept_as_text() {
        let answer = r#"{"choices":[{"message":{"content":null,"tool_calls":[
            {"id":"c1","type":"function","function":{"name":"guide","arguments":"{\"a\":1}"}},
            {"id":"c2","type":"function","function":{"name":"validate","arguments":"{oops"}}]}}],
            "usage":{"prompt_tokens":12,"completion_tokens":3}}"#;
        let completion = parse_completion("u", answer).unwrap();
        assert_eq!(completion.text, "");
        assert_eq!(completion.tool_calls[0].input, json!({"a": 1}));
        assert_eq!(completion.tool_calls[1].input, json!("{oops"));
        assert_eq!(
            completion.usage,
            Usage {
                input_tokens: 12,
                output_tokens: 3
            }
        );
    }
}
