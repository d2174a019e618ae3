//! Upstream's tool tests (`tools.test.ts`), ported against a stub runtime.

mod common;

use std::sync::{Arc, Mutex};

use common::*;
use isomer_agent_tools::{
    FormatOutput, HostFormat, ISOMER_TOOL_NAMES, IsomerToolsOptions, RuntimeFormat, Tool,
    ToolContent, ToolResult, ViewRequestError, create_isomer_tools,
};
use isomer_sdk::composition::Theme;
use isomer_sdk::{ErrorCode, IsomerError, ValidationError};
use serde_json::{Value, json};

fn options(stub: Stub) -> IsomerToolsOptions<Stub> {
    IsomerToolsOptions::new(Arc::new(stub)).with_frame(one_card_frame)
}

fn tools(options: IsomerToolsOptions<Stub>) -> Vec<Tool> {
    create_isomer_tools(options).expect("tools")
}

fn tool<'a>(tools: &'a [Tool], name: &str) -> &'a Tool {
    tools
        .iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

fn text(result: &ToolResult) -> &str {
    assert_eq!(result.content.len(), 1, "one block");
    match &result.content[0] {
        ToolContent::Text { text } => text,
        other => panic!("not text: {other:?}"),
    }
}

fn parsed(result: &ToolResult) -> Value {
    serde_json::from_str(text(result)).expect("JSON text")
}

async fn call(tools: &[Tool], name: &str, input: Value) -> ToolResult {
    tool(tools, name).call(input).await
}

fn names(tools: &[Tool]) -> Vec<&str> {
    tools.iter().map(|tool| tool.name.as_str()).collect()
}

// createIsomerTools

#[test]
fn offers_every_tool_in_order() {
    let tools = tools(options(Stub::new().with_view(one_card_view())));
    assert_eq!(names(&tools), ISOMER_TOOL_NAMES.all());
}

#[test]
fn omits_the_view_tools_when_the_runtime_registers_no_views() {
    let tools = tools(options(Stub::new()));
    assert_eq!(
        names(&tools),
        [
            "isomer_authoring_guide",
            "isomer_describe_primitives",
            "isomer_validate",
            "isomer_render"
        ]
    );
}

#[test]
fn gives_each_tool_its_title() {
    let tools = tools(options(Stub::new().with_view(one_card_view())));
    let titles: Vec<&str> = tools
        .iter()
        .map(|tool| tool.title.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        titles,
        [
            "Isomer authoring guide",
            "Describe primitives",
            "Validate a composition",
            "Render a composition",
            "List registered views",
            "Request a registered view"
        ]
    );
}

#[test]
fn sends_the_model_to_the_guide_from_the_composition_schema() {
    let tools = tools(options(Stub::new()));
    for name in ["isomer_validate", "isomer_render"] {
        let composition = &tool(&tools, name).input_schema["properties"]["composition"];
        assert_eq!(composition["type"], "object");
        assert!(composition.to_string().contains("isomer_authoring_guide"));
    }
}

// isomer_authoring_guide

#[tokio::test]
async fn indexes_every_primitive_once_with_views_and_no_schema() {
    let tools = tools(options(Stub::new().with_view(one_card_view())));
    let result = call(&tools, "isomer_authoring_guide", json!({})).await;
    assert!(!result.is_error);
    let guide = text(&result);
    assert_eq!(guide.matches("- `card` — ").count(), 1);
    assert_eq!(guide.matches("- `stack` — ").count(), 1);
    assert!(guide.contains("### Basics\n\n- `card` — One titled card."));
    assert!(guide.contains("### Other\n\n- `stack` — Children one under another."));
    assert!(guide.contains("`one-card`"));
    assert!(guide.contains("isomer_describe_primitives"));
    assert!(!guide.contains("## JSON Schema"));
    assert!(!guide.contains("Use when:"));
    assert!(guide.starts_with("# View authoring\n\nYou compose views from scratch"));
    assert!(guide.contains("\n\n## Before you write\n\n"));
}

#[tokio::test]
async fn keeps_each_host_rule_on_one_line() {
    let options = options(Stub::new()).with_rules([
        "One idea\n## Injected",
        "Short\u{2028}## Also",
        "Two\r\nlines",
    ]);
    let tools = tools(options);
    let guide = text(&call(&tools, "isomer_authoring_guide", json!({})).await).to_owned();
    assert!(guide.contains("## Rules\n\n- One idea ## Injected\n- Short ## Also\n- Two lines"));
    assert!(!guide.contains(['\r', '\u{2028}', '\u{2029}']));
}

// isomer_describe_primitives

