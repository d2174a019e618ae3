//! Serves the slides runtime over MCP stdio (work in progress).
fn main() {}
