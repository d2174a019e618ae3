//! The `html` surface's `framed`, `fluid` and `minify` options
//! as upstream applies them: the section's class list, the stylesheet
//! rules they add, and what minifying drops and keeps.

mod common;

use isomer_sdk::surface::html::{HTML_CSS, HTML_FLUID_CSS, HTML_FRAMED_CSS};
use isomer_sdk::{Html, Markdown, Pack, Primitive, RenderOptions, Runtime};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// A code listing.
#[derive(Deserialize, JsonSchema)]
struct Snippet {
    /// The code, newlines included.
    code: String,
}

/// A `snippet` renders `<div class="snippet">` around a `pre`, with a
/// formatting newline on each side of the `pre` (readable source) and one
/// inside it (content there).
fn snippet() -> Primitive {
    Primitive::builder::<Snippet>("snippet")
        .purpose("Shows code.")
        .example(json!({ "type": "snippet", "code": "a\nb" }))
        .text(|node, _| node.code.clone())
        .markdown(|node, _| Markdown::code_block("", node.code.as_str()))
        .html(|node, _| {
            let pre = Html::element("pre", &[], Html::text(&node.code).then(Html::newline()));
            Html::element(
                "div",
                &[("class", "snippet")],
                Html::newline().then(pre).then(Html::newline()),
            )
        })
        .build()
        .expect("snippet is a valid primitive")
}

fn runtime() -> Runtime {
    Runtime::builder()
        .pack(common::pack())
        .pack(
            Pack::new("code")
                .primitive(snippet())
                .build()
                .expect("the code pack is valid"),
        )
        .build()
        .expect("the runtime builds")
}

/// A title, a note whose text has a newline, a snippet, and a group (no
/// html renderer: its subtree goes through the Markdown fallback).
fn composition() -> Value {
    json!({
        "type": "view",
        "title": "Deploy",
        "body": [
            { "type": "note", "text": "one\ntwo" },
            { "type": "snippet", "code": "a\nb" },
            { "type": "group", "title": "G", "items": [ { "type": "note", "text": "n" } ] }
        ]
    })
}

const CONTENT: &str = "<h2>Deploy</h2><p class=\"note\">one\ntwo</p>\
<div class=\"snippet\">\n<pre>a\nb\n</pre>\n</div><h2>G</h2><p>n</p></div></section>";

fn render(options: RenderOptions) -> isomer_sdk::HtmlRender {
    runtime()
        .render_html(&composition(), &options)
        .expect("html collects")
}

/// The wrapper up to the body: the section (no `data-theme` for `auto`),
/// its stylesheet, the body's `div`.
fn section_open(class: &str, css: &str) -> String {
    format!(
        "<section class=\"{class}\" role=\"group\" aria-label=\"Deploy\"><style>{css}</style><div>"
    )
}

#[test]
fn defaults_frame_the_section_as_upstream_does() {
    let html = render(RenderOptions::default());
    assert_eq!(html.css, format!("{HTML_CSS}{HTML_FRAMED_CSS}"));
    assert_eq!(
        html.html,
        format!("{}{CONTENT}", section_open("isomer framed", &html.css))
    );
    assert!(html.validation_errors.is_empty());
}

#[test]
fn unframed_keeps_the_plain_section_and_the_base_stylesheet() {
    let html = render(RenderOptions {
        framed: false,
        ..RenderOptions::default()
    });
    assert_eq!(html.css, HTML_CSS);
    assert_eq!(
        html.html,
        format!("{}{CONTENT}", section_open("isomer", HTML_CSS))
    );
}

#[test]
fn framed_adds_the_class_and_the_frame_rule() {
    let html = render(RenderOptions {
        framed: true,
        ..RenderOptions::default()
    });
    assert_eq!(
        HTML_FRAMED_CSS,
        ".isomer.framed{border:1px solid rgba(128,128,128,.4);border-radius:8px;padding:1rem}"
    );
    assert_eq!(html.css, format!("{HTML_CSS}{HTML_FRAMED_CSS}"));
    assert!(!html.css.contains(".isomer.fluid"));
    assert_eq!(
        html.html,
        format!(
            "{}{CONTENT}",
            section_open("isomer framed", &format!("{HTML_CSS}{HTML_FRAMED_CSS}"))
        )
    );
}

