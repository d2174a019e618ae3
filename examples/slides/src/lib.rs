//! The reference Isomer slides pack: upstream's 40 slide primitives, the
//! `slideDeckFrame` frame, and the authoring guide and rules a model reads.
//!
//! Each composition is one slide: its `body` is a single `slideFrame` node
//! holding the slide's content. Hosts render slides on `text` and
//! `markdown` with the composition heading off, since every slide opens
//! with its own heading primitive.
//!
//! ```
//! use isomer_sdk::RenderOptions;
//! use serde_json::json;
//!
//! let runtime = isomer_slides::runtime().unwrap();
//! let slide = json!({
//!     "type": "view",
//!     "title": "Nightly settlement",
//!     "body": [{
//!         "type": "slideFrame",
//!         "brand": "Ledger",
//!         "body": [{ "type": "slideStatement", "text": "Refunds settle **nightly**." }]
//!     }]
//! });
//! let text = runtime.render_text(&slide, &RenderOptions { heading: false, ..Default::default() }).unwrap();
//! assert_eq!(text, "REFUNDS SETTLE NIGHTLY.\n\nLedger");
//! ```
//!
//! | entry point | what it is |
//! |---|---|
//! | [`pack`] | the pack (`id` `"slides"`): primitives, groups, schema descriptions |
//! | [`slide_deck_frame`] | the frame, registered as `"slide"`, whose body rule wants one `slideFrame` |
//! | [`runtime`] | a runtime of the pack and the frame, ready to validate and render |
//! | [`AUTHORING_GUIDE`], [`AUTHORING_RULES`] | the prose for the authoring prompt |
//! | [`EVAL_FLOORS`], [`eval_scorers`] | what the slides eval gate holds the recorded corpus to |
//! | [`pictures`] | the slide pictures of the evals: the `fits_frame` scorer and the report's pictures |
//! | [`primitives`] | each primitive's node struct, renderers and catalog entry |
//! | [`synthetic`] | a deterministic synthetic corpus of any size, for benchmarks and scale tests |
//!
//! # Where the output differs from upstream's, and why
//!
//! The string surfaces print what upstream's published examples print
//! (`tests/reference_examples.rs` pins three examples per primitive). The
//! differences that remain are deliberate:
//!
//! - The shared `tone` def holds two colours, `primary` and `accent`: the
//!   slides pack's tones, where upstream's shared schema lists more colours
//!   that no slide primitive accepts.
//! - `slideColumns` has no Block Kit renderer of its own, as in the upstream
//!   version whose output is known; Slack receives the sdk's conversion of
//!   its Markdown (capability `fallback`).
//! - `slideBars` heads its table `Label`, `Value` and `Detail`: upstream's
//!   head words are theme tokens whose values are not known here.
//! - `slideCommand` accepts commands of up to 85 columns, a figure derived
//!   from the slide's geometry with this pack's estimate of the Copy chip's
//!   width (see `COMMAND_MAX_LENGTH`); upstream's own 61- and 84-character
//!   examples fit.
//! - On Slack, a `slidePipeline` span's runs are glyph, bold label, steps,
//!   `: `, title, ` — `, then the body's runs: upstream keeps the parts
//!   apart, and this is the split its Markdown suggests.
//! - `slideFrame` has no eyebrow: the eyebrow is `slideTitle`'s, printed
//!   upper-case on text and as authored on Markdown and Slack.
//!
//! Where upstream's published behaviour leaves a detail open, the pack
//! follows its own patterns, so a reader can predict them:
//! - On HTML each primitive writes its own markup after upstream's React
//!   structure (`tests/html_renderers.rs` fails if one is drawn through
//!   its Markdown), and keeps its stylesheet rules beside its
//!   source; a length or position the upstream markup sets inline (a bar's
//!   length, a pin's place) is a class per whole percent, since the sdk's
//!   HTML builder writes no `style` attribute.
//! - `slideQuadrant` and `slideMatrix` mark their highlighted quadrant or
//!   column with `● `, the glyph of a current or emphasized item elsewhere;
//!   the matrix prints its marks as `Yes`, `Partial` and `No`, and its
//!   `legend` only changes the drawn slide.
//! - On Slack, `slideTree` is its drawing in a code section (its Markdown
//!   is a code block) and `slideQuadrant` an axes `context` plus a
//!   `rich_text` list, like the pack's other lists.
//! - `slideRender` and `slideRenderGrid` call a body without a `slide`
//!   reference "a composition"; a render with only a reference prints its
//!   heading alone; the grid prints its body once, after its tiles.
//! - Rule messages upstream does not publish (a message sent to its own
//!   sender, the graph's findings, an embedded body mixing a frame with
//!   other nodes, a wrong node in the annotated render's slot) are this
//!   pack's words; findings inside an embedded body name the embedding
//!   node's type, since the body is one of its fields.

