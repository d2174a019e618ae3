//! The reference of `benches/gate_startup.rs`: a libtest-mimic binary with 1,000 trials
//! that do nothing, the least a 1,000-trial harness can cost per `--exact` process.

use libtest_mimic::{Arguments, Trial};

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let trials = (0..1000)
        .map(|i| Trial::test(format!("empty::case-{i:04}"), || Ok(())))
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}
