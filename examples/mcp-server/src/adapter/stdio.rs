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
//! | not UTF-8, not JSON (two values, a cut-off value, a lone surrogate escape or `1e400` where no request id can be read), or longer than the line limit | `-32700` parse error with `"id": null`, the message naming the problem |
//! | a request whose only fault is a value `serde_json` cannot hold (a lone surrogate escape such as `"\ud83d"`, a number out of range such as `1e400`: both valid JSON grammar) | `-32602` invalid params with its `id` when the value is inside `params`, `-32600` invalid request with its `id` when it is elsewhere |
//! | a request whose `id` is already in flight (read, not yet answered) | `-32600` invalid request with that `id`, the message naming it; the first request is answered as usual |
//! | nesting deeper than [`MAX_LINE_DEPTH`] | `-32600` invalid request with `"id": null` (not parsed) |
//! | JSON but not a JSON-RPC 2.0 message (an array, a number, no `jsonrpc: "2.0"`), or nesting deeper than [`MAX_ENVELOPE_DEPTH`] outside tool arguments | `-32600` invalid request, with the message's `id` when it has a usable one, else `null` |
//! | a `tools/call` without `params`, with a `name` that is not a string, or `arguments` that are not an object | `-32602` invalid params with its `id` |
//! | any other known MCP method whose `params` do not fit it | `-32602` invalid params with its `id` |
//! | a notification or a response before `initialize` | ignored, as the MCP lifecycle allows (the client may not send them yet) |
//! | a request before `initialize` | passed on: rmcp answers `ping`, and answers anything else with an error |
//! | a blank line | ignored |
//! | the last line, without a trailing newline | read as a line |
//! | a UTF-8 byte order mark (`EF BB BF`) at the very start of the input | skipped (one anywhere else is a parse error) |
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
//! - **Unwritten answers.** At most [`DEFAULT_MAX_PENDING_ANSWERS`] (64)
//!   answers are pending at once, unless set with
//!   [`LineTransport::with_max_pending_answers`]: an answer is pending from
//!   the moment its line is read (a request handed to rmcp, or a line the
//!   transport answers itself) until the answer is written out. While that
//!   many are pending the transport reads no further line, so a client that
//!   sends requests without reading the answers fills the pipe to the
//!   server and stops, instead of the server queueing its answers without
//!   end. Lines that need no answer (notifications, responses, blank lines)
//!   hold no place once read.
//!
//! Together they bound what the transport holds: one line being read (the
//! line limit) and the pending answers. The server's integration tests
//! measure the peak resident memory under 100 MB for every hostile line
//! they send at the default limits, and a server sent 30,000 requests by a
//! client that reads nothing stops reading after a few thousand of them
//! (the pipe's own buffers and the pending answers) with its resident
//! memory under 100 MB.
//!
//! # A broken output
//!
//! When writing a message fails (the client closed its end of stdout), the
//! transport stops reading at once, even while a read of stdin is waiting
//! for input, so the session ends, and keeps the error in a
//! [`WriteFailure`] the host checks when the session is over; the example
//! binary then exits with status 1 and prints the error on stderr. tokio
//! reads stdin on a blocking thread that cannot be cancelled, so a host
//! must not wait for that thread to end: the binary shuts its runtime down
//! with `Runtime::shutdown_background`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};

use isomer_sdk::{DeepValue, InputBudget, check_input_budget, parse_json};
use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, JsonRpcMessage, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _};
use tokio::io::{BufReader, Stdin, Stdout};
use tokio::sync::{Mutex, Notify, OwnedSemaphorePermit, Semaphore};

/// The default line limit: 1 MiB (1,048,576 bytes, not counting the
/// newline). The input budget refuses a composition of more than 20,000
/// values or 1,000,000 characters of keys and leaves anyway; a composition a
/// model writes is a few kilobytes.
pub const DEFAULT_MAX_LINE_BYTES: usize = 1024 * 1024;

/// The default bound on pending answers: 64 (module docs, "Limits"). An
/// answer is at most a few hundred kilobytes (a PNG or PDF render; a
/// `tools/list` is about 30 KB), so 64 of them stay within tens of
/// megabytes, and 64 requests in progress at once are more than a client
/// waiting on its model needs.
pub const DEFAULT_MAX_PENDING_ANSWERS: usize = 64;

