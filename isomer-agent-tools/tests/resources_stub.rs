//! Upstream's resource and prompt tests (`resources.test.ts`), and the
//! `check_composition` tests of its `tools.test.ts`, against a stub runtime.

mod common;

use std::sync::Arc;

use common::*;
use isomer_agent_tools::{
    IsomerGuideOptions, check_composition, create_isomer_prompts, create_isomer_resources,
};
use isomer_sdk::{AuthoringProfile, ErrorCode, ValidationError, ValidationWarning};
use serde_json::{Map, Value, json};

fn request(text: &str) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("request".to_owned(), json!(text));
    map
}

#[test]
fn offers_the_guide_and_the_schema() {
    let resources = create_isomer_resources(IsomerGuideOptions::new(Arc::new(Stub::new())));
    let described: Vec<(&str, &str, &str, &str)> = resources
        .iter()
        .map(|r| {
            (
                r.name.as_str(),
                r.uri.as_str(),
                r.title.as_str(),
                r.mime_type.as_str(),
            )
        })
        .collect();
    assert_eq!(
        described,
        [
            (
                "isomer-authoring-guide",
                "isomer://authoring-guide",
                "Isomer authoring guide",
                "text/markdown"
            ),
            (
                "isomer-composition-schema",
                "isomer://composition-schema",
                "Composition JSON Schema",
                "application/json"
            ),
        ]
    );
}

#[test]
fn reads_the_guide_as_markdown_without_the_schema() {
    let resources = create_isomer_resources(IsomerGuideOptions::new(Arc::new(Stub::new())));
    let guide = resources[0].read().unwrap();
    assert!(guide.contains("## Primitive catalog"));
    assert!(!guide.contains("## JSON Schema"));
}

#[test]
fn reads_a_view_registered_after_the_resources_were_created() {
    let stub = Arc::new(Stub::new());
    let resources = create_isomer_resources(IsomerGuideOptions::new(Arc::clone(&stub)));
    let prompts = create_isomer_prompts(IsomerGuideOptions::new(Arc::clone(&stub)));
    assert!(!resources[0].read().unwrap().contains("`one-card`"));
    assert!(
        !prompts[0]
            .build(&Map::new())
            .unwrap()
            .contains("`one-card`")
    );
    stub.views.lock().unwrap().push(one_card_view());
    let guide = resources[0].read().unwrap();
    assert!(guide.contains(
        "## Registered views\n\n- `one-card` — One card\n  - One card\n  - Answers: show a card\n  - Input: `{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\"}},\"required\":[\"title\"]}`"
    ));
    assert!(
        prompts[0]
            .build(&Map::new())
            .unwrap()
            .contains("`one-card`")
    );
}

#[test]
fn reads_the_whole_composition_schema_as_compact_json() {
    let resources = create_isomer_resources(IsomerGuideOptions::new(Arc::new(Stub::new())));
    let text = resources[1].read().unwrap();
    assert!(!text.contains('\n'));
    let schema: Value = serde_json::from_str(&text).unwrap();
    let defs = schema["$defs"].as_object().unwrap();
    assert!(
        ["bodyNode", "card", "stack"]
            .iter()
            .all(|key| defs.contains_key(*key))
    );
}

#[test]
fn appends_the_request_to_the_guide() {
    let prompts = create_isomer_prompts(IsomerGuideOptions::new(Arc::new(Stub::new())));
    assert_eq!(prompts.len(), 1);
    assert_eq!(prompts[0].name, "compose");
    assert_eq!(prompts[0].title, "Compose a view");
    let text = prompts[0].build(&request("Summarize the launch.")).unwrap();
    assert!(text.contains("## Primitive catalog"));
    assert!(text.ends_with("\n\n## Request\n\nSummarize the launch."));
    // Kept as given, even across lines; an empty request still adds the heading.
    assert!(
        prompts[0]
            .build(&request("a\nb"))
            .unwrap()
            .ends_with("## Request\n\na\nb")
    );
    assert!(
        prompts[0]
            .build(&request(""))
            .unwrap()
            .ends_with("## Request\n\n")
    );
    assert_eq!(
        prompts[0]
            .build(&Map::from_iter([("request".to_owned(), json!(1))]))
            .unwrap_err()
            .to_string(),
        "compose: the request argument must be a string"
    );
    assert_eq!(
        prompts[0].args_schema,
        json!({"type": "object", "properties": {"request": {"type": "string", "description": "What the view should answer."}}})
    );
}

#[test]
fn is_the_guide_alone_without_a_request() {
    let options = IsomerGuideOptions::new(Arc::new(Stub::new()));
    let prompts = create_isomer_prompts(options.clone());
    let resources = create_isomer_resources(options);
    let text = prompts[0].build(&Map::new()).unwrap();
    assert!(!text.contains("## Request"));
    assert_eq!(text, resources[0].read().unwrap());
}

#[test]
fn host_options_reach_the_guide_resource_and_the_compose_prompt_alike() {
    let options = IsomerGuideOptions::new(Arc::new(Stub::new()))
        .with_guide("Write for the finance team.")
        .with_rules(["One idea per slide."])
        .with_examples(vec![
            json!({"type": "view", "title": "Host example", "body": [], "meta": {"note": "dropped"}}),
            json!({"type": "view", "title": "Second example", "body": []}),
        ]);
    let prompt = create_isomer_prompts(options.clone())[0]
        .build(&Map::new())
        .unwrap();
    assert_eq!(prompt, create_isomer_resources(options)[0].read().unwrap());
    assert!(prompt.contains("## Guide\n\nWrite for the finance team."));
    assert!(prompt.contains("## Rules\n\n- One idea per slide."));
    assert!(prompt.contains(
        "## Examples\n\n```json\n{\"type\":\"view\",\"title\":\"Host example\",\"body\":[]}\n```"
    ));
    assert!(!prompt.contains("Second example"));
}

