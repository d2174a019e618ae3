//! Construction errors are typed `IsomerError`s with upstream codes, never
//! panics.

mod common;

use common::{group, note, pack};
use isomer_sdk::{ErrorCode, Frame, IsomerError, Markdown, Pack, Primitive, Runtime, View};
use serde_json::{Value, json};

fn leaf(type_name: &str) -> Primitive {
    Primitive::builder::<Value>(type_name)
        .schema_json(json!({ "type": "object", "properties": { "text": { "type": "string" } } }))
        .purpose("A leaf.")
        .example(json!({ "type": type_name, "text": "x" }))
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap()
}

#[test]
fn a_runtime_needs_packs() {
    let error = Runtime::builder().build().unwrap_err();
    assert_eq!(error, IsomerError::EmptyPacks);
    assert_eq!(error.code(), ErrorCode::EmptyPacks);
    assert_eq!(error.code().as_str(), "EMPTY_PACKS");
}

#[test]
fn a_pack_needs_primitives_with_unique_types() {
    let error = Pack::new("empty").build().unwrap_err();
    assert_eq!(error.code(), ErrorCode::EmptyPack);
    assert_eq!(error.to_string(), "pack \"empty\" declares no primitive");

    let error = Pack::new("dup")
        .primitives([
            leaf("a"),
            leaf("b"),
            leaf("a"),
            leaf("b"),
            leaf("a"),
            leaf("c"),
        ])
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        IsomerError::DuplicatePrimitiveType {
            types: vec!["a".into(), "b".into()]
        }
    );
    assert_eq!(
        error.to_string(),
        "duplicate primitive type(s): \"a\", \"b\""
    );
}

#[test]
fn packs_compose_without_duplicates() {
    let one = Pack::new("one")
        .primitives([leaf("a"), leaf("b")])
        .build()
        .unwrap();
    let two = Pack::new("two")
        .primitives([leaf("b"), leaf("a")])
        .build()
        .unwrap();
    let error = Runtime::builder()
        .pack(one.clone())
        .pack(two)
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        IsomerError::DuplicatePrimitiveType {
            types: vec!["b".into(), "a".into()]
        }
    );
    assert_eq!(error.code(), ErrorCode::DuplicatePrimitiveType);

    let again = Pack::new("one").primitive(leaf("c")).build().unwrap();
    let error = Runtime::builder()
        .pack(one)
        .pack(again)
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        IsomerError::DuplicatePackId {
            ids: vec!["one".into()]
        }
    );
    assert_eq!(error.code().as_str(), "DUPLICATE_PACK_ID");
}

#[test]
fn groups_must_name_declared_types_once() {
    let error = Pack::new("p")
        .primitive(leaf("a"))
        .group("G", ["a", "zz"])
        .build()
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidPackGroups);
    assert_eq!(
        error.to_string(),
        "pack \"p\" has invalid groups: group \"G\" names the unknown type \"zz\""
    );
    let error = Pack::new("p")
        .primitive(leaf("a"))
        .group("G", ["a"])
        .group("H", ["a"])
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "pack \"p\" has invalid groups: type \"a\" sits in more than one group"
    );
}

