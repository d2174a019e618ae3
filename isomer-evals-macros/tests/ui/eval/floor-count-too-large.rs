// A whole number of cases above u64::MAX is refused at its literal, with the maximum.
#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini",
    max_answerability_no = 99999999999999999999999
)]
fn mini() -> isomer_evals::harness::Suite {
    unimplemented!()
}
