//! Serves the built `isomer-mcp-server` over Streamable HTTP
//! (`--http 127.0.0.1:0`) and drives it with rmcp's own streamable HTTP
//! client: initialize, list and call the tools, read a resource, get the
//! prompt. Then the guards a local server needs, with raw HTTP/1.1: a
//! foreign `Host` or any `Origin` is refused with 403, another path is 404.
//! Every await has a timeout, so a server that hangs fails the test.

mod support;

use std::future::Future;
use std::time::Duration;

use rmcp::ServiceExt as _;
use rmcp::model::{CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use support::HttpServer;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// How long any one step may take.
const STEP: Duration = Duration::from_secs(20);

async fn within<T>(what: &str, future: impl Future<Output = T>) -> T {
    match tokio::time::timeout(STEP, future).await {
        Ok(value) => value,
        Err(_) => panic!("timed out after {STEP:?}: {what}"),
    }
}

#[tokio::test]
async fn the_rmcp_client_uses_every_kind_of_request_over_http() {
    let server = HttpServer::start();
    assert_eq!(
        server.banner,
        format!(
            "isomer-mcp-server 0.1.0: serving 6 tools, 2 resources and 1 prompt(s) on {}",
            server.url
        )
    );
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    let transport = StreamableHttpClientTransport::from_uri(server.url.clone());
    let client = within("initialize", ().serve(transport))
        .await
        .expect("the client initializes");
    let info = serde_json::to_value(client.peer_info().expect("initialized")).unwrap();
    assert_eq!(
        info["serverInfo"],
        json!({ "name": "isomer-mcp-server", "title": "Isomer slides", "version": "0.1.0" })
    );
    let tools = within("tools/list", client.list_all_tools()).await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, isomer_agent_tools::ISOMER_TOOL_NAMES.all());

    let slide = json!({
        "type": "view",
        "title": "Ledger",
        "body": [{ "type": "slideFrame", "tone": "inverse", "body": [{ "type": "slideTitle", "title": "Ledger" }] }]
    });
    let Value::Object(arguments) = json!({ "composition": slide }) else {
        unreachable!()
    };
    let validated = within(
        "tools/call",
        client.call_tool(CallToolRequestParams::new("isomer_validate").with_arguments(arguments)),
    )
    .await
    .unwrap();
    assert_eq!(validated.is_error, None);
    assert_eq!(
        validated.structured_content,
        Some(json!({ "valid": true, "errors": [], "warnings": [] }))
    );

    let guide = within(
        "resources/read",
        client.read_resource(ReadResourceRequestParams::new("isomer://authoring-guide")),
    )
    .await
    .unwrap();
    let guide = serde_json::to_value(&guide.contents).unwrap();
    assert_eq!(guide[0]["uri"], "isomer://authoring-guide");
    assert_eq!(guide[0]["mimeType"], "text/markdown");

    let prompt = within(
        "prompts/get",
        client.get_prompt(GetPromptRequestParams::new("compose")),
    )
    .await
    .unwrap();
    assert_eq!(prompt.messages.len(), 1);
    within("close", client.cancel()).await.unwrap();
}

/// The status line of the answer to `request`, sent raw to `address`.
async fn status_line(address: &str, request: String) -> String {
    let mut stream = within("connect", tokio::net::TcpStream::connect(address))
        .await
        .unwrap();
    within("write", stream.write_all(request.as_bytes()))
        .await
        .unwrap();
    let mut answer = Vec::new();
    within("read", stream.read_to_end(&mut answer))
        .await
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    answer.lines().next().unwrap_or_default().to_owned()
}

fn post(host: &str, extra: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test]
async fn a_foreign_host_or_origin_is_refused_and_other_paths_are_not_found() {
    let server = HttpServer::start();
    let address = server.address().to_owned();
    assert_eq!(
        status_line(&address, post(&address, "")).await,
        "HTTP/1.1 200 OK"
    );
    assert_eq!(
        status_line(&address, post("localhost", "")).await,
        "HTTP/1.1 200 OK"
    );
    assert_eq!(
        status_line(&address, post("attacker.example", "")).await,
        "HTTP/1.1 403 Forbidden"
    );
    assert_eq!(
        status_line(
            &address,
            post(&address, "Origin: https://attacker.example\r\n")
        )
        .await,
        "HTTP/1.1 403 Forbidden"
    );
    assert_eq!(
        status_line(
            &address,
            format!("GET / HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n")
        )
        .await,
        "HTTP/1.1 404 Not Found"
    );
}
