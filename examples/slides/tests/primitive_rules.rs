//! The cross-field rules of the thirteen primitives that joined the pack
//! with upstream's full set (roadmap, sequence, lanes, graph, fanout, tree,
//! layers, territory group, quadrant, matrix, render, render grid,
//! annotated render): each rule fails with the exact path, message and
//! node type, and the matching valid node passes. The rules of the first
//! 27 primitives are in `rules.rs`; embedded bodies in `embedded_bodies.rs`.

mod common;

use common::{finding, findings, view};
use serde_json::{Value, json};

/// Validates `node` as the only body node and returns its findings.
fn check(node: Value) -> Vec<(String, String, Option<String>)> {
    findings(&view(node))
}

fn roadmap(first_current: bool) -> Value {
    json!({ "type": "slideRoadmap", "columns": [
        { "title": "Now", "status": "Shipping", "current": first_current, "items": [{ "title": "a", "body": "b" }] },
        { "title": "Next", "status": "Designing", "current": true, "items": [{ "title": "c", "body": "d" }] }
    ] })
}

#[test]
fn slide_roadmap_has_at_most_one_current_column() {
    assert_eq!(
        check(roadmap(true)),
        [finding(
            "body[0].columns",
            "at most one column can be current",
            "slideRoadmap"
        )]
    );
    assert_eq!(check(roadmap(false)), []);
}

fn sequence(actors: Value, messages: Value) -> Value {
    json!({ "type": "slideSequence", "actors": actors, "messages": messages })
}

fn three_actors() -> Value {
    json!([
        { "id": "a", "label": "A" },
        { "id": "b", "label": "B" },
        { "id": "c", "label": "C" }
    ])
}

#[test]
fn slide_sequence_actor_ids_are_unique() {
    let actors = json!([
        { "id": "a", "label": "A" },
        { "id": "b", "label": "B" },
        { "id": "a", "label": "A again" }
    ]);
    let messages = json!([{ "from": "a", "to": "b", "label": "x" }]);
    assert_eq!(
        check(sequence(actors, messages)),
        [finding(
            "body[0].actors[2].id",
            "duplicate actor id \"a\"",
            "slideSequence"
        )]
    );
}

#[test]
fn slide_sequence_messages_name_two_different_actors() {
    let messages = json!([
        { "from": "a", "to": "b", "label": "x" },
        { "from": "z", "to": "c", "label": "y" },
        { "from": "c", "to": "q", "label": "z" },
        { "from": "b", "to": "b", "label": "self" }
    ]);
    assert_eq!(
        check(sequence(three_actors(), messages)),
        [
            finding(
                "body[0].messages[1].from",
                "message from names unknown actor \"z\"",
                "slideSequence"
            ),
            finding(
                "body[0].messages[2].to",
                "message to names unknown actor \"q\"",
                "slideSequence"
            ),
            finding(
                "body[0].messages[3].to",
                "a message goes from one actor to another: `from` and `to` differ",
                "slideSequence"
            ),
        ]
    );
}

#[test]
fn slide_sequence_every_actor_takes_part() {
    let messages = json!([{ "from": "a", "to": "b", "label": "x" }]);
    assert_eq!(
        check(sequence(three_actors(), messages)),
        [finding(
            "body[0].actors[2]",
            "actor \"c\" sends or receives no message",
            "slideSequence"
        )]
    );
    let messages = json!([
        { "from": "a", "to": "b", "label": "x" },
        { "from": "b", "to": "c", "label": "y" }
    ]);
    assert_eq!(check(sequence(three_actors(), messages)), []);
}

#[test]
fn slide_lanes_are_exactly_two_with_at_most_four_notes() {
    let lane = json!({ "label": "L", "steps": ["s"] });
    let node = json!({ "type": "slideLanes", "lanes": [lane, lane, lane], "join": "j" });
    assert_eq!(
        check(node),
        [finding(
            "body[0].lanes",
            "must have at most 2 items",
            "slideLanes"
        )]
    );
    let note = json!({ "title": "t", "body": "b" });
    let node = json!({ "type": "slideLanes", "lanes": [lane, lane], "join": "j", "notes": [note, note, note, note, note] });
    assert_eq!(
        check(node),
        [finding(
            "body[0].notes",
            "must have at most 4 items",
            "slideLanes"
        )]
    );
    let node = json!({ "type": "slideLanes", "lanes": [lane, lane], "join": "j", "notes": [] });
    assert_eq!(check(node), []);
}

