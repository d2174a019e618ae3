//! [`Suite`]: what an `#[isomer_eval]` function returns, a runtime plus run options, and
//! the live callbacks record mode calls.

use std::time::Duration;

use isomer_sdk::AuthoringProfile;
use serde_json::{Map, Value};

use super::configuration::{Caps, Configuration};
use crate::case::{EvalCase, Generate, Judge, Prompt};
use crate::check::check_composition;
use crate::html::EvalPage;
use crate::report::EvalReport;
use crate::run::{DEFAULT_GUIDE, RunEvalsOptions, eval_prompt, run_evals};
use crate::run_file::Price;
use crate::runtime::{EvalFrame, EvalRuntime};
use crate::scorer::Scorer;

/// The runtime under test and the [`run_evals`] options the harness runs a corpus with.
///
/// An `#[isomer_eval]` function returns a `Suite`, or anything that converts into one: any
/// [`EvalRuntime`] that is `Send + 'static` converts with the default options. The harness
/// calls the function once per process, when the first trial of the suite runs (`--list`
/// and a `--exact` run of another suite's trial never call it), and every trial of the
/// suite shares what it returned; a panic while building fails that trial, and the next
/// trial calls the function again. The harness supplies the corpus and the replayed
/// `generate` / `judge` itself, and never calls a model unless `ISOMER_EVAL_RECORD` asks it
/// to record: then it calls the live callbacks declared here ([`Suite::live`],
/// [`Suite::judge`]) for the recordings it writes (see the
/// [harness docs](super#recording-a-corpus)).
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
    frame: Option<Box<dyn EvalFrame + Send>>,
    settings: Settings,
    /// What [`Suite::live`], [`Suite::judge`], [`Suite::provenance`] and [`Suite::price`]
    /// set: the one configuration of a suite that declares none.
    default: Configuration,
    /// The configurations declared with [`Suite::configuration`], in order.
    configurations: Vec<Configuration>,
    /// The caps of the whole run, every configuration together.
    caps: Caps,
    /// How long one live call may run.
    timeout: Duration,
    /// The pack scorers, in the order added ([`Suite::scorer`]).
    scorers: Vec<Scorer>,
}

/// The [`RunEvalsOptions`] a suite sets, beside the runtime and frame they borrow.
#[derive(Debug, Clone)]
struct Settings {
    profile: AuthoringProfile,
    guide: String,
    rules: Option<String>,
    concurrency: usize,
    retry_on_invalid: bool,
    repeat: u32,
}

/// How long record mode lets one live `generate` or `judge` call run before it fails that
/// case (`generate attempt 0 failed: timed out after 120s`): 120 seconds, time for a long
/// answer from a slow model, short enough that a stalled call does not hold a run.
pub const DEFAULT_LIVE_TIMEOUT: Duration = Duration::from_secs(120);

impl Suite {
    /// A suite over `runtime` with [`RunEvalsOptions::new`]'s defaults: the general profile,
    /// the default guide of [`RunEvalsOptions::guide`], no rules, one case in flight, the
    /// retry on, no frame.
    pub fn new(runtime: impl EvalRuntime + Send + 'static) -> Self {
        Suite {
            runtime: Box::new(runtime),
            frame: None,
            settings: Settings {
                profile: AuthoringProfile::General,
                guide: DEFAULT_GUIDE.to_owned(),
                rules: None,
                concurrency: 1,
                retry_on_invalid: true,
                repeat: 1,
            },
            default: Configuration::unlabeled(),
            configurations: Vec::new(),
            caps: Caps::default(),
            timeout: DEFAULT_LIVE_TIMEOUT,
            scorers: Vec::new(),
        }
    }

    /// The prompt's framing (default [`AuthoringProfile::General`]).
    pub fn profile(mut self, profile: AuthoringProfile) -> Self {
        self.settings.profile = profile;
        self
    }

    /// The prompt's `## Guide` section (default: that of [`RunEvalsOptions::guide`]).
    pub fn guide(mut self, guide: impl Into<String>) -> Self {
        self.settings.guide = guide.into();
        self
    }

    /// The prompt's `## Rules` section (default none; empty drops the section).
    pub fn rules(mut self, rules: impl Into<String>) -> Self {
        self.settings.rules = Some(rules.into());
        self
    }

    /// Cases in flight at once within one trial (default `1`; `0` counts as `1`). Only the
    /// `totals` trial runs more than one case; case trials already run in parallel under
    /// `--test-threads`.
    pub fn concurrency(mut self, concurrency: usize) -> Self {
        self.settings.concurrency = concurrency;
        self
    }

    /// Whether an invalid first attempt gets its single retry (default `true`). The replay
    /// reads `answers/<id>.1.txt` only when a retry is asked for.
    pub fn retry_on_invalid(mut self, retry: bool) -> Self {
        self.settings.retry_on_invalid = retry;
        self
    }

