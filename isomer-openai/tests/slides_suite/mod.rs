//! The suite the slides eval gates of these tests start from (`record_gate`,
//! `pass_rate_gate`, `configurations_gate`): each adds its own repeats, concurrency and
//! live model.

use isomer_evals::harness::Suite;

/// A suite over the slides runtime, with the slides authoring guide and rules, drawn in
/// the slide-deck frame.
pub fn slides_suite() -> Suite {
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    Suite::new(runtime)
        .guide(isomer_slides::AUTHORING_GUIDE)
        .rules(isomer_slides::AUTHORING_RULES)
        .frame(isomer_slides::slide_deck_frame())
}
