//! Three nodes for each of the thirteen primitives added with upstream's
//! full set, written from the reference's description of the primitive
//! (its fields, its examples of use, its output per surface), each
//! rendered alone on the text, Markdown and Slack surfaces into one insta
//! snapshot, `reference_examples__<name>.snap`, checked by hand against the
//! reference's rules: tone glyphs `● ` / `○ `, upper-cased captions, ` · `
//! and ` → ` separators, marks kept on Markdown and Slack and stripped on
//! text.

mod common;

use common::render_node;
use isomer_sdk::Surface;
use serde_json::{Value, json};

/// `node` on the three string surfaces, one section each, the Slack blocks
/// as pretty JSON.
fn surfaces(node: &Value) -> String {
    let slack: Value =
        serde_json::from_str(&render_node(Surface::Slack, node)).expect("slack renders JSON");
    format!(
        "--- text\n{}\n--- markdown\n{}\n--- slack\n{}\n",
        render_node(Surface::Text, node),
        render_node(Surface::Markdown, node),
        serde_json::to_string_pretty(&slack["blocks"]).expect("blocks serialize")
    )
}

/// Checks each node validates, then snapshots it as `<name>`.
fn snapshot_all(nodes: &[(&str, Value)]) {
    for (name, node) in nodes {
        assert_eq!(
            common::findings(&common::view(node.clone())),
            [],
            "{name} is a valid node"
        );
        insta::assert_snapshot!(*name, surfaces(node));
    }
}

#[test]
fn roadmaps() {
    snapshot_all(&[
        (
            "roadmap_now_next_later",
            json!({ "type": "slideRoadmap", "columns": [
                { "title": "Now", "status": "In progress", "current": true, "items": [
                    { "title": "**Search** rewrite", "body": "Queries answer in under 200 ms." },
                    { "title": "Saved filters", "body": "Keep a filter across sessions." }
                ] },
                { "title": "Next", "status": "Planned", "items": [
                    { "title": "Alerts", "body": "Notify a channel when a query matches." }
                ] },
                { "title": "Later", "status": "Exploring", "items": [
                    { "title": "Sharing", "body": "Share a view with **read-only** links." }
                ] }
            ] }),
        ),
        (
            "roadmap_two_quarters",
            json!({ "type": "slideRoadmap", "size": "m", "columns": [
                { "title": "Q3", "status": "Committed", "items": [
                    { "title": "EU region", "body": "Data stays in Frankfurt." }
                ] },
                { "title": "Q4", "status": "Tentative", "items": [
                    { "title": "US region", "body": "Data stays in Oregon." },
                    { "title": "Audit log", "body": "Every admin action recorded." }
                ] }
            ] }),
        ),
        (
            "roadmap_four_horizons_third_current",
            json!({ "type": "slideRoadmap", "columns": [
                { "title": "2024", "status": "Done", "items": [{ "title": "Beta", "body": "Ten design partners." }] },
                { "title": "H1 2025", "status": "Done", "items": [{ "title": "GA", "body": "Open to everyone." }] },
                { "title": "H2 2025", "status": "Shipping", "current": true, "items": [{ "title": "Plugins", "body": "Run `isomer add` to install one." }] },
                { "title": "2026", "status": "Idea", "items": [{ "title": "Marketplace", "body": "Sell plugins." }] }
            ] }),
        ),
    ]);
}

