//! Drives the built `isomer-mcp-server` binary as a child process with
//! rmcp's own client, over stdio, the way an MCP host does: initialize, list
//! and call every tool, list and read both resources, list and get the
//! `compose` prompt. Every await has a timeout, so a server that hangs fails
//! the test instead of hanging it.

use std::future::Future;
use std::process::Stdio;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, ErrorCode, GetPromptRequestParams,
    GetPromptResult, JsonObject, PromptMessage, ReadResourceRequestParams, ResourceContents, Role,
};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceError, ServiceExt as _};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt as _;
use tokio::process::ChildStderr;

/// How long any one step may take.
const STEP: Duration = Duration::from_secs(10);

/// Awaits `future` for at most [`STEP`], failing the test on a timeout.
async fn within<T>(what: &str, future: impl Future<Output = T>) -> T {
    match tokio::time::timeout(STEP, future).await {
        Ok(value) => value,
        Err(_) => panic!("timed out after {STEP:?}: {what}"),
    }
}

/// A connected client and the server's stderr.
struct Session {
    client: RunningService<RoleClient, ()>,
    stderr: ChildStderr,
}

/// Starts the built server and initializes an rmcp client over its stdio.
async fn connect() -> Session {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_isomer-mcp-server"));
    let (transport, stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let client = within("initialize", ().serve(transport))
        .await
        .expect("the server initializes");
    Session {
        client,
        stderr: stderr.expect("stderr is piped"),
    }
}

impl Session {
    /// Calls `name` with `arguments` (`None` sends no `arguments` at all).
    async fn call(&self, name: &'static str, arguments: Option<Value>) -> CallToolResult {
        let mut params = CallToolRequestParams::new(name);
        if let Some(arguments) = arguments {
            params = params.with_arguments(object(arguments));
        }
        within(name, self.client.call_tool(params))
            .await
            .unwrap_or_else(|error| panic!("{name}: {error}"))
    }

    /// The error a request answered with, for requests that must fail.
    async fn call_error(&self, name: &'static str, arguments: Value) -> rmcp::ErrorData {
        let params = CallToolRequestParams::new(name).with_arguments(object(arguments));
        mcp_error(within(name, self.client.call_tool(params)).await)
    }

    async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, ServiceError> {
        within(
            uri,
            self.client
                .read_resource(ReadResourceRequestParams::new(uri)),
        )
        .await
        .map(|result| result.contents)
    }

    async fn prompt(
        &self,
        name: &str,
        arguments: Option<Value>,
    ) -> Result<GetPromptResult, ServiceError> {
        let mut params = GetPromptRequestParams::new(name);
        if let Some(arguments) = arguments {
            params = params.with_arguments(object(arguments));
        }
        within(name, self.client.get_prompt(params)).await
    }

    /// Closes the connection and returns everything the server wrote to
    /// stderr.
    async fn close(mut self) -> String {
        within("close", self.client.cancel())
            .await
            .expect("the client closes");
        let mut stderr = String::new();
        within("stderr", self.stderr.read_to_string(&mut stderr))
            .await
            .expect("stderr is readable");
        stderr
    }
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn mcp_error<T: std::fmt::Debug>(result: Result<T, ServiceError>) -> rmcp::ErrorData {
    match result {
        Err(ServiceError::McpError(error)) => error,
        other => panic!("expected an MCP error, got {other:?}"),
    }
}

/// The text of a result made of exactly one text block.
fn text(result: &CallToolResult) -> &str {
    assert_eq!(result.content.len(), 1, "{result:?}");
    match &result.content[0] {
        ContentBlock::Text(block) => &block.text,
        other => panic!("not a text block: {other:?}"),
    }
}

/// The text of a successful one-block result (no `isError` key at all).
fn ok_text(result: &CallToolResult) -> &str {
    assert_eq!(result.is_error, None, "{result:?}");
    text(result)
}

/// The text of a failed one-block result (`isError: true`).
fn error_text(result: &CallToolResult) -> &str {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    text(result)
}

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).expect("the text is JSON")
}

/// One slide: the example of the slides pack's lib docs.
fn slide() -> Value {
    json!({
        "type": "view",
        "title": "Nightly settlement",
        "body": [{
            "type": "slideFrame",
            "brand": "Ledger",
            "body": [{ "type": "slideStatement", "text": "Refunds settle **nightly**." }]
        }]
    })
}

