//! A PDF's words are text: poppler's `pdftotext` prints every slide's
//! words, `pdffonts` lists the faces embedded as subsets, `pdfinfo` the
//! title and one page per slide; an SVG carries the same text layer and its
//! title and description as authored.

mod common;

use std::process::Command;

use common::slide;
use isomer_pictures::Pictures;
use isomer_sdk::SnapshotOptions;
use serde_json::json;

/// Runs a poppler tool on `pdf`, written to a temporary file, and returns
/// what it prints. poppler-utils is installed by `.ci/run`.
fn poppler(tool: &str, pdf: &[u8], args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deck.pdf");
    std::fs::write(&path, pdf).unwrap();
    let output = Command::new(tool)
        .args(args)
        .arg(&path)
        .args(if tool == "pdftotext" {
            &["-"][..]
        } else {
            &[][..]
        })
        .output()
        .unwrap_or_else(|error| panic!("{tool} (Debian's poppler-utils) does not run: {error}"));
    assert!(
        output.status.success(),
        "{tool}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn deck() -> Vec<u8> {
    let deck = [
        slide(
            "Settlement runs nightly",
            json!({"type": "slideBulletList", "items": ["Batches close at 02:00 UTC", "Every cent is matched once"]}),
        ),
        slide(
            "Refunds take two days",
            json!({"type": "slideCode", "panels": [{"file": "settle.rs", "language": "rust", "lines": ["let batch = queue.drain(cut_off);", "bank.transfer(batch) -> Receipt"]}]}),
        ),
    ];
    let pages = isomer_slides::runtime()
        .unwrap()
        .snapshot()
        .unwrap()
        .render_pages(&deck, &SnapshotOptions::default())
        .unwrap();
    Pictures::new().unwrap().pdf(&pages).unwrap()
}

#[test]
fn pdftotext_prints_every_slides_words() {
    let text = poppler("pdftotext", &deck(), &["-layout"]);
    for words in [
        "Settlement runs nightly",
        "Batches close at 02:00 UTC",
        "Every cent is matched once",
        "Refunds take two days",
        "bank.transfer(batch) -> Receipt",
        "Northwind",
    ] {
        assert!(text.contains(words), "pdftotext lacks {words:?}:\n{text}");
    }
    // One page per slide: pdftotext ends each page with a form feed.
    assert_eq!(text.matches('\u{c}').count(), 2, "{text}");
    let first_page = text.split('\u{c}').next().unwrap();
    assert!(first_page.contains("Settlement runs nightly"));
    assert!(!first_page.contains("Refunds take two days"));
}

#[test]
fn pdffonts_lists_embedded_subset_faces() {
    let listing = poppler("pdffonts", &deck(), &[]);
    let fonts: Vec<&str> = listing.lines().skip(2).collect();
    assert!(!fonts.is_empty(), "no fonts:\n{listing}");
    for line in &fonts {
        // name, type, encoding, then emb sub uni as yes/no.
        let columns: Vec<&str> = line.split_whitespace().collect();
        let flags = &columns[columns.len() - 5..columns.len() - 2];
        assert_eq!(
            flags,
            ["yes", "yes", "yes"],
            "not embedded as a subset with a ToUnicode map: {line}"
        );
    }
    assert!(
        fonts.iter().any(|line| line.contains("Inter")),
        "Inter is embedded:\n{listing}"
    );
}

#[test]
fn pdfinfo_gives_the_title_and_two_pages() {
    let info = poppler("pdfinfo", &deck(), &[]);
    let field = |name: &str| {
        info.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
            .map(str::trim)
            .unwrap_or_else(|| panic!("pdfinfo has no {name}:\n{info}"))
    };
    assert_eq!(field("Title"), "Settlement runs nightly");
    assert_eq!(field("Pages"), "2");
}

#[test]
fn an_svg_has_its_text_layer_and_authored_title() {
    let render = common::render(&slide(
        "Settlement runs nightly",
        json!({"type": "slideTable", "columns": ["Bank", "Cut-off"], "rows": [["Alpha", "02:00"]]}),
    ));
    let svg = Pictures::new().unwrap().svg(&render).unwrap();
    assert!(svg.contains("<title>Settlement runs nightly</title>"));
    let desc = &svg[svg.find("<desc>").unwrap()..svg.find("</desc>").unwrap()];
    assert!(desc.contains("Settlement runs nightly"), "{desc}");
    assert!(
        !desc.contains("SETTLEMENT"),
        "the description keeps the authored case: {desc}"
    );
    let layer = &svg[svg.find("<g class=\"text-layer\"").unwrap()..];
    assert!(layer.contains(">Settlement runs nightly</text>"), "{layer}");
    assert!(layer.contains(">Alpha</text>"), "{layer}");
}
