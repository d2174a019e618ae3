//! The client against a loopback server replaying recorded exchanges: a rate limit then
//! an answer, an error status, retries running out, a judge's verdict, an agent turn with
//! tool calls, and the token usage of each; the waits a server asks for (milliseconds,
//! seconds, an HTTP date) and their cap; a cut body, JSON ending early, a hang, the call's
//! deadline and a caller that stops waiting, each with the requests the server saw; and
//! every 200 that is not an answer (tool calls, a refusal, a cut or filtered answer, empty
//! text, no choice), through `generate`, `judge` and `step`.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use isomer_evals::agent::{
    AgentMessage, AgentStepRequest, AgentToolCall, AgentToolSpec, AgentUsage,
};
use isomer_evals::{AnswerabilityVerdict, EvalCase, GenerateRequest, JudgeRequest};
use isomer_openai::{ChatClient, ChatError, Unanswered, Usage};
use serde_json::{Value, json};
use support::{Exchange, Loopback, Response, completion, cut, delayed, raw};

fn client(server: &Loopback) -> ChatClient {
    ChatClient::new(&server.base_url, "test-model", "sk-test")
        .temperature(0.0)
        .backoff(Duration::from_millis(10))
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    futures::executor::block_on(future)
}

fn error(status: u16, message: &str) -> Response {
    Response {
        status,
        headers: Vec::new(),
        body: json!({"error": {"message": message, "type": "invalid_request_error"}}),
    }
}

#[test]
fn generate_waits_out_a_rate_limit_and_returns_the_answer_as_sent() {
    let server = Loopback::start(vec![Exchange {
        contains: vec!["## Request\n\nHow many?".to_owned()],
        messages: None,
        responses: vec![
            Response {
                status: 429,
                headers: vec![("Retry-After".to_owned(), "0".to_owned())],
                body: json!({"error": {"message": "Rate limit reached"}}),
            },
            completion("```json\n{\"type\":\"view\",\"body\":[]}\n```", 120, 9),
        ],
    }]);
    let client = client(&server);
    let request = GenerateRequest {
        eval_case: Arc::new(EvalCase::new("count", "How many?")),
        prompt: isomer_evals::Prompt::new("PROMPT"),
        attempt: 1,
        previous_errors: Some(vec!["body is required".to_owned(), "x".to_owned()]),
        repeat: 0,
        usage: isomer_evals::UsageMeter::default(),
    };
    let usage = request.usage.clone();
    let answer = block_on(client.generate().call(request)).unwrap();
    // The call's tokens reach the request's meter, for a live run's report.
    assert_eq!(
        usage.total(),
        isomer_evals::agent::AgentUsage {
            input_tokens: 120,
            output_tokens: 9
        }
    );
    assert_eq!(answer, "```json\n{\"type\":\"view\",\"body\":[]}\n```");
    let expected = json!({
        "model": "test-model",
        "messages": [{
            "role": "user",
            "content": "PROMPT\n\n## Request\n\nHow many?\n\n## Previous errors\n\nbody is required\nx",
        }],
        "temperature": 0.0,
    });
    assert_eq!(server.requests(), [expected.clone(), expected]);
    assert_eq!(
        client.usage(),
        Usage {
            input_tokens: 120,
            output_tokens: 9
        }
    );
}