/// Two frames (the frame rule wants one) and a statement without text.
fn bad_slide() -> Value {
    json!({
        "type": "view",
        "body": [
            { "type": "slideFrame", "body": [{ "type": "slideStatement" }] },
            { "type": "slideFrame", "body": [] }
        ]
    })
}

#[tokio::test]
async fn initializes_with_the_server_info_and_logs_to_stderr_only() {
    let session = connect().await;
    let info = session.client.peer_info().expect("initialized");
    let info = serde_json::to_value(&*info).unwrap();
    assert_eq!(
        info["serverInfo"],
        json!({ "name": "isomer-mcp-server", "title": "Isomer slides", "version": "0.1.0" })
    );
    // rmcp's client opens with `initialize`, whose newest protocol is 2025-11-25.
    assert_eq!(info["protocolVersion"], "2025-11-25");
    assert_eq!(
        info["capabilities"],
        json!({ "prompts": {}, "resources": {}, "tools": {} })
    );
    assert_eq!(
        info["instructions"],
        "This server answers with slides written as Isomer compositions: typed JSON that the host validates and renders. Check isomer_list_views first and, when a registered view fits the request, build the slide with isomer_request_view. Otherwise read isomer_authoring_guide, look the primitives you pick up with isomer_describe_primitives, check your composition with isomer_validate until it is valid, and render it with isomer_render."
    );
    assert_eq!(
        session.close().await,
        "isomer-mcp-server 0.1.0: serving 6 tools, 2 resources and 1 prompt(s) on stdio\n\
         isomer-mcp-server: session ended (Closed)\n"
    );
}

#[tokio::test]
async fn lists_six_tools_and_lists_the_keyless_ones_with_the_empty_object_schema() {
    let session = connect().await;
    let tools = within("tools/list", session.client.list_all_tools())
        .await
        .unwrap();
    let summary: Vec<(String, Option<String>)> = tools
        .iter()
        .map(|tool| (tool.name.to_string(), tool.title.clone()))
        .collect();
    let expected = [
        ("isomer_authoring_guide", "Isomer authoring guide"),
        ("isomer_describe_primitives", "Describe primitives"),
        ("isomer_validate", "Validate a composition"),
        ("isomer_render", "Render a composition"),
        ("isomer_list_views", "List registered views"),
        ("isomer_request_view", "Request a registered view"),
    ]
    .map(|(name, title)| (name.to_owned(), Some(title.to_owned())));
    assert_eq!(summary, expected);
    for keyless in [0, 4] {
        assert_eq!(
            serde_json::to_string(&tools[keyless].input_schema).unwrap(),
            r#"{"type":"object","properties":{}}"#,
            "{}",
            tools[keyless].name
        );
    }
    let required: Vec<Value> = tools
        .iter()
        .map(|tool| {
            tool.input_schema
                .get("required")
                .cloned()
                .unwrap_or(Value::Null)
        })
        .collect();
    assert_eq!(
        required,
        [
            Value::Null,
            json!(["types"]),
            json!(["composition"]),
            json!(["composition", "format"]),
            Value::Null,
            json!(["id"]),
        ]
    );
    assert_eq!(
        tools[3].input_schema["properties"]["format"]["enum"],
        json!(["text", "markdown", "html", "slack", "png", "svg", "pdf"])
    );
    // Every tool is read-only, idempotent and closed-world, titled as listed.
    for (tool, (_, title)) in tools.iter().zip(&expected) {
        let hints = tool.annotations.as_ref().expect("every tool is annotated");
        assert_eq!(
            (
                hints.title.as_ref(),
                hints.read_only_hint,
                hints.idempotent_hint,
                hints.open_world_hint,
                hints.destructive_hint
            ),
            (title.as_ref(), Some(true), Some(true), Some(false), None),
            "{}",
            tool.name
        );
    }
    // The tools answering JSON objects declare what they answer.
    let output_keys: Vec<(String, Value)> = tools
        .iter()
        .filter_map(|tool| {
            let schema = tool.output_schema.as_ref()?;
            assert_eq!(schema["type"], json!("object"), "{}", tool.name);
            Some((tool.name.to_string(), schema["required"].clone()))
        })
        .collect();
    assert_eq!(
        output_keys,
        [
            (
                "isomer_validate".to_owned(),
                json!(["valid", "errors", "warnings"])
            ),
            ("isomer_list_views".to_owned(), json!(["views"])),
            (
                "isomer_request_view".to_owned(),
                json!(["valid", "errors", "warnings"])
            ),
        ]
    );
    insta::assert_json_snapshot!("tools_list", tools);
    session.close().await;
}

