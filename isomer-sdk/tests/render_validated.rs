//! `Runtime::validated` and `Runtime::render_validated`: validate once,
//! render from the proof, with the same output and findings as `validate`
//! and `render`.

mod common;

use common::{runtime, view};
use isomer_sdk::{ErrorCode, RenderOptions, Rendered, Surface, ValidationError};
use serde_json::{Value, json};

fn deck() -> Value {
    json!({
        "type": "view",
        "title": "Release",
        "subtitle": "Friday",
        "body": [
            { "type": "note", "text": "Deploys are frozen", "tone": "primary" },
            { "type": "group", "title": "Checks", "items": [
                { "type": "note", "text": "Read the runbook", "href": "/runbook" },
                { "type": "note", "text": "Only text", "surfaces": ["text"] }
            ] }
        ]
    })
}

#[test]
fn a_valid_composition_is_borrowed_with_validates_warnings() {
    let rt = runtime();
    let deck = deck();
    let valid = rt.validated(&deck).expect("the deck validates");
    assert!(std::ptr::eq(valid.composition(), &deck));
    let checked = rt.validate(&deck);
    assert!(checked.valid);
    assert_eq!(valid.warnings(), checked.warnings.as_slice());

    let hidden = view(json!([{ "type": "note", "text": "x", "surfaces": ["text"] }]));
    let valid = rt.validated(&hidden).expect("warnings do not invalidate");
    let messages: Vec<&str> = valid
        .warnings()
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "composition renders no nodes on surface \"react\"",
            "composition renders no nodes on surface \"snapshot\"",
            "composition renders no nodes on surface \"markdown\"",
            "composition renders no nodes on surface \"slack\"",
        ]
    );
    assert_eq!(valid.warnings(), rt.validate(&hidden).warnings.as_slice());
}

#[test]
fn an_invalid_composition_gets_validates_errors_and_no_proof() {
    let rt = runtime();
    let duplicated = view(json!([
        { "type": "note", "id": "a", "text": "one" },
        { "type": "note", "id": "a", "text": "two" }
    ]));
    let errors = rt.validated(&duplicated).unwrap_err();
    assert_eq!(
        errors,
        vec![
            ValidationError::new("body[1].id", "duplicates id \"a\" first used at body[0]")
                .with_node_type("note")
        ]
    );
    assert_eq!(errors, rt.validate(&duplicated).errors);

    let missing = view(json!([{ "type": "note" }]));
    assert_eq!(
        rt.validated(&missing).unwrap_err(),
        rt.validate(&missing).errors
    );

    let mut deep_node = json!([]);
    for _ in 0..64 {
        deep_node = json!([deep_node]);
    }
    let deep = view(json!([deep_node]));
    let refused = rt.validated(&deep).unwrap_err();
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].path, "");
    assert_eq!(refused[0].message, "input nests deeper than 64 levels");
    assert_eq!(refused[0].code, Some(ErrorCode::InputOverBudget));
}

#[test]
fn rendering_from_the_proof_equals_render_on_every_surface() {
    let rt = runtime();
    let deck = deck();
    let valid = rt.validated(&deck).unwrap();
    let options = RenderOptions::default();
    for surface in [
        Surface::Text,
        Surface::Markdown,
        Surface::Html,
        Surface::Slack,
    ] {
        assert_eq!(
            rt.render_validated(surface, &valid, &options).unwrap(),
            rt.render(surface, &deck, &options).unwrap(),
            "{surface:?}"
        );
    }
    let Rendered::Text(text) = rt
        .render_validated(Surface::Text, &valid, &options)
        .unwrap()
    else {
        panic!("the text surface renders text");
    };
    assert_eq!(
        text,
        "RELEASE\n\nFriday\n\n● Deploys are frozen\n\nChecks\nRead the runbook\nOnly text"
    );
}

#[test]
fn a_proof_from_another_runtime_is_validated_again() {
    let permissive = runtime();
    let strict = isomer_sdk::Runtime::builder()
        .pack(common::pack())
        .input_budget(isomer_sdk::InputBudget {
            values: 5,
            ..isomer_sdk::InputBudget::default()
        })
        .build()
        .unwrap();
    let deck = deck();
    let valid = permissive.validated(&deck).unwrap();
    let refused = strict
        .render_validated(Surface::Text, &valid, &RenderOptions::default())
        .unwrap_err();
    assert_eq!(refused.errors.len(), 1);
    assert_eq!(refused.errors[0].message, "input holds more than 5 values");
    // A runtime that accepts it renders it as `render` does.
    let twin = runtime();
    assert_eq!(
        twin.render_validated(Surface::Text, &valid, &RenderOptions::default())
            .unwrap(),
        twin.render(Surface::Text, &deck, &RenderOptions::default())
            .unwrap()
    );
}
