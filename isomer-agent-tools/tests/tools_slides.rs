//! Upstream's tool, resource and `check_composition` tests (`tools.test.ts`,
//! `resources.test.ts`), against the real slides runtime (the
//! `isomer-slides` pack, its `slideDeckFrame` frame and one registered view, `one-slide`).

use std::sync::Arc;

use isomer_agent_tools::{
    ISOMER_TOOL_NAMES, IsomerGuideOptions, IsomerToolsOptions, Tool, ToolContent, ToolResult,
    check_composition, create_isomer_prompts, create_isomer_resources, create_isomer_tools,
};
use isomer_sdk::{ErrorCode, Runtime, RuntimeBuilder, ValidationError, View};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

const FRAME_RULE: &str = "a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec";
const TOO_DEEP: &str = "input nests deeper than 64 levels";

/// The input of the `one-slide` view.
#[derive(Deserialize, JsonSchema)]
struct OneSlideInput {
    title: String,
}

/// The first example of `slideFrame`.
fn slide() -> Value {
    let runtime = isomer_slides::runtime().unwrap();
    runtime.primitive("slideFrame").unwrap().examples()[0].clone()
}

fn one_slide() -> Value {
    json!({"type": "view", "body": [slide()]})
}

fn two_slides() -> Value {
    json!({"type": "view", "body": [slide(), slide()]})
}

fn runtime_with_view() -> Arc<Runtime> {
    let runtime = isomer_slides::runtime().unwrap();
    runtime
        .views()
        .register(
            View::builder("one-slide", "One slide")
                .answers(["show a slide"])
                .build_with_input(|_: (), input: OneSlideInput| async move {
                    let mut slide = slide();
                    slide["brand"] = json!(input.title);
                    json!({"type": "view", "body": [slide]})
                }),
        )
        .unwrap();
    Arc::new(runtime)
}

fn slides_tools() -> Vec<Tool> {
    let options =
        IsomerToolsOptions::new(runtime_with_view()).with_frame(isomer_slides::slide_deck_frame());
    create_isomer_tools(options).unwrap()
}

fn tool<'a>(tools: &'a [Tool], name: &str) -> &'a Tool {
    tools.iter().find(|tool| tool.name == name).unwrap()
}

async fn call(tools: &[Tool], name: &str, input: Value) -> ToolResult {
    tool(tools, name).call(input).await
}

fn text(result: &ToolResult) -> &str {
    assert_eq!(result.content.len(), 1);
    match &result.content[0] {
        ToolContent::Text { text } => text,
        other => panic!("not text: {other:?}"),
    }
}

fn parsed(result: &ToolResult) -> Value {
    serde_json::from_str(text(result)).unwrap()
}

fn nested(depth: usize) -> Value {
    let mut value = json!([]);
    for _ in 1..depth {
        value = Value::Array(vec![value]);
    }
    value
}

fn slide_types() -> Vec<String> {
    isomer_slides::runtime()
        .unwrap()
        .catalog()
        .into_iter()
        .map(|entry| entry.type_name)
        .collect()
}

#[test]
fn offers_every_tool_in_order_and_omits_the_view_tools_without_views() {
    let names: Vec<String> = slides_tools().into_iter().map(|tool| tool.name).collect();
    assert_eq!(names, ISOMER_TOOL_NAMES.all());
    let plain = create_isomer_tools(IsomerToolsOptions::new(Arc::new(
        isomer_slides::runtime().unwrap(),
    )))
    .unwrap();
    let names: Vec<String> = plain.into_iter().map(|tool| tool.name).collect();
    assert_eq!(names, ISOMER_TOOL_NAMES.all()[..4]);
}

#[tokio::test]
async fn indexes_every_slides_primitive_once_with_views_and_no_schema() {
    let tools = slides_tools();
    let result = call(&tools, "isomer_authoring_guide", json!({})).await;
    assert!(!result.is_error);
    let guide = text(&result);
    let types = slide_types();
    assert_eq!(types.len(), 40);
    for type_name in &types {
        assert_eq!(
            guide.split(&format!("- `{type_name}` — ")).count(),
            2,
            "{type_name} indexed once"
        );
    }
    assert!(guide.contains("`one-slide`"));
    assert!(guide.contains("isomer_describe_primitives"));
    assert!(!guide.contains("## JSON Schema"));
    assert!(!guide.contains("Use when:"));
    // Upstream's older regression guard: the index stays readable whole.
    assert!(guide.encode_utf16().count() < 15_000, "{}", guide.len());
}

