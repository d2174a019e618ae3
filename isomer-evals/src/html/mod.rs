//! The HTML report: one self-contained page per run of a suite, to look at.
//!
//! The page is a single file with its stylesheet inline; it loads nothing (its
//! Content-Security-Policy forbids every fetch and every script) and needs no JavaScript.
//! It shows, from the report value the text report and the JSON are made of:
//!
//! - an index of the cases, failing ones first, each a link to its case (`#case-<id>`);
//! - the totals, row for row as [`format_report`](crate::format_report) prints them,
//!   beside the same rows of the baseline (the committed report), moved rows marked;
//! - each declared floor, met or missed (a case floor with the cases that miss it, each
//!   a link to the case);
//! - the recordings the replay found missing, stale or unusable;
//! - one block per case (a `<details>`, open when the case fails, collapsed when it
//!   passes; failing cases first): the request, the verdict (passes or fails its floors,
//!   the judge's answerability), the scores (the types a selection missed or added; "not
//!   measured" for the size and bytes of an invalid first attempt), each attempt's answer
//!   rendered through the runtime's html surface with that attempt's validation errors
//!   and the model text (a missing recording named as missing), and the golden rendered
//!   the same way (an agent suite's page shows each run instead: its turns, the
//!   tool calls with their input and result, and the answer);
//! - the text report, each case its lists name (`invalid:`, ...) a link to the case.
//!
//! All text is escaped with the sdk's escaping ([`isomer_sdk::Html::text`]), the one the
//! html surface applies to model text; renderings are the surface's own markup, which
//! escapes text and sanitizes URLs (`javascript:` becomes `#`) as it renders. So a case,
//! an answer or an error holding `<script>`, event attributes or `javascript:` links
//! shows as text and runs nothing.
//!
//! [`ComparePage`] lays out a comparison of run files ([`crate::compare::Comparison`]):
//! the matrix of cases × run files, each cell a verdict linking to the case's values in
//! every file.
//!
//! Build a page with [`ReportPage::new`], from the report of a single-shot run
//! ([`EvalReport`]) or of an agent run
//! ([`AgentEvalReport`](crate::AgentEvalReport)); [`AnswerLog`] keeps the
//! model text of each attempt of a run, which the report value does not hold. The eval
//! harness writes a page when `ISOMER_EVAL_HTML` names a directory (see
//! [`crate::harness`]); this module itself writes no file.
//!
//! ```no_run
//! # fn example(runtime: &isomer_sdk::Runtime, cases: Vec<isomer_evals::EvalCase>) {
//! use isomer_evals::html::{AnswerLog, ReportPage};
//! use isomer_evals::recordings::Recordings;
//! use isomer_evals::{RunEvalsOptions, run_evals};
//!
//! let recordings = Recordings::new("corpus/slides");
//! let answers = AnswerLog::new();
//! let options = RunEvalsOptions::new(runtime, cases.clone(), answers.tap(recordings.generate()));
//! let report = futures::executor::block_on(run_evals(options));
//! let findings = recordings.findings();
//! let page = ReportPage::new("slides", &report, &cases, runtime)
//!     .answers(&answers)
//!     .findings(&findings)
//!     .to_html();
//! std::fs::write("slides.html", page).unwrap();
//! # }
//! ```

mod agent;
mod compare_page;
mod page;
mod report_page;

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

use isomer_sdk::js_parity::to_fixed_2;

use crate::case::{AnswerabilityVerdict, EvalCase, Generate};
use crate::check::check_attempt;
use crate::floor::misses;
use crate::recordings::{ReplayFindings, StaleReason};
use crate::report::{CaseScores, EvalCaseResult, EvalReport, report_table};
use crate::report_table::{ReportTable, run_name};
use crate::runtime::EvalFrame;
use crate::scorer::{self, ScorerValue};
use isomer_corpus::{FloorLevel, SINGLE_SHOT_FLOORS};
use page::{
    CaseRow, FloorStatus, badge, esc, floor_statuses, write_errors, write_folded, write_rendering,
    write_scores,
};

pub(crate) use agent::AgentPage;
pub use compare_page::ComparePage;
pub use report_page::ReportPage;
pub(crate) use report_page::kind::Kind as PageKind;

/// The model text of every attempt of a run, keyed by case id and attempt: what the
/// report value does not hold and the page shows. [`AnswerLog::tap`] fills it from a
/// `generate`.
#[derive(Debug, Default)]
pub struct AnswerLog {
    answers: Mutex<BTreeMap<(String, u32), String>>,
}

impl AnswerLog {
    /// An empty log.
    pub fn new() -> Self {
        AnswerLog::default()
    }

