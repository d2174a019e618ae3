//! The four surfaces over the test pack: envelopes, visibility, fallbacks,
//! validation modes, render_node.

mod common;

use common::{runtime, view};
use isomer_sdk::composition::Theme;
use isomer_sdk::{
    ErrorCode, Markdown, Pack, Primitive, RenderOptions, Rendered, Runtime, Surface,
    ValidationError, ValidationMode,
};
use serde_json::{Value, json};

fn deck() -> Value {
    json!({
        "type": "view",
        "title": "Straße & <status>",
        "subtitle": "Today *only*",
        "theme": "dark",
        "body": [
            { "type": "note", "text": "# Deploys are frozen_now", "tone": "primary" },
            { "type": "note", "text": "Hidden from text", "surfaces": ["markdown", "slack", "react"] },
            { "type": "group", "title": "Checks", "items": [
                { "type": "note", "text": "Read the runbook", "href": "https://example.test/run book" },
                { "type": "note", "text": "Only text", "surfaces": ["text"] },
                { "type": "note", "text": "Bad link <b>", "href": "javascript:alert(1)" }
            ] }
        ]
    })
}

fn bad_link_deck() -> Value {
    // The javascript: href is refused by the note's refinement.
    deck()
}

fn good_deck() -> Value {
    let mut deck = deck();
    deck["body"][2]["items"][2]["href"] = json!("/runbook?a=1&b=2");
    deck
}

#[test]
fn text_uppercases_the_title_and_joins_blocks_with_a_blank_line() {
    let rt = runtime();
    let text = rt
        .render_text(good_deck(), &RenderOptions::default())
        .unwrap();
    insta::assert_snapshot!("text_surface", text);
    assert_eq!(
        text,
        "STRASSE & <STATUS>\n\nToday *only*\n\n● # Deploys are frozen_now\n\nChecks\nRead the runbook\nOnly text\nBad link <b>"
    );
    let without = rt
        .render_text(
            good_deck(),
            &RenderOptions {
                heading: false,
                ..RenderOptions::default()
            },
        )
        .unwrap();
    assert!(without.starts_with("● # Deploys"));
    // Upstream's quick-start example, with the test pack's notes.
    let quick = json!({ "type": "view", "title": "Checkout", "body": [
        { "type": "note", "text": "Error rate: 0.4% (-0.2pp)" }, { "type": "note", "text": "P99 latency: 210ms" } ] });
    assert_eq!(
        rt.render_text(&quick, &RenderOptions::default()).unwrap(),
        "CHECKOUT\n\nError rate: 0.4% (-0.2pp)\n\nP99 latency: 210ms"
    );
}

#[test]
fn markdown_is_escaped_builder_output() {
    let rt = runtime();
    let markdown = rt
        .render_markdown(good_deck(), &RenderOptions::default())
        .unwrap();
    insta::assert_snapshot!("markdown_surface", markdown);
    assert!(markdown.starts_with(
        "# Straße \\& \\<status\\>\n\n_Today \\*only\\*_\n\n\\# Deploys are frozen\\_now"
    ));
}

#[test]
fn html_escapes_every_string_and_collects_findings() {
    let rt = runtime();
    let html = rt
        .render_html(good_deck(), &RenderOptions::default())
        .unwrap();
    insta::assert_snapshot!("html_surface", html.html);
    assert!(html.validation_errors.is_empty());
    assert!(html.html.contains("data-theme=\"dark\""));
    // An explicit theme overrides the composition's, on html only.
    let light = RenderOptions {
        theme: Some(Theme::Light),
        ..RenderOptions::default()
    };
    let themed = rt.render_html(good_deck(), &light).unwrap();
    assert_eq!(
        themed.html,
        html.html
            .replace("data-theme=\"dark\"", "data-theme=\"light\"")
    );
    assert_eq!(
        rt.render_text(good_deck(), &light).unwrap(),
        rt.render_text(good_deck(), &RenderOptions::default())
            .unwrap()
    );
    assert!(
        html.html
            .contains("aria-label=\"Straße &amp; &lt;status&gt;\"")
    );
    // html collects by default: an invalid deck still renders, findings attached.
    let collected = rt
        .render_html(bad_link_deck(), &RenderOptions::default())
        .unwrap();
    assert_eq!(collected.validation_errors.len(), 1);
    assert_eq!(collected.validation_errors[0].path, "body[2].items[2].href");
    // The group has no html renderer: its subtree goes through the Markdown
    // fallback, where the sanitized note keeps its label and loses the link.
    assert!(
        collected.html.contains("<p>Bad link &lt;b&gt;</p>"),
        "{}",
        collected.html
    );
    assert!(!collected.html.contains("javascript"));
}

