//! What a run adds up to ([`EvalTotals`](crate::EvalTotals)), and what the floors of a single-shot suite
//! read: one case's result ([`CaseScores`]) or the totals.

use serde::{Deserialize, Serialize};

use super::case::EvalCaseResult;
use super::measured::MeasuredTotals;
use super::repeats::RepeatTotals;
use super::scored_run::ScoredRun;
use crate::case::AnswerabilityVerdict;
use crate::floor::{Score, Scores};
use crate::scorer::{ScorerTotal, ScorerValue};

/// What the case floors of a single-shot suite read: one case's result, and whether the
/// case has a golden (without one the selection and size floors are exempt).
pub(crate) struct CaseScores<'a> {
    /// The case's result.
    pub(crate) result: &'a EvalCaseResult,
    /// Whether the case has a golden.
    pub(crate) has_golden: bool,
}

impl Scores for CaseScores<'_> {
    fn score(&self, name: &str) -> Option<Score> {
        let result = self.result;
        Some(match name {
            "valid_after_retry" => Score::flag(result.validity.valid_after_retry),
            // Read over the runs of a case, not one run (the harness checks it).
            "min_pass_rate" => Score::Exempt,
            "min_selection_f1" if !self.has_golden => Score::Exempt,
            "min_selection_f1" => match &result.selection {
                Some(selection) => Score::Number(selection.f1),
                None => Score::Missing("no valid composition"),
            },
            "expected_hit" => result
                .expected
                .as_ref()
                .map_or(Score::Exempt, |expected| Score::flag(expected.hit)),
            "no_invented_types" => Score::none_of(result.payload.unknown_types.clone()),
            "max_size_vs_golden" => result
                .payload
                .size_vs_golden
                .map_or(Score::Exempt, Score::Number),
            "answerability_not_no" => match result.answerability {
                None => Score::Exempt,
                Some(score) => Score::Flag {
                    met: score.verdict != AnswerabilityVerdict::No,
                    shown: match score.verdict {
                        AnswerabilityVerdict::Yes => "yes",
                        AnswerabilityVerdict::Partial => "partial",
                        AnswerabilityVerdict::No => "no",
                    }
                    .to_owned(),
                    wanted: "not no",
                },
            },
            _ => return None,
        })
    }

    /// A missed selection F1 names the node types the answer lacks and the ones it adds
    /// against the golden (one entry per node, as the score counts them).
    fn detail(&self, name: &str) -> Option<String> {
        let selection = self
            .result
            .selection
            .as_ref()
            .filter(|_| name == "min_selection_f1")?;
        let list = |types: &[String]| types.join(", ");
        match (selection.missing.is_empty(), selection.extra.is_empty()) {
            (true, true) => None,
            (false, true) => Some(format!("missing {}", list(&selection.missing))),
            (true, false) => Some(format!("extra {}", list(&selection.extra))),
            (false, false) => Some(format!(
                "missing {}; extra {}",
                list(&selection.missing),
                list(&selection.extra)
            )),
        }
    }
}

/// What the suite floors of a single-shot suite read: the totals of the run.
impl Scores for EvalTotals {
    fn score(&self, name: &str) -> Option<Score> {
        Some(match name {
            // Over every run: with repeats, the mean over the repeats.
            "min_valid_ratio" => Score::ratio(self.valid, self.runs(), "no cases"),
            "min_valid_after_retry_ratio" => {
                Score::ratio(self.valid_after_retry, self.runs(), "no cases")
            }
            "min_mean_selection_f1" => self
                .mean_selection_f1
                .map_or(Score::Missing("no case has a selection"), Score::Number),
            "max_answerability_no" => {
                Score::Count(self.answerability.map_or(0, |counts| counts.no as u64))
            }
            _ => return None,
        })
    }
}

/// Verdict counts (upstream `totals.answerability`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AnswerabilityTotals {
    /// Cases judged `yes`.
    pub yes: usize,
    /// Cases judged `partial`.
    pub partial: usize,
    /// Cases judged `no`.
    pub no: usize,
}

/// Expected-primitive hits over the cases that list expected types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ExpectedTotals {
    /// Cases whose answer used one of their expected types.
    pub hits: usize,
    /// Cases that list expected types.
    pub cases: usize,
}