#[tokio::test]
async fn returns_each_entry_and_a_schema_whose_refs_resolve() {
    let tools = tools(options(Stub::new()));
    let result = call(
        &tools,
        "isomer_describe_primitives",
        json!({"types": ["card", "stack", "card"]}),
    )
    .await;
    assert!(!result.is_error);
    let described = text(&result);
    assert_eq!(described.matches("- `card` — One titled card.").count(), 1);
    assert!(described.contains("- `stack` — Children one under another."));
    assert!(described.contains("  - Use when: A single fact."));
    assert!(described.contains("  - Avoid when: Several facts; use stack."));
    assert!(described.contains("  - Example: `{\"type\":\"card\",\"title\":\"Revenue\"}`"));
    let fenced = described
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("\n```")
        .next()
        .unwrap();
    assert!(!fenced.contains('\n'), "the schema is printed compact");
    let schema: Value = serde_json::from_str(fenced).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    for key in ["card", "stack", "bodyNode"] {
        assert!(defs.contains_key(key), "{key}");
    }
    for reference in fenced.split("\"#/$defs/").skip(1) {
        let id = reference.split('"').next().unwrap();
        assert!(defs.contains_key(id), "{id} resolves");
    }
}

#[tokio::test]
async fn names_unknown_types_as_json_and_lists_the_known_ones() {
    let tools = tools(options(Stub::new()));
    let result = call(
        &tools,
        "isomer_describe_primitives",
        json!({"types": ["card", "a\n## Injected", "x", "x"]}),
    )
    .await;
    assert!(result.is_error);
    assert_eq!(
        parsed(&result),
        json!({"error": "Unknown primitive types.", "unknown": ["a\n## Injected", "x", "x"], "known": ["card", "stack"]})
    );
    assert!(!text(&result).contains("\n## Injected"));
}

#[tokio::test]
async fn bounds_the_number_and_length_of_types() {
    let tools = tools(options(Stub::new()));
    let describe = |types: Value| {
        call(
            &tools,
            "isomer_describe_primitives",
            json!({ "types": types }),
        )
    };
    // Accepted by the bounds (then answered as unknown types, not as a bound).
    let twelve = describe(json!(vec!["card"; 12])).await;
    assert!(!twelve.is_error);
    let long = describe(json!(["x".repeat(200)])).await;
    assert_eq!(parsed(&long)["error"], "Unknown primitive types.");
    // Refused by the input schema, which `Tool::call` checks first.
    let refused = |detail: &str| {
        ToolResult::error(format!(
            "the input does not match the input schema of tool \"isomer_describe_primitives\":\n- at {detail}"
        ))
    };
    assert_eq!(
        describe(json!(vec!["card"; 13])).await,
        refused(&format!(
            "types: {} has more than 12 items",
            json!(vec!["card"; 13])
        ))
    );
    assert_eq!(
        describe(json!([])).await,
        refused("types: [] has less than 1 item")
    );
    assert_eq!(
        describe(json!(["card", ""])).await,
        refused("types[1]: \"\" is shorter than 1 character")
    );
    assert!(describe(json!(["x".repeat(201)])).await.first_text().unwrap().starts_with(
        "the input does not match the input schema of tool \"isomer_describe_primitives\":\n- at types[0]: "
    ));
    // The handler checks the same bounds for a host that runs it directly.
    let handler = &tool(&tools, "isomer_describe_primitives").handler;
    assert_eq!(
        handler(json!({"types": vec!["card"; 13]})).await,
        ToolResult::error("types must hold from 1 to 12 primitive types; this call gave 13.")
    );
    assert_eq!(
        handler(json!({"types": []})).await,
        ToolResult::error("types must hold from 1 to 12 primitive types; this call gave 0.")
    );
    assert_eq!(
        handler(json!({"types": ["card", ""]})).await,
        ToolResult::error(
            "types[1] must be from 1 to 200 UTF-16 code units long (JavaScript's string length); it is 0."
        )
    );
    assert_eq!(
        handler(json!({"types": ["x".repeat(201)]})).await,
        ToolResult::error(
            "types[0] must be from 1 to 200 UTF-16 code units long (JavaScript's string length); it is 201."
        )
    );
    // 150 emoji are 150 characters to the schema's `maxLength` but 300 UTF-16 code units,
    // which upstream's zod counts: refused by the handler, with the count it used.
    assert_eq!(
        call(
            &tools,
            "isomer_describe_primitives",
            json!({"types": ["😀".repeat(150)]})
        )
        .await,
        ToolResult::error(
            "types[0] must be from 1 to 200 UTF-16 code units long (JavaScript's string length); it is 300."
        )
    );
    // 200 UTF-16 code units, not bytes: 200 'é' (400 bytes) pass.
    let accented = describe(json!(["é".repeat(200)])).await;
    assert_eq!(parsed(&accented)["error"], "Unknown primitive types.");
    let schema = &tool(&tools, "isomer_describe_primitives").input_schema["properties"]["types"];
    assert_eq!(schema["minItems"], 1);
    assert_eq!(schema["maxItems"], 12);
    assert_eq!(schema["items"]["minLength"], 1);
    assert_eq!(schema["items"]["maxLength"], 200);
}

