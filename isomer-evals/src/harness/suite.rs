//! [`Suite`]: what an `#[isomer_eval]` function returns, a runtime plus run options.

use isomer_sdk::AuthoringProfile;

use crate::case::{EvalCase, Generate, Judge, Prompt};
use crate::html::EvalPage;
use crate::report::EvalReport;
use crate::run::{DEFAULT_GUIDE, RunEvalsOptions, eval_prompt, run_evals};
use crate::runtime::{EvalFrame, EvalRuntime};

/// The runtime under test and the [`run_evals`] options the harness runs a corpus with.
///
/// An `#[isomer_eval]` function returns a `Suite`, or anything that converts into one: any
/// [`EvalRuntime`] that is `Send + 'static` converts with the default options. The harness
/// calls the function once per process, when the first trial of the suite runs (`--list`
/// and a `--exact` run of another suite's trial never call it), and every trial of the
/// suite shares what it returned; a panic while building fails that trial, and the next
/// trial calls the function again. The harness supplies the corpus and the replayed
/// `generate` / `judge` itself, and never calls a model.
///
/// ```no_run
/// use isomer_evals::EvalRuntime;
/// use isomer_evals::harness::Suite;
///
/// fn slides(runtime: impl EvalRuntime + Send + 'static) -> Suite {
///     Suite::new(runtime).rules("One slide per answer.").concurrency(4)
/// }
/// ```
pub struct Suite {
    runtime: Box<dyn EvalRuntime + Send>,
    profile: AuthoringProfile,
    guide: String,
    rules: Option<String>,
    concurrency: usize,
    retry_on_invalid: bool,
    frame: Option<Box<dyn EvalFrame + Send>>,
}

impl Suite {
    /// A suite over `runtime` with [`RunEvalsOptions::new`]'s defaults: the general profile,
    /// [`DEFAULT_GUIDE`], no rules, one case in flight, the retry on, no frame.
    pub fn new(runtime: impl EvalRuntime + Send + 'static) -> Self {
        Suite {
            runtime: Box::new(runtime),
            profile: AuthoringProfile::General,
            guide: DEFAULT_GUIDE.to_owned(),
            rules: None,
            concurrency: 1,
            retry_on_invalid: true,
            frame: None,
        }
    }

    /// The prompt's framing (default [`AuthoringProfile::General`]).
    pub fn profile(mut self, profile: AuthoringProfile) -> Self {
        self.profile = profile;
        self
    }

    /// The prompt's `## Guide` section (default [`DEFAULT_GUIDE`]).
    pub fn guide(mut self, guide: impl Into<String>) -> Self {
        self.guide = guide.into();
        self
    }

    /// The prompt's `## Rules` section (default none; empty drops the section).
    pub fn rules(mut self, rules: impl Into<String>) -> Self {
        self.rules = Some(rules.into());
        self
    }

    /// Cases in flight at once within one trial (default `1`; `0` counts as `1`). Only the
    /// `totals` trial runs more than one case; case trials already run in parallel under
    /// `--test-threads`.
    pub fn concurrency(mut self, concurrency: usize) -> Self {
        self.concurrency = concurrency;
        self
    }

    /// Whether an invalid first attempt gets its single retry (default `true`). The replay
    /// reads `answers/<id>.1.txt` only when a retry is asked for.
    pub fn retry_on_invalid(mut self, retry: bool) -> Self {
        self.retry_on_invalid = retry;
        self
    }

    /// A frame whose body rule every attempt must pass (default none).
    pub fn frame(mut self, frame: impl EvalFrame + Send + 'static) -> Self {
        self.frame = Some(Box::new(frame));
        self
    }

    /// The authoring prompt these options build (what `prompt.txt` must hold).
    pub fn prompt(&self) -> String {
        eval_prompt(
            &*self.runtime,
            self.profile,
            &self.guide,
            self.rules.as_deref(),
        )
    }

    /// Runs `corpus` through [`run_evals`] with `generate` and `judge`, to completion on the
    /// calling thread. The harness keeps its suites to the end of the process, so the prompt
    /// is built from this suite only if a request reads it.
    pub(crate) fn run<'a>(
        &'static self,
        corpus: Vec<EvalCase>,
        generate: Generate<'a>,
        judge: Option<Judge<'a>>,
    ) -> EvalReport {
        let mut options = RunEvalsOptions::new(&*self.runtime, corpus, generate);
        options.prompt = Some(Prompt::lazy(|| self.prompt()));
        options.judge = judge;
        options.profile = self.profile;
        options.guide = self.guide.clone();
        options.rules = self.rules.clone();
        options.concurrency = self.concurrency;
        options.retry_on_invalid = self.retry_on_invalid;
        options.frame = self.frame.as_deref().map(|frame| frame as &dyn EvalFrame);
        futures::executor::block_on(run_evals(options))
    }
}

impl Suite {
    /// The HTML report of `report`, a run of `cases` under this suite's options: its
    /// runtime renders, its frame checks each attempt.
    pub(crate) fn page<'a>(
        &'a self,
        name: &'a str,
        report: &'a EvalReport,
        cases: &'a [EvalCase],
    ) -> EvalPage<'a> {
        let page = EvalPage::new(name, report, cases, &*self.runtime);
        match self.frame.as_deref() {
            Some(frame) => page.frame(frame),
            None => page,
        }
    }
}

impl<R: EvalRuntime + Send + 'static> From<R> for Suite {
    /// A suite over the runtime with the default options.
    fn from(runtime: R) -> Self {
        Suite::new(runtime)
    }
}

impl std::fmt::Debug for Suite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Suite")
            .field("profile", &self.profile)
            .field("guide", &self.guide)
            .field("rules", &self.rules)
            .field("concurrency", &self.concurrency)
            .field("retry_on_invalid", &self.retry_on_invalid)
            .field("frame", &self.frame.is_some())
            .finish_non_exhaustive()
    }
}
