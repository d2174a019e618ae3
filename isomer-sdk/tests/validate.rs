//! `parse` and `validate` over the test pack: every message, path, node
//! type and the issue order upstream reports.

mod common;

use common::{URL_MESSAGE, runtime, view};
use isomer_sdk::{ErrorCode, InputBudget, Runtime, ValidationError, format_validation_error};
use serde_json::{Value, json};

/// The formatted errors of `validate`.
fn errors(runtime: &Runtime, value: &Value) -> Vec<String> {
    runtime
        .validate(value)
        .errors
        .iter()
        .map(format_validation_error)
        .collect()
}

/// The formatted errors of `parse`.
fn parse_errors(runtime: &Runtime, value: &Value) -> Vec<String> {
    runtime
        .parse(value)
        .errors
        .iter()
        .map(format_validation_error)
        .collect()
}

#[test]
fn a_valid_composition_has_no_findings() {
    let rt = runtime();
    let value = json!({
        "type": "view", "version": 1, "title": "Status", "subtitle": "Today", "theme": "dark",
        "body": [ { "type": "note", "text": "Up.", "id": "a" },
                  { "type": "group", "title": "More", "items": [ { "type": "note", "text": "x" } ] } ],
        "meta": { "source": "test", "freshness": { "stale": false } }
    });
    let checked = rt.validate(&value);
    assert!(checked.valid);
    assert_eq!(checked.errors, vec![]);
    assert_eq!(checked.warnings, vec![]);
    assert_eq!(checked.composition, Some(value.clone()));
    let parsed = rt.parse(&value);
    assert!(parsed.valid);
    assert_eq!(parsed.composition, Some(value));
}

#[test]
fn root_findings_follow_the_root_schema_order() {
    let rt = runtime();
    assert_eq!(
        errors(&rt, &json!(null)),
        vec!["Invalid input: expected object, received null"]
    );
    assert_eq!(
        errors(&rt, &json!([])),
        vec!["Invalid input: expected object, received array"]
    );
    assert_eq!(
        errors(&rt, &json!("x")),
        vec!["Invalid input: expected object, received string"]
    );
    assert_eq!(
        errors(&rt, &json!({ "zeta": 1, "body": [], "alpha": 2 })),
        vec![
            "type must be one of: view",
            "body must contain at least one node",
            "has unrecognized key(s): zeta, alpha",
        ]
    );
    assert_eq!(
        errors(
            &rt,
            &json!({ "type": "nope", "version": 2, "title": 3, "theme": "red", "body": {} })
        ),
        vec![
            "type must be one of: view",
            "version must be one of: 1",
            "title Invalid input: expected string, received number",
            "theme must be one of: auto, light, dark",
            "body Invalid input: expected array, received object",
        ]
    );
    assert_eq!(
        errors(&rt, &json!({ "type": "view" })),
        vec!["body is required"]
    );
    assert_eq!(
        errors(
            &rt,
            &json!({ "type": "view", "body": [ { "type": "note", "text": "x" } ], "meta": { "freshness": { "stale": "no" } } })
        ),
        vec!["meta.freshness.stale Invalid input: expected boolean, received string"]
    );
}

#[test]
fn node_fields_report_the_isomer_catalogue() {
    let rt = runtime();
    assert_eq!(
        errors(&rt, &view(json!([ { "type": "note" } ]))),
        vec!["body[0].text (in note) is required"]
    );
    assert_eq!(
        errors(
            &rt,
            &view(json!([ { "x": 1, "id": "", "tone": "loud", "text": "", "type": "note" } ]))
        ),
        vec![
            "body[0].text (in note) must not be empty",
            "body[0].tone (in note) must be one of: neutral, primary",
            "body[0].id (in note) must be a non-empty string",
            "body[0] (in note) has unrecognized key(s): x; its fields are text, tone, href",
        ]
    );
    assert_eq!(
        errors(
            &rt,
            &view(json!([ { "type": "note", "text": "x".repeat(201), "id": 4, "surfaces": [] } ]))
        ),
        vec![
            "body[0].text (in note) must be at most 200 characters",
            "body[0].id (in note) must be a non-empty string",
            "body[0].surfaces (in note) must contain at least one surface",
        ]
    );
    assert_eq!(
        errors(
            &rt,
            &view(json!([ { "type": "note", "text": "x", "surfaces": ["text", "svg"] } ]))
        ),
        vec![
            "body[0].surfaces[1] (in note) must be one of: react, snapshot, text, markdown, slack"
        ]
    );
    assert_eq!(
        errors(
            &rt,
            &view(json!([ { "type": "note", "text": 1, "surfaces": "text" } ]))
        ),
        vec![
            "body[0].text (in note) Invalid input: expected string, received number",
            "body[0].surfaces (in note) Invalid input: expected array, received string",
        ]
    );
}