    /// A frame whose body rule every attempt must pass (default none).
    pub fn frame(mut self, frame: impl EvalFrame + Send + 'static) -> Self {
        self.frame = Some(Box::new(frame));
        self
    }

    /// The live model record mode calls for each attempt it records (default none). A
    /// replay never calls it. It is handed the same [`GenerateRequest`](crate::GenerateRequest)
    /// a replay answers, and what it returns is written, as it is, to
    /// `answers/<id>.<attempt>.txt`. This and [`Suite::judge`], [`Suite::provenance`],
    /// [`Suite::price`] declare the suite's one, default configuration; to run several
    /// models, declare each as a [`Suite::configuration`] instead.
    pub fn live(mut self, generate: Generate<'static>) -> Self {
        self.default.generate = Some(generate);
        self
    }

    /// The live judge record mode asks for each verdict it records (default none: record
    /// mode then replays the recorded verdicts, as a replay does). Its verdict is written to
    /// `judgments.json` with the text rendering it was given.
    pub fn judge(mut self, judge: Judge<'static>) -> Self {
        self.default.judge = Some(judge);
        self
    }

    /// What the live callbacks report of themselves (model, version, sampling settings),
    /// written with the date into `provenance.recording` of `corpus.json` and of
    /// `judgments.json` when record mode writes an answer or a verdict (default empty).
    pub fn provenance(mut self, provenance: Map<String, Value>) -> Self {
        self.default.provenance = provenance;
        self
    }

    /// What the live model's tokens cost (default none), as [`Configuration::price`] for
    /// the suite's default configuration: each live call's cost goes to the run file and
    /// the `totals` report. Prices the judge too.
    pub fn price(mut self, price: Price) -> Self {
        self.default.price = Some(price);
        self
    }

    /// A model configuration to run the suite against: its own label, live model, judge,
    /// recordings directory, price and caps (see [`Configuration`]). Each call adds one;
    /// a run goes over them in this order, or over those
    /// `ISOMER_EVAL_CONFIGURATIONS` names, and writes one run file per configuration. A suite that declares
    /// configurations declares no live model of its own ([`Suite::live`] and the rest are
    /// then refused, naming both).
    pub fn configuration(mut self, configuration: Configuration) -> Self {
        self.configurations.push(configuration);
        self
    }

    /// The most the run's live calls may cost, US dollars, every configuration together:
    /// reached, no further live call is made (see [`Configuration::max_cost`], which caps
    /// one configuration). Needs a price on every configuration that runs.
    pub fn max_cost(mut self, usd: f64) -> Self {
        self.caps.max_cost_usd = Some(usd);
        self
    }

    /// The most tokens (input and output together) the run's live calls may report,
    /// every configuration together (see [`Configuration::max_tokens`]).
    pub fn max_tokens(mut self, tokens: u64) -> Self {
        self.caps.max_tokens = Some(tokens);
        self
    }

    /// How long one live call may run in record mode before it fails its case (default
    /// [`DEFAULT_LIVE_TIMEOUT`], 120 s), in every configuration. A replay sets no limit:
    /// it answers from files.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Runs per case (default `1`; `0` counts as `1`), as
    /// [`RunEvalsOptions::repeat`]: a replay answers repeat `k` of a case from its own
    /// recordings (`answers/<id>.<attempt>.txt` for repeat 0, `answers/<id>.r<k>.<attempt>.txt`
    /// and the verdict under `<id>.r<k>` for a later one, see [`isomer_corpus::files`]),
    /// record mode writes them there, and the report gives each axis's mean and standard
    /// error across the repeats and each case's spread.
    pub fn repeat(mut self, repeat: u32) -> Self {
        self.settings.repeat = repeat.max(1);
        self
    }

    /// Adds a pack scorer ([`crate::scorer`]): an axis of its own, scored on every run of
    /// every case after the built-in axes, shown in the text report, the run file and the
    /// HTML report, and gated by its floors (its case floor in each case trial, its suite
    /// floor in `totals`). Scorers run, and show, in the order added.
    ///
    /// ```no_run
    /// use isomer_evals::harness::Suite;
    /// use isomer_evals::scorer::{Scored, Scorer};
    ///
    /// fn slides(runtime: impl isomer_evals::EvalRuntime + Send + 'static) -> Suite {
    ///     Suite::new(runtime).scorer(
    ///         Scorer::flag("has_title", |input| {
    ///             let composition = input.result.validity.composition.as_ref()?;
    ///             Some(Scored::flag(composition.get("title").is_some()))
    ///         })
    ///         .required(),
    ///     )
    /// }
    /// ```
    pub fn scorer(mut self, scorer: Scorer) -> Self {
        self.scorers.push(scorer);
        self
    }

    /// Adds each of `scorers`, in order, as [`Suite::scorer`] does (a pack's list of
    /// scorers, say).
    pub fn scorers(mut self, scorers: impl IntoIterator<Item = Scorer>) -> Self {
        self.scorers.extend(scorers);
        self
    }