// isomer_validate

#[tokio::test]
async fn accepts_a_single_card() {
    let tools = tools(options(Stub::new()));
    let result = call(
        &tools,
        "isomer_validate",
        json!({ "composition": one_card() }),
    )
    .await;
    assert!(!result.is_error);
    assert_eq!(
        text(&result),
        "{\n  \"valid\": true,\n  \"errors\": [],\n  \"warnings\": []\n}"
    );
}

#[tokio::test]
async fn reports_the_frames_body_rule_without_failing_the_call() {
    let tools = tools(options(Stub::new()));
    let result = call(
        &tools,
        "isomer_validate",
        json!({ "composition": two_cards() }),
    )
    .await;
    assert!(!result.is_error);
    assert_eq!(
        parsed(&result),
        json!({"valid": false, "errors": [FRAME_RULE], "warnings": []})
    );
}

#[tokio::test]
async fn names_the_node_type_of_a_nested_schema_error() {
    let tools = tools(options(Stub::new()));
    let composition = json!({"type": "view", "body": [{"type": "card", "title": "A", "nope": 1}]});
    let result = call(
        &tools,
        "isomer_validate",
        json!({ "composition": composition }),
    )
    .await;
    assert_eq!(
        parsed(&result)["errors"],
        json!(["body[0] (in card) has unrecognized key(s): nope; its fields are title"])
    );
}

fn deep_composition(levels: usize) -> Value {
    // view (1) > body (2) > stack (3) > children (4) > nested arrays.
    json!({"type": "view", "body": [{"type": "stack", "children": [nested(levels - 4)]}]})
}

#[tokio::test]
async fn parses_a_composition_at_the_depth_limit() {
    let stub = Arc::new(Stub::new());
    let tools = tools(IsomerToolsOptions::new(Arc::clone(&stub)));
    let result = call(
        &tools,
        "isomer_validate",
        json!({ "composition": deep_composition(64) }),
    )
    .await;
    assert_eq!(stub.calls.lock().unwrap().parse, 1);
    assert!(!text(&result).contains(TOO_DEEP));
}

#[tokio::test]
async fn reports_the_refusal_of_a_composition_past_the_depth_limit_without_failing_the_call() {
    let tools = tools(options(Stub::new()));
    let result = call(
        &tools,
        "isomer_validate",
        json!({ "composition": deep_composition(65) }),
    )
    .await;
    assert!(!result.is_error);
    assert_eq!(
        parsed(&result),
        json!({"valid": false, "errors": [TOO_DEEP], "warnings": []})
    );
}

#[tokio::test]
async fn skips_the_body_rule_without_a_frame() {
    let tools = tools(IsomerToolsOptions::new(Arc::new(Stub::new())));
    let result = call(
        &tools,
        "isomer_validate",
        json!({ "composition": two_cards() }),
    )
    .await;
    assert_eq!(parsed(&result)["valid"], true);
}

#[tokio::test]
async fn answers_input_that_is_not_an_object_as_a_failed_call() {
    let tools = tools(options(Stub::new()));
    let result = call(&tools, "isomer_validate", json!({ "composition": [1] })).await;
    assert!(result.is_error);
    let result = call(&tools, "isomer_validate", json!({})).await;
    assert!(result.is_error);
}

// isomer_render

