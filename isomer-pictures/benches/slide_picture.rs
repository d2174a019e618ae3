//! Milliseconds per 1920x1080 slide: PNG and SVG drawn in-process by
//! takumi, beside headless Chromium screenshots of the same slide's
//! snapshot markup and stylesheet, measured in the same run.
//!
//! ```text
//! cargo bench -p isomer-pictures --bench slide_picture
//! ```
//!
//! The slide is the corpus golden `latency-delta` drawn on the slides frame.
//! Every figure is one whole picture from the snapshot render (markup and
//! stylesheet) to PNG (or SVG) bytes:
//! - `png`, `svg`: [`Pictures::png`] and [`Pictures::svg`] (parse the
//!   markup and stylesheet, lay out, draw, encode; the SVG lays the page
//!   out a second time for its text layer), fonts registered once
//!   beforehand as a host does.
//! - `chromium_warm`: a resident headless Chromium with the page open and
//!   its fonts loaded; each iteration replaces the document with the slide
//!   (`Page.setDocumentContent`) and takes a PNG screenshot
//!   (`Page.captureScreenshot`, decoded from base64), over the DevTools
//!   protocol. This is the browser at its fastest: no process start.
//! - `chromium_cold`: one `chromium --headless --screenshot` process per
//!   slide with a fresh profile, what a host without a resident browser
//!   pays (process start, page load, screenshot, exit).
//!
//! Chromium draws with the same Inter, JetBrains Mono and Noto Sans Symbols 2 files, loaded
//! through `@font-face`. Both Chromium groups are skipped, with a note,
//! when no `chromium` is on `PATH` (Debian's `chromium` package provides
//! one). Before measuring, the bench checks that Chromium's screenshot is
//! 1920x1080 and that takumi's PNG is too. The ratios to read are
//! `chromium_warm / png` and `chromium_cold / png`.

use std::io::ErrorKind;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use criterion::{Criterion, criterion_group, criterion_main};
use isomer_pictures::Pictures;
use isomer_sdk::{SnapshotOptions, SnapshotRender};
use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The flags every Chromium run gets: headless, no sandbox (containers), no
/// GPU, nothing fetched from the network, a 1920x1080 viewport at 1x.
const CHROMIUM_FLAGS: [&str; 11] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--window-size=1920,1080",
];

fn slide() -> SnapshotRender {
    let corpus: Value = serde_json::from_str(include_str!("../../corpus/slides/corpus.json"))
        .expect("the corpus parses");
    let golden = corpus["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|case| case["id"] == "latency-delta"))
        .map(|case| case["golden"].clone())
        .expect("the corpus has latency-delta");
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    runtime
        .snapshot()
        .expect("the slides runtime has a frame")
        .render(&golden, &SnapshotOptions::default())
        .expect("the golden renders")
}

/// The slide as one HTML document: `@font-face` rules for the crate's
/// fonts, the snapshot stylesheet, the page markup.
fn document(render: &SnapshotRender) -> String {
    let fonts = Path::new(env!("CARGO_MANIFEST_DIR")).join("fonts");
    let face = |family: &str, file: &str, weight: u32, style: &str| {
        format!(
            "@font-face{{font-family:\"{family}\";src:url(\"file://{}\");font-weight:{weight};font-style:{style}}}",
            fonts.join(file).display()
        )
    };
    let faces = [
        face("Inter", "Inter-Regular.otf", 400, "normal"),
        face("Inter", "Inter-Italic.otf", 400, "italic"),
        face("Inter", "Inter-Medium.otf", 500, "normal"),
        face("Inter", "Inter-SemiBold.otf", 600, "normal"),
        face("Inter", "Inter-Bold.otf", 700, "normal"),
        face("Inter", "Inter-ExtraBold.otf", 800, "normal"),
        face("JetBrains Mono", "JetBrainsMono-Regular.ttf", 400, "normal"),
        face("JetBrains Mono", "JetBrainsMono-Bold.ttf", 700, "normal"),
        face(
            "Noto Sans Symbols2",
            "NotoSansSymbols2-Regular.ttf",
            400,
            "normal",
        ),
    ]
    .concat();
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><style>{faces}html,body{{margin:0}}{}</style></head><body>{}</body></html>",
        render.css, render.page.html
    )
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|name| {
        Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success())
    })
}

/// The width and height a PNG's header declares.
fn png_size(png: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let reader = decoder.read_info().expect("a PNG header");
    let info = reader.info();
    (info.width, info.height)
}

fn pictures(c: &mut Criterion) {
    let render = slide();
    let pictures = Pictures::new().expect("the fonts load");
    assert_eq!(png_size(&pictures.png(&render).unwrap()), (1920, 1080));
    let mut group = c.benchmark_group("slide_1920x1080");
    group.sample_size(20);
    group.bench_function("png", |b| b.iter(|| pictures.png(&render).unwrap()));
    group.bench_function("svg", |b| b.iter(|| pictures.svg(&render).unwrap()));

    let Some(browser) = chromium() else {
        eprintln!("slide_1920x1080/chromium_*: skipped, no chromium on PATH");
        return;
    };
    let dir = tempfile::tempdir().expect("a scratch directory");
    let html = document(&render);
    let page = dir.path().join("slide.html");
    std::fs::write(&page, &html).expect("the page is written");

    let mut warm = Devtools::launch(browser, dir.path(), &page);
    assert_eq!(png_size(&warm.screenshot(&html)), (1920, 1080));
    group.sample_size(20);
    group.bench_function("chromium_warm", |b| b.iter(|| warm.screenshot(&html)));
    drop(warm);

    assert_eq!(
        png_size(&cold_screenshot(browser, dir.path(), &page)),
        (1920, 1080)
    );
    group.sample_size(10);
    group.bench_function("chromium_cold", |b| {
        b.iter(|| cold_screenshot(browser, dir.path(), &page));
    });
    group.finish();
}

