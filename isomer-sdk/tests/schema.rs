//! The composition JSON Schema in both projections, the
//! authoring-context lookups and the agreement between `validate`
//! and the exported schema.

mod common;

use common::{runtime, view};
use isomer_sdk::{ErrorCode, IsomerError, Markdown, Node, Pack, Primitive, Runtime};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

fn exported_validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(schema)
        .expect("the exported schema compiles")
}

#[test]
fn the_authoring_schema_snapshot() {
    insta::assert_json_snapshot!("authoring_schema", runtime().authoring_schema());
}

#[test]
fn the_validator_projection_keeps_id_and_surfaces() {
    let rt = runtime();
    let schema = rt.composition_schema();
    insta::assert_json_snapshot!("composition_schema", schema);
    assert_eq!(
        schema["$defs"]["note"]["properties"]["id"],
        json!({ "type": "string", "minLength": 1 })
    );
    assert!(
        rt.authoring_schema()["$defs"]["note"]["properties"]
            .get("id")
            .is_none()
    );
    assert!(
        rt.authoring_schema()["$defs"]["note"]["properties"]
            .get("surfaces")
            .is_none()
    );
    let authoring = serde_json::to_string(rt.authoring_schema()).unwrap();
    let validator = serde_json::to_string(schema).unwrap();
    assert!(
        authoring.len() < validator.len(),
        "{} < {}",
        authoring.len(),
        validator.len()
    );
    assert!(!validator.contains("errorMessage"));
}

/// Every example, and every composition the tests call valid, passes both
/// `validate` and the exported schema; every broken variant fails both.
#[test]
fn validate_and_the_exported_schema_agree() {
    let rt = runtime();
    let exported = exported_validator(rt.composition_schema());
    let authoring = exported_validator(rt.authoring_schema());
    let mut valid: Vec<Value> = Vec::new();
    for primitive in rt.primitives() {
        for example in primitive.examples() {
            valid.push(view(json!([example])));
        }
    }
    valid.push(json!({
        "type": "view", "version": 1, "title": "T", "subtitle": "S", "theme": "light",
        "body": [ { "type": "group", "title": "g", "id": "g", "surfaces": ["text"], "layout": { "columns": 2 },
                    "items": [ { "type": "note", "text": "x", "tone": "neutral" } ] } ],
        "meta": { "source": "s", "partialFailure": { "degraded": false, "reason": "r" } }
    }));
    for value in &valid {
        assert!(rt.validate(value).valid, "validate refused {value}");
        assert!(
            exported.is_valid(value),
            "the exported schema refused {value}"
        );
    }
    // Without `id`/`surfaces` the authoring projection accepts the examples too.
    for primitive in rt.primitives() {
        assert!(authoring.is_valid(&view(json!([primitive.catalog_entry().example]))));
    }
    let broken = [
        json!({ "type": "view", "body": [] }),
        json!({ "type": "view" }),
        json!({ "type": "view", "body": [ { "type": "note" } ] }),
        json!({ "type": "view", "body": [ { "type": "note", "text": "" } ] }),
        json!({ "type": "view", "body": [ { "type": "note", "text": "x", "extra": 1 } ] }),
        json!({ "type": "view", "body": [ { "type": "note", "text": "x", "tone": "loud" } ] }),
        json!({ "type": "view", "body": [ { "type": "mystery" } ] }),
        json!({ "type": "view", "body": [ { "type": "note", "text": "x", "id": "" } ] }),
        json!({ "type": "view", "body": [ { "type": "note", "text": "x", "surfaces": [] } ] }),
        json!({ "type": "view", "body": [ { "type": "group", "title": "g", "items": [] } ] }),
        json!({ "type": "view", "body": [ { "type": "group", "title": "g", "items": [ { "type": "note", "text": 1 } ] } ] }),
        json!({ "type": "view", "body": [ { "type": "group", "title": "g", "items": [ 5 ] } ] }),
        json!({ "type": "view", "body": [ { "type": "group", "title": "g", "items": [ { "type": "x" } ] } ] }),
        json!({ "type": "view", "body": [ { "type": "group", "title": "g", "items": [ { "type": "note", "text": "x" } ], "layout": { "columns": 9 } } ] }),
        json!({ "type": "view", "theme": "sepia", "body": [ { "type": "note", "text": "x" } ] }),
        json!({ "type": "view", "extra": true, "body": [ { "type": "note", "text": "x" } ] }),
        json!({ "type": "view", "meta": { "freshness": { "stale": "no" } }, "body": [ { "type": "note", "text": "x" } ] }),
    ];
    for value in &broken {
        assert!(!rt.validate(value).valid, "validate accepted {value}");
        assert!(
            !exported.is_valid(value),
            "the exported schema accepted {value}"
        );
    }
}