#[test]
fn custom_messages_replace_every_failure_of_their_field() {
    let rt = runtime();
    // `title` carries errorMessage "is required": a number, an empty string
    // and an absent key all read the same.
    for title in [json!(5), json!("")] {
        assert_eq!(
            errors(
                &rt,
                &view(
                    json!([ { "type": "group", "title": title, "items": [ { "type": "note", "text": "x" } ] } ])
                )
            ),
            vec!["body[0].title (in group) is required"]
        );
    }
}

#[test]
fn containers_report_children_in_traversal_order() {
    let rt = runtime();
    let value = view(json!([ {
        "zz": 1,
        "layout": { "columns": 9, "extra": true },
        "items": [ 5, { "type": "note", "text": 1 }, { "type": "q" }, { "type": "note", "text": "ok" } ],
        "title": "T",
        "type": "group"
    } ]));
    assert_eq!(
        errors(&rt, &value),
        vec![
            "body[0].items[0] (in group) Invalid input: expected object, received number",
            "body[0].items[1].text (in note) Invalid input: expected string, received number",
            "body[0].items[2].type must be one of: note, group",
            "body[0].items (in group) must have at most 3 items",
            "body[0].layout.columns (in group) must be at most 4",
            "body[0] (in group) has unrecognized key(s): zz; its fields are title, items, layout",
        ]
    );
}

#[test]
fn unknown_and_missing_types_list_every_registered_type() {
    let rt = runtime();
    let checked = rt.validate(view(
        json!([ 5, { "type": "zz", "text": 1 }, { "text": "" }, { "type": 3 } ]),
    ));
    assert_eq!(
        checked.errors,
        vec![
            ValidationError::new("body[0]", "Invalid input: expected object, received number"),
            ValidationError::new("body[1].type", "must be one of: note, group"),
            ValidationError::new("body[2].type", "must be one of: note, group"),
            ValidationError::new("body[3].type", "must be one of: note, group"),
        ]
    );
}

#[test]
fn node_type_is_the_innermost_registered_node() {
    let rt = runtime();
    let checked = rt.validate(view(json!([ {
        "type": "group", "title": "", "items": [ 7, { "type": "note", "text": "" }, { "type": "mystery", "x": { "type": "note" } } ],
        "layout": { "type": "note", "columns": 0 }
    } ])));
    let found: Vec<(&str, Option<&str>)> = checked
        .errors
        .iter()
        .map(|e| (e.path.as_str(), e.node_type.as_deref()))
        .collect();
    assert_eq!(
        found,
        vec![
            ("body[0].title", Some("group")),
            ("body[0].items[0]", Some("group")),
            ("body[0].items[1].text", Some("note")),
            ("body[0].items[2].type", None),
            ("body[0].layout.columns", Some("group")),
        ]
    );
}

