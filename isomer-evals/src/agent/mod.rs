//! Agent evals (upstream `runAgentEvals`): instead of one prompt
//! holding the whole catalog, an agent discovers primitives through tools,
//! and what it spends doing so is what these measure.
//!
//! [`run_agent_evals`] offers the tools (the sdk's [`isomer_sdk::Tool`], so
//! this crate needs no dependency on the agent tools), runs the calls the
//! model makes through the caller's [`AgentStep`], and scores the answer
//! each run ends on; [`format_agent_report`] prints the totals. The eval
//! harness replays recorded transcripts (`transcripts/<case id>.<repeat>.json`,
//! see [`crate::harness::agent`]) through a replaying step, so a run is
//! deterministic.
//!
//! | piece | module |
//! |---|---|
//! | messages, step, calls, results | `types` |
//! | the loop and the scoring | `run` |
//! | totals and the text report | `report` |
//! | transcripts on disk and the replaying step | `replay` |

mod replay;
mod report;
mod run;
mod types;

/// The token meter's unit, defined beside [`crate::UsageMeter`] that adds it up.
pub use crate::case::AgentUsage;
pub(crate) use replay::AgentRecordingError;
pub(crate) use replay::AgentRecordings;
pub(crate) use replay::read_agent_case_recordings;
pub(crate) use replay::{
    AgentReplay, RecordedRun, RecordedTurn, TRANSCRIPTS_DIR, TurnKey, read_agent_recordings,
};
pub(crate) use report::agent_report_table;
pub use report::{AgentEvalReport, AgentEvalTotals, format_agent_report};
pub(crate) use run::DEFAULT_AGENT_SYSTEM;
pub(crate) use run::DEFAULT_MAX_TURNS;
pub use run::{RunAgentEvalsOptions, run_agent_evals};
pub use types::{
    AgentEvalCaseResult, AgentMessage, AgentRunError, AgentRunStage, AgentStep, AgentStepRequest,
    AgentStepResult, AgentToolCall, AgentToolResult, AgentToolSpec, ToolsCalledScore,
};