#[test]
fn an_error_status_fails_at_once_naming_the_status_and_the_body() {
    let server = Loopback::start(vec![Exchange {
        contains: vec![String::new()],
        messages: None,
        responses: vec![error(400, "Unknown model")],
    }]);
    let error = client(&server)
        .complete_blocking(vec![json!({"role": "user", "content": "hi"})], &[])
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "POST {}/chat/completions answered HTTP 400 after 1 attempt(s): {{\"error\":{{\"message\":\"Unknown model\",\"type\":\"invalid_request_error\"}}}}",
            server.base_url
        )
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn server_errors_are_retried_until_the_retries_run_out() {
    let server = Loopback::start(vec![Exchange {
        contains: vec![String::new()],
        messages: None,
        responses: vec![error(503, "overloaded")],
    }]);
    let error = client(&server)
        .retries(2)
        .complete_blocking(vec![json!({"role": "user", "content": "hi"})], &[])
        .unwrap_err();
    assert!(
        matches!(
            error,
            ChatError::Status {
                status: 503,
                attempts: 3,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn an_unreachable_server_is_a_transport_error() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let client = ChatClient::new(format!("http://127.0.0.1:{port}/v1"), "m", "")
        .retries(1)
        .backoff(Duration::from_millis(1));
    let error = client
        .complete_blocking(vec![json!({"role": "user", "content": "hi"})], &[])
        .unwrap_err();
    assert!(matches!(error, ChatError::Transport { .. }), "{error}");
}

#[test]
fn judge_sends_the_request_and_rendering_and_reads_the_verdict() {
    let server = Loopback::start(vec![
        Exchange {
            contains: vec!["## Answer\n\nOPEN 12".to_owned()],
            messages: None,
            responses: vec![completion("Partial. The trend is missing.", 40, 2)],
        },
        Exchange {
            contains: vec!["## Answer\n\nNOTHING".to_owned()],
            messages: None,
            responses: vec![completion("I cannot tell.", 40, 4)],
        },
    ]);
    let client = client(&server);
    let judge = client.judge();
    let ask = |rendered: &str| {
        block_on(judge.call(JudgeRequest {
            eval_case: Arc::new(EvalCase::new("count", "How many are open?")),
            rendered: rendered.to_owned(),
            repeat: 0,
            usage: isomer_evals::UsageMeter::default(),
        }))
    };
    assert_eq!(ask("OPEN 12").unwrap(), AnswerabilityVerdict::Partial);
    assert_eq!(
        ask("NOTHING").unwrap_err().to_string(),
        "the judge answered \"I cannot tell.\", not yes, partial or no"
    );
    assert_eq!(
        server.requests()[0]["messages"],
        json!([
            {"role": "system", "content": isomer_openai::JUDGE_SYSTEM},
            {"role": "user", "content": "## Request\n\nHow many are open?\n\n## Answer\n\nOPEN 12"},
        ])
    );
    assert_eq!(client.usage().output_tokens, 6);
}

#[test]
fn step_offers_the_tools_and_reads_tool_calls_and_usage() {
    let server = Loopback::start(vec![Exchange {
        contains: vec!["Show the queue.".to_owned()],
        messages: None,
        responses: vec![Response {
            status: 200,
            headers: Vec::new(),
            body: json!({
                "choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "isomer_describe", "arguments": "{\"types\":[\"slideStats\"]}"}}
                ]}}],
                "usage": {"prompt_tokens": 900, "completion_tokens": 21},
            }),
        }],
    }]);
    let request = AgentStepRequest {
        system: Arc::from("You write compositions."),
        tools: Arc::from(vec![AgentToolSpec {
            name: "isomer_describe".to_owned(),
            description: "Describes primitives.".to_owned(),
            parameters: json!({"type": "object", "properties": {"types": {"type": "array"}}}),
        }]),
        messages: vec![AgentMessage::User {
            content: "Show the queue.".to_owned(),
        }],
        eval_case: Arc::new(EvalCase::new("queue", "Show the queue.")),
        repeat: 0,
        turn: 0,
    };
    let turn = block_on(client(&server).step().call(request)).unwrap();
    assert_eq!(turn.text, "");
    assert_eq!(
        turn.tool_calls,
        [AgentToolCall {
            id: "call_1".to_owned(),
            name: "isomer_describe".to_owned(),
            input: json!({"types": ["slideStats"]}),
        }]
    );
    assert_eq!(
        turn.usage,
        AgentUsage {
            input_tokens: 900,
            output_tokens: 21
        }
    );
    assert_eq!(
        server.requests()[0]["tools"],
        json!([{"type": "function", "function": {
            "name": "isomer_describe",
            "description": "Describes primitives.",
            "parameters": {"type": "object", "properties": {"types": {"type": "array"}}},
        }}])
    );
}

/// A server answering every request with `responses`, in order (the last one again once
/// they are used up).
fn answering(responses: Vec<Response>) -> Loopback {
    Loopback::start(vec![Exchange {
        contains: vec![String::new()],
        messages: None,
        responses,
    }])
}

fn hi() -> Vec<Value> {
    vec![json!({"role": "user", "content": "hi"})]
}

fn rate_limit(headers: &[(&str, &str)]) -> Response {
    Response {
        status: 429,
        headers: headers
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect(),
        body: json!({"error": {"message": "Rate limit reached"}}),
    }
}

/// Asserts `gap` lies in `[least, most)`.
fn assert_between(gap: Duration, least: Duration, most: Duration) {
    assert!(
        least <= gap && gap < most,
        "{gap:?} is not in [{least:?}, {most:?})"
    );
}