#[test]
fn sequences() {
    snapshot_all(&[
        (
            "sequence_user_host_model",
            json!({ "type": "slideSequence", "actors": [
                { "id": "user", "label": "User", "tone": "primary" },
                { "id": "host", "label": "Host", "tone": "accent" },
                { "id": "model", "label": "Model" }
            ], "messages": [
                { "from": "user", "to": "host", "label": "Ask for a chart" },
                { "from": "host", "to": "model", "label": "Prompt + **catalog**" },
                { "from": "model", "to": "host", "label": "Composition JSON" },
                { "from": "host", "to": "user", "label": "Rendered slide" }
            ] }),
        ),
        (
            "sequence_failure_and_retry",
            json!({ "type": "slideSequence", "actors": [
                { "id": "app", "label": "App", "tone": "primary" },
                { "id": "api", "label": "Payments API" },
                { "id": "bank", "label": "Bank", "tone": "accent" },
                { "id": "queue", "label": "Retry queue" }
            ], "messages": [
                { "from": "app", "to": "api", "label": "Charge €40" },
                { "from": "api", "to": "bank", "label": "Authorize" },
                { "from": "bank", "to": "api", "label": "Timeout after 30 s" },
                { "from": "api", "to": "queue", "label": "Park the charge" },
                { "from": "queue", "to": "api", "label": "Retry at +5 min" },
                { "from": "api", "to": "bank", "label": "Authorize again" },
                { "from": "bank", "to": "api", "label": "Approved" },
                { "from": "api", "to": "app", "label": "`charge.succeeded`" }
            ] }),
        ),
        (
            "sequence_five_untoned_actors",
            json!({ "type": "slideSequence", "actors": [
                { "id": "a", "label": "Browser" },
                { "id": "b", "label": "CDN" },
                { "id": "c", "label": "Edge function" },
                { "id": "d", "label": "Origin" },
                { "id": "e", "label": "Database" }
            ], "messages": [
                { "from": "a", "to": "b", "label": "GET /report" },
                { "from": "b", "to": "c", "label": "Cache miss" },
                { "from": "c", "to": "d", "label": "Forward" },
                { "from": "d", "to": "e", "label": "Query" },
                { "from": "e", "to": "d", "label": "Rows" },
                { "from": "d", "to": "a", "label": "HTML" }
            ] }),
        ),
    ]);
}

#[test]
fn lanes() {
    snapshot_all(&[
        (
            "lanes_two_sources_with_notes",
            json!({ "type": "slideLanes", "lanes": [
                { "label": "Web signups", "tone": "primary", "steps": ["Form", "Email check"] },
                { "label": "Sales deals", "tone": "accent", "steps": ["Contract", "Legal review", "Provision"] }
            ], "join": "Active account", "notes": [
                { "title": "Web", "body": "Self-serve, **minutes** end to end." },
                { "title": "Sales", "body": "Two weeks, gated by legal." }
            ] }),
        ),
        (
            "lanes_without_notes",
            json!({ "type": "slideLanes", "lanes": [
                { "label": "Hotfix", "steps": ["Patch", "Review"] },
                { "label": "Feature", "steps": ["Branch", "Review", "QA", "Staging"] }
            ], "join": "Release" }),
        ),
        (
            "lanes_one_step_each",
            json!({ "type": "slideLanes", "lanes": [
                { "label": "Logs", "steps": ["Filebeat"] },
                { "label": "Metrics", "tone": "primary", "steps": ["Agent"] }
            ], "join": "Index", "notes": [
                { "title": "Why one index", "body": "One query sees both, via `logs-*`." }
            ] }),
        ),
    ]);
}

#[test]
fn graphs() {
    snapshot_all(&[
        (
            "graph_two_terms",
            json!({ "type": "slideGraph",
                "nodes": [
                    { "id": "c", "term": "Composition", "body": "JSON a model writes." },
                    { "id": "s", "term": "Surface", "body": "Where it is rendered." }
                ],
                "edges": [["c", "s"]] }),
        ),
        (
            "graph_four_in_a_row_emphasized",
            json!({ "type": "slideGraph", "size": "s",
                "nodes": [
                    { "id": "p", "term": "Prompt", "body": "Guide, rules and catalog." },
                    { "id": "a", "term": "Answer", "body": "The model's composition.", "emphasis": true },
                    { "id": "v", "term": "Validation", "body": "Schema plus **cross-field** rules." },
                    { "id": "r", "term": "Render", "body": "Text, Markdown, Slack, HTML." }
                ],
                "edges": [["p", "a"], ["a", "v"], ["v", "r"]],
                "caption": "Every answer passes validation before it renders." }),
        ),
        (
            "graph_feeders_above_and_below",
            json!({ "type": "slideGraph",
                "nodes": [
                    { "id": "pack", "term": "Pack", "body": "A set of primitives." },
                    { "id": "rt", "term": "Runtime", "body": "Validates and renders." },
                    { "id": "host", "term": "Host", "body": "Your application." },
                    { "id": "frame", "term": "Frame", "body": "Sizes the document.", "placement": "above" },
                    { "id": "view", "term": "View", "body": "A named request.", "placement": "below" }
                ],
                "edges": [["pack", "rt"], ["rt", "host"], ["frame", "rt"], ["host", "view"]],
                "caption": "A host builds one runtime with `Runtime::builder`." }),
        ),
    ]);
}