#[tokio::test]
async fn the_guide_tool_answers_with_or_without_arguments_and_matches_the_resource() {
    let session = connect().await;
    let without = session.call("isomer_authoring_guide", None).await;
    let guide = ok_text(&without).to_owned();
    let stray = session
        .call("isomer_authoring_guide", Some(json!({ "stray": 1 })))
        .await;
    assert_eq!(ok_text(&stray), guide);
    let contents = session.read("isomer://authoring-guide").await.unwrap();
    assert_eq!(
        contents,
        [
            ResourceContents::text(guide.clone(), "isomer://authoring-guide")
                .with_mime_type("text/markdown")
        ]
    );
    insta::assert_snapshot!("authoring_guide", guide);
    session.close().await;
}

#[tokio::test]
async fn describes_a_primitive_and_refuses_an_unknown_type() {
    let session = connect().await;
    let one = session
        .call(
            "isomer_describe_primitives",
            Some(json!({ "types": ["slideStatement"] })),
        )
        .await;
    insta::assert_snapshot!("describe_slide_statement", ok_text(&one));

    let unknown = session
        .call(
            "isomer_describe_primitives",
            Some(json!({ "types": ["slideStatement", "slideBogus"] })),
        )
        .await;
    let answer = parsed(error_text(&unknown));
    assert_eq!(answer["unknown"], json!(["slideBogus"]));
    insta::assert_json_snapshot!("describe_unknown_type", answer);

    let none = session.call("isomer_describe_primitives", None).await;
    assert_eq!(
        error_text(&none),
        "the input does not match the input schema of tool \"isomer_describe_primitives\":\n\
         - at the root: \"types\" is a required property"
    );
    session.close().await;
}

#[tokio::test]
async fn validates_a_good_and_a_bad_composition() {
    let session = connect().await;
    let good = session
        .call("isomer_validate", Some(json!({ "composition": slide() })))
        .await;
    assert_eq!(
        parsed(ok_text(&good)),
        json!({ "valid": true, "errors": [], "warnings": [] })
    );
    // The same answer as structured content, for clients that read it.
    assert_eq!(good.structured_content, Some(parsed(ok_text(&good))));

    let bad = session
        .call(
            "isomer_validate",
            Some(json!({ "composition": bad_slide() })),
        )
        .await;
    insta::assert_snapshot!("validate_bad_composition", ok_text(&bad));
    let answer = parsed(ok_text(&bad));
    assert_eq!(answer["valid"], json!(false));
    assert_eq!(bad.structured_content, Some(answer));

    let two_slides = json!({ "type": "view", "body": [slide()["body"][0], slide()["body"][0]] });
    // The slides frame's own message, verbatim, with an empty path.
    let [frame_rule_message] = <[String; 1]>::try_from(isomer_slides::validate_slide_deck_body(
        two_slides["body"].as_array().unwrap(),
    ))
    .unwrap();
    let frame_rule = session
        .call(
            "isomer_validate",
            Some(json!({ "composition": two_slides })),
        )
        .await;
    assert_eq!(
        parsed(ok_text(&frame_rule)),
        json!({
            "valid": false,
            "errors": [
                frame_rule_message
            ],
            "warnings": []
        })
    );
    let unrendered = session
        .call(
            "isomer_render",
            Some(json!({ "composition": two_slides, "format": "markdown" })),
        )
        .await;
    assert_eq!(
        parsed(error_text(&unrendered)),
        json!({
            "valid": false,
            "errors": [
                frame_rule_message
            ]
        })
    );

    let not_an_object = session
        .call("isomer_validate", Some(json!({ "composition": "a slide" })))
        .await;
    assert_eq!(
        error_text(&not_an_object),
        "the input does not match the input schema of tool \"isomer_validate\":\n\
         - at composition: \"a slide\" is not of type \"object\""
    );
    assert_eq!(not_an_object.structured_content, None);

    let extra = session
        .call(
            "isomer_validate",
            Some(json!({ "composition": slide(), "extra": true })),
        )
        .await;
    assert_eq!(
        error_text(&extra),
        "the input does not match the input schema of tool \"isomer_validate\":\n\
         - at the root: Additional properties are not allowed ('extra' was unexpected)"
    );
    session.close().await;
}

