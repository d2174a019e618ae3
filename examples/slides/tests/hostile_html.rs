//! HTML escaping and URL sanitizing of every text and URL field of the
//! slides pack, asserted on the rendered `html` surface.
//!
//! `tests/hostile.rs` poisons every string at once with Markdown syntax and
//! checks that no raw `<b>` and no `href="javascript` survives. This file
//! goes field by field: each string leaf of each catalog example (every
//! example of every primitive) is replaced, one at a time, by hostile
//! markup (`<script>`, an attribute breakout, HTML entities) and hostile
//! URLs (`javascript:`, `data:text/html`), rendered in `collect` mode (so
//! even a refused node reaches the renderer), and:
//!
//! - no raw element or scriptable attribute appears in any output;
//! - the inventory of where each field's text went (escaped into the
//!   output, refused by validation, or not rendered on this surface) is a
//!   reviewed snapshot, so a field that starts bypassing the escaping, or
//!   stops being checked, changes it;
//! - a few fields are pinned to their exact markup.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use common::runtime;
use isomer_sdk::{RenderOptions, Rendered, Surface, ValidationMode};
use serde_json::{Value, json};

/// Markup that would run script or break out of an attribute if it were
/// not escaped.
const MARKUP: &str = r#"<script>alert(1)</script>"><img src=x onerror=alert(2)>"#;
/// How [`MARKUP`] reads once escaped (after the first character, which a
/// renderer may upper-case or drop).
const MARKUP_ESCAPED: &str =
    "script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;";
/// Entities: must be printed as text (`&amp;lt;`), never decoded into `<`.
const ENTITIES: &str = "&lt;b&gt;x&#60;/b&#62; &amp; &quot;";
/// Hostile URLs, each a string a model might put in any field.
const URLS: [&str; 6] = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " \tjavascript:alert(1)",
    "java\u{0}script:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
];

/// Every string leaf of `node` that is not a `type`, as a path of steps.
fn string_leaves(node: &Value) -> Vec<Vec<Step>> {
    let mut found = Vec::new();
    let mut stack = vec![(node, Vec::new())];
    while let Some((value, path)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, child) in map.iter().rev() {
                    if key != "type" {
                        let mut next = path.clone();
                        next.push(Step::Key(key.clone()));
                        stack.push((child, next));
                    }
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate().rev() {
                    let mut next = path.clone();
                    next.push(Step::Index(index));
                    stack.push((child, next));
                }
            }
            Value::String(_) => found.push(path),
            _ => {}
        }
    }
    found
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

/// `items[0].text` for the steps.
fn path_text(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) if out.is_empty() => out.push_str(key),
            Step::Key(key) => write!(out, ".{key}").unwrap(),
            Step::Index(index) => write!(out, "[{index}]").unwrap(),
        }
    }
    out
}

fn replaced(node: &Value, path: &[Step], text: &str) -> Value {
    let mut node = node.clone();
    let mut slot = &mut node;
    for step in path {
        slot = match step {
            Step::Key(key) => &mut slot[key.as_str()],
            Step::Index(index) => &mut slot[*index],
        };
    }
    *slot = Value::String(text.to_owned());
    node
}

/// The node rendered alone on html in `collect` mode: markup and findings.
fn html_of(node: &Value) -> (String, Vec<(String, String)>) {
    let rendered = runtime()
        .render_node(Surface::Html, node, Some(ValidationMode::Collect))
        .unwrap_or_else(|error| panic!("{node}: {error:?}"));
    let Rendered::Html(html) = rendered else {
        panic!("html surface");
    };
    let findings = html
        .validation_errors
        .into_iter()
        .map(|error| (error.path, error.message))
        .collect();
    (html.html, findings)
}

/// Elements the html surface may emit: the sdk's allow-list, plus the
/// envelope's `style` and `section` and the Markdown lists.
const ELEMENTS: [&str; 41] = [
    "a",
    "abbr",
    "article",
    "b",
    "blockquote",
    "br",
    "caption",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "li",
    "ol",
    "p",
    "pre",
    "section",
    "small",
    "span",
    "strong",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
    "style",
    "section",
];