#[tokio::test]
async fn renders_every_runtime_format() {
    let stub = Arc::new(Stub::new());
    let tools = tools(IsomerToolsOptions::new(Arc::clone(&stub)).with_frame(one_card_frame));
    let composition = json!({"type": "view", "title": "Envelope title", "body": [{"type": "card", "title": "Hello"}]});
    let render = |format: &str| {
        call(
            &tools,
            "isomer_render",
            json!({"composition": composition, "format": format}),
        )
    };
    assert_eq!(
        render("text").await,
        ToolResult::text("ENVELOPE TITLE\n\nHello")
    );
    assert_eq!(
        render("markdown").await,
        ToolResult::text("# Envelope title\n\nHello")
    );
    assert_eq!(
        render("html").await,
        ToolResult::text(
            "<div data-theme=\"auto\"><style>.c{}</style><h1>Envelope title</h1>Hello</div>"
        )
    );
    let slack = render("slack").await;
    assert!(!slack.is_error);
    assert_eq!(
        text(&slack),
        "{\n  \"text\": \"Envelope title\",\n  \"blocks\": [\n    {\n      \"type\": \"section\",\n      \"text\": \"Hello\"\n    }\n  ]\n}"
    );
    let rendered = &stub.calls.lock().unwrap().rendered;
    let formats: Vec<RuntimeFormat> = rendered.iter().map(|(format, _, _)| *format).collect();
    assert_eq!(formats, RuntimeFormat::ALL);
    assert!(
        rendered
            .iter()
            .all(|(_, _, options)| options.heading && options.theme.is_none())
    );
}

#[tokio::test]
async fn leaves_the_title_out_of_each_format_when_heading_is_false() {
    let stub = Arc::new(Stub::new());
    let tools = tools(IsomerToolsOptions::new(Arc::clone(&stub)).with_heading(false));
    let composition = json!({"type": "view", "title": "Envelope title", "body": [{"type": "card", "title": "Hello"}]});
    for format in ["text", "markdown", "html", "slack"] {
        let result = call(
            &tools,
            "isomer_render",
            json!({"composition": composition, "format": format}),
        )
        .await;
        assert!(
            !text(&result).to_lowercase().contains("envelope title"),
            "{format}"
        );
    }
    assert!(
        stub.calls
            .lock()
            .unwrap()
            .rendered
            .iter()
            .all(|(_, _, options)| !options.heading)
    );
}

#[tokio::test]
async fn returns_the_errors_of_an_invalid_composition_as_a_failed_call() {
    let stub = Arc::new(Stub::new());
    let tools = tools(IsomerToolsOptions::new(Arc::clone(&stub)).with_frame(one_card_frame));
    let result = call(
        &tools,
        "isomer_render",
        json!({"composition": two_cards(), "format": "text"}),
    )
    .await;
    assert_eq!(
        result,
        ToolResult::error(
            "{\n  \"valid\": false,\n  \"errors\": [\n    \"exactly one \\\"card\\\" node, got 2 nodes\"\n  ]\n}"
        )
    );
    assert!(stub.calls.lock().unwrap().rendered.is_empty());
}

#[tokio::test]
async fn renders_html_with_the_theme_over_the_compositions_own() {
    let tools = tools(options(Stub::new()));
    let composition =
        json!({"type": "view", "theme": "dark", "body": [{"type": "card", "title": "Hello"}]});
    let own = call(
        &tools,
        "isomer_render",
        json!({"composition": composition, "format": "html"}),
    )
    .await;
    assert!(text(&own).contains("data-theme=\"dark\""));
    assert!(text(&own).contains("<style>"));
    let light = call(
        &tools,
        "isomer_render",
        json!({"composition": composition, "format": "html", "theme": "light"}),
    )
    .await;
    assert!(text(&light).contains("data-theme=\"light\""));
}

#[tokio::test]
async fn returns_a_composition_over_the_input_budget_as_a_failed_call() {
    let tools = tools(options(Stub::new()));
    let composition = json!({"type": "view", "title": "x".repeat(1_000_000), "body": []});
    let result = call(
        &tools,
        "isomer_render",
        json!({"composition": composition, "format": "text"}),
    )
    .await;
    assert!(result.is_error);
    assert_eq!(
        parsed(&result),
        json!({"valid": false, "errors": ["input holds more than 1000000 characters"]})
    );
}

type Seen = Arc<Mutex<Vec<(Value, Option<Theme>)>>>;

fn recording_format(mime_type: &str, output: FormatOutput) -> (HostFormat, Seen) {
    let seen: Seen = Arc::default();
    let record = Arc::clone(&seen);
    let format = HostFormat::new(
        mime_type,
        move |composition, options: isomer_agent_tools::HostRenderOptions| {
            record.lock().unwrap().push((composition, options.theme));
            let output = output.clone();
            async move { Ok(output) }
        },
    );
    (format, seen)
}

