//! The command line of `isomer-mcp-server` ([`Cli`]) and what it runs
//! ([`run`]): serve [`slides_server`] over stdio (the default) or
//! Streamable HTTP (`--http`), or print its tools (`--list-tools`).
//!
//! ```text
//! isomer-mcp-server [--max-line-bytes <BYTES>] [--max-pending-answers <N>]
//! isomer-mcp-server --http [<ADDR>] [--allowed-host <HOST>]...
//! isomer-mcp-server --list-tools [--provider <PROVIDER>]
//! ```
//!
//! Exit status: 0 when the client closes stdin (before or after
//! `initialize`); 1, with the reason on stderr, when the server cannot be
//! built, the HTTP address cannot be listened on, a write to stdout fails
//! (the client closed it), or the session fails; 2 for a bad command line
//! (clap's message, ending "For more information, try '--help'.").

use std::io::Write as _;
use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use isomer_sdk::tool::provider::{Provider, provider_tools};
use rmcp::ServiceExt as _;
use rmcp::service::ServerInitializeError;

use crate::adapter::stdio::{DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_PENDING_ANSWERS, stdio};
use crate::adapter::{http, list_tools_result};
use crate::slides_server;

/// The address `--http` serves when given no address: 127.0.0.1, port
/// 8000.
pub const DEFAULT_HTTP_ADDRESS: SocketAddr =
    SocketAddr::new(std::net::IpAddr::V4(Ipv4Addr::LOCALHOST), DEFAULT_HTTP_PORT);

/// The port `--http` serves when given none.
pub const DEFAULT_HTTP_PORT: u16 = 8000;

/// Serves the Isomer slides runtime to MCP clients: six agent tools, two
/// resources and the compose prompt.
///
/// Over stdio by default (one JSON-RPC message per line; logs go to
/// stderr), or over Streamable HTTP with --http.
#[derive(Debug, Parser)]
#[command(name = "isomer-mcp-server", version)]
pub struct Cli {
    /// Serve MCP over Streamable HTTP instead of stdio, at http://ADDR/mcp.
    /// ADDR is an IP address and port (127.0.0.1:8000, 0.0.0.0:8000; an
    /// IPv6 address in brackets) or a port alone, on 127.0.0.1; without ADDR,
    /// 127.0.0.1:8000. Only an address given here is served beyond
    /// loopback
    #[arg(
        long,
        value_name = "ADDR",
        num_args = 0..=1,
        default_missing_value = "127.0.0.1:8000",
        value_parser = parse_http_address,
    )]
    pub http: Option<SocketAddr>,

    /// With --http: accept this name in the Host header too (repeatable;
    /// `name` or `name:port`). localhost, 127.0.0.1, ::1 and the address
    /// served are accepted; any other Host is refused (403), against DNS
    /// rebinding
    #[arg(long = "allowed-host", value_name = "HOST", requires = "http")]
    pub allowed_hosts: Vec<String>,

    /// Over stdio: the longest line read, in bytes without the newline; a
    /// longer line is answered with a -32700 parse error
    #[arg(
        long,
        value_name = "BYTES",
        default_value_t = DEFAULT_MAX_LINE_BYTES,
        conflicts_with = "http",
    )]
    pub max_line_bytes: usize,

    /// Over stdio: how many answers may wait to be written (requests read
    /// and not yet answered on stdout) before the server stops reading
    /// stdin until the client reads
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_MAX_PENDING_ANSWERS,
        value_parser = parse_positive,
        conflicts_with = "http",
    )]
    pub max_pending_answers: usize,

    /// Print the tools as pretty JSON and exit, without serving: the MCP
    /// tools/list result, or with --provider that provider's declarations
    #[arg(long, conflicts_with = "http")]
    pub list_tools: bool,

    /// With --list-tools: print the tool declarations this provider's API
    /// takes
    #[arg(long, value_enum, value_name = "PROVIDER", requires = "list_tools")]
    pub provider: Option<ProviderName>,
}

/// The `--provider` names, one per [`Provider`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProviderName {
    /// OpenAI strict function tools
    #[value(name = "openai")]
    OpenAi,
    /// Anthropic tools, without `strict`
    Anthropic,
    /// Anthropic tools with `strict: true`
    AnthropicStrict,
    /// Gemini function declarations
    Gemini,
}

impl From<ProviderName> for Provider {
    fn from(name: ProviderName) -> Provider {
        match name {
            ProviderName::OpenAi => Provider::OpenAi,
            ProviderName::Anthropic => Provider::Anthropic,
            ProviderName::AnthropicStrict => Provider::AnthropicStrict,
            ProviderName::Gemini => Provider::Gemini,
        }
    }
}

/// Reads `--http`'s ADDR: `IP:PORT` (IPv6 in brackets) or a port alone,
/// which means that port on 127.0.0.1.
///
/// # Errors
/// A message naming the value and the forms taken, for clap to print.
pub fn parse_http_address(value: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = value.parse::<u16>() {
        return Ok(SocketAddr::new(DEFAULT_HTTP_ADDRESS.ip(), port));
    }
    value.parse().map_err(|_| {
        format!("{value:?} is not IP:PORT ([::1]:8000 for IPv6) or a port from 0 to 65535")
    })
}

