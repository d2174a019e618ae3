//! Embedded bodies (`slideRender.body`, `slideRenderGrid.body`, and the
//! render inside `slideAnnotatedRender`) and the annotated render's one
//! child slot: an embedded body is validated with its own rules (one
//! `slideFrame` alone or no frame; no render of any kind inside) and its
//! nodes with theirs, but it is not walked, so its ids are its own and
//! container rules stop at it; the `render` slot takes a `slideRender`
//! and nothing else.

mod common;

use common::{finding, findings, render_node, runtime, view};
use isomer_sdk::Surface;
use serde_json::{Value, json};

const RENDER_IN_RENDER: &str = "an embedded body cannot hold another render";
const FRAME_ALONE: &str =
    "an embedded body is either one slideFrame alone or nodes without a slideFrame";
const FRAMES_NEVER_NEST: &str = "a slideFrame cannot sit inside another node; frames never nest";

fn source(text: &str) -> Value {
    json!({ "type": "slideSource", "text": text })
}

fn render(body: Value) -> Value {
    json!({ "type": "slideRender", "surface": "text", "body": body })
}

fn grid(body: Value) -> Value {
    json!({ "type": "slideRenderGrid", "body": body, "tiles": [
        { "surface": "text", "caption": "a" },
        { "surface": "markdown", "caption": "b" }
    ] })
}

/// A render, a grid and an annotated render holding `body`, with the
/// body's path and the type that reports its rules.
fn holders(body: Value) -> Vec<(Value, &'static str, &'static str)> {
    vec![
        (render(body.clone()), "body[0].body", "slideRender"),
        (grid(body.clone()), "body[0].body", "slideRenderGrid"),
        (
            json!({ "type": "slideAnnotatedRender", "render": render(body), "pins": [
                { "x": 0, "y": 0, "title": "t", "body": "b" }
            ] }),
            "body[0].render.body",
            "slideRender",
        ),
    ]
}

#[test]
fn no_render_sits_anywhere_inside_an_embedded_body() {
    let inner = json!([
        source("a"),
        { "type": "slideStack", "items": [source("b"), render(json!([source("c")]))] },
        grid(json!([source("d")]))
    ]);
    for (holder, body, reporter) in holders(inner) {
        assert_eq!(
            findings(&view(holder)),
            [
                finding(&format!("{body}[1].items[1]"), RENDER_IN_RENDER, reporter),
                finding(&format!("{body}[2]"), RENDER_IN_RENDER, reporter),
            ],
            "{body}"
        );
    }
}

#[test]
fn a_render_inside_a_framed_embedded_body_is_found() {
    let framed = json!([{ "type": "slideFrame", "body": [
        { "type": "slideAnnotatedRender", "render": render(json!([source("x")])), "pins": [
            { "x": 0, "y": 0, "title": "t", "body": "b" }
        ] }
    ] }]);
    assert_eq!(
        findings(&view(render(framed))),
        [finding(
            "body[0].body[0].body[0]",
            RENDER_IN_RENDER,
            "slideRender"
        )]
    );
}

#[test]
fn an_embedded_body_is_one_frame_alone_or_no_frame() {
    let frame = json!({ "type": "slideFrame", "brand": "Ledger", "body": [source("x")] });
    for (holder, _, _) in holders(json!([frame])) {
        assert_eq!(findings(&view(holder)), []);
    }
    for (holder, body, reporter) in holders(json!([frame, source("y")])) {
        assert_eq!(
            findings(&view(holder)),
            [finding(body, FRAME_ALONE, reporter)],
            "{body}"
        );
    }
}

#[test]
fn embedded_nodes_keep_their_own_schema_and_rules() {
    let agenda = json!({ "type": "slideAgenda", "sections": [
        { "number": "01", "title": "A", "current": true },
        { "number": "02", "title": "B", "current": true }
    ] });
    assert_eq!(
        findings(&view(render(json!([agenda])))),
        // Reported with the embedding node's type: the body is part of
        // the render's own fields, not a walked child.
        [finding(
            "body[0].body[0].sections",
            "at most one section can be current",
            "slideRender"
        )]
    );
    let every_type: Vec<&str> = runtime()
        .primitives()
        .iter()
        .map(|p| p.type_name())
        .collect();
    assert_eq!(
        findings(&view(grid(
            json!([{ "type": "slideChart" }, "a slideSource"])
        ))),
        [
            finding(
                "body[0].body[0].type",
                &format!("must be one of: {}", every_type.join(", ")),
                "slideRenderGrid"
            ),
            finding(
                "body[0].body[1]",
                "Invalid input: expected object, received string",
                "slideRenderGrid"
            ),
        ]
    );
}

