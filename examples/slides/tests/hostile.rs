//! Hostile text never breaks a renderer: every catalog example, with every
//! authored string replaced by text full of Markdown syntax, multi-byte
//! characters and line separators, renders on every surface (in `collect`
//! mode, so even nodes the schema then refuses reach the renderers) without
//! a panic; the Markdown never lets the text open a block, and the HTML
//! (the sdk's conversion) holds no raw tag or script link.

mod common;

use common::{example, runtime};
use isomer_sdk::{Surface, ValidationMode};
use serde_json::Value;

const HOSTILE: &str =
    "# × **“é”** `ü` [x](javascript:alert(1)) <b>&</b> | 1. - ---\n\u{2028}~~~ ****` **";

/// `value` with every string leaf but `type` replaced by [`HOSTILE`].
fn poison(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, child) in map.iter_mut() {
                    if key != "type" {
                        stack.push(child);
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::String(text) => *text = HOSTILE.to_owned(),
            _ => {}
        }
    }
}

/// True when a line outside fenced code starts with the hostile text's
/// heading (`# ×`), i.e. authored text opened a block.
fn opens_a_block(markdown: &str) -> bool {
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && line.trim_start_matches(['-', '>', ' ']).starts_with("# ×") {
            return true;
        }
    }
    false
}

#[test]
fn renderers_survive_hostile_text() {
    for primitive in runtime().primitives() {
        let name = primitive.type_name();
        let mut node = example(name);
        poison(&mut node);
        for surface in [
            Surface::Text,
            Surface::Markdown,
            Surface::Html,
            Surface::Slack,
        ] {
            let rendered = runtime().render_node(surface, &node, Some(ValidationMode::Collect));
            let output = rendered.map(|r| r.to_text()).unwrap_or_default();
            if surface == Surface::Markdown {
                assert!(!opens_a_block(&output), "{name}: {output}");
            }
            if surface == Surface::Html {
                assert!(!output.contains("<b>"), "{name}: {output}");
                assert!(!output.contains("href=\"javascript"), "{name}: {output}");
            }
        }
    }
}

#[test]
fn the_hostile_text_reaches_the_renderers() {
    let mut node = example("slideHeading");
    poison(&mut node);
    let markdown = runtime()
        .render_node(Surface::Markdown, &node, Some(ValidationMode::Collect))
        .unwrap()
        .to_text();
    assert_eq!(
        markdown,
        "# \\# × **“é”** `ü` \\[x\\](javascript:alert(1)) \\<b\\>\\&\\</b\\> \\| 1. - --- ~~~ \\*\\***\\`** \n\n\
         \\# × **“é”** `ü` \\[x\\](javascript:alert(1)) \\<b\\>\\&\\</b\\> \\| 1. - --- ~~~ \\*\\***\\`** "
    );
}

/// A matrix whose rows are empty has an empty corner cell over nothing: its
/// text table pads that column to one dash, and every surface renders it (the
/// HTML after the page's stylesheet, which this test leaves to the sdk's).
#[test]
fn a_matrix_with_no_rows_renders_on_every_surface() {
    let node = serde_json::json!({
        "type": "slideMatrix",
        "columns": ["Argo CD", "Spinnaker", "In-house scripts"],
        "rows": [],
        "highlight": 1
    });
    let render = |surface| {
        runtime()
            .render_node(surface, &node, Some(ValidationMode::Collect))
            .unwrap()
            .to_text()
    };
    let text = render(Surface::Text);
    assert_eq!(
        text,
        "   Argo CD  ● Spinnaker  In-house scripts\n-  -------  -----------  ----------------"
    );
    let markdown = render(Surface::Markdown);
    assert_eq!(
        markdown,
        "| | Argo CD | **● Spinnaker** | In-house scripts |\n| - | - | - | - |"
    );
    let html = render(Surface::Html);
    assert_eq!(
        common::body_of(&html),
        "<div class=\"slide-matrix slide-size-l\"><table><thead><tr><td></td><th scope=\"col\">Argo CD</th>\
         <th scope=\"col\" class=\"slide-matrix-highlight\"><span class=\"slide-matrix-cue\" aria-hidden=\"true\"></span>\
         Spinnaker</th><th scope=\"col\">In-house scripts</th></tr></thead><tbody></tbody></table></div>"
    );
    let slack = render(Surface::Slack);
    assert_eq!(
        slack,
        r#"{"text":"   Argo CD  ● Spinnaker  In-house scripts\n-  -------  -----------  ----------------","blocks":[{"type":"table","rows":[[{"type":"raw_text","text":""},{"type":"raw_text","text":"Argo CD"},{"type":"rich_text","elements":[{"type":"rich_text_section","elements":[{"type":"text","text":"● Spinnaker","style":{"bold":true}}]}]},{"type":"raw_text","text":"In-house scripts"}]],"column_settings":[{"is_wrapped":true},{"is_wrapped":true},{"is_wrapped":true},{"is_wrapped":true}]}]}"#
    );
}