#[tokio::test]
async fn describes_slide_primitives_with_a_schema_whose_refs_resolve() {
    let tools = slides_tools();
    for pair in [
        ["slideFrame", "slideStack"],
        ["slideFrame", "slideTimeline"],
    ] {
        let result = call(
            &tools,
            "isomer_describe_primitives",
            json!({ "types": pair }),
        )
        .await;
        assert!(!result.is_error);
        let described = text(&result);
        for type_name in pair {
            assert!(described.contains(&format!("- `{type_name}` — ")));
        }
        assert!(described.contains("Use when:"));
        let fenced = described
            .split("```json\n")
            .nth(1)
            .unwrap()
            .split("\n```")
            .next()
            .unwrap();
        assert!(!fenced.contains('\n'), "compact");
        let schema: Value = serde_json::from_str(fenced).unwrap();
        let defs = schema["$defs"].as_object().unwrap();
        for key in [pair[0], pair[1], "bodyNode"] {
            assert!(defs.contains_key(key), "{key}");
        }
        for reference in fenced.split("\"#/$defs/").skip(1) {
            let id = reference.split('"').next().unwrap();
            assert!(defs.contains_key(id), "{id} resolves");
        }
    }
}

#[tokio::test]
async fn names_unknown_slide_types_as_json() {
    let tools = slides_tools();
    let result = call(
        &tools,
        "isomer_describe_primitives",
        json!({"types": ["slideFrame", "a\n## Injected"]}),
    )
    .await;
    assert!(result.is_error);
    let answer = parsed(&result);
    assert_eq!(answer["error"], "Unknown primitive types.");
    assert_eq!(answer["unknown"], json!(["a\n## Injected"]));
    assert_eq!(answer["known"], json!(slide_types()));
    assert!(!text(&result).contains("\n## Injected"));
}

#[tokio::test]
async fn validates_slides_with_the_frame_rule() {
    let tools = slides_tools();
    let single = call(
        &tools,
        "isomer_validate",
        json!({"composition": one_slide()}),
    )
    .await;
    assert_eq!(
        parsed(&single),
        json!({"valid": true, "errors": [], "warnings": []})
    );
    let two = call(
        &tools,
        "isomer_validate",
        json!({"composition": two_slides()}),
    )
    .await;
    assert!(!two.is_error);
    assert_eq!(
        parsed(&two),
        json!({"valid": false, "errors": [FRAME_RULE], "warnings": []})
    );
    let mut extra = slide();
    extra["nope"] = json!(1);
    let nested_error = call(
        &tools,
        "isomer_validate",
        json!({"composition": {"type": "view", "body": [extra]}}),
    )
    .await;
    let errors = parsed(&nested_error)["errors"].clone();
    assert_eq!(errors.as_array().unwrap().len(), 1);
    assert!(
        errors[0]
            .as_str()
            .unwrap()
            .starts_with("body[0] (in slideFrame) has unrecognized key(s): nope; its fields are ")
    );
    let plain = create_isomer_tools(IsomerToolsOptions::new(Arc::new(
        isomer_slides::runtime().unwrap(),
    )))
    .unwrap();
    let no_frame = call(
        &plain,
        "isomer_validate",
        json!({"composition": two_slides()}),
    )
    .await;
    assert_eq!(parsed(&no_frame)["valid"], true);
}

#[tokio::test]
async fn parses_at_the_depth_limit_and_refuses_past_it() {
    let tools = slides_tools();
    let deep = |levels: usize| json!({"type": "view", "body": [{"type": "slideStack", "items": [nested(levels - 4)]}]});
    let at_limit = call(&tools, "isomer_validate", json!({"composition": deep(64)})).await;
    assert!(!text(&at_limit).contains(TOO_DEEP));
    let past = call(&tools, "isomer_validate", json!({"composition": deep(65)})).await;
    assert!(!past.is_error);
    assert_eq!(
        parsed(&past),
        json!({"valid": false, "errors": [TOO_DEEP], "warnings": []})
    );
}

#[tokio::test]
async fn renders_slides_in_every_runtime_format_with_and_without_heading() {
    let tools = slides_tools();
    let headless = create_isomer_tools(
        IsomerToolsOptions::new(runtime_with_view())
            .with_frame(isomer_slides::slide_deck_frame())
            .with_heading(false),
    )
    .unwrap();
    let mut composition = one_slide();
    composition["title"] = json!("Envelope title");
    for format in ["text", "markdown", "html", "slack"] {
        let input = json!({"composition": composition, "format": format});
        let shown = call(&tools, "isomer_render", input.clone()).await;
        assert!(!shown.is_error, "{format}");
        assert!(
            text(&shown).to_lowercase().contains("envelope title"),
            "{format}"
        );
        let hidden = call(&headless, "isomer_render", input).await;
        let mut hidden_text = text(&hidden).to_owned();
        while let Some(start) = hidden_text.find("aria-label=\"") {
            let end = hidden_text[start + 12..].find('"').unwrap() + start + 13;
            hidden_text.replace_range(start..end, "");
        }
        assert!(
            !hidden_text.to_lowercase().contains("envelope title"),
            "{format}"
        );
    }
}

