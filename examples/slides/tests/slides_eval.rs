//! The slides eval gate: every case of the recorded corpus `corpus/slides` is its own
//! test, `slides::<case id>`, replayed against the slides pack with the options the
//! report command uses (the slides guide and rules, the deck frame), plus
//! `slides::totals` for the suite floors and the committed baseline (the same
//! `tests/snapshots/slides__*.snap` files `corpus_baseline.rs` compares).
//!
//! ```sh
//! cargo test -p isomer-slides --test slides_eval                        # every case
//! cargo test -p isomer-slides --test slides_eval -- --exact slides::events-stat
//! ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-slides --test slides_eval -- --exact slides::totals
//! ```
//!
//! Floors follow the committed baseline: each is set where the recorded answers stand, so
//! a change that makes any case or the suite worse fails here by name.

use isomer_evals::harness::Suite;

// The floors are `isomer_slides::EVAL_FLOORS` and the pack scorers `isomer_slides::eval_scorers`
// (`fits_frame`: each answer's slide drawn and measured against its frame), which
// `isomer-report` runs and shows too.
#[isomer_evals::isomer_eval(corpus = "../../corpus/slides", main = false)]
fn slides() -> Suite {
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    Suite::new(runtime)
        .guide(isomer_slides::AUTHORING_GUIDE)
        .rules(isomer_slides::AUTHORING_RULES)
        .frame(isomer_slides::slide_deck_frame())
        .concurrency(4)
        .scorers(isomer_slides::eval_scorers())
}

fn main() -> std::process::ExitCode {
    let slides = isomer_evals::harness::SuiteSpec {
        floors: isomer_slides::EVAL_FLOORS,
        ..isomer_evals::suite!(slides)
    };
    isomer_evals::harness::run(&[slides])
}
