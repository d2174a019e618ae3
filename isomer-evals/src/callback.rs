//! The one type of a caller callback ([`Callback`]) and the one guard every call goes
//! through ([`Callback::call_guarded`], [`guard`]), with [`CaseError`], what a failed call
//! of a single-shot case becomes.
//!
//! `generate` ([`Generate`](crate::Generate)), `judge` ([`Judge`](crate::Judge)) and an
//! agent's `step` ([`AgentStep`](crate::agent::AgentStep)) are this one type with their
//! own request and answer. A call that returns `Err` or panics (while it starts or while
//! its future runs) comes back as a [`CallFailure`], never as a panic of the run, so one
//! flaky model call marks its case only. Every call of a run goes through
//! [`Callback::call_within`], the one place a per-call limit (a timeout) applies: a call
//! still unanswered when its timeout ends is dropped (the future is never polled again)
//! and comes back as a [`CallFailure`] with `timed_out` set.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::runtime::BoxError;

type CallFn<'a, Req, Out> = dyn Fn(Req) -> BoxFuture<'a, Result<Out, BoxError>> + Send + Sync + 'a;

/// A caller callback: an async function from a `Req` to `Result<Out, BoxError>`,
/// shareable across the concurrent cases of a run (`Clone` shares it).
pub struct Callback<'a, Req, Out>(Arc<CallFn<'a, Req, Out>>);

impl<'a, Req, Out> Callback<'a, Req, Out> {
    /// Wraps an async closure: `Generate::new(|request| async move { Ok(text) })`.
    pub fn new<F, Fut>(f: F) -> Self
    where
        F: Fn(Req) -> Fut + Send + Sync + 'a,
        Fut: Future<Output = Result<Out, BoxError>> + Send + 'a,
    {
        Callback(Arc::new(move |request| Box::pin(f(request))))
    }

    /// Starts one call, unguarded: a panic in the closure unwinds into the caller.
    pub fn call(&self, request: Req) -> BoxFuture<'a, Result<Out, BoxError>> {
        (self.0)(request)
    }

    /// Makes one call under the guard, failing it when it has not answered within
    /// `timeout` (`None`: no limit): an `Err`, or a panic while the call starts or while
    /// its future runs, comes back as a [`CallFailure`].
    ///
    /// A call past its timeout is dropped and comes back as a [`CallFailure`] with
    /// `timed_out` set and the message `timed out after <timeout>` (the duration as
    /// `Duration`'s `Debug` prints it: `2s`, `1.5s`, `250ms`). The limit is kept by Tokio's
    /// timer, so a call with a timeout must run inside a Tokio runtime with its time driver
    /// enabled (the eval harness runs one). Outside any Tokio runtime the call fails at
    /// once saying so, rather than waiting without a limit; inside one built without
    /// `enable_time`, Tokio panics, which the run records as that case's failure. Without
    /// a timeout any executor works.
    pub(crate) async fn call_within(
        &self,
        request: Req,
        timeout: Option<Duration>,
    ) -> Result<Out, CallFailure> {
        let Some(limit) = timeout else {
            return guard(|| self.call(request)).await;
        };
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(CallFailure {
                panicked: false,
                timed_out: false,
                message: format!(
                    "a timeout of {limit:?} needs a Tokio runtime with its time driver enabled, and this call runs outside any; run the evals inside one, or set no timeout"
                ),
            });
        }
        match tokio::time::timeout(limit, guard(|| self.call(request))).await {
            Ok(answer) => answer,
            Err(_elapsed) => Err(CallFailure {
                panicked: false,
                timed_out: true,
                message: format!("timed out after {limit:?}"),
            }),
        }
    }
}

impl<Req, Out> Clone for Callback<'_, Req, Out> {
    fn clone(&self) -> Self {
        Callback(Arc::clone(&self.0))
    }
}

impl<Req, Out> std::fmt::Debug for Callback<'_, Req, Out> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Callback(..)")
    }
}

/// A call that did not answer: it returned an error, panicked, or ran past its timeout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CallFailure {
    /// True when the call panicked rather than returning an error.
    pub panicked: bool,
    /// True when the call was still unanswered when its timeout ended
    /// ([`Callback::call_within`]).
    pub timed_out: bool,
    /// The error's `Display` text, or the panic's message.
    pub message: String,
}

