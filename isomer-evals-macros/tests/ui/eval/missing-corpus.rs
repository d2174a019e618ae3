// A corpus directory without corpus.json is refused at `corpus`, with the path as written.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/absent")]
fn absent() -> isomer_evals::harness::Suite {
    unimplemented!()
}
