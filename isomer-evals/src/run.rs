//! [`run_evals`]: run a corpus through the caller's model and score every
//! case (upstream `runEvals`).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{FutureExt, StreamExt};
use isomer_sdk::{AuthoringProfile, PromptContext, build_authoring_prompt};

use crate::callback::panic_message;
use crate::case::{EvalCase, Generate, GenerateRequest, Judge, Prompt, UsageMeter};
use crate::check::{CheckedAttempt, check_attempt_and_render};
use crate::parse::read_generated;
use crate::report::{CaseError, CaseMeasures, CaseStage, EvalCaseResult, EvalReport};
use crate::runtime::{EvalFrame, EvalRuntime};
use crate::score::{
    ExpectedPrimitivesScore, NodeTypes, PayloadScore, PrimitiveSelectionScore, ValidityScore,
    expected_of, judge_rendered, payload_of, score_expected_primitives, selection_of,
    validity_without_composition,
};
use crate::scorer::{Scorer, score_run};

/// The guide a run prints under `## Guide` when the options give none: answer
/// with one composition, and prefer one primitive that covers the whole
/// answer over several that each cover part of it (upstream's default guide).
pub(crate) const DEFAULT_GUIDE: &str = "Answer with a single composition. When one primitive can \
carry the whole answer, use it rather than several primitives that each carry a part.";

/// What [`run_evals`] runs (upstream `RunEvalsOptions`). Build it with
/// [`RunEvalsOptions::new`] and set the optional fields directly.
///
/// `'r` borrows the runtime and the frame; `'c` is what the callbacks may
/// borrow (`'static` for callbacks that own their state).
pub struct RunEvalsOptions<'r, 'c> {
    /// The runtime under test: authoring context, parse, validate, text
    /// surface and child hooks.
    pub runtime: &'r dyn EvalRuntime,
    /// The cases, each run [`RunEvalsOptions::repeat`] times (each run with at most one
    /// retry), in this order. Shared, not copied: the run and every
    /// [`GenerateRequest`] hold the same case, and a caller that keeps its
    /// own `Arc`s can run the corpus again without cloning any golden.
    pub corpus: Vec<Arc<EvalCase>>,
    /// The model call.
    pub generate: Generate<'c>,
    /// The answerability judge; without it that axis is skipped. Default
    /// `None`.
    pub judge: Option<Judge<'c>>,
    /// The prompt's framing. Default [`AuthoringProfile::General`].
    pub profile: AuthoringProfile,
    /// Allow the single retry of an attempt that is not JSON, not a valid
    /// composition, or refused by the frame. Default `true`.
    pub retry_on_invalid: bool,
    /// The prompt's `## Guide` section. Default, upstream's default guide: "Answer with a
    /// single composition. When one primitive can carry the whole answer, use it rather
    /// than several primitives that each carry a part." (answer with one composition, and
    /// prefer one primitive that covers the whole answer over several that each cover
    /// part of it). [`eval_prompt`] with this guide builds the prompt of a run.
    pub guide: String,
    /// The prompt's `## Rules` section; `None` or empty drops it. Default
    /// `None`.
    pub rules: Option<String>,
    /// Cases in flight at once; `0` counts as `1`. Default `1`.
    pub concurrency: usize,
    /// A frame whose body rule every attempt must also pass (the slides
    /// frame requires exactly one `slideFrame`). Default `None`.
    pub frame: Option<&'r dyn EvalFrame>,
    /// The longest each `generate` and `judge` call may take; a call past it
    /// fails its case at that stage (`generate attempt 0 failed: timed out after
    /// 2s`) and the run goes on with the other cases. `None`: no
    /// limit, which suits a replay (it answers from files). A run with a
    /// timeout must be driven inside a Tokio runtime with its time driver
    /// enabled (see [`Callback`](crate::Callback)).
    /// Default `None`.
    pub timeout: Option<Duration>,
    /// Runs per case (`0` counts as `1`). Each run calls `generate` (and `judge`) afresh,
    /// with [`GenerateRequest::repeat`] telling which run it is; the report then gives each
    /// axis's mean and standard error across the repeats and each case's spread
    /// ([`format_report`](crate::format_report) prints them; the report's JSON holds them
    /// as `totals.repeats`, and the harness's run file as its `axes`). Default `1`.
    pub repeat: u32,
    /// Measure each run's wall time around `generate` and `judge` and the tokens the calls
    /// report ([`UsageMeter`](crate::UsageMeter)), into
    /// each result and [`EvalTotals::measured`](crate::EvalTotals::measured).
    /// Set it for a live run; a replay leaves it off, since what it would measure is file
    /// reads, and its report stays deterministic. Default `false`.
    pub measure: bool,
    /// Pack scorers ([`crate::scorer`]): each gives every run its value after the built-in
    /// scoring, into [`EvalCaseResult::scorers`] and
    /// [`EvalTotals::scorers`](crate::EvalTotals::scorers). Default none.
    pub scorers: &'r [Scorer],
    /// The prompt these options build, when the caller can build it later
    /// than the run starts (the eval harness, whose suite outlives the run,
    /// builds it only if a request reads it). `None`: the run takes the
    /// runtime's authoring context when it starts.
    pub(crate) prompt: Option<Prompt>,
}

