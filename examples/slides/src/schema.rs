//! How the pack's Rust field types become JSON Schema, and the
//! descriptions the authoring schema carries.
//!
//! Upstream's node schemas are strict Zod objects whose optional fields may
//! be *absent* but never `null`. schemars describes an `Option<T>` field as
//! "T or null"; the sdk's normalization removes that null from `type`
//! arrays and `anyOf` unions, but an optional *enum* (an `Option<Size>`)
//! keeps a `null` in its `enum` list, which a model would read as allowed
//! and a refusal would list (`must be one of: l, m, s, null`). [`no_null`]
//! removes every form of it, so the schema says exactly what the validator
//! accepts.

use schemars::Schema;
use serde_json::{Map, Value};

/// A schemars container transform: in every property of an object schema,
/// drops the `null` schemars added for an `Option` field (from `type`
/// arrays, `enum` lists and `anyOf` branches) and unwraps a one-branch
/// `anyOf`, keeping the property's own keys (its `description`) on top.
///
/// The pack applies it to every object of every node schema it derives
/// ([`crate::primitives::primitive`]), so no field struct has to ask.
pub fn no_null(schema: &mut Schema) {
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return;
    };
    for property in properties.values_mut() {
        if let Value::Object(object) = property {
            drop_null(object);
        }
    }
}

fn drop_null(object: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            object.insert("type".to_owned(), only);
        }
    }
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    let Some(Value::Array(branches)) = object.get_mut("anyOf") else {
        return;
    };
    branches.retain(|branch| branch.get("type").and_then(Value::as_str) != Some("null"));
    if branches.len() != 1 {
        return;
    }
    let Some(Value::Object(only)) = branches.pop() else {
        return;
    };
    object.remove("anyOf");
    for (key, value) in only {
        object.entry(key).or_insert(value);
    }
}

