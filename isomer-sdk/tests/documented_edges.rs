//! What the README and the rustdoc promise, at the edges of the input: the
//! props and type cap of `describe_primitives`, the `html` options `framed`,
//! `fluid` and `minify`, the Slack table character budget, and the Markdown
//! builder's hard breaks, autolinks, marks, tables and headings. Each test
//! states the promise it checks.

mod common;

use isomer_sdk::catalog::{PropDescriptor, PropKind};
use isomer_sdk::surface::slack::SLACK_TABLE_CHARACTER_BUDGET;
use isomer_sdk::{Html, Inline, IsomerError, Markdown, Pack, Primitive, RenderOptions, Runtime};
use serde_json::{Value, json};

/// A primitive over a hand-written schema (`schema_json`), rendering `x`.
fn schema_primitive(name: &str, schema: Value) -> Primitive {
    Primitive::builder::<Value>(name)
        .schema_json(schema)
        .purpose("A probe.")
        .example(json!({ "type": name }))
        .text(|_, _| "x".to_owned())
        .markdown(|_, _| Markdown::paragraph("x"))
        .build()
        .expect("the probe primitive builds")
}

fn runtime_of(primitives: Vec<Primitive>) -> Runtime {
    let mut pack = Pack::new("probe");
    for primitive in primitives {
        pack = pack.primitive(primitive);
    }
    Runtime::builder()
        .pack(pack.build().expect("the probe pack builds"))
        .build()
        .expect("the probe runtime builds")
}

/// `(name, type, kind)` of each described field of `type_name`.
fn fields(runtime: &Runtime, type_name: &str) -> Vec<(String, String, PropKind)> {
    let described = runtime
        .describe_primitives(&[type_name])
        .expect("the type is known");
    described
        .props
        .get(type_name)
        .expect("props hold every described type")
        .iter()
        .map(
            |PropDescriptor {
                 name,
                 type_name,
                 kind,
                 ..
             }| (name.clone(), type_name.clone(), *kind),
        )
        .collect()
}

fn field(name: &str, display: &str, kind: PropKind) -> (String, String, PropKind) {
    (name.to_owned(), display.to_owned(), kind)
}

// ---------------------------------------------------------------------
// describe_primitives
// ---------------------------------------------------------------------

/// Doc: "types deduplicated in first-seen order"; nothing says zero types
/// are refused, so an empty lookup is an empty answer.
#[test]
fn describing_no_types_is_an_empty_answer() {
    let described = common::runtime()
        .describe_primitives(&[])
        .expect("no types is fine");
    assert_eq!(
        serde_json::to_value(&described).unwrap(),
        json!({ "primitives": [], "schema": { "$defs": {} }, "props": {} })
    );
}

/// Doc: the cap counts distinct types ("repeats of a type count once") and
/// is checked first; then every unknown type is named. A hundred copies of
/// one type plus one unknown are two distinct types: the unknown is named.
#[test]
fn a_hundred_repeats_and_one_unknown_type_name_the_unknown_one() {
    let mut types = vec!["note"; 100];
    types.push("sparkline");
    let error = common::runtime().describe_primitives(&types).unwrap_err();
    assert_eq!(
        error,
        IsomerError::UnknownPrimitiveType {
            context: "getAuthoringContext.describePrimitives".into(),
            types: vec!["sparkline".into()],
        }
    );
    assert_eq!(
        error.to_string(),
        "getAuthoringContext.describePrimitives: unknown primitive type(s) \"sparkline\""
    );
}

/// Names that are schema words, not primitives, are unknown types (the
/// lookup is by primitive, not by authoring-schema def).
#[test]
fn schema_words_and_near_misses_are_unknown_types() {
    let runtime = common::runtime();
    for name in [
        "",
        "bodyNode",
        "view",
        "__proto__",
        "note ",
        "NOTE",
        "$defs",
        "Layout",
    ] {
        assert_eq!(
            runtime.describe_primitives(&[name]).unwrap_err(),
            IsomerError::UnknownPrimitiveType {
                context: "getAuthoringContext.describePrimitives".into(),
                types: vec![name.to_owned()],
            },
            "{name:?}"
        );
    }
}

