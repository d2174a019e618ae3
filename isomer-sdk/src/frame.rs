//! Frames: named documents for the image surface, registered with a runtime
//! (sdk.md §5). This crate keeps what validation needs: the name and the
//! optional body rule (`validate_body`), which the agent tools report as
//! findings with an empty path.
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

/// A named frame with an optional body rule. Cheap to clone.
#[derive(Clone)]
pub struct Frame {
    name: String,
    body_rule: Option<BodyRule>,
}

impl std::fmt::Debug for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frame")
            .field("name", &self.name)
            .field("body_rule", &self.body_rule.is_some())
            .finish()
    }
}

impl Frame {
    /// A frame registered under `name`, with no body rule.
    pub fn new(name: impl Into<String>) -> Frame {
        Frame {
            name: name.into(),
            body_rule: None,
        }
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
