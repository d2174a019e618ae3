// A floor literal with a type suffix is refused at the literal (the floor's type is fixed),
// with the value to write instead.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", min_selection_f1 = 0.5f32)]
fn mini() -> isomer_evals::harness::Suite {
    unimplemented!()
}