/// Fails unless every tag in `html` is an allowed element whose attributes
/// are plain (no `on*` handler, no `style`, no `srcset`) and whose `href` or
/// `src` has no scheme but `http`, `https` or `mailto`.
///
/// Authored `<` is always escaped, so every raw `<` in the output starts a
/// tag the renderer wrote; scanning the tags is enough to prove no authored
/// markup got through.
fn assert_inert(html: &str, context: &str) {
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let close = after
            .find('>')
            .unwrap_or_else(|| panic!("{context}: unclosed tag in {html}"));
        let tag = after[..close].strip_prefix('/').unwrap_or(&after[..close]);
        rest = &after[close + 1..];
        let name_end = tag.find([' ', '\t', '\n', '/']).unwrap_or(tag.len());
        let name = &tag[..name_end];
        assert!(
            ELEMENTS.contains(&name),
            "{context}: element <{name}> in {html}"
        );
        // Attributes: ` name="value"` pairs; values cannot hold a raw `"`.
        let mut attributes = tag[name_end..].trim_start();
        while !attributes.is_empty() {
            let eq = attributes
                .find("=\"")
                .unwrap_or_else(|| panic!("{context}: bare attribute in <{tag}>"));
            let attribute = attributes[..eq].trim().to_ascii_lowercase();
            let value_end = attributes[eq + 2..]
                .find('"')
                .unwrap_or_else(|| panic!("{context}: unterminated value in <{tag}>"))
                + eq
                + 2;
            let value = &attributes[eq + 2..value_end];
            attributes = attributes[value_end + 1..].trim_start();
            assert!(
                !attribute.starts_with("on")
                    && !["style", "srcset", "formaction", "action"].contains(&attribute.as_str()),
                "{context}: attribute {attribute} in <{tag}>"
            );
            if attribute == "href" || attribute == "src" {
                let decoded = value.replace("&amp;", "&").to_ascii_lowercase();
                let scheme_end = decoded.find([':', '/', '?', '#']);
                if let Some(end) = scheme_end.filter(|&end| decoded[end..].starts_with(':')) {
                    assert!(
                        ["http", "https", "mailto"].contains(&&decoded[..end]),
                        "{context}: {attribute}=\"{value}\" in {html}"
                    );
                }
                assert!(
                    !decoded.chars().any(|c| c.is_whitespace() || c.is_control()),
                    "{context}: {attribute}=\"{value}\" in {html}"
                );
            }
        }
    }
}

/// Every (type, example index, field path) the sweep covers.
fn fields() -> Vec<(String, usize, Value, Vec<Step>)> {
    let mut fields = Vec::new();
    for primitive in runtime().primitives() {
        for (index, node) in primitive.examples().iter().enumerate() {
            for path in string_leaves(node) {
                fields.push((primitive.type_name().to_owned(), index, node.clone(), path));
            }
        }
    }
    fields
}

#[test]
fn every_text_field_escapes_markup_or_refuses_it() {
    let mut inventory = BTreeMap::new();
    for (type_name, index, node, path) in fields() {
        let field = path_text(&path);
        let context = format!("{type_name}#{index}.{field}");
        let (html, findings) = html_of(&replaced(&node, &path, MARKUP));
        assert_inert(&html, &context);
        let finding_here = findings
            .iter()
            .find(|(at, _)| at == &format!("body[0].{field}"));
        let outcome = if html.to_ascii_lowercase().contains(MARKUP_ESCAPED) {
            "escaped".to_owned()
        } else if let Some((_, message)) = finding_here {
            format!("refused: {message}")
        } else if let Some((at, message)) = findings.first() {
            format!("refused at {at}: {message}")
        } else {
            "not on this surface".to_owned()
        };
        inventory.insert(context.clone(), outcome);

        // Entities stay text: `&` is always escaped, so `&lt;` prints as
        // `&amp;lt;` and a browser shows the five characters `&lt;b`.
        let (html, _) = html_of(&replaced(&node, &path, ENTITIES));
        assert_inert(&html, &context);
        assert!(!html.contains("&lt;b&gt;x"), "{context}: decoded in {html}");
    }
    let mut listing = String::new();
    for (field, outcome) in &inventory {
        writeln!(listing, "{field}: {outcome}").unwrap();
    }
    insta::assert_snapshot!(listing);
}

#[test]
fn every_field_holding_a_hostile_url_renders_no_scriptable_link() {
    for (type_name, index, node, path) in fields() {
        let context = format!("{type_name}#{index}.{}", path_text(&path));
        for url in URLS {
            let (html, _) = html_of(&replaced(&node, &path, url));
            assert_inert(&html, &format!("{context} = {url:?}"));
        }
    }
}

/// The body markup of a one-node html render (the envelope cut off).
fn body_html(node: &Value) -> String {
    let (html, _) = html_of(node);
    common::body_of(&html)
}

#[test]
fn a_heading_prints_script_as_text() {
    let node = json!({"type": "slideHeading", "title": "<script>alert(1)</script>", "lede": "a&b \"c\" 'd' <b>"});
    assert_eq!(
        body_html(&node),
        "<div class=\"slide-heading\"><h1 class=\"slide-size-l\">&lt;script&gt;alert(1)&lt;/script&gt;</h1>\
         <p class=\"slide-lede\">a&amp;b &quot;c&quot; &#39;d&#39; &lt;b&gt;</p></div>"
    );
}