/// What a run adds up to (upstream `EvalReport.totals`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalTotals {
    /// Number of cases: the results, errored ones included, or with repeats the
    /// distinct case ids (the other counts are then over every run, see
    /// [`EvalTotals::runs`]).
    pub cases: usize,
    /// Results whose first attempt was JSON.
    pub parsed: usize,
    /// Results whose first attempt was valid.
    pub valid: usize,
    /// Results valid on the first attempt or the retry.
    pub valid_after_retry: usize,
    /// Mean of `selection.f1` over results that have a selection, summed in
    /// corpus order; absent when none has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_selection_f1: Option<f64>,
    /// Verdict counts over results with a verdict; absent when none has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answerability: Option<AnswerabilityTotals>,
    /// Expected-primitive hits; absent when no case lists expected types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<ExpectedTotals>,
    /// Results with an [`CaseError`](crate::CaseError); omitted on the wire when `0`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub errored: usize,
    /// With more than one run per case: the repeats, each axis's mean and standard error
    /// across them, and each case's spread, which [`format_report`](crate::format_report)
    /// prints and the suite floors read. Absent (and omitted on the wire) with one run per
    /// case. On the wire as `repeats`: `repeat`, `runs`, the axes in line (as the run
    /// file's [`Axes`](crate::run_file::Axes)), and `spread` (per case: `caseId`, `runs`,
    /// `valid`, `validAfterRetry`, `selectionF1` and `rawBytes` as `min` and `max`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) repeats: Option<RepeatTotals>,
    /// Latency and tokens over the runs, when the run measured them (a live run with
    /// [`RunEvalsOptions::measure`](crate::RunEvalsOptions::measure)); absent in a replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<MeasuredTotals>,
    /// Per pack scorer, in order of first appearance: the runs it scored and their mean
    /// ([`crate::scorer`]); omitted on the wire when no scorer gave a value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scorers: Vec<ScorerTotal>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl EvalTotals {
    /// Adds up `results`: counts of parsed, valid, valid-after-retry and errored cases;
    /// the mean F1 over the cases that have a selection (`None` when none has); verdict
    /// counts over the judged cases and hits over the cases listing `expected` (each
    /// `None` when no case has one); each pack scorer's mean over the runs it scored.
    ///
    /// With more than one run per case (the largest [`repeat`](EvalCaseResult#structfield.repeat) is above
    /// `0`), `cases` counts the distinct case ids, every other count is over the runs, and
    /// the totals hold the repeat statistics (each axis's mean and standard error across
    /// the repeats, each case's spread: `repeats` on the wire); [`EvalTotals::measured`] is
    /// present when a result carries measures.
    pub fn from_results(results: &[EvalCaseResult]) -> Self {
        EvalTotals::of_runs(results)
    }

    /// [`EvalTotals::from_results`] over any [`ScoredRun`]: the report's results, or the
    /// runs of a run file (a shard merge adds its shards' runs up here).
    pub(crate) fn of_runs<R: ScoredRun>(results: &[R]) -> Self {
        let repeat = results
            .iter()
            .map(|r| r.repeat())
            .max()
            .map_or(1, |max| max + 1);
        let count = |keep: fn(&R) -> bool| results.iter().filter(|r| keep(r)).count();
        let f1s: Vec<f64> = results.iter().filter_map(|r| r.selection_f1()).collect();
        let mean_selection_f1 =
            (!f1s.is_empty()).then(|| f1s.iter().fold(0.0, |sum, f1| sum + f1) / f1s.len() as f64);
        let mut answerability: Option<AnswerabilityTotals> = None;
        for verdict in results.iter().filter_map(|r| r.verdict()) {
            let counts = answerability.get_or_insert_with(AnswerabilityTotals::default);
            match verdict {
                AnswerabilityVerdict::Yes => counts.yes += 1,
                AnswerabilityVerdict::Partial => counts.partial += 1,
                AnswerabilityVerdict::No => counts.no += 1,
            }
        }
        let mut expected: Option<ExpectedTotals> = None;
        for hit in results.iter().filter_map(|r| r.expected_hit()) {
            let counts = expected.get_or_insert_with(ExpectedTotals::default);
            counts.cases += 1;
            counts.hits += usize::from(hit);
        }
        let cases = if repeat > 1 {
            let mut ids: Vec<&str> = results.iter().map(|r| r.case_id()).collect();
            ids.sort_unstable();
            ids.dedup();
            ids.len()
        } else {
            results.len()
        };
        EvalTotals {
            cases,
            parsed: count(|r| r.parsed()),
            valid: count(|r| r.valid()),
            valid_after_retry: count(|r| r.valid_after_retry()),
            mean_selection_f1,
            answerability,
            expected,
            errored: count(|r| r.errored()),
            repeats: (repeat > 1).then(|| RepeatTotals::from_results(results, repeat)),
            measured: MeasuredTotals::from_measures(
                results.iter().filter_map(|r| r.measures()).collect(),
            ),
            scorers: ScorerTotal::of(results),
        }
    }

    /// The runs the counts are over: [`EvalTotals::cases`] times the repeat.
    pub fn runs(&self) -> usize {
        self.repeats
            .as_ref()
            .map_or(self.cases, |repeats| repeats.runs)
    }
}