    /// The pack scorers, in the order added.
    pub(crate) fn pack_scorers(&self) -> &[Scorer] {
        &self.scorers
    }

    /// Runs per case, as set with [`Suite::repeat`].
    pub(crate) fn repeat_count(&self) -> u32 {
        self.settings.repeat
    }

    /// The configurations a run may go over, in order: the declared ones, or the default
    /// one when none is declared.
    ///
    /// # Errors
    /// The suite declares configurations and a live model of its own too.
    pub(super) fn configurations(&self, name: &str) -> Result<&[Configuration], String> {
        if self.configurations.is_empty() {
            return Ok(std::slice::from_ref(&self.default));
        }
        if self.default.declares_anything() {
            return Err(format!(
                "suite `{name}` declares configurations and a live model of its own (`Suite::live`, `judge`, `provenance` or `price`): declare it as one more `Suite::configuration` instead"
            ));
        }
        Ok(&self.configurations)
    }

    /// The caps of the whole run.
    pub(super) fn caps(&self) -> &Caps {
        &self.caps
    }

    /// How long one live call may run.
    pub(super) fn live_timeout(&self) -> Duration {
        self.timeout
    }

    /// The authoring prompt these options build (what `prompt.txt` must hold).
    pub fn prompt(&self) -> String {
        let settings = &self.settings;
        eval_prompt(
            &*self.runtime,
            settings.profile,
            &settings.guide,
            settings.rules.as_deref(),
        )
    }

    /// Why the runtime (and the frame's body rule, when the suite has a frame) refuses
    /// `golden`, one formatted finding each (`body[0].label is required`); empty when the
    /// golden validates. A golden is checked as an answer is, so a golden no model answer
    /// could match is reported instead of silently moving `sizeVsGolden` and selection.
    pub(crate) fn golden_errors(&self, golden: &Value) -> Vec<String> {
        let checked = check_composition(
            &*self.runtime,
            golden,
            self.frame.as_deref().map(|frame| frame as &dyn EvalFrame),
        );
        if checked.valid {
            Vec::new()
        } else {
            checked.errors
        }
    }

    /// The entries of `expected` that name no type of the runtime's catalog, with their
    /// index in `expected`, in order: a typo there (`recipeCrad`) can never be hit, so the
    /// case trial names it instead of only saying `expected_hit: false`.
    pub(crate) fn unknown_expected<'e>(&self, expected: &'e [String]) -> Vec<(usize, &'e str)> {
        let known = self.runtime.node_types();
        expected
            .iter()
            .enumerate()
            .filter(|(_, name)| !known.contains(name))
            .map(|(index, name)| (index, name.as_str()))
            .collect()
    }

    /// Runs `corpus` through [`run_evals`] with `generate` and `judge`, to completion on
    /// the calling thread, inside a Tokio runtime (live callbacks and timeouts may need
    /// one). It measures nothing itself: record mode takes each live call's latency and
    /// tokens where the call is made (see `record.rs`).
    /// The harness keeps its suites to the end of the process, so the prompt is built from
    /// this suite only if a request reads it.
    pub(crate) fn run<'a>(
        &'static self,
        corpus: Vec<EvalCase>,
        generate: Generate<'a>,
        judge: Option<Judge<'a>>,
    ) -> EvalReport {
        let Settings {
            profile,
            guide,
            rules,
            concurrency,
            retry_on_invalid,
            repeat,
        } = self.settings.clone();
        let options = RunEvalsOptions {
            judge,
            profile,
            guide,
            rules,
            concurrency,
            retry_on_invalid,
            frame: self.frame.as_deref().map(|frame| frame as &dyn EvalFrame),
            repeat,
            prompt: Some(Prompt::lazy(|| self.prompt())),
            scorers: &self.scorers,
            ..RunEvalsOptions::new(&*self.runtime, corpus, generate)
        };
        block_on(run_evals(options))
    }
}

/// Drives `future` to completion on the calling thread, inside a current-thread Tokio
/// runtime with every driver this build of Tokio has (its timer included), so a live
/// callback may use Tokio and a timeout has its clock. A runtime that cannot be built
/// (the OS refused a resource) falls back to a plain executor without them.
pub(crate) fn block_on<F: std::future::Future>(future: F) -> F::Output {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(future),
        Err(_) => futures::executor::block_on(future),
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
        let page = EvalPage::new(name, report, cases, &*self.runtime).scorers(&self.scorers);
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
            .field("settings", &self.settings)
            .field("frame", &self.frame.is_some())
            .field("default", &self.default)
            .field("configurations", &self.configurations)
            .field("caps", &self.caps)
            .field("timeout", &self.timeout)
            .field("scorers", &self.scorers)
            .finish_non_exhaustive()
    }
}