/// The UTF-8 byte order mark, skipped at the start of the input.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

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
    /// Whether the input has not yet passed where a byte order mark may be.
    at_start: bool,
    /// How many bytes of a byte order mark have been read at the start.
    mark_matched: usize,
    /// The transport's own answers being written.
    answers: tokio::task::JoinSet<()>,
    /// One permit per answer that may be pending (module docs, "Limits").
    pending: Arc<Semaphore>,
    /// The bound `pending` was made with.
    max_pending_answers: usize,
    /// The requests handed to rmcp and not yet answered, each holding its
    /// place among the pending answers.
    in_flight: InFlight,
}

/// The requests in flight, by id, shared between reading and writing.
type InFlight = Arc<StdMutex<HashMap<RequestId, OwnedSemaphorePermit>>>;

impl<R, W> std::fmt::Debug for LineTransport<R, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineTransport")
            .field("max_line_bytes", &self.max_line_bytes)
            .field("max_pending_answers", &self.max_pending_answers)
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
    /// message to `writer`, with the [`DEFAULT_MAX_LINE_BYTES`] limit and
    /// at most [`DEFAULT_MAX_PENDING_ANSWERS`] pending answers.
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
            at_start: true,
            mark_matched: 0,
            answers: tokio::task::JoinSet::new(),
            pending: Arc::new(Semaphore::new(DEFAULT_MAX_PENDING_ANSWERS)),
            max_pending_answers: DEFAULT_MAX_PENDING_ANSWERS,
            in_flight: InFlight::default(),
        }
    }

    /// Sets the line limit in bytes, not counting the newline (builder
    /// style). A longer line is answered with `-32700`.
    #[must_use]
    pub fn with_max_line_bytes(mut self, max_line_bytes: usize) -> Self {
        self.max_line_bytes = max_line_bytes;
        self
    }

    /// Sets how many answers may be pending before the transport stops
    /// reading (builder style; module docs, "Limits"). 0 is taken as 1: a
    /// transport that may hold no answer could never answer.
    #[must_use]
    pub fn with_max_pending_answers(mut self, max_pending_answers: usize) -> Self {
        self.max_pending_answers = max_pending_answers.max(1);
        self.pending = Arc::new(Semaphore::new(self.max_pending_answers));
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
                if self.at_start {
                    self.leave_start();
                }
                if !self.started {
                    return None;
                }
                break;
            }
            if self.at_start {
                // The mark may arrive split over reads: match it byte by byte.
                let rest = &BYTE_ORDER_MARK[self.mark_matched..];
                let matched = buffer
                    .iter()
                    .zip(rest)
                    .take_while(|(byte, mark)| byte == mark)
                    .count();
                if matched == rest.len() {
                    self.reader.consume(matched);
                    self.at_start = false;
                    continue;
                }
                if matched == buffer.len() {
                    self.reader.consume(matched);
                    self.mark_matched += matched;
                    continue;
                }
                // Not a mark: the bytes matched so far open the line.
                self.leave_start();
                continue;
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

    /// Writes one of the transport's own answers by a task of its own, so a
    /// dropped `receive` cannot cut it short, holding `place` among the
    /// pending answers until it is written.
    fn answer(&mut self, answer: Value, place: OwnedSemaphorePermit) {
        let bytes = serde_json::to_vec(&answer).unwrap_or_default();
        let writer = Arc::clone(&self.writer);
        let failure = self.failure.clone();
        let failed = Arc::clone(&self.failed);
        self.answers.spawn(async move {
            let _ = Self::write(&writer, &failure, &failed, bytes).await;
            drop(place);
        });
        while self.answers.try_join_next().is_some() {}
    }

    /// Keeps the book of requests in flight for a message handed to rmcp:
    /// a request keeps `place` under its id until rmcp answers it
    /// ([`Transport::send`] frees the id, and the place once the answer is
    /// written), or is refused with `-32600` (`Err`, the answer
    /// and its place) when its id is already in flight; a cancellation frees
    /// the cancelled id, since rmcp drops a cancelled request's answer. Any
    /// other message needs no place.
    #[allow(clippy::result_large_err)]
    fn track(
        &self,
        message: ClientJsonRpcMessage,
        place: OwnedSemaphorePermit,
    ) -> Result<ClientJsonRpcMessage, (Value, OwnedSemaphorePermit)> {
        let mut in_flight = self
            .in_flight
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match &message {
            JsonRpcMessage::Request(request) => {
                if in_flight.contains_key(&request.id) {
                    let id = serde_json::to_value(&request.id).unwrap_or(Value::Null);
                    let answer = error_answer(
                        id.clone(),
                        INVALID_REQUEST,
                        format!(
                            "invalid request: id {id} is already in flight (the request read earlier with this id is not answered yet); use a new id for each request"
                        ),
                    );
                    return Err((answer, place));
                }
                in_flight.insert(request.id.clone(), place);
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    in_flight.remove(id);
                }
            }
            _ => {}
        }
        Ok(message)
    }

    /// Leaves the start of the input: the bytes of a mark read so far, if
    /// any, were no mark and open the first line.
    fn leave_start(&mut self) {
        self.at_start = false;
        if self.mark_matched > 0 {
            self.line
                .extend_from_slice(&BYTE_ORDER_MARK[..self.mark_matched]);
            self.started = true;
            self.mark_matched = 0;
        }
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
                return Incoming::Answer(unreadable_value_answer(text, &error).unwrap_or_else(
                    || {
                        error_answer(
                            Value::Null,
                            PARSE_ERROR,
                            format!("parse error: the line is not one JSON value: {error}"),
                        )
                    },
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

/// The answer to a request that is JSON by its grammar but holds a value
/// `serde_json` refuses to build (`error`): a lone surrogate escape
/// (`"\ud83d"`) or a number out of range (`1e400`). `serde_json` skips such
/// values unread when it ignores them, so the envelope is read around them:
/// when it has a usable `id` (a string or a number) and a `method`, the
/// request is answered under its own id, with `-32602` invalid params when
/// everything outside `params` reads, else `-32600` invalid request. `None`
/// when the line is no such request (no id, no method, or a syntax error),
/// which is then a parse error.
fn unreadable_value_answer(text: &str, error: &isomer_sdk::JsonSyntaxError) -> Option<Value> {
    /// The envelope; every other key is skipped unread.
    #[derive(Deserialize)]
    struct Envelope {
        id: Option<Value>,
        method: Option<String>,
    }
    /// Everything but `params`, read as values.
    #[derive(Deserialize)]
    struct OutsideParams {
        #[serde(rename = "params")]
        _params: Option<IgnoredAny>,
        #[serde(flatten)]
        _rest: Map<String, Value>,
    }
    fn read<'a, T: Deserialize<'a>>(text: &'a str) -> Option<T> {
        let mut reader = serde_json::Deserializer::from_str(text);
        let value = T::deserialize(&mut reader).ok()?;
        reader.end().ok()?;
        Some(value)
    }
    let envelope: Envelope = read(text)?;
    let id = envelope.id.filter(|id| id.is_string() || id.is_number())?;
    let method = envelope.method?;
    Some(if read::<OutsideParams>(text).is_some() {
        error_answer(
            id,
            INVALID_PARAMS,
            format!(
                "invalid params: the params of {method} hold a value that cannot be read: {error}"
            ),
        )
    } else {
        error_answer(
            id,
            INVALID_REQUEST,
            format!("invalid request: the message holds a value that cannot be read: {error}"),
        )
    })
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
        let answered = match &item {
            JsonRpcMessage::Response(response) => Some(&response.id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            _ => None,
        };
        // Answered: the id is free from now on (the client cannot see the
        // answer before it is written), and its place among the pending
        // answers once the answer is written.
        let place = answered.and_then(|id| {
            self.in_flight
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(id)
        });
        let bytes = serde_json::to_vec(&item);
        let writer = Arc::clone(&self.writer);
        let failure = self.failure.clone();
        let failed = Arc::clone(&self.failed);
        async move {
            let written = match bytes {
                Ok(bytes) => Self::write(&writer, &failure, &failed, bytes).await,
                Err(error) => Err(std::io::Error::other(error)),
            };
            drop(place);
            written
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if self.failure.get().is_some() {
                return None;
            }
            let failed = Arc::clone(&self.failed);
            // A place for the answer this line may need, before reading it:
            // while every place is taken, no line is read (module docs).
            let place = tokio::select! {
                place = Arc::clone(&self.pending).acquire_owned() => place.ok()?,
                () = failed.notified() => return None,
            };
            let line = tokio::select! {
                line = self.read_line() => line?,
                () = failed.notified() => return None,
            };
            let (answer, place) = match self.classify(line) {
                Incoming::Message(message) => match self.track(*message, place) {
                    Ok(message) => return Some(message),
                    Err(refused) => refused,
                },
                Incoming::Ignore => continue,
                Incoming::Answer(answer) => (answer, place),
            };
            self.answer(answer, place);
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
        run_reader(input, limit).await
    }

    /// [`run`] over any reader.
    async fn run_reader(
        input: impl AsyncRead + Unpin + Send + 'static,
        limit: usize,
    ) -> (Vec<Value>, Vec<Value>) {
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

    /// A reader that hands out its bytes one per read, as a slow pipe may.
    struct ByteByByte(&'static [u8]);

    impl AsyncRead for ByteByByte {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            if let Some((first, rest)) = self.0.split_first() {
                buf.put_slice(&[*first]);
                self.0 = rest;
            }
            std::task::Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn a_byte_order_mark_is_skipped_at_the_start_only() {
        let input: &[u8] = b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n\
              \xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}\n";
        for (answers, passed) in [
            run(input, 4096).await,
            run_reader(ByteByByte(input), 4096).await,
        ] {
            assert_eq!(
                passed,
                [json!({"jsonrpc": "2.0", "id": 7, "method": "ping"})]
            );
            assert_eq!(
                answers,
                [json!({
                    "jsonrpc": "2.0",
                    "id": null,
                    "error": {
                        "code": -32700,
                        "message": "parse error: the line is not one JSON value: expected value at line 1 column 1"
                    }
                })]
            );
        }
        // Two bytes of a mark and then the end are a line of their own.
        let (answers, passed) = run_reader(ByteByByte(b"\xef\xbb"), 4096).await;
        assert!(passed.is_empty());
        assert_eq!(
            answers.iter().map(message).collect::<Vec<_>>(),
            [(
                &Value::Null,
                -32700,
                "parse error: the line is not valid UTF-8 (byte 0 starts an invalid sequence)"
            )]
        );
    }

    #[tokio::test]
    async fn a_value_serde_json_refuses_is_answered_under_the_request_id() {
        let (answers, passed) = run(
            &br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"isomer_validate","arguments":{"composition":"\ud83d"}}}
{"jsonrpc":"2.0","id":"a","method":"ping","params":{"n":1e400}}
{"jsonrpc":"2.0","id":3,"method":"ping","_meta":1e400}
{"jsonrpc":"2.0","method":"notifications/progress","params":{"n":1e400}}
{"jsonrpc":"2.0","id":1e400,"method":"ping"}
{"jsonrpc":"2.0","id":6,"method":"ping","params":{"n":1e400},}
"#[..],
            4096,
        )
        .await;
        assert!(passed.is_empty());
        assert_eq!(
            answers.iter().map(message).collect::<Vec<_>>(),
            [
                (
                    &json!(1),
                    -32602,
                    "invalid params: the params of tools/call hold a value that cannot be read: unexpected end of hex escape at line 1 column 116"
                ),
                (
                    &json!("a"),
                    -32602,
                    "invalid params: the params of ping hold a value that cannot be read: number out of range at line 1 column 61"
                ),
                (
                    &json!(3),
                    -32600,
                    "invalid request: the message holds a value that cannot be read: number out of range at line 1 column 53"
                ),
                (
                    &Value::Null,
                    -32700,
                    "parse error: the line is not one JSON value: number out of range at line 1 column 70"
                ),
                (
                    &Value::Null,
                    -32700,
                    "parse error: the line is not one JSON value: number out of range at line 1 column 27"
                ),
                (
                    &Value::Null,
                    -32700,
                    "parse error: the line is not one JSON value: number out of range at line 1 column 59"
                ),
            ]
        );
    }

    fn ping(id: i64) -> ServerJsonRpcMessage {
        JsonRpcMessage::response(rmcp::model::ServerResult::empty(()), RequestId::Number(id))
    }

    #[tokio::test]
    async fn a_duplicate_id_in_flight_is_refused_until_it_is_answered() {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (client_read, mut client_write) = tokio::io::split(client);
        let (server_read, server_write) = tokio::io::split(server);
        let mut transport = LineTransport::new(server_read, server_write);
        let request =
            |id: &str| format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n");
        let mut lines = BufReader::new(client_read).lines();
        client_write
            .write_all((request("1") + &request("1") + &request("\"1\"")).as_bytes())
            .await
            .unwrap();
        let first = Transport::<RoleServer>::receive(&mut transport)
            .await
            .unwrap();
        let string_id = Transport::<RoleServer>::receive(&mut transport)
            .await
            .unwrap();
        assert_eq!(
            serde_json::to_value(&string_id).unwrap()["id"],
            json!("1"),
            "a string id is another id than the number"
        );
        assert_eq!(
            serde_json::from_str::<Value>(&lines.next_line().await.unwrap().unwrap()).unwrap(),
            json!({
                "jsonrpc": "2.0",
                "id": 1,
                "error": {
                    "code": -32600,
                    "message": "invalid request: id 1 is already in flight (the request read earlier with this id is not answered yet); use a new id for each request"
                }
            })
        );
        assert_eq!(serde_json::to_value(&first).unwrap()["id"], json!(1));
        Transport::<RoleServer>::send(&mut transport, ping(1))
            .await
            .unwrap();
        assert_eq!(
            lines.next_line().await.unwrap().unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
        // Answered: the id is free again.
        client_write
            .write_all(request("1").as_bytes())
            .await
            .unwrap();
        let again = Transport::<RoleServer>::receive(&mut transport)
            .await
            .unwrap();
        assert_eq!(serde_json::to_value(&again).unwrap()["id"], json!(1));
    }

    /// Whether a `receive` on `transport` is still waiting after 200 ms.
    async fn still_waiting<R, W>(transport: &mut LineTransport<R, W>) -> bool
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let receive = Transport::<RoleServer>::receive(transport);
        tokio::time::timeout(std::time::Duration::from_millis(200), receive)
            .await
            .is_err()
    }

    #[tokio::test]
    async fn no_line_is_read_while_the_pending_answers_are_at_the_bound() {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (client_read, mut client_write) = tokio::io::split(client);
        let (server_read, server_write) = tokio::io::split(server);
        let mut transport =
            LineTransport::new(server_read, server_write).with_max_pending_answers(2);
        let mut lines = BufReader::new(client_read).lines();
        // After `initialize`, so that the cancellation below is read.
        client_write
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n")
            .await
            .unwrap();
        Transport::<RoleServer>::receive(&mut transport)
            .await
            .unwrap();
        Transport::<RoleServer>::send(&mut transport, ping(0))
            .await
            .unwrap();
        lines.next_line().await.unwrap().unwrap();
        let request =
            |id: i64| format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n");
        let cancel = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}\n";
        let input = [
            request(1),
            request(2),
            request(3),
            cancel.to_owned(),
            request(4),
            request(5),
            request(6),
        ];
        client_write
            .write_all(input.concat().as_bytes())
            .await
            .unwrap();
        let id_of =
            |message: ClientJsonRpcMessage| serde_json::to_value(&message).unwrap()["id"].clone();
        let mut received = Vec::new();
        for _ in 0..2 {
            received.push(id_of(
                Transport::<RoleServer>::receive(&mut transport)
                    .await
                    .unwrap(),
            ));
        }
        assert_eq!(received, [json!(1), json!(2)]);
        assert!(
            still_waiting(&mut transport).await,
            "a third line was read at the bound"
        );
        Transport::<RoleServer>::send(&mut transport, ping(2))
            .await
            .unwrap();
        assert_eq!(
            lines.next_line().await.unwrap().unwrap(),
            r#"{"jsonrpc":"2.0","id":2,"result":{}}"#
        );
        let third = Transport::<RoleServer>::receive(&mut transport)
            .await
            .unwrap();
        assert_eq!(id_of(third), json!(3));
        Transport::<RoleServer>::send(&mut transport, ping(3))
            .await
            .unwrap();
        lines.next_line().await.unwrap().unwrap();
        // A cancellation frees its request's place: rmcp never answers it.
        let cancelled = Transport::<RoleServer>::receive(&mut transport)
            .await
            .unwrap();
        assert_eq!(
            serde_json::to_value(&cancelled).unwrap()["method"],
            "notifications/cancelled"
        );
        for id in [4, 5] {
            let request = Transport::<RoleServer>::receive(&mut transport)
                .await
                .unwrap();
            assert_eq!(id_of(request), json!(id));
        }
        assert!(
            still_waiting(&mut transport).await,
            "a sixth line was read at the bound"
        );
    }
}
