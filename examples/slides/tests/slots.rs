//! Every child slot of the pack (`slideFrame.body[]`,
//! `slideSplit.panes[].items[]`, `slideStack.items[]`, `slideTitle.aside`,
//! `slideWindow.body[]`) refuses what does not belong there, at the slot's
//! full path: a nested `slideFrame`, a node of an unknown type, a value that
//! is not a node; and a window refuses a window anywhere below it, as
//! upstream's slides pack has it.

mod common;

use common::{finding, findings, runtime, view};
use serde_json::{Value, json};

const FRAMES_NEVER_NEST: &str = "a slideFrame cannot sit inside another node; frames never nest";

fn source() -> Value {
    json!({ "type": "slideSource", "text": "x" })
}

fn nested_frame() -> Value {
    json!({ "type": "slideFrame", "body": [source()] })
}

/// Each container with `child` put in its slot, and the slot's path.
fn containers(child: Value) -> Vec<(Value, &'static str, &'static str)> {
    vec![
        (
            json!({ "type": "slideFrame", "body": [source(), child.clone()] }),
            "body[0].body[1]",
            "slideFrame",
        ),
        (
            json!({ "type": "slideSplit", "panes": [
                { "items": [source()] },
                { "label": "B", "items": [source(), child.clone()] }
            ] }),
            "body[0].panes[1].items[1]",
            "slideSplit",
        ),
        (
            json!({ "type": "slideStack", "items": [child.clone()] }),
            "body[0].items[0]",
            "slideStack",
        ),
        (
            json!({ "type": "slideTitle", "title": "T", "aside": child.clone() }),
            "body[0].aside",
            "slideTitle",
        ),
        (
            json!({ "type": "slideWindow", "chrome": "browser", "title": "example.com", "body": [child] }),
            "body[0].body[0]",
            "slideWindow",
        ),
    ]
}

#[test]
fn every_slot_refuses_a_nested_frame() {
    for (container, slot, container_type) in containers(nested_frame()) {
        assert_eq!(
            findings(&view(container)),
            [finding(slot, FRAMES_NEVER_NEST, container_type)],
            "{slot}"
        );
    }
}

#[test]
fn every_slot_refuses_an_unknown_type_naming_every_registered_one() {
    let every_type: Vec<&str> = runtime()
        .primitives()
        .iter()
        .map(|p| p.type_name())
        .collect();
    let message = format!("must be one of: {}", every_type.join(", "));
    for (container, slot, _) in containers(json!({ "type": "slideChart", "text": "x" })) {
        assert_eq!(
            findings(&view(container)),
            [(format!("{slot}.type"), message.clone(), None)],
            "{slot}"
        );
    }
}

#[test]
fn every_slot_refuses_a_value_that_is_not_a_node() {
    for (container, slot, container_type) in containers(json!("a slideSource")) {
        assert_eq!(
            findings(&view(container)),
            [finding(
                slot,
                "Invalid input: expected object, received string",
                container_type
            )],
            "{slot}"
        );
    }
}

#[test]
fn every_slot_reports_a_broken_child_at_the_child_path() {
    for (container, slot, _) in containers(json!({ "type": "slideStat", "body": "b", "valu": "1" }))
    {
        assert_eq!(
            findings(&view(container)),
            [finding(
                slot,
                "has unrecognized key(s): valu; its fields are value, unit, body",
                "slideStat"
            )],
            "{slot}"
        );
    }
}

#[test]
fn a_window_refuses_a_window_anywhere_below_it() {
    let inner =
        json!({ "type": "slideWindow", "chrome": "terminal", "title": "sh", "body": [source()] });
    let outer = json!({ "type": "slideWindow", "chrome": "browser", "title": "example.com", "body": [
        source(),
        { "type": "slideSplit", "panes": [{ "items": [source()] }, { "items": [{ "type": "slideStack", "items": [inner] }] }] }
    ] });
    assert_eq!(
        findings(&view(outer)),
        [finding(
            "body[0].body[1].panes[1].items[0].items[0]",
            "a window cannot hold another window",
            "slideWindow"
        )]
    );
}

#[test]
fn two_windows_side_by_side_are_fine() {
    let window = |title: &str| json!({ "type": "slideWindow", "chrome": "chat", "title": title, "body": [source()] });
    let split = json!({ "type": "slideSplit", "panes": [{ "items": [window("a")] }, { "items": [window("b")] }] });
    assert_eq!(
        findings(&view(json!({ "type": "slideFrame", "body": [split] }))),
        []
    );
}
