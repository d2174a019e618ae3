//! An eval gate whose suite declares this crate's client as its live model: two slides
//! cases, replayed from their recordings, or recorded from the server at
//! `ISOMER_OPENAI_TEST_URL` when `ISOMER_EVAL_RECORD` asks. Without that URL the suite
//! declares no live model. Driven by `tests/record_corpus.rs`,
//! `tests/record_failed_calls.rs` and `tests/record_measures.rs`.
//!
//! The tests that drive it may shorten the waits through `ISOMER_OPENAI_TEST_HTTP_TIMEOUT_MS`
//! (the client's HTTP timeout), `ISOMER_OPENAI_TEST_TRIAL_TIMEOUT_MS` (`Suite::timeout`)
//! and `ISOMER_OPENAI_TEST_RETRIES` (the client's retries), so a hang costs them
//! milliseconds, not minutes.

mod slides_suite;

use std::time::Duration;

use isomer_evals::harness::Suite;
use isomer_openai::ChatClient;

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/record",
    valid_after_retry,
    min_valid_after_retry_ratio = 1.0
)]
fn record() -> Suite {
    let suite = slides_suite::slides_suite().concurrency(2);
    let Ok(url) = std::env::var("ISOMER_OPENAI_TEST_URL") else {
        return suite;
    };
    let number = |name: &str| {
        std::env::var(name)
            .ok()
            .map(|value| value.parse::<u64>().expect("a whole number"))
    };
    let mut model = ChatClient::new(url, "gpt-test", "sk-test")
        .temperature(0.0)
        .backoff(Duration::from_millis(10));
    if let Some(millis) = number("ISOMER_OPENAI_TEST_HTTP_TIMEOUT_MS") {
        model = model.timeout(Duration::from_millis(millis));
    }
    if let Some(retries) = number("ISOMER_OPENAI_TEST_RETRIES") {
        model = model.retries(u32::try_from(retries).expect("a retry count"));
    }
    let suite = match number("ISOMER_OPENAI_TEST_TRIAL_TIMEOUT_MS") {
        Some(millis) => suite.timeout(Duration::from_millis(millis)),
        None => suite,
    };
    suite
        .live(model.generate())
        .judge(model.judge())
        .provenance(model.provenance())
}
