//! `describe_primitives` field descriptors (`props`, upstream
//! `PropDescriptor`) and its 100-type cap (`TOO_MANY_TYPES`),
//! as upstream's `describePrimitives` answers them.

mod common;

use common::pack;
use isomer_sdk::catalog::{PrimitiveProps, PropDescriptor, PropKind};
use isomer_sdk::{
    ErrorCode, IsomerError, Markdown, Pack, Primitive, PrimitiveDescriptions, Runtime,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// Whether a checklist counts from the top or the bottom.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Order {
    /// First item first.
    TopDown,
    /// Last item first.
    BottomUp,
}

/// Either a label or a count.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Badge {
    /// A word.
    Label(String),
    /// A number.
    Count(u32),
}

/// Who owns a checklist.
#[derive(Deserialize, JsonSchema)]
pub struct Owner {
    /// The owner's name.
    pub name: String,
}

/// A list of things to tick: the kinds the note/group pack lacks.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Checklist {
    /// The items to tick.
    pub items: Vec<String>,
    /// Share done, 0 to 1.
    pub progress: f64,
    /// Whether ticked items are hidden.
    pub hide_done: Option<bool>,
    /// The counting order.
    pub order: Option<Order>,
    /// A badge beside the title.
    pub badge: Option<Badge>,
    /// Who owns it.
    pub owner: Owner,
    /// Anything the host wants to keep.
    pub extra: Option<Value>,
}

fn checklist() -> Primitive {
    Primitive::builder::<Checklist>("checklist")
        .purpose("A list of things to tick.")
        .example(json!({ "type": "checklist", "items": ["a"], "progress": 0, "owner": { "name": "Ada" } }))
        .text(|node, _| node.items.join("\n"))
        .markdown(|_, _| Markdown::new())
        .build()
        .expect("checklist is a valid primitive")
}

/// The note/group test pack plus a `checklist` pack.
fn runtime() -> Runtime {
    let extra = Pack::new("extra")
        .primitive(checklist())
        .build()
        .expect("the extra pack is valid");
    Runtime::builder()
        .pack(pack())
        .pack(extra)
        .build()
        .expect("the runtime builds")
}

fn prop(
    name: &str,
    type_name: &str,
    kind: PropKind,
    values: Option<&[&str]>,
    required: bool,
    description: &str,
) -> PropDescriptor {
    PropDescriptor {
        name: name.into(),
        type_name: type_name.into(),
        kind,
        values: values.map(|values| values.iter().map(|v| (*v).to_owned()).collect()),
        required,
        description: description.into(),
    }
}

#[test]
fn a_leaf_lists_its_fields_in_schema_order_without_the_type() {
    let described = runtime().describe_primitives(&["note"]).unwrap();
    assert_eq!(
        described.props.get("note").unwrap(),
        [
            prop(
                "text",
                "string",
                PropKind::String,
                None,
                true,
                "The note's text."
            ),
            // A `$ref` to an enum def: its choices; the field's own
            // description wins over the def's ("How a note is coloured.").
            prop(
                "tone",
                "\"neutral\" | \"primary\"",
                PropKind::Enum,
                Some(&["neutral", "primary"]),
                false,
                "The note's colour."
            ),
            prop(
                "href",
                "string",
                PropKind::String,
                None,
                false,
                "Where the note links to."
            ),
        ]
    );
}

#[test]
fn a_container_lists_its_child_slot_and_nested_object() {
    let described = runtime().describe_primitives(&["group"]).unwrap();
    assert_eq!(
        described.props.get("group").unwrap(),
        [
            prop(
                "title",
                "string",
                PropKind::String,
                None,
                true,
                "The group's title."
            ),
            prop(
                "items",
                "BodyNode[]",
                PropKind::Array,
                None,
                true,
                "The nodes in the group."
            ),
            prop(
                "layout",
                "object",
                PropKind::Object,
                None,
                false,
                "The layout."
            ),
        ]
    );
}

#[test]
fn every_other_kind() {
    let described = runtime().describe_primitives(&["checklist"]).unwrap();
    assert_eq!(
        described.props.get("checklist").unwrap(),
        [
            prop(
                "items",
                "string[]",
                PropKind::Array,
                None,
                true,
                "The items to tick."
            ),
            prop(
                "progress",
                "number",
                PropKind::Number,
                None,
                true,
                "Share done, 0 to 1."
            ),
            prop(
                "hideDone",
                "boolean",
                PropKind::Boolean,
                None,
                false,
                "Whether ticked items are hidden."
            ),
            // A `$ref` to a string enum def.
            prop(
                "order",
                "\"topDown\" | \"bottomUp\"",
                PropKind::Enum,
                Some(&["topDown", "bottomUp"]),
                false,
                "The counting order."
            ),
            // A `$ref` to an `anyOf` of a string and an integer.
            prop(
                "badge",
                "string | number",
                PropKind::Other,
                None,
                false,
                "A badge beside the title."
            ),
            prop(
                "owner",
                "object",
                PropKind::Object,
                None,
                true,
                "Who owns it."
            ),
            prop(
                "extra",
                "unknown",
                PropKind::Other,
                None,
                false,
                "Anything the host wants to keep."
            ),
        ]
    );
}