#[test]
fn closing_links_with_hostile_hrefs_are_refused_and_never_linked() {
    let message = isomer_slides::url::NAVIGATION_HREF_MESSAGE;
    let node = json!({
        "type": "slideClosing",
        "title": "Thanks",
        "links": [
            {"label": "<b>run</b>", "text": "<b>run</b>", "href": "javascript:alert(1)"},
            {"label": "page", "text": "page", "href": "data:text/html,<script>alert(1)</script>"},
            {"label": "raw", "text": "raw", "href": "https://example.com/?q=<x>&y=\"z\""},
            {"label": "docs", "text": "docs", "href": "https://example.com/docs?q=a&y=b"},
        ]
    });
    let (html, findings) = html_of(&node);
    assert_eq!(
        findings,
        [
            ("body[0].links[0].href".to_owned(), message.to_owned()),
            ("body[0].links[1].href".to_owned(), message.to_owned()),
            // `<`, `>` and `"` are not URL characters: the sanitizer
            // refuses rather than guesses an encoding.
            ("body[0].links[2].href".to_owned(), message.to_owned()),
        ]
    );
    assert_inert(&html, "slideClosing");
    // The refused links keep their text, unlinked and escaped; the safe
    // one is linked with its query escaped inside the attribute.
    assert!(html.contains("&lt;b&gt;run&lt;/b&gt;"), "{html}");
    assert!(!html.contains(">page</a>"), "{html}");
    assert_eq!(html.matches("<a ").count(), 1, "{html}");
    assert!(
        html.contains("<a href=\"https://example.com/docs?q=a&amp;y=b\">"),
        "{html}"
    );
}

#[test]
fn a_frame_footer_url_must_be_absolute_http() {
    let message = isomer_slides::url::ABSOLUTE_URL_MESSAGE;
    for url in URLS {
        let node = json!({
            "type": "slideFrame",
            "brand": "<i>Brand</i>",
            "url": url,
            "body": [{"type": "slideStatement", "text": "Hello"}]
        });
        let (html, findings) = html_of(&node);
        assert_eq!(
            findings,
            [("body[0].url".to_owned(), message.to_owned())],
            "{url:?}"
        );
        assert_inert(&html, url);
        assert!(!html.contains("<a "), "{url:?}: {html}");
        assert!(html.contains("&lt;i&gt;Brand&lt;/i&gt;"), "{html}");
    }
}

#[test]
fn section_hrefs_link_safe_entries_only() {
    let message = isomer_slides::url::NAVIGATION_HREF_MESSAGE;
    let node = json!({
        "type": "slideSection",
        "number": "01",
        "title": "Links",
        "contents": ["safe <one>", "script", "entity", "relative"],
        "hrefs": [
            "https://example.com/a?b=1&c=2",
            "JaVaScRiPt:alert(1)",
            "javascript&colon;alert(1)",
            "../docs/<x>"
        ]
    });
    let (html, findings) = html_of(&node);
    assert_eq!(
        findings,
        [
            ("body[0].hrefs[1]".to_owned(), message.to_owned()),
            ("body[0].hrefs[2]".to_owned(), message.to_owned()),
            ("body[0].hrefs[3]".to_owned(), message.to_owned()),
        ]
    );
    assert_inert(&html, "slideSection");
    assert!(
        html.contains(
            "<ol class=\"slide-rows\"><li><a href=\"https://example.com/a?b=1&amp;c=2\">safe &lt;one&gt;</a></li>\
             <li>script</li><li>entity</li><li>relative</li></ol>"
        ),
        "{html}"
    );
}

#[test]
fn the_envelope_escapes_title_subtitle_aria_label_and_theme() {
    let composition = json!({
        "type": "view",
        "title": "<script>t</script>",
        "subtitle": "\"><img src=x onerror=alert(1)>",
        "theme": "\"><script>",
        "meta": {"ariaLabel": "a\" onload=\"alert(1)"},
        "body": [{"type": "slideFrame", "body": [{"type": "slideStatement", "text": "Hi"}]}]
    });
    let rendered = runtime()
        .render(
            Surface::Html,
            &composition,
            &RenderOptions {
                on_validation_error: Some(ValidationMode::Collect),
                ..RenderOptions::default()
            },
        )
        .unwrap();
    let Rendered::Html(html) = rendered else {
        panic!("html surface");
    };
    assert_inert(&html.html, "envelope");
    assert!(
        html.html.starts_with(
            "<section class=\"isomer framed\" role=\"group\" aria-label=\"a&quot; onload=&quot;alert(1)\"><style>"
        ),
        "{}",
        html.html
    );
    assert!(
        html.html.contains(
            "</style><div><h2>&lt;script&gt;t&lt;/script&gt;</h2>\
             <p class=\"sub\">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</p>"
        ),
        "{}",
        html.html
    );
    let findings: Vec<&str> = html
        .validation_errors
        .iter()
        .map(|error| error.path.as_str())
        .collect();
    assert_eq!(findings, ["theme"]);
}

#[test]
#[should_panic(expected = "element <script>")]
fn the_scanner_catches_a_raw_element() {
    assert_inert("<p>x</p><script>alert(1)</script>", "self-check");
}

#[test]
#[should_panic(expected = "href=\"JavaScript:alert(1)\"")]
fn the_scanner_catches_a_scriptable_href() {
    assert_inert("<a href=\"JavaScript:alert(1)\">x</a>", "self-check");
}

#[test]
#[should_panic(expected = "attribute onerror")]
fn the_scanner_catches_an_event_handler() {
    assert_inert(
        "<img src=\"https://x.test/a.png\" onerror=\"alert(1)\">",
        "self-check",
    );
}
