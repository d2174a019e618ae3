//! The pack's primitive groups, for the catalog index, restricted to the
//! primitives this crate registers.

use isomer_sdk::PrimitiveGroup;

/// The groups as `(title, types)`, in index order.
pub const GROUPS: &[(&str, &[&str])] = &[
    (
        "Slide structure",
        &[
            "slideFrame",
            "slideHeading",
            "slideStatement",
            "slideQuote",
            "slideTitle",
            "slideSection",
            "slideAgenda",
            "slideClosing",
            "slideSource",
        ],
    ),
    ("Layout", &["slideSplit", "slideStack", "slideWindow"]),
    (
        "Text",
        &[
            "slideList",
            "slideBulletList",
            "slideDefinitions",
            "slideColumns",
        ],
    ),
    ("Diagrams", &["slideTimeline", "slidePipeline"]),
    (
        "Numbers",
        &[
            "slideStat",
            "slideStats",
            "slideDelta",
            "slideBars",
            "slideTable",
        ],
    ),
    (
        "Code and renders",
        &["slideCode", "slideDiff", "slideCommand", "slideTranscript"],
    ),
];

/// The groups as the sdk's [`PrimitiveGroup`]s: six groups covering the 27
/// registered types, each type once.
pub fn groups() -> Vec<PrimitiveGroup> {
    GROUPS
        .iter()
        .map(|(title, types)| PrimitiveGroup {
            title: (*title).to_owned(),
            types: types.iter().map(|t| (*t).to_owned()).collect(),
        })
        .collect()
}