#[test]
fn fanouts() {
    snapshot_all(&[
        (
            "fanout_event_to_consumers",
            json!({ "type": "slideFanout", "source": "order.created", "targets": [
                { "name": "billing", "body": "Charges the card", "tone": "primary" },
                { "name": "warehouse", "body": "Reserves stock" },
                { "name": "analytics", "body": "Counts the sale", "tone": "accent" }
            ] }),
        ),
        (
            "fanout_two_untoned_targets",
            json!({ "type": "slideFanout", "source": "composition.json", "targets": [
                { "name": "text", "body": "For terminals and logs" },
                { "name": "slack", "body": "For a channel" }
            ] }),
        ),
        (
            "fanout_six_targets",
            json!({ "type": "slideFanout", "source": "release v2.4", "targets": [
                { "name": "npm", "body": "Package" },
                { "name": "crates.io", "body": "Crate" },
                { "name": "docs", "body": "Site rebuild", "tone": "primary" },
                { "name": "changelog", "body": "Entry" },
                { "name": "blog", "body": "Announcement", "tone": "accent" },
                { "name": "slack", "body": "#releases post" }
            ] }),
        ),
    ]);
}

#[test]
fn trees() {
    snapshot_all(&[
        (
            "tree_package_folder",
            json!({ "type": "slideTree", "root": "checkout/", "entries": [
                { "name": "src/", "body": "the service" },
                { "name": "migrations/", "body": "schema changes, in order" },
                { "name": "Cargo.toml", "body": "dependencies" },
                { "name": "README.md", "body": "how to run it" }
            ] }),
        ),
        (
            "tree_one_entry",
            json!({ "type": "slideTree", "root": "corpus/slides/", "entries": [
                { "name": "prompt.txt", "body": "the prompt every answer was written from" }
            ] }),
        ),
        (
            "tree_wide_names",
            json!({ "type": "slideTree", "root": "docs/", "entries": [
                { "name": "日本語/", "body": "Japanese pages" },
                { "name": "en/", "body": "English pages" },
                { "name": "index.md", "body": "language picker" }
            ] }),
        ),
    ]);
}

#[test]
fn layers() {
    snapshot_all(&[
        (
            "layers_bodies_with_owners",
            json!({ "type": "slideLayers", "layers": [
                { "name": "Host app", "body": "Chooses views and surfaces.", "owner": "You", "tone": "primary" },
                { "name": "Runtime", "body": "Validates **every** composition.", "owner": "Isomer" },
                { "name": "Model", "body": "Writes the JSON.", "owner": "Provider", "tone": "accent" }
            ] }),
        ),
        (
            "layers_chips",
            json!({ "type": "slideLayers", "size": "m", "layers": [
                { "name": "Surfaces", "chips": ["text", "markdown", "slack", "html"], "owner": "Runtime" },
                { "name": "Packs", "chips": ["slides"], "owner": "Pack authors" },
                { "name": "Schema", "chips": ["JSON Schema", "Zod"], "owner": "SDK" }
            ] }),
        ),
        (
            "layers_six_mixed",
            json!({ "type": "slideLayers", "layers": [
                { "name": "UI", "body": "React components.", "owner": "Web team", "tone": "primary" },
                { "name": "API", "chips": ["REST", "GraphQL"], "owner": "Platform" },
                { "name": "Queue", "chips": ["Kafka"], "owner": "Platform" },
                { "name": "Storage", "body": "Postgres and S3.", "owner": "Data" },
                { "name": "Network", "body": "VPC and load balancers.", "owner": "Infra" },
                { "name": "Hardware", "body": "Rented by the hour.", "owner": "Cloud vendor", "tone": "accent" }
            ] }),
        ),
    ]);
}

