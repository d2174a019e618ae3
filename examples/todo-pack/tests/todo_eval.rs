//! The todo pack's eval gate: each case of `corpus/` is its own test (`todo_pack::<case
//! id>`), and `todo_pack::totals` checks the suite floors and the committed baseline in
//! `tests/snapshots/`.
//!
//! The suite function is named after the crate and calls `todo_pack::runtime()`: the
//! module `#[isomer_eval]` writes beside it does not take the function's name, so it
//! cannot shadow the crate.

#[isomer_evals::isomer_eval(
    corpus = "corpus",
    valid_after_retry,
    expected_hit,
    no_invented_types,
    min_selection_f1 = 1.0,
    max_size_vs_golden = 2.0,
    min_valid_ratio = 1.0
)]
fn todo_pack() -> isomer_evals::harness::Suite {
    isomer_evals::harness::Suite::new(todo_pack::runtime().expect("the todo runtime builds"))
        .rules("Answer with one todoList per request; mark finished tasks with done: true.")
}