#[test]
fn ids_inside_an_embedded_body_are_its_own() {
    let mut inner = source("inner");
    inner["id"] = json!("claim");
    let mut outer = source("outer");
    outer["id"] = json!("claim");
    let slide = json!({ "type": "slideFrame", "body": [outer, render(json!([inner]))] });
    assert_eq!(findings(&view(slide)), []);
}

#[test]
fn a_window_may_show_a_render_of_another_window() {
    let window = |body: Value| json!({ "type": "slideWindow", "chrome": "browser", "title": "example.com", "body": body });
    let node = window(json!([render(json!([window(json!([source("x")]))]))]));
    assert_eq!(findings(&view(node)), []);
}

fn annotated(render_slot: Value) -> Value {
    json!({ "type": "slideAnnotatedRender", "render": render_slot, "pins": [
        { "x": 50, "y": 50, "title": "t", "body": "b" }
    ] })
}

#[test]
fn the_render_slot_takes_a_slide_render_only() {
    assert_eq!(
        findings(&view(annotated(
            json!({ "type": "slideFrame", "body": [source("x")] })
        ))),
        [finding(
            "body[0].render",
            FRAMES_NEVER_NEST,
            "slideAnnotatedRender"
        )]
    );
    assert_eq!(
        findings(&view(annotated(source("x")))),
        [finding(
            "body[0].render",
            "must be a slideRender node",
            "slideAnnotatedRender"
        )]
    );
    assert_eq!(
        findings(&view(annotated(json!("a render")))),
        [finding(
            "body[0].render",
            "Invalid input: expected object, received string",
            "slideAnnotatedRender"
        )]
    );
    assert_eq!(
        findings(&view(annotated(
            json!({ "type": "slideRender", "surface": "png", "slide": "s" })
        ))),
        [finding(
            "body[0].render.surface",
            "must be one of: react, html, snapshot, markdown, text, slack",
            "slideRender"
        )]
    );
}

#[test]
fn the_annotated_render_is_walked_but_its_render_body_is_not() {
    let mut pinned = source("pinned");
    pinned["id"] = json!("n");
    let node =
        annotated(json!({ "type": "slideRender", "surface": "text", "id": "n", "body": [pinned] }));
    // The render itself is a walked child (its id counts); the body's ids
    // are its own.
    assert_eq!(findings(&view(node)), []);
    let children: Vec<String> = runtime()
        .primitive("slideAnnotatedRender")
        .unwrap()
        .children(&annotated(render(json!([source("x")]))))
        .into_iter()
        .map(|c| c.path)
        .collect();
    assert_eq!(children, ["render"]);
    assert!(
        runtime()
            .primitive("slideRender")
            .unwrap()
            .children(&render(json!([source("x")])))
            .is_empty()
    );
}

#[test]
fn a_render_named_only_by_its_slide_prints_its_heading() {
    let node = json!({ "type": "slideRender", "surface": "snapshot", "slide": "refunds-nightly", "caption": "Slide 4" });
    assert_eq!(
        render_node(Surface::Text, &node),
        "[snapshot render of refunds-nightly] Slide 4"
    );
    assert_eq!(
        render_node(Surface::Markdown, &node),
        "_snapshot render of refunds-nightly_ Slide 4"
    );
}

#[test]
fn a_broken_embedded_node_is_reported_at_its_path() {
    let broken = json!({ "type": "slideStat", "body": "b", "valu": "1" });
    for (holder, body, reporter) in holders(json!([broken])) {
        assert_eq!(
            findings(&view(holder)),
            [finding(
                &format!("{body}[0]"),
                "has unrecognized key(s): valu; its fields are value, unit, body",
                reporter
            )],
            "{body}"
        );
    }
}

#[test]
fn html_shows_an_embedded_body_as_its_surface_draws_it() {
    let heading = json!([{ "type": "slideHeading", "title": "Refunds settle **nightly**" }]);
    // On a string surface: what that surface prints, in a mono panel.
    let html = render_node(Surface::Html, &render(heading.clone()));
    assert!(
        html.contains(
            "<figure class=\"slide-render\" aria-label=\"text render of a composition\">\
             <div class=\"slide-render-viewport slide-render-printed\">\
             <pre class=\"slide-render-print\">REFUNDS SETTLE NIGHTLY</pre></div></figure>"
        ),
        "{html}"
    );
    // On a drawn surface: the slide itself, each node by its own renderer,
    // in a frameless slide the stylesheet scales into the panel.
    let mut drawn = render(heading);
    drawn["surface"] = json!("snapshot");
    let html = render_node(Surface::Html, &drawn);
    assert!(
        html.contains(
            "<div class=\"slide-render-viewport\"><div class=\"slide-render-canvas\">\
             <div class=\"slide\" data-tone=\"page\"><div class=\"slide-body\"><div class=\"slide-heading\">\
             <h1 class=\"slide-size-l\">Refunds settle <strong>nightly</strong></h1></div></div></div></div></div>"
        ),
        "{html}"
    );
}
