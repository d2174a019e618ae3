// corpus.json that is not JSON is refused at `corpus`, with its line and column.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/malformed")]
fn malformed() -> isomer_evals::harness::Suite {
    unimplemented!()
}
