//! Property tests of the projections of the sdk's one pass, over the
//! note/group test pack:
//!
//! - `Runtime::check(v)` gives what `parse(v)` then `validate` of the
//!   sanitized copy give (errors, warnings, the copy), and `validate(v)`
//!   agrees with it when nothing was dropped;
//! - the check's render equals `render` of the copy on every surface, with
//!   several option sets;
//! - `check_input_budget` (one storage-order walk, the upstream-order walk
//!   only for refused input) against a reference walk written here from
//!   upstream's budget rules, under the default budget and budgets one below and at
//!   the input's own usage.
//!
//! Inputs: hand-made compositions and every mutation of them (a key
//! dropped, a value of the wrong type, an unknown key in every object, an
//! element dropped or duplicated), budgets over by one on each axis,
//! proptest-generated compositions and proptest-generated JSON values.

mod common;

use std::collections::BTreeMap;

use common::{pack, runtime, view};
use isomer_sdk::js_parity::format_json_number;
use isomer_sdk::{
    Checked, Document, ErrorCode, InputBudget, InputUsage, RenderOptions, Runtime, Surface,
    ValidationMode, check_input_budget,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{Map, Value, json};

// ---------------------------------------------------------------------------
// The reference budget walk, written independently of
// `isomer_sdk::budget`.
// ---------------------------------------------------------------------------

/// `String(leaf).length` in UTF-16 code units; containers count 0.
fn reference_leaf_length(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => format_json_number(n).encode_utf16().count(),
        Value::String(s) => s.encode_utf16().count(),
        Value::Array(_) | Value::Object(_) => 0,
    }
}

/// The array index a key names (a canonical decimal below 2³² − 1), which
/// JavaScript lists before the other keys.
fn array_index(key: &str) -> Option<u64> {
    let canonical = !key.is_empty()
        && key.bytes().all(|b| b.is_ascii_digit())
        && (key == "0" || !key.starts_with('0'));
    if !canonical || key.len() > 10 {
        return None;
    }
    key.parse::<u64>().ok().filter(|n| *n < u64::from(u32::MAX))
}

/// `Object.keys` order: index keys ascending, then the rest as stored.
fn reference_key_order(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut indexed: Vec<(u64, &String, &Value)> = map
        .iter()
        .filter_map(|(k, v)| array_index(k).map(|n| (n, k, v)))
        .collect();
    indexed.sort_by_key(|(n, _, _)| *n);
    let mut ordered: Vec<(&String, &Value)> = indexed.into_iter().map(|(_, k, v)| (k, v)).collect();
    ordered.extend(map.iter().filter(|(k, _)| array_index(k).is_none()));
    ordered
}

/// Upstream `checkInputBudget`'s walk: LIFO, a child counted when its
/// parent expands; the refusal is its message.
fn reference_budget(value: &Value, budget: InputBudget) -> Result<InputUsage, String> {
    struct Walk<'a> {
        usage: InputUsage,
        budget: InputBudget,
        stack: Vec<(&'a Value, usize)>,
    }
    impl<'a> Walk<'a> {
        fn enqueue(&mut self, value: &'a Value, depth: usize, key: usize) -> Result<(), String> {
            self.usage.values += 1;
            if self.usage.values > self.budget.values {
                return Err(format!(
                    "input holds more than {} values",
                    self.budget.values
                ));
            }
            self.usage.characters += key + reference_leaf_length(value);
            if matches!(value, Value::Array(_) | Value::Object(_)) {
                self.stack.push((value, depth));
            }
            if self.usage.characters > self.budget.characters {
                return Err(format!(
                    "input holds more than {} characters",
                    self.budget.characters
                ));
            }
            Ok(())
        }
    }
    let mut walk = Walk {
        usage: InputUsage::default(),
        budget,
        stack: Vec::new(),
    };
    walk.enqueue(value, 1, 0)?;
    while let Some((container, depth)) = walk.stack.pop() {
        if depth > budget.depth {
            return Err(format!("input nests deeper than {} levels", budget.depth));
        }
        walk.usage.depth = walk.usage.depth.max(depth);
        let too_many = |len: usize, usage: &InputUsage| usage.values + len > budget.values;
        match container {
            Value::Array(items) => {
                if too_many(items.len(), &walk.usage) {
                    return Err(format!("input holds more than {} values", budget.values));
                }
                for item in items {
                    walk.enqueue(item, depth + 1, 0)?;
                }
            }
            Value::Object(map) => {
                if too_many(map.len(), &walk.usage) {
                    return Err(format!("input holds more than {} values", budget.values));
                }
                for (key, item) in reference_key_order(map) {
                    walk.enqueue(item, depth + 1, key.encode_utf16().count())?;
                }
            }
            _ => {}
        }
    }
    Ok(walk.usage)
}