    /// `generate`, keeping the text of each attempt it answers (an attempt that fails
    /// keeps nothing; the report names its error). Costs one copy of each answer.
    pub fn tap<'a>(&'a self, generate: Generate<'a>) -> Generate<'a> {
        Generate::new(move |request| {
            // Keyed by the run's recording name, so the repeats of a case stay apart.
            let key = (
                isomer_corpus::recording_name(&request.eval_case.id, request.repeat),
                request.attempt,
            );
            let call = generate.call(request);
            async move {
                let answer = call.await;
                if let Ok(text) = &answer {
                    self.answers
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .insert(key, text.clone());
                }
                answer
            }
        })
    }

    /// The attempts of case `case_id` that answered, in attempt order: `(attempt, text)`.
    /// For repeat `k ≥ 1` of a suite with repeats, pass the run's recording name
    /// (`<id>.r<k>`, [`isomer_corpus::recording_name`]).
    pub fn attempts(&self, case_id: &str) -> Vec<(u32, String)> {
        self.answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|((id, _), _)| id == case_id)
            .map(|((_, attempt), text)| (*attempt, text.clone()))
            .collect()
    }
}

/// The HTML report of a single-shot run; see the [module docs](self) and [`ReportPage`]
/// for the parts every page has. Without [`ReportPage::answers`] the page shows the
/// composition each case scored, not every attempt.
pub(crate) type EvalPage<'a> = ReportPage<'a, EvalReport>;

mod parts {
    use super::{AnswerLog, EvalFrame, ReplayFindings};

    /// The parts only a single-shot page has (the page's `Kind::Parts`).
    #[derive(Default)]
    pub struct EvalParts<'a> {
        pub(in crate::html) frame: Option<&'a dyn EvalFrame>,
        pub(in crate::html) answers: Option<&'a AnswerLog>,
        pub(in crate::html) findings: Option<&'a ReplayFindings>,
    }
}

impl report_page::kind::Kind for EvalReport {
    type Parts<'a> = parts::EvalParts<'a>;
    const TITLE: &'static str = "eval report";
    const SOUND: &'static str = "every recording the replay asked for is present and usable, and every verdict was given for the current rendering";
    const ANSWER_HEADING: &'static str = "answer";

    fn table(report: &Self) -> ReportTable {
        report_table(report)
    }

    fn lede(report: &Self) -> String {
        let totals = &report.totals;
        format!(
            "{} cases, {} valid on the first attempt, {} after the retry",
            totals.cases, totals.valid, totals.valid_after_retry
        )
    }

    fn floor_statuses(page: &EvalPage<'_>) -> Vec<FloorStatus> {
        let scores: Vec<CaseScores> = page
            .report
            .results
            .iter()
            .map(|result| page.scores(result))
            .collect();
        let repeated = page.report.totals.repeats.is_some();
        let units: Vec<(String, String, &dyn crate::floor::Scores)> = scores
            .iter()
            .map(|scores| {
                let result = scores.result;
                (
                    result.case_id.clone(),
                    case_anchor(result, repeated),
                    scores as &dyn crate::floor::Scores,
                )
            })
            .collect();
        let mut statuses =
            floor_statuses(page.floors, SINGLE_SHOT_FLOORS, &units, &page.report.totals);
        statuses.extend(scorer_floor_statuses(page, &units));
        statuses
    }

    /// The notes, then the findings' lines the notes do not already hold (the gate's
    /// notes are its failure lines, which print the findings too).
    fn recordings(page: &EvalPage<'_>) -> Vec<String> {
        let mut recordings: Vec<String> = page.notes.clone();
        if let Some(findings) = page.parts.findings {
            for line in findings.to_string().lines() {
                if !recordings.iter().any(|note| note == line) {
                    recordings.push(line.to_owned());
                }
            }
        }
        recordings
    }

    fn case_rows(page: &EvalPage<'_>, css: &mut String) -> Vec<CaseRow> {
        page.report
            .results
            .iter()
            .map(|result| page.case_row(result, css))
            .collect()
    }
}

impl<'a> EvalPage<'a> {
    /// The frame the run checked with, so each attempt's errors include its body rule.
    pub fn frame(mut self, frame: &'a dyn EvalFrame) -> Self {
        self.parts.frame = Some(frame);
        self
    }

    /// The model text of each attempt ([`AnswerLog::tap`] of the run's `generate`).
    pub fn answers(mut self, answers: &'a AnswerLog) -> Self {
        self.parts.answers = Some(answers);
        self
    }

    /// What the replay found missing, stale or unusable.
    pub fn findings(mut self, findings: &'a ReplayFindings) -> Self {
        self.parts.findings = Some(findings);
        self
    }

    fn case_of(&self, case_id: &str) -> Option<&EvalCase> {
        self.cases.iter().find(|case| case.id == case_id)
    }

