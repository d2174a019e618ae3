//! The validator projection of the composition schema (upstream
//! `buildCompositionJsonSchema`): draft 2020-12, the strict root,
//! `$defs.bodyNode` = `oneOf` of a `$ref` per type, `$defs.renderTheme` =
//! the root `theme`'s values, `$defs.<type>` = each
//! primitive's node object (with `id` and `surfaces`), the primitives' own
//! nested defs hoisted next to them. Every object that declares properties
//! and says nothing of others gets `additionalProperties: false`, as Zod's
//! output-mode export does.

use serde_json::{Map, Value, json};

use crate::composition::THEMES;
use crate::node::{BODY_NODE_DEF, BODY_NODE_REF};
use crate::primitive::Primitive;
use crate::schema::node::ERROR_MESSAGE_KEYWORD;
use crate::schema::root::root_properties;
use crate::schema::{def_name_of, def_ref, for_each_ref_mut, for_each_schema_mut};

/// The root's default description.
pub(crate) const VIEW_DESCRIPTION: &str = "A compact view: one JSON object whose body lists nodes, each a registered primitive chosen by its type.";

/// The name of the shared def the root's `theme` refers to, as upstream
/// names its shared render-theme schema. A pack's nested def of the same
/// name and another shape is renamed, as any clashing nested def is; a
/// primitive named `renderTheme` keeps the name and `theme` stays inline.
pub(crate) const RENDER_THEME_DEF: &str = "renderTheme";

/// `renderTheme`: one of `auto`, `light`, `dark`.
fn render_theme_schema() -> Value {
    json!({ "type": "string", "enum": THEMES })
}

/// The composition schema over `primitives` (their order is the union's).
pub(crate) fn composition_schema(primitives: &[Primitive], id: Option<&str>) -> Value {
    let mut defs = Map::new();
    let union: Vec<Value> = primitives
        .iter()
        .map(|p| json!({ "$ref": def_ref(p.type_name()) }))
        .collect();
    defs.insert(BODY_NODE_DEF.into(), json!({ "oneOf": union }));
    let types: Vec<&str> = primitives.iter().map(Primitive::type_name).collect();
    // A primitive that took the shared name keeps it; `theme` is then inline.
    let theme_def = (!types.contains(&RENDER_THEME_DEF)).then_some(RENDER_THEME_DEF);
    if let Some(name) = theme_def {
        defs.insert(name.into(), render_theme_schema());
    }
    for primitive in primitives {
        // An unusable derived schema has no member: its def is `false`.
        let Ok(shape) = primitive.shape() else {
            defs.insert(primitive.type_name().to_owned(), Value::Bool(false));
            continue;
        };
        let schema = &shape.schema;
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
    let mut properties = root_properties(json!({ "$ref": BODY_NODE_REF }));
    if let Some(name) = theme_def {
        properties["theme"] = json!({ "$ref": def_ref(name) });
    }
    root.insert("properties".into(), properties);
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