/// `check_input_budget` against the reference under `budget`.
fn assert_budget_agrees(value: &Value, budget: InputBudget) {
    let fast = check_input_budget(value, budget).map_err(|error| {
        assert_eq!(error.path, "");
        assert_eq!(error.code, Some(ErrorCode::InputOverBudget));
        error.message
    });
    assert_eq!(
        fast,
        reference_budget(value, budget),
        "{value} under {budget:?}"
    );
}

/// The budgets every input is measured under: the default, and for an
/// input within it, its own usage on each axis and one below (the
/// smallest budgets that accept it and the largest that refuse it), and
/// everything one below at once (which refusal comes first).
fn budgets_around(value: &Value) -> Vec<InputBudget> {
    let mut budgets = vec![InputBudget::default()];
    if let Ok(usage) = reference_budget(value, InputBudget::default()) {
        let exact = InputBudget {
            depth: usage.depth,
            values: usage.values,
            characters: usage.characters,
        };
        budgets.push(exact);
        budgets.push(InputBudget {
            depth: usage.depth.saturating_sub(1),
            ..exact
        });
        budgets.push(InputBudget {
            values: usage.values - 1,
            ..exact
        });
        budgets.push(InputBudget {
            characters: usage.characters.saturating_sub(1),
            ..exact
        });
        budgets.push(InputBudget {
            depth: usage.depth.saturating_sub(1),
            values: usage.values - 1,
            characters: usage.characters.saturating_sub(1),
        });
    }
    budgets
}

// ---------------------------------------------------------------------------
// Parse/validate/render agreement.
// ---------------------------------------------------------------------------

/// What the check made of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// `parse` refused it (budget or schema).
    Refused,
    /// It parsed; `validate` of the copy found errors.
    Invalid,
    /// It parsed with nothing dropped and validated.
    Valid,
    /// It parsed with keys dropped and the copy validated.
    ValidDropped,
}

fn option_sets() -> Vec<RenderOptions> {
    vec![
        RenderOptions::default(),
        RenderOptions {
            heading: false,
            ..RenderOptions::default()
        },
        RenderOptions {
            on_validation_error: Some(ValidationMode::Collect),
            framed: true,
            minify: true,
            ..RenderOptions::default()
        },
        RenderOptions {
            on_validation_error: Some(ValidationMode::Throw),
            fluid: true,
            ..RenderOptions::default()
        },
    ]
}

/// The check's render against `render` of the copy on every surface and
/// option set, and `render` of `rt` against `render` of `other` (a runtime
/// of the same packs, whose budget may refuse the copy).
fn assert_renders_agree(rt: &Runtime, other: &Runtime, checked: &Checked<'_>, copy: &Value) {
    for options in option_sets() {
        for surface in Surface::ALL {
            let rendered = rt.render(surface, copy, &options);
            assert!(
                rendered.is_ok(),
                "{surface:?} of a valid {copy}: {rendered:?}"
            );
            assert_eq!(
                checked.render(surface, &options),
                rendered,
                "{surface:?} {options:?} of {copy}"
            );
            let elsewhere = other.render(surface, copy, &options);
            if other.validate(copy).valid {
                assert_eq!(elsewhere, rendered, "{surface:?} {options:?} of {copy}");
            } else {
                assert!(elsewhere.is_err(), "{surface:?} {options:?} of {copy}");
            }
        }
    }
}