impl<'r, 'c> RunEvalsOptions<'r, 'c> {
    /// Options with every default: no judge, the general profile, retry on,
    /// the default guide, no rules, one case at a time, no frame.
    ///
    /// The cases are shared from here on; to run cases that are shared
    /// already, pass an empty list and set [`RunEvalsOptions::corpus`].
    pub fn new(
        runtime: &'r dyn EvalRuntime,
        corpus: Vec<EvalCase>,
        generate: Generate<'c>,
    ) -> Self {
        RunEvalsOptions {
            runtime,
            corpus: corpus.into_iter().map(Arc::new).collect(),
            generate,
            judge: None,
            profile: AuthoringProfile::General,
            retry_on_invalid: true,
            guide: DEFAULT_GUIDE.to_owned(),
            rules: None,
            concurrency: 1,
            frame: None,
            timeout: None,
            repeat: 1,
            measure: false,
            scorers: &[],
            prompt: None,
        }
    }
}

impl std::fmt::Debug for RunEvalsOptions<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunEvalsOptions")
            .field("corpus", &self.corpus)
            .field("judge", &self.judge.is_some())
            .field("profile", &self.profile)
            .field("retry_on_invalid", &self.retry_on_invalid)
            .field("guide", &self.guide)
            .field("rules", &self.rules)
            .field("concurrency", &self.concurrency)
            .field("frame", &self.frame.is_some())
            .field("timeout", &self.timeout)
            .field("repeat", &self.repeat)
            .field("measure", &self.measure)
            .field("scorers", &self.scorers)
            .finish_non_exhaustive()
    }
}

/// The authoring prompt a run hands `generate`, as upstream builds it: one
/// `build_authoring_prompt` call over the runtime's authoring context with
/// the options' profile, guide and rules, the schema, the full catalog, the
/// views, and no examples. It holds neither a case's prompt nor previous
/// errors; `generate` adds those.
pub fn eval_prompt(
    runtime: &dyn EvalRuntime,
    profile: AuthoringProfile,
    guide: &str,
    rules: Option<&str>,
) -> String {
    let context = runtime.authoring_context();
    prompt_from(&context, profile, guide, rules)
}

fn prompt_from(
    context: &isomer_sdk::AuthoringContext,
    profile: AuthoringProfile,
    guide: &str,
    rules: Option<&str>,
) -> String {
    build_authoring_prompt(
        profile,
        &PromptContext {
            guide,
            rules,
            schema: Some(&context.schema),
            primitives: &context.primitives,
            views: &context.views,
            ..PromptContext::default()
        },
    )
}