#[test]
fn fluid_adds_the_class_and_the_full_width_rule() {
    let html = render(RenderOptions {
        framed: false,
        fluid: true,
        ..RenderOptions::default()
    });
    assert_eq!(
        HTML_FLUID_CSS,
        ".isomer.fluid{box-sizing:border-box;width:100%;max-width:none}"
    );
    assert_eq!(html.css, format!("{HTML_CSS}{HTML_FLUID_CSS}"));
    assert!(!html.css.contains(".isomer.framed"));
    assert_eq!(
        html.html,
        format!(
            "{}{CONTENT}",
            section_open("isomer fluid", &format!("{HTML_CSS}{HTML_FLUID_CSS}"))
        )
    );
}

#[test]
fn minify_drops_formatting_newlines_and_keeps_text_and_pre() {
    let html = render(RenderOptions {
        framed: false,
        minify: true,
        ..RenderOptions::default()
    });
    // The stylesheet holds no optional whitespace: unchanged.
    assert_eq!(html.css, HTML_CSS);
    assert_eq!(
        html.html,
        format!(
            "{}<h2>Deploy</h2><p class=\"note\">one\ntwo</p>\
<div class=\"snippet\"><pre>a\nb\n</pre></div><h2>G</h2><p>n</p></div></section>",
            section_open("isomer", HTML_CSS)
        )
    );
    assert!(!html.html.contains(">\n<"), "{}", html.html);
    // Text content and the pre keep their newlines: 1 in the note, 2 in
    // the pre (one authored, one the renderer's, content inside pre).
    assert_eq!(html.html.matches('\n').count(), 3);
    // Not minified, the two formatting newlines around the pre are there.
    let plain = render(RenderOptions::default());
    assert_eq!(plain.html.matches('\n').count(), 5);
    assert!(plain.html.contains("<div class=\"snippet\">\n<pre>"));
}

#[test]
fn a_fenced_code_block_through_the_markdown_fallback_keeps_its_newlines() {
    // `fenced` has no html renderer: its code block comes from Markdown.
    let code = Primitive::builder::<Snippet>("fenced")
        .purpose("Code through the Markdown fallback.")
        .example(json!({ "type": "fenced", "code": "x" }))
        .text(|node, _| node.code.clone())
        .markdown(|node, _| Markdown::code_block("rust", node.code.as_str()))
        .build()
        .expect("fenced is a valid primitive");
    let runtime = Runtime::builder()
        .pack(Pack::new("f").primitive(code).build().expect("pack"))
        .build()
        .expect("runtime");
    let view =
        json!({ "type": "view", "body": [ { "type": "fenced", "code": "fn a() {\n    1\n}" } ] });
    let html = runtime
        .render_html(
            &view,
            &RenderOptions {
                framed: false,
                minify: true,
                ..RenderOptions::default()
            },
        )
        .expect("html collects");
    assert_eq!(
        html.html,
        format!(
            "<section class=\"isomer\" role=\"group\" aria-label=\"View\"><style>{HTML_CSS}</style><div>\
<pre><code>fn a() {{\n    1\n}}</code></pre></div></section>"
        )
    );
}

#[test]
fn all_three_options_together() {
    let html = render(RenderOptions {
        framed: true,
        fluid: true,
        minify: true,
        ..RenderOptions::default()
    });
    assert_eq!(
        html.css,
        format!("{HTML_CSS}{HTML_FRAMED_CSS}{HTML_FLUID_CSS}")
    );
    assert_eq!(
        html.html,
        format!(
            "{}<h2>Deploy</h2>\
<p class=\"note\">one\ntwo</p><div class=\"snippet\"><pre>a\nb\n</pre></div><h2>G</h2><p>n</p></div></section>",
            section_open(
                "isomer framed fluid",
                &format!("{HTML_CSS}{HTML_FRAMED_CSS}{HTML_FLUID_CSS}")
            )
        )
    );
}

#[test]
fn the_options_touch_html_only() {
    let rt = runtime();
    let all = RenderOptions {
        framed: true,
        fluid: true,
        minify: true,
        ..RenderOptions::default()
    };
    let plain = RenderOptions::default();
    assert_eq!(
        rt.render_text(&composition(), &all).unwrap(),
        rt.render_text(&composition(), &plain).unwrap()
    );
    assert_eq!(
        rt.render_markdown(&composition(), &all).unwrap(),
        rt.render_markdown(&composition(), &plain).unwrap()
    );
    assert_eq!(
        rt.render_slack(&composition(), &all).unwrap(),
        rt.render_slack(&composition(), &plain).unwrap()
    );
}
