//! Suites of both kinds in one target, as `main!` passes them: two with one name refuse to
//! run.

use isomer_evals::__private::AnySuiteSpec;
use libtest_mimic::Arguments;

use super::{run_with, runtime};

// Two suites of different kinds sharing the name `twice`, for the test below.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", main = false, name = "twice")]
fn twice_single() -> runtime::MiniRuntime {
    runtime::MiniRuntime
}

#[isomer_evals::isomer_eval(
    corpus = "tests/fixtures/eval/mini-agent",
    agent,
    main = false,
    name = "twice"
)]
fn twice_agent() -> isomer_evals::harness::agent::AgentSuite {
    isomer_evals::harness::agent::AgentSuite::new(
        std::sync::Arc::new(runtime::MiniRuntime),
        Vec::new(),
    )
}

/// Two suites of different kinds with one name: the target runs nothing, not even
/// `--list`, and fails (the message, `error: two suites in this target are named ...`, is
/// pinned in `harness/gate.rs`'s unit tests).
#[test]
fn two_suites_of_different_kinds_with_one_name_refuse_to_run() {
    let suites = [
        AnySuiteSpec::from(isomer_evals::suite!(twice_single)),
        AnySuiteSpec::from(isomer_evals::suite!(twice_agent)),
    ];
    for args in [
        &["gate", "--list"][..],
        &["gate", "--exact", "twice::good"],
        &["gate"],
    ] {
        let conclusion = run_with(&suites, &[], &Arguments::from_iter(args.iter().copied()));
        assert_eq!(
            (
                conclusion.num_passed,
                conclusion.num_failed,
                conclusion.num_filtered_out
            ),
            (0, 1, 0),
            "{args:?}"
        );
    }
}