#[test]
fn territory_groups() {
    snapshot_all(&[
        (
            "territory_one_owner",
            json!({ "type": "slideTerritoryGroup", "items": [
                { "title": "Platform team", "body": "Owns the runtime and its **schema**." }
            ] }),
        ),
        (
            "territory_yours_and_theirs",
            json!({ "type": "slideTerritoryGroup", "items": [
                { "title": "Your app", "body": "Decides what to ask for and where it shows.", "tone": "primary" },
                { "title": "Isomer", "body": "Checks the answer and renders it.", "tone": "accent" }
            ] }),
        ),
        (
            "territory_four_owners",
            json!({ "type": "slideTerritoryGroup", "items": [
                { "title": "Design", "body": "The look of each primitive." },
                { "title": "Pack authors", "body": "Fields, rules and catalog copy.", "tone": "primary" },
                { "title": "Hosts", "body": "Which surfaces and views exist." },
                { "title": "Models", "body": "The composition itself.", "tone": "accent" }
            ] }),
        ),
    ]);
}

#[test]
fn quadrants() {
    let quadrant = |label: &str, items: Value| json!({ "label": label, "items": items });
    snapshot_all(&[
        (
            "quadrant_impact_effort_highlighted",
            json!({ "type": "slideQuadrant",
                "x": { "low": "Low effort", "high": "High effort" },
                "y": { "low": "Low impact", "high": "High impact" },
                "quadrants": [
                    quadrant("Quick wins", json!(["Caching", "Batching"])),
                    quadrant("Big bets", json!(["Rewrite"])),
                    quadrant("Fill-ins", json!(["Docs typos"])),
                    quadrant("Time sinks", json!(["Custom DSL"]))
                ],
                "highlight": 0 }),
        ),
        (
            "quadrant_without_highlight",
            json!({ "type": "slideQuadrant",
                "x": { "low": "Cheap", "high": "Costly" },
                "y": { "low": "Slow", "high": "Fast" },
                "quadrants": [
                    quadrant("Sweet spot", json!(["SQLite"])),
                    quadrant("Pay for speed", json!(["Managed cache"])),
                    quadrant("Good enough", json!(["Cron job", "Shell script"])),
                    quadrant("Avoid", json!(["Mainframe"]))
                ] }),
        ),
        (
            "quadrant_bottom_right_highlighted_with_empty_quadrants",
            json!({ "type": "slideQuadrant", "size": "s",
                "x": { "low": "Internal", "high": "Customer-facing" },
                "y": { "low": "Stable", "high": "Changing" },
                "quadrants": [
                    quadrant("Refactor freely", json!([])),
                    quadrant("Version it", json!(["Public API"])),
                    quadrant("Leave alone", json!([])),
                    quadrant("Guard it", json!(["Billing", "Login"]))
                ],
                "highlight": 3 }),
        ),
    ]);
}

#[test]
fn matrices() {
    snapshot_all(&[
        (
            "matrix_options_against_capabilities",
            json!({ "type": "slideMatrix",
                "columns": ["Isomer", "Raw HTML", "Markdown"],
                "rows": [
                    { "label": "Validated", "marks": ["full", "none", "none"] },
                    { "label": "Slack", "marks": ["full", "none", "partial"] },
                    { "label": "Slides", "marks": ["full", "partial", "none"] }
                ],
                "highlight": 0 }),
        ),
        (
            "matrix_without_highlight_or_legend",
            json!({ "type": "slideMatrix", "legend": false,
                "columns": ["Free", "Team"],
                "rows": [
                    { "label": "Projects", "marks": ["partial", "full"] },
                    { "label": "SSO", "marks": ["none", "full"] }
                ] }),
        ),
        (
            "matrix_marked_labels",
            json!({ "type": "slideMatrix",
                "columns": ["`serde`", "`miniserde`", "hand-written"],
                "rows": [
                    { "label": "**Derive** macros", "marks": ["full", "full", "none"] },
                    { "label": "Zero-copy", "marks": ["full", "none", "partial"] },
                    { "label": "Enums", "marks": ["full", "partial", "full"] },
                    { "label": "Compile time", "marks": ["partial", "full", "full"] }
                ],
                "highlight": 1 }),
        ),
    ]);
}

