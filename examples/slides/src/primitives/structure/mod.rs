//! The "structure" group of slide primitives.

pub mod slide_agenda;
pub mod slide_closing;
pub mod slide_frame;
pub mod slide_heading;
pub mod slide_quote;
pub mod slide_section;
pub mod slide_source;
pub mod slide_statement;
pub mod slide_title;
