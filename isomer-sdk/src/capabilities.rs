//! What a runtime can render (upstream `getCapabilities()`).

use std::collections::BTreeMap;

use serde::Serialize;

/// How a primitive reaches a surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SurfaceSupport {
    /// The primitive's own renderer.
    Native,
    /// Converted from the primitive's Markdown (Slack without a `slack`
    /// renderer, HTML without an `html` renderer).
    Fallback,
}

/// The runtime's capabilities.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Capabilities {
    /// Every registered type, registration order.
    pub primitives: Vec<String>,
    /// The surfaces the runtime renders: `html`, `text`, `markdown`, `slack`.
    pub surfaces: Vec<String>,
    /// The formats a host can ask for: every surface, then the host's extra
    /// formats in the order given.
    pub formats: Vec<String>,
    /// `support[type][surface]`.
    pub support: BTreeMap<String, BTreeMap<String, SurfaceSupport>>,
}
