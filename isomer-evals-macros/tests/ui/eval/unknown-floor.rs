// A misspelt floor is refused at its key, with the closest name.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", expected_hits)]
fn mini() -> isomer_evals::harness::Suite {
    unimplemented!()
}