#[test]
fn refinements_report_relative_paths_under_the_node() {
    let rt = runtime();
    assert_eq!(
        errors(
            &rt,
            &view(json!([ { "type": "note", "text": "x", "href": "javascript:alert(1)" } ]))
        ),
        vec![format!("body[0].href (in note) {URL_MESSAGE}")]
    );
    // The group's refinement walks descendants of any depth.
    assert_eq!(
        errors(
            &rt,
            &view(json!([ { "type": "group", "title": "a", "items": [
            { "type": "group", "title": "b", "items": [ { "type": "note", "text": "x", "href": "javascript:x" } ] }
        ] } ]))
        ),
        vec![
            format!("body[0].items[0].items[0].href (in note) {URL_MESSAGE}"),
            "body[0].items[0] (in group) a group cannot sit inside another group".to_owned(),
        ]
    );
    // A node whose own schema failed runs no refinement.
    assert_eq!(
        errors(
            &rt,
            &view(json!([ { "type": "note", "text": "", "href": "javascript:x" } ]))
        ),
        vec!["body[0].text (in note) must not be empty"]
    );
    // As in Zod, a schema issue anywhere inside a node skips the node's
    // refinements (its nested-group rule would otherwise fire too) …
    let nested = |inner: Value| {
        view(json!([ { "type": "group", "title": "a", "items": [
            { "type": "group", "title": "b", "items": [ inner ] }
        ] } ]))
    };
    assert_eq!(
        errors(&rt, &nested(json!({ "type": "note" }))),
        vec!["body[0].items[0].items[0].text (in note) is required"]
    );
    assert_eq!(
        errors(&rt, &nested(json!({ "type": "sparkline" }))),
        vec!["body[0].items[0].items[0].type must be one of: note, group"]
    );
    assert_eq!(
        errors(
            &rt,
            &nested(json!({ "type": "note", "text": "x", "extra": 1 }))
        ),
        vec![
            "body[0].items[0].items[0] (in note) has unrecognized key(s): extra; its fields are text, tone, href"
        ]
    );
    // … while another refinement's finding inside it does not (the first
    // case above, with the inner href finding and the outer group rule).
}

#[test]
fn duplicate_ids_are_validate_errors_only() {
    let rt = runtime();
    let value = view(json!([
        { "type": "note", "text": "a", "id": "a" },
        { "type": "group", "title": "t", "id": "b", "items": [ { "type": "note", "text": "b", "id": "a" } ] },
        { "type": "note", "text": "c", "id": "b" },
        { "type": "note", "text": "d", "id": "line\nbreak" },
        { "type": "note", "text": "e", "id": "line\nbreak" }
    ]));
    let checked = rt.validate(&value);
    assert!(!checked.valid);
    assert_eq!(
        checked
            .errors
            .iter()
            .map(format_validation_error)
            .collect::<Vec<_>>(),
        vec![
            "body[1].items[0].id (in note) duplicates id \"a\" first used at body[0]",
            "body[2].id (in note) duplicates id \"b\" first used at body[1]",
            "body[4].id (in note) duplicates id \"line\\nbreak\" first used at body[3]",
        ]
    );
    assert_eq!(checked.composition, Some(value.clone()));
    assert!(rt.parse(&value).valid);
}

#[test]
fn surfaces_nobody_renders_on_are_warnings() {
    let rt = runtime();
    let checked = rt.validate(view(json!([
        { "type": "note", "text": "a", "surfaces": ["text", "markdown"] },
        { "type": "group", "title": "t", "items": [ { "type": "note", "text": "b", "surfaces": ["text"] } ] }
    ])));
    assert!(checked.valid);
    let warnings: Vec<(&str, &str)> = checked
        .warnings
        .iter()
        .map(|w| (w.surface.as_str(), w.message.as_str()))
        .collect();
    assert_eq!(
        warnings,
        vec![
            ("react", "composition renders no nodes on surface \"react\""),
            (
                "snapshot",
                "composition renders no nodes on surface \"snapshot\""
            ),
            ("slack", "composition renders no nodes on surface \"slack\""),
        ]
    );
    assert_eq!(checked.warnings_for_surface("slack").len(), 1);
    assert!(checked.warnings.iter().all(|w| w.path.is_none()));
}

