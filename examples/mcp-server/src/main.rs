//! `isomer-mcp-server`: serves [`isomer_mcp_server::slides_server`] over MCP,
//! on stdin/stdout until the client closes stdin, or over Streamable HTTP
//! with `--http [ADDR]` (127.0.0.1:8000 unless an address is given).
//!
//! `isomer-mcp-server --help` lists the flags; [`isomer_mcp_server::cli`]
//! documents them, the exit status and what each mode does.

#![forbid(unsafe_code)]

use clap::Parser as _;

fn main() -> std::process::ExitCode {
    isomer_mcp_server::cli::run(isomer_mcp_server::cli::Cli::parse())
}