/// The module table of `schema::describe`: unions join their displays,
/// `$ref` cycles end as `unknown`, any object schema is `object`, odd
/// property names are kept as they are, a boolean schema says nothing.
#[test]
fn hostile_field_schemas_read_as_the_table_says() {
    let runtime = runtime_of(vec![schema_primitive(
        "probe",
        json!({
            "type": "object",
            "properties": {
                "one": { "oneOf": [ { "type": "object", "properties": { "a": { "type": "string" } } }, { "type": "string" } ] },
                "cycle": { "$ref": "#/$defs/Ping" },
                "patterned": { "type": "object", "patternProperties": { "^x": { "type": "string" } } },
                "open": { "type": "object", "additionalProperties": { "type": "number" } },
                "quoted": { "enum": ["a\"b", "c|d", "</script>"] },
                "mixed": { "enum": ["a", null, 1] },
                "a b": { "type": "string" },
                "": { "type": "boolean" },
                "anything": true,
                "pair": { "type": "array", "prefixItems": [ { "type": "string" } ], "items": false },
                "either": { "type": ["string", "array"], "items": { "type": "number" } },
                "root": { "$ref": "#" }
            },
            "$defs": {
                "Ping": { "$ref": "#/$defs/Pong" },
                "Pong": { "$ref": "#/$defs/Ping" }
            }
        }),
    )]);
    use PropKind::*;
    assert_eq!(
        fields(&runtime, "probe"),
        vec![
            field("one", "object | string", Other),
            field("cycle", "unknown", Other),
            field("patterned", "object", Object),
            field("open", "object", Object),
            field("quoted", "\"a\\\"b\" | \"c|d\" | \"</script>\"", Enum),
            field("mixed", "\"a\" | 1", Other),
            field("a b", "string", String),
            field("", "boolean", Boolean),
            field("anything", "unknown", Other),
            field("pair", "[string]", Array),
            field("either", "string | number[]", Other),
            field("root", "unknown", Other),
        ]
    );
}

/// Doc (`PropDescriptor::type_name`): TypeScript-style, and
/// `{"type": "null"}` / `{"const": null}` read `null`. `{"enum": [null]}`
/// admits exactly the same value, but read as the empty string `""`, which
/// is no type at all.
#[test]
fn an_enum_of_only_null_reads_null() {
    let runtime = runtime_of(vec![schema_primitive(
        "probe",
        json!({
            "type": "object",
            "properties": {
                "a": { "enum": [null] },
                "b": { "const": null },
                "c": { "type": "null" }
            }
        }),
    )]);
    use PropKind::*;
    assert_eq!(
        fields(&runtime, "probe"),
        vec![
            field("a", "null", Other),
            field("b", "null", Other),
            field("c", "null", Other),
        ]
    );
}

/// The module table lists no `allOf` row: an `allOf` of one schema reads as
/// that schema, any longer `allOf` says `unknown` (now in the table).
#[test]
fn all_of_reads_its_only_part_or_unknown() {
    let runtime = runtime_of(vec![schema_primitive(
        "probe",
        json!({
            "type": "object",
            "properties": {
                "one": { "allOf": [ { "type": "string" } ] },
                "two": { "allOf": [ { "type": "string" }, { "minLength": 1 } ] }
            }
        }),
    )]);
    assert_eq!(
        fields(&runtime, "probe"),
        vec![
            field("one", "string", PropKind::String),
            field("two", "unknown", PropKind::Other),
        ]
    );
}

// ---------------------------------------------------------------------
// html: framed / fluid / minify
// ---------------------------------------------------------------------

