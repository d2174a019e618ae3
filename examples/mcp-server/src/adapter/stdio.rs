//! A newline-delimited JSON-RPC transport for rmcp that answers every line.
//!
//! rmcp's own stdio transport skips a line `serde_json` refuses without a
//! word (so the client waits until it times out), reads JSON with
//! `serde_json`'s recursion limit of 128 levels (so deep tool arguments never
//! reach the input budget), and lets the server exit on a notification sent
//! before `initialize`. [`LineTransport`] implements rmcp's [`Transport`]
//! over any `AsyncRead`/`AsyncWrite` pair (see [`stdio`]) and keeps these
//! rules instead:
//!
//! | line | answer |
//! |---|---|
//! | not UTF-8, not JSON (a lone surrogate escape, `1e400`, two values, a cut-off value), or longer than the line limit | `-32700` parse error with `"id": null`, the message naming the problem |
//! | nesting deeper than [`MAX_LINE_DEPTH`] | `-32600` invalid request with `"id": null` (not parsed) |
//! | JSON but not a JSON-RPC 2.0 message (an array, a number, no `jsonrpc: "2.0"`), or nesting deeper than [`MAX_ENVELOPE_DEPTH`] outside tool arguments | `-32600` invalid request, with the message's `id` when it has a usable one, else `null` |
//! | a `tools/call` without `params`, with a `name` that is not a string, or `arguments` that are not an object | `-32602` invalid params with its `id` |
//! | any other known MCP method whose `params` do not fit it | `-32602` invalid params with its `id` |
//! | a notification or a response before `initialize` | ignored, as the MCP lifecycle allows (the client may not send them yet) |
//! | a request before `initialize` | passed on: rmcp answers `ping`, and answers anything else with an error |
//! | a blank line | ignored |
//! | the last line, without a trailing newline | read as a line |
//!
//! Tool `arguments` are parsed without a recursion limit, in memory
//! proportional to the text ([`isomer_sdk::parse_json`]), and handed to the
//! tool as they are, so a composition nested 10,000 levels deep is refused by
//! the runtime's input budget (64 levels by default) as a tool result the
//! model can read.
//!
//! # Limits
//!
//! - **Line length.** A line longer than the limit is not kept: its bytes are
//!   counted and dropped as they arrive, then it is answered with `-32700`.
//!   The limit is [`DEFAULT_MAX_LINE_BYTES`] (1 MiB, counted in bytes
//!   without the newline) unless set with
//!   [`LineTransport::with_max_line_bytes`].
//! - **Line depth.** A line whose brackets nest deeper than
//!   [`MAX_LINE_DEPTH`] (10,000; brackets inside strings do not count) is
//!   answered with `-32600` and `"id": null` without being parsed: a parsed
//!   value costs memory per level (a 1 MiB line of `[` would be 500,000
//!   levels), and no input budget lets such a value through.
//!
//! Together they bound what one line costs: the server's integration test
//! measures the peak resident memory under 100 MB for every hostile line it
//! sends at the default limits.
//!
//! # A broken output
//!
//! When writing a message fails (the client closed its end of stdout), the
//! transport stops reading, so the session ends, and keeps the error in a
//! [`WriteFailure`] the host checks when the session is over; the example
//! binary then exits with status 1 and prints the error on stderr.

use std::borrow::Cow;
use std::sync::{Arc, Mutex as StdMutex};

use isomer_sdk::{DeepValue, InputBudget, check_input_budget, parse_json};
use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _};
use tokio::io::{BufReader, Stdin, Stdout};
use tokio::sync::{Mutex, Notify};

/// The default line limit: 1 MiB (1,048,576 bytes, not counting the
/// newline). The input budget refuses a composition of more than 20,000
/// values or 1,000,000 characters of keys and leaves anyway; a composition a
/// model writes is a few kilobytes.
pub const DEFAULT_MAX_LINE_BYTES: usize = 1024 * 1024;

/// The deepest bracket nesting a line may have before it is parsed (module
/// docs, "Limits").
pub const MAX_LINE_DEPTH: usize = 10_000;

/// The deepest a message may nest outside a `tools/call`'s `arguments`.
/// MCP's own structures nest a few levels; deeper `params` or `_meta` are
/// refused with `-32600` before rmcp reads them (its readers recurse once per
/// level).
pub const MAX_ENVELOPE_DEPTH: usize = 64;

/// JSON-RPC's parse error code.
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's invalid request code.
pub const INVALID_REQUEST: i32 = -32600;
/// JSON-RPC's invalid params code.
pub const INVALID_PARAMS: i32 = -32602;