#[test]
fn parse_drops_unknown_keys_of_ordinary_nested_objects() {
    let rt = runtime();
    let value = json!({
        "type": "view",
        "body": [ { "type": "group", "title": "t", "items": [ { "type": "note", "text": "x" } ], "layout": { "columns": 2, "gap": 4 } } ],
        "meta": { "source": "s", "color": "red", "provenance": { "query": "q", "extra": 1 } }
    });
    let parsed = rt.parse(&value);
    assert!(parsed.valid);
    assert_eq!(
        parsed.composition,
        Some(json!({
            "type": "view",
            "body": [ { "type": "group", "title": "t", "items": [ { "type": "note", "text": "x" } ], "layout": { "columns": 2 } } ],
            "meta": { "source": "s", "provenance": { "query": "q" } }
        }))
    );
    // validate keeps the checked copy as given.
    assert_eq!(rt.validate(&value).composition, Some(value));
}

#[test]
fn parse_reports_without_composition_when_invalid() {
    let rt = runtime();
    let parsed = rt.parse(view(json!([ { "type": "note" } ])));
    assert!(!parsed.valid);
    assert_eq!(parsed.composition, None);
    assert_eq!(
        parse_errors(&rt, &view(json!([ { "type": "note" } ]))),
        vec!["body[0].text (in note) is required"]
    );
}

#[test]
fn the_budget_runs_first_and_refuses_alone() {
    let rt = runtime();
    let mut deep = json!({ "type": "note", "text": "x" });
    for _ in 0..70 {
        deep = json!([deep]);
    }
    let value = json!({ "type": "view", "body": [ { "type": "group", "title": "t", "items": [deep] } ], "junk": 1 });
    for found in [rt.validate(&value).errors, rt.parse(&value).errors] {
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, "");
        assert_eq!(found[0].message, "input nests deeper than 64 levels");
        assert_eq!(found[0].code, Some(ErrorCode::InputOverBudget));
    }
    assert_eq!(rt.validate(&value).composition, None);

    let small = Runtime::builder()
        .pack(common::pack())
        .input_budget(InputBudget {
            values: 5,
            ..InputBudget::default()
        })
        .build()
        .unwrap();
    let checked = small.validate(view(
        json!([ { "type": "note", "text": "a" }, { "type": "note", "text": "b" } ]),
    ));
    assert_eq!(checked.errors[0].message, "input holds more than 5 values");
}

#[test]
fn a_ten_thousand_deep_value_is_refused_without_overflow() {
    let rt = runtime();
    let mut text = String::new();
    for _ in 0..10_000 {
        text.push('[');
    }
    for _ in 0..10_000 {
        text.push(']');
    }
    let deep = isomer_sdk::parse_json(&text).expect("deep JSON parses");
    let value = json!({ "type": "view", "body": [] });
    let mut value = value;
    value["body"] = Value::Array(vec![deep.into_inner()]);
    let checked = rt.validate(&value);
    assert_eq!(
        checked.errors[0].message,
        "input nests deeper than 64 levels"
    );
    isomer_sdk::drop_deep(value);
}

#[test]
fn string_lengths_count_utf16_code_units() {
    let rt = runtime();
    let fits = "😀".repeat(100);
    assert!(
        rt.validate(view(json!([ { "type": "note", "text": fits } ])))
            .valid
    );
    let over = "😀".repeat(101);
    assert_eq!(
        errors(&rt, &view(json!([ { "type": "note", "text": over } ]))),
        vec!["body[0].text (in note) must be at most 200 characters"]
    );
}

/// A container with an explicit child hook and content of its own.
fn pair_runtime() -> Runtime {
    use isomer_sdk::{ChildRef, Markdown, Pack, Primitive};
    let pair = Primitive::builder::<Value>("pair")
        .schema_json(json!({
            "type": "object",
            "properties": {
                "caption": { "type": "string" },
                "left": { "type": "object" },
                "right": { "type": "object" }
            },
            "required": ["left", "right"]
        }))
        .purpose("Two nodes side by side.")
        .example(json!({ "type": "pair", "left": { "type": "note", "text": "a" }, "right": { "type": "note", "text": "b" } }))
        .children(|node: &Value| {
            // Right first: the hook decides the order.
            ["right", "left"]
                .into_iter()
                .filter_map(|key| node.get(key).filter(|v| v.is_object()).map(|child| ChildRef { node: child, path: key.to_owned() }))
                .collect()
        })
        .has_own_content(|node: &Value| node.get("caption").is_some())
        .text(|node, scope| format!("{} | {}", scope.text(&node["left"]), scope.text(&node["right"])))
        .markdown(|_, _| Markdown::paragraph("pair"))
        .build()
        .unwrap();
    Runtime::builder()
        .pack(common::pack())
        .pack(Pack::new("pairs").primitive(pair).build().unwrap())
        .build()
        .unwrap()
}