/// A node whose `html` renderer nests a `pre` two levels down, with
/// formatting newlines inside and around it, and the authored `t` twice.
fn deep_pre() -> Primitive {
    Primitive::builder::<Value>("deep")
        .schema_json(json!({ "type": "object", "properties": { "t": { "type": "string" } } }))
        .purpose("A probe.")
        .example(json!({ "type": "deep" }))
        .text(|_, _| "x".to_owned())
        .markdown(|_, _| Markdown::paragraph("x"))
        .html(|node, _| {
            let t = node["t"].as_str().unwrap_or("");
            let code = Html::element(
                "code",
                &[],
                Html::concat([
                    Html::text(t),
                    Html::newline(),
                    Html::element("span", &[], Html::newline()),
                ]),
            );
            let pre = Html::element(
                "pre",
                &[],
                Html::concat([Html::newline(), code, Html::newline()]),
            );
            let figure = Html::element(
                "figure",
                &[],
                Html::concat([Html::newline(), pre, Html::newline()]),
            );
            Html::element(
                "div",
                &[],
                Html::concat([
                    Html::newline(),
                    figure,
                    Html::newline(),
                    Html::text(t),
                    Html::newline(),
                ]),
            )
        })
        .build()
        .expect("deep builds")
}

/// Doc (`RenderOptions::minify`): drops the formatting newlines between
/// tags; "text content and `pre` contents keep every character", however
/// deep the `pre`. Authored `</section>` stays escaped in the title, the
/// aria-label and the body.
#[test]
fn minify_keeps_a_deep_pre_and_escapes_a_closing_section() {
    let runtime = runtime_of(vec![deep_pre()]);
    let view = json!({ "type": "view", "title": "</section><script>x</script>",
        "body": [ { "type": "deep", "t": "a\n</section>\n<pre>&amp;" } ] });
    let head = "<section class=\"isomer framed fluid\" role=\"group\" aria-label=\"&lt;/section&gt;&lt;script&gt;x&lt;/script&gt;\">\
<div><h2>&lt;/section&gt;&lt;script&gt;x&lt;/script&gt;</h2>";
    let pre =
        "<pre>\n<code>a\n&lt;/section&gt;\n&lt;pre&gt;&amp;amp;\n<span>\n</span></code>\n</pre>";
    let text = "a\n&lt;/section&gt;\n&lt;pre&gt;&amp;amp;";
    let render = |minify| {
        let options = RenderOptions {
            framed: true,
            fluid: true,
            minify,
            ..RenderOptions::default()
        };
        runtime
            .render_html(&view, &options)
            .unwrap()
            .html_without_style()
    };
    assert_eq!(
        render(false),
        format!("{head}<div>\n<figure>\n{pre}\n</figure>\n{text}\n</div></div></section>")
    );
    assert_eq!(
        render(true),
        format!("{head}<div><figure>{pre}</figure>{text}</div></div></section>")
    );
}

// ---------------------------------------------------------------------
// Slack table character budget
// ---------------------------------------------------------------------

/// One native `table` block of `raw_text` cells, the authored rows as
/// they are.
fn grid() -> Primitive {
    Primitive::builder::<Value>("grid")
        .schema_json(json!({ "type": "object", "properties": {
            "rows": { "type": "array", "items": { "type": "array", "items": { "type": "string" } } }
        }, "required": ["rows"] }))
        .purpose("A probe.")
        .example(json!({ "type": "grid", "rows": [["a"]] }))
        .text(|_, _| "x".to_owned())
        .markdown(|_, _| Markdown::paragraph("x"))
        .slack(|node, _| {
            let rows: Vec<Value> = node["rows"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|row| {
                    row.as_array()
                        .into_iter()
                        .flatten()
                        .map(|cell| json!({ "type": "raw_text", "text": cell }))
                        .collect()
                })
                .collect();
            vec![json!({ "type": "table", "rows": rows })]
        })
        .build()
        .expect("grid builds")
}

