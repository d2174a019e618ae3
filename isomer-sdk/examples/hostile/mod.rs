//! The hostile JSON texts the peak-memory examples feed a runtime, and the
//! one-primitive runtime they feed it to. One home for both examples:
//! `validate_hostile` (this crate) declares it as its `hostile` module and
//! `isomer-evals`'s `run_hostile` includes this file by path, so neither
//! library grows a public item for them.
//!
//! Inputs (the examples' first argument):
//! - `deep-object`: `{"a":{"a":…null…}}`, 1,000,000 objects deep (6 MB);
//! - `wide-array`: `[…]` of 2,000,000 nine-digit numbers (20 MB).

use isomer_sdk::{Markdown, Pack, Primitive, Runtime};
use serde_json::{Value, json};

/// The input the first argument names (`deep-object` when there is none)
/// and the function that makes its text. An unknown name is reported on
/// stderr and the process exits with status 2.
pub fn input_from_args() -> (String, fn() -> String) {
    let input = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "deep-object".to_owned());
    let make: fn() -> String = match input.as_str() {
        "deep-object" => || deep_object(1_000_000),
        "wide-array" => || wide_array(2_000_000),
        other => {
            eprintln!("unknown input {other:?}: deep-object or wide-array");
            std::process::exit(2);
        }
    };
    (input, make)
}

/// `{"a":` … `null` … `}`, `depth` objects deep: 6 bytes a level.
fn deep_object(depth: usize) -> String {
    let mut text = String::with_capacity(6 * depth + 4);
    for _ in 0..depth {
        text.push_str("{\"a\":");
    }
    text.push_str("null");
    for _ in 0..depth {
        text.push('}');
    }
    text
}

/// `[100000000,100000001,…]`, `count` numbers: 10 bytes each.
fn wide_array(count: usize) -> String {
    let mut text = String::with_capacity(10 * count + 1);
    text.push('[');
    for n in 0..count {
        if n > 0 {
            text.push(',');
        }
        text.push_str(&(100_000_000 + n).to_string());
    }
    text.push(']');
    text
}

/// A one-primitive runtime: the budget does not depend on the pack.
pub fn runtime() -> Runtime {
    let note = Primitive::builder::<Value>("note")
        .schema_json(json!({
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"]
        }))
        .purpose("A note.")
        .example(json!({"type": "note", "text": "x"}))
        .text(|node, _| node["text"].as_str().unwrap_or("").to_owned())
        .markdown(|node, _| Markdown::paragraph(node["text"].as_str().unwrap_or("")))
        .build()
        .expect("the note primitive builds");
    Runtime::builder()
        .pack(
            Pack::new("notes")
                .primitive(note)
                .build()
                .expect("the pack builds"),
        )
        .build()
        .expect("the runtime builds")
}