/// The client requests rmcp types (a request with one of these methods whose
/// `params` do not fit is answered `-32602`, not `-32601`).
const KNOWN_METHODS: [&str; 21] = [
    "ping",
    "initialize",
    "server/discover",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "subscriptions/listen",
    "resources/subscribe",
    "resources/unsubscribe",
    "tools/call",
    "tools/list",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
    "resources/directory/read",
];

/// The error a write to the client failed with, shared between the
/// transport and the host, which reads it once the session has ended.
#[derive(Debug, Clone, Default)]
pub struct WriteFailure(Arc<StdMutex<Option<String>>>);

impl WriteFailure {
    /// The first write error, as text (`Broken pipe (os error 32)`), if a
    /// write failed.
    pub fn get(&self) -> Option<String> {
        self.0.lock().map(|error| error.clone()).unwrap_or(None)
    }

    fn set(&self, error: &std::io::Error) {
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert_with(|| error.to_string());
        }
    }
}

/// The transport over stdin and stdout, with the default line limit.
pub fn stdio() -> LineTransport<Stdin, Stdout> {
    LineTransport::new(tokio::io::stdin(), tokio::io::stdout())
}

/// Newline-delimited JSON-RPC over a reader and a writer (module docs).
///
/// Receiving is cancel-safe, as rmcp needs (it drops a pending `receive`
/// whenever another event wins its `select!`): the line being read is kept
/// in the transport between reads, and the answers the transport writes
/// itself are written by tasks of their own, which [`Transport::close`]
/// waits for.
pub struct LineTransport<R, W> {
    reader: BufReader<R>,
    writer: Arc<Mutex<W>>,
    max_line_bytes: usize,
    initialized: bool,
    failure: WriteFailure,
    failed: Arc<Notify>,
    /// The bytes of the line read so far (empty once over the limit).
    line: Vec<u8>,
    /// The length of the line read so far, once it is over the limit.
    too_long: Option<usize>,
    /// Whether the line read so far has any byte (for the last line).
    started: bool,
    /// The transport's own answers being written.
    answers: tokio::task::JoinSet<()>,
}

impl<R, W> std::fmt::Debug for LineTransport<R, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineTransport")
            .field("max_line_bytes", &self.max_line_bytes)
            .field("initialized", &self.initialized)
            .field("failure", &self.failure)
            .finish_non_exhaustive()
    }
}

/// One line as read: its bytes, or only its length when over the limit.
enum Line {
    Text(Vec<u8>),
    TooLong(usize),
}

/// What a line asks of the transport.
enum Incoming {
    /// A message for rmcp.
    Message(Box<ClientJsonRpcMessage>),
    /// An answer the transport writes itself.
    Answer(Value),
    /// Nothing to do.
    Ignore,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// A transport reading lines from `reader` and writing one line per
    /// message to `writer`, with the [`DEFAULT_MAX_LINE_BYTES`] limit.
    pub fn new(reader: R, writer: W) -> Self {
        LineTransport {
            reader: BufReader::new(reader),
            writer: Arc::new(Mutex::new(writer)),
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            initialized: false,
            failure: WriteFailure::default(),
            failed: Arc::new(Notify::new()),
            line: Vec::new(),
            too_long: None,
            started: false,
            answers: tokio::task::JoinSet::new(),
        }
    }

    /// Sets the line limit in bytes, not counting the newline (builder
    /// style). A longer line is answered with `-32700`.
    #[must_use]
    pub fn with_max_line_bytes(mut self, max_line_bytes: usize) -> Self {
        self.max_line_bytes = max_line_bytes;
        self
    }

    /// The handle to the first write error; clone it before handing the
    /// transport to rmcp.
    pub fn write_failure(&self) -> WriteFailure {
        self.failure.clone()
    }