fn slack_blocks(runtime: &Runtime, body: Value) -> Vec<Value> {
    runtime
        .render_slack(
            &json!({ "type": "view", "body": body }),
            &RenderOptions::default(),
        )
        .expect("the view renders")
        .blocks
}

/// Doc (`SLACK_TABLE_CHARACTER_BUDGET`): counted in Unicode scalar values
/// (`chars()`), header row included. An emoji with a skin tone is two
/// scalars, an `e` with a combining accent two, a Hebrew letter one:
/// exactly the budget stays native, one more scalar degrades.
#[test]
fn the_table_budget_counts_scalar_values_of_emoji_marks_and_rtl_text() {
    let runtime = runtime_of(vec![grid()]);
    let per_cell = "👍🏽e\u{301}א"; // 2 + 2 + 1 = 5 scalars
    assert_eq!(per_cell.chars().count(), 5);
    let cells = SLACK_TABLE_CHARACTER_BUDGET / 5;
    let row: Vec<&str> = vec![per_cell; cells];
    let exact = slack_blocks(&runtime, json!([{ "type": "grid", "rows": [row] }]));
    assert_eq!(exact.len(), 1);
    assert_eq!(exact[0]["type"], "table");
    let over = slack_blocks(&runtime, json!([{ "type": "grid", "rows": [row, ["x"]] }]));
    assert_eq!(over.len(), 1);
    assert_eq!(over[0]["type"], "rich_text");
}

/// Doc (`table_lines`): bold heading run, then `": "` and the cell as
/// plain text. `rich_text` text is not mrkdwn, so `*`, `_`, `<`, `>`, `&`
/// and a right-to-left mark are kept verbatim, neither escaped nor lost.
#[test]
fn a_degraded_table_keeps_markup_characters_verbatim() {
    let runtime = runtime_of(vec![grid()]);
    let big = "x".repeat(SLACK_TABLE_CHARACTER_BUDGET);
    let blocks = slack_blocks(
        &runtime,
        json!([
            { "type": "grid", "rows": [[big]] },
            { "type": "grid", "rows": [["*k*", "<v>"], ["_a_ & b", "\u{200F}שלום"]] }
        ]),
    );
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[0]["type"], "table");
    // The rhythm's spacer between two content blocks.
    assert_eq!(
        blocks[1],
        json!({ "type": "section", "text": { "type": "mrkdwn", "text": " " } })
    );
    assert_eq!(
        blocks[2],
        json!({ "type": "rich_text", "elements": [ { "type": "rich_text_section", "elements": [
            { "type": "text", "text": "*k*", "style": { "bold": true } },
            { "type": "text", "text": ": _a_ & b · " },
            { "type": "text", "text": "<v>", "style": { "bold": true } },
            { "type": "text", "text": ": \u{200F}שלום" }
        ] } ] })
    );
}

// ---------------------------------------------------------------------
// Markdown builder: hard breaks
// ---------------------------------------------------------------------

fn hb() -> Inline {
    Inline::hard_break()
}

/// Doc (`Inline::hard_break`): "Every line after a break gets the same
/// block-opener escaping as a block's first line". A list marker may be
/// followed by a tab as well as a space, and `-- -` is a thematic break;
/// both opened a block, after a break and at a block's start.
#[test]
fn list_markers_with_a_tab_and_spaced_rules_stay_text() {
    assert_eq!(
        Markdown::paragraph(Inline::lines(["a", "-\tb", "+\tc", "-- -", "- -\t-"])).to_markdown(),
        "a\\\n\\-\tb\\\n\\+\tc\\\n\\-- -\\\n\\- -\t-"
    );
    assert_eq!(Markdown::paragraph("-\tb").to_markdown(), "\\-\tb");
    assert_eq!(Markdown::paragraph("-- -").to_markdown(), "\\-- -");
    // Unchanged: a hyphen that opens nothing.
    assert_eq!(Markdown::paragraph("-x").to_markdown(), "-x");
    assert_eq!(Markdown::paragraph("-- x").to_markdown(), "-- x");
}