/// One headless Chromium process with a fresh profile: a screenshot of
/// `page`, read back as PNG bytes.
fn cold_screenshot(browser: &str, dir: &Path, page: &Path) -> Vec<u8> {
    let profile = tempfile::tempdir_in(dir).expect("a profile directory");
    let shot = dir.join("cold.png");
    let output = Command::new(browser)
        .args(CHROMIUM_FLAGS)
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(output.status.success(), "chromium failed: {output:?}");
    std::fs::read(&shot).expect("chromium wrote the screenshot")
}

/// A resident headless Chromium, driven over the DevTools protocol
/// (JSON over a WebSocket), with one page attached.
struct Devtools {
    child: Child,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    frame: String,
    next_id: u64,
    /// Keeps the profile directory until the browser has exited.
    _profile: tempfile::TempDir,
}

impl Devtools {
    /// Starts Chromium on `page` with a fresh profile and waits until the
    /// page (and its fonts) has loaded.
    fn launch(browser: &str, dir: &Path, page: &Path) -> Devtools {
        let profile = tempfile::tempdir_in(dir).expect("a profile directory");
        let child = Command::new(browser)
            .args(CHROMIUM_FLAGS)
            .arg("--remote-debugging-port=0")
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        // Chromium writes the port it chose and the browser's endpoint here.
        let port_file: PathBuf = profile.path().join("DevToolsActivePort");
        let started = Instant::now();
        let endpoint = loop {
            match std::fs::read_to_string(&port_file) {
                Ok(text) if text.lines().count() >= 2 => {
                    let mut lines = text.lines();
                    let port = lines.next().unwrap();
                    let path = lines.next().unwrap();
                    break format!("ws://127.0.0.1:{port}{path}");
                }
                Ok(_) => {}
                Err(error) if error.kind() == ErrorKind::NotFound => {}
                Err(error) => panic!("{}: {error}", port_file.display()),
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "chromium did not open its DevTools port within 60 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let (socket, _) = tungstenite::connect(endpoint).expect("the DevTools socket opens");
        let mut devtools = Devtools {
            child,
            socket,
            session: String::new(),
            frame: String::new(),
            next_id: 0,
            _profile: profile,
        };
        let target = devtools.call(
            None,
            "Target.createTarget",
            json!({"url": "about:blank", "newWindow": false}),
        );
        let target = target["targetId"].as_str().expect("a target id").to_owned();
        let attached = devtools.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        devtools.session = attached["sessionId"]
            .as_str()
            .expect("a session id")
            .to_owned();
        let session = devtools.session.clone();
        devtools.call(
            Some(&session),
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": false}),
        );
        devtools.call(Some(&session), "Page.enable", json!({}));
        devtools.call(
            Some(&session),
            "Page.navigate",
            json!({"url": format!("file://{}", page.display())}),
        );
        devtools.wait_for_event(&session, "Page.loadEventFired");
        let tree = devtools.call(Some(&session), "Page.getFrameTree", json!({}));
        devtools.frame = tree["frameTree"]["frame"]["id"]
            .as_str()
            .expect("a frame id")
            .to_owned();
        devtools
    }

    /// Replaces the page's document with `html` and returns a PNG
    /// screenshot of the viewport.
    fn screenshot(&mut self, html: &str) -> Vec<u8> {
        let session = self.session.clone();
        let frame = self.frame.clone();
        self.call(
            Some(&session),
            "Page.setDocumentContent",
            json!({"frameId": frame, "html": html}),
        );
        let shot = self.call(
            Some(&session),
            "Page.captureScreenshot",
            json!({"format": "png"}),
        );
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("screenshot data"))
            .expect("base64 screenshot data")
    }

    /// Sends one command and returns its result, skipping events.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .expect("the command is sent");
        loop {
            let reply = self.read();
            if reply["id"] == id {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply["result"].clone();
            }
        }
    }

    fn wait_for_event(&mut self, session: &str, method: &str) {
        loop {
            let event = self.read();
            if event["method"] == method && event["sessionId"] == session {
                return;
            }
        }
    }

    fn read(&mut self) -> Value {
        loop {
            match self.socket.read().expect("the DevTools socket stays open") {
                Message::Text(text) => {
                    return serde_json::from_str(text.as_str()).expect("DevTools sends JSON");
                }
                Message::Close(frame) => panic!("DevTools closed the socket: {frame:?}"),
                _ => {}
            }
        }
    }
}

impl Drop for Devtools {
    fn drop(&mut self) {
        let _ = self.socket.close(None);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

criterion_group!(benches, pictures);
criterion_main!(benches);