#[test]
fn describe_primitives_dedupes_and_stubs_the_body_node() {
    let rt = runtime();
    let described = rt.describe_primitives(&["group", "note", "group"]).unwrap();
    let types: Vec<&str> = described
        .primitives
        .iter()
        .map(|e| e.type_name.as_str())
        .collect();
    assert_eq!(types, vec!["group", "note"]);
    let defs = described.schema["$defs"].as_object().unwrap();
    let names: Vec<&str> = defs.keys().map(String::as_str).collect();
    assert_eq!(names, vec!["bodyNode", "note", "Tone", "group", "Layout"]);
    assert_eq!(
        defs["bodyNode"],
        json!({ "description": "Any primitive in the catalog, as its own object with its type." })
    );
    let note_only = rt.describe_primitives(&["note"]).unwrap();
    let names: Vec<&str> = note_only.schema["$defs"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(names, vec!["note", "Tone"]);
}

#[test]
fn lookups_name_every_unknown_type() {
    let rt = runtime();
    let error = rt
        .describe_primitives(&["note", "b", "a", "b"])
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::UnknownPrimitiveType);
    assert_eq!(
        error.to_string(),
        "getAuthoringContext.describePrimitives: unknown primitive type(s) \"b\", \"a\""
    );
    let error = rt.schema_for(&["zz"]).unwrap_err();
    assert_eq!(
        error,
        IsomerError::UnknownPrimitiveType {
            context: "getAuthoringContext.schemaFor".into(),
            types: vec!["zz".into()]
        }
    );
}