#[tokio::test]
async fn renders_a_host_format_from_the_copy_the_runtime_validated() {
    let stub = Arc::new(Stub::new());
    let (png, seen) = recording_format("image/png", FormatOutput::Bytes(vec![1, 2, 3]));
    let tools = tools(IsomerToolsOptions::new(Arc::clone(&stub)).with_format("png", png));
    let mut raw = one_card();
    raw["extra"] = json!("dropped by parse");
    let result = call(
        &tools,
        "isomer_render",
        json!({"composition": raw, "format": "png"}),
    )
    .await;
    assert_eq!(result, ToolResult::image([1, 2, 3], "image/png"));
    assert_eq!(
        text_free(&result),
        json!({"content": [{"type": "image", "data": "AQID", "mimeType": "image/png"}]})
    );
    let calls = stub.calls.lock().unwrap();
    assert_eq!((calls.parse, calls.validate), (1, 1));
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].0, calls.validated[0]);
    assert_ne!(seen[0].0, raw);
    assert_eq!(seen[0].1, None);
}

fn text_free(result: &ToolResult) -> Value {
    serde_json::to_value(result).unwrap()
}

#[tokio::test]
async fn offers_the_runtime_formats_then_each_host_format() {
    let plain = tools(options(Stub::new()));
    let render = tool(&plain, "isomer_render");
    assert_eq!(
        render.input_schema["properties"]["format"]["enum"],
        json!(["text", "markdown", "html", "slack"])
    );
    assert_eq!(
        call(
            &plain,
            "isomer_render",
            json!({"composition": one_card(), "format": "png"})
        )
        .await,
        ToolResult::error(
            "the input does not match the input schema of tool \"isomer_render\":\n- at format: \"png\" is not one of \"text\", \"markdown\", \"html\", \"slack\""
        )
    );
    // Run directly, the handler refuses a format nobody offers.
    assert_eq!(
        (render.handler)(json!({"composition": one_card(), "format": "png"})).await,
        ToolResult::error("The png format is not available.")
    );
    let (png, _) = recording_format("image/png", FormatOutput::Bytes(vec![1]));
    let (pdf, _) = recording_format("application/pdf", FormatOutput::Bytes(vec![2]));
    let hosted = tools(
        options(Stub::new())
            .with_format("png", png)
            .with_format("pdf", pdf),
    );
    let render = tool(&hosted, "isomer_render");
    assert_eq!(
        render.input_schema["properties"]["format"],
        json!({"type": "string", "description": "The output format.", "enum": ["text", "markdown", "html", "slack", "png", "pdf"]})
    );
    assert!(
        render
            .description
            .contains("the list `text`, `markdown`, `html`, `slack`, `png`, `pdf`")
    );
    for format in ["png", "pdf"] {
        let result = call(
            &hosted,
            "isomer_render",
            json!({"composition": one_card(), "format": format}),
        )
        .await;
        assert!(!result.is_error, "{format}");
    }
}

#[test]
fn orders_host_formats_as_javascript_orders_object_keys() {
    let format = |mime: &str| recording_format(mime, FormatOutput::Bytes(vec![])).0;
    let tools = tools(
        options(Stub::new())
            .with_format("png", format("image/png"))
            .with_format("10", format("image/png"))
            .with_format("2", format("image/png"))
            .with_format("pdf", format("application/pdf"))
            .with_format("png", format("image/webp")),
    );
    let render = tool(&tools, "isomer_render");
    assert_eq!(
        render.input_schema["properties"]["format"]["enum"],
        json!(["text", "markdown", "html", "slack", "2", "10", "png", "pdf"])
    );
    assert!(
        render
            .description
            .contains("the list `text`, `markdown`, `html`, `slack`, `2`, `10`, `png`, `pdf`.")
    );
}

#[test]
fn refuses_a_host_format_named_like_a_runtime_format() {
    let (html, _) = recording_format("text/html", FormatOutput::Text(String::new()));
    let (png, _) = recording_format("image/png", FormatOutput::Bytes(vec![]));
    let (text_format, _) = recording_format("text/plain", FormatOutput::Text(String::new()));
    let error = create_isomer_tools(
        options(Stub::new())
            .with_format("html", html)
            .with_format("png", png)
            .with_format("text", text_format),
    )
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::DuplicateFormat);
    assert_eq!(
        error,
        IsomerError::HostFormatsShadow {
            names: vec!["html".to_owned(), "text".to_owned()]
        }
    );
    assert_eq!(
        error.to_string(),
        "Host formats \"html\", \"text\" shadow the runtime's own; rename them."
    );
    let (html, _) = recording_format("text/html", FormatOutput::Text(String::new()));
    let error = create_isomer_tools(options(Stub::new()).with_format("html", html)).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("Host formats \"html\" shadow"),
        "{error}"
    );
}

