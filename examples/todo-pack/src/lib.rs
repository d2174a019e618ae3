//! A pack of your own in five minutes: the todo pack.
//!
//! Two primitives, the smallest useful pack: `todoList`, a container whose child hook is
//! its `items` slot, and `todoItem`, a leaf. [`runtime`] assembles them; the eval gate in
//! `tests/todo_eval.rs` replays the three-case corpus in `corpus/` against it, and
//! [`count_open_tool`] is an agent tool declared with `#[isomer_tool]`.
//!
//! ```
//! let runtime = todo_pack::runtime().unwrap();
//! let list = serde_json::json!({ "type": "view", "body": [
//!     { "type": "todoList", "title": "Release", "items": [
//!         { "type": "todoItem", "text": "Tag the build", "done": true },
//!         { "type": "todoItem", "text": "Write the notes" }
//!     ] }
//! ] });
//! assert!(runtime.validate(&list).valid);
//! assert_eq!(runtime.render_text(&list, &Default::default()).unwrap(), "Release\n[x] Tag the build\n[ ] Write the notes");
//! ```

#![forbid(unsafe_code)]

use isomer_agent_tools::isomer_tool;
use isomer_sdk::{IsomerError, Markdown, Node, Pack, Primitive, Runtime};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// One thing to do (the `todoItem` leaf).
#[derive(Deserialize, JsonSchema)]
pub struct TodoItem {
    /// What to do, one line.
    #[schemars(length(min = 1, max = 120))]
    pub text: String,
    /// Whether it is done (default: not done).
    pub done: Option<bool>,
}

impl TodoItem {
    /// `[x]` when done, `[ ]` otherwise, as the text, Markdown and html surfaces print it.
    pub fn mark(&self) -> &'static str {
        if self.done == Some(true) {
            "[x]"
        } else {
            "[ ]"
        }
    }
}

/// A titled list of todo items (the `todoList` container).
#[derive(Deserialize, JsonSchema)]
pub struct TodoList {
    /// The list's title.
    #[schemars(length(min = 1, max = 80))]
    pub title: String,
    /// The items, in order: `todoItem` nodes.
    #[schemars(length(min = 1, max = 20))]
    pub items: Vec<Node>,
}

/// The `todoItem` primitive: purpose, when to use it, an example, and its surfaces.
pub fn todo_item() -> Primitive {
    Primitive::builder::<TodoItem>("todoItem")
        .purpose("One thing to do, done or not.")
        .use_when(["a single task, inside a todoList"])
        .avoid_when(["several tasks: put each in the items of a todoList"])
        .example(json!({ "type": "todoItem", "text": "Book the room", "done": false }))
        .text(|item, _| format!("{} {}", item.mark(), item.text))
        // One list entry; the items of a todoList make one Markdown list, and the html
        // surface draws that list from this Markdown.
        .markdown(|item, _| Markdown::bullet_list([format!("{} {}", item.mark(), item.text)]))
        .build()
        .expect("todoItem is a valid primitive")
}

/// The `todoList` primitive: a container whose children are its `items`.
pub fn todo_list() -> Primitive {
    Primitive::builder::<TodoList>("todoList")
        .purpose("A titled checklist of todoItem nodes.")
        .use_when(["the request lists tasks, steps or chores to tick off"])
        .avoid_when(["a single task: one todoItem is enough"])
        .example(json!({ "type": "todoList", "title": "Move-out", "items": [
            { "type": "todoItem", "text": "Return the keys" }
        ] }))
        .text(|list, scope| {
            let items = scope.text_all(list.items.iter().map(|item| &**item), "\n");
            format!("{}\n{items}", list.title)
        })
        .markdown(|list, scope| {
            Markdown::heading(2, list.title.as_str())
                .then(scope.markdown_all(list.items.iter().map(|item| &**item)))
        })
        .build()
        .expect("todoList is a valid primitive")
}

/// The todo pack: `todoList` and `todoItem`.
pub fn pack() -> Pack {
    Pack::new("todo")
        .primitive(todo_list())
        .primitive(todo_item())
        .build()
        .expect("the todo pack is valid")
}

/// A runtime over the todo pack alone.
///
/// # Errors
/// What [`Runtime::builder`] refuses (nothing, for this pack).
pub fn runtime() -> Result<Runtime, IsomerError> {
    Runtime::builder().pack(pack()).build()
}

/// The input of [`count_open`].
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountOpenInput {
    /// A composition holding `todoList` nodes.
    pub composition: Value,
}

/// Counts the todo items of a composition that are not done yet.
///
/// Answers `open of total`, counting every `todoItem` of the body: one on its own (the
/// catalog's answer to a single task) and one in the `items` of a `todoList`, at any
/// depth.
#[isomer_tool(title = "Count open todos", annotations(read_only_hint = true))]
pub fn count_open(input: CountOpenInput) -> Result<String, String> {
    let body = input
        .composition
        .get("body")
        .and_then(Value::as_array)
        .ok_or("the composition has no body array")?;
    let mut pending: Vec<&Value> = body.iter().collect();
    let (mut open, mut total) = (0, 0);
    while let Some(node) = pending.pop() {
        match node.get("type").and_then(Value::as_str) {
            Some("todoItem") => {
                total += 1;
                if node.get("done").and_then(Value::as_bool) != Some(true) {
                    open += 1;
                }
            }
            Some("todoList") => {
                pending.extend(
                    node.get("items")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten(),
                );
            }
            _ => {}
        }
    }
    Ok(format!("{open} of {total} open"))
}