    fn scores<'r>(&self, result: &'r EvalCaseResult) -> CaseScores<'r> {
        let has_golden = self
            .case_of(&result.case_id)
            .is_some_and(|case| case.golden.is_some());
        CaseScores { result, has_golden }
    }

    /// What is wrong with one case, as its trial would say it: floors missed, an error,
    /// missing or stale recordings.
    fn problems(&self, result: &EvalCaseResult) -> Vec<String> {
        // The recordings of a later repeat are noted under its recording name.
        let recording = isomer_corpus::recording_name(&result.case_id, result.repeat);
        let id = recording.as_str();
        let mut problems = misses(
            self.floors,
            SINGLE_SHOT_FLOORS,
            FloorLevel::Case,
            &self.scores(result),
        );
        problems.extend(scorer::case_misses(self.scorers, result));
        if let Some(error) = &result.error {
            problems.push(format!("did not complete: {error}"));
        }
        if let Some(findings) = self.parts.findings {
            for missing in findings
                .missing_recordings
                .iter()
                .filter(|m| m.case_id == id)
            {
                problems.push(format!("missing recording: {missing}"));
            }
            for stale in findings.stale_judgments.iter().filter(|s| s.case_id == id) {
                problems.push(match stale.reason {
                    StaleReason::OtherRendering => {
                        "stale judgment: the verdict was given for another text rendering"
                            .to_owned()
                    }
                    StaleReason::Unjudged => "no recorded verdict".to_owned(),
                });
            }
        }
        problems
    }

    fn case_row(&self, result: &EvalCaseResult, css: &mut String) -> CaseRow {
        let case = self.case_of(&result.case_id);
        // A run of a suite with repeats is `<id>#<repeat>`, as the text report names it.
        let repeated = self.report.totals.repeats.is_some();
        let title = run_name(&result.case_id, result.repeat, repeated);
        let anchor = case_anchor(result, repeated);
        let validity = &result.validity;
        let mut badges = if validity.valid {
            badge("pass", "valid")
        } else if validity.valid_after_retry {
            badge("note", "valid after retry")
        } else {
            badge("fail", "invalid")
        };
        if let Some(score) = result.answerability {
            let (class, word) = match score.verdict {
                AnswerabilityVerdict::Yes => ("pass", "answerable: yes"),
                AnswerabilityVerdict::Partial => ("note", "answerable: partial"),
                AnswerabilityVerdict::No => ("fail", "answerable: no"),
            };
            badges.push_str(&badge(class, word));
        }
        let mut out = String::new();
        let failed = self.open_case_row(
            &mut out,
            (&anchor, &title),
            case.map(|case| case.prompt.as_str()),
            &self.problems(result),
            &badges,
        );
        write_scores(&mut out, &scores_of(result));
        self.answer_column(&mut out);
        self.write_attempts(&mut out, css, result);
        self.close_case_row(
            &mut out,
            css,
            case.and_then(|case| case.golden.as_ref()),
            (&anchor, &title, failed),
        )
    }

    /// Each attempt: its verdict, its rendering, its errors and its text.
    fn write_attempts(&self, out: &mut String, css: &mut String, result: &EvalCaseResult) {
        let attempts = self
            .parts
            .answers
            .map(|answers| {
                answers.attempts(&isomer_corpus::recording_name(
                    &result.case_id,
                    result.repeat,
                ))
            })
            .unwrap_or_default();
        if attempts.is_empty() {
            // No model text at hand: the composition the case scored, if any.
            match &result.validity.composition {
                Some(composition) => self.write_composition(out, css, composition),
                None => out.push_str("<p class=\"none\">no answer</p>"),
            }
            write_errors(out, &result.validity.errors);
            return;
        }
        let recording = isomer_corpus::recording_name(&result.case_id, result.repeat);
        for (attempt, text) in attempts {
            // The replay answered a missing recording with empty text: say so, rather
            // than show a `not JSON` attempt the model never made.
            let missing = self.parts.findings.and_then(|findings| {
                findings
                    .missing_recordings
                    .iter()
                    .find(|m| m.case_id == recording && m.attempt == attempt)
            });
            let label = if attempt == 0 {
                "first attempt".to_owned()
            } else {
                format!("retry (attempt {attempt})")
            };
            if let Some(missing) = missing {
                out.push_str(&format!(
                    "<div class=\"attempt\"><h4>{} {}</h4><p class=\"none\">no recording: {} is missing</p></div>",
                    esc(&label),
                    badge("note", "missing recording"),
                    esc(&missing.to_string())
                ));
                continue;
            }
            let checked = check_attempt(self.runtime, text, self.parts.frame);
            let verdict = if checked.is_valid() {
                badge("pass", "valid")
            } else if checked.check().is_some() {
                badge("fail", "invalid")
            } else {
                badge("fail", "not JSON")
            };
            out.push_str(&format!(
                "<div class=\"attempt\"><h4>{} {verdict}</h4>",
                esc(&label)
            ));
            // The value as the model wrote it: the html surface renders what it can of
            // an invalid one and refuses only what is over its budget.
            if let Some(value) = checked.value() {
                // Only a valid attempt is drawn: the picture shows the slide the scores read.
                if checked.is_valid() {
                    self.write_composition(out, css, value);
                } else {
                    write_rendering(out, css, self.runtime, value);
                }
            }
            if !checked.is_valid() {
                write_errors(out, &checked.failures());
            }
            let raw = checked.raw();
            write_folded(out, &format!("model text ({} bytes)", raw.len()), raw);
            out.push_str("</div>");
        }
    }
}

