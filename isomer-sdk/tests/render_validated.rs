//! `Runtime::validated` and `Runtime::render_validated`: validate once,
//! render from the proof, with the same output and findings as `validate`
//! and `render`.

mod common;

use common::{runtime, view};
use isomer_sdk::validate::ParsedValidation;
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

/// `parse_validated` against `parse` then `validate` of the copy.
fn assert_parse_then_validate(rt: &isomer_sdk::Runtime, value: &Value) -> ParsedValidation {
    let outcome = rt.parse_validated(value);
    let parsed = rt.parse(value);
    match &outcome {
        ParsedValidation::Refused(errors) => {
            assert!(!parsed.valid);
            assert_eq!(errors, &parsed.errors);
        }
        ParsedValidation::Invalid {
            composition,
            errors,
        } => {
            assert_eq!(Some(composition), parsed.composition.as_ref());
            let checked = rt.validate(composition);
            assert!(!checked.valid);
            assert_eq!(errors, &checked.errors);
        }
        ParsedValidation::Valid(valid) => {
            assert_eq!(Some(valid.composition()), parsed.composition.as_ref());
            let checked = rt.validate(valid.composition());
            assert!(checked.valid);
            assert_eq!(valid.warnings(), checked.warnings.as_slice());
        }
    }
    outcome
}

#[test]
fn parse_validated_gives_what_parse_then_validate_give() {
    let rt = runtime();
    // Valid, nothing to drop.
    let ParsedValidation::Valid(valid) = assert_parse_then_validate(&rt, &deck()) else {
        panic!("the deck parses and validates");
    };
    assert_eq!(valid.composition(), &deck());
    assert_eq!(valid.clone().into_composition(), deck());
    assert_eq!(
        rt.render_validated(Surface::Text, &valid.as_valid(), &RenderOptions::default())
            .unwrap(),
        rt.render(Surface::Text, &deck(), &RenderOptions::default())
            .unwrap()
    );

    // Valid after dropping unknown keys of ordinary nested objects.
    let loose = json!({
        "type": "view",
        "body": [ { "type": "group", "title": "t", "items": [ { "type": "note", "text": "x" } ], "layout": { "columns": 2, "gap": 4 } } ],
        "meta": { "source": "s", "color": "red", "provenance": { "query": "q", "extra": 1 } }
    });
    let ParsedValidation::Valid(valid) = assert_parse_then_validate(&rt, &loose) else {
        panic!("the loose deck parses and validates");
    };
    assert_eq!(
        valid.composition(),
        &json!({
            "type": "view",
            "body": [ { "type": "group", "title": "t", "items": [ { "type": "note", "text": "x" } ], "layout": { "columns": 2 } } ],
            "meta": { "source": "s", "provenance": { "query": "q" } }
        })
    );

    // Parses, then duplicate ids: the copy is kept with validate's errors.
    let duplicated = view(json!([
        { "type": "note", "id": "a", "text": "one" },
        { "type": "group", "title": "g", "items": [ { "type": "note", "id": "a", "text": "two" } ] }
    ]));
    let ParsedValidation::Invalid {
        composition,
        errors,
    } = assert_parse_then_validate(&rt, &duplicated)
    else {
        panic!("duplicate ids parse but do not validate");
    };
    assert_eq!(composition, duplicated);
    assert_eq!(
        errors,
        vec![
            ValidationError::new(
                "body[1].items[0].id",
                "duplicates id \"a\" first used at body[0]"
            )
            .with_node_type("note")
        ]
    );

    // Refused by the schema, and by the budget.
    let ParsedValidation::Refused(errors) =
        assert_parse_then_validate(&rt, &view(json!([{ "type": "note" }])))
    else {
        panic!("a note without text is refused");
    };
    assert_eq!(
        errors,
        vec![ValidationError::new("body[0].text", "is required").with_node_type("note")]
    );
    let wide = view(json!([{ "type": "note", "text": "x".repeat(1_000_001) }]));
    let ParsedValidation::Refused(errors) = assert_parse_then_validate(&rt, &wide) else {
        panic!("a million characters are refused");
    };
    assert_eq!(
        errors[0].message,
        "input holds more than 1000000 characters"
    );
}