#[tokio::test]
async fn renders_html_with_the_theme_over_the_compositions_own() {
    let tools = slides_tools();
    let mut composition = one_slide();
    composition["theme"] = json!("dark");
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
    assert!(text(&light).contains("<style>"));
}

#[tokio::test]
async fn returns_invalid_and_over_budget_slides_as_failed_calls() {
    let tools = slides_tools();
    let invalid = call(
        &tools,
        "isomer_render",
        json!({"composition": two_slides(), "format": "text"}),
    )
    .await;
    assert!(invalid.is_error);
    assert_eq!(
        parsed(&invalid),
        json!({"valid": false, "errors": [FRAME_RULE]})
    );
    let mut huge = one_slide();
    huge["title"] = json!("x".repeat(1_000_000));
    let over = call(
        &tools,
        "isomer_render",
        json!({"composition": huge, "format": "text"}),
    )
    .await;
    assert!(over.is_error);
    assert_eq!(
        parsed(&over),
        json!({"valid": false, "errors": ["input holds more than 1000000 characters"]})
    );
}

#[tokio::test]
async fn lists_and_requests_the_registered_view() {
    let tools = slides_tools();
    let listed = parsed(&call(&tools, "isomer_list_views", json!({})).await);
    let ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|view| view["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["one-slide"]);
    let requested = call(
        &tools,
        "isomer_request_view",
        json!({"id": "one-slide", "input": {"title": "Hello"}}),
    )
    .await;
    assert!(!requested.is_error);
    let answer = parsed(&requested);
    assert_eq!(answer["valid"], true);
    assert_eq!(answer["composition"]["type"], "view");
    assert_eq!(answer["composition"]["body"][0]["brand"], "Hello");
    let invalid = call(
        &tools,
        "isomer_request_view",
        json!({"id": "one-slide", "input": {}}),
    )
    .await;
    assert!(invalid.is_error);
    let answer = parsed(&invalid);
    assert_eq!(answer["error"], "Invalid input for view \"one-slide\":");
    assert_eq!(answer["errors"].as_array().unwrap().len(), 1);
    assert!(answer["errors"][0].as_str().unwrap().contains("title"));
    let refused = call(
        &tools,
        "isomer_request_view",
        json!({"id": "one-slide", "input": {"title": nested(64)}}),
    )
    .await;
    assert_eq!(
        parsed(&refused),
        json!({"error": "Invalid input for view \"one-slide\":", "errors": [TOO_DEEP]})
    );
    let unknown = call(&tools, "isomer_request_view", json!({"id": "missing"})).await;
    assert!(unknown.is_error);
    assert!(text(&unknown).contains("missing"));
}

#[test]
fn checks_a_slide_with_structured_findings() {
    let runtime = isomer_slides::runtime().unwrap();
    let frame = isomer_slides::slide_deck_frame();
    let mut extra = slide();
    extra["nope"] = json!(1);
    let check = check_composition(
        &runtime,
        Some(&frame),
        json!({"type": "view", "body": [extra]}),
    )
    .unwrap();
    assert!(!check.valid);
    assert_eq!(check.findings.len(), 1);
    assert_eq!(check.findings[0].path, "body[0]");
    assert_eq!(check.findings[0].node_type.as_deref(), Some("slideFrame"));
    assert_eq!(
        check.errors,
        [isomer_sdk::format_validation_error(&check.findings[0])]
    );
    let framed = check_composition(&runtime, Some(&frame), two_slides()).unwrap();
    assert_eq!(framed.findings, [ValidationError::new("", FRAME_RULE)]);
    let deep = json!({"type": "view", "body": [nested(63)]});
    let refused = check_composition(&runtime, Some(&frame), &deep).unwrap();
    assert_eq!(refused.findings[0].code, Some(ErrorCode::InputOverBudget));
    assert_eq!(refused.composition, None);
    let valid = check_composition(&runtime, Some(&frame), one_slide()).unwrap();
    assert!(valid.valid);
    assert_eq!(valid.composition, runtime.validate(one_slide()).composition);
}

#[test]
fn serves_the_slides_guide_and_schema_and_the_compose_prompt() {
    let options = IsomerGuideOptions::new(Arc::new(isomer_slides::runtime().unwrap()));
    let resources = create_isomer_resources(options.clone());
    let guide = resources[0].read().unwrap();
    assert!(guide.contains("## Primitive catalog"));
    assert!(!guide.contains("## JSON Schema"));
    let schema: Value = serde_json::from_str(&resources[1].read().unwrap()).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    for key in ["bodyNode", "slideFrame", "slideStack", "slideTimeline"] {
        assert!(defs.contains_key(key), "{key}");
    }
    let prompts = create_isomer_prompts(options);
    let mut request = Map::new();
    request.insert("request".to_owned(), json!("Summarize the launch."));
    let prompt = prompts[0].build(&request).unwrap();
    assert!(prompt.starts_with(&guide));
    assert!(prompt.ends_with("## Request\n\nSummarize the launch."));
}

/// A host context with no default: the tools can only be built with one.
#[derive(Clone)]
struct Caller {
    user: String,
}

#[tokio::test]
async fn hands_the_host_context_to_a_real_view() {
    let runtime = RuntimeBuilder::<Caller>::new()
        .pack(isomer_slides::pack().unwrap())
        .frame(isomer_slides::slide_deck_frame())
        .view(View::builder("whoami", "Who am I").build(
            |caller: Caller, _input: Value| async move {
                let mut slide = slide();
                slide["brand"] = json!(caller.user);
                json!({"type": "view", "body": [slide]})
            },
        ))
        .build()
        .unwrap();
    let options = IsomerToolsOptions::with_host_context(
        Arc::new(runtime),
        Caller {
            user: "ada".to_owned(),
        },
    )
    .with_frame(isomer_slides::slide_deck_frame());
    let tools = create_isomer_tools(options).unwrap();
    let answer = parsed(&call(&tools, "isomer_request_view", json!({"id": "whoami"})).await);
    assert_eq!(answer["valid"], true);
    assert_eq!(answer["composition"]["body"][0]["brand"], "ada");
}

/// `{ "composition": { "type": "view", "body": [<depth-deep arrays>] }, ...extra }`, built
/// without `json!` (which would serialize the deep value recursively).
fn deep_input(depth: usize, extra: &[(&str, Value)]) -> Value {
    let mut composition = Map::new();
    composition.insert("type".to_owned(), json!("view"));
    composition.insert("body".to_owned(), Value::Array(vec![nested(depth)]));
    let mut input = Map::new();
    input.insert("composition".to_owned(), Value::Object(composition));
    for (key, value) in extra {
        input.insert((*key).to_owned(), value.clone());
    }
    Value::Object(input)
}

/// A model's composition nested 200,000 deep is refused by the budget and then dropped
/// without recursion on every path (it overflowed the 2 MiB test thread before), on
/// libtest's own thread.
#[test]
fn a_composition_far_past_the_depth_budget_is_refused_and_dropped_flat() {
    let tools = slides_tools();
    let answer =
        |name: &str, input: Value| futures::executor::block_on(tool(&tools, name).call(input));
    assert_eq!(
        answer("isomer_validate", deep_input(200_000, &[])),
        ToolResult::json(&json!({"valid": false, "errors": [TOO_DEEP], "warnings": []}))
    );
    assert_eq!(
        answer(
            "isomer_render",
            deep_input(200_000, &[("format", json!("text"))])
        ),
        ToolResult::json_error(&json!({"valid": false, "errors": [TOO_DEEP]}))
    );
    // A handler run directly returns early on a theme the schema would refuse; the deep
    // composition is dropped flat on that path too.
    let handler = &tool(&tools, "isomer_render").handler;
    assert_eq!(
        futures::executor::block_on(handler(deep_input(
            200_000,
            &[("format", json!("text")), ("theme", json!("neon"))]
        ))),
        ToolResult::error("theme must be one of: auto, light, dark; got \"neon\".")
    );
}

/// A view that builds a composition nested 200,000 deep gets the budget's refusal, without
/// the composition echoed, and its value is dropped without recursion.
#[test]
fn a_view_built_far_past_the_depth_budget_is_refused_and_dropped_flat() {
    let runtime = isomer_slides::runtime().unwrap();
    runtime
        .views()
        .register(View::builder("deep", "Deep").build(|_: (), _| async {
            let mut composition = Map::new();
            composition.insert("type".to_owned(), json!("view"));
            composition.insert("body".to_owned(), Value::Array(vec![nested(200_000)]));
            Value::Object(composition)
        }))
        .unwrap();
    let tools = create_isomer_tools(IsomerToolsOptions::new(Arc::new(runtime))).unwrap();
    let answer = futures::executor::block_on(
        tool(&tools, "isomer_request_view").call(json!({"id": "deep"})),
    );
    assert_eq!(
        answer,
        ToolResult::json(&json!({"valid": false, "errors": [TOO_DEEP], "warnings": []}))
    );
}