/// Runs every case and scores it (upstream `runEvals`).
///
/// Per case: `generate` attempt 0; [`check_attempt`](crate::check_attempt) once; when that is
/// not valid and `retry_on_invalid`, attempt 1 with `previous_errors`
/// (the parser's message, or the formatted findings); then validity,
/// payload (first attempt), selection and the expected hit (on the
/// composition that validated) and answerability (judge, on that
/// composition). At most two `generate` calls and one `judge` call per case.
///
/// Each answer is read under the runtime's input budget
/// ([`EvalRuntime::input_budget`](crate::EvalRuntime::input_budget)): text over it
/// stops being built at the first value over it, so a hostile answer costs little
/// more memory than its text. Such an attempt is JSON (`parsed`) but invalid, with
/// the budget's message (`input nests deeper than 64 levels`) as its one finding; its
/// payload's bytes are counted from the text, and no node of it is walked (there is
/// no value: the payload finds no invented type in it).
///
/// With `repeat > 1` each case runs that many times, each run as above, with
/// [`GenerateRequest::repeat`] and [`JudgeRequest::repeat`](crate::JudgeRequest::repeat)
/// naming the run. With `measure`, the wall time of each `generate` and `judge` call
/// (taken around the call, timeouts included) and the tokens the calls report are kept
/// per run.
///
/// Runs start in corpus order (the repeats of a case together) with at most
/// `concurrency` in flight; the report lists them in that order whatever order they
/// finish in. A `generate`, text render or `judge` that returns an error or panics
/// marks that case with a [`CaseError`] and the run goes on; so does a
/// panic while scoring, and a `generate` or `judge` call still unanswered
/// when [`RunEvalsOptions::timeout`] ends. Never fails as a whole.
pub async fn run_evals(mut options: RunEvalsOptions<'_, '_>) -> EvalReport {
    // The cases are shared with the run, not copied (goldens can be large).
    let corpus = std::mem::take(&mut options.corpus);
    // Every answer's types are looked up: a fast hasher (a lookup cannot
    // grow the set).
    let known_types: foldhash::HashSet<String> = options.runtime.node_types().into_iter().collect();
    let prompt = options.prompt.take().unwrap_or_else(|| {
        // The text is built when a request first reads it: a replaying `generate` never
        // does. The context is taken now, while the runtime is borrowed.
        let context = options.runtime.authoring_context();
        let (profile, guide, rules) = (
            options.profile,
            options.guide.clone(),
            options.rules.clone(),
        );
        Prompt::lazy(move || prompt_from(&context, profile, &guide, rules.as_deref()))
    });
    let run = RunContext {
        options: &options,
        prompt,
        known_types,
    };
    let repeat = options.repeat.max(1);
    let total_runs = corpus.len().saturating_mul(repeat as usize);
    let workers = options.concurrency.clamp(1, total_runs.max(1));
    // The runs are made as the stream asks for them: the repeats of a case together.
    let runs = corpus
        .into_iter()
        .flat_map(|eval_case| (0..repeat).map(move |index| (Arc::clone(&eval_case), index)));
    let results = futures::stream::iter(runs)
        .map(|(eval_case, repeat)| run.run_case_guarded(eval_case, repeat))
        .buffered(workers)
        .collect::<Vec<_>>()
        .await;
    EvalReport::new(results)
}

/// The scores of a case's attempts, before the judge.
struct AttemptScores {
    validity: ValidityScore,
    selection: Option<PrimitiveSelectionScore>,
    expected: Option<ExpectedPrimitivesScore>,
    payload: PayloadScore,
}

struct RunContext<'o, 'r, 'c> {
    options: &'o RunEvalsOptions<'r, 'c>,
    prompt: Prompt,
    known_types: foldhash::HashSet<String>,
}