/// Doc (`Inline::hard_break`): in a heading a break "becomes one space".
/// A `#` after that space closed the ATX heading and vanished (`## a #`
/// shows `a`); the same held for plain text ending in ` #`. The trailing
/// run's first `#` is escaped so it shows.
#[test]
fn a_heading_keeps_a_trailing_hash_after_a_break() {
    assert_eq!(
        Markdown::heading(2, Inline::lines(["a", "#"])).to_markdown(),
        "## a \\#"
    );
    assert_eq!(Markdown::heading(1, "C #").to_markdown(), "# C \\#");
    assert_eq!(Markdown::heading(1, "C ## ").to_markdown(), "# C \\## ");
    // Unchanged: a hash inside a word, and a leading hash (already escaped).
    assert_eq!(Markdown::heading(1, "C#").to_markdown(), "# C#");
    assert_eq!(Markdown::heading(1, "#").to_markdown(), "# \\#");
}

/// Doc (`Inline::hard_break`): "a break at either end of a block is
/// dropped"; strong and emphasis are `**…**` and `_…_`. A break at the
/// edge of a strong run put its closing `**` at the start of the next line,
/// where it cannot close (the reader saw `**x` and `**`), and an empty run
/// after a break wrote `****`, a thematic break. Each line of a strong or
/// emphasis run is now wrapped on its own, and an empty line not at all.
#[test]
fn strong_and_emphasis_close_on_each_line() {
    assert_eq!(
        Markdown::paragraph(Inline::strong(Inline::text("x").then(hb()))).to_markdown(),
        "**x**"
    );
    assert_eq!(
        Markdown::paragraph(Inline::text("a ").then(Inline::strong(hb().then("x")))).to_markdown(),
        "a \\\n**x**"
    );
    assert_eq!(
        Markdown::paragraph(Inline::strong(Inline::lines(["a", "b"]))).to_markdown(),
        "**a**\\\n**b**"
    );
    assert_eq!(
        Markdown::paragraph(Inline::lines([Inline::text("a"), Inline::strong("")])).to_markdown(),
        "a"
    );
    assert_eq!(
        Markdown::paragraph(Inline::text("say ").then(Inline::emphasis(Inline::lines(["x", "y"]))))
            .to_markdown(),
        "say _x_\\\n_y_"
    );
    // Slack mrkdwn bold cannot span lines either.
    assert_eq!(
        Inline::strong(Inline::lines(["a", "b"])).to_mrkdwn(),
        "*a*\n*b*"
    );
    assert_eq!(Inline::strong(hb()).to_mrkdwn(), "\n");
    // Without breaks nothing changes.
    assert_eq!(Inline::strong("a b").to_markdown(), "**a b**");
    assert_eq!(Inline::strong("a b").to_mrkdwn(), "*a b*");
}

/// Doc (`Inline::autolink`): `|` is refused because it "would end a GFM
/// table cell". A code span or a link destination holding `|` ended the
/// cell too (GFM splits rows before inline parsing, code spans included):
/// in a table cell their `|` is now `\|`, which GFM reads back as `|`.
#[test]
fn a_pipe_in_a_code_span_or_link_keeps_its_table_cell() {
    let table = Markdown::table(
        vec![Inline::code("h|i")],
        vec![vec![
            Inline::code("a|b"),
            Inline::link("x", "https://a.example/?q=1|2"),
        ]],
    );
    assert_eq!(table.to_markdown(), "| `h\\|i` |\n| - |\n| `a\\|b` |");
    let wide = Markdown::table(
        vec!["k".into(), "v".into()],
        vec![vec![
            Inline::code("a|b"),
            Inline::link("x", "https://a.example/?q=1|2"),
        ]],
    );
    assert_eq!(
        wide.to_markdown(),
        "| k | v |\n| - | - |\n| `a\\|b` | [x](https://a.example/?q=1\\|2) |"
    );
    // Outside a table the code span and the link are as before.
    assert_eq!(Inline::code("a|b").to_markdown(), "`a|b`");
    assert_eq!(
        Inline::link("x", "https://a.example/?q=1|2").to_markdown(),
        "[x](https://a.example/?q=1|2)"
    );
}

