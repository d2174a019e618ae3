//! Milliseconds per 1920x1080 slide: PNG and SVG drawn in-process by
//! takumi, beside a headless Chromium screenshot of the same slide's
//! snapshot markup and stylesheet, measured in the same run.
//!
//! ```text
//! cargo bench -p isomer-pictures --bench slide_picture
//! ```
//!
//! The slide is the corpus golden `latency-delta` drawn on the slides
//! frame. Chromium is launched per screenshot (`--headless --screenshot`),
//! what a host without a resident browser pays; its group is skipped, with
//! a note, when no `chromium` is on `PATH` (Debian's `chromium` package
//! provides one). The ratio to read is `chromium / png`.

use std::path::Path;
use std::process::Command;

use criterion::{Criterion, criterion_group, criterion_main};
use isomer_pictures::Pictures;
use isomer_sdk::{SnapshotOptions, SnapshotRender};
use serde_json::Value;

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

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|name| {
        Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success())
    })
}

fn pictures(c: &mut Criterion) {
    let render = slide();
    let pictures = Pictures::new().expect("the fonts load");
    let mut group = c.benchmark_group("slide_1920x1080");
    group.bench_function("png", |b| b.iter(|| pictures.png(&render).unwrap()));
    group.bench_function("svg", |b| b.iter(|| pictures.svg(&render).unwrap()));
    group.finish();

    let Some(browser) = chromium() else {
        eprintln!("slide_1920x1080/chromium: skipped, no chromium on PATH");
        return;
    };
    let dir = tempfile::tempdir().expect("a scratch directory");
    let page = dir.path().join("slide.html");
    std::fs::write(
        &page,
        format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><style>html,body{{margin:0}}{}</style></head><body>{}</body></html>",
            render.css, render.page.html
        ),
    )
    .expect("the page is written");
    let mut group = c.benchmark_group("slide_1920x1080");
    group.sample_size(10);
    group.bench_function("chromium", |b| {
        b.iter(|| screenshot(browser, dir.path(), &page));
    });
    group.finish();
}

/// One headless Chromium screenshot of `page`, with a fresh profile.
fn screenshot(browser: &str, dir: &Path, page: &Path) {
    let profile = tempfile::tempdir_in(dir).expect("a profile directory");
    let shot = dir.join("slide.png");
    let status = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1920,1080",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(status.status.success(), "chromium failed: {status:?}");
}

criterion_group!(benches, pictures);
criterion_main!(benches);