    /// Reads the next line, `None` at the end of input (or on a read error,
    /// which ends the session the same way). Cancel-safe: what was read
    /// stays in `self` until the line is complete.
    async fn read_line(&mut self) -> Option<Line> {
        loop {
            let buffer = match self.reader.fill_buf().await {
                Ok(buffer) => buffer,
                Err(error) => {
                    eprintln!("isomer-mcp-server: reading stdin failed: {error}");
                    return None;
                }
            };
            if buffer.is_empty() {
                if !self.started {
                    return None;
                }
                break;
            }
            self.started = true;
            let (chunk, ends_line) = match buffer.iter().position(|&byte| byte == b'\n') {
                Some(end) => (&buffer[..end], true),
                None => (buffer, false),
            };
            let taken = chunk.len() + usize::from(ends_line);
            match &mut self.too_long {
                Some(length) => *length += chunk.len(),
                None if self.line.len() + chunk.len() > self.max_line_bytes => {
                    self.too_long = Some(self.line.len() + chunk.len());
                    self.line = Vec::new();
                }
                None => self.line.extend_from_slice(chunk),
            }
            self.reader.consume(taken);
            if ends_line {
                break;
            }
        }
        self.started = false;
        let mut line = std::mem::take(&mut self.line);
        Some(match self.too_long.take() {
            Some(length) => Line::TooLong(length),
            None => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                Line::Text(line)
            }
        })
    }

    /// Writes one message line; on failure records it, wakes the reader and
    /// answers `Err`.
    async fn write(
        writer: &Mutex<W>,
        failure: &WriteFailure,
        failed: &Notify,
        mut bytes: Vec<u8>,
    ) -> std::io::Result<()> {
        bytes.push(b'\n');
        let mut writer = writer.lock().await;
        let written = async {
            writer.write_all(&bytes).await?;
            writer.flush().await
        }
        .await;
        if let Err(error) = &written {
            failure.set(error);
            failed.notify_one();
        }
        written
    }

    /// What `line` asks for, by the table in the module docs.
    fn classify(&mut self, line: Line) -> Incoming {
        let bytes = match line {
            Line::TooLong(length) => {
                return Incoming::Answer(error_answer(
                    Value::Null,
                    PARSE_ERROR,
                    format!(
                        "parse error: the line is {length} bytes long, over the limit of {} bytes",
                        self.max_line_bytes
                    ),
                ));
            }
            Line::Text(bytes) => bytes,
        };
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => text,
            Err(error) => {
                return Incoming::Answer(error_answer(
                    Value::Null,
                    PARSE_ERROR,
                    format!(
                        "parse error: the line is not valid UTF-8 (byte {} starts an invalid sequence)",
                        error.valid_up_to()
                    ),
                ));
            }
        };
        if text.trim_ascii().is_empty() {
            return Incoming::Ignore;
        }
        if let Some(depth) = isomer_sdk::json::nests_deeper_than(text, MAX_LINE_DEPTH) {
            return Incoming::Answer(error_answer(
                Value::Null,
                INVALID_REQUEST,
                format!(
                    "invalid request: the line nests at least {depth} levels deep, over the limit of {MAX_LINE_DEPTH}"
                ),
            ));
        }
        let value = match parse_json(text) {
            Ok(value) => value,
            Err(error) => {
                return Incoming::Answer(error_answer(
                    Value::Null,
                    PARSE_ERROR,
                    format!("parse error: the line is not one JSON value: {error}"),
                ));
            }
        };
        self.classify_value(value)
    }

    fn classify_value(&mut self, value: DeepValue) -> Incoming {
        let mut value = value.into_inner();
        let Some(message) = value.as_object_mut() else {
            let kind = json_kind(&value);
            isomer_sdk::drop_deep(value);
            return Incoming::Answer(error_answer(
                Value::Null,
                INVALID_REQUEST,
                format!("invalid request: a JSON-RPC message is an object, not {kind}"),
            ));
        };
        let id = match message.get("id") {
            Some(id @ (Value::String(_) | Value::Number(_))) => Some(id.clone()),
            _ => None,
        };
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let is_response =
            method.is_none() && (message.contains_key("result") || message.contains_key("error"));
        if !self.initialized && method.as_deref() != Some("initialize") {
            // The client may send nothing but requests (ping, initialize)
            // before `initialize`; rmcp would end the session on anything
            // else, so notifications and responses are dropped here.
            if is_response || (method.is_some() && id.is_none()) {
                isomer_sdk::drop_deep(value);
                return Incoming::Ignore;
            }
        }
        let answer_id = id.clone().unwrap_or(Value::Null);
        // Tool arguments are kept out of rmcp's readers, which recurse per level.
        let mut arguments = None;
        if method.as_deref() == Some("tools/call") && id.is_some() {
            match take_tool_arguments(message) {
                Ok(taken) => arguments = taken,
                Err(problem) => {
                    isomer_sdk::drop_deep(value);
                    return Incoming::Answer(error_answer(
                        answer_id,
                        INVALID_PARAMS,
                        format!("invalid params: tools/call {problem}"),
                    ));
                }
            }
        }
        // The input budget's depth rule (the root container counts 1), with no
        // other limit.
        let envelope = InputBudget {
            depth: MAX_ENVELOPE_DEPTH,
            values: usize::MAX,
            characters: usize::MAX,
        };
        if check_input_budget(&value, envelope).is_err() {
            isomer_sdk::drop_deep(value);
            if let Some(arguments) = arguments {
                isomer_sdk::drop_deep(Value::Object(arguments));
            }
            return Incoming::Answer(error_answer(
                answer_id,
                INVALID_REQUEST,
                format!(
                    "invalid request: the message nests more than {MAX_ENVELOPE_DEPTH} levels deep outside tool arguments"
                ),
            ));
        }
        let parsed: Result<ClientJsonRpcMessage, _> = serde_json::from_value(value);
        let mut parsed = match parsed {
            Ok(parsed) => parsed,
            Err(error) => {
                if let Some(arguments) = arguments {
                    isomer_sdk::drop_deep(Value::Object(arguments));
                }
                return Incoming::Answer(error_answer(
                    answer_id,
                    INVALID_REQUEST,
                    format!("invalid request: not a JSON-RPC 2.0 message MCP defines: {error}"),
                ));
            }
        };
        if let JsonRpcMessage::Request(request) = &mut parsed {
            match &mut request.request {
                ClientRequest::CustomRequest(custom)
                    if KNOWN_METHODS.contains(&custom.method.as_str()) =>
                {
                    if let Some(arguments) = arguments {
                        isomer_sdk::drop_deep(Value::Object(arguments));
                    }
                    return Incoming::Answer(error_answer(
                        answer_id,
                        INVALID_PARAMS,
                        format!(
                            "invalid params: the params of {} do not match what MCP defines for it",
                            custom.method
                        ),
                    ));
                }
                ClientRequest::CallToolRequest(call) => {
                    call.params.arguments = arguments.take();
                }
                ClientRequest::InitializeRequest(_) => self.initialized = true,
                _ => {}
            }
        }
        if let Some(arguments) = arguments {
            isomer_sdk::drop_deep(Value::Object(arguments));
        }
        Incoming::Message(Box::new(parsed))
    }
}