/// The projections of the one pass on `value`: `validate` against
/// `check` (which is `parse`, then `validate` of the copy), renders of the
/// check against `render`. Returns what the check made of it.
fn assert_agrees(rt: &Runtime, other: &Runtime, value: &Value) -> Kind {
    let validated = rt.validate(value);
    let parsed = rt.parse(value);
    let document = Document::new(value.clone());
    let checked = rt.check(&document);
    assert_eq!(
        validated.composition.is_some(),
        validated.errors.first().and_then(|e| e.code) != Some(ErrorCode::InputOverBudget),
        "{value}"
    );
    let Some(copy) = parsed.composition.as_ref() else {
        assert!(!parsed.valid, "{value}: {parsed:?}");
        assert!(!validated.valid, "parse refused a valid {value}");
        assert_eq!(checked.errors(), parsed.errors.as_slice(), "{value}");
        assert_eq!(checked.composition(), None, "{value}");
        return Kind::Refused;
    };
    assert!(parsed.valid, "{value}: {parsed:?}");
    assert_eq!(checked.composition(), Some(copy), "{value}");
    let copy_checked = rt.validate(copy);
    assert_eq!(checked.valid(), copy_checked.valid, "{value}");
    assert_eq!(checked.errors(), copy_checked.errors.as_slice(), "{value}");
    if copy == value {
        assert_eq!(validated.errors, copy_checked.errors, "{value}");
        assert_eq!(validated.warnings, copy_checked.warnings, "{value}");
    }
    if !copy_checked.valid {
        return Kind::Invalid;
    }
    assert_eq!(checked.warnings(), copy_checked.warnings.as_slice());
    assert_renders_agree(rt, other, &checked, copy);
    if copy == value {
        Kind::Valid
    } else {
        Kind::ValidDropped
    }
}

/// Budget, then parse/validate/render agreement; the kind of the input.
fn assert_all_agree(rt: &Runtime, other: &Runtime, value: &Value) -> Kind {
    for budget in budgets_around(value) {
        assert_budget_agrees(value, budget);
    }
    assert_agrees(rt, other, value)
}

fn tally(kinds: impl IntoIterator<Item = Kind>) -> BTreeMap<Kind, usize> {
    let mut counts = BTreeMap::new();
    for kind in kinds {
        *counts.entry(kind).or_insert(0) += 1;
    }
    counts
}

// ---------------------------------------------------------------------------
// Hand-made compositions and their mutations.
// ---------------------------------------------------------------------------

/// Valid compositions of the test pack that use every field: ids, tones,
/// links, a layout (a non-strict nested object), meta and its nested
/// objects, root options.
fn bases() -> Vec<Value> {
    let mut bases: Vec<Value> = pack()
        .primitives()
        .iter()
        .flat_map(|p| p.examples().iter().cloned())
        .map(|node| view(json!([node])))
        .collect();
    bases.push(json!({
        "type": "view",
        "version": 1,
        "title": "Status",
        "subtitle": "Today",
        "theme": "dark",
        "body": [
            { "type": "note", "id": "a", "text": "Deploys are frozen.", "tone": "primary", "href": "https://example.test/x" },
            { "type": "group", "id": "g", "title": "Teams", "layout": { "columns": 2 }, "items": [
                { "type": "note", "id": "b", "text": "Search: green 😀" },
                { "type": "note", "text": "é\u{2028}\"quoted\"\n", "tone": "neutral" }
            ] }
        ],
        "meta": {
            "source": "s",
            "generatedAt": "2026-11-30T00:00:00Z",
            "provenance": { "source": "p", "query": "q", "provider": "r" },
            "freshness": { "asOf": "now", "stale": false, "ttlSeconds": 60 },
            "partialFailure": { "degraded": true, "reason": "r" }
        }
    }));
    bases.push(view(json!([
        { "type": "note", "text": "0" },
        { "type": "note", "text": "1", "href": "/relative" },
        { "type": "note", "text": "2", "href": "mailto:a@example.test" }
    ])));
    bases
}

/// A replacement of every JSON type, for wrong-type mutations.
fn wrong_values() -> [Value; 7] {
    [
        json!(null),
        json!(true),
        json!(-0.0),
        json!(9_007_199_254_740_993_u64),
        json!("x"),
        json!([]),
        json!({}),
    ]
}

/// Every single-step mutation of `value`: in every object, an unknown key
/// added, each key dropped, each value replaced by one of every type; in
/// every array, each element dropped or duplicated.
fn mutations(value: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    mutate_at(value, &mut |edit: Edit<'_>| {
        let mut copy = value.clone();
        edit(&mut copy);
        out.push(copy);
    });
    out
}

/// Calls `emit` with each edit of a node reachable from `value`.
/// One edit of a copy of the value being mutated.
type Edit<'e> = &'e dyn Fn(&mut Value);

