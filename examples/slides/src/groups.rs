//! The pack's primitive groups, for the catalog index (upstream
//! `slidePrimitiveGroups`): all forty primitives, in six groups.

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
            "slideRoadmap",
        ],
    ),
    (
        "Diagrams",
        &[
            "slideTimeline",
            "slidePipeline",
            "slideSequence",
            "slideLanes",
            "slideGraph",
            "slideFanout",
            "slideTree",
            "slideLayers",
            "slideTerritoryGroup",
            "slideQuadrant",
        ],
    ),
    (
        "Numbers",
        &[
            "slideStat",
            "slideStats",
            "slideDelta",
            "slideBars",
            "slideMatrix",
            "slideTable",
        ],
    ),
    (
        "Code and renders",
        &[
            "slideCode",
            "slideDiff",
            "slideCommand",
            "slideTranscript",
            "slideRender",
            "slideAnnotatedRender",
            "slideRenderGrid",
        ],
    ),
];

/// The groups as the sdk's [`PrimitiveGroup`]s: six groups covering the 40
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
