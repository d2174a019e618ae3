//! An eval gate whose one case runs five times and gates on its pass rate over them:
//! `valid_after_retry` must hold in at least 80% of the runs (`min_pass_rate = 0.8`), or
//! 90% when `PASS_RATE_FLOOR=0.9` asks for the stricter suite. Its committed recordings
//! (`tests/fixtures/pass-rate`) are right four times in five, so a plain `cargo test`
//! replays them and passes. Live against the server at `ISOMER_OPENAI_TEST_URL`; driven by
//! `tests/record_pass_rate.rs`.

mod slides_suite;

use std::process::ExitCode;
use std::time::Duration;

use isomer_evals::floor::Floor;
use isomer_evals::harness::Suite;
use isomer_evals::harness::SuiteSpec;
use isomer_openai::ChatClient;

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/pass-rate",
    main = false,
    valid_after_retry,
    min_pass_rate = 0.8
)]
fn pass_rate() -> Suite {
    let suite = slides_suite::slides_suite()
        .retry_on_invalid(false)
        .repeat(5);
    let Ok(url) = std::env::var("ISOMER_OPENAI_TEST_URL") else {
        return suite;
    };
    let model = ChatClient::new(url, "gpt-test", "sk-test").backoff(Duration::from_millis(10));
    suite.live(model.generate()).provenance(model.provenance())
}

/// The floors of the stricter suite.
static STRICT: [Floor; 2] = [
    Floor::flag("valid_after_retry"),
    Floor::number("min_pass_rate", 0.9),
];

fn main() -> ExitCode {
    let suite = isomer_evals::suite!(pass_rate);
    let suite = match std::env::var("PASS_RATE_FLOOR").as_deref() {
        Ok("0.9") => SuiteSpec {
            floors: &STRICT,
            ..suite
        },
        _ => suite,
    };
    isomer_evals::harness::run(&[suite])
}
