//! Byte ceilings on what a model reads from the slides pack's tools
//! (the slides pack's tools/list, guide, and each one-type describe), so a
//! change that grows what an agent reads shows up in review.
//!
//! Sizes are UTF-8 bytes. The tools/list payload is the tools serialized as
//! MCP `tools/list` entries, compact. The fixture is the slides runtime with
//! its frame and one registered view (`one-slide`), so the view tools and the
//! guide's `## Registered views` section are counted. The measured sizes are
//! snapshotted, so any growth shows in review even below a ceiling.

use std::collections::BTreeMap;
use std::sync::Arc;

use isomer_agent_tools::{IsomerToolsOptions, Tool, ToolContent, create_isomer_tools};
use isomer_sdk::View;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// Ceiling of the compact `tools/list` JSON (all six tools), in bytes: the
/// input schemas, plus each tool's annotations and the output schemas of
/// the three tools that answer JSON objects (about 2,500 bytes of the
/// total).
const TOOLS_LIST_CEILING: usize = 6_000;
/// Ceiling of the authoring guide (its index lists the 40 slides
/// primitives), in bytes.
const GUIDE_CEILING: usize = 7_000;
/// Ceiling of any one-type `isomer_describe_primitives` answer, in bytes.
const DESCRIBE_ONE_CEILING: usize = 3_500;

#[derive(Deserialize, JsonSchema)]
struct OneSlideInput {
    title: String,
}

fn tools() -> Vec<Tool> {
    let runtime = isomer_slides::runtime().unwrap();
    runtime
        .views()
        .register(
            View::builder("one-slide", "One slide")
                .answers(["show a slide"])
                .build_with_input(|_: (), input: OneSlideInput| async move {
                    json!({"type": "view", "title": input.title, "body": []})
                }),
        )
        .unwrap();
    let options =
        IsomerToolsOptions::new(Arc::new(runtime)).with_frame(isomer_slides::slide_deck_frame());
    create_isomer_tools(options).unwrap()
}

async fn text_of(tools: &[Tool], name: &str, input: Value) -> String {
    let tool = tools.iter().find(|tool| tool.name == name).unwrap();
    let result = tool.call(input).await;
    assert!(!result.is_error, "{name}: {result:?}");
    match &result.content[0] {
        ToolContent::Text { text } => text.clone(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn holds_what_an_agent_reads_under_byte_ceilings() {
    let tools = tools();
    let tools_list = serde_json::to_string(&json!({ "tools": tools }))
        .unwrap()
        .len();
    let guide = text_of(&tools, "isomer_authoring_guide", json!({}))
        .await
        .len();
    let mut describe: BTreeMap<String, usize> = BTreeMap::new();
    for entry in isomer_slides::runtime().unwrap().catalog() {
        let text = text_of(
            &tools,
            "isomer_describe_primitives",
            json!({"types": [entry.type_name]}),
        )
        .await;
        describe.insert(entry.type_name, text.len());
    }
    assert!(
        tools_list <= TOOLS_LIST_CEILING,
        "tools/list is {tools_list} bytes, over {TOOLS_LIST_CEILING}"
    );
    assert!(
        guide <= GUIDE_CEILING,
        "the guide is {guide} bytes, over {GUIDE_CEILING}"
    );
    for (type_name, size) in &describe {
        assert!(
            *size <= DESCRIBE_ONE_CEILING,
            "describing {type_name} is {size} bytes, over {DESCRIBE_ONE_CEILING}"
        );
    }
    insta::assert_json_snapshot!("slides_tools_list", json!({ "tools": tools }));
    insta::assert_json_snapshot!(
        "slides_sizes",
        json!({ "toolsList": tools_list, "guide": guide, "describeOne": describe })
    );
}
