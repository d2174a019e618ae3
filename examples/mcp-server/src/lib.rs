//! An MCP server over rmcp, the official MCP Rust SDK, serving the slides
//! runtime's agent tools, resources and `compose` prompt on stdio or
//! Streamable HTTP.
//!
//! | module | what it holds |
//! |---|---|
//! | [`adapter`] | the mapping from the agent-tools lists onto rmcp, and [`IsomerMcpServer`], an rmcp `ServerHandler` over them; one file a host can copy, with its two transports ([`adapter::stdio`], [`adapter::http`]) |
//! | [`slides`] | what this example serves: the slides runtime with a registered view, the pack's guide and rules |
//! | [`cli`] | the binary's command line and what it runs |
//!
//! The binary (`cargo run -p isomer-mcp-server`) serves [`slides_server`]
//! on stdin/stdout and logs to stderr only, so stdout carries nothing but
//! MCP messages; `--http [ADDR]` serves it at `http://ADDR/mcp` instead.

#![forbid(unsafe_code)]

pub mod adapter;
pub mod cli;
pub mod slides;

pub use adapter::IsomerMcpServer;
pub use slides::slides_server;