#[test]
fn explicit_child_hooks_drive_validation_walks_and_warnings() {
    let rt = pair_runtime();
    assert_eq!(
        errors(
            &rt,
            &view(
                json!([ { "type": "pair", "left": { "type": "note" }, "right": { "type": "zz" } } ])
            )
        ),
        vec![
            "body[0].left.text (in note) is required",
            "body[0].right.type must be one of: note, group, pair"
        ]
    );
    let walker = rt.walker();
    let node = json!({ "type": "pair", "left": { "type": "note", "text": "a" }, "right": { "type": "note", "text": "b" } });
    let paths: Vec<String> = walker.children(&node).into_iter().map(|c| c.path).collect();
    assert_eq!(paths, vec!["right", "left"]);
    // Without paths, in the hook's order too.
    let nodes = walker.child_nodes(&node);
    assert_eq!(nodes, [&node["right"], &node["left"]]);
    assert!(std::ptr::eq(nodes[0], &node["right"]));
    // Both children hidden from slack: the pair renders there only with a caption.
    let hidden = json!({ "type": "note", "text": "a", "surfaces": ["text"] });
    let without = view(json!([ { "type": "pair", "left": hidden, "right": hidden } ]));
    let slack = |value: &Value| rt.validate(value).warnings_for_surface("slack").len();
    assert_eq!(slack(&without), 1);
    let with = view(json!([ { "type": "pair", "caption": "c", "left": hidden, "right": hidden } ]));
    assert_eq!(slack(&with), 0);
    assert_eq!(
        rt.render_text(view(json!([node])), &isomer_sdk::RenderOptions::default())
            .unwrap(),
        "a | b"
    );
}

#[test]
fn a_loose_node_lets_extra_keys_through() {
    use isomer_sdk::{Markdown, Pack, Primitive};
    let loose = Primitive::builder::<Value>("loose")
        .schema_json(json!({ "type": "object", "properties": { "a": { "type": "string" } }, "additionalProperties": true }))
        .purpose("Anything goes.")
        .example(json!({ "type": "loose", "a": "x", "b": 1 }))
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap();
    let rt = Runtime::builder()
        .pack(Pack::new("l").primitive(loose).build().unwrap())
        .build()
        .unwrap();
    let value = view(json!([ { "type": "loose", "a": "x", "extra": { "deep": true } } ]));
    assert!(rt.validate(&value).valid);
    assert_eq!(rt.parse(&value).composition, Some(value));
    assert_eq!(
        errors(&rt, &view(json!([ { "type": "loose", "a": 1 } ]))),
        vec!["body[0].a (in loose) Invalid input: expected string, received number"]
    );
}

