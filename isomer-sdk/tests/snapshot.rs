//! The `snapshot` surface: present only with frames; a page's markup,
//! stylesheet and size; the frame rule, theme and page-numbered errors.

mod common;

use isomer_sdk::composition::Theme;
use isomer_sdk::surface::html::HTML_CSS;
use isomer_sdk::{ErrorCode, Frame, Runtime, SnapshotError, SnapshotOptions};
use serde_json::{Value, json};

fn one_node(body: &[Value]) -> Vec<String> {
    if body.len() == 1 {
        Vec::new()
    } else {
        vec![format!("needs one node, got {}", body.len())]
    }
}

fn framed_runtime() -> Runtime {
    Runtime::builder()
        .pack(common::pack())
        .frame(
            Frame::new("card")
                .size(600, 400)
                .stylesheet(".isomer{width:600px}")
                .body_rule(one_node),
        )
        .frame(Frame::new("bare").heading(false))
        .default_frame("card")
        .build()
        .expect("the framed runtime builds")
}

fn note(text: &str) -> Value {
    json!({"type": "view", "title": "Status", "theme": "dark", "body": [{"type": "note", "text": text}]})
}

#[test]
fn a_runtime_without_frames_has_no_snapshot_surface() {
    assert!(common::runtime().snapshot().is_none());
    assert!(framed_runtime().snapshot().is_some());
}

#[test]
fn a_page_is_the_html_section_with_the_frame_stylesheet_and_size() {
    let runtime = framed_runtime();
    let render = runtime
        .snapshot()
        .unwrap()
        .render(&note("Deploys are frozen."), &SnapshotOptions::default())
        .unwrap();
    assert_eq!(
        render.page.html,
        "<section class=\"isomer\" role=\"group\" aria-label=\"Status\" data-theme=\"dark\"><div><h2>Status</h2><p class=\"note\">Deploys are frozen.</p></div></section>"
    );
    assert_eq!(render.page.title.as_deref(), Some("Status"));
    assert_eq!(render.page.text, "STATUS\n\nDeploys are frozen.");
    assert_eq!(render.css, format!("{HTML_CSS}.isomer{{width:600px}}"));
    assert_eq!(
        (render.width, render.height, render.theme),
        (600, 400, Theme::Dark)
    );
}

#[test]
fn the_theme_option_wins_and_auto_draws_light() {
    let runtime = framed_runtime();
    let snapshot = runtime.snapshot().unwrap();
    let light = SnapshotOptions {
        theme: Some(Theme::Light),
        ..SnapshotOptions::default()
    };
    assert_eq!(
        snapshot.render(&note("a"), &light).unwrap().theme,
        Theme::Light
    );
    let auto = SnapshotOptions {
        theme: Some(Theme::Auto),
        frame: Some("bare".to_owned()),
    };
    let render = snapshot.render(&note("a"), &auto).unwrap();
    assert_eq!(render.theme, Theme::Light);
    assert_eq!(
        render.page.html,
        "<section class=\"isomer\" role=\"group\" aria-label=\"Status\" data-theme=\"light\"><div><p class=\"note\">a</p></div></section>"
    );
    assert_eq!((render.width, render.height), (1280, 720));
}

#[test]
fn refusals_name_their_frame_page_and_code() {
    let runtime = framed_runtime();
    let snapshot = runtime.snapshot().unwrap();
    let two = json!({"type": "view", "body": [
        {"type": "note", "text": "a"}, {"type": "note", "text": "b"}
    ]});
    let error = snapshot
        .render(&two, &SnapshotOptions::default())
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidFrameBody);
    assert_eq!(
        error.to_string(),
        "frame \"card\" cannot draw this composition: needs one node, got 2"
    );

    let error = snapshot
        .render_pages(&[note("a"), two], &SnapshotOptions::default())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "page 2: frame \"card\" cannot draw this composition: needs one node, got 2"
    );

    let invalid = json!({"type": "view", "body": [{"type": "note"}]});
    let error = snapshot
        .render(&invalid, &SnapshotOptions::default())
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::CompositionInvalid);
    assert!(matches!(error, SnapshotError::Invalid { page: None, .. }));

    let error = snapshot
        .render(
            &note("a"),
            &SnapshotOptions {
                frame: Some("poster".to_owned()),
                theme: None,
            },
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::UnknownFrame);
    assert_eq!(error.to_string(), "unknown frame \"poster\"");

    let error = snapshot
        .render_pages(&[], &SnapshotOptions::default())
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::EmptyPages);
}

#[test]
fn pages_share_one_stylesheet_and_the_first_theme() {
    let runtime = framed_runtime();
    let light = json!({"type": "view", "theme": "light", "body": [{"type": "note", "text": "b"}]});
    let pages = runtime
        .snapshot()
        .unwrap()
        .render_pages(&[note("a"), light], &SnapshotOptions::default())
        .unwrap();
    assert_eq!(pages.pages.len(), 2);
    assert_eq!(pages.theme, Theme::Dark);
    assert!(pages.pages[1].html.contains("data-theme=\"dark\""));
    assert_eq!(pages.css, format!("{HTML_CSS}.isomer{{width:600px}}"));
}
