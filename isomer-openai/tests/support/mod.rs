//! A Chat Completions server on loopback, started by the test itself, that replays
//! recorded API exchanges: each request is answered by the first exchange (in file order,
//! so a judge's exchange, whose message also holds the request, comes before the
//! generate's) whose every
//! `contains` string occurs in the request's last message, with that exchange's next
//! response (the last one again once they are used up). A request no exchange matches is
//! answered `404` with a body naming it. Every request body is kept for the test to read.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

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
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// Extra headers, such as `Retry-After`.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// The body, sent as JSON text.
    #[serde(default)]
    pub body: Value,
    /// When given, the body sent instead of `body`, byte for byte (text that is not JSON).
    #[serde(default)]
    pub raw: Option<String>,
    /// Milliseconds to wait before answering (a slow model; longer than the client's
    /// timeout, a hang).
    #[serde(default)]
    pub delay_ms: u64,
    /// Send the head (whose `Content-Length` counts the whole body) and the first half of
    /// the body, then close the connection: a body cut in transit.
    #[serde(default)]
    pub cut: bool,
}

#[derive(Default)]
struct State {
    exchanges: Vec<(Exchange, usize)>,
    requests: Vec<Value>,
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

    /// Starts a server replaying the exchanges of a JSON file (an array of exchanges).
    pub fn from_file(path: &std::path::Path) -> Loopback {
        let text = std::fs::read_to_string(path).unwrap();
        Loopback::start(serde_json::from_str(&text).unwrap())
    }

    /// Every request body received so far, in arrival order.
    pub fn requests(&self) -> Vec<Value> {
        self.state.lock().unwrap().requests.clone()
    }

    /// Waits until at least `count` requests have arrived, for at most `limit`; returns
    /// whether they did.
    pub fn wait_for_requests(&self, count: usize, limit: std::time::Duration) -> bool {
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            if self.state.lock().unwrap().requests.len() >= count {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        false
    }
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
        if response.delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(response.delay_ms));
        }
        let text = response
            .raw
            .clone()
            .unwrap_or_else(|| response.body.to_string());
        let mut head = format!(
            "HTTP/1.1 {} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
            response.status,
            text.len()
        );
        for (name, value) in &response.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut stream = &stream;
        let sent = if response.cut {
            &text.as_bytes()[..text.len() / 2]
        } else {
            text.as_bytes()
        };
        if stream.write_all(head.as_bytes()).is_err() || stream.write_all(sent).is_err() {
            return;
        }
        if response.cut {
            let _ = stream.flush();
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
            body: serde_json::json!({"error": format!("no recorded exchange for: {last}")}),
            ..Response::default()
        },
    }
}

/// A 200 answer with `content` and the given token counts.
pub fn completion(content: &str, prompt_tokens: u64, completion_tokens: u64) -> Response {
    Response {
        status: 200,
        body: serde_json::json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens},
        }),
        ..Response::default()
    }
}