#[tokio::test]
async fn returns_image_bytes_as_base64_image_content_past_one_chunk() {
    let bytes: Vec<u8> = (0..65_539u32).map(|i| (i % 256) as u8).collect();
    let (png, seen) = recording_format("image/png", FormatOutput::Bytes(bytes.clone()));
    let tools = tools(options(Stub::new()).with_format("png", png));
    let result = call(
        &tools,
        "isomer_render",
        json!({"composition": one_card(), "format": "png", "theme": "dark"}),
    )
    .await;
    let ToolContent::Image { data, mime_type } = &result.content[0] else {
        panic!("{result:?}")
    };
    assert_eq!(mime_type, "image/png");
    use base64::Engine as _;
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap(),
        bytes
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen[0].0["type"], "view");
    assert_eq!(seen[0].1, Some(Theme::Dark));
}

#[tokio::test]
async fn returns_image_markup_as_image_content() {
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>é</text></svg>";
    let (format, _) = recording_format("image/svg+xml", FormatOutput::Text(svg.to_owned()));
    let tools = tools(options(Stub::new()).with_format("svg", format));
    let result = call(
        &tools,
        "isomer_render",
        json!({"composition": one_card(), "format": "svg"}),
    )
    .await;
    assert_eq!(result, ToolResult::image(svg.as_bytes(), "image/svg+xml"));
}

#[tokio::test]
async fn returns_other_bytes_as_an_embedded_resource_and_other_strings_as_text() {
    let (pdf, _) = recording_format("application/pdf", FormatOutput::Bytes(b"%PDF".to_vec()));
    let (csv, _) = recording_format("text/csv", FormatOutput::Text("a,b".to_owned()));
    let (spaced, _) = recording_format("application/octet-stream", FormatOutput::Bytes(vec![0]));
    let tools = tools(
        options(Stub::new())
            .with_format("pdf", pdf)
            .with_format("csv", csv)
            .with_format("raw bytes", spaced),
    );
    let result = call(
        &tools,
        "isomer_render",
        json!({"composition": one_card(), "format": "pdf"}),
    )
    .await;
    assert_eq!(
        text_free(&result),
        json!({"content": [{"type": "resource", "resource": {"uri": "isomer://render/pdf", "mimeType": "application/pdf", "blob": "JVBERg=="}}]})
    );
    let result = call(
        &tools,
        "isomer_render",
        json!({"composition": one_card(), "format": "csv"}),
    )
    .await;
    assert_eq!(
        text_free(&result),
        json!({"content": [{"type": "text", "text": "a,b"}]})
    );
    let result = call(
        &tools,
        "isomer_render",
        json!({"composition": one_card(), "format": "raw bytes"}),
    )
    .await;
    assert_eq!(
        text_free(&result)["content"][0]["resource"]["uri"],
        "isomer://render/raw%20bytes"
    );
}

#[tokio::test]
async fn returns_a_rejecting_host_format_as_a_failed_call() {
    let down = HostFormat::new("image/png", |_, _| async {
        Err("rasterizer is down".into())
    });
    let tools = tools(options(Stub::new()).with_format("png", down));
    let result = call(
        &tools,
        "isomer_render",
        json!({"composition": one_card(), "format": "png"}),
    )
    .await;
    assert_eq!(
        text_free(&result),
        json!({"content": [{"type": "text", "text": "rasterizer is down"}], "isError": true})
    );
}

// views