#[test]
fn retry_after_ms_is_waited_out_before_the_backoff() {
    let server = answering(vec![
        rate_limit(&[("retry-after-ms", "300"), ("Retry-After", "30")]),
        completion("fine", 5, 1),
    ]);
    let answer = client(&server).complete_blocking(hi(), &[]).unwrap();
    assert_eq!(answer.text, "fine");
    assert_eq!(server.requests().len(), 2);
    // Not the 10 ms backoff, not the 30 s of `Retry-After`.
    assert_between(
        server.gaps()[0],
        Duration::from_millis(300),
        Duration::from_millis(1500),
    );
}

#[test]
fn retry_after_in_seconds_is_waited_out() {
    let server = answering(vec![
        rate_limit(&[("Retry-After", "1")]),
        completion("fine", 5, 1),
    ]);
    client(&server).complete_blocking(hi(), &[]).unwrap();
    assert_eq!(server.requests().len(), 2);
    assert_between(
        server.gaps()[0],
        Duration::from_secs(1),
        Duration::from_millis(2200),
    );
}

#[test]
fn retry_after_as_an_http_date_is_waited_out() {
    // Two seconds ahead, at the date's one-second resolution: a wait of one to two seconds.
    let date = chrono::DateTime::<chrono::Utc>::from(SystemTime::now() + Duration::from_secs(2))
        .format("%a, %d %b %Y %H:%M:%S GMT")
        .to_string();
    let server = answering(vec![
        Response {
            status: 503,
            headers: vec![("Retry-After".to_owned(), date)],
            body: json!({"error": {"message": "overloaded"}}),
        },
        completion("fine", 5, 1),
    ]);
    client(&server).complete_blocking(hi(), &[]).unwrap();
    assert_eq!(server.requests().len(), 2);
    assert_between(
        server.gaps()[0],
        Duration::from_millis(900),
        Duration::from_millis(3200),
    );
}

#[test]
fn the_wait_a_server_asks_is_capped() {
    let server = answering(vec![
        rate_limit(&[("Retry-After", "3600")]),
        completion("fine", 5, 1),
    ]);
    client(&server)
        .max_wait(Duration::from_millis(200))
        .complete_blocking(hi(), &[])
        .unwrap();
    assert_eq!(server.requests().len(), 2);
    assert_between(
        server.gaps()[0],
        Duration::from_millis(200),
        Duration::from_millis(1500),
    );
}