#[test]
fn slack_falls_back_to_markdown_for_primitives_without_a_renderer() {
    let rt = runtime();
    let slack = rt
        .render_slack(good_deck(), &RenderOptions::default())
        .unwrap();
    insta::assert_json_snapshot!("slack_surface", slack);
    // The fallback text is the text render, escaped as mrkdwn.
    assert_eq!(
        slack.text,
        isomer_sdk::surface::escape_mrkdwn(
            &rt.render_text(good_deck(), &RenderOptions::default())
                .unwrap()
        )
    );
}

#[test]
fn throw_mode_refuses_invalid_compositions_and_collect_renders_them() {
    let rt = runtime();
    let error = rt
        .render_text(bad_link_deck(), &RenderOptions::default())
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::CompositionInvalid);
    assert_eq!(
        error.to_string(),
        "Invalid Composition:\n  body[2].items[2].href (in note) must be an https, http, or mailto URL, or a relative path"
    );
    let collected = rt
        .render_text(
            bad_link_deck(),
            &RenderOptions {
                heading: false,
                on_validation_error: Some(ValidationMode::Collect),
                ..RenderOptions::default()
            },
        )
        .unwrap();
    assert!(collected.ends_with("Bad link <b>"));
    // The note's sanitize hook dropped the unsafe href: no link in Markdown.
    let markdown = rt
        .render_markdown(
            bad_link_deck(),
            &RenderOptions {
                heading: false,
                on_validation_error: Some(ValidationMode::Collect),
                ..RenderOptions::default()
            },
        )
        .unwrap();
    assert!(markdown.ends_with("Bad link \\<b\\>"), "{markdown}");
}

#[test]
fn budget_refusals_refuse_in_every_mode() {
    let rt = runtime();
    let mut deep = json!("x");
    for _ in 0..70 {
        deep = json!([deep]);
    }
    let value =
        json!({ "type": "view", "body": [ { "type": "note", "text": "x", "deep": deep } ] });
    for surface in Surface::ALL {
        let error = rt
            .render(
                surface,
                &value,
                &RenderOptions {
                    heading: true,
                    on_validation_error: Some(ValidationMode::Collect),
                    ..RenderOptions::default()
                },
            )
            .unwrap_err();
        assert_eq!(
            error.errors,
            vec![
                ValidationError::new("", "input nests deeper than 64 levels")
                    .with_code(ErrorCode::InputOverBudget)
            ]
        );
        assert_eq!(
            error.to_string(),
            "Invalid Composition:\n  input nests deeper than 64 levels"
        );
    }
}

#[test]
fn render_node_validates_the_node_alone() {
    let rt = runtime();
    let node = json!({ "type": "group", "title": "G", "items": [ { "type": "note", "text": "a" }, { "type": "note", "text": "b" } ] });
    assert_eq!(
        rt.render_node(Surface::Text, &node, None).unwrap(),
        Rendered::Text("G\na\nb".into())
    );
    assert_eq!(
        rt.render_node(Surface::Markdown, &node, None)
            .unwrap()
            .to_text(),
        "## G\n\na\n\nb"
    );
    let error = rt
        .render_node(Surface::Text, &json!({ "type": "note" }), None)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "Invalid Composition:\n  body[0].text (in note) is required"
    );
    assert_eq!(
        Surface::parse("pdf").unwrap_err().code(),
        ErrorCode::UnknownSurface
    );
    assert_eq!(Surface::parse("slack").unwrap(), Surface::Slack);
}

