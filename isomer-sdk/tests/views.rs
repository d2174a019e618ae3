//! Registered views: summaries, input checks,
//! the host context, validation reported not enforced.

mod common;

use std::sync::Arc;

use isomer_sdk::{ErrorCode, IsomerError, RuntimeBuilder, ValidationError, View};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// The host's context: here, a service name prefix.
struct Host {
    prefix: String,
}

/// The latency view's input.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct LatencyInput {
    /// The service to show.
    #[schemars(length(min = 1))]
    service: String,
    /// How many hours back.
    hours: Option<u32>,
}

fn runtime() -> isomer_sdk::Runtime<Arc<Host>> {
    let latency = View::builder("latency", "Service latency")
        .description("P99 latency of one service")
        .answers(["How slow is checkout?", "Is search fast?"])
        .build_with_input(|host: Arc<Host>, input: LatencyInput| async move {
            json!({ "type": "view", "title": format!("{}{}", host.prefix, input.service),
                    "body": [ { "type": "note", "text": format!("{}h", input.hours.unwrap_or(1)) } ] })
        });
    let broken = View::builder("broken", "Broken").build(|_host: Arc<Host>, _input| async move {
        json!({ "type": "view", "body": [ { "type": "note" } ] })
    });
    RuntimeBuilder::<Arc<Host>>::new()
        .pack(common::pack())
        .view(latency)
        .view(broken)
        .build()
        .unwrap()
}

fn host() -> Arc<Host> {
    Arc::new(Host {
        prefix: "svc:".into(),
    })
}

#[test]
fn list_gives_summaries_with_input_schemas() {
    let rt = runtime();
    let views = rt.list_views();
    assert_eq!(views.len(), 2);
    insta::assert_json_snapshot!("view_summaries", views);
    assert_eq!(views[1].description, "Broken");
    assert_eq!(rt.views().get("latency").unwrap().title, "Service latency");
    assert!(rt.views().get("nope").is_none());
}

#[tokio::test]
async fn request_runs_the_builder_with_the_host_context() {
    let rt = runtime();
    let response = rt
        .request_view(
            "latency",
            host(),
            json!({ "service": "checkout", "hours": 3 }),
        )
        .await
        .unwrap();
    assert_eq!(response.view.id, "latency");
    assert!(response.validation.valid);
    assert_eq!(
        response.composition,
        json!({ "type": "view", "title": "svc:checkout", "body": [ { "type": "note", "text": "3h" } ] })
    );
}

#[tokio::test]
async fn request_reports_validation_without_enforcing_it() {
    let rt = runtime();
    let response = rt.request_view("broken", host(), json!({})).await.unwrap();
    assert!(!response.validation.valid);
    assert_eq!(
        response.validation.errors,
        vec![ValidationError::new("body[0].text", "is required").with_node_type("note")]
    );
}

#[tokio::test]
async fn request_refuses_unknown_views_and_invalid_input() {
    let rt = runtime();
    let error = rt
        .request_view("nope", host(), json!({}))
        .await
        .unwrap_err();
    assert_eq!(error, IsomerError::UnknownView { id: "nope".into() });
    assert_eq!(error.to_string(), "Unknown view \"nope\"");

    let error = rt
        .request_view(
            "latency",
            host(),
            json!({ "service": "", "hours": -1, "extra": true }),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::ViewInputInvalid);
    assert_eq!(
        error.to_string(),
        "Invalid input for view \"latency\":\n  service must not be empty\n  hours must be at least 0\n  has unrecognized key(s): extra"
    );

    let error = rt
        .request_view("latency", host(), json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "Invalid input for view \"latency\":\n  service is required"
    );

    let mut deep = json!(1);
    for _ in 0..70 {
        deep = json!([deep]);
    }
    let error = rt
        .request_view("latency", host(), json!({ "service": deep }))
        .await
        .unwrap_err();
    let IsomerError::ViewInputInvalid { view_id, errors } = error else {
        panic!("expected VIEW_INPUT_INVALID");
    };
    assert_eq!(view_id, "latency");
    assert_eq!(
        errors,
        vec![
            ValidationError::new("", "input nests deeper than 64 levels")
                .with_code(ErrorCode::InputOverBudget)
        ]
    );
}

#[tokio::test]
async fn views_registered_later_are_visible_at_once() {
    let rt = runtime();
    rt.views()
        .register(View::builder("late", "Late").build(|_host: Arc<Host>, input| async move {
            json!({ "type": "view", "body": [ { "type": "note", "text": input["text"].as_str().unwrap_or("none") } ] })
        }))
        .unwrap();
    assert_eq!(rt.authoring_context().views.len(), 3);
    let response = rt
        .request_view("late", host(), json!({ "text": "hi" }))
        .await
        .unwrap();
    assert_eq!(response.composition["body"][0]["text"], "hi");
}
