//! Drives the built `isomer-mcp-server` over raw stdio with malformed and
//! hostile lines: each alone (a fresh server per line) and interleaved with
//! good requests (one server for all). Every line that has an id or cannot
//! be parsed gets an answer with the right code; lines that need none get
//! none; a `ping` after each line shows the server alive; the server's peak
//! resident memory stays under 100 MB; closing stdin ends it with status 0.
//! Then the transport's promises, with exact answers: a duplicate id in
//! flight, values `serde_json` refuses inside a request, a byte order mark
//! before the first request, a client that reads no answer, and a closed
//! stdout while stdin stays open. Every wait has a timeout, so a server that
//! hangs fails the test.

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any one answer may take.
const STEP: Duration = Duration::from_secs(20);

/// Peak resident memory a server may reach, in bytes (100 MB).
const MEMORY_CEILING: u64 = 100_000_000;

/// The largest JSON-RPC answer to one tool call, in bytes, with findings capped.
const ANSWER_CEILING: usize = 150_000;

/// What a line must be answered with.
#[derive(Debug, Clone)]
enum Expect {
    /// A JSON-RPC error with this code and id.
    Error(i64, Value),
    /// A tool result for this id, failed or not, whose first text block
    /// contains the fragment.
    ToolResult {
        id: i64,
        is_error: bool,
        contains: &'static str,
    },
    /// Any successful result for this id.
    Result(Value),
    /// No answer at all.
    Nothing,
}

/// One hostile line and its expected answer.
struct Case {
    name: &'static str,
    line: Vec<u8>,
    expect: Expect,
}

fn case(name: &'static str, line: impl Into<Vec<u8>>, expect: Expect) -> Case {
    Case {
        name,
        line: line.into(),
        expect,
    }
}

fn parse_error() -> Expect {
    Expect::Error(-32700, Value::Null)
}

fn invalid_request(id: Value) -> Expect {
    Expect::Error(-32600, id)
}

fn invalid_params(id: i64) -> Expect {
    Expect::Error(-32602, json!(id))
}

fn tools_call(id: i64, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#)
}

