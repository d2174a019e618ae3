//! The "numbers" group of slide primitives.

pub mod slide_bars;
pub mod slide_delta;
pub mod slide_matrix;
pub mod slide_stat;
pub mod slide_stats;
pub mod slide_table;
