//! `isomer-mcp-server`: serves [`isomer_mcp_server::slides_server`] over MCP
//! on stdin/stdout until the client closes stdin.
//!
//! ```text
//! isomer-mcp-server [--max-line-bytes <n>]
//! isomer-mcp-server --list-tools [--provider openai|anthropic|anthropic-strict|gemini]
//! ```
//!
//! Messages travel on the adapter's line transport
//! ([`isomer_mcp_server::adapter::stdio`]), which answers every line. Logs go
//! to stderr only (stdout carries MCP messages). `--max-line-bytes` sets the
//! line limit (default 1 MiB, 1,048,576 bytes).
//!
//! `--list-tools` prints the tools as pretty JSON without serving: the MCP
//! `tools/list` result (`{"tools":[...]}`) by default, or with `--provider`
//! the JSON array of tool declarations that provider's API takes
//! (`isomer_sdk::tool::provider::provider_tools`: OpenAI strict function
//! tools, Anthropic tools without or with `strict`, Gemini function
//! declarations).
//!
//! Exit status: 0 when the client closes stdin (before or after
//! `initialize`); 1, with the reason on stderr, when the server cannot be
//! built, a write to stdout fails (the client closed it), or the session
//! fails; 2 for a bad command line.

#![forbid(unsafe_code)]

use std::io::Write as _;
use std::process::ExitCode;

use isomer_mcp_server::adapter::stdio::{DEFAULT_MAX_LINE_BYTES, stdio};
use isomer_sdk::tool::provider::{Provider, provider_tools};
use rmcp::ServiceExt as _;
use rmcp::service::ServerInitializeError;

/// What the command line asks for.
enum Command {
    Serve { max_line_bytes: usize },
    ListTools { provider: Option<Provider> },
}

/// The `--provider` names.
const PROVIDERS: [(&str, Provider); 4] = [
    ("openai", Provider::OpenAi),
    ("anthropic", Provider::Anthropic),
    ("anthropic-strict", Provider::AnthropicStrict),
    ("gemini", Provider::Gemini),
];

const USAGE: &str = "usage: isomer-mcp-server [--max-line-bytes <n>] | --list-tools [--provider openai|anthropic|anthropic-strict|gemini]";

fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut max_line_bytes = DEFAULT_MAX_LINE_BYTES;
    let mut list_tools = false;
    let mut provider = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--list-tools" => list_tools = true,
            "--provider" => {
                let name = args
                    .next()
                    .ok_or(format!("--provider needs a name; {USAGE}"))?;
                let found = PROVIDERS.iter().find(|(known, _)| *known == name);
                provider = Some(
                    found
                        .map(|(_, provider)| *provider)
                        .ok_or(format!("unknown provider {name:?}; {USAGE}"))?,
                );
            }
            "--max-line-bytes" => {
                let value = args
                    .next()
                    .ok_or("--max-line-bytes needs a number of bytes")?;
                max_line_bytes = value.parse().map_err(|_| {
                    format!("--max-line-bytes takes a number of bytes, not {value:?}")
                })?;
            }
            other => return Err(format!("unknown argument {other:?}; {USAGE}")),
        }
    }
    match (list_tools, provider) {
        (true, provider) => Ok(Command::ListTools { provider }),
        (false, Some(_)) => Err(format!("--provider goes with --list-tools; {USAGE}")),
        (false, None) => Ok(Command::Serve { max_line_bytes }),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let command = match parse_args(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(message) => {
            eprintln!("isomer-mcp-server: {message}");
            return ExitCode::from(2);
        }
    };
    let outcome = match command {
        Command::ListTools { provider } => list_tools(provider),
        Command::Serve { max_line_bytes } => serve(max_line_bytes).await,
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("isomer-mcp-server: {error}");
            ExitCode::FAILURE
        }
    }
}

fn list_tools(provider: Option<Provider>) -> Result<(), Box<dyn std::error::Error>> {
    let server = isomer_mcp_server::slides_server()?;
    let listed = match provider {
        None => serde_json::to_value(isomer_mcp_server::adapter::list_tools_result(
            server.tools(),
        ))?,
        Some(provider) => serde_json::Value::Array(provider_tools(server.tools(), provider)),
    };
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, &listed)
        .and_then(|()| writeln!(stdout).map_err(serde_json::Error::io))
        .map_err(|error| format!("writing the tool list to stdout failed: {error}"))?;
    Ok(())
}

async fn serve(max_line_bytes: usize) -> Result<(), Box<dyn std::error::Error>> {
    let server = isomer_mcp_server::slides_server()?;
    eprintln!(
        "isomer-mcp-server {}: serving {} tools, {} resources and {} prompt(s) on stdio",
        env!("CARGO_PKG_VERSION"),
        server.tools().len(),
        server.resources().len(),
        server.prompts().len()
    );
    let transport = stdio().with_max_line_bytes(max_line_bytes);
    let write_failure = transport.write_failure();
    let broken_stdout = || {
        write_failure
            .get()
            .map(|error| format!("writing to stdout failed ({error}); the client is gone").into())
    };
    let running = match server.serve(transport).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) if broken_stdout().is_none() => {
            eprintln!("isomer-mcp-server: stdin closed before initialize");
            return Ok(());
        }
        Err(error) => return Err(broken_stdout().unwrap_or_else(|| error.into())),
    };
    let reason = running.waiting().await?;
    if let Some(error) = broken_stdout() {
        return Err(error);
    }
    eprintln!("isomer-mcp-server: session ended ({reason:?})");
    Ok(())
}