#[test]
fn props_follow_the_deduplicated_types_in_first_seen_order() {
    let described = runtime()
        .describe_primitives(&["group", "checklist", "note", "group"])
        .unwrap();
    let types: Vec<&str> = described.props.types().collect();
    assert_eq!(types, ["group", "checklist", "note"]);
    assert_eq!(described.props.len(), described.primitives.len());
    assert_eq!(described.props.get("missing"), None);
}

#[test]
fn props_serialize_camel_case_with_lowercase_kinds() {
    let described = runtime().describe_primitives(&["note", "group"]).unwrap();
    let wire = serde_json::to_value(&described).unwrap();
    let keys: Vec<&str> = wire
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["primitives", "schema", "props"]);
    let props_keys: Vec<&str> = wire["props"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(props_keys, ["note", "group"]);
    assert_eq!(
        wire["props"]["note"][1],
        json!({
            "name": "tone",
            "type": "\"neutral\" | \"primary\"",
            "kind": "enum",
            "values": ["neutral", "primary"],
            "required": false,
            "description": "The note's colour."
        })
    );
    // `values` is absent, not null, outside enums.
    assert_eq!(
        wire["props"]["group"][1],
        json!({
            "name": "items",
            "type": "BodyNode[]",
            "kind": "array",
            "required": true,
            "description": "The nodes in the group."
        })
    );
    let back: PrimitiveDescriptions = serde_json::from_value(wire).unwrap();
    assert_eq!(back, described);
}

#[test]
fn props_read_back_in_order_and_refuse_a_repeated_type() {
    let read: PrimitiveProps =
        serde_json::from_str(r#"{"b":[],"a":[{"name":"x","type":"number","kind":"number","required":true,"description":""}]}"#)
            .unwrap();
    assert_eq!(read.types().collect::<Vec<_>>(), ["b", "a"]);
    assert_eq!(
        read.get("a").unwrap(),
        [prop("x", "number", PropKind::Number, None, true, "")]
    );
    let error = serde_json::from_str::<PrimitiveProps>(r#"{"a":[],"a":[]}"#).unwrap_err();
    assert_eq!(
        error.to_string(),
        "primitive type \"a\" appears twice in props at line 1 column 15"
    );
    // An answer without `props` (written before it existed) reads as empty.
    let old: PrimitiveDescriptions =
        serde_json::from_value(json!({ "primitives": [], "schema": { "$defs": {} } })).unwrap();
    assert!(old.props.is_empty());
}

/// A runtime of `count` leaf primitives `t0`, `t1`, ….
fn wide_runtime(count: usize) -> Runtime {
    let primitives = (0..count).map(|index| {
        let type_name = format!("t{index}");
        Primitive::builder::<Value>(type_name.as_str())
            .schema_json(
                json!({ "type": "object", "properties": { "text": { "type": "string" } } }),
            )
            .purpose("A leaf.")
            .example(json!({ "type": type_name, "text": "x" }))
            .text(|_, _| String::new())
            .markdown(|_, _| Markdown::new())
            .build()
            .unwrap()
    });
    Runtime::builder()
        .pack(Pack::new("wide").primitives(primitives).build().unwrap())
        .build()
        .unwrap()
}

#[test]
fn a_hundred_types_are_described_and_a_hundred_and_one_refused() {
    let rt = wide_runtime(101);
    let names: Vec<String> = (0..101).map(|index| format!("t{index}")).collect();
    let all: Vec<&str> = names.iter().map(String::as_str).collect();

    // 100 distinct types, t0 asked for three times: allowed.
    let mut hundred = all[..100].to_vec();
    hundred.extend(["t0", "t0"]);
    let described = rt.describe_primitives(&hundred).unwrap();
    assert_eq!(described.primitives.len(), 100);
    assert_eq!(described.props.len(), 100);
    assert_eq!(
        described.props.get("t99").unwrap(),
        [prop("text", "string", PropKind::String, None, false, "")]
    );

    let error = rt.describe_primitives(&all).unwrap_err();
    assert_eq!(
        error,
        IsomerError::TooManyTypes {
            context: "getAuthoringContext.describePrimitives".into(),
            count: 101,
            limit: 100
        }
    );
    assert_eq!(error.code(), ErrorCode::TooManyTypes);
    assert_eq!(error.code().as_str(), "TOO_MANY_TYPES");
    assert_eq!(
        error.to_string(),
        "getAuthoringContext.describePrimitives: 101 primitive types asked for, at most 100 per call"
    );
}

#[test]
fn the_cap_is_checked_before_unknown_types_are_named() {
    let rt = runtime();
    let names: Vec<String> = (0..150).map(|index| format!("nope{index}")).collect();
    let mut types: Vec<&str> = names.iter().map(String::as_str).collect();
    types.push("note");
    let error = rt.describe_primitives(&types).unwrap_err();
    assert_eq!(
        error.to_string(),
        "getAuthoringContext.describePrimitives: 151 primitive types asked for, at most 100 per call"
    );
    // Under the cap, unknown types are named as before.
    let error = rt.describe_primitives(&types[..3]).unwrap_err();
    assert_eq!(error.code(), ErrorCode::UnknownPrimitiveType);
}
