//! The validator projection of the composition schema (upstream
//! `buildCompositionJsonSchema`, sdk.md §9): draft 2020-12, the strict root,
//! `$defs.bodyNode` = `oneOf` of a `$ref` per type, `$defs.<type>` = each
//! primitive's node object (with `id` and `surfaces`), the primitives' own
//! nested defs hoisted next to them. Every object that declares properties
//! and says nothing of others gets `additionalProperties: false`, as Zod's
//! output-mode export does.

use serde_json::{Map, Value, json};

use crate::node::{BODY_NODE_DEF, BODY_NODE_REF};
use crate::primitive::Primitive;
use crate::schema::node::ERROR_MESSAGE_KEYWORD;
use crate::schema::root::root_properties;
use crate::schema::{def_name_of, def_ref, for_each_ref_mut, for_each_schema_mut};

/// The root's default description.
pub(crate) const VIEW_DESCRIPTION: &str = "A compact view: one JSON object whose body lists nodes, each a registered primitive chosen by its type.";

/// The composition schema over `primitives` (their order is the union's).
pub(crate) fn composition_schema(primitives: &[Primitive], id: Option<&str>) -> Value {
    let mut defs = Map::new();
    let union: Vec<Value> = primitives
        .iter()
        .map(|p| json!({ "$ref": def_ref(p.type_name()) }))
        .collect();
    defs.insert(BODY_NODE_DEF.into(), json!({ "oneOf": union }));
    let types: Vec<&str> = primitives.iter().map(Primitive::type_name).collect();
    for primitive in primitives {
        let schema = &primitive.inner.schema;
        let mut renames: Vec<(String, String)> = Vec::new();
        for (name, def) in &schema.defs {
            let clash = types.contains(&name.as_str())
                || name == BODY_NODE_DEF
                || defs.get(name).is_some_and(|existing| existing != def);
            if clash {
                renames.push((name.clone(), format!("{}_{}", primitive.type_name(), name)));
            }
        }
        let rename = |value: &mut Value| {
            for_each_ref_mut(value, |reference| {
                if let Some(name) = def_name_of(reference)
                    && let Some((_, to)) = renames.iter().find(|(from, _)| *from == name)
                {
                    *reference = def_ref(to);
                }
            });
        };
        let mut member = schema.member.clone();
        rename(&mut member);
        defs.insert(primitive.type_name().to_owned(), member);
        for (name, def) in &schema.defs {
            let mut def = def.clone();
            rename(&mut def);
            let target = renames
                .iter()
                .find(|(from, _)| from == name)
                .map_or(name.clone(), |(_, to)| to.clone());
            defs.insert(target, def);
        }
    }
    let mut root = Map::new();
    root.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    if let Some(id) = id {
        root.insert("$id".into(), json!(id));
    }
    root.insert("title".into(), json!("View"));
    root.insert("description".into(), json!(VIEW_DESCRIPTION));
    root.insert("type".into(), json!("object"));
    root.insert(
        "properties".into(),
        root_properties(json!({ "$ref": BODY_NODE_REF })),
    );
    root.insert("required".into(), json!(["type", "body"]));
    root.insert("additionalProperties".into(), json!(false));
    root.insert("$defs".into(), Value::Object(defs));
    let mut root = Value::Object(root);
    for_each_schema_mut(&mut root, |map| {
        map.remove(ERROR_MESSAGE_KEYWORD);
        if map.contains_key("properties") && !map.contains_key("additionalProperties") {
            map.insert("additionalProperties".into(), json!(false));
        }
    });
    root
}
