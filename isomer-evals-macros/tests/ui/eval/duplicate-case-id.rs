// Two cases with one id would make two trials with one name: refused at `corpus`,
// naming both places in corpus.json.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/duplicate")]
fn duplicate() -> isomer_evals::harness::Suite {
    unimplemented!()
}
