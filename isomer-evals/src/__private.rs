//! Items the `#[isomer_eval]` expansion names. Not public API: the expansion and this
//! module change together (the macro crate is pinned with `=x.y.z`), so nothing here is
//! covered by semver. Every path the expansion emits goes through here
//! (`::isomer_evals::__private::…`, or `<crate>::__private::…` with `crate = "…"`), so a
//! renamed dependency only needs `crate = "…"`.

pub use crate::floor::Floor;
pub use crate::harness::agent::AgentSuite;
pub use crate::harness::any::{AgentSuiteSpec, AnySuiteSpec};
pub use crate::harness::spec::{CaseSpec, CorpusSpec, Spec, SuiteSpec};
pub use crate::harness::{Suite, run};
pub use std::process::ExitCode;
pub use std::{concat, env, include_str};

pub use crate::__harness_false_guard as harness_false_guard;
pub use isomer_evals_macros::__suite_spec as suite_spec;

/// The body of the guard test that `main!` and `#[isomer_eval]` write beside the target's
/// `main`: it only runs when cargo built the target with libtest's harness (no
/// `harness = false`), which ignores that `main`, so it fails saying what to add.
/// `writer` names the macro that wrote the `main`. The panic points at the macro call in
/// the target (`#[track_caller]`), not at this file.
#[track_caller]
pub fn needs_harness_false(writer: &str) -> ! {
    panic!(
        "{writer} writes this target's `main`, but cargo built the target with libtest's harness, which ignores that `main` and runs no eval trial: add `harness = false` to the target's `[[test]]` entry in Cargo.toml"
    )
}

/// Converts what an `#[isomer_eval]` function returns into a [`Suite`]. The expansion
/// calls it with the span of the function's return type, so a type that does not convert
/// is reported there.
pub fn into_suite<T: Into<Suite>>(value: T) -> Suite {
    value.into()
}

/// Converts what an agent `#[isomer_eval]` function returns into an [`AgentSuite`], with
/// the span of the function's return type.
pub fn into_agent_suite<T: Into<AgentSuite>>(value: T) -> AgentSuite {
    value.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message a guard test fails with, as libtest prints it after `panicked at`.
    fn guard_message(writer: &'static str) -> String {
        let payload = std::panic::catch_unwind(|| needs_harness_false(writer)).unwrap_err();
        payload.downcast::<String>().map(|text| *text).unwrap()
    }

    #[test]
    fn the_guard_names_the_macro_and_the_missing_key() {
        assert_eq!(
            guard_message("#[isomer_eval]"),
            "#[isomer_eval] writes this target's `main`, but cargo built the target with libtest's harness, which ignores that `main` and runs no eval trial: add `harness = false` to the target's `[[test]]` entry in Cargo.toml"
        );
        assert_eq!(
            guard_message("isomer_evals::main!"),
            "isomer_evals::main! writes this target's `main`, but cargo built the target with libtest's harness, which ignores that `main` and runs no eval trial: add `harness = false` to the target's `[[test]]` entry in Cargo.toml"
        );
    }
}