#[tokio::test]
async fn renders_in_every_format_and_refuses_bad_input() {
    let session = connect().await;
    let render = |format: &'static str| {
        session.call(
            "isomer_render",
            Some(json!({ "composition": slide(), "format": format })),
        )
    };
    assert_eq!(
        ok_text(&render("text").await),
        "REFUNDS SETTLE NIGHTLY.\n\nLedger"
    );
    assert_eq!(
        ok_text(&render("markdown").await),
        "# Refunds settle **nightly**.\n\n_Ledger_"
    );
    let html = render("html").await;
    insta::assert_snapshot!("render_html", ok_text(&html));
    let dark = session
        .call(
            "isomer_render",
            Some(json!({ "composition": slide(), "format": "html", "theme": "dark" })),
        )
        .await;
    assert_eq!(
        ok_text(&dark),
        ok_text(&html).replace(
            "aria-label=\"Nightly settlement\">",
            "aria-label=\"Nightly settlement\" data-theme=\"dark\">"
        )
    );
    insta::assert_snapshot!("render_slack", ok_text(&render("slack").await));

    let bad = session
        .call(
            "isomer_render",
            Some(json!({ "composition": bad_slide(), "format": "text" })),
        )
        .await;
    insta::assert_snapshot!("render_bad_composition", error_text(&bad));

    // The pictures answer as blocks whose type and MIME type follow the format.
    for (format, block_type, mime_type) in [
        ("png", "image", "image/png"),
        ("svg", "image", "image/svg+xml"),
        ("pdf", "resource", "application/pdf"),
    ] {
        let result = render(format).await;
        assert_eq!(result.is_error, None, "{format}: {result:?}");
        assert_eq!(result.content.len(), 1, "{format}");
        let block = serde_json::to_value(&result.content[0]).expect("a block serializes");
        assert_eq!(block["type"], block_type, "{format}");
        match block_type {
            "image" => {
                assert_eq!(block["mimeType"], mime_type);
                assert!(block["data"].as_str().is_some_and(|data| !data.is_empty()));
            }
            _ => {
                assert_eq!(block["resource"]["mimeType"], mime_type);
                assert_eq!(block["resource"]["uri"], "isomer://render/pdf");
                assert!(
                    block["resource"]["blob"]
                        .as_str()
                        .is_some_and(|blob| blob.starts_with("JVBERi0")),
                    "base64 of %PDF-"
                );
            }
        }
    }
    session.close().await;
}

