use isomer_evals_macros::isomer_tool;

/// Shouts the text back.
#[isomer_tool]
fn shout(text: String) -> String {
    text.to_uppercase()
}

fn main() {}
