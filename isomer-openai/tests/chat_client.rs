//! The client against a loopback server replaying recorded exchanges: a rate limit then
//! an answer, an error status, retries running out, a judge's verdict, an agent turn with
//! tool calls, and the token usage of each.

mod support;

use std::sync::Arc;
use std::time::Duration;

use isomer_evals::agent::{
    AgentMessage, AgentStepRequest, AgentToolCall, AgentToolSpec, AgentUsage,
};
use isomer_evals::{AnswerabilityVerdict, EvalCase, GenerateRequest, JudgeRequest};
use isomer_openai::{ChatClient, ChatError, Usage};
use serde_json::json;
use support::{Exchange, Loopback, Response, completion};

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
        ..Response::default()
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
                ..Response::default()
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
            ..Response::default()
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
