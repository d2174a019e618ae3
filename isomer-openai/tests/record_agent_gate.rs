//! An agent eval gate whose suite declares this crate's `step` as its live model: one
//! slides-agent case over the real slides tools, replayed from its transcript, or recorded
//! from the server at `ISOMER_OPENAI_TEST_URL` when `ISOMER_EVAL_RECORD` asks. Driven by
//! `tests/record_corpus.rs`.

use std::sync::Arc;

use isomer_agent_tools::{IsomerToolsOptions, create_isomer_tools};
use isomer_evals::harness::agent::AgentSuite;
use isomer_openai::ChatClient;

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/record-agent",
    agent,
    finished,
    valid,
    no_failed_calls
)]
fn record_agent() -> AgentSuite {
    let runtime = Arc::new(isomer_slides::runtime().expect("the slides runtime builds"));
    // The tools the slides-agent corpus was recorded against.
    let rules: Vec<String> = isomer_slides::AUTHORING_RULES
        .lines()
        .map(|line| match line.split_once(". ") {
            Some((number, rule)) if number.chars().all(|c| c.is_ascii_digit()) => rule.to_owned(),
            _ => line.to_owned(),
        })
        .collect();
    let options = IsomerToolsOptions::new(Arc::clone(&runtime))
        .with_frame(isomer_slides::slide_deck_frame())
        .with_heading(false)
        .with_guide(isomer_slides::AUTHORING_GUIDE)
        .with_rules(rules);
    let tools = create_isomer_tools(options).expect("the slides tools build");
    let suite = AgentSuite::new(runtime, tools).frame(isomer_slides::slide_deck_frame());
    let Ok(url) = std::env::var("ISOMER_OPENAI_TEST_URL") else {
        return suite;
    };
    let model =
        ChatClient::new(url, "gpt-test", "sk-test").backoff(std::time::Duration::from_millis(10));
    suite.live(model.step()).provenance(model.provenance())
}