#[test]
fn frames_the_guide_for_the_profile_which_sets_the_example_budget() {
    let options = IsomerGuideOptions::new(Arc::new(Stub::new()))
        .with_profile(AuthoringProfile::RegisteredViewRouter)
        .with_examples(vec![
            json!({"type": "view", "title": "Host example", "body": []}),
        ]);
    let prompt = create_isomer_prompts(options.clone())[0]
        .build(&Map::new())
        .unwrap();
    assert_eq!(prompt, create_isomer_resources(options)[0].read().unwrap());
    assert!(prompt.contains("You route questions to registered views."));
    assert!(!prompt.contains("## Examples"));
}

#[test]
fn a_failing_runtime_fails_the_reads() {
    let options = IsomerGuideOptions::new(Arc::new(Stub::failing("offline")));
    let resources = create_isomer_resources(options.clone());
    assert_eq!(resources[0].read().unwrap_err().to_string(), "offline");
    assert_eq!(resources[1].read().unwrap_err().to_string(), "offline");
    assert_eq!(
        create_isomer_prompts(options)[0]
            .build(&Map::new())
            .unwrap_err()
            .to_string(),
        "offline"
    );
}

// check_composition

#[test]
fn keeps_each_error_structured_beside_its_string() {
    let stub = Stub::new();
    let composition = json!({"type": "view", "body": [{"type": "card", "title": "A", "nope": 1}]});
    let check = check_composition(&stub, None, &composition).unwrap();
    assert!(!check.valid);
    assert_eq!(
        check.findings,
        [ValidationError::new(
            "body[0]",
            "has unrecognized key(s): nope; its fields are title"
        )
        .with_node_type("card")]
    );
    assert_eq!(
        check.errors,
        ["body[0] (in card) has unrecognized key(s): nope; its fields are title"]
    );
    assert_eq!(check.composition, None);
}

#[test]
fn prints_each_warning_with_its_surface_and_path_once() {
    let stub = Stub {
        warnings: vec![
            ValidationWarning {
                surface: "snapshot".to_owned(),
                path: Some("body[0]".to_owned()),
                message: "body[0] type \"card\" declares no snapshotHeight metric".to_owned(),
            },
            ValidationWarning {
                surface: "slack".to_owned(),
                path: Some("body[0].body[1]".to_owned()),
                message: "draws nothing".to_owned(),
            },
            ValidationWarning {
                surface: "text".to_owned(),
                path: None,
                message: "is empty".to_owned(),
            },
        ],
        ..Stub::new()
    };
    let check = check_composition(&stub, None, one_card()).unwrap();
    assert!(check.valid);
    assert_eq!(
        check.warnings,
        [
            "snapshot: body[0] type \"card\" declares no snapshotHeight metric",
            "slack: body[0].body[1] draws nothing",
            "text: is empty"
        ]
    );
}

#[test]
fn keeps_the_code_of_the_runtimes_refusal() {
    let stub = Stub::new();
    let deep = json!({"type": "view", "body": [nested(63)]});
    let check = check_composition(&stub, None, &deep).unwrap();
    assert!(!check.valid);
    assert_eq!(
        check.findings,
        [ValidationError::new("", TOO_DEEP).with_code(ErrorCode::InputOverBudget)]
    );
    assert_eq!(check.errors, [TOO_DEEP]);
    assert_eq!(check.composition, None);
    assert_eq!(
        serde_json::to_value(&check).unwrap(),
        json!({"valid": false, "errors": [TOO_DEEP], "findings": [{"path": "", "message": TOO_DEEP, "code": "INPUT_OVER_BUDGET"}], "warnings": []})
    );
}

#[test]
fn returns_the_copy_the_runtime_validated() {
    let stub = Stub::new();
    let mut raw = one_card();
    raw["extra"] = json!(true);
    let check = check_composition(&stub, None, &raw).unwrap();
    let calls = stub.calls.lock().unwrap();
    assert_eq!((calls.parse, calls.validate), (1, 1));
    assert_eq!(check.composition.as_ref(), Some(&calls.validated[0]));
    assert_ne!(check.composition.as_ref(), Some(&raw));
}

#[test]
fn reports_a_frame_rule_as_a_finding_with_an_empty_path() {
    let stub = Stub::new();
    let check = check_composition(&stub, Some(&one_card_frame), two_cards()).unwrap();
    assert!(!check.valid);
    assert_eq!(check.findings, [ValidationError::new("", FRAME_RULE)]);
    assert_eq!(check.errors, [FRAME_RULE]);
    assert_eq!(check.composition, Some(two_cards()));
}

#[test]
fn answers_a_runtime_failure_as_an_error() {
    let stub = Stub::failing("offline");
    assert_eq!(
        check_composition(&stub, None, one_card())
            .unwrap_err()
            .to_string(),
        "offline"
    );
}

#[test]
fn prints_the_whole_guide() {
    let stub = Stub::new().with_view(one_card_view());
    let options = IsomerGuideOptions::new(Arc::new(stub))
        .with_rules(["One idea per card.", "Keep titles\nshort."])
        .with_examples(vec![
            json!({"type": "view", "body": [{"type": "card", "title": "Hello"}]}),
        ]);
    insta::assert_snapshot!(
        "stub_guide",
        create_isomer_resources(options)[0].read().unwrap()
    );
}