/// The anchor of a case's row (`case-<anchor>`): the case id, or its recording name
/// (`<id>.r<repeat>`) when the suite repeats its cases.
fn case_anchor(result: &EvalCaseResult, repeated: bool) -> String {
    if repeated {
        isomer_corpus::recording_name(&result.case_id, result.repeat)
    } else {
        result.case_id.clone()
    }
}

/// The status of each floor of the page's pack scorers, case floor then suite floor, as
/// [`floor_statuses`] gives the declared ones; `units` are the cases' (or runs') names and
/// anchors.
fn scorer_floor_statuses(
    page: &EvalPage<'_>,
    units: &[(String, String, &dyn crate::floor::Scores)],
) -> Vec<FloorStatus> {
    let mut statuses = Vec::new();
    for scorer in page.scorers {
        let declared = scorer.floor_names();
        let (case_floor, suite_floor) = scorer.has_floors();
        let mut names = declared.into_iter();
        if case_floor {
            let misses = page
                .report
                .results
                .iter()
                .zip(units)
                .filter_map(|(result, (name, anchor, _))| {
                    let miss = scorer.case_miss(result)?;
                    Some((Some(anchor.clone()), format!("{name}: {miss}")))
                })
                .collect();
            statuses.push(FloorStatus {
                declared: names.next().unwrap_or_default(),
                case_level: true,
                misses,
            });
        }
        if suite_floor {
            statuses.push(FloorStatus {
                declared: names.next().unwrap_or_default(),
                case_level: false,
                misses: scorer
                    .suite_miss(&page.report.totals)
                    .map(|miss| (None, miss))
                    .into_iter()
                    .collect(),
            });
        }
    }
    statuses
}

/// The scores of one case, as name and printed value; a pack scorer's under its name.
fn scores_of(result: &EvalCaseResult) -> Vec<(&str, String)> {
    let yes_no = |value: bool| if value { "yes" } else { "no" }.to_owned();
    let mut scores = vec![
        ("parsed", yes_no(result.validity.parsed)),
        ("valid", yes_no(result.validity.valid)),
        (
            "valid after retry",
            yes_no(result.validity.valid_after_retry),
        ),
    ];
    if let Some(selection) = &result.selection {
        scores.push((
            "selection",
            format!(
                "F1 {} (precision {}, recall {})",
                to_fixed_2(selection.f1),
                to_fixed_2(selection.precision),
                to_fixed_2(selection.recall)
            ),
        ));
        if !selection.missing.is_empty() {
            scores.push(("missing types", selection.missing.join(", ")));
        }
        if !selection.extra.is_empty() {
            scores.push(("extra types", selection.extra.join(", ")));
        }
    }
    if let Some(expected) = &result.expected {
        scores.push(("expected hit", yes_no(expected.hit)));
    }
    let payload = &result.payload;
    // The payload axis measures the first attempt: when it did not validate there is no
    // composition to measure, so its bytes and its size are not measured, not zero.
    let measured = result.validity.valid;
    scores.push((
        "bytes",
        if measured {
            format!(
                "{} sent, {} validated",
                payload.raw_bytes, payload.sanitized_bytes
            )
        } else {
            format!(
                "{} sent, validated not measured (the first attempt is invalid)",
                payload.raw_bytes
            )
        },
    ));
    if let Some(size) = payload.size_vs_golden {
        let size = if measured {
            to_fixed_2(size)
        } else {
            "not measured (the first attempt is invalid)".to_owned()
        };
        scores.push(("size vs golden", size));
    }
    if !payload.unknown_types.is_empty() {
        scores.push(("invented types", payload.unknown_types.join(", ")));
    }
    for score in &result.scorers {
        let value = match score.value {
            ScorerValue::Flag(flag) => yes_no(flag),
            ScorerValue::Number(_) => score.value.text(),
        };
        scores.push((
            score.name.as_str(),
            match &score.detail {
                Some(detail) => format!("{value} ({detail})"),
                None => value,
            },
        ));
    }
    scores
}
