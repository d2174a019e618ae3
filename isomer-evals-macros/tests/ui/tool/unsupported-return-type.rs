use isomer_evals_macros::isomer_tool;
use isomer_sdk::NoInput;

/// Counts to three.
#[isomer_tool]
async fn count(_input: NoInput) -> u32 {
    3
}

fn main() {}
