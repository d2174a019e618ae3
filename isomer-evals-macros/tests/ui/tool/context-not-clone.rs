use isomer_evals_macros::isomer_tool;
use isomer_sdk::NoInput;

struct State;

/// Answers pong.
#[isomer_tool]
fn ping(state: State, _input: NoInput) -> String {
    let _ = state;
    "pong".to_owned()
}

fn main() {}
