//! The "diagrams" group of slide primitives.

pub mod slide_pipeline;
pub mod slide_timeline;