#[tokio::test]
async fn lists_and_requests_the_view() {
    let session = connect().await;
    let listed = session.call("isomer_list_views", None).await;
    insta::assert_snapshot!("list_views", ok_text(&listed));
    assert_eq!(
        listed.structured_content,
        Some(json!({ "views": parsed(ok_text(&listed)) }))
    );
    let stray = session
        .call("isomer_list_views", Some(json!({ "stray": true })))
        .await;
    assert_eq!(ok_text(&stray), ok_text(&listed));

    let built = session
        .call(
            "isomer_request_view",
            Some(json!({
                "id": "title-slide",
                "input": { "title": "Ledger", "tagline": "Money in, money out." }
            })),
        )
        .await;
    insta::assert_snapshot!("request_view", ok_text(&built));
    assert_eq!(built.structured_content, Some(parsed(ok_text(&built))));

    let missing_title = session
        .call(
            "isomer_request_view",
            Some(json!({ "id": "title-slide", "input": {} })),
        )
        .await;
    assert_eq!(
        parsed(error_text(&missing_title)),
        json!({ "error": "Invalid input for view \"title-slide\":", "errors": ["title is required"] })
    );

    let unknown = session
        .call(
            "isomer_request_view",
            Some(json!({ "id": "closing-slide" })),
        )
        .await;
    assert_eq!(error_text(&unknown), "Unknown view \"closing-slide\"");
    session.close().await;
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() {
    let session = connect().await;
    let error = session.call_error("isomer_nope", json!({})).await;
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(error.message, "tool isomer_nope not found");
    assert_eq!(error.data, Some(json!({ "name": "isomer_nope" })));
    session.close().await;
}

#[tokio::test]
async fn lists_and_reads_both_resources() {
    let session = connect().await;
    let resources = within("resources/list", session.client.list_all_resources())
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&resources).unwrap(),
        json!([
            {
                "uri": "isomer://authoring-guide",
                "name": "isomer-authoring-guide",
                "title": "Isomer authoring guide",
                "description": "How to write a composition for this host: the guide, its rules, the registered views and an index of the primitives.",
                "mimeType": "text/markdown"
            },
            {
                "uri": "isomer://composition-schema",
                "name": "isomer-composition-schema",
                "title": "Composition JSON Schema",
                "description": "The complete JSON Schema of a composition, every primitive included. It is large: to write a composition, read the guide's index and look primitives up with isomer_describe_primitives instead.",
                "mimeType": "application/json"
            }
        ])
    );

    let schema = session.read("isomer://composition-schema").await.unwrap();
    assert_eq!(schema.len(), 1);
    let ResourceContents::TextResourceContents {
        uri,
        mime_type,
        text,
        ..
    } = &schema[0]
    else {
        panic!("not text: {schema:?}");
    };
    assert_eq!(uri, "isomer://composition-schema");
    assert_eq!(mime_type.as_deref(), Some("application/json"));
    let expected = isomer_mcp_server::slides::slides_runtime()
        .unwrap()
        .authoring_schema()
        .clone();
    assert_eq!(text, &isomer_sdk::js_parity::compact_json(&expected));
    assert!(!text.contains('\n'), "printed compact");

    let error = mcp_error(session.read("isomer://nope").await);
    assert_eq!(error.code, ErrorCode::RESOURCE_NOT_FOUND);
    assert_eq!(error.message, "resource isomer://nope not found");
    session.close().await;
}

#[tokio::test]
async fn gets_the_compose_prompt_with_and_without_a_request() {
    let session = connect().await;
    let prompts = within("prompts/list", session.client.list_all_prompts())
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&prompts).unwrap(),
        json!([{
            "name": "compose",
            "title": "Compose a view",
            "description": "The authoring guide, followed by what the view should show.",
            "arguments": [
                { "name": "request", "description": "What the view should answer.", "required": false }
            ]
        }])
    );

    let guide = session.read("isomer://authoring-guide").await.unwrap();
    let ResourceContents::TextResourceContents { text: guide, .. } = &guide[0] else {
        panic!("not text");
    };
    let plain = session.prompt("compose", None).await.unwrap();
    assert_eq!(
        plain.messages,
        [PromptMessage::new_text(Role::User, guide.clone())]
    );
    assert_eq!(plain.description, None);

    let asked = session
        .prompt(
            "compose",
            Some(json!({ "request": "Summarize the launch." })),
        )
        .await
        .unwrap();
    assert_eq!(
        asked.messages,
        [PromptMessage::new_text(
            Role::User,
            format!("{guide}\n\n## Request\n\nSummarize the launch.")
        )]
    );

    let not_a_string = mcp_error(
        session
            .prompt("compose", Some(json!({ "request": 7 })))
            .await,
    );
    assert_eq!(not_a_string.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(
        not_a_string.message,
        "prompt compose: the argument request must be a string, got 7"
    );

    let unknown = mcp_error(session.prompt("summarize", None).await);
    assert_eq!(unknown.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(unknown.message, "prompt summarize not found");
    session.close().await;
}

#[test]
fn a_client_that_leaves_before_initialize_ends_the_server_cleanly_with_nothing_on_stdout() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_isomer-mcp-server"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let deadline = std::time::Instant::now() + STEP;
    while child.try_wait().expect("the child can be polled").is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().expect("the child can be killed");
            panic!("the server did not exit within {STEP:?} after stdin closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("the output is readable");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "isomer-mcp-server 0.1.0: serving 6 tools, 2 resources and 1 prompt(s) on stdio\n\
         isomer-mcp-server: stdin closed before initialize\n"
    );
}
