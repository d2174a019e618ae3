//! The test pack of the runtime tests: a `note` leaf and a `group`
//! container, as the upstream runtime tests use.

#![allow(dead_code)]

use isomer_sdk::surface::escape_mrkdwn;
use isomer_sdk::surface::slack::section;
use isomer_sdk::{
    ChildRef, Html, Inline, Markdown, Node, Pack, Primitive, PrimitiveBuilder, Runtime,
    sanitize_navigation_href,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// How a note is coloured.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Tone {
    /// No emphasis.
    Neutral,
    /// Yours.
    Primary,
}

/// A short note.
#[derive(Deserialize, JsonSchema)]
pub struct Note {
    /// The note's text.
    #[schemars(length(min = 1, max = 200))]
    pub text: String,
    /// The note's colour.
    pub tone: Option<Tone>,
    /// Where the note links to.
    pub href: Option<String>,
}

/// How a group lays out its items.
#[derive(Deserialize, JsonSchema)]
pub struct Layout {
    /// Columns, 1 to 4.
    #[schemars(range(min = 1, max = 4))]
    pub columns: u8,
}

/// A titled group of nodes.
#[derive(Deserialize, JsonSchema)]
pub struct Group {
    /// The group's title.
    #[schemars(extend("errorMessage" = "is required"), length(min = 1))]
    pub title: String,
    /// The nodes in the group.
    #[schemars(length(min = 1, max = 3))]
    pub items: Vec<Node>,
    /// The layout.
    pub layout: Option<Layout>,
}

pub const URL_MESSAGE: &str = "must be an https, http, or mailto URL, or a relative path";

pub fn note() -> Primitive {
    Primitive::builder::<Note>("note")
        .purpose("A short note.")
        .use_when(["the answer is one sentence"])
        .avoid_when(["the answer groups several points: use group"])
        .example(json!({ "type": "note", "text": "Deploys are frozen." }))
        .examples([json!({ "type": "note", "text": "Read the runbook.", "tone": "primary", "href": "https://example.test/runbook" })])
        .group("Text")
        .refine(|node: &Note, ctx| {
            if let Some(href) = &node.href
                && sanitize_navigation_href(href).is_none()
            {
                ctx.error("href", URL_MESSAGE);
            }
        })
        .sanitize(|mut node: Note| {
            node.href = node.href.and_then(|href| sanitize_navigation_href(&href));
            Some(node)
        })
        .text(|node, _| match node.tone {
            Some(Tone::Primary) => format!("● {}", node.text),
            _ => node.text.clone(),
        })
        .markdown(|node, _| match &node.href {
            Some(href) => Markdown::paragraph(Inline::link(node.text.as_str(), href)),
            None => Markdown::paragraph(node.text.as_str()),
        })
        .html(|node, _| Html::element("p", &[("class", "note")], Html::text(&node.text)))
        .slack(|node, _| vec![section(&escape_mrkdwn(&node.text))])
        .build()
        .expect("note is a valid primitive")
}

pub fn group() -> Primitive {
    group_builder().build().expect("group is a valid primitive")
}

/// The group primitive before `build` (tests add hooks to it).
pub fn group_builder() -> PrimitiveBuilder<Group> {
    Primitive::builder::<Group>("group")
        .purpose("Groups nodes under a title.")
        .use_when(["several points belong together"])
        .example(json!({ "type": "group", "title": "Status", "items": [ { "type": "note", "text": "All green." } ] }))
        .group("Layout")
        .refine(|_: &Group, ctx| {
            let nested: Vec<String> = ctx
                .descendants()
                .into_iter()
                .filter(|child| child.node.get("type").and_then(Value::as_str) == Some("group"))
                .map(|child| child.path)
                .collect();
            for path in nested {
                ctx.error(path, "a group cannot sit inside another group");
            }
        })
        .text(|node, scope| {
            let items = scope.text_all(node.items.iter().map(|item| &**item), "\n");
            [node.title.clone(), items]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .markdown(|node, scope| {
            Markdown::heading(2, node.title.as_str())
                .then(scope.markdown_all(node.items.iter().map(|item| &**item)))
        })
}

pub fn pack() -> Pack {
    Pack::new("test")
        .primitive(note())
        .primitive(group())
        .describe("group", "A titled group; groups never nest.")
        .build()
        .expect("the test pack is valid")
}

pub fn runtime() -> Runtime {
    Runtime::builder()
        .pack(pack())
        .build()
        .expect("the test runtime builds")
}

/// The test runtime plus a pack holding `builder`'s primitive, which draws
/// nothing on the text and Markdown surfaces (for tests that read only what
/// validation finds).
pub fn runtime_with<T>(builder: PrimitiveBuilder<T>) -> Runtime
where
    T: serde::de::DeserializeOwned + JsonSchema + 'static,
{
    let primitive = builder
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .expect("the extra primitive builds");
    let extra = Pack::new("extra")
        .primitive(primitive)
        .build()
        .expect("the extra pack builds");
    Runtime::builder()
        .pack(pack())
        .pack(extra)
        .build()
        .expect("the runtime with the extra pack builds")
}

/// A child hook: the objects of the node's `items` array, in order, at
/// `items[<index>]`; nothing when `items` is missing or not an array.
pub fn object_items(node: &Value) -> Vec<ChildRef<'_>> {
    let Some(items) = node.get("items").and_then(Value::as_array) else {
        return Vec::new();
    };
    items
        .iter()
        .enumerate()
        .filter(|(_, item)| item.is_object())
        .map(|(index, item)| ChildRef {
            node: item,
            path: format!("items[{index}]"),
        })
        .collect()
}

/// The test pack with the group's children given by an explicit hook equal to its
/// schema slots (only its object items, in order): validation then walks through the
/// hooks instead of reusing the schema pass's visits.
pub fn hooked_runtime() -> Runtime {
    let group = group_builder()
        .children(object_items)
        .build()
        .expect("the hooked group builds");
    let pack = Pack::new("test")
        .primitive(note())
        .primitive(group)
        .build()
        .expect("the hooked pack builds");
    Runtime::builder()
        .pack(pack)
        .build()
        .expect("the hooked runtime builds")
}

/// `{ "type": "view", "body": [nodes…] }`.
pub fn view(body: Value) -> Value {
    json!({ "type": "view", "body": body })
}