/// Descriptions of authoring-schema defs (`$defs.<type>`), restating the
/// cross-field rules that JSON Schema cannot express, so a model reading
/// only the schema still learns them (upstream `slidesPackAuthoring.describe`).
pub const DESCRIBE: &[(&str, &str)] = &[
    (
        "slideHeading",
        "A content slide's claim, with an optional lede; opens every page-tone slide that has a body.",
    ),
    ("slideStatement", "One thesis sentence, alone on its slide."),
    (
        "slideQuote",
        "Someone else's words and who said them, alone on its slide.",
    ),
    (
        "slideSource",
        "One citation line; the last node of the slideFrame body.",
    ),
    (
        "slideList",
        "Up to six one-line facts, each optionally keyed by a term.",
    ),
    (
        "slideBulletList",
        "Up to six short points sharing one marker.",
    ),
    (
        "slideDefinitions",
        "Up to six terms, each with a one-sentence meaning.",
    ),
    (
        "slideFrame",
        "One whole slide; a composition's body is exactly one slideFrame. Frames never nest. url must be an absolute http or https URL.",
    ),
    (
        "slideTitle",
        "The deck's opening slide. aside holds one node (not a slideFrame).",
    ),
    (
        "slideSection",
        "A section divider. hrefs, when given, has one entry per contents line.",
    ),
    (
        "slideAgenda",
        "The talk's sections; at most one section is current.",
    ),
    (
        "slideClosing",
        "The deck's last slide. Each link href is an https, http, or mailto URL, or a relative path.",
    ),
    (
        "slideSplit",
        "Two panes side by side. A pane's tone needs a label. No slideFrame in a pane.",
    ),
    (
        "slideStack",
        "Stacked nodes in a one-node slot. No slideFrame among the items.",
    ),
    (
        "slideWindow",
        "Nodes in an app's title bar. No slideFrame in the body and no slideWindow anywhere inside.",
    ),
    (
        "slideColumns",
        "Parallel options. highlight is an index into items.",
    ),
    (
        "slideTimeline",
        "Dated moments; at most one item is current.",
    ),
    (
        "slidePipeline",
        "Ordered steps. Any span switches to spans mode: no start, end or step bodies; each span needs from ≤ to < the number of steps; spans must not overlap.",
    ),
    (
        "slideStat",
        "One headline number. unit needs a value; value needs a visible character.",
    ),
    (
        "slideStats",
        "Two to four numbers. Each unit needs a value.",
    ),
    (
        "slideDelta",
        "One measure before and after. change needs both values.",
    ),
    (
        "slideBars",
        "Amounts as bars. max is at least every value; at most one bar is highlighted.",
    ),
    (
        "slideTable",
        "A grid. Give exactly one of rows or groups; every row has one cell per column; at most 12 rows across groups.",
    ),
    (
        "slideCode",
        "Source panels. Each line is one line without tabs and fits its panel; highlightLines name existing lines.",
    ),
    (
        "slideDiff",
        "A snippet with changed lines. Each line is one line without tabs and fits the panel.",
    ),
    (
        "slideCommand",
        "One shell command on one line without tabs. highlightPrefix must be a prefix of command.",
    ),
    (
        "slideTranscript",
        "A short exchange. Every turn's text has a non-blank line.",
    ),
    (
        "slideRoadmap",
        "Planned work by horizon; at most one column is current.",
    ),
    (
        "slideSequence",
        "Messages between actors in time order. Actor ids are unique; each message's from and to name two different actors; every actor sends or receives a message.",
    ),
    (
        "slideLanes",
        "Two paths of steps ending in one shared join step.",
    ),
    (
        "slideGraph",
        "Terms and arrows in one shape: nodes without placement form a main row of 2–4, left to right in array order, with an edge [main[i], main[i+1]] for each neighbouring pair; at most one node above and one below, each joined by exactly one edge to a main node; no other edges, no repeated edge; ids unique; at most one node emphasized.",
    ),
    (
        "slideFanout",
        "One source going to two to six unordered targets.",
    ),
    (
        "slideTree",
        "A folder and its entries, one level deep: a name holds no \"/\" except a folder's trailing one.",
    ),
    (
        "slideLayers",
        "An ordered stack of layers with owners. Each layer has exactly one of body or chips.",
    ),
    (
        "slideTerritoryGroup",
        "Who owns what: one column per owner.",
    ),
    (
        "slideQuadrant",
        "Items in a two-by-two plot. quadrants are in the order top-left, top-right, bottom-left, bottom-right; highlight is 0 to 3.",
    ),
    (
        "slideMatrix",
        "Options (columns) against capabilities (rows). Every row has one mark per column; highlight is an index into columns.",
    ),
    (
        "slideRender",
        "Another slide or loose nodes as one surface renders it. Needs slide or body. body is one slideFrame alone or nodes without a frame, and holds no slideRender, slideRenderGrid or slideAnnotatedRender anywhere.",
    ),
    (
        "slideAnnotatedRender",
        "A slideRender with numbered pins. render is a slideRender node (same rules).",
    ),
    (
        "slideRenderGrid",
        "One body on two to six surfaces, each surface at most once. body is one slideFrame alone or nodes without a frame, and holds no slideRender, slideRenderGrid or slideAnnotatedRender anywhere.",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn removes_null_from_types_enums_and_any_of() {
        let mut schema = Schema::try_from(json!({
            "type": "object",
            "properties": {
                "a": { "type": ["string", "null"], "minLength": 1 },
                "b": { "type": ["string", "null"], "enum": ["l", "m", null] },
                "c": { "description": "d", "anyOf": [{ "type": "object", "description": "x" }, { "type": "null" }] },
            }
        }))
        .unwrap();
        no_null(&mut schema);
        assert_eq!(
            schema.as_value(),
            &json!({
                "type": "object",
                "properties": {
                    "a": { "type": "string", "minLength": 1 },
                    "b": { "type": "string", "enum": ["l", "m"] },
                    "c": { "description": "d", "type": "object" },
                }
            })
        );
    }
}
