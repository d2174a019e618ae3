//! MCP over Streamable HTTP: rmcp's [`StreamableHttpService`] served by
//! hyper (HTTP/1.1) on a TCP listener, at the one path [`MCP_PATH`].
//!
//! rmcp does the protocol: sessions (`Mcp-Session-Id`), a `POST` per
//! client message answered as JSON or as a server-sent event stream, a `GET`
//! stream for server messages, `DELETE` to end a session. This module adds
//! only the listener, the path and the settings a local server wants
//! ([`local_config`]):
//!
//! - **Host check.** A request whose `Host` header is not one of
//!   `localhost`, `127.0.0.1` and `::1` (any port), the address served, or
//!   a host the caller adds, is refused with `403` (rmcp's check against
//!   DNS rebinding: a web page that makes its own name resolve to
//!   `127.0.0.1` still sends its own name).
//! - **Origin check.** A request that carries an `Origin` header (a browser
//!   page's) is refused with `403`; MCP clients outside a browser send none.
//! - **Body limit.** A `POST` body over rmcp's 4 MiB is answered `413`.
//! - Any other path is answered `404`.
//!
//! Messages over HTTP are read by rmcp's own JSON reader, not the line
//! transport of [`super::stdio`]: a body that is not JSON, or nests more
//! than 128 levels (`serde_json`'s limit), is refused by rmcp as a whole.
//!
//! The module depends on `rmcp` (feature `transport-streamable-http-server`),
//! `hyper` (`server`, `http1`), `hyper-util` (`tokio`), `http-body-util` and
//! `tokio` only, so a host can copy it beside `adapter.rs`.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt as _, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

/// The path MCP is served at: `http://ADDR/mcp`.
pub const MCP_PATH: &str = "/mcp";

/// The hosts rmcp accepts in a `Host` header by default (any port).
pub const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The settings of a server listening at `address` (module docs): rmcp's
/// defaults (sessions, a keep-alive event every 15 s on streams), the
/// `Host` check allowing [`LOOPBACK_HOSTS`], `address`'s own IP when it is
/// neither loopback nor unspecified (`0.0.0.0`, `::`), and
/// `allowed_hosts` (names or `name:port`, as a client writes them in the
/// URL), and every request with an `Origin` header refused.
pub fn local_config(
    address: SocketAddr,
    allowed_hosts: impl IntoIterator<Item = String>,
) -> StreamableHttpServerConfig {
    let ip = address.ip();
    let own = (!ip.is_loopback() && !ip.is_unspecified()).then(|| ip.to_string());
    let hosts = LOOPBACK_HOSTS
        .iter()
        .map(|host| (*host).to_owned())
        .chain(own)
        .chain(allowed_hosts);
    StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .enforce_origin_validation()
}

/// Serves `server` over Streamable HTTP on `listener` at [`MCP_PATH`] with
/// `config`, each session on a clone of `server`, until the process ends.
/// Each connection is served by a task of its own; a connection that fails
/// (the client went away mid-request) is logged on stderr and dropped.
///
/// # Errors
/// Never returns `Ok`; an error accepting connections that is not about
/// one connection (the listener itself failed) ends it. A connection
/// refused for want of file descriptors is retried after 100 ms.
pub async fn serve<S>(
    listener: TcpListener,
    server: S,
    config: StreamableHttpServerConfig,
) -> std::io::Result<std::convert::Infallible>
where
    S: ServerHandler + Clone + Send + Sync + 'static,
{
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) if is_per_connection(&error) => {
                eprintln!("isomer-mcp-server: accepting a connection failed: {error}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            Err(error) => return Err(error),
        };
        let service = service.clone();
        tokio::spawn(async move {
            let routed = hyper::service::service_fn(move |request: Request<Incoming>| {
                let service = service.clone();
                async move { Ok::<_, Infallible>(route(&service, request).await) }
            });
            if let Err(error) = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), routed)
                .await
            {
                eprintln!("isomer-mcp-server: an HTTP connection failed: {error}");
            }
        });
    }
}

/// Hands a request for [`MCP_PATH`] to rmcp; answers any other `404`.
async fn route<S>(
    service: &StreamableHttpService<S, LocalSessionManager>,
    request: Request<Incoming>,
) -> Response<http_body_util::combinators::BoxBody<Bytes, Infallible>>
where
    S: ServerHandler + Send + 'static,
{
    if request.uri().path() == MCP_PATH {
        return service.handle(request).await;
    }
    let mut response = Response::new(
        Full::new(Bytes::from(format!(
            "not found: MCP is served at {MCP_PATH}\n"
        )))
        .boxed(),
    );
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

/// Whether an `accept` error concerns one connection (or a passing lack of
/// resources) rather than the listener.
fn is_per_connection(error: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        error.kind(),
        ErrorKind::ConnectionAborted
            | ErrorKind::ConnectionReset
            | ErrorKind::Interrupted
            | ErrorKind::WouldBlock
    ) || error
        .raw_os_error()
        .is_some_and(|code| code == 23 || code == 24)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_allowed_and_an_explicit_address_adds_its_own() {
        let local = local_config("127.0.0.1:8000".parse().unwrap(), []);
        assert_eq!(local.allowed_hosts, LOOPBACK_HOSTS);
        let any = local_config("0.0.0.0:8000".parse().unwrap(), ["mcp.lan".to_owned()]);
        assert_eq!(
            any.allowed_hosts,
            ["localhost", "127.0.0.1", "::1", "mcp.lan"]
        );
        let own = local_config("[fd00::7]:8000".parse().unwrap(), []);
        assert_eq!(
            own.allowed_hosts,
            ["localhost", "127.0.0.1", "::1", "fd00::7"]
        );
    }
}
