//! The todo pack's agent tool, `count_open`, as a host calls it.

use isomer_sdk::ToolResult;
use serde_json::json;

#[test]
fn count_open_answers_open_of_total_and_refuses_unknown_keys() {
    let tool = todo_pack::count_open_tool();
    assert_eq!(tool.name, "count_open");
    assert_eq!(tool.title.as_deref(), Some("Count open todos"));
    let call = |input| futures::executor::block_on(tool.call(input));
    let composition = json!({ "type": "view", "body": [
        { "type": "todoList", "title": "Ship 2.1", "items": [
            { "type": "todoItem", "text": "Tag the build", "done": true },
            { "type": "todoItem", "text": "Write the release notes" },
            { "type": "todoItem", "text": "Announce it", "done": false }
        ] }
    ] });
    assert_eq!(
        call(json!({ "composition": composition })),
        ToolResult::text("2 of 3 open")
    );
    // A single task is one todoItem on its own, as the catalog advises; items count
    // wherever they sit (here one more in a nested list). Before, only the items of
    // top-level lists counted, so this answered "1 of 2 open".
    let mixed = json!({ "type": "view", "body": [
        { "type": "todoItem", "text": "Water the plants" },
        { "type": "todoList", "title": "Chores", "items": [
            { "type": "todoItem", "text": "Dishes", "done": true },
            { "type": "todoList", "title": "Garden", "items": [
                { "type": "todoItem", "text": "Mow" }
            ] }
        ] }
    ] });
    assert_eq!(
        call(json!({ "composition": mixed })),
        ToolResult::text("2 of 3 open")
    );
    assert_eq!(
        call(json!({ "composition": { "type": "view" } })),
        ToolResult::error("the composition has no body array")
    );
    let refused = call(json!({ "composition": composition, "extra": 1 }));
    assert!(refused.is_error, "{refused:?}");
}