impl RunContext<'_, '_, '_> {
    /// One case, with a panic anywhere in scoring recorded as the case's
    /// error rather than ending the run.
    async fn run_case_guarded(&self, eval_case: Arc<EvalCase>, repeat: u32) -> EvalCaseResult {
        let case_id = eval_case.id.clone();
        let mut meter = Meter::new(self.options.measure);
        let scorers = self.options.scorers;
        let runtime = self.options.runtime;
        let result = AssertUnwindSafe(async {
            let mut result = self
                .run_case(Arc::clone(&eval_case), repeat, &mut meter)
                .await;
            if !scorers.is_empty() {
                result.scorers = score_run(scorers, &eval_case, &result, runtime);
            }
            result
        })
        .catch_unwind()
        .await;
        let measured = meter.measures();
        match result {
            Ok(result) => EvalCaseResult { measured, ..result },
            Err(panic) => EvalCaseResult {
                case_id,
                repeat,
                measured,
                validity: no_validity(),
                selection: None,
                expected: None,
                payload: no_payload(),
                answerability: None,
                scorers: Vec::new(),
                error: Some(CaseError::panicked(
                    CaseStage::Score,
                    None,
                    panic_message(&*panic),
                )),
            },
        }
    }

    async fn run_case(
        &self,
        eval_case: Arc<EvalCase>,
        repeat: u32,
        meter: &mut Meter,
    ) -> EvalCaseResult {
        let options = self.options;
        let runtime = options.runtime;
        // The judge reads the text of the one attempt that validated: it is
        // rendered while that attempt is checked, from the same validation.
        let render = options.judge.is_some();
        // The model calls are boxed, and the attempts live in this block
        // only: a case's future then holds neither a call's state nor the
        // attempts while the judge runs. That keeps it under a kilobyte (it
        // is moved whole into the run's task list).
        let (scores, rendered, mut error) = {
            let (mut first, first_text) =
                match Box::pin(self.generate(&eval_case, repeat, 0, None, meter)).await {
                    Ok(raw) => check_attempt_and_render(
                        runtime,
                        read_generated(raw, runtime.input_budget()),
                        options.frame,
                        render,
                    ),
                    Err(error) => {
                        return EvalCaseResult {
                            case_id: eval_case.id.clone(),
                            repeat,
                            measured: None,
                            validity: no_validity(),
                            selection: None,
                            expected: eval_case.expected.as_deref().map(|expected| {
                                score_expected_primitives(runtime.walker(), None, expected)
                            }),
                            payload: no_payload(),
                            answerability: None,
                            error: Some(error),
                            scorers: Vec::new(),
                        };
                    }
                };
            let mut error = None;
            let mut retry = None;
            let mut retry_text = None;
            if options.retry_on_invalid && !first.is_valid() {
                let failures = Some(first.failures());
                match Box::pin(self.generate(&eval_case, repeat, 1, failures, meter)).await {
                    Ok(raw) => {
                        let (checked, text) = check_attempt_and_render(
                            runtime,
                            read_generated(raw, runtime.input_budget()),
                            options.frame,
                            render,
                        );
                        retry = Some(checked);
                        retry_text = text;
                    }
                    Err(failure) => error = Some(failure),
                }
            }
            // At most one of the two is present: a retry happens only after
            // an invalid first attempt, and only a valid attempt is rendered.
            let rendered = first_text.or(retry_text);
            let scores = self.score_attempts(&eval_case, &mut first, retry.as_mut());
            (scores, rendered, error)
        };
        let mut answerability = None;
        if let (Some(judge), Some(_), Some(rendered), None) = (
            &options.judge,
            scores.validity.composition.as_ref(),
            rendered,
            &error,
        ) {
            let usage = UsageMeter::default();
            let started = Instant::now();
            let judged = Box::pin(judge_rendered(
                judge,
                Arc::clone(&eval_case),
                rendered,
                (repeat, usage.clone()),
                options.timeout,
            ))
            .await;
            meter.judged(started, &usage);
            match judged {
                Ok(score) => answerability = Some(score),
                Err(failure) => error = Some(failure),
            }
        }
        EvalCaseResult {
            case_id: eval_case.id.clone(),
            repeat,
            measured: None,
            validity: scores.validity,
            selection: scores.selection,
            expected: scores.expected,
            payload: scores.payload,
            answerability,
            error,
            scorers: Vec::new(),
        }
    }

    /// The axes the attempts give without the judge; the validity score
    /// takes the composition that validated out of its attempt.
    fn score_attempts(
        &self,
        eval_case: &EvalCase,
        first: &mut CheckedAttempt,
        retry: Option<&mut CheckedAttempt>,
    ) -> AttemptScores {
        // The payload axis reads the first attempt's value as parsed.
        let walker = self.options.runtime.walker();
        let raw_types = first.value().map(|value| NodeTypes::of(walker, value));
        let payload = payload_of(
            first,
            raw_types.as_ref(),
            &self.known_types,
            eval_case.golden.as_ref(),
        );
        let (mut validity, source) = validity_without_composition(first, retry.as_deref());
        let composition = source.composition(first, retry.as_deref());
        // The tree axes read the composition that validated. When that is
        // the first attempt's value itself (nothing was sanitized away), the
        // payload's walk has already counted its node types.
        let is_raw_value = |composition: &serde_json::Value| {
            first
                .value()
                .is_some_and(|value| std::ptr::eq(value, composition))
        };
        let types = match (composition, raw_types) {
            (Some(composition), Some(types)) if is_raw_value(composition) => Some(types),
            _ => composition.map(|composition| NodeTypes::of(walker, composition)),
        };
        let selection = types
            .as_ref()
            .zip(eval_case.golden.as_ref())
            .map(|(types, golden)| selection_of(types, &NodeTypes::of(walker, golden)));
        let expected = eval_case
            .expected
            .as_deref()
            .map(|expected| expected_of(types.as_ref(), expected));
        validity.composition = source.take(first, retry);
        AttemptScores {
            validity,
            selection,
            expected,
            payload,
        }
    }

    async fn generate(
        &self,
        eval_case: &Arc<EvalCase>,
        repeat: u32,
        attempt: u32,
        previous_errors: Option<Vec<String>>,
        meter: &mut Meter,
    ) -> Result<String, CaseError> {
        let usage = UsageMeter::default();
        let request = GenerateRequest {
            eval_case: Arc::clone(eval_case),
            prompt: self.prompt.clone(),
            attempt,
            previous_errors,
            repeat,
            usage: usage.clone(),
        };
        let started = Instant::now();
        let answer = self
            .options
            .generate
            .call_within(request, self.options.timeout)
            .await;
        meter.generated(started, &usage);
        answer
            .map_err(|failure| CaseError::from_failure(CaseStage::Generate, Some(attempt), failure))
    }
}

