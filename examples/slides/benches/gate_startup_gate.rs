//! A 1,000-case slides gate (`benches/fixtures/gate-1000`), measured by
//! `benches/gate_startup.rs`: what one `--exact <case>` process of a large gate costs, the
//! start-up cargo-nextest pays for every case. Only `gate_1000::case-0500` has a recorded
//! answer; the other cases exist to be listed and skipped.

use isomer_evals::harness::Suite;

#[isomer_evals::isomer_eval(corpus = "benches/fixtures/gate-1000", valid_after_retry)]
fn gate_1000() -> Suite {
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    Suite::new(runtime)
        .guide(isomer_slides::AUTHORING_GUIDE)
        .rules(isomer_slides::AUTHORING_RULES)
        .frame(isomer_slides::slide_deck_frame())
}