fn mutate_at(value: &Value, emit: &mut dyn FnMut(Edit<'_>)) {
    match value {
        Value::Object(map) => {
            emit(&|v: &mut Value| {
                v.as_object_mut()
                    .unwrap()
                    .insert("zUnknown".into(), json!({ "deep": [1] }));
            });
            for (key, child) in map {
                let key = key.clone();
                {
                    let key = key.clone();
                    emit(&move |v: &mut Value| {
                        v.as_object_mut().unwrap().shift_remove(&key);
                    });
                }
                for wrong in wrong_values() {
                    let key = key.clone();
                    emit(&move |v: &mut Value| {
                        v[&key] = wrong.clone();
                    });
                }
                mutate_at(child, &mut |edit: Edit<'_>| {
                    let key = key.clone();
                    emit(&move |v: &mut Value| edit(&mut v[&key]));
                });
            }
        }
        Value::Array(items) => {
            for (at, child) in items.iter().enumerate() {
                emit(&move |v: &mut Value| {
                    v.as_array_mut().unwrap().remove(at);
                });
                emit(&move |v: &mut Value| {
                    let items = v.as_array_mut().unwrap();
                    let copy = items[at].clone();
                    items.insert(at, copy);
                });
                mutate_at(child, &mut |edit: Edit<'_>| {
                    emit(&move |v: &mut Value| edit(&mut v[at]));
                });
            }
        }
        _ => {}
    }
}

#[test]
fn the_bases_are_valid() {
    let rt = runtime();
    let other = runtime();
    for base in bases() {
        assert_eq!(assert_all_agree(&rt, &other, &base), Kind::Valid, "{base}");
    }
}

#[test]
fn every_mutation_of_a_valid_composition_agrees() {
    let rt = runtime();
    let hooked = common::hooked_runtime();
    let mut kinds = Vec::new();
    for base in bases() {
        for mutated in mutations(&base) {
            let kind = assert_all_agree(&rt, &hooked, &mutated);
            assert_eq!(assert_agrees(&hooked, &rt, &mutated), kind, "{mutated}");
            kinds.push(kind);
        }
    }
    let counts = tally(kinds.iter().copied());
    eprintln!("mutations: {} cases, {counts:?}", kinds.len());
    // Every kind is reached, so every outcome of the check is compared.
    assert!(
        counts.get(&Kind::Refused).copied().unwrap_or(0) > 100,
        "{counts:?}"
    );
    assert!(
        counts.get(&Kind::Invalid).copied().unwrap_or(0) >= 3,
        "{counts:?}"
    );
    assert!(
        counts.get(&Kind::Valid).copied().unwrap_or(0) > 10,
        "{counts:?}"
    );
    assert!(
        counts.get(&Kind::ValidDropped).copied().unwrap_or(0) >= 5,
        "{counts:?}"
    );
}

/// A runtime of the test pack with `budget`.
fn runtime_with(budget: InputBudget) -> Runtime {
    Runtime::builder()
        .pack(pack())
        .input_budget(budget)
        .build()
        .expect("the test runtime builds")
}

#[test]
fn one_over_the_budget_on_each_axis_agrees() {
    let mut cases = 0;
    for base in bases() {
        let usage = check_input_budget(&base, InputBudget::default()).unwrap();
        let exact = InputBudget {
            depth: usage.depth,
            values: usage.values,
            characters: usage.characters,
        };
        let at_limit = runtime_with(exact);
        assert_eq!(
            assert_agrees(&at_limit, &runtime(), &base),
            Kind::Valid,
            "{base}"
        );
        let over = [
            (
                InputBudget {
                    depth: usage.depth - 1,
                    ..exact
                },
                format!("input nests deeper than {} levels", usage.depth - 1),
            ),
            (
                InputBudget {
                    values: usage.values - 1,
                    ..exact
                },
                format!("input holds more than {} values", usage.values - 1),
            ),
            (
                InputBudget {
                    characters: usage.characters - 1,
                    ..exact
                },
                format!("input holds more than {} characters", usage.characters - 1),
            ),
        ];
        for (budget, message) in over {
            let rt = runtime_with(budget);
            assert_eq!(assert_agrees(&rt, &at_limit, &base), Kind::Refused);
            let document = Document::new(base.clone());
            let checked = rt.check(&document);
            let errors = checked.errors();
            assert_eq!(errors.len(), 1);
            assert_eq!(errors[0].message, message);
            // Every surface refuses it as the check does.
            for surface in Surface::ALL {
                let options = RenderOptions::default();
                let refused = checked.render(surface, &options);
                assert_eq!(refused, rt.render(surface, &base, &options));
                assert!(refused.is_err());
            }
            cases += 1;
        }
        // A key added to the root (strict), to a node (strict), and to
        // `meta` (ordinary): the one-over budgets follow the input.
        let mut wide = base.clone();
        wide["meta"] = json!({ "source": "s", "zUnknown": "dropped" });
        let usage = check_input_budget(&wide, InputBudget::default()).unwrap();
        let rt = runtime_with(InputBudget {
            characters: usage.characters - 1,
            ..InputBudget::default()
        });
        assert_eq!(assert_agrees(&rt, &runtime(), &wide), Kind::Refused);
        assert_eq!(
            assert_agrees(&runtime(), &rt, &wide),
            Kind::ValidDropped,
            "{wide}"
        );
        cases += 1;
    }
    assert_eq!(cases, 4 * bases().len());
}