/// Reads a count of at least 1.
fn parse_positive(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) => Err("it must be at least 1".to_owned()),
        Ok(count) => Ok(count),
        Err(_) => Err(format!("{value:?} is not a whole number")),
    }
}

/// Runs what `cli` asks on a tokio runtime of its own and answers the
/// process's exit status, after printing any failure on stderr as
/// `isomer-mcp-server: <reason>`.
///
/// The runtime is shut down without waiting for its blocking threads:
/// tokio reads stdin on one that cannot be cancelled, and it may be waiting
/// for a line the client never sends (a client that died with stdin held
/// open), which would keep the process alive after its session ended.
pub fn run(cli: Cli) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("isomer-mcp-server: cannot start the tokio runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(execute(cli));
    runtime.shutdown_background();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("isomer-mcp-server: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn execute(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    if cli.list_tools {
        return list_tools(cli.provider.map(Provider::from));
    }
    match cli.http {
        Some(address) => serve_http(address, cli.allowed_hosts).await,
        None => serve_stdio(cli.max_line_bytes, cli.max_pending_answers).await,
    }
}

fn list_tools(provider: Option<Provider>) -> Result<(), Box<dyn std::error::Error>> {
    let server = slides_server()?;
    let listed = match provider {
        None => serde_json::to_value(list_tools_result(server.tools()))?,
        Some(provider) => serde_json::Value::Array(provider_tools(server.tools(), provider)),
    };
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, &listed)
        .and_then(|()| writeln!(stdout).map_err(serde_json::Error::io))
        .map_err(|error| format!("writing the tool list to stdout failed: {error}"))?;
    Ok(())
}

/// `serving 6 tools, 2 resources and 1 prompt(s)`, after the version.
fn serving(server: &crate::IsomerMcpServer) -> String {
    format!(
        "isomer-mcp-server {}: serving {} tools, {} resources and {} prompt(s)",
        env!("CARGO_PKG_VERSION"),
        server.tools().len(),
        server.resources().len(),
        server.prompts().len()
    )
}

async fn serve_stdio(
    max_line_bytes: usize,
    max_pending_answers: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let server = slides_server()?;
    eprintln!("{} on stdio", serving(&server));
    let transport = stdio()
        .with_max_line_bytes(max_line_bytes)
        .with_max_pending_answers(max_pending_answers);
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

async fn serve_http(
    address: SocketAddr,
    allowed_hosts: Vec<String>,
) -> Result<(), Box<dyn std::error::Error>> {
    let server = slides_server()?;
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|error| format!("cannot listen on {address}: {error}"))?;
    let local = listener.local_addr()?;
    eprintln!("{} on http://{local}{}", serving(&server), http::MCP_PATH);
    if !local.ip().is_loopback() {
        eprintln!(
            "isomer-mcp-server: {} is not a loopback address: anyone who can reach it can call the tools",
            local.ip()
        );
    }
    let config = http::local_config(local, allowed_hosts);
    match http::serve(listener, server, config).await {
        Ok(never) => match never {},
        Err(error) => Err(format!("serving http://{local} failed: {error}").into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, String> {
        Cli::try_parse_from(std::iter::once("isomer-mcp-server").chain(args.iter().copied()))
            .map_err(|error| error.to_string())
    }

    #[test]
    fn http_binds_loopback_unless_an_address_is_given() {
        assert_eq!(parse(&[]).unwrap().http, None);
        let address = |args: &[&str]| parse(args).unwrap().http.unwrap().to_string();
        assert_eq!(address(&["--http"]), "127.0.0.1:8000");
        assert_eq!(address(&["--http", "9000"]), "127.0.0.1:9000");
        assert_eq!(address(&["--http=0"]), "127.0.0.1:0");
        assert_eq!(address(&["--http", "[::1]:9000"]), "[::1]:9000");
        assert_eq!(address(&["--http", "0.0.0.0:9000"]), "0.0.0.0:9000");
    }

    #[test]
    fn defaults_are_the_transport_bounds() {
        let cli = parse(&[]).unwrap();
        assert_eq!(
            (cli.max_line_bytes, cli.max_pending_answers, cli.list_tools),
            (1_048_576, 64, false)
        );
    }

    #[test]
    fn bad_values_and_combinations_are_refused() {
        let first_line = |args: &[&str]| {
            parse(args)
                .unwrap_err()
                .lines()
                .next()
                .unwrap_or_default()
                .to_owned()
        };
        assert_eq!(
            first_line(&["--http", "localhost:80"]),
            "error: invalid value 'localhost:80' for '--http [<ADDR>]': \"localhost:80\" is not IP:PORT ([::1]:8000 for IPv6) or a port from 0 to 65535"
        );
        assert_eq!(
            first_line(&["--max-pending-answers", "0"]),
            "error: invalid value '0' for '--max-pending-answers <N>': it must be at least 1"
        );
        assert_eq!(
            first_line(&["--provider", "gemini"]),
            "error: the following required arguments were not provided:"
        );
        assert_eq!(
            first_line(&["--http", "--max-line-bytes", "10"]),
            "error: the argument '--http [<ADDR>]' cannot be used with '--max-line-bytes <BYTES>'"
        );
        assert_eq!(
            first_line(&["--allowed-host", "mcp.lan"]),
            "error: the following required arguments were not provided:"
        );
    }
}
