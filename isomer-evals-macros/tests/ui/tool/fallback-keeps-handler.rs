// A bad tool name is the only error shown: the handler is still emitted
// unchanged and `add_tool` still exists, so the code using both compiles.
use std::sync::Arc;

use isomer_evals_macros::isomer_tool;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct AddInput {
    a: i64,
    b: i64,
}

/// Adds two integers to an offset.
#[isomer_tool(name = "add numbers")]
fn add(offset: Arc<i64>, input: AddInput) -> String {
    (*offset + input.a + input.b).to_string()
}

fn main() {
    let _sum: String = add(Arc::new(1), AddInput { a: 1, b: 2 });
    let _tool: isomer_sdk::Tool = add_tool(Arc::new(0));
}
