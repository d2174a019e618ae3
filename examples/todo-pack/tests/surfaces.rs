//! The todo pack on the Markdown and html surfaces: a todoList is its title as a heading, then
//! each item as a list entry with its done mark (`[x]` or `[ ]`), escaped as text; a
//! todoItem outside a list is the same entry. Before, an item was a paragraph holding
//! `- [ ] …`: escaped Markdown that no viewer shows as a list, and html with the done
//! mark dropped and a bare `<li>` outside any list.

use serde_json::json;

fn composition() -> serde_json::Value {
    json!({ "type": "view", "body": [
        { "type": "todoList", "title": "Release", "items": [
            { "type": "todoItem", "text": "Tag the build", "done": true },
            { "type": "todoItem", "text": "Write the notes" }
        ] },
        { "type": "todoItem", "text": "Water the plants" }
    ] })
}

#[test]
fn markdown_lists_the_items_with_their_marks() {
    let runtime = todo_pack::runtime().unwrap();
    assert_eq!(
        runtime
            .render_markdown(&composition(), &Default::default())
            .unwrap(),
        "## Release\n\n- \\[x\\] Tag the build\n\n- \\[ \\] Write the notes\n\n- \\[ \\] Water the plants"
    );
}

#[test]
fn html_draws_the_items_as_list_entries() {
    let runtime = todo_pack::runtime().unwrap();
    let render = runtime
        .render_html(&composition(), &Default::default())
        .unwrap();
    assert_eq!(
        render.html_without_style(),
        "<section class=\"isomer framed\" role=\"group\" aria-label=\"View\"><div><h2>Release</h2><ul><li>[x] Tag the build</li></ul><ul><li>[ ] Write the notes</li></ul><ul><li>[ ] Water the plants</li></ul></div></section>"
    );
}
