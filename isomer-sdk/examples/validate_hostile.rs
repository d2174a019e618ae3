//! Peak memory of validating hostile JSON text with `Runtime::validate`
//! (`Runtime::validate_json`, which enforces the input budget while reading
//! the text), for `/usr/bin/time -v` ("Maximum resident set size"). The
//! text is made in memory at its exact size, then validated, and the
//! findings are printed.
//!
//! Inputs (the first argument):
//! - `deep-object`: `{"a":{"a":…null…}}`, 1,000,000 objects deep (6 MB);
//! - `wide-array`: `[…]` of 2,000,000 nine-digit numbers (20 MB).
//!
//! ```sh
//! cargo build --release -p isomer-sdk --example validate_hostile
//! /usr/bin/time -v target/release/examples/validate_hostile deep-object 2>&1 | grep -E 'refused|Maximum resident'
//! /usr/bin/time -v target/release/examples/validate_hostile wide-array 2>&1 | grep -E 'refused|Maximum resident'
//! ```
//!
//! Measured here (release, rustc 1.95): `deep-object` peaks at 14.2 MB
//! (2.4x its 6 MB), `wide-array` at 29.5 MB (1.5x its 20 MB), each refused
//! with the budget's message (`input nests deeper than 64 levels`,
//! `input holds more than 20000 values`). Parsing the whole text first
//! (`parse_json`, then `Runtime::validate` of the value) peaked at 512.8 MB
//! and 308.3 MB.

use isomer_sdk::{Markdown, Pack, Primitive, Runtime, format_validation_error};
use serde_json::{Value, json};

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
fn runtime() -> Runtime {
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

fn main() {
    let input = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "deep-object".to_owned());
    let text = match input.as_str() {
        "deep-object" => deep_object(1_000_000),
        "wide-array" => wide_array(2_000_000),
        other => {
            eprintln!("unknown input {other:?}: deep-object or wide-array");
            std::process::exit(2);
        }
    };
    println!("{input}: {} bytes of JSON text", text.len());
    let runtime = runtime();
    let checked = runtime.validate_json(&text).expect("the text is JSON");
    for error in &checked.errors {
        println!("refused: {}", format_validation_error(error));
    }
}
