//! A built `isomer-mcp-server` serving Streamable HTTP on a free loopback
//! port, for the tests that drive it over HTTP.

// Each test binary that mounts this module uses only part of it.
#![allow(dead_code)]

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

/// How long the server may take to start listening.
const START: Duration = Duration::from_secs(30);

/// A server started with `--http 127.0.0.1:0`, killed when dropped.
pub struct HttpServer {
    child: Child,
    /// The MCP endpoint, `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    /// The first line the server wrote on stderr.
    pub banner: String,
}

impl HttpServer {
    /// Starts the server and waits for the line naming its URL.
    pub fn start() -> HttpServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_isomer-mcp-server"))
            .args(["--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server binary starts");
        let stderr = child.stderr.take().unwrap();
        let (sender, lines) = channel();
        // Read stderr to its end, so the server never blocks on it.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                eprintln!("server: {line}");
                let _ = sender.send(line);
            }
        });
        let banner = lines
            .recv_timeout(START)
            .unwrap_or_else(|error| panic!("the server named no URL within {START:?}: {error}"));
        let url = banner
            .rsplit_once(" on ")
            .map(|(_, url)| url.to_owned())
            .unwrap_or_else(|| panic!("no URL in {banner:?}"));
        HttpServer { child, url, banner }
    }

    /// `127.0.0.1:PORT`, the address served.
    pub fn address(&self) -> &str {
        self.url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