#[test]
fn renders() {
    snapshot_all(&[
        (
            "render_text_of_loose_nodes",
            json!({ "type": "slideRender", "surface": "text", "caption": "What a terminal shows",
                "body": [
                    { "type": "slideHeading", "title": "Deploys are **frozen**", "lede": "Until Monday 09:00." },
                    { "type": "slideBulletList", "marker": "x", "items": ["No schema changes", "No config pushes"] }
                ] }),
        ),
        (
            "render_markdown_of_a_framed_slide",
            json!({ "type": "slideRender", "surface": "markdown", "slide": "freeze",
                "body": [{ "type": "slideFrame", "brand": "Ops", "section": "Release", "sectionNumber": "02", "body": [
                    { "type": "slideStatement", "text": "Ship on **Tuesdays**." }
                ] }] }),
        ),
        (
            "render_slack_placeholder_reference",
            json!({ "type": "slideRender", "surface": "slack", "slide": "weekly-numbers" }),
        ),
    ]);
}

#[test]
fn render_grids() {
    let tile = |surface: &str, caption: &str| json!({ "surface": surface, "caption": caption });
    snapshot_all(&[
        (
            "render_grid_two_surfaces",
            json!({ "type": "slideRenderGrid",
                "body": [{ "type": "slideStatement", "text": "One answer, **every** surface." }],
                "tiles": [tile("snapshot", "Slide"), tile("slack", "Channel")] }),
        ),
        (
            "render_grid_four_surfaces_framed",
            json!({ "type": "slideRenderGrid",
                "body": [{ "type": "slideFrame", "brand": "Isomer", "body": [
                    { "type": "slideHeading", "title": "Latency halved" },
                    { "type": "slideStat", "value": "48", "unit": "ms", "body": "p95 after the cache" }
                ] }],
                "tiles": [tile("react", "App"), tile("html", "Email"), tile("markdown", "README"), tile("text", "Terminal")] }),
        ),
        (
            "render_grid_six_surfaces",
            json!({ "type": "slideRenderGrid",
                "body": [{ "type": "slideList", "label": "Checks", "items": [
                    { "term": "schema", "body": "Fields and types" },
                    { "term": "rules", "body": "Cross-field refinements" }
                ] }],
                "tiles": [
                    tile("react", "React"), tile("html", "HTML"), tile("snapshot", "PNG"),
                    tile("markdown", "Markdown"), tile("text", "Text"), tile("slack", "Slack")
                ] }),
        ),
    ]);
}

#[test]
fn annotated_renders() {
    let pin = |x: u32, y: u32, title: &str, body: &str| json!({ "x": x, "y": y, "title": title, "body": body });
    snapshot_all(&[
        (
            "annotated_render_of_a_slide",
            json!({ "type": "slideAnnotatedRender",
                "render": { "type": "slideRender", "surface": "snapshot", "slide": "pricing",
                    "body": [{ "type": "slideFrame", "brand": "Acme", "url": "https://acme.example/pricing", "body": [
                        { "type": "slideHeading", "title": "Two plans, no surprises" },
                        { "type": "slideColumns", "items": [
                            { "title": "Free", "body": "Up to three projects." },
                            { "title": "Team", "body": "Unlimited projects, SSO." }
                        ] }
                    ] }] },
                "pins": [
                    pin(10, 12, "Claim", "One sentence, read first."),
                    pin(50, 60, "Options", "Each plan in **one** line."),
                    pin(85, 95, "Footer", "Brand and URL on every slide.")
                ] }),
        ),
        (
            "annotated_render_of_slack_output",
            json!({ "type": "slideAnnotatedRender",
                "render": { "type": "slideRender", "surface": "slack", "caption": "#ops",
                    "body": [{ "type": "slideStat", "value": "3", "body": "failed deploys this week" }] },
                "pins": [pin(5, 40, "Value", "Bold in mrkdwn.")] }),
        ),
        (
            "annotated_render_six_pins",
            json!({ "type": "slideAnnotatedRender",
                "render": { "type": "slideRender", "surface": "text",
                    "body": [{ "type": "slideAgenda", "sections": [
                        { "number": "01", "title": "Why", "count": "3 slides" },
                        { "number": "02", "title": "How", "count": "5 slides", "current": true }
                    ] }] },
                "pins": [
                    pin(0, 0, "Numbers", "Two digits."),
                    pin(20, 0, "Titles", "Two or three words."),
                    pin(60, 0, "Counts", "Optional."),
                    pin(60, 50, "Current", "Marked `YOU ARE HERE`."),
                    pin(100, 100, "Corner", "Pins may sit on the edge."),
                    pin(50, 50, "Centre", "Percent from the top left.")
                ] }),
        ),
    ]);
}