#[test]
fn unknown_keys_at_each_level() {
    let rt = runtime();
    let other = runtime();
    let base = view(json!([
        { "type": "group", "title": "t", "layout": { "columns": 1 }, "items": [ { "type": "note", "text": "x" } ] }
    ]));
    // The root and nodes are strict: refused.
    let mut at_root = base.clone();
    at_root["zUnknown"] = json!(1);
    assert_eq!(assert_agrees(&rt, &other, &at_root), Kind::Refused);
    let mut in_node = base.clone();
    in_node["body"][0]["items"][0]["zUnknown"] = json!(1);
    assert_eq!(assert_agrees(&rt, &other, &in_node), Kind::Refused);
    // A nested ordinary object and meta: dropped.
    let mut in_layout = base.clone();
    in_layout["body"][0]["layout"]["zUnknown"] = json!(1);
    assert_eq!(assert_agrees(&rt, &other, &in_layout), Kind::ValidDropped);
    let mut in_meta = base.clone();
    in_meta["meta"] = json!({ "provenance": { "query": "q", "zUnknown": [ {} ] } });
    assert_eq!(assert_agrees(&rt, &other, &in_meta), Kind::ValidDropped);
    // Dropped, then the copy holds duplicate ids: invalid with the copy.
    let mut dropped_and_duplicated = in_layout.clone();
    dropped_and_duplicated["body"][0]["id"] = json!("a");
    dropped_and_duplicated["body"][0]["items"][0]["id"] = json!("a");
    assert_eq!(
        assert_agrees(&rt, &other, &dropped_and_duplicated),
        Kind::Invalid
    );
}

// ---------------------------------------------------------------------------
// Generated inputs.
// ---------------------------------------------------------------------------

/// Numbers where printing and counting are easy to get wrong.
fn arb_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop_oneof![
            Just(0.0),
            Just(-0.0),
            Just(1e21),
            Just(1e-7),
            Just(-1.5e-7),
            Just(0.1),
            Just(123.25),
            Just(f64::MAX),
            Just(f64::MIN_POSITIVE),
            Just(5e-324),
            Just(9_007_199_254_740_992.0),
            Just(-9_007_199_254_740_993.0),
            Just(1.0),
            Just(2.0),
        ]
        .prop_map(|n: f64| json!(n)),
        prop_oneof![
            Just((1_i64 << 53) - 1),
            Just(1_i64 << 53),
            Just((1_i64 << 53) + 1),
            Just(-(1_i64 << 53) - 1),
            Just(i64::MIN),
            Just(i64::MAX),
            Just(-1),
            Just(0),
        ]
        .prop_map(|n| json!(n)),
        prop_oneof![Just(u64::MAX), Just(99_999_999_999_999_999)].prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<i32>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |n| n.is_finite())
            .prop_map(|n| json!(n)),
        (-1000.0..1000.0_f64).prop_map(|n| json!(n)),
    ]
}

/// Strings with escapes, astral characters, separators and controls.
fn arb_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-c0-9 ]{0,6}",
        "[\"\\\\/\u{0}\u{8}\u{c}\n\r\t\u{1f}\u{7f}é😀\u{2028}\u{2029}\u{feff}]{0,5}",
        "\\PC{0,6}",
        Just(String::new()),
    ]
}