#[test]
fn a_wait_ending_past_the_deadline_is_not_made() {
    let server = answering(vec![rate_limit(&[("Retry-After", "20")])]);
    let started = Instant::now();
    let error = client(&server)
        .deadline(Duration::from_secs(5))
        .complete_blocking(hi(), &[])
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "the client waited"
    );
    assert_eq!(
        error.to_string(),
        format!(
            "POST {}/chat/completions gave up after 1 attempt(s): the call's deadline of 5s leaves no time for another; the last attempt: HTTP 429: {{\"error\":{{\"message\":\"Rate limit reached\"}}}}",
            server.base_url
        )
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_body_cut_mid_way_is_retried_once() {
    let server = answering(vec![
        cut(completion("a long answer", 5, 3), 40),
        completion("a long answer", 5, 3),
    ]);
    let client = client(&server);
    let answer = client.complete_blocking(hi(), &[]).unwrap();
    assert_eq!(answer.text, "a long answer");
    assert_eq!(server.requests().len(), 2);
    assert_eq!(client.usage().output_tokens, 3);
}

#[test]
fn a_body_cut_twice_fails_naming_the_cut() {
    let server = answering(vec![cut(completion("a long answer", 5, 3), 40)]);
    let error = client(&server).complete_blocking(hi(), &[]).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "POST {}/chat/completions answered 200 with a body cut short after 2 attempt(s): the connection ended mid-body (io: Peer disconnected)",
            server.base_url
        )
    );
    // Once, whatever the retries: the default 3 would make 4 requests.
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn json_ending_early_is_retried_once() {
    let server = answering(vec![
        raw(
            200,
            r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"a lo"#,
        ),
        completion("a long answer", 5, 3),
    ]);
    let answer = client(&server).complete_blocking(hi(), &[]).unwrap();
    assert_eq!(answer.text, "a long answer");
    assert_eq!(server.requests().len(), 2);

    let server = answering(vec![raw(200, r#"{"choices":[{"index":0,"message""#)]);
    let error = client(&server).complete_blocking(hi(), &[]).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "POST {}/chat/completions answered 200 with a body cut short after 2 attempt(s): the JSON ends early (EOF while parsing an object at line 1 column 32)",
            server.base_url
        )
    );
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_body_that_is_not_json_is_not_retried() {
    let server = answering(vec![raw(200, "<html>Bad gateway</html>")]);
    let error = client(&server).complete_blocking(hi(), &[]).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "POST {}/chat/completions answered with no usable completion: the body is not JSON (expected value at line 1 column 1)",
            server.base_url
        )
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_hung_exchange_is_retried_within_the_deadline() {
    let server = answering(vec![
        delayed(completion("late", 5, 1), 3000),
        completion("fine", 5, 1),
    ]);
    let started = Instant::now();
    let answer = client(&server)
        .timeout(Duration::from_millis(300))
        .complete_blocking(hi(), &[])
        .unwrap();
    assert_eq!(answer.text, "fine");
    assert_between(
        started.elapsed(),
        Duration::from_millis(300),
        Duration::from_millis(2000),
    );
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn hung_exchanges_fail_at_the_retries_or_the_deadline() {
    let server = answering(vec![delayed(completion("late", 5, 1), 5000)]);
    let error = client(&server)
        .timeout(Duration::from_millis(200))
        .retries(1)
        .complete_blocking(hi(), &[])
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "POST {}/chat/completions failed after 2 attempt(s): no answer within 200ms",
            server.base_url
        )
    );
    assert_eq!(server.requests().len(), 2);

    // 300 ms, 10 ms, 300 ms, 20 ms, then the 270 ms left: the deadline cuts the third.
    let server = answering(vec![delayed(completion("late", 5, 1), 5000)]);
    let started = Instant::now();
    let error = client(&server)
        .timeout(Duration::from_millis(300))
        .deadline(Duration::from_millis(900))
        .retries(5)
        .complete_blocking(hi(), &[])
        .unwrap_err();
    assert_between(
        started.elapsed(),
        Duration::from_millis(900),
        Duration::from_millis(1500),
    );
    assert_eq!(
        error.to_string(),
        format!(
            "POST {}/chat/completions gave up after 3 attempt(s): the call's deadline of 900ms leaves no time for another; the last attempt: no answer before the call's deadline",
            server.base_url
        )
    );
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn a_caller_that_stops_waiting_stops_the_retries() {
    let server = answering(vec![delayed(completion("late", 5, 1), 5000)]);
    let client = client(&server)
        .timeout(Duration::from_millis(200))
        .retries(5);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    // A trial's timeout: the future is dropped mid-exchange.
    let waited = runtime.block_on(async {
        tokio::time::timeout(
            Duration::from_millis(100),
            client.complete(hi(), Vec::new()),
        )
        .await
    });
    assert!(waited.is_err());
    // Uncancelled, the call would have made five more attempts by now.
    std::thread::sleep(Duration::from_millis(1200));
    assert_eq!(server.requests().len(), 1);
}

/// A 200 answer with `message` and `finish_reason`.
fn answer(message: Value, finish_reason: &str) -> Response {
    Response {
        status: 200,
        headers: Vec::new(),
        body: json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 30, "completion_tokens": 7, "total_tokens": 37},
        }),
    }
}

fn generate_request() -> GenerateRequest {
    GenerateRequest {
        eval_case: Arc::new(EvalCase::new("count", "How many?")),
        prompt: isomer_evals::Prompt::new("PROMPT"),
        attempt: 0,
        previous_errors: None,
        repeat: 0,
        usage: isomer_evals::UsageMeter::default(),
    }
}