fn validate_call(id: i64, composition: &str) -> String {
    tools_call(
        id,
        &format!(r#"{{"name":"isomer_validate","arguments":{{"composition":{composition}}}}}"#),
    )
}

fn nested(depth: usize) -> String {
    format!(
        r#"{{"type":"view","body":{}0{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

/// A composition with `count` nodes of an unknown type.
fn unknown_nodes(count: usize) -> String {
    let node = r#"{"type":"slideBogus"}"#;
    let body = vec![node; count].join(",");
    format!(r#"{{"type":"view","body":[{{"type":"slideFrame","body":[{body}]}}]}}"#)
}

const SLIDE: &str = r#"{"type":"view","title":"Ledger","body":[{"type":"slideFrame","tone":"inverse","body":[{"type":"slideTitle","title":"Ledger"}]}]}"#;

/// The hostile lines; ids run from 100 so they never meet the driver's.
fn cases() -> Vec<Case> {
    let cases = vec![
        // Unparseable text: -32700 with a null id.
        case("not JSON", "not json", parse_error()),
        case("an open brace", "{", parse_error()),
        case(
            "a cut-off request",
            r#"{"jsonrpc":"2.0","id":100,"method":"ping""#,
            parse_error(),
        ),
        case("invalid UTF-8", b"\xff\xfe\xfd".to_vec(), parse_error()),
        case(
            "invalid UTF-8 inside a string",
            b"{\"jsonrpc\":\"2.0\",\"id\":101,\"method\":\"ping\",\"params\":{\"x\":\"\xc3\x28\"}}"
                .to_vec(),
            parse_error(),
        ),
        case(
            "a lone surrogate escape in tool arguments",
            validate_call(102, r#"{"type":"view","title":"\ud800","body":[]}"#),
            invalid_params(102),
        ),
        case(
            "a number too large for a double in tool arguments",
            validate_call(103, r#"{"type":"view","body":[],"n":1e400}"#),
            invalid_params(103),
        ),
        case(
            "a lone surrogate escape outside any request",
            r#"{"x":"\ud800"}"#,
            parse_error(),
        ),
        case(
            "two objects on one line",
            r#"{"jsonrpc":"2.0","id":104,"method":"ping"}{"jsonrpc":"2.0","id":105,"method":"ping"}"#,
            parse_error(),
        ),
        case(
            "a trailing comma",
            r#"{"jsonrpc":"2.0","id":106,}"#,
            parse_error(),
        ),
        case("single quotes", "{'jsonrpc':'2.0'}", parse_error()),
        case("NaN", r#"{"x":NaN}"#, parse_error()),
        case("closing brackets only", "]]]]", parse_error()),
        case("a NUL byte", b"\x00".to_vec(), parse_error()),
        case(
            "a byte order mark after the first line",
            b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":107,\"method\":\"ping\"}".to_vec(),
            parse_error(),
        ),
        case(
            "garbage after a request",
            r#"{"jsonrpc":"2.0","id":108,"method":"ping"}garbage"#,
            parse_error(),
        ),
        case("an unterminated string", "\"abc", parse_error()),
        case(
            "a raw control character in a string",
            "{\"jsonrpc\":\"2.0\",\"id\":109,\"method\":\"ping\",\"params\":{\"x\":\"a\tb\"}}",
            parse_error(),
        ),
        case("a cut-off literal", "tru", parse_error()),
        case(
            "a line one byte over the 1 MiB limit",
            format!("\"{}\"", "x".repeat(1024 * 1024 - 1)),
            parse_error(),
        ),
        case(
            "a 17 MiB line",
            format!("\"{}\"", "x".repeat(17 * 1024 * 1024)),
            parse_error(),
        ),
        // JSON that is no JSON-RPC message: -32600.
        case("an empty array", "[]", invalid_request(Value::Null)),
        case(
            "a batch",
            r#"[{"jsonrpc":"2.0","id":110,"method":"ping"}]"#,
            invalid_request(Value::Null),
        ),
        case("a number", "42", invalid_request(Value::Null)),
        case("a string", r#""ping""#, invalid_request(Value::Null)),
        case("null", "null", invalid_request(Value::Null)),
        case("true", "true", invalid_request(Value::Null)),
        case("an empty object", "{}", invalid_request(Value::Null)),
        case(
            "JSON-RPC 1.0",
            r#"{"jsonrpc":"1.0","id":111,"method":"ping"}"#,
            invalid_request(json!(111)),
        ),
        case(
            "no jsonrpc key",
            r#"{"id":112,"method":"ping"}"#,
            invalid_request(json!(112)),
        ),
        case(
            "a method that is a number",
            r#"{"jsonrpc":"2.0","id":113,"method":5}"#,
            invalid_request(json!(113)),
        ),
        case(
            "an id that is an object",
            r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#,
            invalid_request(Value::Null),
        ),
        case(
            "a line nesting 20,000 levels",
            validate_call(114, &nested(20_000)),
            invalid_request(Value::Null),
        ),
        case(
            "a line of 500,000 open brackets",
            "[".repeat(500_000),
            invalid_request(Value::Null),
        ),
        case(
            "params nesting 100 levels outside tool arguments",
            format!(
                r#"{{"jsonrpc":"2.0","id":115,"method":"ping","params":{{"x":{}0{}}}}}"#,
                "[".repeat(100),
                "]".repeat(100)
            ),
            invalid_request(json!(115)),
        ),
        // Bad params: -32602.
        case(
            "tools/call without params",
            r#"{"jsonrpc":"2.0","id":116,"method":"tools/call"}"#,
            invalid_params(116),
        ),
        case(
            "tools/call with null params",
            tools_call(117, "null"),
            invalid_params(117),
        ),
        case(
            "tools/call with string params",
            tools_call(118, r#""x""#),
            invalid_params(118),
        ),
        case(
            "tools/call with array params",
            tools_call(119, "[]"),
            invalid_params(119),
        ),
        case(
            "a tool name that is a number",
            tools_call(120, r#"{"name":1}"#),
            invalid_params(120),
        ),
        case(
            "a missing tool name",
            tools_call(121, r#"{"arguments":{}}"#),
            invalid_params(121),
        ),
        case(
            "string arguments",
            tools_call(122, r#"{"name":"isomer_validate","arguments":"str"}"#),
            invalid_params(122),
        ),
        case(
            "array arguments",
            tools_call(123, r#"{"name":"isomer_validate","arguments":[]}"#),
            invalid_params(123),
        ),
        case(
            "number arguments",
            tools_call(124, r#"{"name":"isomer_validate","arguments":1}"#),
            invalid_params(124),
        ),
        case(
            "boolean arguments",
            tools_call(125, r#"{"name":"isomer_validate","arguments":true}"#),
            invalid_params(125),
        ),
        case(
            "resources/read without a uri",
            r#"{"jsonrpc":"2.0","id":126,"method":"resources/read","params":{}}"#,
            invalid_params(126),
        ),
        case(
            "a prompt name that is a number",
            r#"{"jsonrpc":"2.0","id":127,"method":"prompts/get","params":{"name":1}}"#,
            invalid_params(127),
        ),
        case(
            "an unknown tool",
            tools_call(128, r#"{"name":"isomer_delete_everything","arguments":{}}"#),
            invalid_params(128),
        ),
        case(
            "an unknown prompt",
            r#"{"jsonrpc":"2.0","id":129,"method":"prompts/get","params":{"name":"nope"}}"#,
            invalid_params(129),
        ),
        case(
            "an unknown method",
            r#"{"jsonrpc":"2.0","id":130,"method":"nope/nope"}"#,
            Expect::Error(-32601, json!(130)),
        ),
        case(
            "an unknown resource",
            r#"{"jsonrpc":"2.0","id":131,"method":"resources/read","params":{"uri":"isomer://nope"}}"#,
            Expect::Error(-32002, json!(131)),
        ),
        // Hostile tool input: answered as tool results the model reads.
        case(
            "a composition nesting 128 levels",
            validate_call(132, &nested(128)),
            Expect::ToolResult {
                id: 132,
                is_error: false,
                contains: "input nests deeper than 64 levels",
            },
        ),
        case(
            "a composition nesting 9,000 levels",
            validate_call(133, &nested(9_000)),
            Expect::ToolResult {
                id: 133,
                is_error: false,
                contains: "input nests deeper than 64 levels",
            },
        ),
        case(
            "9,990 unknown nodes",
            validate_call(134, &unknown_nodes(9_990)),
            Expect::ToolResult {
                id: 134,
                is_error: false,
                contains: "\"and 9890 more errors, not listed: fix the ones above first\"",
            },
        ),
        case(
            "an unknown input key",
            tools_call(
                135,
                &format!(
                    r#"{{"name":"isomer_validate","arguments":{{"composition":{SLIDE},"extra":true}}}}"#
                ),
            ),
            Expect::ToolResult {
                id: 135,
                is_error: true,
                contains: "Additional properties are not allowed ('extra' was unexpected)",
            },
        ),
        case(
            "a format nobody offers",
            tools_call(
                136,
                &format!(
                    r#"{{"name":"isomer_render","arguments":{{"composition":{SLIDE},"format":"gif"}}}}"#
                ),
            ),
            Expect::ToolResult {
                id: 136,
                is_error: true,
                contains: r#""gif" is not one of "text", "markdown", "html", "slack", "png", "svg", "pdf""#,
            },
        ),
        case(
            "thirteen primitive types",
            tools_call(
                137,
                r#"{"name":"isomer_describe_primitives","arguments":{"types":["a","b","c","d","e","f","g","h","i","j","k","l","m"]}}"#,
            ),
            Expect::ToolResult {
                id: 137,
                is_error: true,
                contains: "has more than 12 items",
            },
        ),
        case(
            "an empty view id",
            tools_call(
                138,
                r#"{"name":"isomer_request_view","arguments":{"id":""}}"#,
            ),
            Expect::ToolResult {
                id: 138,
                is_error: true,
                contains: "\"\" is shorter than 1 character",
            },
        ),
        case(
            "markup in a view input",
            tools_call(
                139,
                r#"{"name":"isomer_request_view","arguments":{"id":"title-slide","input":{"title":"<script>alert(1)</script>"}}}"#,
            ),
            Expect::ToolResult {
                id: 139,
                is_error: false,
                contains: "\"valid\": true",
            },
        ),
        case(
            "a composition as JSON text with a null theme",
            tools_call(
                140,
                &format!(
                    r#"{{"name":"isomer_render","arguments":{{"composition":{},"format":"text","theme":null}}}}"#,
                    serde_json::to_string(SLIDE).unwrap()
                ),
            ),
            Expect::ToolResult {
                id: 140,
                is_error: false,
                contains: "Ledger",
            },
        ),
        case(
            "a string id",
            r#"{"jsonrpc":"2.0","id":"x-141","method":"ping"}"#,
            Expect::Result(json!("x-141")),
        ),
        case(
            "a request ending in a carriage return",
            "{\"jsonrpc\":\"2.0\",\"id\":142,\"method\":\"ping\"}\r",
            Expect::Result(json!(142)),
        ),
        // Lines that need no answer.
        case(
            "an unknown notification",
            r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#,
            Expect::Nothing,
        ),
        case(
            "a cancellation of nothing",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9999}}"#,
            Expect::Nothing,
        ),
        case(
            "a response nobody asked for",
            r#"{"jsonrpc":"2.0","id":143,"result":{}}"#,
            Expect::Nothing,
        ),
        case(
            "an error response nobody asked for",
            r#"{"jsonrpc":"2.0","id":144,"error":{"code":1,"message":"x"}}"#,
            Expect::Nothing,
        ),
        case("a blank line", "", Expect::Nothing),
        case("a line of spaces", "   \t ", Expect::Nothing),
    ];
    cases
}

/// A running server with a thread reading its stdout lines.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_isomer-mcp-server"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server binary starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Server {
            child,
            stdin,
            lines,
        }
    }

    /// A server past `initialize` and `notifications/initialized`.
    fn initialized() -> Server {
        let mut server = Server::start();
        server.send(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}}"#);
        let answer = server.next("initialize");
        assert_eq!(answer["id"], 0, "{answer}");
        assert!(answer.get("result").is_some(), "{answer}");
        server.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn next(&self, waiting_for: &str) -> Value {
        match self.lines.recv_timeout(STEP) {
            Ok(line) => serde_json::from_str(&line)
                .unwrap_or_else(|error| panic!("not JSON ({error}): {line:.300}")),
            Err(RecvTimeoutError::Timeout) => panic!("no answer within {STEP:?}: {waiting_for}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server ended: {waiting_for}"),
        }
    }

    /// Sends `ping` with `id` and answers every message read until its
    /// answer (left out: the server is alive) and an answer for each of
    /// `awaited` (ids, `null` for an unparseable line) have come. Answers
    /// come in no set order (requests are answered concurrently); an answer
    /// a line should not have had shows up here or, at the end, in
    /// [`Server::close`].
    fn ping(&mut self, id: i64, awaited: &[Value]) -> Vec<Value> {
        self.send(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#).as_bytes());
        let mut answers = Vec::new();
        let mut pinged = false;
        let missing = |answers: &[Value]| {
            awaited.iter().any(|id| {
                let wanted = awaited.iter().filter(|other| *other == id).count();
                answers.iter().filter(|answer| answer["id"] == *id).count() < wanted
            })
        };
        while !pinged || missing(&answers) {
            let answer = self.next(&format!("ping {id} and answers to {awaited:?}"));
            if answer["id"] == id && answer.get("result") == Some(&json!({})) {
                pinged = true;
            } else {
                answers.push(answer);
            }
        }
        answers
    }

    /// Peak resident memory so far, in bytes (Linux's `VmHWM`).
    fn peak_memory(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc is readable");
        let kilobytes: u64 = status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM is listed");
        kilobytes * 1024
    }

    /// Closes stdin and answers the exit status and what stdout still
    /// carried.
    fn close(mut self) -> (Option<i32>, Vec<String>) {
        drop(self.stdin.take());
        let deadline = Instant::now() + STEP;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                self.child.kill().unwrap();
                panic!("the server did not exit within {STEP:?} after stdin closed");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        (status.code(), self.lines.try_iter().collect())
    }
}

/// The id `expect` wants an answer under (`null` for a parse error).
fn awaited_id(expect: &Expect) -> Option<Value> {
    match expect {
        Expect::Error(_, id) | Expect::Result(id) => Some(id.clone()),
        Expect::ToolResult { id, .. } => Some(json!(id)),
        Expect::Nothing => None,
    }
}

/// Whether `answers` hold exactly what `expect` asks for; `Err` says what
/// is wrong.
fn check(expect: &Expect, answers: &[Value]) -> Result<(), String> {
    let one = |answers: &[Value]| match answers {
        [answer] => Ok(answer.clone()),
        other => Err(format!("expected one answer, got {other:?}")),
    };
    match expect {
        Expect::Nothing => match answers {
            [] => Ok(()),
            other => Err(format!("expected no answer, got {other:?}")),
        },
        Expect::Error(code, id) => {
            let answer = one(answers)?;
            let message = answer["error"]["message"].as_str().unwrap_or_default();
            (answer["error"]["code"] == *code && answer["id"] == *id && !message.is_empty())
                .then_some(())
                .ok_or(format!("expected error {code} for {id}, got {answer:.500}"))
        }
        Expect::Result(id) => {
            let answer = one(answers)?;
            (answer["id"] == *id && answer.get("result").is_some())
                .then_some(())
                .ok_or(format!("expected a result for {id}, got {answer:.500}"))
        }
        Expect::ToolResult {
            id,
            is_error,
            contains,
        } => {
            let answer = one(answers)?;
            let result = &answer["result"];
            let text = result["content"][0]["text"].as_str().unwrap_or_default();
            let failed = result["isError"] == true;
            let size = answer.to_string().len();
            // A capped answer stays small whatever the input: at most 100 findings, each
            // at most one unknown-type message listing the 40 slides types (about 560
            // bytes), written twice (the text block and `structuredContent`): under
            // ANSWER_CEILING bytes, where the uncapped 9,990 findings were megabytes.
            (answer["id"] == *id
                && failed == *is_error
                && text.contains(contains)
                && size < ANSWER_CEILING)
                .then_some(())
                .ok_or(format!(
                    "expected a tool result for {id} (failed: {is_error}) containing {contains:?}, \
                     got {size} bytes: {answer:.800}"
                ))
        }
    }
}

#[test]
fn there_are_sixty_eight_hostile_lines() {
    assert_eq!(cases().len(), 68);
}

#[test]
fn each_hostile_line_alone_is_answered_and_leaves_the_server_alive() {
    let mut wrong = Vec::new();
    let mut highest = 0;
    for (index, case) in cases().into_iter().enumerate() {
        let mut server = Server::initialized();
        server.send(&case.line);
        let awaited: Vec<Value> = awaited_id(&case.expect).into_iter().collect();
        let answers = server.ping(10_000 + index as i64, &awaited);
        if let Err(problem) = check(&case.expect, &answers) {
            wrong.push(format!("{}: {problem}", case.name));
        }
        let peak = server.peak_memory();
        highest = highest.max(peak);
        if peak >= MEMORY_CEILING {
            wrong.push(format!("{}: peak memory {peak} bytes", case.name));
        }
        let (status, rest) = server.close();
        if status != Some(0) || !rest.is_empty() {
            wrong.push(format!("{}: exit {status:?}, then {rest:?}", case.name));
        }
    }
    eprintln!("highest peak resident memory of one server: {highest} bytes");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn hostile_lines_interleaved_with_good_requests_are_each_answered() {
    let mut server = Server::initialized();
    let mut wrong = Vec::new();
    for (index, case) in cases().into_iter().enumerate() {
        let good = 20_000 + index as i64;
        server.send(validate_call(good, SLIDE).as_bytes());
        server.send(&case.line);
        let awaited: Vec<Value> = std::iter::once(json!(good))
            .chain(awaited_id(&case.expect))
            .collect();
        let answers = server.ping(30_000 + index as i64, &awaited);
        let (good_answers, rest): (Vec<Value>, Vec<Value>) =
            answers.into_iter().partition(|answer| answer["id"] == good);
        let expected_good = Expect::ToolResult {
            id: good,
            is_error: false,
            contains: "\"valid\": true",
        };
        for problem in [
            check(&expected_good, &good_answers).err(),
            check(&case.expect, &rest).err(),
        ]
        .into_iter()
        .flatten()
        {
            wrong.push(format!("{}: {problem}", case.name));
        }
    }
    let peak = server.peak_memory();
    eprintln!("peak resident memory after every hostile line: {peak} bytes");
    let (status, rest) = server.close();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(peak < MEMORY_CEILING, "peak memory {peak} bytes");
    assert_eq!((status, rest), (Some(0), Vec::<String>::new()));
}

#[test]
fn before_initialize_notifications_and_responses_are_ignored_and_requests_answered() {
    let mut server = Server::start();
    server.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    server
        .send(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#);
    server.send(br#"{"jsonrpc":"2.0","id":5,"result":{}}"#);
    server.send(b"not json");
    server.send(br#"{"jsonrpc":"2.0","id":6,"method":"tools/list"}"#);
    let mut answers: Vec<(Value, Value)> = server
        .ping(7, &[Value::Null, json!(6)])
        .iter()
        .map(|answer| (answer["id"].clone(), answer["error"]["code"].clone()))
        .collect();
    answers.sort_by_key(|(id, _)| id.to_string());
    assert_eq!(
        answers,
        [(json!(6), json!(-32602)), (Value::Null, json!(-32700))]
    );
    let server = {
        let mut server = server;
        server.send(br#"{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"late","version":"1"}}}"#);
        assert!(server.next("initialize").get("result").is_some());
        server.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server.send(br#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#);
        let listed = server.next("tools/list");
        assert_eq!(listed["result"]["tools"].as_array().map(Vec::len), Some(6));
        server
    };
    assert_eq!(server.close(), (Some(0), Vec::new()));
}

#[test]
fn a_last_request_without_a_newline_is_answered_before_a_clean_exit() {
    let mut server = Server::initialized();
    let stdin = server.stdin.as_mut().unwrap();
    stdin
        .write_all(validate_call(50, SLIDE).as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    let (status, rest) = server.close();
    assert_eq!(status, Some(0));
    let [answer] = rest.as_slice() else {
        panic!("expected one answer, got {rest:?}");
    };
    let answer: Value = serde_json::from_str(answer).unwrap();
    assert_eq!(answer["id"], 50);
    assert!(
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("\"valid\": true")
    );
}

#[test]
fn a_closed_stdout_ends_the_server_with_a_failure_on_stderr() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_isomer-mcp-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    // The client stops reading: the server's next write fails.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"gone","version":"1"}}}"#)
        .unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + STEP;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the server kept running with stdout closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.ends_with(
            "isomer-mcp-server: writing to stdout failed (Broken pipe (os error 32)); the client is gone\n"
        ),
        "{stderr}"
    );
}

#[test]
fn a_byte_order_mark_before_the_first_request_is_skipped() {
    let mut server = Server::start();
    server.send(b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
    assert_eq!(
        server.next("ping after a byte order mark"),
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );
    assert_eq!(server.close(), (Some(0), Vec::new()));
}

#[test]
fn values_serde_json_refuses_are_answered_under_the_request_id() {
    let mut server = Server::initialized();
    server.send(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"isomer_validate","arguments":{"composition":{"type":"view","title":"\ud83d","body":[]}}}}"#,
    );
    assert_eq!(
        server.next("a lone surrogate escape"),
        json!({
            "jsonrpc": "2.0",
            "id": 1,
            "error": {
                "code": -32602,
                "message": "invalid params: the params of tools/call hold a value that cannot be read: unexpected end of hex escape at line 1 column 139"
            }
        })
    );
    server.send(
        br#"{"jsonrpc":"2.0","id":"n","method":"tools/call","params":{"name":"isomer_validate","arguments":{"composition":{"type":"view","body":[]},"n":1e400}}}"#,
    );
    assert_eq!(
        server.next("1e400"),
        json!({
            "jsonrpc": "2.0",
            "id": "n",
            "error": {
                "code": -32602,
                "message": "invalid params: the params of tools/call hold a value that cannot be read: number out of range at line 1 column 145"
            }
        })
    );
    assert_eq!(server.close(), (Some(0), Vec::new()));
}

#[test]
fn a_duplicate_id_in_flight_is_refused_and_the_first_request_answered() {
    let mut server = Server::initialized();
    // Both lines in one write: the second is read while the render (tens of
    // milliseconds at least) is still running.
    let render = tools_call(
        7,
        &format!(
            r#"{{"name":"isomer_render","arguments":{{"composition":{SLIDE},"format":"png"}}}}"#
        ),
    );
    let duplicate = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;
    server.send(format!("{render}\n{duplicate}").as_bytes());
    let mut answers = [server.next("7"), server.next("7 again")];
    answers.sort_by_key(|answer| answer.get("error").is_none());
    assert_eq!(
        answers[0],
        json!({
            "jsonrpc": "2.0",
            "id": 7,
            "error": {
                "code": -32600,
                "message": "invalid request: id 7 is already in flight (the request read earlier with this id is not answered yet); use a new id for each request"
            }
        })
    );
    assert_eq!(answers[1]["id"], 7);
    assert_eq!(
        answers[1]["result"]["content"][0]["mimeType"], "image/png",
        "{:.300}",
        answers[1]
    );
    // Answered: the id may be used again.
    server.send(duplicate.as_bytes());
    assert_eq!(
        server.next("7 once more"),
        json!({"jsonrpc": "2.0", "id": 7, "result": {}})
    );
    assert_eq!(server.close(), (Some(0), Vec::new()));
}

/// The resident memory of process `pid` now, in bytes (Linux's `VmRSS`).
fn resident_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc is readable");
    let kilobytes: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS is listed");
    kilobytes * 1024
}

/// A server whose stdout the test reads only when it chooses, past
/// `initialize`.
fn unread_server() -> (Child, ChildStdin, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_isomer-mcp-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"unread\",\"version\":\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("\"result\""), "{line}");
    (child, stdin, stdout)
}

#[test]
fn a_client_that_reads_no_answer_stops_the_reading_not_the_memory() {
    const REQUESTS: usize = 30_000;
    let (mut child, mut stdin, stdout) = unread_server();
    let sent = Arc::new(AtomicUsize::new(0));
    let writer = {
        let sent = Arc::clone(&sent);
        std::thread::spawn(move || {
            for id in 1..=REQUESTS {
                let line = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n");
                if stdin.write_all(line.as_bytes()).is_err() {
                    break;
                }
                sent.fetch_add(1, Ordering::SeqCst);
            }
            stdin
        })
    };
    // Wait until the writer is stuck: no line written for two seconds.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut last = (usize::MAX, Instant::now());
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(250));
        let now = sent.load(Ordering::SeqCst);
        if now == REQUESTS {
            break;
        }
        if now != last.0 {
            last = (now, Instant::now());
        } else if last.1.elapsed() > Duration::from_secs(2) {
            break;
        }
    }
    let stalled_at = sent.load(Ordering::SeqCst);
    let resident = resident_memory(child.id());
    eprintln!(
        "unread answers: the client could write {stalled_at} of {REQUESTS} requests; server resident memory {resident} bytes"
    );
    // The pipes hold about 1,600 requests and 1,800 answers, and the server
    // 64 more: nowhere near all of them.
    assert!(
        stalled_at < 10_000,
        "the server read {stalled_at} requests nobody read the answers to"
    );
    assert!(
        resident < MEMORY_CEILING,
        "resident memory {resident} bytes"
    );
    // Reading now gets every answer, each once.
    let mut seen = vec![false; REQUESTS + 1];
    let mut lines = stdout.lines();
    for _ in 0..REQUESTS {
        let line = lines.next().expect("an answer").expect("a line");
        let answer: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(answer["result"], json!({}), "{line}");
        let id = answer["id"].as_u64().unwrap() as usize;
        assert!(!seen[id], "answered twice: {id}");
        seen[id] = true;
    }
    drop(writer.join().unwrap());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_closed_stdout_ends_the_server_promptly_while_stdin_stays_open() {
    let (mut child, mut stdin, stdout) = unread_server();
    // The client stops reading, and keeps stdin open without a word.
    drop(stdout);
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n")
        .unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + STEP;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the server kept running with stdout closed and stdin open");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.ends_with(
            "isomer-mcp-server: writing to stdout failed (Broken pipe (os error 32)); the client is gone\n"
        ),
        "{stderr}"
    );
}
