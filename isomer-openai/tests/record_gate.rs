//! An eval gate whose suite declares this crate's client as its live model: two slides
//! cases, replayed from their recordings, or recorded from the server at
//! `ISOMER_OPENAI_TEST_URL` when `ISOMER_EVAL_RECORD` asks. Without that URL the suite
//! declares no live model. Driven by `tests/record_corpus.rs`.

use isomer_evals::harness::Suite;
use isomer_openai::ChatClient;

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/record",
    valid_after_retry,
    min_valid_after_retry_ratio = 1.0
)]
fn record() -> Suite {
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    let suite = Suite::new(runtime)
        .guide(isomer_slides::AUTHORING_GUIDE)
        .rules(isomer_slides::AUTHORING_RULES)
        .frame(isomer_slides::slide_deck_frame())
        .concurrency(2);
    let Ok(url) = std::env::var("ISOMER_OPENAI_TEST_URL") else {
        return suite;
    };
    let model = ChatClient::new(url, "gpt-test", "sk-test")
        .temperature(0.0)
        .backoff(std::time::Duration::from_millis(10));
    suite
        .live(model.generate())
        .judge(model.judge())
        .provenance(model.provenance())
}
