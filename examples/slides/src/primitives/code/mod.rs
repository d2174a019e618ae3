//! The "code" group of slide primitives.

pub mod line_width;
pub mod slide_code;
pub mod slide_command;
pub mod slide_diff;
pub mod slide_transcript;
