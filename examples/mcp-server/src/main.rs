//! `isomer-mcp-server`: serves [`isomer_mcp_server::slides_server`] over MCP
//! on stdin/stdout until the client closes the connection. Logs go to
//! stderr only (stdout carries MCP messages); it exits 0 when the client
//! disconnects after the handshake and 1, with the reason on stderr, when the
//! server cannot be built or the session fails (a client that closes stdin
//! before `initialize` is such a failure: `connection closed: initialize
//! request`).

use std::process::ExitCode;

use rmcp::ServiceExt as _;
use rmcp::transport::stdio;

#[tokio::main]
async fn main() -> ExitCode {
    match serve().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("isomer-mcp-server: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn serve() -> Result<(), Box<dyn std::error::Error>> {
    let server = isomer_mcp_server::slides_server()?;
    eprintln!(
        "isomer-mcp-server {}: serving {} tools, {} resources and {} prompt(s) on stdio",
        env!("CARGO_PKG_VERSION"),
        server.tools().len(),
        server.resources().len(),
        server.prompts().len()
    );
    let running = server.serve(stdio()).await?;
    let reason = running.waiting().await?;
    eprintln!("isomer-mcp-server: session ended ({reason:?})");
    Ok(())
}
