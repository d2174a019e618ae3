//! Shared fixtures of the slides pack's integration tests.

#![allow(dead_code)]

use std::sync::OnceLock;

use isomer_sdk::{Rendered, Runtime, Surface};
use serde_json::{Value, json};

/// One runtime of the pack and its frame, built once per test binary.
pub fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| isomer_slides::runtime().expect("the slides runtime builds"))
}

/// `{ "type": "view", "body": [node] }`.
pub fn view(node: Value) -> Value {
    json!({ "type": "view", "body": [node] })
}

/// A page-tone slide holding `nodes`, as a one-node composition.
pub fn slide(nodes: Value) -> Value {
    view(json!({ "type": "slideFrame", "body": nodes }))
}

/// The validation findings of `composition` as `(path, message, nodeType)`.
pub fn findings(composition: &Value) -> Vec<(String, String, Option<String>)> {
    runtime()
        .validate(composition)
        .errors
        .into_iter()
        .map(|e| (e.path, e.message, e.node_type))
        .collect()
}

/// One expected finding.
pub fn finding(path: &str, message: &str, node_type: &str) -> (String, String, Option<String>) {
    (
        path.to_owned(),
        message.to_owned(),
        Some(node_type.to_owned()),
    )
}

/// `node` rendered alone on `surface` (`render_node`), as text.
pub fn render_node(surface: Surface, node: &Value) -> String {
    match runtime().render_node(surface, node, None) {
        Ok(rendered) => rendered_text(rendered),
        Err(error) => panic!("{node} does not render: {error:?}"),
    }
}

/// The markup inside an html render's wrapper: what follows
/// `<section …><style>…</style><div>`, without the closing
/// `</div></section>`.
pub fn body_of(html: &str) -> String {
    let start = html
        .find("</style><div>")
        .expect("the wrapper's stylesheet and body")
        + 13;
    html[start..]
        .strip_suffix("</div></section>")
        .expect("the wrapper's end")
        .to_owned()
}

/// `node` rendered alone on the html surface, its wrapper cut off
/// ([`body_of`]): the node's own markup.
pub fn html_body(node: &Value) -> String {
    body_of(&render_node(Surface::Html, node))
}

/// The text of a rendering (text and markdown surfaces).
pub fn rendered_text(rendered: Rendered) -> String {
    rendered.to_text()
}

/// The catalog example of `type_name`.
pub fn example(type_name: &str) -> Value {
    runtime()
        .primitive(type_name)
        .unwrap_or_else(|| panic!("{type_name} is registered"))
        .catalog_entry()
        .example
        .clone()
}
