//! Pack scorers: an axis a pack or suite adds beside the built-in ones ([`Scorer`]).
//!
//! A scorer has a name (lowercase ASCII letters, digits and `_`, such as `fits_frame`), a
//! kind (a flag, or a number), a function giving each run of a case its value (or none,
//! when the scorer does not apply to it), and optional floors: one per case and one over
//! the suite. Register it with [`Suite::scorer`](crate::harness::Suite::scorer) (or
//! [`RunEvalsOptions::scorers`](crate::RunEvalsOptions::scorers) when calling
//! [`run_evals`](crate::run_evals) directly); the run then gives each result its value
//! ([`EvalCaseResult::scorers`](crate::EvalCaseResult::scorers)), the totals the mean
//! ([`EvalTotals::scorers`](crate::EvalTotals::scorers)), and the text report, the run
//! file and the HTML report show it beside the built-in axes.
//!
//! The function runs after the built-in scoring, once per run of a case, and reads the
//! case, its result (the composition that validated is
//! [`ValidityScore::composition`](crate::ValidityScore::composition)) and the runtime. A
//! panic in it marks that run's [`CaseError`](crate::CaseError) at the scoring stage, as a
//! panicking child hook does.
//!
//! # Floors
//!
//! | kind | case floor | suite floor |
//! |---|---|---|
//! | flag | [`Scorer::required`]: `<name>`, the flag holds | [`Scorer::min_ratio`]: `min_<name>_ratio = r`, runs with the flag over the runs scored |
//! | number | [`Scorer::min`] / [`Scorer::max`]: `min_<name> = v` / `max_<name> = v` | [`Scorer::min_mean`] / [`Scorer::max_mean`]: `min_mean_<name> = v` / `max_mean_<name> = v` |
//!
//! A run the scorer gives no value is exempt from its case floor; a suite floor over no
//! scored run fails (`none (no run was scored)`). Misses print as the built-in floors'
//! do: `fits_frame: false, floor true (bottom 212 px past the frame)`,
//! `min_fits_frame_ratio: 0.9592, floor >= 1`, `max_overflow_px: 212, floor <= 0`. The
//! harness asserts the case floor in each case trial and the suite floor in `totals`.
//!
//! ```
//! use isomer_evals::scorer::{Scored, Scorer};
//!
//! // Whether the composition that validated has at most three top-level nodes.
//! let short = Scorer::flag("short_body", |input| {
//!     let composition = input.result.validity.composition.as_ref()?;
//!     let nodes = composition["body"].as_array().map_or(0, Vec::len);
//!     Some(Scored::flag(nodes <= 3).with_detail(format!("{nodes} nodes")))
//! })
//! .required()
//! .min_ratio(0.9);
//! assert_eq!(short.floor_names(), ["short_body", "min_short_body_ratio = 0.9"]);
//! ```

use std::sync::Arc;

use crate::case::EvalCase;
use crate::floor::number;
use crate::report::{EvalCaseResult, EvalTotals};
use crate::runtime::EvalRuntime;

mod value;

pub use value::{ScorerScore, ScorerTotal, ScorerValue};

/// What a scorer's function reads for one run of a case.
#[non_exhaustive]
pub struct ScorerInput<'a> {
    /// The case, as in the corpus.
    pub eval_case: &'a EvalCase,
    /// The run's result with every built-in axis scored; the composition that validated
    /// (first attempt or retry) is `result.validity.composition`, `None` when none did.
    pub result: &'a EvalCaseResult,
    /// The runtime under test.
    pub runtime: &'a dyn EvalRuntime,
}

/// What a scorer's function returns for a run it scores: the value and, optionally, a
/// word on why (`bottom 212 px past the frame`), which a floor's miss and the reports
/// print beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    value: ScorerValue,
    detail: Option<String>,
}

impl Scored {
    /// A flag value.
    pub fn flag(flag: bool) -> Self {
        Scored {
            value: ScorerValue::Flag(flag),
            detail: None,
        }
    }

    /// A number value.
    pub fn number(value: f64) -> Self {
        Scored {
            value: ScorerValue::Number(value),
            detail: None,
        }
    }

    /// The same value with `detail` said of it.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }
}

/// Which way a floor bounds a value.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Bound {
    /// The flag holds.
    Holds,
    /// At least the value.
    AtLeast(f64),
    /// At most the value.
    AtMost(f64),
}

