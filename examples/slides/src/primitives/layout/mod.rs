//! The "layout" group of slide primitives.

pub mod slide_split;
pub mod slide_stack;
pub mod slide_window;
