//! An eval gate that runs one suite against two model configurations, each at its own
//! loopback server, with its own recordings directory, price and (for `model-a`) cost
//! cap: the one slides case of `tests/fixtures/pass-rate`, asked five times. Without
//! `ISOMER_OPENAI_TEST_URL_A` the suite declares no configuration and replays the
//! committed recordings, so a plain `cargo test` passes. Driven by
//! `tests/record_configurations.rs` and `tests/record_caps.rs`.
//!
//! Variables (read here, in the test's own gate; the harness reads only its own):
//! `ISOMER_OPENAI_TEST_URL_A` and `ISOMER_OPENAI_TEST_URL_B` (the servers),
//! `ISOMER_OPENAI_TEST_RECORDINGS` (a directory: `model-a/` and `model-b/` are the
//! configurations' recordings), `ISOMER_OPENAI_TEST_MAX_COST` (`model-a`'s cap, US dollars),
//! `ISOMER_OPENAI_TEST_MAX_TOKENS` (the suite's cap over both configurations, tokens).

mod slides_suite;

use std::path::PathBuf;
use std::time::Duration;

use isomer_evals::harness::{Configuration, Suite};
use isomer_evals::run_file::Price;
use isomer_openai::ChatClient;

#[isomer_evals::isomer_eval(corpus = "tests/fixtures/pass-rate")]
fn models() -> Suite {
    let suite = slides_suite::slides_suite()
        .retry_on_invalid(false)
        .repeat(5);
    let (Ok(url_a), Ok(url_b), Some(dir)) = (
        std::env::var("ISOMER_OPENAI_TEST_URL_A"),
        std::env::var("ISOMER_OPENAI_TEST_URL_B"),
        std::env::var_os("ISOMER_OPENAI_TEST_RECORDINGS").map(PathBuf::from),
    ) else {
        return suite;
    };
    let client = |url: String, model: &str| {
        ChatClient::new(url, model, "sk-test")
            .temperature(0.0)
            .backoff(Duration::from_millis(10))
    };
    // model-a: generate only, priced, capped when asked.
    let a = client(url_a, "gpt-a");
    let mut model_a = Configuration::new("model-a")
        .live(a.generate())
        .provenance(a.provenance())
        .price(Price::per_million(2.0, 8.0))
        .recordings(dir.join("model-a"));
    if let Ok(cap) = std::env::var("ISOMER_OPENAI_TEST_MAX_COST") {
        model_a = model_a.max_cost(cap.parse().expect("a cost in US dollars"));
    }
    // model-b: generate and judge (the client's configuration), the judge priced apart.
    let model_b = client(url_b, "gpt-b")
        .configuration("model-b")
        .price(Price::per_million(1.0, 4.0))
        .judge_price(Price::per_million(10.0, 30.0))
        .recordings(dir.join("model-b"));
    let suite = match std::env::var("ISOMER_OPENAI_TEST_MAX_TOKENS") {
        Ok(tokens) => suite.max_tokens(tokens.parse().expect("a token count")),
        Err(_) => suite,
    };
    suite.configuration(model_a).configuration(model_b)
}