#[test]
fn generate_takes_only_text_as_an_answer() {
    let tool_call = json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]});
    let cases = [
        (
            answer(tool_call, "tool_calls"),
            "the model called tools (lookup) where only text answers (finish_reason \"tool_calls\")",
        ),
        (
            answer(
                json!({"role": "assistant", "content": null, "refusal": "I can't help with that."}),
                "stop",
            ),
            "the model refused: \"I can't help with that.\" (finish_reason \"stop\")",
        ),
        (
            answer(
                json!({"role": "assistant", "content": "{\"type\":\"view\",\"bo"}),
                "length",
            ),
            "the answer was cut at the token limit (finish_reason \"length\")",
        ),
        (
            answer(
                json!({"role": "assistant", "content": null}),
                "content_filter",
            ),
            "the provider's content filter withheld it (finish_reason \"content_filter\")",
        ),
        (
            answer(json!({"role": "assistant", "content": "  "}), "stop"),
            "the answer is empty (finish_reason \"stop\")",
        ),
        (
            Response {
                status: 200,
                headers: Vec::new(),
                body: json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 0}}),
            },
            "`choices` is empty (finish_reason none)",
        ),
    ];
    for (response, reason) in cases {
        let server = answering(vec![response]);
        let client = client(&server);
        let request = generate_request();
        let meter = request.usage.clone();
        let error = block_on(client.generate().call(request)).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "POST {}/chat/completions gave no answer: {reason}",
                server.base_url
            )
        );
        // Asked once: a non-answer is not retried.
        assert_eq!(server.requests().len(), 1, "{reason}");
        // The run's meter counts answers; the client counts what the server spent.
        assert_eq!(meter.total(), AgentUsage::default(), "{reason}");
        assert_eq!(client.usage().input_tokens, 30, "{reason}");
    }
}

#[test]
fn judge_takes_only_text_as_a_verdict() {
    let server = answering(vec![answer(
        json!({"role": "assistant", "content": null, "refusal": "I won't grade this."}),
        "stop",
    )]);
    let error = block_on(client(&server).judge().call(JudgeRequest {
        eval_case: Arc::new(EvalCase::new("count", "How many are open?")),
        rendered: "OPEN 12".to_owned(),
        repeat: 0,
        usage: isomer_evals::UsageMeter::default(),
    }))
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "POST {}/chat/completions gave no answer: the model refused: \"I won't grade this.\" (finish_reason \"stop\")",
            server.base_url
        )
    );
}

#[test]
fn step_takes_text_or_tool_calls_but_not_a_cut_or_empty_turn() {
    let request = || AgentStepRequest {
        system: Arc::from("You write compositions."),
        tools: Arc::from(vec![AgentToolSpec {
            name: "isomer_validate".to_owned(),
            description: "Validates a composition.".to_owned(),
            parameters: json!({"type": "object"}),
        }]),
        messages: vec![AgentMessage::User {
            content: "Show the queue.".to_owned(),
        }],
        eval_case: Arc::new(EvalCase::new("queue", "Show the queue.")),
        repeat: 0,
        turn: 0,
    };
    // Ollama's shape of a tool turn: `content: ""`.
    let server = answering(vec![answer(
        json!({"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_9", "function": {"name": "isomer_validate", "arguments": "{\"view\":{}}"}}]}),
        "tool_calls",
    )]);
    let turn = block_on(client(&server).step().call(request())).unwrap();
    assert_eq!(
        turn.tool_calls,
        [AgentToolCall {
            id: "call_9".to_owned(),
            name: "isomer_validate".to_owned(),
            input: json!({"view": {}}),
        }]
    );
    for (response, reason) in [
        (
            answer(
                json!({"role": "assistant", "content": null, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "isomer_validate", "arguments": "{\"view\":{\"ty"}}]}),
                "length",
            ),
            "the answer was cut at the token limit (finish_reason \"length\")",
        ),
        (
            answer(
                json!({"role": "assistant", "content": "", "reasoning_content": "I should validate."}),
                "stop",
            ),
            "the answer is empty (the model wrote only reasoning: 18 characters in `reasoning_content`) (finish_reason \"stop\")",
        ),
    ] {
        let server = answering(vec![response]);
        let error = block_on(client(&server).step().call(request())).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "POST {}/chat/completions gave no answer: {reason}",
                server.base_url
            )
        );
    }
}

#[test]
fn a_non_answer_carries_its_reason_finish_and_text() {
    let server = answering(vec![answer(
        json!({"role": "assistant", "content": "{\"type\":"}),
        "length",
    )]);
    let error = client(&server).complete_blocking(hi(), &[]).unwrap_err();
    assert_eq!(
        error,
        ChatError::Unanswered {
            url: format!("{}/chat/completions", server.base_url),
            reason: Unanswered::Length,
            finish_reason: Some("length".to_owned()),
            text: "{\"type\":".to_owned(),
            usage: Usage {
                input_tokens: 30,
                output_tokens: 7
            },
        }
    );
}