/// The graph finding at `path` with `message` and the shape sentence.
fn graph_finding(path: &str, message: &str) -> (String, String, Option<String>) {
    finding(
        path,
        &format!(
            "{message}. {}",
            isomer_slides::primitives::diagrams::slide_graph::SHAPE
        ),
        "slideGraph",
    )
}

fn graph(nodes: Value, edges: Value) -> Value {
    json!({ "type": "slideGraph", "nodes": nodes, "edges": edges })
}

fn graph_node(id: &str, placement: Option<&str>) -> Value {
    let mut node = json!({ "id": id, "term": id.to_uppercase(), "body": "b" });
    if let Some(placement) = placement {
        node["placement"] = json!(placement);
    }
    node
}

#[test]
fn slide_graph_accepts_its_one_shape() {
    let nodes = json!([
        graph_node("a", None),
        graph_node("b", None),
        graph_node("c", None),
        graph_node("up", Some("above")),
        graph_node("down", Some("below"))
    ]);
    let edges = json!([["a", "b"], ["b", "c"], ["up", "b"], ["c", "down"]]);
    assert_eq!(check(graph(nodes, edges)), []);
}

#[test]
fn slide_graph_ids_are_unique() {
    let nodes = json!([
        graph_node("a", None),
        graph_node("b", None),
        graph_node("a", Some("above"))
    ]);
    assert_eq!(
        check(graph(nodes, json!([["a", "b"]]))),
        [graph_finding(
            "body[0].nodes[2].id",
            "duplicate node id \"a\""
        )]
    );
}

#[test]
fn slide_graph_edges_name_known_nodes_once() {
    let nodes = json!([graph_node("a", None), graph_node("b", None)]);
    let edges = json!([["a", "b"], ["a", "b"], ["a", "zz"]]);
    assert_eq!(
        check(graph(nodes, edges)),
        [
            graph_finding("body[0].edges[1]", "repeated edge \"a\" → \"b\""),
            graph_finding("body[0].edges[2]", "edge names unknown node \"zz\""),
        ]
    );
}

#[test]
fn slide_graph_main_row_holds_two_to_four_nodes() {
    let nodes = json!([graph_node("a", None), graph_node("up", Some("above"))]);
    assert_eq!(
        check(graph(nodes, json!([["up", "a"]]))),
        [graph_finding(
            "body[0].nodes",
            "the main row needs 2 to 4 nodes without placement, got 1"
        )]
    );
}

#[test]
fn slide_graph_main_row_is_one_chain_in_array_order() {
    let nodes = json!([
        graph_node("a", None),
        graph_node("b", None),
        graph_node("c", None)
    ]);
    assert_eq!(
        check(graph(nodes.clone(), json!([["a", "b"], ["c", "b"]]))),
        [
            graph_finding(
                "body[0].edges[1]",
                "edge \"c\" → \"b\" is not part of the shape"
            ),
            graph_finding(
                "body[0].edges",
                "missing edge \"b\" → \"c\" between neighbouring main nodes"
            ),
        ]
    );
    assert_eq!(
        check(graph(nodes, json!([["a", "b"], ["b", "c"], ["a", "c"]]))),
        [graph_finding(
            "body[0].edges[2]",
            "edge \"a\" → \"c\" is not part of the shape"
        )]
    );
}

#[test]
fn slide_graph_feeders_are_one_above_one_below_each_joined_once() {
    let nodes = json!([
        graph_node("a", None),
        graph_node("b", None),
        graph_node("u1", Some("above")),
        graph_node("u2", Some("above"))
    ]);
    let edges = json!([["a", "b"], ["u1", "a"], ["u1", "b"], ["u2", "b"]]);
    assert_eq!(
        check(graph(nodes, edges)),
        [
            graph_finding("body[0].nodes", "at most one node can sit above"),
            graph_finding(
                "body[0].nodes[2]",
                "node \"u1\" needs exactly one edge to a main node, got 2"
            ),
        ]
    );
}

