// A number floor written bare is refused at its key, naming it once, with what it takes.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", min_valid_ratio)]
fn mini() -> isomer_evals::harness::Suite {
    unimplemented!()
}
