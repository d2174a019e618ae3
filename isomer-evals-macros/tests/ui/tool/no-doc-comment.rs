use isomer_evals_macros::isomer_tool;
use isomer_sdk::{NoInput, ToolResult};

#[isomer_tool]
fn undocumented(_input: NoInput) -> ToolResult {
    ToolResult::text("the model never learns what this does")
}

fn main() {}