// The totals of the pack scorers are read from the runs here, with the other totals.
impl ScorerTotal {
    /// The totals of every scorer named in `results`, in order of first appearance.
    pub(crate) fn of<R: ScoredRun>(results: &[R]) -> Vec<ScorerTotal> {
        let mut totals: Vec<(ScorerTotal, f64)> = Vec::new();
        for (name, value) in results.iter().flat_map(|result| result.scorer_values()) {
            let index = match totals.iter().position(|(total, _)| total.name == name) {
                Some(index) => index,
                None => {
                    totals.push((
                        ScorerTotal {
                            name: name.to_owned(),
                            flag: true,
                            runs: 0,
                            met: 0,
                            mean: 0.0,
                        },
                        0.0,
                    ));
                    totals.len() - 1
                }
            };
            let (total, sum) = &mut totals[index];
            total.flag &= matches!(value, ScorerValue::Flag(_));
            total.runs += 1;
            total.met += usize::from(value.as_flag());
            *sum += value.as_f64();
        }
        totals
            .into_iter()
            .map(|(total, sum)| ScorerTotal {
                mean: sum / total.runs as f64,
                ..total
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_omit_absent_and_zero_fields_on_the_wire() {
        let totals = EvalTotals::from_results(&[]);
        assert_eq!(
            serde_json::to_string(&totals).unwrap(),
            r#"{"cases":0,"parsed":0,"valid":0,"validAfterRetry":0}"#
        );
    }
}

/// The floors of a single-shot suite, read through [`CaseScores`] and [`EvalTotals`](crate::EvalTotals).
#[cfg(test)]
pub(crate) mod floor_tests {
    use super::*;
    use crate::floor::{Floor, misses};
    use isomer_corpus::{FloorLevel, SINGLE_SHOT_FLOORS};
    use serde_json::json;

    /// A result as it reads on the wire.
    pub(crate) fn result(value: serde_json::Value) -> EvalCaseResult {
        serde_json::from_value(value).unwrap()
    }

    /// The misses of the case `floors` on `result`, of a case with or without a golden.
    pub(crate) fn case_misses(
        floors: &[Floor],
        result: &EvalCaseResult,
        has_golden: bool,
    ) -> Vec<String> {
        let scores = CaseScores { result, has_golden };
        misses(floors, SINGLE_SHOT_FLOORS, FloorLevel::Case, &scores)
    }

    /// A case that meets every case floor, with a golden, expected types and a verdict.
    fn good() -> serde_json::Value {
        json!({
            "caseId": "good",
            "validity": { "parsed": true, "valid": true, "validAfterRetry": true, "errors": [] },
            "selection": { "precision": 1.0, "recall": 1.0, "f1": 1.0, "extra": [], "missing": [] },
            "expected": { "hit": true, "found": ["slideStats"] },
            "payload": { "rawBytes": 10, "sanitizedBytes": 10, "sizeVsGolden": 1.0, "unknownTypes": [] },
            "answerability": { "verdict": "yes" }
        })
    }

    const EVERY_CASE_FLOOR: [Floor; 6] = [
        Floor::flag("valid_after_retry"),
        Floor::number("min_selection_f1", 1.0),
        Floor::flag("expected_hit"),
        Floor::flag("no_invented_types"),
        Floor::number("max_size_vs_golden", 1.0),
        Floor::flag("answerability_not_no"),
    ];

    #[test]
    fn every_floor_of_the_table_has_a_score() {
        let good = result(good());
        let case = CaseScores {
            result: &good,
            has_golden: true,
        };
        let totals = EvalTotals::from_results(std::slice::from_ref(&good));
        for spec in SINGLE_SHOT_FLOORS {
            let scores: &dyn Scores = match spec.level {
                FloorLevel::Case => &case,
                FloorLevel::Suite => &totals,
            };
            assert!(scores.score(spec.name).is_some(), "{}", spec.name);
        }
        assert_eq!(
            case_misses(&EVERY_CASE_FLOOR, &good, true),
            Vec::<String>::new()
        );
    }

    #[test]
    fn case_floors_read_the_result() {
        let mut bad = good();
        bad["validity"] =
            json!({ "parsed": true, "valid": false, "validAfterRetry": false, "errors": [] });
        bad["selection"]["f1"] = json!(2.0 / 3.0);
        bad["expected"] = json!({ "hit": false, "found": [] });
        bad["payload"]["unknownTypes"] = json!(["sparkline", "gauge"]);
        bad["payload"]["sizeVsGolden"] = json!(1.75);
        bad["answerability"] = json!({ "verdict": "no" });
        let floors = [
            Floor::flag("valid_after_retry"),
            Floor::number("min_selection_f1", 0.8),
            Floor::flag("expected_hit"),
            Floor::flag("no_invented_types"),
            Floor::number("max_size_vs_golden", 1.5),
            Floor::flag("answerability_not_no"),
        ];
        assert_eq!(
            case_misses(&floors, &result(bad), true),
            [
                "valid_after_retry: false, floor true",
                "min_selection_f1: 0.6667, floor >= 0.8",
                "expected_hit: false, floor true",
                "no_invented_types: [sparkline, gauge], floor []",
                "max_size_vs_golden: 1.75, floor <= 1.5",
                "answerability_not_no: no, floor not no",
            ]
        );
    }

    #[test]
    fn a_case_without_what_a_floor_reads_is_exempt() {
        let mut bare = good();
        for key in ["selection", "expected", "answerability"] {
            bare.as_object_mut().unwrap().remove(key);
        }
        bare["payload"]
            .as_object_mut()
            .unwrap()
            .remove("sizeVsGolden");
        let floors = [
            Floor::number("min_selection_f1", 0.9),
            Floor::flag("expected_hit"),
            Floor::number("max_size_vs_golden", 0.1),
            Floor::flag("answerability_not_no"),
        ];
        let bare = result(bare);
        assert_eq!(case_misses(&floors, &bare, false), Vec::<String>::new());
        // With a golden but no valid composition there is no selection: that fails.
        assert_eq!(
            case_misses(&floors, &bare, true),
            ["min_selection_f1: none (no valid composition), floor >= 0.9"]
        );
    }

    #[test]
    fn suite_floors_read_the_totals() {
        let totals: EvalTotals = serde_json::from_value(json!({
            "cases": 8, "parsed": 8, "valid": 7, "validAfterRetry": 8,
            "meanSelectionF1": 0.8125,
            "answerability": { "yes": 6, "partial": 1, "no": 1 },
            "errored": 0
        }))
        .unwrap();
        let floors = [
            Floor::number("min_valid_ratio", 0.875),
            Floor::number("min_valid_ratio", 0.9),
            Floor::number("min_valid_after_retry_ratio", 1.0),
            Floor::number("min_mean_selection_f1", 0.85),
            Floor::count("max_answerability_no", 0),
            Floor::count("max_answerability_no", 1),
            Floor::flag("valid_after_retry"),
        ];
        assert_eq!(
            misses(&floors, SINGLE_SHOT_FLOORS, FloorLevel::Suite, &totals),
            [
                "min_valid_ratio: 0.875, floor >= 0.9",
                "min_mean_selection_f1: 0.8125, floor >= 0.85",
                "max_answerability_no: 1, floor <= 0",
            ]
        );
        let empty = EvalTotals::from_results(&[]);
        assert_eq!(
            misses(
                &[
                    Floor::number("min_valid_ratio", 0.0),
                    Floor::number("min_mean_selection_f1", 0.0)
                ],
                SINGLE_SHOT_FLOORS,
                FloorLevel::Suite,
                &empty
            ),
            [
                "min_valid_ratio: none (no cases), floor >= 0",
                "min_mean_selection_f1: none (no case has a selection), floor >= 0",
            ]
        );
    }
}
