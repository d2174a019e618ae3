//! The places where upstream's published output differs from the obvious
//! rendering, each pinned as an exact string on every surface it touches:
//! Slack as the serialized JSON of its blocks, key order included (never
//! compared as parsed values).
//!
//! Each test holds one rule and every example it reaches side by side (a
//! delta with and without a change, code in every code primitive and
//! container, each primitive that prints a native table), so that a fix
//! for one example cannot silently break its neighbour.

mod common;

use common::{render_node, runtime, view};
use isomer_sdk::{RenderOptions, Surface};
use serde_json::{Value, json};

fn text(node: &Value) -> String {
    render_node(Surface::Text, node)
}

fn markdown(node: &Value) -> String {
    render_node(Surface::Markdown, node)
}

/// The Slack blocks of `node` exactly as the runtime serialized them: the
/// `blocks` member of the rendered `{"text":…,"blocks":[…]}` text, cut out
/// of that text (a `"` inside the fallback text is escaped, so the first
/// `,"blocks":` is the member's own).
fn slack(node: &Value) -> String {
    let rendered = render_node(Surface::Slack, node);
    let (_, blocks) = rendered
        .split_once(r#","blocks":"#)
        .unwrap_or_else(|| panic!("no blocks in {rendered}"));
    blocks
        .strip_suffix('}')
        .unwrap_or_else(|| panic!("blocks end the message: {rendered}"))
        .to_owned()
}

/// The `text` of the first block's `mrkdwn` section.
fn section_text(node: &Value) -> String {
    let blocks: Value = serde_json::from_str(&slack(node)).expect("blocks are JSON");
    blocks[0]["text"]["text"]
        .as_str()
        .expect("a section")
        .to_owned()
}

// Rule 1: slideDelta joins `before → after`, `. `, `change: ` when there
// is a change, then the body; the no-change case keeps `. ` alone.
#[test]
fn a_delta_joins_its_change_with_a_colon_and_reads_on_without_one() {
    let change = json!({
        "type": "slideDelta",
        "before": { "label": "Old checkout", "value": "1.1s" },
        "after": { "label": "New checkout", "value": "0.3s" },
        "change": "−74%",
        "body": "Median time from **Pay** to the receipt."
    });
    let no_change = json!({
        "type": "slideDelta",
        "before": { "label": "Before the move", "value": "38" },
        "after": { "label": "After the move" },
        "body": "Tickets per thousand orders."
    });
    assert_eq!(
        text(&change),
        "OLD CHECKOUT 1.1s → NEW CHECKOUT 0.3s. −74%: Median time from Pay to the receipt."
    );
    assert_eq!(
        text(&no_change),
        "BEFORE THE MOVE 38 → AFTER THE MOVE [value pending]. Tickets per thousand orders."
    );
    assert_eq!(
        markdown(&change),
        "**OLD CHECKOUT** 1.1s → **NEW CHECKOUT** 0.3s. **−74%**: Median time from **Pay** to the receipt."
    );
    assert_eq!(
        markdown(&no_change),
        "**BEFORE THE MOVE** 38 → **AFTER THE MOVE** _value pending_. Tickets per thousand orders."
    );
    assert_eq!(
        slack(&change),
        concat!(
            r#"[{"type":"rich_text","elements":[{"type":"rich_text_section","elements":["#,
            r#"{"type":"text","text":"OLD CHECKOUT","style":{"bold":true}},{"type":"text","text":" "},"#,
            r#"{"type":"text","text":"1.1s"},{"type":"text","text":" → "},"#,
            r#"{"type":"text","text":"NEW CHECKOUT","style":{"bold":true}},{"type":"text","text":" "},"#,
            r#"{"type":"text","text":"0.3s"},{"type":"text","text":". "},"#,
            r#"{"type":"text","text":"−74%","style":{"bold":true}},{"type":"text","text":": "},"#,
            r#"{"type":"text","text":"Median time from "},{"type":"text","text":"Pay","style":{"bold":true}},"#,
            r#"{"type":"text","text":" to the receipt."}]}]}]"#
        )
    );
    assert_eq!(
        slack(&no_change),
        concat!(
            r#"[{"type":"rich_text","elements":[{"type":"rich_text_section","elements":["#,
            r#"{"type":"text","text":"BEFORE THE MOVE","style":{"bold":true}},{"type":"text","text":" "},"#,
            r#"{"type":"text","text":"38"},{"type":"text","text":" → "},"#,
            r#"{"type":"text","text":"AFTER THE MOVE","style":{"bold":true}},{"type":"text","text":" "},"#,
            r#"{"type":"text","text":"value pending","style":{"italic":true}},{"type":"text","text":". "},"#,
            r#"{"type":"text","text":"Tickets per thousand orders."}]}]}]"#
        )
    );
}

// Rule 2: a Slack `table` block lists `rows` before `column_settings`, in
// every primitive that prints one.
#[test]
fn slack_tables_list_rows_before_column_settings() {
    let bars = json!({ "type": "slideBars", "items": [
        { "label": "Web", "value": 4.2 },
        { "label": "App", "value": 3 }
    ] });
    assert_eq!(
        slack(&bars),
        concat!(
            r#"[{"type":"table","rows":["#,
            r#"[{"type":"raw_text","text":"Label"},{"type":"raw_text","text":"Value"}],"#,
            r#"[{"type":"raw_text","text":"Web"},{"type":"raw_text","text":"4.2"}],"#,
            r#"[{"type":"raw_text","text":"App"},{"type":"raw_text","text":"3"}]],"#,
            r#""column_settings":[{"is_wrapped":true},{"is_wrapped":true}]}]"#
        )
    );
    let matrix = json!({ "type": "slideMatrix", "columns": ["Card", "Bank"], "rows": [
        { "label": "Refunds", "marks": ["full", "none"] }
    ] });
    assert_eq!(
        slack(&matrix),
        concat!(
            r#"[{"type":"table","rows":["#,
            r#"[{"type":"raw_text","text":""},{"type":"raw_text","text":"Card"},{"type":"raw_text","text":"Bank"}],"#,
            r#"[{"type":"raw_text","text":"Refunds"},{"type":"raw_text","text":"Yes"},{"type":"raw_text","text":"No"}]],"#,
            r#""column_settings":[{"is_wrapped":true},{"is_wrapped":true},{"is_wrapped":true}]}]"#
        )
    );
    let table = json!({ "type": "slideTable", "columns": ["Step"], "rows": [["Cut"]] });
    assert_eq!(
        slack(&table),
        concat!(
            r#"[{"type":"table","rows":[[{"type":"raw_text","text":"STEP"}],[{"type":"raw_text","text":"Cut"}]],"#,
            r#""column_settings":[{"is_wrapped":true}]}]"#
        )
    );
}

// Rule 3: Slack code is left raw (no `&`, `<`, `>` escaping) and only a run
// of three backticks is broken (`` ``\u{200d}` ``), in slideCode,
// slideDiff, and code nested in a split or a stack.
#[test]
fn slack_code_is_raw_and_only_triple_backticks_are_broken() {
    let code = json!({ "type": "slideCode", "panels": [{ "file": "a.ts", "lines": [
        "const f = (a) => a && b < c;",
        "`x` and ```sh"
    ] }] });
    assert_eq!(
        slack(&code),
        concat!(
            r#"[{"type":"section","text":{"type":"mrkdwn","text":"a.ts\n```\n"#,
            // The zero-width joiner is written as is (JSON needs no escape).
            "const f = (a) => a && b < c;\\n`x` and ``\u{200d}`sh\\n```\"}}]"
        )
    );
    let diff = json!({ "type": "slideDiff", "lines": [
        { "text": "x => y", "op": "remove" },
        { "text": "x => z & w", "op": "add" }
    ] });
    assert_eq!(
        slack(&diff),
        r#"[{"type":"section","text":{"type":"mrkdwn","text":"```\n-x => y\n+x => z & w\n```"}}]"#
    );
    let stack = json!({ "type": "slideStack", "items": [code] });
    assert_eq!(
        section_text(&stack),
        "a.ts\n```\nconst f = (a) => a && b < c;\n`x` and ``\u{200d}`sh\n```"
    );
    let split =
        json!({ "type": "slideSplit", "panes": [{ "items": [diff] }, { "items": [code] }] });
    assert_eq!(section_text(&split), "```\n-x => y\n+x => z & w\n```");
    // The text and Markdown surfaces print the code as written.
    assert_eq!(text(&diff), "-x => y\n+x => z & w");
    assert_eq!(markdown(&diff), "```diff\n-x => y\n+x => z & w\n```");
}

#[test]
fn code_sits_on_its_own_lines_in_every_code_primitive_and_container() {
    let code =
        json!({ "type": "slideCode", "panels": [{ "file": "a.ts", "lines": ["a()", "b()"] }] });
    assert_eq!(section_text(&code), "a.ts\n```\na()\nb()\n```");
    let command = json!({ "type": "slideCommand", "command": "ls" });
    assert_eq!(section_text(&command), "```\nls\n```");
    let diff = json!({ "type": "slideDiff", "lines": [{ "text": "x", "op": "add" }] });
    assert_eq!(section_text(&diff), "```\n+x\n```");
    let transcript = json!({ "type": "slideTranscript", "turns": [{ "role": "model", "format": "code", "text": "{}" }] });
    assert_eq!(section_text(&transcript), "*MODEL*\n```\n{}\n```");
    let stack = json!({ "type": "slideStack", "items": [command] });
    assert_eq!(section_text(&stack), "```\nls\n```");
    let split =
        json!({ "type": "slideSplit", "panes": [{ "items": [code] }, { "items": [diff] }] });
    let split: Value = serde_json::from_str(&slack(&split)).expect("blocks are JSON");
    assert_eq!(split[0]["text"]["text"], "a.ts\n```\na()\nb()\n```");
    assert_eq!(split[2]["text"]["text"], "```\n+x\n```");
}

// Rule 4: slideCommand's label is upper-cased on every surface, and bold
// on Markdown and Slack.
#[test]
fn a_command_label_is_upper_case_and_bold_on_slack_too() {
    let node =
        json!({ "type": "slideCommand", "label": "Start the local store", "command": "ledger up" });
    assert_eq!(text(&node), "START THE LOCAL STORE\n$ ledger up");
    assert_eq!(
        markdown(&node),
        "**START THE LOCAL STORE**\n\n```sh\nledger up\n```"
    );
    assert_eq!(
        slack(&node),
        r#"[{"type":"section","text":{"type":"mrkdwn","text":"*START THE LOCAL STORE*\n```\nledger up\n```"}}]"#
    );
}

// Rule 5: slideTable upper-cases its heads, its group labels and its
// caption on every surface; a group label widens no column.
#[test]
fn a_table_upper_cases_heads_group_labels_and_caption_on_every_surface() {
    let node = json!({
        "type": "slideTable", "label": "By region", "columns": ["Bank", "Cut-off"],
        "groups": [{ "label": "Europe and the UK", "rows": [["Alpha", "4.2"]] }]
    });
    assert_eq!(
        text(&node),
        "BY REGION\nBANK   CUT-OFF\n-----  -------\nEUROPE AND THE UK\nAlpha  4.2"
    );
    assert_eq!(
        markdown(&node),
        "**BY REGION**\n\n**EUROPE AND THE UK**\n\n| BANK | CUT-OFF |\n| - | - |\n| Alpha | 4.2 |"
    );
    assert_eq!(
        slack(&node),
        concat!(
            r#"[{"type":"context","elements":[{"type":"mrkdwn","text":"*BY REGION*"}]},"#,
            r#"{"type":"table","rows":["#,
            r#"[{"type":"raw_text","text":"BANK"},{"type":"raw_text","text":"CUT-OFF"}],"#,
            r#"[{"type":"rich_text","elements":[{"type":"rich_text_section","elements":[{"type":"text","text":"EUROPE AND THE UK","style":{"bold":true}}]}]},{"type":"raw_text","text":""}],"#,
            r#"[{"type":"raw_text","text":"Alpha"},{"type":"raw_text","text":"4.2"}]],"#,
            r#""column_settings":[{"is_wrapped":true},{"is_wrapped":true}]}]"#
        )
    );
}

fn quadrant(items: Vec<String>) -> Value {
    json!({
        "type": "slideQuadrant",
        "x": { "low": "Easy", "high": "Hard" },
        "y": { "low": "Minor", "high": "Major" },
        "quadrants": [
            { "label": "Quick wins", "items": items },
            { "label": "Big bets", "items": ["same-day"] },
            { "label": "Fill-ins", "items": [] },
            { "label": "Money pits", "items": ["own fleet"] }
        ],
        "highlight": 0
    })
}

// Rule 6: slideQuadrant upper-cases its axis ends; on Slack each quadrant
// is one mrkdwn field, and the quadrants fall back to a rich text list only
// past Slack's field limits.
#[test]
fn quadrant_axis_ends_are_upper_case_and_quadrants_are_slack_fields() {
    let node = quadrant(vec!["dark mode".into(), "saved carts".into()]);
    assert_eq!(
        text(&node),
        "y: MINOR → MAJOR · x: EASY → HARD\n\
         ● Quick wins (Major, Easy): dark mode, saved carts\n\
         Big bets (Major, Hard): same-day\n\
         Fill-ins (Minor, Easy)\n\
         Money pits (Minor, Hard): own fleet"
    );
    assert_eq!(
        markdown(&node),
        "y: MINOR → MAJOR · x: EASY → HARD\n\n\
         - **● Quick wins** (Major, Easy): dark mode, saved carts\n\
         - **Big bets** (Major, Hard): same-day\n\
         - **Fill-ins** (Minor, Easy)\n\
         - **Money pits** (Minor, Hard): own fleet"
    );
    assert_eq!(
        slack(&node),
        concat!(
            r#"[{"type":"context","elements":[{"type":"mrkdwn","text":"y: MINOR → MAJOR · x: EASY → HARD"}]},"#,
            r#"{"type":"section","fields":["#,
            r#"{"type":"mrkdwn","text":"*● Quick wins* (Major, Easy): dark mode, saved carts"},"#,
            r#"{"type":"mrkdwn","text":"*Big bets* (Major, Hard): same-day"},"#,
            r#"{"type":"mrkdwn","text":"*Fill-ins* (Minor, Easy)"},"#,
            r#"{"type":"mrkdwn","text":"*Money pits* (Minor, Hard): own fleet"}]}]"#
        )
    );
    // `*● Quick wins* (Major, Easy): ` is 30 long (the glyph counts 1):
    // an item of 1,970 fills the field to Slack's 2,000 exactly.
    let at_limit = quadrant(vec!["x".repeat(1970)]);
    let blocks: Value = serde_json::from_str(&slack(&at_limit)).expect("blocks are JSON");
    assert_eq!(blocks[1]["type"], "section");
    assert_eq!(
        blocks[1]["fields"][0]["text"],
        format!("*● Quick wins* (Major, Easy): {}", "x".repeat(1970))
    );
    let past = quadrant(vec!["x".repeat(1971)]);
    let blocks: Value = serde_json::from_str(&slack(&past)).expect("blocks are JSON");
    assert_eq!(blocks[1]["type"], "rich_text");
    assert_eq!(
        serde_json::to_string(&blocks[1]["elements"][0]["elements"][0]).expect("serializes"),
        format!(
            r#"{{"type":"rich_text_section","elements":[{{"type":"text","text":"● Quick wins","style":{{"bold":true}}}},{{"type":"text","text":" (Major, Easy): {}"}}]}}"#,
            "x".repeat(1971)
        )
    );
}

// Rule 7: slideTree draws `├─ ` and `└─ ` (two characters, then one
// space); Slack prints the drawing as `rich_text_preformatted`.
#[test]
fn a_tree_draws_short_connectors_and_is_preformatted_on_slack() {
    let node = json!({ "type": "slideTree", "root": "runbooks/", "entries": [
        { "name": "failover.md", "body": "Move traffic to the standby" },
        { "name": "dns/", "body": "Records & TTLs" }
    ] });
    let drawing =
        "runbooks/\n├─ failover.md  Move traffic to the standby\n└─ dns/         Records & TTLs";
    assert_eq!(text(&node), drawing);
    assert_eq!(markdown(&node), format!("```text\n{drawing}\n```"));
    assert_eq!(
        slack(&node),
        concat!(
            r#"[{"type":"rich_text","elements":[{"type":"rich_text_preformatted","elements":[{"type":"text","text":"#,
            r#""runbooks/\n├─ failover.md  Move traffic to the standby\n└─ dns/         Records & TTLs"}]}]}]"#
        )
    );
}

// Rule 8: slideLayers joins its chips with `, ` on every surface; on Slack
// the tone cue is a plain run of its own before the italic owner.
#[test]
fn layer_chips_join_with_commas_and_the_tone_cue_is_its_own_slack_run() {
    let node = json!({ "type": "slideLayers", "layers": [
        { "name": "Apps", "chips": ["ios", "android", "web"], "owner": "Client team", "tone": "primary" },
        { "name": "Data", "body": "Orders and **slots**", "owner": "Data team" },
        { "name": "Cloud", "body": "Compute", "owner": "Provider", "tone": "accent" }
    ] });
    assert_eq!(
        text(&node),
        "Apps — ios, android, web · ● CLIENT TEAM\n\
         Data — Orders and slots · DATA TEAM\n\
         Cloud — Compute · ○ PROVIDER"
    );
    assert_eq!(
        markdown(&node),
        "1. **Apps** — `ios`, `android`, `web` · ● _CLIENT TEAM_\n\
         2. **Data** — Orders and **slots** · _DATA TEAM_\n\
         3. **Cloud** — Compute · ○ _PROVIDER_"
    );
    assert_eq!(
        slack(&node),
        concat!(
            r#"[{"type":"rich_text","elements":[{"type":"rich_text_list","style":"ordered","elements":["#,
            r#"{"type":"rich_text_section","elements":["#,
            r#"{"type":"text","text":"Apps","style":{"bold":true}},{"type":"text","text":" — "},"#,
            r#"{"type":"text","text":"ios","style":{"code":true}},{"type":"text","text":", "},"#,
            r#"{"type":"text","text":"android","style":{"code":true}},{"type":"text","text":", "},"#,
            r#"{"type":"text","text":"web","style":{"code":true}},{"type":"text","text":" · "},"#,
            r#"{"type":"text","text":"● "},{"type":"text","text":"CLIENT TEAM","style":{"italic":true}}]},"#,
            r#"{"type":"rich_text_section","elements":["#,
            r#"{"type":"text","text":"Data","style":{"bold":true}},{"type":"text","text":" — "},"#,
            r#"{"type":"text","text":"Orders and "},{"type":"text","text":"slots","style":{"bold":true}},"#,
            r#"{"type":"text","text":" · "},{"type":"text","text":"DATA TEAM","style":{"italic":true}}]},"#,
            r#"{"type":"rich_text_section","elements":["#,
            r#"{"type":"text","text":"Cloud","style":{"bold":true}},{"type":"text","text":" — "},"#,
            r#"{"type":"text","text":"Compute"},{"type":"text","text":" · "},"#,
            r#"{"type":"text","text":"○ "},{"type":"text","text":"PROVIDER","style":{"italic":true}}]}]}]}]"#
        )
    );
}

// Rule 9: slideMatrix's highlighted column head is bold on Markdown and a
// bold rich text cell on Slack (the text surface marks it with `● ` only);
// a matrix without a highlight has no bold head.
#[test]
fn the_highlighted_matrix_head_is_bold_on_markdown_and_slack() {
    let highlighted = json!({ "type": "slideMatrix", "columns": ["Basic", "Plus"], "highlight": 1, "rows": [
        { "label": "Free delivery", "marks": ["none", "full"] }
    ] });
    let plain = json!({ "type": "slideMatrix", "columns": ["Basic", "Plus"], "rows": [
        { "label": "Free delivery", "marks": ["none", "full"] }
    ] });
    assert_eq!(
        text(&highlighted),
        "               Basic  ● Plus\n-------------  -----  ------\nFree delivery  No     Yes"
    );
    assert_eq!(
        markdown(&highlighted).lines().next(),
        Some("| | Basic | **● Plus** |")
    );
    assert_eq!(markdown(&plain).lines().next(), Some("| | Basic | Plus |"));
    assert_eq!(
        slack(&highlighted),
        concat!(
            r#"[{"type":"table","rows":["#,
            r#"[{"type":"raw_text","text":""},{"type":"raw_text","text":"Basic"},"#,
            r#"{"type":"rich_text","elements":[{"type":"rich_text_section","elements":[{"type":"text","text":"● Plus","style":{"bold":true}}]}]}],"#,
            r#"[{"type":"raw_text","text":"Free delivery"},{"type":"raw_text","text":"No"},{"type":"raw_text","text":"Yes"}]],"#,
            r#""column_settings":[{"is_wrapped":true},{"is_wrapped":true},{"is_wrapped":true}]}]"#
        )
    );
}

// Rule 10: a pipeline span's steps and their `: ` are one Slack run, for
// a one-step span and a span over several steps alike.
#[test]
fn a_span_and_its_colon_are_one_slack_run() {
    let node = json!({
        "type": "slidePipeline",
        "steps": [{ "title": "Picker" }, { "title": "Packing" }, { "title": "Van" }],
        "spans": [
            { "from": 0, "to": 1, "tone": "primary", "label": "Warehouse", "title": "Pick", "body": "Shelves." },
            { "from": 2, "to": 2, "tone": "accent", "label": "Courier", "title": "Drive", "body": "Vans." }
        ]
    });
    assert_eq!(
        text(&node),
        "Picker → Packing → Van\n● WAREHOUSE (Picker → Packing): Pick — Shelves.\n○ COURIER (Van): Drive — Vans."
    );
    assert_eq!(
        slack(&node),
        concat!(
            r#"[{"type":"context","elements":[{"type":"mrkdwn","text":"Picker → Packing → Van"}]},"#,
            r#"{"type":"rich_text","elements":[{"type":"rich_text_list","style":"bullet","elements":["#,
            r#"{"type":"rich_text_section","elements":[{"type":"text","text":"● "},"#,
            r#"{"type":"text","text":"WAREHOUSE","style":{"bold":true}},{"type":"text","text":" (Picker → Packing): "},"#,
            r#"{"type":"text","text":"Pick"},{"type":"text","text":" — "},{"type":"text","text":"Shelves."}]},"#,
            r#"{"type":"rich_text_section","elements":[{"type":"text","text":"○ "},"#,
            r#"{"type":"text","text":"COURIER","style":{"bold":true}},{"type":"text","text":" (Van): "},"#,
            r#"{"type":"text","text":"Drive"},{"type":"text","text":" — "},{"type":"text","text":"Vans."}]}]}]}]"#
        )
    );
}

// Rule 11: a roadmap item's title is one bold Slack run per authored mark
// segment; neighbours of the same style are not merged.
#[test]
fn a_roadmap_title_keeps_one_slack_run_per_mark_segment() {
    let node = json!({ "type": "slideRoadmap", "columns": [{
        "title": "Now", "status": "Shipped", "current": true,
        "items": [
            { "title": "**Search** rewrite", "body": "Answers in `200 ms`." },
            { "title": "Saved filters", "body": "Kept across sessions." }
        ]
    }, {
        "title": "Next", "status": "Planned",
        "items": [{ "title": "`v2` API", "body": "Streams." }]
    }] });
    assert_eq!(
        text(&node),
        "● Now · SHIPPED\n- Search rewrite: Answers in 200 ms.\n- Saved filters: Kept across sessions.\n\n\
         Next · PLANNED\n- v2 API: Streams."
    );
    assert_eq!(
        slack(&node),
        concat!(
            r#"[{"type":"rich_text","elements":["#,
            r#"{"type":"rich_text_section","elements":[{"type":"text","text":"● Now · SHIPPED","style":{"bold":true}}]},"#,
            r#"{"type":"rich_text_list","style":"bullet","elements":["#,
            r#"{"type":"rich_text_section","elements":["#,
            r#"{"type":"text","text":"Search","style":{"bold":true}},{"type":"text","text":" rewrite","style":{"bold":true}},"#,
            r#"{"type":"text","text":": "},{"type":"text","text":"Answers in "},"#,
            r#"{"type":"text","text":"200 ms","style":{"code":true}},{"type":"text","text":"."}]},"#,
            r#"{"type":"rich_text_section","elements":["#,
            r#"{"type":"text","text":"Saved filters","style":{"bold":true}},{"type":"text","text":": "},"#,
            r#"{"type":"text","text":"Kept across sessions."}]}]}]},"#,
            r#"{"type":"section","text":{"type":"mrkdwn","text":" "}},"#,
            r#"{"type":"rich_text","elements":["#,
            r#"{"type":"rich_text_section","elements":[{"type":"text","text":"Next · PLANNED","style":{"bold":true}}]},"#,
            r#"{"type":"rich_text_list","style":"bullet","elements":["#,
            r#"{"type":"rich_text_section","elements":["#,
            r#"{"type":"text","text":"v2","style":{"bold":true,"code":true}},{"type":"text","text":" API","style":{"bold":true}},"#,
            r#"{"type":"text","text":": "},{"type":"text","text":"Streams."}]}]}]}]"#
        )
    );
}

#[test]
fn diff_lines_carry_a_one_character_marker_column() {
    let node = json!({ "type": "slideDiff", "lines": [
        { "text": "checkout:" },
        { "text": "  timeout: 30s", "op": "remove" },
        { "text": "  timeout: 90s", "op": "add" },
        { "text": "" }
    ] });
    assert_eq!(
        text(&node),
        " checkout:\n-  timeout: 30s\n+  timeout: 90s\n "
    );
    assert_eq!(
        markdown(&node),
        "```diff\n checkout:\n-  timeout: 30s\n+  timeout: 90s\n \n```"
    );
}

#[test]
fn a_missing_value_is_pending() {
    let stat = json!({ "type": "slideStat", "body": "partners" });
    assert_eq!(text(&stat), "[value pending] — partners");
    assert_eq!(markdown(&stat), "_value pending_ — partners");
}

#[test]
fn the_title_eyebrow_keeps_its_case_on_slack_only() {
    let node =
        json!({ "type": "slideTitle", "eyebrow": "A grocery delivery platform", "title": "Crate" });
    assert_eq!(text(&node), "A GROCERY DELIVERY PLATFORM\nCrate");
    let blocks: Value = serde_json::from_str(&slack(&node)).expect("blocks are JSON");
    assert_eq!(
        blocks[1]["elements"][0]["text"],
        "*A grocery delivery platform*"
    );
}

#[test]
fn bars_bold_the_highlighted_row_in_markdown_and_slack() {
    let node = json!({ "type": "slideBars", "items": [
        { "label": "Web", "value": 4.2 },
        { "label": "App", "value": 3, "highlight": true }
    ] });
    assert_eq!(
        markdown(&node),
        "| Label | Value |\n| - | - |\n| Web | 4.2 |\n| **● App** | **3** |"
    );
    assert_eq!(
        slack(&node),
        concat!(
            r#"[{"type":"table","rows":["#,
            r#"[{"type":"raw_text","text":"Label"},{"type":"raw_text","text":"Value"}],"#,
            r#"[{"type":"raw_text","text":"Web"},{"type":"raw_text","text":"4.2"}],"#,
            r#"[{"type":"rich_text","elements":[{"type":"rich_text_section","elements":[{"type":"text","text":"● App","style":{"bold":true}}]}]},"#,
            r#"{"type":"rich_text","elements":[{"type":"rich_text_section","elements":[{"type":"text","text":"3","style":{"bold":true}}]}]}]],"#,
            r#""column_settings":[{"is_wrapped":true},{"is_wrapped":true}]}]"#
        )
    );
}

#[test]
fn stats_fields_read_figure_label_and_body_on_one_line() {
    let node = json!({ "type": "slideStats", "items": [
        { "value": "3", "label": "Regions", "body": "settle nightly" },
        { "label": "Partners", "body": "later" }
    ] });
    assert_eq!(
        slack(&node),
        concat!(
            r#"[{"type":"section","fields":["#,
            r#"{"type":"mrkdwn","text":"*3* Regions: settle nightly"},"#,
            r#"{"type":"mrkdwn","text":"_value pending_ Partners: later"}]}]"#
        )
    );
}

#[test]
fn the_slack_fallback_text_escapes_what_the_blocks_escape() {
    let node =
        json!({ "type": "slideSource", "text": "<!channel> & <@U123> <javascript:alert(1)|x>" });
    let rendered = runtime()
        .render_slack(view(node), &RenderOptions::default())
        .expect("renders");
    assert_eq!(
        rendered.text,
        "Source · &lt;!channel&gt; &amp; &lt;@U123&gt; &lt;javascript:alert(1)|x&gt;"
    );
    assert_eq!(
        rendered.blocks[0]["elements"][0]["text"],
        "Source · &lt;!channel&gt; &amp; &lt;@U123&gt; &lt;javascript:alert(1)|x&gt;"
    );
}
