//! Frames: named documents for the image surface, `snapshot`, registered
//! with a runtime. A frame has a name, an optional body rule
//! (`validate_body`, which the agent tools report as findings with an empty
//! path), and what the snapshot surface needs to lay a page out: its size in
//! pixels, its stylesheet, and whether the composition's title and subtitle
//! are drawn above the body.
//!
//! ```
//! use isomer_sdk::Frame;
//!
//! let slide = Frame::new("slide").body_rule(|body| {
//!     if body.len() == 1 { Vec::new() } else { vec![format!("got {} nodes", body.len())] }
//! });
//! assert_eq!(slide.validate_body(&[]), vec!["got 0 nodes".to_owned()]);
//! ```

use std::sync::Arc;

use serde_json::Value;

type BodyRule = Arc<dyn Fn(&[Value]) -> Vec<String> + Send + Sync>;

/// The page size of a frame that names none: 1280 × 720 pixels.
pub(crate) const DEFAULT_FRAME_SIZE: (u32, u32) = (1280, 720);

/// A named frame with an optional body rule. Cheap to clone.
#[derive(Clone)]
pub struct Frame {
    name: String,
    body_rule: Option<BodyRule>,
    size: (u32, u32),
    stylesheet: Arc<str>,
    heading: bool,
}

impl std::fmt::Debug for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frame")
            .field("name", &self.name)
            .field("body_rule", &self.body_rule.is_some())
            .field("size", &self.size)
            .field("heading", &self.heading)
            .finish_non_exhaustive()
    }
}

impl Frame {
    /// A frame registered under `name`, with no body rule, the
    /// default size (1280 × 720), no stylesheet of its own, and the heading
    /// drawn.
    pub fn new(name: impl Into<String>) -> Frame {
        Frame {
            name: name.into(),
            body_rule: None,
            size: DEFAULT_FRAME_SIZE,
            stylesheet: Arc::from(""),
            heading: true,
        }
    }

    /// Sets the page size in pixels (`width`, `height`), what the snapshot
    /// surface reports and a rasterizer draws.
    pub fn size(mut self, width: u32, height: u32) -> Frame {
        self.size = (width, height);
        self
    }

    /// Sets the frame's stylesheet, appended by the snapshot surface after
    /// the `html` surface's own (so its rules win at equal specificity).
    pub fn stylesheet(mut self, css: impl Into<String>) -> Frame {
        self.stylesheet = Arc::from(css.into());
        self
    }

    /// Whether the snapshot surface draws the composition's title and
    /// subtitle above the body (default true; the slides frame says false
    /// because a slide carries its own heading).
    pub fn heading(mut self, heading: bool) -> Frame {
        self.heading = heading;
        self
    }

    /// The page size in pixels, `(width, height)`.
    pub fn page_size(&self) -> (u32, u32) {
        self.size
    }

    /// The frame's own stylesheet (empty when it has none).
    pub fn css(&self) -> &str {
        &self.stylesheet
    }

    /// Whether the title and subtitle are drawn above the body.
    pub fn draws_heading(&self) -> bool {
        self.heading
    }

    /// Sets the body rule (upstream `validateBody`): given the composition's
    /// `body`, the messages of every way it cannot be drawn; empty when it
    /// can. Messages are whole sentences without a path
    /// (`a snapshot render needs exactly one "slideFrame" node, got 2 nodes; …`).
    pub fn body_rule<F>(mut self, rule: F) -> Frame
    where
        F: Fn(&[Value]) -> Vec<String> + Send + Sync + 'static,
    {
        self.body_rule = Some(Arc::new(rule));
        self
    }

    /// The name the frame is registered under.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// True when the frame has a body rule.
    pub fn has_body_rule(&self) -> bool {
        self.body_rule.is_some()
    }

    /// Runs the body rule; empty when there is none or the body passes.
    pub fn validate_body(&self, body: &[Value]) -> Vec<String> {
        match &self.body_rule {
            Some(rule) => rule(body),
            None => Vec::new(),
        }
    }
}