/// The function a scorer runs for each run of a case.
type ScoreFn = dyn Fn(&ScorerInput<'_>) -> Option<Scored> + Send + Sync;

/// An axis a pack or suite adds; see the [module docs](self).
#[derive(Clone)]
pub struct Scorer {
    name: String,
    flag: bool,
    score: Arc<ScoreFn>,
    case_floor: Option<Bound>,
    suite_floor: Option<Bound>,
}

impl std::fmt::Debug for Scorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scorer")
            .field("name", &self.name)
            .field("flag", &self.flag)
            .field("floors", &self.floor_names())
            .finish_non_exhaustive()
    }
}

impl Scorer {
    /// A flag scorer named `name`, with no floor. `score` returns `None` for a run it
    /// does not apply to (such a run is exempt from the case floor and left out of the
    /// mean).
    pub fn flag(
        name: impl Into<String>,
        score: impl Fn(&ScorerInput<'_>) -> Option<Scored> + Send + Sync + 'static,
    ) -> Self {
        Scorer {
            name: name.into(),
            flag: true,
            score: Arc::new(score),
            case_floor: None,
            suite_floor: None,
        }
    }

    /// A number scorer named `name`, with no floor; `score` as for [`Scorer::flag`].
    pub fn number(
        name: impl Into<String>,
        score: impl Fn(&ScorerInput<'_>) -> Option<Scored> + Send + Sync + 'static,
    ) -> Self {
        Scorer {
            flag: false,
            ..Scorer::flag(name, score)
        }
    }

    /// The scorer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Case floor of a flag scorer: every scored run's flag holds (declared `<name>`).
    pub fn required(mut self) -> Self {
        self.case_floor = Some(Bound::Holds);
        self
    }

    /// Suite floor of a flag scorer: the runs whose flag holds over the runs scored is at
    /// least `ratio` (declared `min_<name>_ratio = <ratio>`).
    pub fn min_ratio(mut self, ratio: f64) -> Self {
        self.suite_floor = Some(Bound::AtLeast(ratio));
        self
    }

    /// Case floor of a number scorer: every scored run's value is at least `value`.
    pub fn min(mut self, value: f64) -> Self {
        self.case_floor = Some(Bound::AtLeast(value));
        self
    }

    /// Case floor of a number scorer: every scored run's value is at most `value`.
    pub fn max(mut self, value: f64) -> Self {
        self.case_floor = Some(Bound::AtMost(value));
        self
    }

    /// Suite floor of a number scorer: the mean over the scored runs is at least `value`.
    pub fn min_mean(mut self, value: f64) -> Self {
        self.suite_floor = Some(Bound::AtLeast(value));
        self
    }

    /// Suite floor of a number scorer: the mean over the scored runs is at most `value`.
    pub fn max_mean(mut self, value: f64) -> Self {
        self.suite_floor = Some(Bound::AtMost(value));
        self
    }

    /// The floors as declared, case floor first: `fits_frame`, `min_fits_frame_ratio =
    /// 0.9`, `max_overflow_px = 0`, `max_mean_overflow_px = 12.5`.
    pub fn floor_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        if let Some(bound) = self.case_floor {
            names.push(self.declared(bound, false));
        }
        if let Some(bound) = self.suite_floor {
            names.push(self.declared(bound, true));
        }
        names
    }

    /// The name a floor is declared and missed under, without its value: `fits_frame`,
    /// `min_fits_frame_ratio`, `max_overflow_px`, `min_mean_overflow_px`.
    fn floor_name(&self, bound: Bound, suite: bool) -> String {
        let name = &self.name;
        match (bound, suite, self.flag) {
            (Bound::Holds, _, _) => name.clone(),
            (Bound::AtLeast(_), true, true) => format!("min_{name}_ratio"),
            (Bound::AtMost(_), true, true) => format!("max_{name}_ratio"),
            (Bound::AtLeast(_), true, false) => format!("min_mean_{name}"),
            (Bound::AtMost(_), true, false) => format!("max_mean_{name}"),
            (Bound::AtLeast(_), false, _) => format!("min_{name}"),
            (Bound::AtMost(_), false, _) => format!("max_{name}"),
        }
    }

    fn declared(&self, bound: Bound, suite: bool) -> String {
        let name = self.floor_name(bound, suite);
        match bound {
            Bound::Holds => name,
            Bound::AtLeast(value) | Bound::AtMost(value) => format!("{name} = {}", number(value)),
        }
    }

    /// The run's value, or `None` when the scorer does not apply.
    pub(crate) fn score(&self, input: &ScorerInput<'_>) -> Option<ScorerScore> {
        let scored = (self.score)(input)?;
        Some(ScorerScore {
            name: self.name.clone(),
            value: scored.value,
            detail: scored.detail,
        })
    }

    /// The miss of this scorer's case floor by `result`, as printed, or `None` when it
    /// holds, the run is exempt, or there is no case floor.
    pub(crate) fn case_miss(&self, result: &EvalCaseResult) -> Option<String> {
        let bound = self.case_floor?;
        let score = result
            .scorers
            .iter()
            .find(|score| score.name == self.name)?;
        let (holds, floor) = match bound {
            Bound::Holds => (score.value.as_flag(), "true".to_owned()),
            Bound::AtLeast(limit) => (
                score.value.as_f64() >= limit,
                format!(">= {}", number(limit)),
            ),
            Bound::AtMost(limit) => (
                score.value.as_f64() <= limit,
                format!("<= {}", number(limit)),
            ),
        };
        (!holds).then(|| {
            let miss = format!(
                "{}: {}, floor {floor}",
                self.floor_name(bound, false),
                score.value.text()
            );
            match &score.detail {
                Some(detail) => format!("{miss} ({detail})"),
                None => miss,
            }
        })
    }

    /// The miss of this scorer's suite floor by `totals`, as printed, or `None` when it
    /// holds or there is no suite floor.
    pub(crate) fn suite_miss(&self, totals: &EvalTotals) -> Option<String> {
        let bound = self.suite_floor?;
        let name = self.floor_name(bound, true);
        let total = totals.scorers.iter().find(|total| total.name == self.name);
        let (limit, at_least) = match bound {
            Bound::AtLeast(limit) => (limit, true),
            Bound::AtMost(limit) => (limit, false),
            // Never built: the suite floors are `min_ratio`, `min_mean` and `max_mean`.
            Bound::Holds => (1.0, true),
        };
        let floor = format!("{} {}", if at_least { ">=" } else { "<=" }, number(limit));
        let Some(total) = total.filter(|total| total.runs > 0) else {
            return Some(format!("{name}: none (no run was scored), floor {floor}"));
        };
        let holds = if at_least {
            total.mean >= limit
        } else {
            total.mean <= limit
        };
        (!holds).then(|| format!("{name}: {}, floor {floor}", number(total.mean)))
    }

    /// Whether the scorer has a case floor, a suite floor.
    pub(crate) fn has_floors(&self) -> (bool, bool) {
        (self.case_floor.is_some(), self.suite_floor.is_some())
    }
}

/// The misses of the case floors of `scorers` by `result`, in registration order.
pub(crate) fn case_misses(scorers: &[Scorer], result: &EvalCaseResult) -> Vec<String> {
    scorers
        .iter()
        .filter_map(|scorer| scorer.case_miss(result))
        .collect()
}

/// The misses of the suite floors of `scorers` by `totals`, in registration order.
pub(crate) fn suite_misses(scorers: &[Scorer], totals: &EvalTotals) -> Vec<String> {
    scorers
        .iter()
        .filter_map(|scorer| scorer.suite_miss(totals))
        .collect()
}

/// The values `scorers` give the run `result` of `eval_case`, in registration order
/// (a scorer that does not apply gives none).
pub(crate) fn score_run(
    scorers: &[Scorer],
    eval_case: &EvalCase,
    result: &EvalCaseResult,
    runtime: &dyn EvalRuntime,
) -> Vec<ScorerScore> {
    let input = ScorerInput {
        eval_case,
        result,
        runtime,
    };
    scorers
        .iter()
        .filter_map(|scorer| scorer.score(&input))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::EvalReport;
    use crate::report::floor_tests::result;
    use serde_json::json;

    /// A result of case `id` whose scorers gave `scores`.
    fn scored(id: &str, scores: Vec<ScorerScore>) -> EvalCaseResult {
        let mut result = result(json!({
            "caseId": id,
            "validity": { "parsed": true, "valid": true, "validAfterRetry": true, "errors": [] },
            "payload": { "rawBytes": 10, "sanitizedBytes": 10, "unknownTypes": [] }
        }));
        result.scorers = scores;
        result
    }

    fn score(name: &str, value: ScorerValue, detail: Option<&str>) -> ScorerScore {
        ScorerScore {
            name: name.to_owned(),
            value,
            detail: detail.map(str::to_owned),
        }
    }

    fn never(_: &ScorerInput<'_>) -> Option<Scored> {
        None
    }

    #[test]
    fn floors_are_named_after_the_scorer_and_its_kind() {
        let flag = Scorer::flag("fits_frame", never).required().min_ratio(0.9);
        assert_eq!(
            flag.floor_names(),
            ["fits_frame", "min_fits_frame_ratio = 0.9"]
        );
        let low = Scorer::number("overflow_px", never).max(0.0).max_mean(12.5);
        assert_eq!(
            low.floor_names(),
            ["max_overflow_px = 0", "max_mean_overflow_px = 12.5"]
        );
        let high = Scorer::number("contrast", never).min(4.5).min_mean(7.0);
        assert_eq!(
            high.floor_names(),
            ["min_contrast = 4.5", "min_mean_contrast = 7"]
        );
        assert_eq!(
            Scorer::flag("plain", never).floor_names(),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_case_floor_misses_with_the_value_the_floor_and_the_detail() {
        let fits = Scorer::flag("fits_frame", never).required();
        let over = scored(
            "a",
            vec![score(
                "fits_frame",
                ScorerValue::Flag(false),
                Some("bottom 212 px, right 0 px past the 1920×1080 frame"),
            )],
        );
        assert_eq!(
            fits.case_miss(&over).as_deref(),
            Some(
                "fits_frame: false, floor true (bottom 212 px, right 0 px past the 1920×1080 frame)"
            )
        );
        let inside = scored(
            "b",
            vec![score("fits_frame", ScorerValue::Flag(true), None)],
        );
        assert_eq!(fits.case_miss(&inside), None);
        // A run the scorer gave no value is exempt.
        assert_eq!(fits.case_miss(&scored("c", Vec::new())), None);

        let px = Scorer::number("overflow_px", never).max(0.0);
        let run = scored(
            "d",
            vec![score("overflow_px", ScorerValue::Number(212.5), None)],
        );
        assert_eq!(
            px.case_miss(&run).as_deref(),
            Some("max_overflow_px: 212.5, floor <= 0")
        );
        let min = Scorer::number("overflow_px", never).min(300.0);
        assert_eq!(
            min.case_miss(&run).as_deref(),
            Some("min_overflow_px: 212.5, floor >= 300")
        );
        assert_eq!(
            case_misses(&[fits, px], &over),
            ["fits_frame: false, floor true (bottom 212 px, right 0 px past the 1920×1080 frame)"]
        );
    }

    #[test]
    fn a_suite_floor_reads_the_mean_over_the_runs_scored() {
        let results = vec![
            scored(
                "a",
                vec![score("fits_frame", ScorerValue::Flag(true), None)],
            ),
            scored(
                "b",
                vec![score("fits_frame", ScorerValue::Flag(false), None)],
            ),
            scored(
                "c",
                vec![score("fits_frame", ScorerValue::Flag(true), None)],
            ),
            scored("d", Vec::new()),
        ];
        let report = EvalReport::new(results);
        assert_eq!(
            report.totals.scorers,
            [ScorerTotal {
                name: "fits_frame".to_owned(),
                flag: true,
                runs: 3,
                met: 2,
                mean: 2.0 / 3.0,
            }]
        );
        let strict = Scorer::flag("fits_frame", never).min_ratio(0.9);
        assert_eq!(
            strict.suite_miss(&report.totals).as_deref(),
            Some("min_fits_frame_ratio: 0.6667, floor >= 0.9")
        );
        let loose = Scorer::flag("fits_frame", never).min_ratio(0.5);
        assert_eq!(loose.suite_miss(&report.totals), None);
        let unscored = Scorer::number("overflow_px", never).max_mean(1.0);
        assert_eq!(
            suite_misses(&[strict, loose, unscored], &report.totals),
            [
                "min_fits_frame_ratio: 0.6667, floor >= 0.9",
                "max_mean_overflow_px: none (no run was scored), floor <= 1",
            ]
        );
    }

    #[test]
    fn values_are_flags_or_numbers_on_the_wire() {
        let run = scored(
            "a",
            vec![
                score("fits_frame", ScorerValue::Flag(false), Some("too tall")),
                score("overflow_px", ScorerValue::Number(12.5), None),
            ],
        );
        let wire = serde_json::to_value(&run).unwrap();
        assert_eq!(
            wire["scorers"],
            json!([
                { "name": "fits_frame", "value": false, "detail": "too tall" },
                { "name": "overflow_px", "value": 12.5 }
            ])
        );
        assert_eq!(serde_json::from_value::<EvalCaseResult>(wire).unwrap(), run);
    }
}
