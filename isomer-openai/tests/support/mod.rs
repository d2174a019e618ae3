//! A Chat Completions server on loopback, started by the test itself, that replays
//! recorded API exchanges: each request is answered by the first exchange (in file order,
//! so a judge's exchange, whose message also holds the request, comes before the
//! generate's) whose every
//! `contains` string occurs in the request's last message, with that exchange's next
//! response (the last one again once they are used up). A request no exchange matches is
//! answered `404` with a body naming it. Every request body is kept for the test to read,
//! with the time it arrived.
//!
//! A response's headers named `x-loopback-*` are not sent: they tell the server how to
//! misbehave (build them with [`raw`], [`cut`] and [`delayed`]):
//! - `x-loopback-raw`: the body is a JSON string, sent as its text (a body that is not
//!   JSON, or JSON ending early, with a `Content-Length` that matches it);
//! - `x-loopback-cut: <bytes>`: the head announces the whole body, then only its first
//!   `<bytes>` bytes are sent and the connection is closed;
//! - `x-loopback-delay-ms: <ms>`: the answer is sent only after `<ms>` milliseconds (a
//!   hang, for a client whose timeout is shorter).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;

/// One recorded exchange.
#[derive(Debug, Clone, Deserialize)]
pub struct Exchange {
    /// Strings the request's last message must all contain.
    #[serde(default)]
    pub contains: Vec<String>,
    /// When given, the number of messages the request must hold (an agent turn's place
    /// in its run).
    #[serde(default)]
    pub messages: Option<usize>,
    /// The answers, in order.
    pub responses: Vec<Response>,
}

/// One recorded answer.
#[derive(Debug, Clone, Deserialize)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// Extra headers, such as `Retry-After`.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// The body, sent as JSON text.
    pub body: Value,
}

#[derive(Default)]
struct State {
    exchanges: Vec<(Exchange, usize)>,
    requests: Vec<Value>,
    arrivals: Vec<Instant>,
}

/// The running server. It stops with the test process.
pub struct Loopback {
    /// `http://127.0.0.1:<port>/v1`, the base URL to hand the client.
    pub base_url: String,
    state: Arc<Mutex<State>>,
}

impl Loopback {
    /// Starts a server replaying `exchanges` on a free loopback port.
    pub fn start(exchanges: Vec<Exchange>) -> Loopback {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(State {
            exchanges: exchanges
                .into_iter()
                .map(|exchange| (exchange, 0))
                .collect(),
            requests: Vec::new(),
            arrivals: Vec::new(),
        }));
        let serving = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = Arc::clone(&serving);
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        Loopback { base_url, state }
    }

    /// Starts a server replaying the exchanges of a JSON file (see [`exchanges`]).
    pub fn from_file(path: &std::path::Path) -> Loopback {
        Loopback::start(exchanges(path))
    }

    /// Every request body received so far, in arrival order.
    pub fn requests(&self) -> Vec<Value> {
        self.state.lock().unwrap().requests.clone()
    }

    /// The time between each request and the next, in arrival order (one fewer than the
    /// requests): the waits of a client's retries, plus the time each attempt took.
    pub fn gaps(&self) -> Vec<Duration> {
        let state = self.state.lock().unwrap();
        state
            .arrivals
            .windows(2)
            .map(|pair| pair[1] - pair[0])
            .collect()
    }
}

/// The exchanges of a JSON file (an array of exchanges), such as a fixture's
/// `exchanges.json`.
pub fn exchanges(path: &std::path::Path) -> Vec<Exchange> {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A fresh recordings directory holding a copy of the `corpus.json` of the fixture
/// directory `fixture` and nothing else.
pub fn corpus_only(fixture: &std::path::Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture.join("corpus.json"), dir.path().join("corpus.json")).unwrap();
    dir
}

/// The text of the last message of a request body.
pub fn last_message(body: &Value) -> String {
    body["messages"]
        .as_array()
        .and_then(|messages| messages.last())
        .and_then(|message| message["content"].as_str())
        .unwrap_or_default()
        .to_owned()
}

