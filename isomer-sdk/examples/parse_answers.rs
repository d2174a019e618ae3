//! The cost of reading the recorded slides answers
//! (`corpus/slides/answers/*.txt`) with the sdk's JSON reader, beside
//! `serde_json::from_str::<Value>` on the same texts in the same run, for
//! callgrind's instruction counts.
//!
//! Each answer's JSON is the text inside its first ` ```json ` fence, or
//! the whole answer when it has none. Every reader runs in its own
//! never-inlined function over all the answers, `rounds` times (the first
//! argument, 20 by default); the values are kept until the function
//! returns, so each function's inclusive cost is reading alone (no drop).
//!
//! ```sh
//! cargo build -p isomer-sdk --example parse_answers
//! valgrind --tool=callgrind --callgrind-out-file=parse_answers.out \
//!     target/debug/examples/parse_answers
//! callgrind_annotate --inclusive=yes parse_answers.out | grep 'parse_answers::read_with'
//! ```
//!
//! The ratio of `read_with_parse_json` (or `read_with_parse_within`,
//! `Document::parse_within`, which also measures every value against the default input budget) to
//! `read_with_serde_json` is the reader's cost relative to `serde_json`.
//!
//! Measured here (dev profile, rustc 1.95, 5 rounds over the 50 answers,
//! 37,779 bytes): `read_with_parse_json` 52.5 M instructions,
//! `read_with_parse_within` 61.2 M, `read_with_serde_json` 60.9 M, so
//! the reader costs 0.86x `serde_json`'s instructions, and 1.01x while it
//! also measures against the budget. Release profile (`cargo build
//! --release`, `target/release/examples/parse_answers 5`): 11.1 M, 11.9 M
//! and 10.1 M, so 1.10x and 1.18x.

use std::hint::black_box;
use std::path::Path;

use isomer_sdk::{DeepValue, Document, InputBudget, parse_json};
use serde_json::Value;

/// The recorded answers' JSON texts, in file-name order.
fn answers() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/slides/answers");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            fenced_json(&text).to_owned()
        })
        .collect()
}

/// The text inside the first ` ```json ` fence (from the line after the
/// opener to the next ` ``` `), or all of `text` when there is none.
fn fenced_json(text: &str) -> &str {
    let Some(open) = text.find("```json") else {
        return text;
    };
    let body = text[open..].split_once('\n').map_or("", |(_, rest)| rest);
    body.find("```").map_or(body, |close| &body[..close])
}

#[inline(never)]
fn read_with_parse_json(texts: &[String], rounds: usize) -> Vec<DeepValue> {
    let mut kept = Vec::with_capacity(texts.len() * rounds);
    for _ in 0..rounds {
        for text in texts {
            kept.extend(parse_json(black_box(text)).ok());
        }
    }
    kept
}

#[inline(never)]
fn read_with_parse_within(texts: &[String], rounds: usize) -> Vec<Document> {
    let mut kept = Vec::with_capacity(texts.len() * rounds);
    for _ in 0..rounds {
        for text in texts {
            kept.extend(Document::parse_within(black_box(text), InputBudget::default()).ok());
        }
    }
    kept
}

#[inline(never)]
fn read_with_serde_json(texts: &[String], rounds: usize) -> Vec<Value> {
    let mut kept = Vec::with_capacity(texts.len() * rounds);
    for _ in 0..rounds {
        for text in texts {
            kept.extend(serde_json::from_str::<Value>(black_box(text)).ok());
        }
    }
    kept
}

fn main() {
    let rounds = std::env::args()
        .nth(1)
        .map_or(20, |arg| arg.parse().expect("rounds is a number"));
    let texts = answers();
    let bytes: usize = texts.iter().map(String::len).sum();
    let reader = read_with_parse_json(&texts, rounds);
    let within = read_with_parse_within(&texts, rounds);
    let serde = read_with_serde_json(&texts, rounds);
    println!(
        "{} answers, {bytes} bytes, {rounds} rounds: parse_json read {}, Document::parse_within {}, serde_json {}",
        texts.len(),
        reader.len(),
        within.len(),
        serde.len()
    );
    assert!(
        reader
            .iter()
            .zip(&serde)
            .all(|(ours, theirs)| ours == theirs),
        "the readers disagree"
    );
}
