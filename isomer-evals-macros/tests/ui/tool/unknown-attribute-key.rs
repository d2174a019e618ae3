use isomer_evals_macros::isomer_tool;
use isomer_sdk::NoInput;

/// Answers pong.
#[isomer_tool(titel = "Ping")]
fn ping(_input: NoInput) -> String {
    "pong".to_owned()
}

fn main() {}
