//! The slides-agent gate: the recorded transcripts of `corpus/slides-agent` replayed
//! through `run_agent_evals` against the real slides agent tools, one trial per case
//! (`slides_agent::<case id>`) and `slides_agent::totals`, which holds the suite floors and
//! compares the baseline (`tests/snapshots/slides_agent__{report,report_text,baseline}.snap`).
//!
//! ```sh
//! cargo test -p isomer-evals --test slides_agent_eval
//! cargo test -p isomer-evals --test slides_agent_eval -- --exact slides_agent::release-plan
//! ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-evals --test slides_agent_eval -- --exact slides_agent::totals
//! ```
//!
//! Floors at the recorded baseline (8 cases, re-recorded 2026-12-01 against the
//! 40-primitive pack): every run ends on a valid answer within 6 turns and no tool call
//! fails; 7 of 8 runs use an expected type (release-plan took slideList); 4.0 turns per run
//! on average. The recording driver is the ignored `record_turns` unit test in
//! `src/agent/replay/transcript_tests.rs`.

mod agent_support;

use std::sync::Arc;

use isomer_evals::harness::agent::AgentSuite;

use agent_support::{slides_runtime, slides_tools};

#[isomer_evals::isomer_eval(
    corpus = "../corpus/slides-agent",
    agent,
    finished,
    valid,
    no_failed_calls,
    max_turns = 6,
    min_finished_ratio = 1.0,
    min_valid_ratio = 1.0,
    min_expected_hit_ratio = 0.875,
    max_mean_turns = 4.0
)]
fn slides_agent() -> AgentSuite {
    let runtime = slides_runtime();
    let tools = slides_tools(&runtime);
    AgentSuite::new(Arc::clone(&runtime), tools)
        .frame(isomer_slides::slide_deck_frame())
        .concurrency(2)
}