/// Any JSON value, with the pack's keys among random ones at every level.
fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        arb_number(),
        arb_string().prop_map(Value::String),
    ];
    let key = prop_oneof![
        prop_oneof![
            Just("type"),
            Just("body"),
            Just("text"),
            Just("items"),
            Just("title"),
            Just("id"),
            Just("layout"),
            Just("columns"),
            Just("meta"),
            Just("0"),
            Just("10"),
            Just("01"),
        ]
        .prop_map(String::from),
        arb_string(),
    ];
    leaf.prop_recursive(5, 48, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..5)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// A value that is usually of `good`'s shape, sometimes any JSON.
fn mostly(good: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    prop_oneof![60 => good, 1 => arb_json()]
}

/// Unknown keys to add to an object (often none).
fn extra_keys() -> impl Strategy<Value = Vec<(String, Value)>> {
    prop_oneof![
        6 => Just(Vec::new()),
        1 => prop::collection::vec(("z[a-c]{1,2}", arb_json()), 1..3),
    ]
}

fn with_extras(mut object: Map<String, Value>, extras: Vec<(String, Value)>) -> Value {
    for (key, value) in extras {
        object.insert(key, value);
    }
    Value::Object(object)
}

/// An optional field: absent, or the value.
fn optional(field: impl Strategy<Value = Value>) -> impl Strategy<Value = Option<Value>> {
    prop::option::weighted(0.5, field)
}

/// A node's common fields: an optional `id` (from a small pool, so ids
/// repeat) and optional `surfaces` (so some surfaces render nothing and
/// validate warns).
fn arb_common() -> impl Strategy<Value = Vec<(String, Value)>> {
    let id = optional(prop_oneof![
        30 => prop_oneof![Just("a"), Just("b"), Just("c")].prop_map(|id| json!(id)),
        1 => arb_json(),
    ]);
    let surfaces = optional(mostly(
        prop::collection::vec(
            prop_oneof![
                Just("text"),
                Just("markdown"),
                Just("html"),
                Just("slack"),
                Just("react"),
            ],
            1..3,
        )
        .prop_map(|surfaces| json!(surfaces)),
    ));
    (id, surfaces).prop_map(|(id, surfaces)| {
        [("id", id), ("surfaces", surfaces)]
            .into_iter()
            .filter_map(|(key, value)| value.map(|value| (key.to_owned(), value)))
            .collect()
    })
}

fn arb_note() -> impl Strategy<Value = Value> {
    (
        mostly(prop_oneof![
            1 => arb_string().prop_map(Value::String),
            8 => "[a-z]{1,12}".prop_map(Value::String),
        ]),
        optional(mostly(
            prop_oneof![4 => Just("neutral"), 4 => Just("primary"), 1 => Just("loud")]
                .prop_map(|t| json!(t)),
        )),
        optional(mostly(
            prop_oneof![
                3 => Just("https://example.test/a"),
                3 => Just("/rel"),
                1 => Just("javascript:alert(1)"),
                3 => Just("mailto:x@example.test"),
            ]
            .prop_map(|h| json!(h)),
        )),
        arb_common(),
        extra_keys(),
    )
        .prop_map(|(text, tone, href, common, extras)| {
            let mut node = Map::new();
            node.insert("type".into(), json!("note"));
            node.insert("text".into(), text);
            for (key, value) in [("tone", tone), ("href", href)] {
                if let Some(value) = value {
                    node.insert(key.into(), value);
                }
            }
            node.extend(common);
            with_extras(node, extras)
        })
}

fn arb_layout() -> impl Strategy<Value = Value> {
    (
        prop_oneof![6 => 1u8..5, 1 => 0u8..9].prop_map(|n| json!(n)),
        prop_oneof![1 => Just(Vec::new()), 1 => extra_keys()],
    )
        .prop_map(|(columns, extras)| {
            let mut layout = Map::new();
            layout.insert("columns".into(), columns);
            with_extras(layout, extras)
        })
}

fn arb_node() -> impl Strategy<Value = Value> {
    let note = arb_note().boxed();
    let group = (
        mostly("[A-Z][a-z]{0,6}".prop_map(Value::String)),
        prop::collection::vec(mostly(arb_note()), 1..4),
        optional(mostly(arb_layout())),
        arb_common(),
        extra_keys(),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(title, items, layout, common, extras, nest)| {
            let mut items = items;
            if nest && !items.is_empty() {
                // A group inside a group: refused by the group's refinement.
                items[0] = json!({ "type": "group", "title": "n", "items": [items[0].clone()] });
            }
            let mut node = Map::new();
            node.insert("type".into(), json!("group"));
            node.insert("title".into(), title);
            node.insert("items".into(), Value::Array(items));
            if let Some(layout) = layout {
                node.insert("layout".into(), layout);
            }
            node.extend(common);
            with_extras(node, extras)
        })
        .boxed();
    prop_oneof![10 => note, 8 => group, 1 => arb_json()]
}