/// Breaks in quotes, ordered items past nine, cells and link labels, and
/// lines that would open blocks: what the doc says, and held.
#[test]
fn hard_breaks_in_every_block() {
    let quote = Markdown::blockquote(Markdown::paragraph(Inline::lines([
        "a", "> b", "=", "--", "***", "```", "~~~", "<div>", "    x",
    ])));
    assert_eq!(
        quote.to_markdown(),
        "> a\\\n> \\> b\\\n> \\=\\\n> \\--\\\n> \\*\\*\\*\\\n> \\`\\`\\`\\\n> \\~~~\\\n> \\<div\\>\\\n> x"
    );
    let list =
        Markdown::ordered_list((0..10).map(|i| Inline::lines([format!("i{i}"), "1. x".into()])));
    assert!(
        list.to_markdown()
            .ends_with("9. i8\\\n   1\\. x\n10. i9\\\n    1\\. x")
    );
    let cell = Markdown::table(
        vec![Inline::lines(["h", "1."])],
        vec![vec![Inline::lines(["a", "b|c"])]],
    );
    assert_eq!(cell.to_markdown(), "| h 1. |\n| - |\n| a b\\|c |");
    assert_eq!(
        Markdown::paragraph(Inline::link(Inline::lines(["a", "b"]), "https://x.example"))
            .to_markdown(),
        "[a\\\nb](https://x.example)"
    );
    // Two breaks in a row keep an empty line (a lone `\` is a break too).
    assert_eq!(
        Markdown::paragraph(Inline::lines(["a", "", "b"])).to_markdown(),
        "a\\\n\\\nb"
    );
    // A backslash ending a line stays a literal one before the break.
    assert_eq!(
        Markdown::paragraph(Inline::lines(["a\\", "b"])).to_markdown(),
        "a\\\\\\\nb"
    );
    // A code span cannot hold a break: its newline is a space.
    assert_eq!(Inline::code("a\nb").to_markdown(), "`a b`");
    let html = Inline::lines(["<a>", "b"]).to_html();
    assert_eq!(html, "&lt;a&gt;<br>b");
    assert_eq!(Inline::lines(["a", "b"]).to_plain(), "a b");
}

// ---------------------------------------------------------------------
// Markdown builder: autolinks
// ---------------------------------------------------------------------

