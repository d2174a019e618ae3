//! Score whether a model, handed a pack's authoring context, writes valid
//! and well-chosen Isomer compositions (the Rust port of upstream
//! `@elastic/isomer-evals`).
//!
//! Scoring ([`run_evals`], [`check_attempt`], the reports and pages) never
//! calls a model, reads no environment variable and writes no file: the model
//! ([`Generate`]) and the answerability judge ([`Judge`]) are caller callbacks,
//! and a `generate` that replays recorded answers makes a run deterministic,
//! which is how it belongs in CI. Only the test harness ([`harness`], what
//! `#[isomer_eval]` writes) reads `ISOMER_EVAL_*` variables, calls the live
//! model a suite configures when asked to record, and writes recordings, run
//! files and baselines, as insta's harness does.
//!
//! ```no_run
//! # async fn example(runtime: &dyn isomer_evals::EvalRuntime) {
//! use isomer_evals::{EvalCase, Generate, RunEvalsOptions, format_report, run_evals};
//!
//! let corpus = vec![EvalCase::new("queue-health", "How many items are open right now?")];
//! let generate = Generate::new(|request| async move {
//!     // Send `request.prompt`, then `## Request` with `request.eval_case.prompt`,
//!     // then `## Previous errors` when `request.previous_errors` is set.
//!     Ok::<_, isomer_evals::BoxError>(String::from("{\"type\":\"view\",\"body\":[]}"))
//! });
//! let mut options = RunEvalsOptions::new(runtime, corpus, generate);
//! options.concurrency = 4;
//! let report = run_evals(options).await;
//! println!("{}", format_report(&report));
//! # }
//! ```
//!
//! # The axes
//!
//! [`run_evals`] scores every run on each axis, into its [`EvalCaseResult`]:
//!
//! - **validity** ([`ValidityScore`]): the first attempt was JSON, passed
//!   the schema parse, validation and the optional [`EvalFrame`]'s body rule;
//!   `validAfterRetry` credits the single retry, which is handed the first
//!   attempt's errors. The gap between the two measures how actionable the
//!   validator's messages are.
//! - **selection** ([`PrimitiveSelectionScore`]): multiset precision,
//!   recall and F1 of the node types against the golden's, counted over the
//!   whole tree through the child hooks.
//! - **expected primitives** ([`ExpectedPrimitivesScore`]): a hit when any
//!   of the case's expected types is a node anywhere in the answer.
//! - **payload** ([`PayloadScore`]): bytes as sent, bytes of the validated
//!   copy, the ratio to the golden, and node types the catalog lacks, always
//!   of the first attempt (none for an answer over the input budget, which
//!   the run stops reading at the first value over it).
//! - **answerability** ([`AnswerabilityScore`]): the judge's verdict on the
//!   text rendering; skipped without a judge.
//!
//! Selection, the expected hit and answerability read only a composition that
//! validated (first attempt or retry). [`format_report`] prints the totals
//! byte-identically to upstream's `formatReport`.
//!
//! # Design choice: failures are per case
//!
//! Upstream rejects the whole run when a callback throws. Here a `generate`,
//! text render or `judge` that fails or panics marks only its case (see
//! [`CaseError`]), which the totals and the report count, and the run goes
//! on, so one flaky model call never loses a corpus.

#![forbid(unsafe_code)]

#[doc(hidden)]
pub mod __private;
pub mod agent;
pub mod baseline;
mod callback;
mod case;
mod check;
pub mod compare;
pub mod corpus;
pub mod floor;
pub mod harness;
pub mod html;
pub mod merge;
mod parse;
pub mod recordings;
mod report;
mod report_table;
mod run;
pub mod run_file;
mod runtime;
mod score;
pub mod scorer;
#[cfg(test)]
mod tests;

// The unit tests under `tests` name this crate as its users do.
#[cfg(test)]
extern crate self as isomer_evals;

// The agent evals' entry points, also under `agent`.
pub use agent::{AgentEvalReport, RunAgentEvalsOptions, format_agent_report, run_agent_evals};

pub(crate) use callback::CallFailure;
pub use callback::Callback;
pub use case::{
    AnswerabilityVerdict, EvalCase, ExpectedTools, Generate, GenerateRequest, Judge, JudgeRequest,
    Prompt, UsageMeter,
};
pub use check::{CheckedAttempt, check_attempt};
pub use parse::strip_code_fence;
pub use report::{
    AnswerabilityTotals, CaseError, CaseStage, EvalCaseResult, EvalReport, EvalTotals,
    ExpectedTotals, Mean, MeasuredTotals, Percentiles, format_measurements, format_report,
};
pub use run::{RunEvalsOptions, eval_prompt, run_evals};
pub use runtime::{BoxError, EvalFrame, EvalRuntime, TextCheck, ValidText};
pub use score::{
    AnswerabilityScore, ExpectedPrimitivesScore, PayloadScore, PrimitiveSelectionScore,
    ValidityScore,
};
pub use scorer::{Scored, Scorer, ScorerInput, ScorerValue};

/// Turns a function returning a runtime into an eval gate; see [`harness`].
pub use isomer_evals_macros::isomer_eval;