#[tokio::test]
async fn lists_registered_views() {
    let tools = tools(options(Stub::new().with_view(one_card_view())));
    let result = call(&tools, "isomer_list_views", json!({})).await;
    assert_eq!(
        parsed(&result),
        json!([{"id": "one-card", "title": "One card", "description": "One card", "answers": ["show a card"],
                "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}])
    );
}

#[tokio::test]
async fn returns_a_requested_view_with_its_validation() {
    let tools = tools(options(Stub::new().with_view(one_card_view())));
    let result = call(
        &tools,
        "isomer_request_view",
        json!({"id": "one-card", "input": {"title": "Hello"}}),
    )
    .await;
    assert!(!result.is_error);
    assert_eq!(
        text(&result),
        "{\n  \"composition\": {\n    \"type\": \"view\",\n    \"body\": [\n      {\n        \"type\": \"card\",\n        \"title\": \"Hello\"\n      }\n    ]\n  },\n  \"valid\": true,\n  \"errors\": [],\n  \"warnings\": []\n}"
    );
}

#[tokio::test]
async fn reports_invalid_view_input_as_its_findings() {
    let tools = tools(options(Stub::new().with_view(one_card_view())));
    let result = call(
        &tools,
        "isomer_request_view",
        json!({"id": "one-card", "input": {}}),
    )
    .await;
    assert!(result.is_error);
    assert_eq!(
        parsed(&result),
        json!({"error": "Invalid input for view \"one-card\":", "errors": ["title is required"]})
    );
    // An absent input is `{}`.
    let result = call(&tools, "isomer_request_view", json!({"id": "one-card"})).await;
    assert_eq!(parsed(&result)["errors"], json!(["title is required"]));
}

fn built_tools(build: Build) -> (Arc<Stub>, Vec<Tool>) {
    let stub = Arc::new(Stub::new().with_view(built_view(build)));
    let options = IsomerToolsOptions::with_host_context(Arc::clone(&stub), json!({"user": "a"}))
        .with_frame(one_card_frame);
    (stub, tools(options))
}

#[tokio::test]
async fn passes_view_input_at_the_depth_limit_to_the_view() {
    let (stub, tools) = built_tools(Box::new(|_, _| Ok(one_card())));
    let result = call(
        &tools,
        "isomer_request_view",
        json!({"id": "built", "input": {"title": nested(63)}}),
    )
    .await;
    assert!(!result.is_error);
    assert_eq!(stub.calls.lock().unwrap().builds, 1);
}

#[tokio::test]
async fn reports_the_refusal_of_view_input_before_the_view_sees_it() {
    let (stub, tools) = built_tools(Box::new(|_, _| Ok(one_card())));
    let result = call(
        &tools,
        "isomer_request_view",
        json!({"id": "built", "input": {"title": nested(64)}}),
    )
    .await;
    assert!(result.is_error);
    assert_eq!(
        parsed(&result),
        json!({"error": "Invalid input for view \"built\":", "errors": [TOO_DEEP]})
    );
    assert_eq!(stub.calls.lock().unwrap().builds, 0);
}

#[tokio::test]
async fn reports_a_refused_built_composition_without_echoing_it() {
    let (_, tools) = built_tools(Box::new(|_, _| Ok(deep_composition(65))));
    let result = call(&tools, "isomer_request_view", json!({"id": "built"})).await;
    assert!(!result.is_error);
    assert_eq!(
        text(&result),
        "{\n  \"valid\": false,\n  \"errors\": [\n    \"input nests deeper than 64 levels\"\n  ],\n  \"warnings\": []\n}"
    );
}

#[tokio::test]
async fn returns_a_built_composition_that_fails_the_schema_with_its_findings() {
    let (_, tools) = built_tools(Box::new(|_, _| {
        Ok(json!({"type": "view", "body": [{"nope": 1, "type": "card", "title": "A"}]}))
    }));
    let result = call(&tools, "isomer_request_view", json!({"id": "built"})).await;
    assert!(!result.is_error);
    assert_eq!(
        parsed(&result),
        json!({"composition": {"type": "view", "body": [{"nope": 1, "type": "card", "title": "A"}]}, "valid": false,
               "errors": ["body[0] (in card) has unrecognized key(s): nope; its fields are title"], "warnings": []})
    );
}

#[tokio::test]
async fn passes_the_host_context_to_the_view() {
    let seen: Arc<Mutex<Option<Value>>> = Arc::default();
    let record = Arc::clone(&seen);
    let (_, tools) = built_tools(Box::new(move |context, _| {
        *record.lock().unwrap() = Some(context.clone());
        Ok(one_card())
    }));
    call(&tools, "isomer_request_view", json!({"id": "built"})).await;
    assert_eq!(*seen.lock().unwrap(), Some(json!({"user": "a"})));
}

#[tokio::test]
async fn returns_a_built_composition_that_breaks_the_frame_rule_not_as_a_failed_call() {
    let (_, tools) = built_tools(Box::new(|_, _| Ok(two_cards())));
    let result = call(&tools, "isomer_request_view", json!({"id": "built"})).await;
    assert!(!result.is_error);
    assert_eq!(parsed(&result)["valid"], false);
    assert_eq!(parsed(&result)["errors"], json!([FRAME_RULE]));
    assert_eq!(parsed(&result)["composition"], two_cards());
}

#[tokio::test]
async fn reports_a_composition_validation_error_from_a_view_as_its_findings() {
    let (_, tools) = built_tools(Box::new(|_, _| {
        Err(ViewRequestError::Findings {
            message: "Invalid Composition:\n  body[0].title is required".to_owned(),
            errors: vec![ValidationError::new("body[0].title", "is required")],
        })
    }));
    let result = call(&tools, "isomer_request_view", json!({"id": "built"})).await;
    assert_eq!(
        text_free(&result),
        json!({"content": [{"type": "text", "text": "{\n  \"error\": \"Invalid Composition:\",\n  \"errors\": [\n    \"body[0].title is required\"\n  ]\n}"}], "isError": true})
    );
}

#[tokio::test]
async fn reports_a_validation_error_with_no_findings_or_any_other_error_as_its_message() {
    let (_, tools) = built_tools(Box::new(|_, _| {
        Err(ViewRequestError::Findings {
            message: "Invalid input".to_owned(),
            errors: vec![],
        })
    }));
    let result = call(&tools, "isomer_request_view", json!({"id": "built"})).await;
    assert_eq!(result, ToolResult::error("Invalid input"));
    let (_, tools) = built_tools(Box::new(|_, _| {
        Err(ViewRequestError::Other("Looks invalid".into()))
    }));
    let result = call(&tools, "isomer_request_view", json!({"id": "built"})).await;
    assert_eq!(result, ToolResult::error("Looks invalid"));
}

#[tokio::test]
async fn bounds_the_length_of_the_view_id() {
    let tools = tools(options(Stub::new().with_view(one_card_view())));
    assert_eq!(
        call(&tools, "isomer_request_view", json!({"id": ""})).await,
        ToolResult::error(
            "the input does not match the input schema of tool \"isomer_request_view\":\n- at id: \"\" is shorter than 1 character"
        )
    );
    let long = call(
        &tools,
        "isomer_request_view",
        json!({"id": "x".repeat(201)}),
    )
    .await;
    assert!(long.first_text().unwrap().starts_with(
        "the input does not match the input schema of tool \"isomer_request_view\":\n- at id: "
    ));
    // The handler checks the same bound for a host that runs it directly.
    let handler = &tool(&tools, "isomer_request_view").handler;
    let refused = |length: usize| {
        ToolResult::error(format!(
            "id must be from 1 to 200 UTF-16 code units long (JavaScript's string length); it is {length}."
        ))
    };
    assert_eq!(handler(json!({"id": ""})).await, refused(0));
    assert_eq!(handler(json!({"id": "x".repeat(201)})).await, refused(201));
    assert_eq!(handler(json!({"id": "😀".repeat(101)})).await, refused(202));
    let accepted = call(
        &tools,
        "isomer_request_view",
        json!({"id": "x".repeat(200)}),
    )
    .await;
    assert_eq!(
        accepted,
        ToolResult::error(format!("Unknown view \"{}\"", "x".repeat(200)))
    );
    let schema = &tool(&tools, "isomer_request_view").input_schema["properties"]["id"];
    assert_eq!(
        (schema["minLength"].clone(), schema["maxLength"].clone()),
        (json!(1), json!(200))
    );
}

#[tokio::test]
async fn reports_an_unknown_view_as_a_failed_call() {
    let tools = tools(options(Stub::new().with_view(one_card_view())));
    let result = call(&tools, "isomer_request_view", json!({"id": "missing"})).await;
    assert_eq!(result, ToolResult::error("Unknown view \"missing\""));
}

// a failing runtime

#[tokio::test]
async fn each_tool_answers_a_runtime_failure_as_a_failed_call() {
    let tools = tools(options(Stub::failing("offline")));
    let offline = json!({"content": [{"type": "text", "text": "offline"}], "isError": true});
    for (name, input) in [
        ("isomer_authoring_guide", json!({})),
        ("isomer_describe_primitives", json!({"types": ["card"]})),
        ("isomer_validate", json!({"composition": one_card()})),
        (
            "isomer_render",
            json!({"composition": one_card(), "format": "text"}),
        ),
    ] {
        assert_eq!(
            text_free(&call(&tools, name, input).await),
            offline,
            "{name}"
        );
    }
}

#[tokio::test]
async fn answers_a_panicking_runtime_as_a_failed_call() {
    let stub = Stub {
        panic: Some("boom"),
        ..Stub::new()
    };
    let tools = tools(options(stub));
    let result = call(
        &tools,
        "isomer_validate",
        json!({"composition": one_card()}),
    )
    .await;
    assert_eq!(
        result,
        ToolResult::error("the tool \"isomer_validate\" panicked: boom")
    );
}

#[tokio::test]
async fn refuses_an_unknown_theme() {
    let tools = tools(options(Stub::new()));
    let input = json!({"composition": one_card(), "format": "html", "theme": "neon"});
    let result = call(&tools, "isomer_render", input.clone()).await;
    assert!(result.first_text().unwrap().starts_with(
        "the input does not match the input schema of tool \"isomer_render\":\n- at theme: "
    ));
    let handler = &tool(&tools, "isomer_render").handler;
    assert_eq!(
        handler(input).await,
        ToolResult::error("theme must be one of: auto, light, dark; got \"neon\".")
    );
}
