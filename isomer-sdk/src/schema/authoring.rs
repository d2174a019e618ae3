//! The authoring projection (upstream `buildAuthoringJsonSchema`):
//! what a model reads. Derived from the validator projection by
//! 1. dropping `±9007199254740991` bounds, the `id`/`surfaces` of every
//!    primitive def (a def whose `properties.type` is a string `const`) and
//!    the `omit_properties` entries;
//! 2. flattening `$ref`-only defs (except `bodyNode`);
//! 3. inlining bare scalar defs (never `bodyNode`);
//! 4. pruning defs the root does not reach;
//! 5. applying the `describe` texts last.

use serde_json::{Map, Value};

use crate::node::BODY_NODE_DEF;
use crate::schema::{for_each_ref_mut, for_each_schema_mut, referenced_defs};

/// `Number.MAX_SAFE_INTEGER`, the bound Zod writes on integer fields.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Authoring contributions: what a pack or a runtime builder adds to the
/// authoring projection. A runtime merges its packs' in pack order, then
/// its own (later entries win).
#[derive(Debug, Clone, Default)]
pub(crate) struct AuthoringOptions {
    /// `(def id, description)`.
    pub describe: Vec<(String, String)>,
    /// `"<def id>.<property>"`.
    pub omit_properties: Vec<String>,
}

impl AuthoringOptions {
    /// Adds a def description (applied last, so a later one wins).
    pub(crate) fn describe(&mut self, def_id: impl Into<String>, description: impl Into<String>) {
        self.describe.push((def_id.into(), description.into()));
    }

    /// Adds a `"<def id>.<property>"` to remove.
    pub(crate) fn omit_property(&mut self, entry: impl Into<String>) {
        self.omit_properties.push(entry.into());
    }

    /// Appends `other`'s entries after these.
    pub(crate) fn extend(&mut self, other: &AuthoringOptions) {
        self.describe.extend(other.describe.iter().cloned());
        self.omit_properties
            .extend(other.omit_properties.iter().cloned());
    }
}

/// The authoring projection of `composition` (the validator projection).
pub(crate) fn authoring_schema(composition: &Value, options: &AuthoringOptions) -> Value {
    let mut schema = composition.clone();
    for_each_schema_mut(&mut schema, |map| {
        if map.get("maximum").and_then(Value::as_f64) == Some(MAX_SAFE_INTEGER) {
            map.remove("maximum");
        }
        if map.get("minimum").and_then(Value::as_f64) == Some(-MAX_SAFE_INTEGER) {
            map.remove("minimum");
        }
    });
    let Some(Value::Object(mut defs)) =
        schema.as_object_mut().and_then(|root| root.remove("$defs"))
    else {
        return schema;
    };
    for def in defs.values_mut() {
        let is_primitive = def
            .get("properties")
            .and_then(|p| p.get("type"))
            .and_then(|t| t.get("const"))
            .is_some_and(Value::is_string);
        if is_primitive {
            remove_properties(def, &["id", "surfaces"]);
        }
    }
    for entry in &options.omit_properties {
        if let Some((def_id, property)) = entry.split_once('.')
            && let Some(def) = defs.get_mut(def_id)
        {
            remove_properties(def, &[property]);
        }
    }
    flatten_ref_only(&mut schema, &mut defs);
    inline_scalars(&mut schema, &mut defs);
    prune(&schema, &mut defs);
    for (def_id, description) in &options.describe {
        if let Some(Value::Object(def)) = defs.get_mut(def_id) {
            def.insert("description".into(), Value::String(description.clone()));
        }
    }
    if let Value::Object(root) = &mut schema {
        root.insert("$defs".into(), Value::Object(defs));
    }
    schema
}

fn remove_properties(def: &mut Value, names: &[&str]) {
    if let Some(Value::Object(properties)) = def.get_mut("properties") {
        for name in names {
            properties.remove(*name);
        }
    }
    if let Some(Value::Array(required)) = def.get_mut("required") {
        required.retain(|r| !names.iter().any(|name| r.as_str() == Some(name)));
    }
}