#![forbid(unsafe_code)]

pub mod authored;
pub mod authoring;
pub mod catalog;
pub mod check;
pub mod code_block;
pub mod figure;
pub mod frame;
pub mod groups;
pub mod html;
pub mod list;
pub mod markdown;
pub mod marks;
pub mod pictures;
pub mod primitives;
pub mod schema;
pub mod slack;
pub mod synthetic;
pub mod table;
pub mod text;
pub mod url;

pub use authoring::{AUTHORING_GUIDE, AUTHORING_RULES};
pub use frame::{
    SLIDE_DECK_FRAME, SLIDE_HEIGHT, SLIDE_WIDTH, slide_deck_frame, validate_slide_deck_body,
};

use isomer_sdk::{IsomerError, Pack, Primitive, Runtime};

use primitives::{code, diagrams, layout, numbers, primitive, structure, text as text_group};

/// The id of the slides pack.
pub const PACK_ID: &str = "slides";

/// The floors the slides eval gate (`tests/slides_eval.rs`) holds the recorded corpus
/// `corpus/slides` to: the case floors, then the suite floors (names of
/// `isomer_corpus::SINGLE_SHOT_FLOORS`, checked when the gate starts). The gate and
/// `isomer-report --html` (which shows each floor met or missed) both read this list, so
/// the page cannot show other floors than the gate holds.
///
/// Set from the committed baseline (49 cases, re-recorded 2026-12-01 against the
/// 40-primitive pack): 48 of 49 cases valid on their first attempt (timeout-two-files
/// needs its retry, as the corpus means some cases to), every case valid after its retry,
/// no invented types, expected hits 49/49, the lowest selection F1 0.857 (cli-install and
/// others), the largest size against the golden 1.38 (oncall-alert-window), mean F1
/// 0.994, answerability yes 47 / partial 2 / no 0.
pub const EVAL_FLOORS: &[isomer_evals::floor::Floor] = {
    use isomer_evals::floor::Floor;
    &[
        Floor::flag("valid_after_retry"),
        Floor::number("min_selection_f1", 0.66),
        Floor::flag("expected_hit"),
        Floor::flag("no_invented_types"),
        Floor::number("max_size_vs_golden", 1.5),
        Floor::flag("answerability_not_no"),
        Floor::number("min_valid_ratio", 0.97),
        Floor::number("min_valid_after_retry_ratio", 1.0),
        Floor::number("min_mean_selection_f1", 0.98),
        Floor::count("max_answerability_no", 0),
    ]
};

/// The pack scorers the slides eval gate adds to its suite, with their floors, and which
/// `isomer-report` runs too (so its report matches the gate's baseline, and its HTML page
/// shows their floors): [`pictures::fits_frame`], whether each answer's slide stays inside
/// its body box (the 1920×1080 frame above its footer) when drawn, with the suite floor
/// `min_fits_frame_ratio = 0.97`.
///
/// In the committed baseline all 49 slides fit (timeout-two-files' retry ran 78 px past
/// the bottom until slideCommand wrapped its long lines); the floor leaves room for one
/// slide in 49 that a live model writes too long.
pub fn eval_scorers() -> Vec<isomer_evals::scorer::Scorer> {
    vec![pictures::fits_frame().min_ratio(0.97)]
}

/// One primitive of the pack as the pack lists it: how it is built and
/// its rules in the slides stylesheet ([`primitives::SlideNode::CSS`]).
struct Member {
    build: fn() -> Result<Primitive, IsomerError>,
    css: &'static str,
}

const fn member<T: primitives::SlideNode>() -> Member {
    Member {
        build: primitive::<T>,
        css: T::CSS,
    }
}