#[test]
fn groups_default_to_the_primitives_catalog_groups() {
    let pack = pack();
    let groups: Vec<(&str, Vec<&str>)> = pack
        .groups()
        .iter()
        .map(|g| {
            (
                g.title.as_str(),
                g.types.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        groups,
        vec![("Text", vec!["note"]), ("Layout", vec!["group"])]
    );
}

#[test]
fn frames_resolve_a_default() {
    let build = |frames: Vec<Frame>, default: Option<&str>| {
        let mut builder = Runtime::builder().pack(pack()).frames(frames);
        if let Some(default) = default {
            builder = builder.default_frame(default);
        }
        builder.build()
    };
    assert_eq!(build(vec![], None).unwrap_err(), IsomerError::EmptyFrames);
    assert_eq!(
        build(vec![Frame::new("a"), Frame::new("b")], None).unwrap_err(),
        IsomerError::AmbiguousFrame { count: 2 }
    );
    let error = build(vec![Frame::new("a")], Some("constructor")).unwrap_err();
    assert_eq!(
        error,
        IsomerError::UnknownFrame {
            name: "constructor".into()
        }
    );
    assert_eq!(error.code().as_str(), "UNKNOWN_FRAME");
    let error = Runtime::builder()
        .pack(pack())
        .default_frame("a")
        .build()
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::UnknownFrame);

    let runtime = build(vec![Frame::new("a"), Frame::new("b")], Some("b")).unwrap();
    assert_eq!(runtime.frame(None).unwrap().name(), "b");
    assert_eq!(runtime.frame(Some("a")).unwrap().name(), "a");
    assert_eq!(
        runtime.frame(Some("c")).unwrap_err(),
        IsomerError::UnknownFrame { name: "c".into() }
    );
    let single = build(vec![Frame::new("only")], None).unwrap();
    assert_eq!(single.frame(None).unwrap().name(), "only");
}

#[test]
fn frame_body_rules_run_on_demand() {
    let frame = Frame::new("slide").body_rule(|body| {
        if body.len() == 1 {
            Vec::new()
        } else {
            vec![format!(
                "a snapshot render needs exactly one \"slideFrame\" node, got {} nodes; render one slide per spec",
                body.len()
            )]
        }
    });
    assert!(frame.has_body_rule());
    assert_eq!(frame.validate_body(&[json!({}), json!({})]), vec![
        "a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec".to_owned()
    ]);
    assert_eq!(Frame::new("plain").validate_body(&[]), Vec::<String>::new());
}

#[test]
fn duplicate_views_and_formats_are_refused() {
    let view = || View::<()>::builder("v", "V").build(|_, _| async { json!({}) });
    let error = Runtime::builder()
        .pack(pack())
        .view(view())
        .view(view())
        .build()
        .unwrap_err();
    assert_eq!(error, IsomerError::DuplicateView { id: "v".into() });
    assert_eq!(error.to_string(), "View \"v\" is already registered");
    let runtime = Runtime::builder()
        .pack(pack())
        .view(view())
        .build()
        .unwrap();
    assert_eq!(
        runtime.views().register(view()).unwrap_err().code(),
        ErrorCode::DuplicateView
    );

    let error = Runtime::builder()
        .pack(pack())
        .format("png")
        .format("text")
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        IsomerError::DuplicateFormat {
            name: "text".into()
        }
    );
}

#[test]
fn primitive_declarations_are_checked() {
    let base = || {
        Primitive::builder::<Value>("x")
            .schema_json(json!({ "type": "object", "properties": {} }))
            .purpose("X.")
            .example(json!({ "type": "x" }))
            .text(|_, _| String::new())
    };
    let error = base().build().unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidPrimitive);
    assert_eq!(
        error.to_string(),
        "primitive \"x\" is incomplete: the text and markdown renderers are required"
    );

    let error = base()
        .purpose(" \n")
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "primitive \"x\" is incomplete: the catalog purpose is blank"
    );

    let error = base()
        .example(json!({ "type": "y" }))
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "primitive \"x\" is incomplete: the catalog example is not a node of this type"
    );

    for field in ["id", "surfaces"] {
        let error = base()
            .schema_json(json!({ "type": "object", "properties": { field: { "type": "string" } } }))
            .markdown(|_, _| Markdown::new())
            .build()
            .unwrap_err();
        assert_eq!(
            error,
            IsomerError::ReservedNodeField {
                type_name: "x".into(),
                field: field.into()
            }
        );
        assert_eq!(error.code().as_str(), "RESERVED_NODE_FIELD");
    }

    let error = base()
        .schema_json(json!({ "type": "array" }))
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidSchema);

    let error = base()
        .schema_json(json!({ "type": "object", "properties": { "a": { "type": 5 } } }))
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidSchema);
    assert_eq!(
        error.to_string(),
        "primitive \"x\" has an unusable schema: 5 is not valid under any of the schemas listed in the 'anyOf' keyword"
    );
}

#[test]
fn a_schema_that_passes_the_meta_schema_but_does_not_compile_fails_its_nodes() {
    // Validators compile on first use, so only the meta-schema check runs
    // at build; a pattern that is not a regular expression shows when a
    // node of the type is checked.
    let broken = Primitive::builder::<Value>("broken")
        .schema_json(json!({ "type": "object", "properties": { "code": { "type": "string", "pattern": "(" } } }))
        .purpose("Broken.")
        .example(json!({ "type": "broken", "code": "x" }))
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap();
    let runtime = runtime_of(broken);
    assert_eq!(
        the_failing_example(&runtime, "broken"),
        "cannot be checked: its schema does not compile (\"(\" is not a \"regex\")"
    );
}

/// A runtime of one pack holding `primitive`.
fn runtime_of(primitive: Primitive) -> Runtime {
    Runtime::builder()
        .pack(Pack::new("p").primitive(primitive).build().unwrap())
        .build()
        .unwrap()
}