#[test]
fn slide_graph_emphasizes_at_most_one_node() {
    let mut a = graph_node("a", None);
    a["emphasis"] = json!(true);
    let mut b = graph_node("b", None);
    b["emphasis"] = json!(true);
    assert_eq!(
        check(graph(json!([a, b]), json!([["a", "b"]]))),
        [graph_finding(
            "body[0].nodes",
            "at most one node can be emphasized"
        )]
    );
}

#[test]
fn slide_tree_entries_are_one_level_deep() {
    let node = json!({ "type": "slideTree", "root": "ledger/", "entries": [
        { "name": "batch/", "body": "folder" },
        { "name": "batch/run.ts", "body": "too deep" },
        { "name": "a/b/", "body": "too deep" }
    ] });
    let message = "one level only: a name holds no \"/\" except a folder's trailing one";
    assert_eq!(
        check(node),
        [
            finding("body[0].entries[1].name", message, "slideTree"),
            finding("body[0].entries[2].name", message, "slideTree"),
        ]
    );
}

#[test]
fn slide_layers_have_exactly_one_of_body_or_chips() {
    let node = json!({ "type": "slideLayers", "layers": [
        { "name": "A", "body": "b", "owner": "o" },
        { "name": "B", "body": "b", "chips": ["c"], "owner": "o" },
        { "name": "C", "owner": "o" }
    ] });
    let message = "a layer has exactly one of `body` or `chips`";
    assert_eq!(
        check(node),
        [
            finding("body[0].layers[1]", message, "slideLayers"),
            finding("body[0].layers[2]", message, "slideLayers"),
        ]
    );
}

fn quadrant(highlight: u32) -> Value {
    let quadrant = json!({ "label": "q", "items": [] });
    json!({
        "type": "slideQuadrant",
        "x": { "low": "l", "high": "h" }, "y": { "low": "l", "high": "h" },
        "quadrants": [quadrant, quadrant, quadrant, quadrant],
        "highlight": highlight
    })
}

#[test]
fn slide_quadrant_has_four_quadrants_and_highlights_one_of_them() {
    assert_eq!(
        check(quadrant(4)),
        [finding(
            "body[0].highlight",
            "must be at most 3",
            "slideQuadrant"
        )]
    );
    assert_eq!(check(quadrant(3)), []);
    let mut three = quadrant(0);
    three["quadrants"].as_array_mut().unwrap().pop();
    assert_eq!(
        check(three),
        [finding(
            "body[0].quadrants",
            "must have at least 4 items",
            "slideQuadrant"
        )]
    );
}

#[test]
fn slide_matrix_rows_have_one_mark_per_column_and_highlight_names_a_column() {
    let node = json!({ "type": "slideMatrix", "columns": ["A", "B"], "highlight": 2, "rows": [
        { "label": "r1", "marks": ["full", "none"] },
        { "label": "r2", "marks": ["full"] }
    ] });
    assert_eq!(
        check(node),
        [
            finding(
                "body[0].rows[1].marks",
                "every row needs one mark per column (2)",
                "slideMatrix"
            ),
            finding(
                "body[0].highlight",
                "must be an index into `columns`",
                "slideMatrix"
            ),
        ]
    );
    let node = json!({ "type": "slideMatrix", "columns": ["A", "B"], "highlight": 1, "rows": [
        { "label": "r1", "marks": ["full", "partial"] }
    ] });
    assert_eq!(check(node), []);
}

#[test]
fn slide_render_needs_a_slide_or_a_body() {
    assert_eq!(
        check(json!({ "type": "slideRender", "surface": "text" })),
        [finding(
            "body[0]",
            "needs a `slide` reference or a `body`",
            "slideRender"
        )]
    );
    assert_eq!(
        check(json!({ "type": "slideRender", "surface": "snapshot", "slide": "refunds" })),
        []
    );
}

#[test]
fn slide_render_grid_names_each_surface_once() {
    let node = json!({ "type": "slideRenderGrid",
        "body": [{ "type": "slideSource", "text": "x" }],
        "tiles": [
            { "surface": "text", "caption": "a" },
            { "surface": "slack", "caption": "b" },
            { "surface": "text", "caption": "c" }
        ] });
    assert_eq!(
        check(node),
        [finding(
            "body[0].tiles[2].surface",
            "each surface may appear once",
            "slideRenderGrid"
        )]
    );
}