#[test]
fn formats_and_patterns_use_zod_wording() {
    use isomer_sdk::{Markdown, Pack, Primitive};
    let contact = Primitive::builder::<Value>("contact")
        .schema_json(json!({ "type": "object", "properties": {
            "email": { "type": "string", "format": "email" },
            "code": { "type": "string", "pattern": "^[A-Z]{3}$" },
            "score": { "type": "number", "minimum": 0.5, "exclusiveMaximum": 10 },
            "tags": { "type": "array", "items": { "type": "string" }, "minItems": 2 },
            "note": { "type": "string", "minLength": 3 },
            "choice": { "anyOf": [ { "type": "string" }, { "type": "number" } ] },
            "custom": { "type": "string", "minLength": 2, "errorMessage": { "minLength": "needs two letters" } }
        } }))
        .purpose("A contact.")
        .example(json!({ "type": "contact" }))
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap();
    let rt = Runtime::builder()
        .pack(Pack::new("c").primitive(contact).build().unwrap())
        .build()
        .unwrap();
    let value = view(json!([ {
        "type": "contact", "email": "nope", "code": "ab", "score": 10, "tags": ["a"], "note": "ab",
        "choice": true, "custom": "a"
    } ]));
    assert_eq!(
        errors(&rt, &value),
        vec![
            "body[0].email (in contact) Invalid email address",
            "body[0].code (in contact) Invalid string: must match pattern /^[A-Z]{3}$/",
            "body[0].score (in contact) must be at most 10",
            "body[0].tags (in contact) must have at least 2 items",
            "body[0].note (in contact) must be at least 3 characters",
            "body[0].choice (in contact) Invalid input",
            "body[0].custom (in contact) needs two letters",
        ]
    );
    assert_eq!(
        errors(&rt, &view(json!([ { "type": "contact", "score": 0.25 } ]))),
        vec!["body[0].score (in contact) must be at least 0.5"]
    );
}

#[test]
fn an_optional_undocumented_enum_lists_no_null() {
    use isomer_sdk::{Markdown, Pack, Primitive};
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    enum Size {
        L,
        M,
    }
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)] // read through its schema
    struct Sized {
        size: Option<Size>,
    }
    let sized = Primitive::builder::<Sized>("sized")
        .purpose("Sized.")
        .example(json!({ "type": "sized" }))
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap();
    let rt = Runtime::builder()
        .pack(Pack::new("s").primitive(sized).build().unwrap())
        .build()
        .unwrap();
    assert_eq!(
        errors(&rt, &view(json!([ { "type": "sized", "size": null } ]))),
        vec!["body[0].size (in sized) must be one of: l, m"]
    );
    assert_eq!(
        errors(&rt, &view(json!([ { "type": "sized", "size": "xl" } ]))),
        vec!["body[0].size (in sized) must be one of: l, m"]
    );
}

/// A node with an embedded body (validated against the union, but not a
/// walked child: its ids are its own) and walked `items`.
#[test]
fn embedded_bodies_are_validated_but_not_walked() {
    use isomer_sdk::{Node, Primitive};
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)] // read through its schema
    struct Embed {
        items: Vec<Node>,
        body: Vec<Node>,
    }
    let rt = common::runtime_with(
        Primitive::builder::<Embed>("embed")
            .purpose("A render of another view.")
            .example(
                json!({ "type": "embed", "items": [], "body": [ { "type": "note", "text": "x" } ] }),
            )
            .children(common::object_items),
    );
    let checked = rt.validate(view(json!([ {
        "type": "embed",
        "items": [ { "type": "note" } ],
        "body": [ { "type": "note" }, { "type": "zz" }, { "type": "group", "title": "g", "items": [ { "type": "note", "text": "" } ] } ]
    } ])));
    let found: Vec<(&str, &str, Option<&str>)> = checked
        .errors
        .iter()
        .map(|e| (e.path.as_str(), e.message.as_str(), e.node_type.as_deref()))
        .collect();
    assert_eq!(
        found,
        vec![
            ("body[0].items[0].text", "is required", Some("note")),
            ("body[0].body[0].text", "is required", Some("embed")),
            (
                "body[0].body[1].type",
                "must be one of: note, group, embed",
                Some("embed")
            ),
            (
                "body[0].body[2].items[0].text",
                "must not be empty",
                Some("embed")
            ),
        ]
    );
    // Ids inside the embedded body are its own.
    let value = view(json!([
        { "type": "note", "text": "a", "id": "a" },
        { "type": "embed", "items": [], "body": [ { "type": "note", "text": "b", "id": "a" } ] }
    ]));
    assert!(rt.validate(&value).valid);
    // parse sanitizes embedded nodes too.
    let parsed = rt.parse(view(json!([ { "type": "embed", "items": [], "body": [
        { "type": "group", "title": "g", "items": [ { "type": "note", "text": "x" } ], "layout": { "columns": 1, "gap": 2 } }
    ] } ])));
    assert_eq!(
        parsed.composition.unwrap()["body"][0]["body"][0]["layout"],
        json!({ "columns": 1 })
    );
}

