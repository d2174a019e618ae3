// The expansion reaches isomer-evals only through `crate = "..."` when it is given: a path
// that does not resolve fails, at the key's value.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", crate = "crate::missing")]
fn mini() -> isomer_evals::harness::Suite {
    unimplemented!()
}