fn arb_meta() -> impl Strategy<Value = Value> {
    (
        optional(mostly(arb_string().prop_map(Value::String))),
        optional(mostly(
            (
                optional(mostly("[a-z]{0,4}".prop_map(Value::String))),
                extra_keys(),
            )
                .prop_map(|(query, extras)| {
                    let mut provenance = Map::new();
                    if let Some(query) = query {
                        provenance.insert("query".into(), query);
                    }
                    with_extras(provenance, extras)
                }),
        )),
        extra_keys(),
    )
        .prop_map(|(source, provenance, extras)| {
            let mut meta = Map::new();
            if let Some(source) = source {
                meta.insert("source".into(), source);
            }
            if let Some(provenance) = provenance {
                meta.insert("provenance".into(), provenance);
            }
            with_extras(meta, extras)
        })
}

/// A composition of the test pack: usually well-formed, with wrong types,
/// unknown keys, duplicate ids and nested groups mixed in.
fn arb_composition() -> impl Strategy<Value = Value> {
    (
        mostly(Just(json!("view"))),
        optional(mostly(Just(json!(1)))),
        optional(mostly(arb_string().prop_map(Value::String))),
        mostly(prop::collection::vec(arb_node(), 1..4).prop_map(Value::Array)),
        optional(mostly(arb_meta())),
        prop_oneof![6 => Just(Vec::new()), 1 => extra_keys()],
    )
        .prop_map(|(kind, version, title, body, meta, extras)| {
            let mut root = Map::new();
            root.insert("type".into(), kind);
            for (key, value) in [("version", version), ("title", title)] {
                if let Some(value) = value {
                    root.insert(key.into(), value);
                }
            }
            root.insert("body".into(), body);
            if let Some(meta) = meta {
                root.insert("meta".into(), meta);
            }
            with_extras(root, extras)
        })
}

/// How many generated cases each property runs.
const CASES: u32 = 256;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: CASES,
        // Integration tests have no lib.rs beside them to persist next to.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn generated_compositions_agree(value in arb_composition()) {
        let rt = runtime();
        let hooked = common::hooked_runtime();
        let kind = assert_all_agree(&rt, &hooked, &value);
        assert_eq!(assert_agrees(&hooked, &rt, &value), kind);
    }

    #[test]
    fn generated_json_agrees(value in arb_json()) {
        let rt = runtime();
        let other = runtime();
        assert_all_agree(&rt, &other, &value);
        // The same value as the body of a view, and as a node.
        assert_all_agree(&rt, &other, &view(json!([value.clone()])));
        assert_all_agree(&rt, &other, &json!({ "type": "view", "body": value }));
    }

    #[test]
    fn generated_budgets_agree(
        value in arb_json(),
        depth in 0usize..7,
        values in 0usize..40,
        characters in 0usize..80,
    ) {
        assert_budget_agrees(&value, InputBudget { depth, values, characters });
    }
}

/// The composition generator reaches every kind of input, so the property
/// above compares every branch; the counts are printed.
#[test]
fn the_generator_reaches_every_kind() {
    let rt = runtime();
    let hooked = common::hooked_runtime();
    let mut runner = TestRunner::deterministic();
    let strategy = arb_composition();
    let mut warned = 0;
    let kinds: Vec<Kind> = (0..CASES)
        .map(|_| {
            let value = strategy.new_tree(&mut runner).unwrap().current();
            let kind = assert_all_agree(&rt, &hooked, &value);
            assert_eq!(assert_agrees(&hooked, &rt, &value), kind, "{value}");
            let checked = rt.validate(&value);
            if checked.valid && !checked.warnings.is_empty() {
                warned += 1;
            }
            kind
        })
        .collect();
    let counts = tally(kinds);
    eprintln!("generated compositions: {CASES} cases, {counts:?}, {warned} valid with warnings");
    assert!(warned > 0);
    for kind in [
        Kind::Refused,
        Kind::Invalid,
        Kind::Valid,
        Kind::ValidDropped,
    ] {
        assert!(counts.get(&kind).copied().unwrap_or(0) >= 3, "{counts:?}");
    }
}