#[test]
fn semantic_passes_agree_with_and_without_explicit_hooks() {
    let plain = runtime();
    let hooked = common::hooked_runtime();
    let cases = [
        view(json!([
            { "type": "group", "title": "t", "id": "x", "surfaces": ["text", "slack"], "items": [
                { "type": "note", "text": "a", "id": "y", "surfaces": ["slack", "react"] },
                { "type": "note", "text": "b", "id": "x" }
            ] },
            { "type": "note", "text": "c", "id": "y", "surfaces": ["markdown"] },
            { "type": "group", "title": "u", "items": [ { "type": "note", "text": "d", "id": "x" } ] }
        ])),
        view(json!([
            { "type": "group", "title": "t", "surfaces": ["text"], "items": [
                { "type": "note", "text": "a", "surfaces": ["slack"] }
            ] }
        ])),
        view(json!([ { "type": "note", "text": "a", "surfaces": ["snapshot"] } ])),
    ];
    for value in &cases {
        assert_eq!(plain.validate(value), hooked.validate(value), "{value}");
    }
    let first = plain.validate(&cases[0]);
    assert_eq!(
        first
            .errors
            .iter()
            .map(format_validation_error)
            .collect::<Vec<_>>(),
        vec![
            "body[0].items[1].id (in note) duplicates id \"x\" first used at body[0]",
            "body[1].id (in note) duplicates id \"y\" first used at body[0].items[0]",
            "body[2].items[0].id (in note) duplicates id \"x\" first used at body[0]",
        ]
    );
    let surfaces = |value: &Value| -> Vec<String> {
        plain
            .validate(value)
            .warnings
            .into_iter()
            .map(|w| w.surface)
            .collect()
    };
    // body[0] renders on slack (its first note) and text (its second);
    // body[1] on markdown; body[2] everywhere.
    assert_eq!(surfaces(&cases[0]), Vec::<String>::new());
    // The group is visible on text only, its only child on slack only.
    assert_eq!(
        surfaces(&cases[1]),
        vec!["react", "snapshot", "text", "markdown", "slack"]
    );
    assert_eq!(
        surfaces(&cases[2]),
        vec!["react", "text", "markdown", "slack"]
    );
}

#[test]
fn findings_among_many_children_ask_the_child_hook_once_for_their_paths() {
    use isomer_sdk::{Node, Primitive};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)] // read through its schema
    struct Listing {
        items: Vec<Node>,
    }
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let rt = common::runtime_with(
        Primitive::builder::<Listing>("listing")
            .purpose("Nodes one after another.")
            .example(json!({ "type": "listing", "items": [] }))
            .children(move |node: &Value| {
                counted.fetch_add(1, Ordering::Relaxed);
                common::object_items(node)
            }),
    );
    // 300 children, each with an unknown type, then 300 with one id.
    let unknown: Vec<Value> = (0..300).map(|_| json!({ "type": "zz" })).collect();
    let checked = rt.validate(view(json!([{ "type": "listing", "items": unknown }])));
    assert_eq!(checked.errors.len(), 300);
    assert_eq!(checked.errors[299].path, "body[0].items[299].type");
    let notes: Vec<Value> = (0..300)
        .map(|_| json!({ "type": "note", "text": "x", "id": "a" }))
        .collect();
    let before = calls.load(Ordering::Relaxed);
    let checked = rt.validate(view(json!([{ "type": "listing", "items": notes }])));
    assert_eq!(checked.errors.len(), 299);
    assert_eq!(
        checked.errors[298].message,
        "duplicates id \"a\" first used at body[0].items[0]"
    );
    assert_eq!(checked.errors[298].path, "body[0].items[299].id");
    // Each check asks the hook for the children, then once more for all
    // their paths (not once per finding, nor per sort key).
    assert_eq!(before, 2);
    assert_eq!(calls.load(Ordering::Relaxed) - before, 2);
}
