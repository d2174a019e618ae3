//! The schema's strictness as upstream states it: unknown keys are reported
//! on nodes and on their nested items, an optional field may be absent but
//! not `null`, and authored text is non-empty and at most 10,000 characters.

mod common;

use common::{finding, findings, view};
use serde_json::json;

#[test]
fn unknown_keys_on_a_node_list_its_fields() {
    let node = json!({ "type": "slideHeading", "title": "t", "subtitle": "s" });
    assert_eq!(
        findings(&view(node)),
        [finding(
            "body[0]",
            "has unrecognized key(s): subtitle; its fields are title, lede, size",
            "slideHeading"
        )]
    );
}

#[test]
fn unknown_keys_on_nested_items_are_reported() {
    let node = json!({ "type": "slideList", "items": [{ "body": "b", "note": "n" }] });
    assert_eq!(
        findings(&view(node)),
        [finding(
            "body[0].items[0]",
            "has unrecognized key(s): note",
            "slideList"
        )]
    );
}

#[test]
fn optional_fields_may_be_absent_but_not_null() {
    let node = json!({ "type": "slideHeading", "title": "t", "lede": null });
    assert_eq!(
        findings(&view(node)),
        [finding(
            "body[0].lede",
            "Invalid input: expected string, received null",
            "slideHeading"
        )]
    );
}

#[test]
fn authored_text_is_non_empty_and_bounded() {
    let node = json!({ "type": "slideHeading", "title": "" });
    assert_eq!(
        findings(&view(node)),
        [finding(
            "body[0].title",
            "must not be empty",
            "slideHeading"
        )]
    );
    let node = json!({ "type": "slideHeading", "title": "x".repeat(10_001) });
    assert_eq!(
        findings(&view(node)),
        [finding(
            "body[0].title",
            "must be at most 10000 characters",
            "slideHeading"
        )]
    );
}

#[test]
fn enums_and_array_bounds_use_the_reference_wording() {
    let node = json!({ "type": "slideSplit", "ratio": "wide", "panes": [{ "items": [{ "type": "slideSource", "text": "x" }] }] });
    assert_eq!(
        findings(&view(node)),
        [
            finding("body[0].panes", "must have at least 2 items", "slideSplit"),
            finding(
                "body[0].ratio",
                "must be one of: even, wideLeft, narrowLeft, aside",
                "slideSplit"
            ),
        ]
    );
    // An optional enum lists its values without the `null` schemars adds.
    let node = json!({ "type": "slideHeading", "title": "t", "size": "xl" });
    assert_eq!(
        findings(&view(node)),
        [finding(
            "body[0].size",
            "must be one of: l, m, s",
            "slideHeading"
        )]
    );
    let node = json!({ "type": "slideBulletList", "items": [] });
    assert_eq!(
        findings(&view(node)),
        [finding(
            "body[0].items",
            "must not be empty",
            "slideBulletList"
        )]
    );
}
