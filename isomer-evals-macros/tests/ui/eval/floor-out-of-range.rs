// A ratio floor outside 0.0..=1.0 is refused at its literal.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", min_selection_f1 = 80)]
fn mini() -> isomer_evals::harness::Suite {
    unimplemented!()
}