/// What one run has cost so far, when the run measures
/// ([`RunEvalsOptions::measure`]).
struct Meter(Option<CaseMeasures>);

impl Meter {
    fn new(measure: bool) -> Self {
        Meter(measure.then(CaseMeasures::default))
    }

    /// Adds a `generate` call that started at `started` and ended now, and what it
    /// reported to `usage`.
    fn generated(&mut self, started: Instant, usage: &UsageMeter) {
        if let Some(measures) = &mut self.0 {
            measures.generate_ms += started.elapsed().as_secs_f64() * 1000.0;
            Self::add_tokens(measures, usage);
        }
    }

    /// Adds the `judge` call, likewise.
    fn judged(&mut self, started: Instant, usage: &UsageMeter) {
        if let Some(measures) = &mut self.0 {
            measures.judge_ms += started.elapsed().as_secs_f64() * 1000.0;
            Self::add_tokens(measures, usage);
        }
    }

    fn add_tokens(measures: &mut CaseMeasures, usage: &UsageMeter) {
        let usage = usage.total();
        measures.input_tokens = measures.input_tokens.saturating_add(usage.input_tokens);
        measures.output_tokens = measures.output_tokens.saturating_add(usage.output_tokens);
    }

    fn measures(&self) -> Option<CaseMeasures> {
        self.0
    }
}

fn no_validity() -> ValidityScore {
    ValidityScore {
        parsed: false,
        valid: false,
        valid_after_retry: false,
        errors: Vec::new(),
        composition: None,
    }
}

fn no_payload() -> PayloadScore {
    PayloadScore {
        raw_bytes: 0,
        sanitized_bytes: 0,
        size_vs_golden: None,
        unknown_types: Vec::new(),
    }
}