fn def_name(reference: &str) -> Option<String> {
    crate::schema::def_name_of(reference)
}

/// Rewrites refs everywhere (root and defs).
fn rewrite_refs(
    schema: &mut Value,
    defs: &mut Map<String, Value>,
    mut rewrite: impl FnMut(&mut String),
) {
    for_each_ref_mut(schema, &mut rewrite);
    for def in defs.values_mut() {
        for_each_ref_mut(def, &mut rewrite);
    }
}

/// A def that is exactly `{ "$ref": … }` (not `bodyNode`) is an alias:
/// references go to its final target and the alias is dropped.
fn flatten_ref_only(schema: &mut Value, defs: &mut Map<String, Value>) {
    let alias_of = |defs: &Map<String, Value>, name: &str| -> Option<String> {
        let def = defs.get(name)?.as_object()?;
        if name == BODY_NODE_DEF || def.len() != 1 {
            return None;
        }
        def.get("$ref")?.as_str().and_then(def_name)
    };
    let aliases: Vec<String> = defs
        .keys()
        .filter(|n| alias_of(defs, n).is_some())
        .cloned()
        .collect();
    if aliases.is_empty() {
        return;
    }
    let mut targets: Vec<(String, String)> = Vec::new();
    for alias in &aliases {
        let mut target = alias.clone();
        for _ in 0..=defs.len() {
            match alias_of(defs, &target) {
                Some(next) => target = next,
                None => break,
            }
        }
        if alias_of(defs, &target).is_none() {
            targets.push((alias.clone(), target));
        }
    }
    rewrite_refs(schema, defs, |reference| {
        if let Some(name) = def_name(reference)
            && let Some((_, to)) = targets.iter().find(|(from, _)| *from == name)
        {
            *reference = crate::schema::def_ref(to);
        }
    });
    for (alias, _) in &targets {
        defs.remove(alias);
    }
}

/// A def whose `type` is a scalar and which has no `enum`, `const`, `$ref`
/// or `properties` is inlined at every reference (sibling keys of the
/// `$ref` kept on top), then removed.
fn inline_scalars(schema: &mut Value, defs: &mut Map<String, Value>) {
    let scalars: Vec<(String, Value)> = defs
        .iter()
        .filter(|(name, def)| {
            name.as_str() != BODY_NODE_DEF
                && matches!(
                    def.get("type").and_then(Value::as_str),
                    Some("string" | "number" | "integer" | "boolean")
                )
                && ["enum", "const", "$ref", "properties"]
                    .iter()
                    .all(|k| def.get(*k).is_none())
        })
        .map(|(name, def)| (name.clone(), def.clone()))
        .collect();
    if scalars.is_empty() {
        return;
    }
    let inline = |value: &mut Value| {
        for_each_schema_mut(value, |map| {
            let Some(name) = map.get("$ref").and_then(Value::as_str).and_then(def_name) else {
                return;
            };
            let Some((_, def)) = scalars.iter().find(|(n, _)| *n == name) else {
                return;
            };
            map.remove("$ref");
            if let Value::Object(def) = def {
                for (key, value) in def {
                    map.entry(key.clone()).or_insert_with(|| value.clone());
                }
            }
        });
    };
    inline(schema);
    for def in defs.values_mut() {
        inline(def);
    }
    for (name, _) in &scalars {
        defs.remove(name);
    }
}

/// Keeps the defs the root reaches (and `bodyNode` with what it reaches).
fn prune(schema: &Value, defs: &mut Map<String, Value>) {
    let mut reached: Vec<String> = referenced_defs(schema);
    if defs.contains_key(BODY_NODE_DEF) && !reached.iter().any(|n| n == BODY_NODE_DEF) {
        reached.push(BODY_NODE_DEF.to_owned());
    }
    let mut next = 0;
    while next < reached.len() {
        if let Some(def) = defs.get(&reached[next]) {
            for name in referenced_defs(def) {
                if !reached.contains(&name) {
                    reached.push(name);
                }
            }
        }
        next += 1;
    }
    defs.retain(|name, _| reached.contains(name));
}
