// An agent suite takes the agent floors only: a single-shot floor is refused at its key.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", agent, valid_after_retry)]
fn mini() -> isomer_evals::harness::agent::AgentSuite {
    unimplemented!()
}