/// Starts a future with `start` and awaits it; an `Err`, or a panic in `start` or in the
/// future, comes back as a [`CallFailure`]. The guard of [`Callback::call_guarded`], for
/// calls that are not a [`Callback`] (an agent tool's handler).
pub async fn guard<T, F, Fut>(start: F) -> Result<T, CallFailure>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<T, BoxError>>,
{
    let panicked = |panic: Box<dyn std::any::Any + Send>| CallFailure {
        panicked: true,
        timed_out: false,
        message: panic_message(&*panic),
    };
    let future = match std::panic::catch_unwind(AssertUnwindSafe(start)) {
        Ok(future) => future,
        Err(panic) => return Err(panicked(panic)),
    };
    match AssertUnwindSafe(future).catch_unwind().await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(CallFailure {
            panicked: false,
            timed_out: false,
            message: error.to_string(),
        }),
        Err(panic) => Err(panicked(panic)),
    }
}

/// The text of a panic payload (`panic!("...")` gives a `&str` or a `String`).
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(message) = panic.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = panic.downcast_ref::<String>() {
        message.clone()
    } else {
        "a panic with no message".to_owned()
    }
}

/// The step of a case that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseStage {
    /// The caller's `generate`.
    Generate,
    /// The runtime's text surface, rendering for the judge.
    Render,
    /// The caller's `judge`.
    Judge,
    /// The scoring itself (a runtime or child hook that panicked).
    Score,
}

impl CaseStage {
    fn label(self) -> &'static str {
        match self {
            CaseStage::Generate => "generate",
            CaseStage::Render => "text render",
            CaseStage::Judge => "judge",
            CaseStage::Score => "scoring",
        }
    }
}

/// Why a case did not complete: a callback or surface that returned an
/// error, panicked or ran past the run's timeout. The run records it and goes on
/// with the other cases.
///
/// Displays as `generate attempt 1 failed: <message>`, `judge panicked:
/// <message>`, `text render failed: <message>`, `generate attempt 0 failed:
/// timed out after 2s`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseError {
    /// Which step failed.
    pub stage: CaseStage,
    /// For `generate`: the attempt (`0` or `1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt: Option<u32>,
    /// True when the step panicked rather than returning an error.
    pub panicked: bool,
    /// The error's `Display` text, the panic's message, or for a step past the run's
    /// timeout `timed out after <timeout>`.
    pub message: String,
}

impl CaseError {
    /// A step that returned `error`.
    pub fn failed(stage: CaseStage, attempt: Option<u32>, error: &dyn std::fmt::Display) -> Self {
        CaseError {
            stage,
            attempt,
            panicked: false,
            message: error.to_string(),
        }
    }

    /// A step that panicked with `message`.
    pub fn panicked(stage: CaseStage, attempt: Option<u32>, message: impl Into<String>) -> Self {
        CaseError {
            stage,
            attempt,
            panicked: true,
            message: message.into(),
        }
    }

    /// True when the case has no first attempt to report: `generate`
    /// attempt 0 failed, or scoring panicked.
    pub(crate) fn before_first_attempt(&self) -> bool {
        self.stage == CaseStage::Score
            || (self.stage == CaseStage::Generate && self.attempt == Some(0))
    }
}

impl std::fmt::Display for CaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.stage.label())?;
        if let Some(attempt) = self.attempt {
            write!(f, " attempt {attempt}")?;
        }
        let outcome = if self.panicked { "panicked" } else { "failed" };
        write!(f, " {outcome}: {}", self.message)
    }
}

impl std::error::Error for CaseError {}

/// Runs `render`, a render of the text surface (what a judge reads): a surface error or a
/// panic becomes the case's error at stage `render`, never a panic of the run.
pub(crate) fn guarded_render(
    render: impl FnOnce() -> Result<String, BoxError>,
) -> Result<String, CaseError> {
    match std::panic::catch_unwind(AssertUnwindSafe(render)) {
        Ok(Ok(rendered)) => Ok(rendered),
        Ok(Err(error)) => Err(CaseError::failed(CaseStage::Render, None, &*error)),
        Err(panic) => Err(CaseError::panicked(
            CaseStage::Render,
            None,
            panic_message(&*panic),
        )),
    }
}

impl CaseError {
    /// The error of a failed call at `stage` (and `attempt`, for `generate`).
    pub(crate) fn from_failure(
        stage: CaseStage,
        attempt: Option<u32>,
        failure: CallFailure,
    ) -> Self {
        CaseError {
            stage,
            attempt,
            panicked: failure.panicked,
            message: failure.message,
        }
    }
}