fn serve(stream: TcpStream, state: &Mutex<State>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    loop {
        let mut length = 0;
        let mut line = String::new();
        // The request line, then headers up to the blank line.
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let response = answer(state, body);
        let directive = |name: &str| {
            response
                .headers
                .iter()
                .find(|(header, _)| header.eq_ignore_ascii_case(name))
                .map(|(_, value)| value.as_str())
        };
        let text = match (directive("x-loopback-raw"), &response.body) {
            (Some(_), Value::String(text)) => text.clone(),
            _ => response.body.to_string(),
        };
        if let Some(delay) = directive("x-loopback-delay-ms") {
            std::thread::sleep(Duration::from_millis(delay.parse().unwrap()));
        }
        let mut head = format!(
            "HTTP/1.1 {} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
            response.status,
            text.len()
        );
        for (name, value) in &response.headers {
            if !name.to_ascii_lowercase().starts_with("x-loopback-") {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
        }
        head.push_str("\r\n");
        let sent = match directive("x-loopback-cut") {
            Some(bytes) => &text.as_bytes()[..bytes.parse::<usize>().unwrap().min(text.len())],
            None => text.as_bytes(),
        };
        let mut stream = &stream;
        if stream.write_all(head.as_bytes()).is_err() || stream.write_all(sent).is_err() {
            return;
        }
        if sent.len() < text.len() {
            let _ = stream.shutdown(std::net::Shutdown::Both);
            return;
        }
    }
}

fn answer(state: &Mutex<State>, body: Value) -> Response {
    let mut state = state.lock().unwrap();
    let last = last_message(&body);
    let count = body["messages"].as_array().map_or(0, Vec::len);
    state.requests.push(body);
    state.arrivals.push(Instant::now());
    let found = state.exchanges.iter_mut().find(|(exchange, _)| {
        exchange
            .contains
            .iter()
            .all(|part| last.contains(part.as_str()))
            && exchange.messages.is_none_or(|messages| messages == count)
    });
    match found {
        Some((exchange, used)) => {
            let index = (*used).min(exchange.responses.len() - 1);
            *used += 1;
            exchange.responses[index].clone()
        }
        None => Response {
            status: 404,
            headers: Vec::new(),
            body: serde_json::json!({"error": format!("no recorded exchange for: {last}")}),
        },
    }
}

/// A 200 answer with `content` and the given token counts.
pub fn completion(content: &str, prompt_tokens: u64, completion_tokens: u64) -> Response {
    Response {
        status: 200,
        headers: Vec::new(),
        body: serde_json::json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens},
        }),
    }
}

/// `text` sent as the body as it is (not as a JSON value), with `status`.
pub fn raw(status: u16, text: &str) -> Response {
    Response {
        status,
        headers: vec![("x-loopback-raw".to_owned(), "1".to_owned())],
        body: Value::String(text.to_owned()),
    }
}

/// `response` with only the first `bytes` bytes of its body sent, the head announcing them
/// all, then the connection closed.
pub fn cut(mut response: Response, bytes: usize) -> Response {
    response
        .headers
        .push(("x-loopback-cut".to_owned(), bytes.to_string()));
    response
}

/// `response` sent only after `millis` milliseconds.
pub fn delayed(mut response: Response, millis: u64) -> Response {
    response
        .headers
        .push(("x-loopback-delay-ms".to_owned(), millis.to_string()));
    response
}

/// The record gate `gate` over the recordings in `dir`, live against `url` when given, in
/// record mode `mode` when given (replay without), its run files in `runs`; every variable
/// the record tests set is cleared first, so a test sets only what it means to.
pub fn record_command(
    gate: &std::path::Path,
    dir: &std::path::Path,
    runs: &std::path::Path,
    url: Option<&str>,
    mode: Option<&str>,
) -> std::process::Command {
    let mut command = std::process::Command::new(gate);
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("ISOMER_EVAL_ACCEPT")
        .env_remove("ISOMER_EVAL_HTML")
        .env_remove("ISOMER_EVAL_RECORD")
        .env_remove("ISOMER_OPENAI_TEST_URL")
        .env_remove("ISOMER_OPENAI_TEST_HTTP_TIMEOUT_MS")
        .env_remove("ISOMER_OPENAI_TEST_TRIAL_TIMEOUT_MS")
        .env_remove("ISOMER_OPENAI_TEST_RETRIES")
        .env("ISOMER_EVAL_RECORDINGS_RECORD", dir)
        .env("ISOMER_EVAL_RUNS", runs);
    if let Some(url) = url {
        command.env("ISOMER_OPENAI_TEST_URL", url);
    }
    if let Some(mode) = mode {
        command.env("ISOMER_EVAL_RECORD", mode);
    }
    command
}

/// A finished process's stdout and stderr, labelled, for an assertion's message.
pub fn output_text(output: &std::process::Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The recorded answer of the pass-rate fixture's one case (`pause`), valid under the
/// slides frame.
pub fn pause_answer() -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/pass-rate/answers/pause.0.txt"),
    )
    .unwrap()
}

/// An exchange that answers every request with `responses` in turn.
pub fn every(responses: Vec<Response>) -> Exchange {
    Exchange {
        contains: Vec::new(),
        messages: None,
        responses,
    }
}

