//! Byte ceilings on what a model reads from the slides pack's tools
//! (the slides pack's tools/list, guide, and each one-type describe), so a
//! change that grows what an agent reads shows up in review.
//!
//! Sizes are UTF-8 bytes. The tools/list payload is the tools serialized as
//! MCP `tools/list` entries, compact. The fixture is the tools the slides MCP
//! server (`examples/mcp-server`) offers: the slides runtime with its frame,
//! the pack's own guide and rules, and the server's one registered view
//! (`title-slide`), so the guide measured is the one the server ships (the
//! test checks it byte for byte against the server's committed snapshot of
//! `isomer_authoring_guide`). The measured sizes are snapshotted, so any
//! growth shows in review even below a ceiling.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use isomer_agent_tools::{IsomerToolsOptions, Tool, ToolContent, create_isomer_tools};
use isomer_sdk::View;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

/// Ceiling of the compact `tools/list` JSON (all six tools), in bytes: the
/// input schemas, plus each tool's annotations and the output schemas of
/// the three tools that answer JSON objects (about 2,500 bytes of the
/// total).
const TOOLS_LIST_CEILING: usize = 6_000;
/// Ceiling of the authoring guide the slides MCP server ships, in bytes: the
/// pack-neutral guide with the index of the 40 slides primitives and the
/// registered view (about 6,200 bytes, under the former 7,000-byte ceiling),
/// plus the pack's own guide and six rules (about 1,960 bytes). Those two are
/// the prose the recorded slides corpus was answered from (`prompt.txt`
/// holds them): shortening them would make every recording stale, so the
/// ceiling fits them rather than the other way round, with about 300 bytes
/// of room.
const GUIDE_CEILING: usize = 8_500;
/// Ceiling of any one-type `isomer_describe_primitives` answer, in bytes.
const DESCRIBE_ONE_CEILING: usize = 3_500;

/// The input of the server's `title-slide` view (`examples/mcp-server/src/slides.rs`),
/// with the same schema: the guide prints it.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "The text of a deck's title slide.")]
#[allow(dead_code)]
struct TitleSlideInput {
    /// The subject's name, usually one or two words.
    title: String,
    /// One line on what the subject is.
    tagline: Option<String>,
}

/// The pack's rules as the server passes them: one per line, without their
/// `N. ` numbering (the guide prints each as a bullet).
fn slides_rules() -> Vec<String> {
    isomer_slides::AUTHORING_RULES
        .lines()
        .map(|line| {
            line.split_once(". ")
                .filter(|(number, _)| number.chars().all(|c| c.is_ascii_digit()))
                .map_or(line, |(_, rule)| rule)
                .to_owned()
        })
        .collect()
}

fn tools() -> Vec<Tool> {
    let runtime = isomer_slides::runtime().unwrap();
    runtime
        .views()
        .register(
            View::builder("title-slide", "Title slide")
                .description(
                    "The opening slide of a deck: the subject's name and a one-line tagline.",
                )
                .answers(["Open a deck about a subject", "Make a title slide"])
                .build_with_input(|_: (), input: TitleSlideInput| async move {
                    let mut title = Map::new();
                    title.insert("type".to_owned(), json!("slideTitle"));
                    title.insert("title".to_owned(), json!(input.title));
                    json!({
                        "type": "view",
                        "title": input.title,
                        "body": [{ "type": "slideFrame", "tone": "inverse", "body": [Value::Object(title)] }]
                    })
                }),
        )
        .unwrap();
    let options = IsomerToolsOptions::new(Arc::new(runtime))
        .with_frame(isomer_slides::slide_deck_frame())
        .with_heading(false)
        .with_guide(isomer_slides::AUTHORING_GUIDE)
        .with_rules(slides_rules());
    create_isomer_tools(options).unwrap()
}

/// The guide the slides MCP server ships: the body of its committed snapshot
/// (`examples/mcp-server/tests/snapshots/mcp_client__authoring_guide.snap`).
fn shipped_guide() -> String {
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/mcp-server/tests/snapshots/mcp_client__authoring_guide.snap");
    let text = std::fs::read_to_string(&snapshot)
        .unwrap_or_else(|error| panic!("{}: {error}", snapshot.display()));
    // insta writes `---`, the metadata, `---`, then the value and a newline.
    let body = text.splitn(3, "---\n").nth(2).unwrap();
    body.strip_suffix('\n').unwrap_or(body).to_owned()
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
    let guide_text = text_of(&tools, "isomer_authoring_guide", json!({})).await;
    assert!(
        guide_text == shipped_guide(),
        "this fixture's guide is no longer the one the slides MCP server ships (its snapshot \
         mcp_client__authoring_guide): build the fixture as examples/mcp-server/src/slides.rs does"
    );
    let guide = guide_text.len();
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