/// The pack's primitives, in group order: the one list both
/// [`slide_primitives`] and [`slide_stylesheet`] read.
const MEMBERS: [Member; 40] = [
    member::<structure::slide_frame::SlideFrame>(),
    member::<structure::slide_heading::SlideHeading>(),
    member::<structure::slide_statement::SlideStatement>(),
    member::<structure::slide_quote::SlideQuote>(),
    member::<structure::slide_title::SlideTitle>(),
    member::<structure::slide_section::SlideSection>(),
    member::<structure::slide_agenda::SlideAgenda>(),
    member::<structure::slide_closing::SlideClosing>(),
    member::<structure::slide_source::SlideSource>(),
    member::<layout::slide_split::SlideSplit>(),
    member::<layout::slide_stack::SlideStack>(),
    member::<layout::slide_window::SlideWindow>(),
    member::<text_group::slide_list::SlideList>(),
    member::<text_group::slide_bullet_list::SlideBulletList>(),
    member::<text_group::slide_definitions::SlideDefinitions>(),
    member::<text_group::slide_columns::SlideColumns>(),
    member::<text_group::slide_roadmap::SlideRoadmap>(),
    member::<diagrams::slide_timeline::SlideTimeline>(),
    member::<diagrams::slide_pipeline::SlidePipeline>(),
    member::<diagrams::slide_sequence::SlideSequence>(),
    member::<diagrams::slide_lanes::SlideLanes>(),
    member::<diagrams::slide_graph::SlideGraph>(),
    member::<diagrams::slide_fanout::SlideFanout>(),
    member::<diagrams::slide_tree::SlideTree>(),
    member::<diagrams::slide_layers::SlideLayers>(),
    member::<diagrams::slide_territory_group::SlideTerritoryGroup>(),
    member::<diagrams::slide_quadrant::SlideQuadrant>(),
    member::<numbers::slide_stat::SlideStat>(),
    member::<numbers::slide_stats::SlideStats>(),
    member::<numbers::slide_delta::SlideDelta>(),
    member::<numbers::slide_bars::SlideBars>(),
    member::<numbers::slide_matrix::SlideMatrix>(),
    member::<numbers::slide_table::SlideTable>(),
    member::<code::slide_code::SlideCode>(),
    member::<code::slide_diff::SlideDiff>(),
    member::<code::slide_command::SlideCommand>(),
    member::<code::slide_transcript::SlideTranscript>(),
    member::<code::slide_render::SlideRender>(),
    member::<code::slide_annotated_render::SlideAnnotatedRender>(),
    member::<code::slide_render_grid::SlideRenderGrid>(),
];

/// Every primitive of the pack, in group order.
///
/// # Errors
/// An [`IsomerError`] if a primitive declaration is refused by the sdk;
/// the crate's tests build them all, so this does not happen for a released
/// crate.
pub fn slide_primitives() -> Result<Vec<Primitive>, IsomerError> {
    MEMBERS.iter().map(|member| (member.build)()).collect()
}

/// The slides stylesheet: the frame's own rules ([`frame::SLIDE_CSS`]: the
/// canvas, its colours, footer and type, and the elements of Markdown
/// HTML), then each primitive's rules ([`primitives::SlideNode::CSS`]) in
/// pack order, one newline between them.
pub fn slide_stylesheet() -> String {
    let mut css = String::from(frame::SLIDE_CSS);
    for member in &MEMBERS {
        if !member.css.is_empty() {
            if !css.ends_with('\n') {
                css.push('\n');
            }
            css.push_str(member.css);
        }
    }
    css
}

/// The slides pack (id [`PACK_ID`]): the 40 primitives of
/// [`slide_primitives`], the six groups of [`groups::GROUPS`], and
/// authoring-schema descriptions restating the cross-field rules JSON
/// Schema cannot carry ([`schema::DESCRIBE`]).
///
/// # Errors
/// An [`IsomerError`] if the sdk refuses a primitive or the groups.
pub fn pack() -> Result<Pack, IsomerError> {
    let mut builder = Pack::new(PACK_ID).primitives(slide_primitives()?);
    for (title, types) in groups::GROUPS {
        builder = builder.group(*title, types.iter().copied());
    }
    for (def_id, description) in schema::DESCRIBE {
        builder = builder.describe(*def_id, *description);
    }
    builder.build()
}

/// A runtime of the slides [`pack`] and the [`slide_deck_frame`], with the
/// default input budget.
///
/// # Errors
/// An [`IsomerError`] if the pack or the runtime cannot be built.
pub fn runtime() -> Result<Runtime, IsomerError> {
    Runtime::builder()
        .pack(pack()?)
        .frame(slide_deck_frame())
        .build()
}
