//! Every node of `tests/examples/reference.json` (the examples
//! `reference_examples.rs` renders) is a valid node, so each snapshot shows
//! what a real composition prints.

mod common;

use common::{findings, view};
use serde_json::Value;

#[test]
fn every_reference_example_is_a_valid_node() {
    let examples: Vec<Value> =
        serde_json::from_str(include_str!("examples/reference.json")).expect("the examples parse");
    for example in examples {
        assert_eq!(
            findings(&view(example["node"].clone())),
            [],
            "{}",
            example["name"]
        );
    }
}