#[test]
fn schema_for_restricts_the_body_union() {
    let rt = runtime();
    let schema = rt.schema_for(&["note"]).unwrap();
    assert_eq!(
        schema["$defs"]["bodyNode"],
        json!({ "oneOf": [ { "$ref": "#/$defs/note" } ] })
    );
    let names: Vec<&str> = schema["$defs"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(names, vec!["bodyNode", "renderTheme", "note", "Tone"]);
    let validator = exported_validator(&schema);
    assert!(validator.is_valid(&view(json!([ { "type": "note", "text": "x" } ]))));
    assert!(!validator.is_valid(&view(
        json!([ { "type": "group", "title": "t", "items": [ { "type": "note", "text": "x" } ] } ])
    )));
}

#[test]
fn the_authoring_context_bundles_schema_catalog_groups_and_views() {
    let rt = runtime();
    let context = rt.authoring_context();
    assert_eq!(&context.schema, rt.authoring_schema());
    assert_eq!(context.primitives.len(), 2);
    assert_eq!(context.primitives[0].type_name, "note");
    assert_eq!(context.primitives[0].group.as_deref(), Some("Text"));
    assert_eq!(context.groups.len(), 2);
    assert!(context.views.is_empty());
    rt.views()
        .register(isomer_sdk::View::builder("v", "A view").build(|_, _| async { json!({}) }))
        .unwrap();
    assert_eq!(rt.authoring_context().views[0].id, "v");
}

/// Own defs of two primitives with the same name but different shapes are
/// kept apart; scalar defs are inlined; `$ref`-only defs are flattened.
#[test]
#[allow(dead_code)] // the structs exist for their schemas
fn def_names_never_collide_and_the_authoring_projection_simplifies() {
    #[derive(Deserialize, JsonSchema)]
    struct Item {
        label: String,
    }
    #[derive(Deserialize, JsonSchema)]
    struct ListA {
        items: Vec<Item>,
    }
    #[derive(Deserialize, JsonSchema)]
    #[schemars(rename = "Item")]
    struct OtherItem {
        count: u32,
    }
    #[derive(Deserialize, JsonSchema)]
    struct ListB {
        items: Vec<OtherItem>,
        child: Option<Node>,
    }
    let leaf = |name: &str| {
        Primitive::builder::<Value>(name)
            .purpose("x")
            .example(json!({ "type": name }))
            .text(|_, _| String::new())
            .markdown(|_, _| Markdown::new())
    };
    let a = Primitive::builder::<ListA>("listA")
        .purpose("A.")
        .example(json!({ "type": "listA", "items": [ { "label": "x" } ] }))
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap();
    let b = Primitive::builder::<ListB>("listB")
        .purpose("B.")
        .example(json!({ "type": "listB", "items": [ { "count": 1 } ] }))
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap();
    let scalar = leaf("scalar")
        .schema_json(json!({
            "type": "object",
            "properties": { "name": { "$ref": "#/$defs/Name" }, "alias": { "$ref": "#/$defs/Alias" } },
            "$defs": { "Name": { "type": "string", "minLength": 2 }, "Alias": { "$ref": "#/$defs/Shape" },
                       "Shape": { "type": "object", "properties": { "k": { "type": "string" } } } }
        }))
        .build()
        .unwrap();
    let rt = Runtime::builder()
        .pack(Pack::new("p").primitives([a, b, scalar]).build().unwrap())
        .build()
        .unwrap();
    let schema = rt.composition_schema();
    assert_eq!(
        schema["$defs"]["Item"]["properties"]["label"],
        json!({ "type": "string" })
    );
    assert_eq!(
        schema["$defs"]["listB_Item"]["properties"]["count"],
        json!({ "type": "integer", "minimum": 0 })
    );
    assert_eq!(
        schema["$defs"]["listB"]["properties"]["items"]["items"],
        json!({ "$ref": "#/$defs/listB_Item" })
    );
    assert_eq!(
        schema["$defs"]["listB"]["properties"]["child"],
        json!({ "$ref": "#/$defs/bodyNode" })
    );
    let authoring = rt.authoring_schema();
    assert_eq!(
        authoring["$defs"]["scalar"]["properties"]["name"],
        json!({ "type": "string", "minLength": 2 })
    );
    assert_eq!(
        authoring["$defs"]["scalar"]["properties"]["alias"],
        json!({ "$ref": "#/$defs/Shape" })
    );
    assert!(authoring["$defs"].get("Name").is_none());
    assert!(authoring["$defs"].get("Alias").is_none());
    // A child of listB is any registered node and is validated as such.
    assert_eq!(
        rt.validate(view(
            json!([ { "type": "listB", "items": [], "child": { "type": "listA" } } ])
        ))
        .errors
        .iter()
        .map(isomer_sdk::format_validation_error)
        .collect::<Vec<_>>(),
        vec!["body[0].child.items (in listA) is required"]
    );
    let walker = rt.walker();
    let node = json!({ "type": "listB", "items": [], "child": { "type": "listA", "items": [] } });
    let children = walker.children(&node);
    assert_eq!(children.len(), 1);
    assert_eq!(children[0].path, "child");
    // The same child without its path: the very value inside the node.
    let nodes = walker.child_nodes(&node);
    assert_eq!(nodes.len(), 1);
    assert!(std::ptr::eq(nodes[0], &node["child"]));
}

/// Type names that are not plain identifiers still make sound refs
/// (percent-encoded JSON pointer tokens) and print quoted in findings.
#[test]
fn odd_type_names_are_escaped_in_refs_and_quoted_in_messages() {
    let odd = |name: &str| {
        Primitive::builder::<Value>(name)
            .schema_json(json!({ "type": "object", "properties": { "label": { "type": "string" } }, "required": ["label"] }))
            .purpose("Odd.")
            .example(json!({ "type": name, "label": "x" }))
            .text(|_, _| String::new())
            .markdown(|_, _| Markdown::new())
            .build()
            .unwrap()
    };
    let rt = Runtime::builder()
        .pack(
            Pack::new("odd")
                .primitives([odd("my kpi"), odd("a/b~c"), odd("ünï")])
                .build()
                .unwrap(),
        )
        .build()
        .unwrap();
    assert_eq!(
        rt.composition_schema()["$defs"]["bodyNode"],
        json!({ "oneOf": [
            { "$ref": "#/$defs/my%20kpi" }, { "$ref": "#/$defs/a~1b~0c" }, { "$ref": "#/$defs/%C3%BCn%C3%AF" }
        ] })
    );
    let exported = exported_validator(rt.composition_schema());
    for primitive in rt.primitives() {
        let value = view(json!([primitive.catalog_entry().example]));
        assert!(rt.validate(&value).valid);
        assert!(exported.is_valid(&value), "{value}");
        let broken = view(json!([ { "type": primitive.type_name() } ]));
        assert!(!exported.is_valid(&broken));
    }
    let found: Vec<String> = rt
        .validate(view(json!([ { "type": "my kpi" }, { "type": "zz" } ])))
        .errors
        .iter()
        .map(isomer_sdk::format_validation_error)
        .collect();
    assert_eq!(
        found,
        vec![
            "body[0].label (in \"my kpi\") is required",
            "body[1].type must be one of: \"my kpi\", \"a/b~c\", \"ünï\"",
        ]
    );
    let described = rt.describe_primitives(&["a/b~c"]).unwrap();
    let names: Vec<&str> = described.schema["$defs"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(names, vec!["a/b~c"]);
}

#[test]
fn check_examples_names_failing_examples() {
    assert_eq!(runtime().check_examples(), vec![]);
    let bad = Primitive::builder::<Value>("bad")
        .schema_json(json!({ "type": "object", "properties": { "n": { "type": "number" } }, "required": ["n"] }))
        .purpose("Bad.")
        .example(json!({ "type": "bad", "n": 1 }))
        .examples([json!({ "type": "bad", "n": "one" })])
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap();
    let rt = Runtime::builder()
        .pack(Pack::new("b").primitive(bad).build().unwrap())
        .build()
        .unwrap();
    let failing = rt.check_examples();
    assert_eq!(failing.len(), 1);
    assert_eq!((failing[0].0.as_str(), failing[0].1), ("bad", 1));
    assert_eq!(
        failing[0].2,
        vec![
            isomer_sdk::ValidationError::new(
                "body[0].n",
                "Invalid input: expected number, received string"
            )
            .with_node_type("bad")
        ]
    );
}
