//! Agent evals (upstream `runAgentEvals`): instead of one prompt
//! holding the whole catalog, an agent discovers primitives through tools,
//! and what it spends doing so is what these measure.
//!
//! [`run_agent_evals`] offers the tools (the sdk's [`isomer_sdk::Tool`], so
//! this crate needs no dependency on the agent tools), runs the calls the
//! model makes through the caller's [`AgentStep`], and scores the answer
//! each run ends on; [`format_agent_report`] prints the totals;
//! [`AgentReplay`] replays recorded transcripts so a run is deterministic.
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
pub use replay::{
    AgentRecordingError, AgentRecordings, AgentReplay, RecordedRun, RecordedTurn, TRANSCRIPTS_DIR,
    TurnKey, read_agent_case_recordings, read_agent_recordings,
};
pub(crate) use report::agent_report_table;
pub use report::{
    AgentEvalReport, AgentEvalTotals, AgentMean, AgentToolCalls, format_agent_report,
};
pub use run::{
    DEFAULT_AGENT_SYSTEM, DEFAULT_MAX_TURNS, MAX_MESSAGE_DEPTH, RunAgentEvalsOptions,
    agent_tool_specs, run_agent_evals,
};
pub use types::{
    AgentEvalCall, AgentEvalCaseResult, AgentMessage, AgentRunError, AgentRunStage, AgentStep,
    AgentStepRequest, AgentStepResult, AgentToolCall, AgentToolResult, AgentToolSpec,
    ToolsCalledScore,
};