/// The message of the one finding of the one failing catalog example,
/// which must be `type_name`'s first, reported at `body[0]` as its node.
fn the_failing_example(runtime: &Runtime, type_name: &str) -> String {
    let failing = runtime.check_examples();
    assert_eq!(failing.len(), 1);
    let (failing_type, index, errors) = &failing[0];
    assert_eq!((failing_type.as_str(), *index), (type_name, 0));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].path, "body[0]");
    assert_eq!(errors[0].node_type.as_deref(), Some(type_name));
    errors[0].message.clone()
}

/// A node struct with a field every node has already.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Tagged {
    #[serde(rename = "surfaces")]
    shown_on: Vec<String>,
    text: String,
}

#[test]
fn a_derived_struct_with_a_reserved_field_is_refused_at_build() {
    let error = Primitive::builder::<Tagged>("tagged")
        .purpose("Tagged.")
        .example(json!({ "type": "tagged", "text": "x" }))
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        IsomerError::ReservedNodeField {
            type_name: "tagged".into(),
            field: "surfaces".into()
        }
    );
}

/// A node struct whose hand-written `JsonSchema` describes an array.
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Listed {
    items: Vec<String>,
}

impl schemars::JsonSchema for Listed {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Listed".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "array" })
    }
}

/// A newtype node, whose derived schema describes an array.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Words(Vec<String>);

/// Fields every node has, flattened into a node struct.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Base {
    id: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Flattened {
    #[serde(flatten)]
    base: Base,
    text: String,
}

/// A field that also reads the key `id`, which its schema does not declare.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Aliased {
    #[serde(alias = "id")]
    ident: String,
}

fn build_derived<T>(type_name: &str) -> Result<Primitive, IsomerError>
where
    T: serde::de::DeserializeOwned + schemars::JsonSchema + 'static,
{
    Primitive::builder::<T>(type_name)
        .purpose("Derived.")
        .example(json!({ "type": type_name }))
        .text(|_, _| String::new())
        .markdown(|_, _| Markdown::new())
        .build()
}

#[test]
fn a_derived_schema_of_anything_but_a_plain_struct_is_checked_at_build() {
    let error = build_derived::<Words>("words").unwrap_err();
    assert_eq!(
        error.to_string(),
        "primitive \"words\" has an unusable schema: the schema does not describe an object"
    );
    assert_eq!(
        build_derived::<Flattened>("flattened").unwrap_err(),
        IsomerError::ReservedNodeField {
            type_name: "flattened".into(),
            field: "id".into()
        }
    );
    // An alias is no schema field: the struct's schema is made now, and
    // declares `ident` only.
    let aliased = build_derived::<Aliased>("aliased").unwrap();
    assert_eq!(aliased.field_names(), ["ident".to_owned()]);
}

#[test]
fn an_unusable_derived_schema_fails_every_node_of_its_type() {
    // A plain struct's schema is derived on first use, so the build cannot
    // see a hand-written `JsonSchema` that describes no object; the nodes
    // can.
    let listed = build_derived::<Listed>("listed").unwrap();
    assert_eq!(listed.schema(), &json!(false));
    assert!(listed.field_names().is_empty());
    let runtime = runtime_of(listed);
    assert_eq!(
        the_failing_example(&runtime, "listed"),
        "cannot be checked: primitive \"listed\" has an unusable schema: the schema does not describe an object"
    );
    assert_eq!(
        runtime.composition_schema()["$defs"]["listed"],
        json!(false)
    );
    assert_eq!(runtime.authoring_schema()["$defs"]["listed"], json!(false));
    let described = runtime.describe_primitives(&["listed"]).unwrap();
    assert_eq!(described.primitives[0].type_name, "listed");
    assert_eq!(
        runtime.authoring_context().primitives[0].type_name,
        "listed"
    );
}

#[test]
fn the_runtime_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Runtime>();
    assert_send_sync::<Runtime<std::sync::Arc<String>>>();
    assert_send_sync::<Primitive>();
    let _ = (note(), group());
}

#[test]
fn capabilities_report_native_and_fallback_renderers() {
    let runtime = Runtime::builder()
        .pack(pack())
        .format("png")
        .build()
        .unwrap();
    let capabilities = runtime.capabilities();
    assert_eq!(capabilities.primitives, vec!["note", "group"]);
    assert_eq!(
        capabilities.surfaces,
        vec!["html", "text", "markdown", "slack"]
    );
    assert_eq!(
        capabilities.formats,
        vec!["html", "text", "markdown", "slack", "png"]
    );
    insta::assert_json_snapshot!(capabilities.support, @r#"
    {
      "group": {
        "html": "fallback",
        "markdown": "native",
        "slack": "fallback",
        "text": "native"
      },
      "note": {
        "html": "native",
        "markdown": "native",
        "slack": "native",
        "text": "native"
      }
    }
    "#);
}