/// Doc (`Inline::autolink`): unsafe or unfit URLs become escaped text
/// exactly as `Inline::text` prints them; fit ones `<url>`, plain mailto
/// addresses `<address>`; Slack `<url>` / `<mailto:a|a>`; HTML `<a>`.
#[test]
fn hostile_autolinks_fall_back_to_escaped_text() {
    let cases: [(&str, Option<&str>); 14] = [
        ("javascript:alert(1)", None),
        ("JAVASCRIPT:alert(1)", None),
        ("https://a.example/<script>", None),
        ("https://a.example/|x", None),
        ("https://a.example/\nx", None),
        ("https://a.example/\0x", None),
        ("https://a.example/\u{85}", None),
        ("mailto:\"a b\"@c.example", None),
        ("https&colon;//a.example", None),
        ("https://a.example/)", Some("<https://a.example/)>")),
        (
            "https://a.example/*x*_y_",
            Some("<https://a.example/*x*_y_>"),
        ),
        (" https://a.example ", Some("<https://a.example>")),
        ("MAILTO:A@B.EXAMPLE", Some("<A@B.EXAMPLE>")),
        (
            "mailto:a@b.example?subject=hi&body=x",
            Some("<mailto:a@b.example?subject=hi&body=x>"),
        ),
    ];
    for (url, autolink) in cases {
        let got = Inline::autolink(url).to_markdown();
        match autolink {
            Some(expected) => assert_eq!(got, expected, "{url:?}"),
            None => {
                assert_eq!(Inline::try_autolink(url), None, "{url:?}");
                assert_eq!(got, Inline::text(url).to_markdown(), "{url:?}");
            }
        }
    }
    assert_eq!(
        Inline::autolink("https://a.example/<script>").to_markdown(),
        "https://a.example/\\<script\\>"
    );
    assert_eq!(
        Inline::autolink("https://a.example/<script>").to_html(),
        "https://a.example/&lt;script&gt;"
    );
    assert_eq!(
        Inline::autolink("mailto:a@b.example?x=1&y=2").to_mrkdwn(),
        "<mailto:a@b.example?x=1&amp;y=2>"
    );
    assert_eq!(
        Inline::autolink("mailto:team@b.example").to_mrkdwn(),
        "<mailto:team@b.example|team@b.example>"
    );
    assert_eq!(
        Inline::autolink("https://a.example/'\"").to_html(),
        "<a href=\"https://a.example/&#39;&quot;\">https://a.example/&#39;&quot;</a>"
    );
    // A host label may not start with a hyphen: the URI form, not the email one.
    assert_eq!(
        Inline::autolink("mailto:a@-x.example").to_markdown(),
        "<mailto:a@-x.example>"
    );
    // In a table cell an autolink is whole.
    assert_eq!(
        Markdown::table(
            vec!["u".into()],
            vec![vec![Inline::autolink("https://a.example/x")]]
        )
        .to_markdown(),
        "| u |\n| - |\n| <https://a.example/x> |"
    );
}

// ---------------------------------------------------------------------
// Slack fallback of Markdown blocks
// ---------------------------------------------------------------------

fn markdown_primitive(name: &'static str, markdown: fn() -> Markdown) -> Primitive {
    Primitive::builder::<Value>(name)
        .schema_json(json!({ "type": "object", "properties": {} }))
        .purpose("A probe.")
        .example(json!({ "type": name }))
        .text(|_, _| "x".to_owned())
        .markdown(move |_, _| markdown())
        .build()
        .expect("the probe builds")
}

/// Doc (`surface::slack`): a table without a `slack` renderer becomes a
/// `mrkdwn` `section`, a heading a `header`. A table with no body rows made
/// a section with empty text, and an empty heading a header with empty
/// text: Block Kit refuses both (a text object needs at least one
/// character), so the whole message failed. Now a head-only table prints
/// its head cells joined by ` · `, as `table_lines` does, and a block left
/// without text is dropped.
#[test]
fn empty_tables_and_headings_make_no_empty_blocks() {
    let runtime = runtime_of(vec![
        markdown_primitive("headonly", || {
            Markdown::table(vec!["H".into(), Inline::strong("I")], vec![])
        }),
        markdown_primitive("bare", || {
            Markdown::heading(2, "").then(Markdown::table(vec![], vec![]))
        }),
    ]);
    assert_eq!(
        slack_blocks(&runtime, json!([{ "type": "headonly" }])),
        vec![json!({ "type": "section", "text": { "type": "mrkdwn", "text": "H · *I*" } })]
    );
    assert_eq!(
        slack_blocks(&runtime, json!([{ "type": "bare" }])),
        Vec::<Value>::new()
    );
}

