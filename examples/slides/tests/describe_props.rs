//! The field descriptors (`props`, upstream `PropDescriptor`) of three
//! slides primitives, as `describe_primitives` answers them
//! (upstream `PropDescriptor`s): a table, a timeline and the frame.

use isomer_slides::runtime;

#[test]
fn props_of_a_table_a_timeline_and_the_frame() {
    let described = runtime()
        .expect("the slides runtime builds")
        .describe_primitives(&["slideTable", "slideTimeline", "slideFrame"])
        .expect("the three types are registered");
    let types: Vec<&str> = described.props.types().collect();
    assert_eq!(types, ["slideTable", "slideTimeline", "slideFrame"]);
    insta::assert_json_snapshot!("slides_props", described.props);
}