/// Checks a `tools/call`'s `params` and takes its `arguments` out (`None`
/// when absent or `null`). `Err` says what is wrong, after `tools/call `.
fn take_tool_arguments(
    message: &mut Map<String, Value>,
) -> Result<Option<Map<String, Value>>, Cow<'static, str>> {
    let params = match message.get_mut("params") {
        Some(Value::Object(params)) => params,
        None | Some(Value::Null) => {
            return Err("needs params: {\"name\": <tool>, \"arguments\": {...}}".into());
        }
        Some(other) => {
            return Err(format!("params must be an object, not {}", json_kind(other)).into());
        }
    };
    match params.get("name") {
        Some(Value::String(_)) => {}
        None => return Err("params need a \"name\", the tool's name".into()),
        Some(other) => {
            return Err(format!("params.name must be a string, not {}", json_kind(other)).into());
        }
    }
    match params.shift_remove("arguments") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(arguments)) => Ok(Some(arguments)),
        Some(other) => {
            let kind = json_kind(&other);
            isomer_sdk::drop_deep(other);
            Err(format!("params.arguments must be an object, not {kind}").into())
        }
    }
}

/// `an array`, `a string`, ...: the JSON type of `value` for messages.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A JSON-RPC error response.
fn error_answer(id: Value, code: i32, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let bytes = serde_json::to_vec(&item);
        let writer = Arc::clone(&self.writer);
        let failure = self.failure.clone();
        let failed = Arc::clone(&self.failed);
        async move {
            let bytes = bytes.map_err(std::io::Error::other)?;
            Self::write(&writer, &failure, &failed, bytes).await
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if self.failure.get().is_some() {
                return None;
            }
            let failed = Arc::clone(&self.failed);
            let line = tokio::select! {
                line = self.read_line() => line?,
                () = failed.notified() => return None,
            };
            match self.classify(line) {
                Incoming::Message(message) => return Some(*message),
                Incoming::Ignore => {}
                Incoming::Answer(answer) => {
                    // Written by a task of its own, so a dropped `receive`
                    // cannot cut an answer short.
                    let bytes = serde_json::to_vec(&answer).unwrap_or_default();
                    let writer = Arc::clone(&self.writer);
                    let failure = self.failure.clone();
                    let failed = Arc::clone(&self.failed);
                    self.answers.spawn(async move {
                        let _ = Self::write(&writer, &failure, &failed, bytes).await;
                    });
                    while self.answers.try_join_next().is_some() {}
                }
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        let writer = Arc::clone(&self.writer);
        let mut answers = std::mem::take(&mut self.answers);
        async move {
            while answers.join_next().await.is_some() {}
            writer.lock().await.flush().await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers a transport writes for `input`, and the messages it
    /// hands to rmcp (as JSON), with a line limit of `limit` bytes.
    async fn run(input: &'static [u8], limit: usize) -> (Vec<Value>, Vec<Value>) {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (_, server_write) = tokio::io::split(server);
        let mut transport = LineTransport::new(input, server_write).with_max_line_bytes(limit);
        let mut passed = Vec::new();
        while let Some(message) = Transport::<RoleServer>::receive(&mut transport).await {
            passed.push(serde_json::to_value(&message).unwrap());
        }
        Transport::<RoleServer>::close(&mut transport)
            .await
            .unwrap();
        drop(transport);
        let (mut client_read, _) = tokio::io::split(client);
        let mut written = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut client_read, &mut written)
            .await
            .unwrap();
        let answers = written
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        (answers, passed)
    }

    fn message(answer: &Value) -> (&Value, i64, &str) {
        (
            &answer["id"],
            answer["error"]["code"].as_i64().unwrap(),
            answer["error"]["message"].as_str().unwrap(),
        )
    }

    #[tokio::test]
    async fn unparseable_lines_get_parse_errors_with_a_null_id() {
        let (answers, passed) = run(b"not json\n\xff\xfe\n{\"a\":1}{\"b\":2}\n\
              [\"\\ud800\"]\n1e400\n\n   \n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"123456789012345678901234567890\"}}\n", 64)
        .await;
        assert!(passed.is_empty());
        let got: Vec<_> = answers.iter().map(message).collect();
        assert_eq!(
            got,
            [
                (
                    &Value::Null,
                    -32700,
                    "parse error: the line is not one JSON value: expected ident at line 1 column 2"
                ),
                (
                    &Value::Null,
                    -32700,
                    "parse error: the line is not valid UTF-8 (byte 0 starts an invalid sequence)"
                ),
                (
                    &Value::Null,
                    -32700,
                    "parse error: the line is not one JSON value: trailing characters at line 1 column 8"
                ),
                (
                    &Value::Null,
                    -32700,
                    "parse error: the line is not one JSON value: unexpected end of hex escape at line 1 column 9"
                ),
                (
                    &Value::Null,
                    -32700,
                    "parse error: the line is not one JSON value: number out of range at line 1 column 5"
                ),
                (
                    &Value::Null,
                    -32700,
                    "parse error: the line is 88 bytes long, over the limit of 64 bytes"
                ),
            ]
        );
    }

    #[tokio::test]
    async fn a_last_line_without_newline_is_read() {
        let (answers, passed) =
            run(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}", 64).await;
        assert!(answers.is_empty());
        assert_eq!(
            passed,
            [json!({"jsonrpc": "2.0", "id": 7, "method": "ping"})]
        );
    }

    #[tokio::test]
    async fn notifications_and_responses_before_initialize_are_ignored() {
        let (answers, passed) = run(
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n\
              {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n\
              {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}\n",
            4096,
        )
        .await;
        assert!(answers.is_empty());
        assert_eq!(
            passed,
            [json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {}})]
        );
    }

    #[tokio::test]
    async fn bad_tool_call_params_are_invalid_params() {
        let (answers, passed) = run(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}\n\
              {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":1}}\n\
              {\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"arguments\":[]}}\n\
              {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{}}\n\
              [1]\n{\"id\":5}\n", 4096)
        .await;
        assert!(passed.is_empty());
        let got: Vec<_> = answers.iter().map(message).collect();
        assert_eq!(
            got,
            [
                (
                    &json!(1),
                    -32602,
                    "invalid params: tools/call needs params: {\"name\": <tool>, \"arguments\": {...}}"
                ),
                (
                    &json!(2),
                    -32602,
                    "invalid params: tools/call params.name must be a string, not a number"
                ),
                (
                    &json!("x"),
                    -32602,
                    "invalid params: tools/call params.arguments must be an object, not an array"
                ),
                (
                    &json!(4),
                    -32602,
                    "invalid params: the params of resources/read do not match what MCP defines for it"
                ),
                (
                    &Value::Null,
                    -32600,
                    "invalid request: a JSON-RPC message is an object, not an array"
                ),
                (
                    &json!(5),
                    -32600,
                    "invalid request: not a JSON-RPC 2.0 message MCP defines: unrecognized JSON-RPC message"
                ),
            ]
        );
    }
}