/// The tokens (input, output) of `model-a`'s five answers in the two-configuration tests:
/// at its price of 2 and 8 US dollars per million, 0.006, 0.008, 0.01, 0.008 and 0.006
/// USD; 1500, 2500, 2000, 3250 and 1500 tokens.
const A_TOKENS: [(u64, u64); 5] = [
    (1000, 500),
    (2000, 500),
    (1000, 1000),
    (3000, 250),
    (1000, 500),
];

/// `model-a`'s server in the two-configuration tests: every request answered with the
/// next of `answers` (five at most), each with its tokens from [`A_TOKENS`].
pub fn model_a<'a>(answers: impl IntoIterator<Item = &'a str>) -> Vec<Exchange> {
    vec![every(
        answers
            .into_iter()
            .zip(A_TOKENS)
            .map(|(answer, (input, output))| completion(answer, input, output))
            .collect(),
    )]
}

/// The two-configuration gate (`tests/configurations_gate.rs`) with its two servers,
/// `model-a` at `a` and `model-b` at `b`, and a fresh temporary directory each for its
/// recordings (`model-a/` and `model-b/` below it) and its run files.
pub struct Configurations {
    gate: std::path::PathBuf,
    pub a: Loopback,
    pub b: Loopback,
    pub recordings: tempfile::TempDir,
    pub runs: tempfile::TempDir,
}

impl Configurations {
    /// The gate at `gate` against servers replaying `a` and `b`.
    pub fn start(gate: std::path::PathBuf, a: Vec<Exchange>, b: Vec<Exchange>) -> Configurations {
        Configurations {
            gate,
            a: Loopback::start(a),
            b: Loopback::start(b),
            recordings: tempfile::tempdir().unwrap(),
            runs: tempfile::tempdir().unwrap(),
        }
    }

    /// The gate live against both servers in record mode `mode`, one trial at a time (so
    /// each server is asked in the order the runs come); every variable the record tests
    /// set is cleared first, so a test sets only what it means to.
    pub fn command(&self, mode: &str) -> std::process::Command {
        let mut command = std::process::Command::new(&self.gate);
        command
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["--test-threads", "1"])
            .env_remove("ISOMER_EVAL_ACCEPT")
            .env_remove("ISOMER_EVAL_HTML")
            .env_remove("ISOMER_EVAL_CONFIGURATIONS")
            .env_remove("ISOMER_EVAL_RECORDINGS_MODELS")
            .env_remove("ISOMER_OPENAI_TEST_MAX_COST")
            .env_remove("ISOMER_OPENAI_TEST_MAX_TOKENS")
            .env("ISOMER_OPENAI_TEST_URL_A", &self.a.base_url)
            .env("ISOMER_OPENAI_TEST_URL_B", &self.b.base_url)
            .env("ISOMER_OPENAI_TEST_RECORDINGS", self.recordings.path())
            .env("ISOMER_EVAL_RUNS", self.runs.path())
            .env("ISOMER_EVAL_RECORD", mode);
        command
    }

    /// How many requests each server has received: (`a`, `b`).
    pub fn requests(&self) -> (usize, usize) {
        (self.a.requests().len(), self.b.requests().len())
    }

    /// The run files of the suite `models` so far, by name (see [`run_files`]).
    pub fn run_files(&self) -> Vec<(String, isomer_evals::run_file::RunFile)> {
        run_files(&self.runs.path().join("models"))
    }
}

/// Each run of `file` as (its attempts, its cost in USD, its error), in order.
pub fn run_summaries(
    file: &isomer_evals::run_file::RunFile,
) -> Vec<(usize, Option<f64>, Option<&str>)> {
    file.runs
        .iter()
        .map(|run| (run.attempts.len(), run.cost_usd, run.error.as_deref()))
        .collect()
}

/// The run files in `dir` (`run-*.json`; a measure run writes its HTML report beside
/// them), each read back as a `RunFile` with its file name, by name.
pub fn run_files(dir: &std::path::Path) -> Vec<(String, isomer_evals::run_file::RunFile)> {
    let mut files: Vec<(String, isomer_evals::run_file::RunFile)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_str().unwrap();
            name.starts_with("run-") && name.ends_with(".json")
        })
        .map(|path| {
            let file = read_run_file(&path);
            (path.file_name().unwrap().to_str().unwrap().to_owned(), file)
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

/// The run file at `path`, read back; it reads back whole (written again, it is the same
/// text), or the test fails.
pub fn read_run_file(path: &std::path::Path) -> isomer_evals::run_file::RunFile {
    let text = std::fs::read_to_string(path).unwrap();
    let file = serde_json::from_str(&text).unwrap();
    assert_eq!(
        format!("{}\n", serde_json::to_string_pretty(&file).unwrap()),
        text,
        "{}",
        path.display()
    );
    file
}
