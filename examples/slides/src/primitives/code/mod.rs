//! The "code" group of slide primitives.

pub mod embedded;
pub mod line_width;
pub mod slide_annotated_render;
pub mod slide_code;
pub mod slide_command;
pub mod slide_diff;
pub mod slide_render;
pub mod slide_render_grid;
pub mod slide_transcript;
