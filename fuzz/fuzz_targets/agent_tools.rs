//! Arbitrary JSON input (the bytes as JSON text) to every agent tool's
//! handler, through `Tool::call` (schema check, then the handler), over the
//! slides runtime with its frame and one registered view. The value is
//! also offered as the `composition` of validate/render and as the view's
//! `input`, so it reaches past the input schema.

#![no_main]

use std::sync::{Arc, OnceLock};

use isomer_agent_tools::{IsomerToolsOptions, Tool, create_isomer_tools};
use isomer_sdk::{Runtime, View, clone_deep, parse_json};
use libfuzzer_sys::fuzz_target;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// The input of the `echo` view.
#[derive(Deserialize, JsonSchema)]
struct EchoInput {
    title: String,
}

struct Fixture {
    tools: Vec<Tool>,
    executor: tokio::runtime::Runtime,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let runtime: Runtime = isomer_slides::runtime().expect("the slides runtime builds");
        runtime
            .views()
            .register(
                View::builder("echo", "Echo")
                    .answers(["echo a title"])
                    .build_with_input(|_: (), input: EchoInput| async move {
                        json!({"type": "view", "body": [{"type": "slideFrame", "body": [
                            {"type": "slideStatement", "text": input.title}
                        ]}]})
                    }),
            )
            .expect("the view registers");
        let options = IsomerToolsOptions::new(Arc::new(runtime))
            .with_frame(isomer_slides::slide_deck_frame());
        Fixture {
            tools: create_isomer_tools(options).expect("the tools build"),
            executor: tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("tokio runtime"),
        }
    })
}

/// An object of `entries`, the values moved in: `json!` would serialize an
/// interpolated value again, recursively, which overflows the stack on deep
/// input.
fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(key, value)| (key.to_owned(), value))
            .collect::<Map<String, Value>>(),
    )
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Seeds are recorded model answers, most of them fenced: read the
    // fence's content, as the eval pipeline does.
    let Ok(value) = parse_json(isomer_evals::strip_code_fence(text)) else {
        return;
    };
    let fixture = fixture();
    for tool in &fixture.tools {
        let inputs: Vec<Value> = match tool.name.as_str() {
            "isomer_validate" => vec![object([("composition", clone_deep(&value))])],
            "isomer_render" => ["text", "markdown", "html", "slack"]
                .into_iter()
                .map(|format| {
                    object([
                        ("composition", clone_deep(&value)),
                        ("format", Value::from(format)),
                    ])
                })
                .collect(),
            "isomer_request_view" => vec![object([
                ("id", Value::from("echo")),
                ("input", clone_deep(&value)),
            ])],
            _ => Vec::new(),
        };
        for input in inputs.into_iter().chain([clone_deep(&value)]) {
            let result = fixture.executor.block_on(tool.call(input));
            assert!(!result.content.is_empty(), "{} answered nothing", tool.name);
        }
    }
});