/// Doc (`PrimitiveBuilder::build`): an empty type is refused. A primitive
/// typed `bodyNode` was accepted, but the schemas key every def by type
/// beside the body-node union `bodyNode`: the authoring schema's `$defs`
/// then held only that primitive, and `describe_primitives(&["group"])`
/// answered `{"$defs": {}}` and no fields for `group`. The name is refused
/// now, like an empty one.
#[test]
fn a_primitive_typed_body_node_is_refused() {
    let built = Primitive::builder::<Value>("bodyNode")
        .schema_json(json!({ "type": "object", "properties": { "t": { "type": "string" } } }))
        .purpose("A probe.")
        .example(json!({ "type": "bodyNode" }))
        .text(|_, _| "x".to_owned())
        .markdown(|_, _| Markdown::paragraph("x"))
        .build();
    let error = built.map(|_| ()).unwrap_err();
    assert_eq!(
        error,
        IsomerError::InvalidPrimitive {
            type_name: "bodyNode".into(),
            reason: "the type bodyNode is reserved for the body-node union of the schema".into(),
        }
    );
    // Names that only look like schema words still work, and keep the
    // other defs (a clash with a nested def is renamed).
    let runtime = Runtime::builder()
        .pack(common::pack())
        .pack(
            Pack::new("probe")
                .primitive(schema_primitive(
                    "view",
                    json!({ "type": "object", "properties": {} }),
                ))
                .primitive(schema_primitive(
                    "Layout",
                    json!({ "type": "object", "properties": {} }),
                ))
                .build()
                .expect("the probe pack builds"),
        )
        .build()
        .expect("the runtime builds");
    let schema = runtime.authoring_context().schema;
    let defs: Vec<&String> = schema["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(
        defs,
        [
            "bodyNode",
            "renderTheme",
            "note",
            "Tone",
            "group",
            "group_Layout",
            "view",
            "Layout"
        ]
    );
}

/// Doc (`Inline::strong` / `Inline::emphasis`): `**…**` and `_…_`. A line
/// of a mark that ends in a space before a hard break (`lines(["a ",
/// "b"])`), or any mark whose content starts or ends with whitespace, wrote
/// the delimiter beside the whitespace, where CommonMark cannot open or
/// close it (`**a **` shows its asterisks). The whitespace now stays
/// outside the delimiters.
#[test]
fn marks_keep_edge_whitespace_outside_their_delimiters() {
    assert_eq!(
        Markdown::paragraph(Inline::strong(Inline::lines(["a ", " b"]))).to_markdown(),
        "**a** \\\n**b**"
    );
    assert_eq!(
        Markdown::paragraph(Inline::text("x").then(Inline::strong(" y\u{a0}")).then("z"))
            .to_markdown(),
        "x **y**\u{a0}z"
    );
    assert_eq!(
        Markdown::paragraph(Inline::text("say").then(Inline::emphasis(" so"))).to_markdown(),
        "say _so_"
    );
    // Only whitespace: no delimiters (and a line's leading whitespace is
    // trimmed, as for any paragraph line).
    assert_eq!(Inline::strong("  ").to_markdown(), "");
    assert_eq!(Inline::strong("  ").to_mrkdwn(), "  ");
    assert_eq!(Inline::strong(" a ").to_mrkdwn(), " *a* ");
    assert_eq!(Inline::emphasis("a\t").to_mrkdwn(), "_a_\t");
}

#[test]
fn the_root_theme_refers_to_the_shared_render_theme_def_unless_a_primitive_took_its_name() {
    let themes = json!({ "type": "string", "enum": ["auto", "light", "dark"] });
    let schema = runtime_of(vec![schema_primitive(
        "probe",
        json!({ "type": "object", "properties": {} }),
    )])
    .authoring_context()
    .schema;
    assert_eq!(
        schema["properties"]["theme"],
        json!({ "$ref": "#/$defs/renderTheme" })
    );
    assert_eq!(schema["$defs"]["renderTheme"], themes);
    let schema = runtime_of(vec![schema_primitive(
        "renderTheme",
        json!({ "type": "object", "properties": {} }),
    )])
    .authoring_context()
    .schema;
    assert_eq!(schema["properties"]["theme"], themes);
    assert_eq!(
        schema["$defs"]["renderTheme"]["properties"]["type"],
        json!({ "type": "string", "const": "renderTheme" })
    );
}