#[test]
fn sanitize_returning_none_drops_the_node_everywhere() {
    let secret = Primitive::builder::<Value>("secret")
        .schema_json(json!({ "type": "object", "properties": { "show": { "type": "boolean" } }, "required": ["show"] }))
        .purpose("Maybe shown.")
        .example(json!({ "type": "secret", "show": true }))
        .sanitize(|node: Value| if node["show"] == json!(true) { Some(node) } else { None })
        .text(|_, _| "shown".into())
        .markdown(|_, _| Markdown::paragraph("shown"))
        .build()
        .unwrap();
    let rt = Runtime::builder()
        .pack(Pack::new("s").primitive(secret).build().unwrap())
        .pack(common::pack())
        .build()
        .unwrap();
    let value = view(
        json!([ { "type": "secret", "show": false }, { "type": "note", "text": "n" }, { "type": "secret", "show": true } ]),
    );
    assert_eq!(
        rt.render_text(&value, &RenderOptions::default()).unwrap(),
        "n\n\nshown"
    );
    let slack = rt.render_slack(&value, &RenderOptions::default()).unwrap();
    assert_eq!(
        slack.blocks,
        vec![
            json!({ "type": "section", "text": { "type": "mrkdwn", "text": "n" } }),
            json!({ "type": "section", "text": { "type": "mrkdwn", "text": " " } }),
            json!({ "type": "section", "text": { "type": "mrkdwn", "text": "shown" } }),
        ]
    );
}

#[test]
fn slack_cuts_past_fifty_blocks_with_a_notice() {
    // 60 notes and the 59 spacers between them are 119 blocks: 49 are kept.
    let rt = runtime();
    let body: Vec<Value> = (0..60)
        .map(|i| json!({ "type": "note", "text": format!("n{i}") }))
        .collect();
    let slack = rt
        .render_slack(view(Value::Array(body)), &RenderOptions::default())
        .unwrap();
    assert_eq!(slack.blocks.len(), 50);
    assert_eq!(
        slack.blocks[49],
        json!({ "type": "context", "elements": [ { "type": "mrkdwn", "text": "_+70 more blocks elided to fit Slack's limit._" } ] })
    );
}

/// A counter whose count is a Rust integer.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Counter {
    /// How many.
    count: u32,
}

#[test]
fn integral_floats_fill_integer_fields() {
    // JSON (and Zod) do not tell `3` from `3.0`; the schema's `integer`
    // accepts both, so the node must deserialize for refinements and
    // renderers too instead of failing or rendering nothing.
    let counter = Primitive::builder::<Counter>("counter")
        .purpose("Counts.")
        .example(json!({ "type": "counter", "count": 1 }))
        .refine(|node: &Counter, ctx| {
            if node.count > 9 {
                ctx.error("count", "must be a single digit");
            }
        })
        .text(|node, _| format!("count {}", node.count))
        .markdown(|node, _| Markdown::paragraph(format!("count {}", node.count)))
        .build()
        .expect("counter builds");
    let rt = Runtime::builder()
        .pack(Pack::new("c").primitive(counter).build().expect("pack"))
        .build()
        .expect("runtime");
    let with =
        |count: Value| json!({ "type": "view", "body": [ { "type": "counter", "count": count } ] });
    assert_eq!(rt.validate(with(json!(3.0))).errors, vec![]);
    assert_eq!(
        rt.render_text(with(json!(3.0)), &RenderOptions::default())
            .unwrap(),
        "count 3"
    );
    assert_eq!(
        rt.validate(with(json!(12.0)))
            .errors
            .iter()
            .map(isomer_sdk::format_validation_error)
            .collect::<Vec<_>>(),
        vec!["body[0].count (in counter) must be a single digit"]
    );
    assert_eq!(
        rt.validate(with(json!(2.5)))
            .errors
            .iter()
            .map(isomer_sdk::format_validation_error)
            .collect::<Vec<_>>(),
        vec!["body[0].count (in counter) Invalid input: expected int, received number"]
    );
    // A value the Rust type cannot hold is refused by the validator (the
    // exported schemas keep upstream's shape, without the bound).
    assert_eq!(
        rt.validate(with(json!(4_294_967_296u64)))
            .errors
            .iter()
            .map(isomer_sdk::format_validation_error)
            .collect::<Vec<_>>(),
        vec!["body[0].count (in counter) must be at most 4294967295"]
    );
    assert_eq!(
        rt.composition_schema()["$defs"]["counter"]["properties"]["count"],
        json!({ "type": "integer", "description": "How many.", "minimum": 0 })
    );
}
