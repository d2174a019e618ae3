//! The HTML report (`isomer-report --html FILE`) opened in headless Chromium, as a person
//! opens it: the slides corpus's page loads with no console message (the page has no
//! script, and its Content-Security-Policy would log any fetch or script it refused),
//! one row per case, failures first, an index whose every link resolves to a case's row,
//! and the slides gate's floors; a corpus whose every text field is hostile (script tags, event
//! attributes, `javascript:` links, in the request, the golden, the answers and the
//! errors they cause) shows that text and runs none of it.
//!
//! Chromium is `/usr/bin/chromium` or `chromium` on `PATH` (`.ci/run` installs Debian's
//! package when it is missing); without it each test prints why it skips and passes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

const REPORT: &str = env!("CARGO_BIN_EXE_isomer-report");
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/slides");

/// What a hostile text would do if the page ran it: retitle the document.
const HOSTILE: &str = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\"><a href=\"javascript:document.title='pwned'\" onclick=\"document.title='pwned'\">click</a><svg onload=\"document.title='pwned'\"></svg>\" onmouseover=\"document.title='pwned'";
const HOSTILE_URL: &str = "javascript:document.title='pwned'";

/// The Chromium binary, or `None` (with the reason printed) when there is none.
fn chromium() -> Option<PathBuf> {
    let installed = Path::new("/usr/bin/chromium");
    if installed.is_file() {
        return Some(installed.to_owned());
    }
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("chromium"))
            .find(|candidate| candidate.is_file())
    });
    if on_path.is_none() {
        println!(
            "skipped: no Chromium (neither /usr/bin/chromium nor chromium on PATH); install Debian's `chromium` package to run this test"
        );
    }
    on_path
}

