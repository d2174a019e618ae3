//! The "text" group of slide primitives.

pub mod slide_bullet_list;
pub mod slide_columns;
pub mod slide_definitions;
pub mod slide_list;
pub mod slide_roadmap;
