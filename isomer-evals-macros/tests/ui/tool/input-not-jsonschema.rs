use isomer_evals_macros::isomer_tool;

#[derive(serde::Deserialize)]
struct Query {
    text: String,
}

/// Searches the docs.
#[isomer_tool]
async fn search(input: Query) -> String {
    input.text
}

fn main() {
    let _tool = search_tool();
}