/// Runs headless Chromium on `page` with a fresh profile, logging console messages to
/// stderr, plus `extra` (`--dump-dom`, `--screenshot=...`).
fn open(chromium: &Path, page: &Path, extra: &[String]) -> Output {
    let profile = tempfile::tempdir().unwrap();
    let output = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(
        output.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The console messages Chromium logged for the page (`...:CONSOLE:...` lines).
fn console_messages(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|line| line.contains(":CONSOLE"))
        .map(str::to_owned)
        .collect()
}

/// Writes the HTML report of the corpus at `corpus` (the default one when `None`) to
/// `page`; returns the command's exit status code.
fn write_report(corpus: Option<&Path>, page: &Path) -> i32 {
    let mut command = Command::new(REPORT);
    if let Some(corpus) = corpus {
        command.arg("--corpus").arg(corpus);
    }
    let output = command
        .arg("--html")
        .arg(page)
        .output()
        .expect("isomer-report runs");
    assert!(
        page.is_file(),
        "no page written: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.status.code().unwrap_or(-1)
}

/// Every start tag of a serialized DOM (`<tag ...>`): text is escaped there, so each `<`
/// followed by a letter opens an element.
fn start_tags(dom: &str) -> Vec<&str> {
    let mut tags = Vec::new();
    let mut rest = dom;
    while let Some(at) = rest.find('<') {
        rest = &rest[at..];
        let end = rest.find('>').map_or(rest.len(), |end| end + 1);
        if rest[1..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            tags.push(&rest[..end]);
        }
        rest = &rest[end..];
    }
    tags
}

/// The names of the attributes of a start tag, lowercase.
fn attribute_names(tag: &str) -> Vec<String> {
    let mut names = Vec::new();
    let inner = tag.trim_start_matches('<').trim_end_matches('>');
    let mut chars = inner.char_indices().peekable();
    // Skip the tag name.
    while chars.next_if(|(_, c)| !c.is_whitespace()).is_some() {}
    loop {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let Some(&(start, _)) = chars.peek() else {
            break;
        };
        while chars
            .next_if(|(_, c)| !c.is_whitespace() && *c != '=')
            .is_some()
        {}
        let end = chars.peek().map_or(inner.len(), |(at, _)| *at);
        names.push(inner[start..end].to_ascii_lowercase());
        if chars.next_if(|(_, c)| *c == '=').is_some() {
            match chars.peek().map(|(_, c)| *c) {
                Some(quote @ ('"' | '\'')) => {
                    chars.next();
                    while chars.next_if(|(_, c)| *c != quote).is_some() {}
                    chars.next();
                }
                _ => while chars.next_if(|(_, c)| !c.is_whitespace()).is_some() {},
            }
        }
    }
    names
}

/// The slide pictures of a serialized DOM: `<img>` elements with exactly the `class`,
/// `alt` and `src` the page writes, `src` a PNG `data:` URI (the CSP allows no other).
fn pictures(dom: &str) -> usize {
    start_tags(dom)
        .into_iter()
        .filter(|tag| tag.starts_with("<img"))
        .inspect(|tag| {
            assert!(
                tag.starts_with(
                    "<img class=\"picture\" alt=\"picture\" src=\"data:image/png;base64,iVBORw0KGgo"
                ) && attribute_names(tag) == ["class", "alt", "src"],
                "an image the page does not draw: {}",
                &tag[..tag.len().min(200)]
            );
        })
        .count()
}

/// Asserts that no start tag among `tags` is an element model text could bring in: no
/// script, frame, object, embed or SVG, and no image but the page's own pictures.
fn assert_no_element_from_model_text(tags: &[&str]) {
    let elements = ["<script", "<svg", "<iframe", "<object", "<embed"];
    for tag in tags {
        assert!(
            !elements.iter().any(|element| tag.starts_with(element)),
            "an element from model text: {tag}"
        );
        if tag.starts_with("<img") {
            assert!(
                tag.starts_with(
                    "<img class=\"picture\" alt=\"picture\" src=\"data:image/png;base64,"
                ) && attribute_names(tag) == ["class", "alt", "src"],
                "an image from model text: {tag}"
            );
        }
    }
}

/// Asserts that every in-page link of `dom` (`href="#..."`) names an element's id;
/// returns how many there are.
fn links_resolve(dom: &str) -> usize {
    let mut count = 0;
    for (at, _) in dom.match_indices("href=\"#") {
        let rest = &dom[at + "href=\"#".len()..];
        let target = &rest[..rest.find('"').unwrap()];
        assert!(dom.contains(&format!("id=\"{target}\"")), "{target}");
        count += 1;
    }
    count
}

/// The case id of a case row's opening tag (`id="case-<id>"`).
fn case_id(tag: &str) -> &str {
    let start = tag.find("id=\"case-").unwrap() + "id=\"case-".len();
    let end = tag[start..].find('"').unwrap();
    &tag[start..start + end]
}

/// The text between `<title>` and `</title>` of a serialized DOM.
fn title(dom: &str) -> &str {
    let start = dom.find("<title>").expect("a title") + "<title>".len();
    let end = dom[start..].find("</title>").expect("a closed title");
    &dom[start..start + end]
}

#[test]
fn the_slides_report_opens_with_one_row_per_case_and_no_console_message() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("slides.html");
    assert_eq!(write_report(None, &page), 0);
    let output = open(&chromium, &page, &["--dump-dom".to_owned()]);
    assert_eq!(console_messages(&output), Vec::<String>::new());
    let dom = String::from_utf8(output.stdout).unwrap();
    assert_eq!(title(&dom), "slides: eval report");

    let corpus: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(CORPUS).join("corpus.json")).unwrap(),
    )
    .unwrap();
    let ids: Vec<&str> = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 49);
    let rows: Vec<&str> = start_tags(&dom)
        .into_iter()
        .filter(|tag| tag.starts_with("<details class=\"case "))
        .collect();
    let row_ids: Vec<&str> = rows.iter().map(|tag| case_id(tag)).collect();
    // Every case once; failures first, then the others in corpus order.
    let failed: Vec<&str> = rows
        .iter()
        .filter(|row| row.starts_with("<details class=\"case failed\""))
        .map(|tag| case_id(tag))
        .collect();
    let mut expected: Vec<&str> = failed.clone();
    expected.extend(ids.iter().filter(|id| !failed.contains(id)));
    assert_eq!(row_ids, expected);
    assert_eq!(rows.len(), 49);
    // The slides gate's floors decide each case: a passing row is collapsed, a failing
    // one open.
    for row in &rows {
        let open = row.contains(" open");
        assert!(
            row.starts_with("<details class=\"case passed\"") && !open
                || row.starts_with("<details class=\"case failed\"") && open,
            "{row}"
        );
    }
    assert!(!dom.contains("no floors declared"));
    assert!(dom.contains(
        "<li class=\"floor met\"><span class=\"badge pass\">met</span><code>min_mean_selection_f1 = 0.98</code> (suite)</li>"
    ));
    // The gate's floors, then the floor of its pack scorer `fits_frame` (48 of 49 slides
    // fit their frame).
    assert!(dom.contains(
        "<li class=\"floor met\"><span class=\"badge pass\">met</span><code>min_fits_frame_ratio = 0.97</code> (suite)</li>"
    ));
    assert_eq!(
        dom.matches("<li class=\"floor ").count(),
        isomer_slides::EVAL_FLOORS.len() + 1
    );
    // Each valid attempt (48 first attempts, one retry) and each of the 49 goldens drawn
    // as its slide picture, inline.
    assert_eq!(pictures(&dom), 98);
    // The index lists every case in the cases' order, each linking to its row.
    let index = &dom[dom.find("<nav class=\"index\"").unwrap()..];
    let index = &index[..index.find("</nav>").unwrap()];
    let links: Vec<&str> = index
        .match_indices("href=\"#case-")
        .map(|(at, _)| {
            let rest = &index[at + "href=\"#case-".len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(links, row_ids);
    // The index's 49 links and the text report's one invalid case (timeout-two-files,
    // valid on its retry); every slide fits its body, so no `fits_frame false:` list; no
    // floor is missed.
    assert_eq!(links_resolve(&dom), 50);
    assert!(!dom.contains("fits_frame false:"));
    assert!(
        dom.contains("invalid:\n  <a href=\"#case-timeout-two-files\">timeout-two-files</a>: ")
    );
    assert!(!dom.contains("<tr class=\"moved\">"));
    assert!(dom.contains("<th>valid</th><td>48 (98%)</td><td>48 (98%)</td>"));
    assert_eq!(
        start_tags(&dom)
            .iter()
            .filter(|tag| tag.starts_with("<script"))
            .count(),
        0
    );
}

/// A composition of the slides pack with `text` in every text field and `url` in every
/// URL field.
fn closing_slide(text: &str, url: &str) -> Value {
    json!({
        "type": "view",
        "title": text,
        "subtitle": text,
        "meta": { "ariaLabel": text },
        "body": [{
            "type": "slideFrame",
            "brand": text,
            "url": url,
            "logo": false,
            "tone": "inverse",
            "body": [{
                "type": "slideClosing",
                "title": text,
                "links": [
                    { "label": text, "href": url, "text": text },
                    { "label": text, "href": "https://example.com/ok", "text": text }
                ]
            }]
        }]
    })
}

/// A corpus (in `dir`) whose request, golden, answers and the errors they cause all
/// carry [`HOSTILE`]: one case answered with the hostile slide (`javascript:` links and
/// all), then a retry that is not JSON; one whose answer invents a node type named by
/// hostile text.
fn write_hostile_corpus(dir: &Path) {
    let corpus = json!({
        "provenance": { "author": HOSTILE, "method": HOSTILE },
        "cases": [
            {
                "id": "hostile-links",
                "prompt": HOSTILE,
                "golden": closing_slide(HOSTILE, HOSTILE_URL),
                "expected": ["slideClosing"]
            },
            {
                "id": "hostile-type",
                "prompt": HOSTILE,
                "golden": closing_slide(HOSTILE, "https://example.com")
            }
        ]
    });
    std::fs::create_dir_all(dir.join("answers")).unwrap();
    std::fs::write(dir.join("corpus.json"), corpus.to_string()).unwrap();
    std::fs::write(dir.join("prompt.txt"), HOSTILE).unwrap();
    let answer =
        |name: &str, text: String| std::fs::write(dir.join("answers").join(name), text).unwrap();
    answer(
        "hostile-links.0.txt",
        closing_slide(HOSTILE, HOSTILE_URL).to_string(),
    );
    answer("hostile-links.1.txt", format!("Sorry! {HOSTILE}"));
    let mut invented = closing_slide(HOSTILE, "https://example.com");
    invented["body"][0]["body"][0]["type"] = Value::String(HOSTILE.to_owned());
    answer("hostile-type.0.txt", format!("```json\n{invented}\n```"));
    answer(
        "hostile-type.1.txt",
        closing_slide(HOSTILE, "https://example.com").to_string(),
    );
}

#[test]
fn hostile_text_in_every_field_shows_as_text_and_runs_nothing() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("hostile");
    write_hostile_corpus(&corpus);
    let page = dir.path().join("hostile.html");
    // The recordings do not match the slides prompt, so the command exits 1; the page is
    // still written.
    assert_eq!(write_report(Some(&corpus), &page), 1);
    let html = std::fs::read_to_string(&page).unwrap();

    let output = open(&chromium, &page, &["--dump-dom".to_owned()]);
    assert_eq!(console_messages(&output), Vec::<String>::new());
    let dom = String::from_utf8(output.stdout).unwrap();
    assert_eq!(title(&dom), "hostile: eval report");
    let tags = start_tags(&dom);
    let rows: Vec<&str> = tags
        .iter()
        .copied()
        .filter(|tag| tag.starts_with("<details class=\"case "))
        .collect();
    // Both cases fail (their answers are hostile, their recordings do not match), so both
    // are open, in corpus order.
    assert_eq!(
        rows,
        [
            "<details class=\"case failed\" id=\"case-hostile-links\" open=\"\">",
            "<details class=\"case failed\" id=\"case-hostile-type\" open=\"\">",
        ]
    );
    // The index's two links, the floors' misses and the text report's lists (hostile-type's
    // retry, all hostile text, runs past its frame: `fits_frame false:`) all resolve.
    assert_eq!(links_resolve(&dom), 10);
    // hostile-type's valid retry and its golden are drawn; hostile-links has no valid
    // attempt, and its golden's `javascript:` link is refused, so it has no picture.
    assert_eq!(pictures(&dom), 2);
    assert_no_element_from_model_text(&tags);
    for tag in &tags {
        let names = attribute_names(tag);
        assert!(
            !names.iter().any(|name| name.starts_with("on")),
            "an event attribute: {tag}"
        );
        // Hostile text may sit inside an attribute value, escaped (`aria-label`); a URL
        // attribute must never hold a `javascript:` URL (the surface writes `#`).
        for url in [
            "href=\"javascript:",
            "src=\"javascript:",
            "action=\"javascript:",
        ] {
            assert!(!tag.contains(url), "a javascript: URL: {tag}");
        }
    }
    // The hostile text is on the page, as text: in the request, the renderings (the
    // answer's and the golden's), the model text and the validation errors.
    let escaped = "&lt;script&gt;document.title='pwned'&lt;/script&gt;";
    assert!(
        dom.matches(escaped).count() >= 20,
        "{}",
        dom.matches(escaped).count()
    );
    assert!(html.contains("<ul class=\"errors\"><li>"));
    let errors_start = html.find("<ul class=\"errors\">").unwrap();
    assert!(html[errors_start..].contains("&lt;script&gt;"));
}

/// One slide: `text` as a statement in the slide frame.
fn statement(text: &str) -> Value {
    json!({
        "type": "view",
        "title": "Refunds",
        "body": [{
            "type": "slideFrame",
            "brand": "Ledger",
            "body": [{ "type": "slideStatement", "text": text }]
        }]
    })
}

/// A corpus (in `dir`) of five cases, in this order: `passing` (answered with its golden),
/// `failing` (a valid slide, but a closing slide where the golden is a statement: selection
/// F1 0 and no expected type), `hostile` (a valid slide whose text is a script tag and an
/// image with `onerror=`, no golden), `invalid` (an empty body the slide frame refuses, then
/// a retry that is not JSON) and `missing` (no recording at all).
fn write_mixed_corpus(dir: &Path) {
    let golden = statement("Refunds settle **nightly**.");
    let corpus = json!({
        "provenance": { "author": "html_report.rs", "method": "written by the test" },
        "cases": [
            { "id": "passing", "prompt": "One slide: refunds settle nightly.",
              "golden": golden, "expected": ["slideStatement"] },
            { "id": "failing", "prompt": "One slide: refunds settle nightly.",
              "golden": golden, "expected": ["slideStatement"] },
            { "id": "hostile", "prompt": "One slide: quote the error message." },
            { "id": "invalid", "prompt": "One slide: refunds settle nightly.",
              "golden": golden },
            { "id": "missing", "prompt": "One slide: refunds settle nightly.",
              "golden": golden }
        ]
    });
    std::fs::create_dir_all(dir.join("answers")).unwrap();
    std::fs::write(dir.join("corpus.json"), corpus.to_string()).unwrap();
    let answer =
        |name: &str, text: String| std::fs::write(dir.join("answers").join(name), text).unwrap();
    answer("passing.0.txt", golden.to_string());
    answer(
        "failing.0.txt",
        closing_slide("Thanks", "https://example.com").to_string(),
    );
    answer(
        "hostile.0.txt",
        statement(
            "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\">",
        )
        .to_string(),
    );
    answer(
        "invalid.0.txt",
        json!({ "type": "view", "body": [] }).to_string(),
    );
    answer("invalid.1.txt", "Sorry, I cannot draw that.".to_owned());
}

/// A report of passing, failing, invalid, hostile and unrecorded cases, opened in Chromium:
/// the failing cases come first (open), then the passing ones (collapsed), each in corpus
/// order; every index link resolves to a case; Chromium logs no console message (the CSP
/// would log a refused script or image); the hostile answer's script and `onerror=` show
/// as text and run nothing (the title is still the page's); the missing recording is
/// named; each valid answer and golden is drawn as a picture.
#[test]
fn a_mixed_report_puts_failures_first_and_runs_nothing() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("mixed");
    write_mixed_corpus(&corpus);
    let page = dir.path().join("mixed.html");
    // No prompt.txt and a missing recording: the command exits 1, and writes the page.
    assert_eq!(write_report(Some(&corpus), &page), 1);

    let output = open(&chromium, &page, &["--dump-dom".to_owned()]);
    assert_eq!(console_messages(&output), Vec::<String>::new());
    let dom = String::from_utf8(output.stdout).unwrap();
    assert_eq!(title(&dom), "mixed: eval report");
    let tags = start_tags(&dom);
    let rows: Vec<&str> = tags
        .iter()
        .copied()
        .filter(|tag| tag.starts_with("<details class=\"case "))
        .collect();
    assert_eq!(
        rows,
        [
            "<details class=\"case failed\" id=\"case-failing\" open=\"\">",
            "<details class=\"case failed\" id=\"case-invalid\" open=\"\">",
            "<details class=\"case failed\" id=\"case-missing\" open=\"\">",
            "<details class=\"case passed\" id=\"case-passing\">",
            "<details class=\"case passed\" id=\"case-hostile\">",
        ]
    );
    // The index: the failures first, each a link to its case, in the cases' order.
    let index = &dom[dom.find("<nav class=\"index\"").unwrap()..];
    let index = &index[..index.find("</nav>").unwrap()];
    assert!(index.contains("5 cases, 3 failing (first)"), "{index}");
    let links: Vec<&str> = index
        .match_indices("href=\"#case-")
        .map(|(at, _)| {
            let rest = &index[at + "href=\"#case-".len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(
        links,
        ["failing", "invalid", "missing", "passing", "hostile"]
    );
    // The index's 5 links, the case floors' 7 misses (valid_after_retry: invalid, missing;
    // min_selection_f1: failing, invalid, missing; expected_hit and max_size_vs_golden:
    // failing) and the text report's `invalid:` list (invalid, missing).
    assert_eq!(links_resolve(&dom), 14);
    // Nothing of the hostile answer is an element or an attribute; its text is shown.
    assert_no_element_from_model_text(&tags);
    for tag in &tags {
        let names = attribute_names(tag);
        assert!(
            !names.iter().any(|name| name.starts_with("on")),
            "an event attribute: {tag}"
        );
    }
    assert!(dom.contains(
        "&lt;script&gt;document.title='pwned'&lt;/script&gt;&lt;img src=x onerror=\"document.title='pwned'\"&gt;"
    ));
    // The missing recordings are named as missing, the invalid first attempt's bytes are
    // not measured.
    assert!(dom.contains("no recording: answers/missing.0.txt is missing"));
    assert!(dom.contains("no recording: answers/missing.1.txt is missing"));
    assert!(dom.contains("validated not measured (the first attempt is invalid)"));
    // Pictures: passing's and failing's answers and goldens, hostile's answer, invalid's
    // and missing's goldens.
    assert_eq!(pictures(&dom), 7);
}
