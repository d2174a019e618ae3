//! Drives the built `isomer-mcp-server` with the official MCP TypeScript
//! SDK (`@modelcontextprotocol/sdk`, pinned in `tests/ts-client/`), over
//! Streamable HTTP and over stdio: `tests/ts-client/client.mjs` connects,
//! lists the tools, validates a good and a bad composition, renders text
//! and SVG, reads the guide and gets the prompt, and prints what it saw as
//! one JSON object, which must match exactly.
//!
//! Needs Node 18 or later and the package installed:
//! `npm ci --prefix examples/mcp-server/tests/ts-client` (CI does this).
//! Without them each test says why on stderr and passes without running.

mod support;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::HttpServer;

/// How long the client may take.
const CLIENT: Duration = Duration::from_secs(60);

fn client_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ts-client")
}

/// Why the TypeScript client cannot run here, if it cannot.
fn missing() -> Option<String> {
    match Command::new("node").arg("--version").output() {
        Ok(output) if output.status.success() => {}
        _ => return Some("`node` is not on the PATH".to_owned()),
    }
    let sdk = client_dir().join("node_modules/@modelcontextprotocol/sdk/package.json");
    (!sdk.is_file()).then(|| format!("{} is missing", sdk.display()))
}

/// Runs `client.mjs` with `args` and answers its output, or `None` (having
/// said why) when it cannot run here.
fn run_client(args: &[&str]) -> Option<Output> {
    if let Some(reason) = missing() {
        eprintln!(
            "skipped: the TypeScript MCP client cannot run: {reason}; \
             run `npm ci --prefix examples/mcp-server/tests/ts-client` (Node 18 or later)"
        );
        return None;
    }
    let mut child = Command::new("node")
        .arg(client_dir().join("client.mjs"))
        .args(args)
        .current_dir(client_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let deadline = Instant::now() + CLIENT;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the TypeScript client did not finish within {CLIENT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(child.wait_with_output().unwrap())
}

/// What `client.mjs` must print for this server.
fn expected() -> Value {
    json!({
        "server": { "name": "isomer-mcp-server", "title": "Isomer slides", "version": "0.1.0" },
        "tools": [
            "isomer_authoring_guide",
            "isomer_describe_primitives",
            "isomer_validate",
            "isomer_render",
            "isomer_list_views",
            "isomer_request_view"
        ],
        "validate": {
            "isError": false,
            "structuredContent": { "valid": true, "errors": [], "warnings": [] }
        },
        "invalid": {
            "isError": true,
            "text": "the input does not match the input schema of tool \"isomer_validate\":\n- at the root: Additional properties are not allowed ('extra' was unexpected)"
        },
        "text": ["Ledger\nOne nightly batch"],
        "svg": [{ "type": "image", "mimeType": "image/svg+xml", "starts": "<svg" }],
        "guide": [{
            "uri": "isomer://authoring-guide",
            "mimeType": "text/markdown",
            "firstLine": "# View authoring"
        }],
        "prompt": [{ "role": "user", "lastLine": "A title slide for Ledger" }]
    })
}

fn check(output: Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let seen: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|error| panic!("not JSON ({error}): {stdout}\n{stderr}"));
    assert_eq!(seen, expected(), "{stdout}");
}

#[test]
fn the_typescript_client_works_over_streamable_http() {
    let server = HttpServer::start();
    if let Some(output) = run_client(&["http", &server.url]) {
        check(output);
    }
}

#[test]
fn the_typescript_client_works_over_stdio() {
    if let Some(output) = run_client(&["stdio", env!("CARGO_BIN_EXE_isomer-mcp-server")]) {
        check(output);
    }
}
