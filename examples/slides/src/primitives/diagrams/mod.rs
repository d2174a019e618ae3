//! The "diagrams" group of slide primitives.

pub mod slide_fanout;
pub mod slide_graph;
pub mod slide_lanes;
pub mod slide_layers;
pub mod slide_pipeline;
pub mod slide_quadrant;
pub mod slide_sequence;
pub mod slide_territory_group;
pub mod slide_timeline;
pub mod slide_tree;
