//! Joining the run files of the shards of one run into one run file ([`merge_runs`]).
//!
//! A live run split over CI runners (`cargo nextest run --partition count:k/n`) leaves one
//! run file per shard, each holding the runs of the cases that shard ran (see
//! [`crate::harness`], "Sharded runs"). A merge checks that the shards belong to one run
//! (one suite, corpus version, mode, repeat count, label, configuration and set of
//! floors), that no case is in two of them, puts the runs in corpus order, and recomputes
//! what a run file adds up from them (the axes, the pass rates, the suite floors missed,
//! the latency and tokens) with the code the harness computes them with
//! ([`Axes`], the pass rates' tally, [`crate::EvalTotals`] and the suite floors'
//! check). A merge of every shard of a run therefore holds the same axes, pass rates and
//! runs as the unpartitioned run.
//!
//! This module reads and writes no file: `isomer-report --merge` does, and the harness
//! when a case trial adds its runs to its shard's file.

use serde_json::Value;

use crate::floor::case_passes;
use crate::floor::misses;
use crate::report::{EvalTotals, Mean};
use crate::report_table::{ABSENT, ReportTable};
use crate::run_file::{Axes, NamedRunFile, PassRate, Price, RunFile, not_measured, run_micro_usd};
use isomer_corpus::{FloorLevel, SINGLE_SHOT_FLOORS};

/// A merged run file, and the cases of its corpus that none of the shards ran.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The run file of the whole run: the first shard's fields, with `startedAt` the
    /// earliest shard's, `liveCalls` their sum, and every count recomputed from the runs.
    pub file: RunFile,
    /// The case ids of the corpus that no shard ran, in corpus order: empty when the
    /// shards cover the corpus.
    pub not_run: Vec<String>,
}

impl Merged {
    /// What the merged run adds up to, as text (laid out as the report is):
    ///
    /// ```text
    /// suite `mini` (replay, repeat 1), 3 shards merged
    /// cases             3 of 3 in the corpus
    /// runs              3
    /// parsed            1.00
    /// valid             0.67
    /// valid after retry 1.00
    /// selection F1      0.83
    /// expected hit      1.00
    /// answerability yes —
    /// cases passed      3 of 3
    ///
    /// suite floors missed:
    ///   min_valid_ratio: 0.6667, floor >= 0.9
    /// ```
    ///
    /// then, when some case ran in no shard, `not run (no shard holds them):` and each.
    /// `shards` is how many files were merged. Means are JS `toFixed(2)` (with
    /// ` ± <standard error>` over repeats); an axis no run has a value for is `—`.
    pub fn to_text(&self, shards: usize) -> String {
        let file = &self.file;
        let mode = serde_json::to_value(file.mode)
            .ok()
            .and_then(|mode| mode.as_str().map(str::to_owned))
            .unwrap_or_default();
        let floors = file.declared_floors().unwrap_or_default();
        let passed = file
            .pass_rates
            .iter()
            .filter(|rate| case_passes(&floors, rate.passed, rate.runs))
            .count();
        let mean = |mean: Option<Mean>| mean.map_or_else(|| ABSENT.to_owned(), |mean| mean.text());
        let mut table = ReportTable::default();
        let corpus_cases = file.corpus.as_ref().map_or(0, |corpus| corpus.cases.len());
        table.row(
            "cases",
            format!("{} of {corpus_cases} in the corpus", file.pass_rates.len()),
        );
        table.row("runs", file.runs.len().to_string());
        table.row("parsed", mean(Some(file.axes.parsed)));
        table.row("valid", mean(Some(file.axes.valid)));
        table.row("valid after retry", mean(Some(file.axes.valid_after_retry)));
        table.row("selection F1", mean(file.axes.selection_f1));
        table.row("expected hit", mean(file.axes.expected_hit));
        table.row("answerability yes", mean(file.axes.answerability_yes));
        table.row(
            "cases passed",
            format!("{passed} of {}", file.pass_rates.len()),
        );
        let indented = |lines: &[String]| lines.iter().map(|line| format!("  {line}")).collect();
        table.section("suite floors missed:", indented(&file.suite_floor_misses));
        table.section("not run (no shard holds them):", indented(&self.not_run));
        format!(
            "suite `{}` ({mode}, repeat {}), {shards} shards merged\n{}",
            file.suite,
            file.repeat,
            table.finish()
        )
    }
}

/// Why shards cannot be merged. Each message names what differs, in which files, and why
/// it matters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// No run file was given.
    #[error("no run file to merge")]
    NoShard,
    /// A run file names no corpus version: a harness older than shard merges wrote it.
    #[error(
        "cannot merge {file}: it names no corpus version (a harness older than shard merges wrote it, without `corpus` and `floors`); run its shard again"
    )]
    NoCorpusVersion {
        /// The file.
        file: String,
    },
    /// Two shards differ in what makes them one run. The message names what differs
    /// (`suite`, `corpus version`, `mode`, `repeat`, `label`, `configuration`, `price` or
    /// `floors`), each file with its value, and why a merge refuses it.
    #[error("{0}")]
    Differ(String),
    /// A case has runs in two shards.
    #[error(
        "cannot merge: case `{case_id}` is in both {first} and {other}; a case runs in one shard only (two shards of one partition, or one file given twice?)"
    )]
    DuplicateCase {
        /// The case.
        case_id: String,
        /// The first file holding it.
        first: String,
        /// The second.
        other: String,
    },
    /// A run names a case its corpus version does not have.
    #[error("cannot merge {file}: case `{case_id}` is not a case of its corpus version")]
    UnknownCase {
        /// The file.
        file: String,
        /// The case.
        case_id: String,
    },
    /// The floors a file declares cannot be read back.
    #[error("cannot merge {file}: its floors do not read back: {message}")]
    Floors {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
}

/// Merges the run files of the shards of one run, `shards` in any order.
///
/// The merged file keeps the first shard's suite, mode, configuration, label, prices,
/// repeat, corpus version and floors (every shard must hold the same), takes the earliest
/// `startedAt`, the sum of `liveCalls` and the first `capReached` a shard names, puts every
/// run in corpus order (a case's repeats together, in repeat order), and recomputes
/// `axes`, `passRates`, `suiteFloorMisses`, `measured`, `notMeasured` and `costUsd` from
/// the runs (the cost priced again from their calls, as the harness prices them). A case
/// of the corpus that no shard ran is listed in [`Merged::not_run`]; the merged counts are
/// then over the cases that ran.
///
/// # Errors
/// [`MergeError`]: no shard; a shard without a corpus version; two shards of different
/// suites, corpus versions, modes, repeat counts, labels, configurations or floors; a
/// case in two shards; a case its corpus version lacks; floors that do not read back.
pub fn merge_runs(shards: &[NamedRunFile]) -> Result<Merged, MergeError> {
    let Some(first) = shards.first() else {
        return Err(MergeError::NoShard);
    };
    let corpus = first
        .file
        .corpus
        .as_ref()
        .ok_or_else(|| MergeError::NoCorpusVersion {
            file: first.origin.clone(),
        })?;
    for shard in &shards[1..] {
        check_same_run(first, shard)?;
    }
    let floors = first
        .file
        .declared_floors()
        .map_err(|message| MergeError::Floors {
            file: first.origin.clone(),
            message,
        })?;

    // Each case's place in the corpus, and which shard ran it.
    let index: std::collections::HashMap<&str, usize> = corpus
        .cases
        .iter()
        .enumerate()
        .map(|(at, id)| (id.as_str(), at))
        .collect();
    let mut owner: Vec<Option<&str>> = vec![None; corpus.cases.len()];
    let mut runs = Vec::new();
    for shard in shards {
        let mut seen_here: Vec<usize> = Vec::new();
        for run in &shard.file.runs {
            let Some(&at) = index.get(run.case_id.as_str()) else {
                return Err(MergeError::UnknownCase {
                    file: shard.origin.clone(),
                    case_id: run.case_id.clone(),
                });
            };
            match owner[at] {
                Some(first) if !seen_here.contains(&at) => {
                    return Err(MergeError::DuplicateCase {
                        case_id: run.case_id.clone(),
                        first: first.to_owned(),
                        other: shard.origin.clone(),
                    });
                }
                _ => {
                    owner[at] = Some(&shard.origin);
                    seen_here.push(at);
                }
            }
            runs.push((at, run.clone()));
        }
    }
    // Corpus order, the repeats of a case together (the sort is stable).
    runs.sort_by_key(|(at, run)| (*at, run.repeat));
    let runs: Vec<_> = runs.into_iter().map(|(_, run)| run).collect();

    let repeat = first.file.repeat;
    let totals = EvalTotals::of_runs(&runs);
    let file = RunFile {
        started_at: shards
            .iter()
            .map(|shard| shard.file.started_at.as_str())
            .min()
            .unwrap_or_default()
            .to_owned(),
        live_calls: shards.iter().map(|shard| shard.file.live_calls).sum(),
        // Priced again from the runs' calls, summed in millionths of a dollar and divided
        // once, as the harness adds up a run file's cost.
        cost_usd: runs
            .iter()
            .filter_map(|run| {
                run_micro_usd(
                    first.file.price,
                    first.file.judge_price,
                    &run.attempts,
                    run.judge.as_ref(),
                )
            })
            .reduce(|total, micro| total + micro)
            .map(|micro| micro / 1_000_000.0),
        cap_reached: shards
            .iter()
            .find_map(|shard| shard.file.cap_reached.clone()),
        measured: totals.measured,
        not_measured: not_measured(first.file.mode, totals.measured.as_ref()),
        axes: Axes::of(&runs, repeat),
        pass_rates: PassRate::tally(runs.iter().map(|run| (run.case_id.as_str(), run.passed))),
        suite_floor_misses: misses(&floors, SINGLE_SHOT_FLOORS, FloorLevel::Suite, &totals),
        runs,
        ..first.file.clone()
    };
    let not_run = corpus
        .cases
        .iter()
        .zip(&owner)
        .filter(|(_, owner)| owner.is_none())
        .map(|(id, _)| id.clone())
        .collect();
    Ok(Merged { file, not_run })
}

/// Refuses `other` unless it is a shard of the same run as `first`.
fn check_same_run(first: &NamedRunFile, other: &NamedRunFile) -> Result<(), MergeError> {
    let differ = |what: &str, first_value: String, other_value: String, why: &str| {
        let (first, other) = (&first.origin, &other.origin);
        MergeError::Differ(format!(
            "cannot merge {first} and {other}: they differ in {what} ({first_value} in {first}, {other_value} in {other}); {why}"
        ))
    };
    let (a, b) = (&first.file, &other.file);
    if a.suite != b.suite {
        return Err(differ(
            "suite",
            format!("`{}`", a.suite),
            format!("`{}`", b.suite),
            "a merge joins the shards of one suite",
        ));
    }
    let Some(b_corpus) = &b.corpus else {
        return Err(MergeError::NoCorpusVersion {
            file: other.origin.clone(),
        });
    };
    let a_digest = a
        .corpus
        .as_ref()
        .map_or("", |corpus| corpus.digest.as_str());
    if a_digest != b_corpus.digest {
        return Err(differ(
            "corpus version",
            a_digest.to_owned(),
            b_corpus.digest.clone(),
            "corpus.json changed between the shards' builds; run every shard from one commit",
        ));
    }
    if a.mode != b.mode {
        return Err(differ(
            "mode",
            json_text(&serde_json::to_value(a.mode).unwrap_or(Value::Null)),
            json_text(&serde_json::to_value(b.mode).unwrap_or(Value::Null)),
            "the shards of one run get their answers the same way",
        ));
    }
    if a.repeat != b.repeat {
        return Err(differ(
            "repeat",
            a.repeat.to_string(),
            b.repeat.to_string(),
            "every shard must run each case as many times",
        ));
    }
    let why_configuration = "a merge joins the shards of one model configuration; set configurations side by side with --compare";
    if a.label != b.label {
        return Err(differ(
            "label",
            json_text(&Value::Object(a.label.clone())),
            json_text(&Value::Object(b.label.clone())),
            why_configuration,
        ));
    }
    if a.configuration != b.configuration {
        let shown = |value: &Option<String>| {
            value
                .as_ref()
                .map_or("none".to_owned(), |label| format!("`{label}`"))
        };
        return Err(differ(
            "configuration",
            shown(&a.configuration),
            shown(&b.configuration),
            why_configuration,
        ));
    }
    if (a.price, a.judge_price) != (b.price, b.judge_price) {
        let shown = |file: &RunFile| {
            let price = |price: &Option<Price>| {
                serde_json::to_string(price).unwrap_or_else(|_| "null".to_owned())
            };
            format!(
                "price {}, judge price {}",
                price(&file.price),
                price(&file.judge_price)
            )
        };
        return Err(differ("price", shown(a), shown(b), why_configuration));
    }
    if a.floors != b.floors {
        let shown =
            |file: &RunFile| json_text(&serde_json::to_value(&file.floors).unwrap_or(Value::Null));
        return Err(differ(
            "floors",
            shown(a),
            shown(b),
            "the suite floors of the merged run would be ambiguous",
        ));
    }
    Ok(())
}

/// `value` as compact JSON.
fn json_text(value: &Value) -> String {
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{MeasuredTotals, Percentiles};
    use crate::run_file::{CaseRun, CorpusVersion, DeclaredFloor, RunMode};
    use serde_json::json;

    /// Run `repeat` of `case_id`, valid or not; live (100 ms per 10 input tokens) when
    /// `live_ms` is given, else read from its recording.
    fn run(case_id: &str, repeat: u32, valid: bool, live_ms: Option<f64>) -> CaseRun {
        let attempt = match live_ms {
            Some(ms) => json!({ "source": "live", "attempt": 0, "latencyMs": ms,
                "inputTokens": (ms / 10.0) as u64, "outputTokens": (ms / 20.0) as u64 }),
            None => json!({ "source": "recording", "attempt": 0 }),
        };
        serde_json::from_value(json!({
            "caseId": case_id, "repeat": repeat, "passed": valid,
            "floorMisses": if valid { json!([]) } else { json!(["valid_after_retry: false, floor true"]) },
            "scores": { "parsed": true, "valid": valid, "validAfterRetry": valid, "rawBytes": 12 },
            "attempts": [attempt]
        }))
        .unwrap()
    }

    /// A shard of a `repeat = 2` measure run of cases `a` and `b` holding `runs`.
    fn shard(
        origin: &str,
        started_at: &str,
        live_calls: usize,
        runs: Vec<CaseRun>,
    ) -> NamedRunFile {
        NamedRunFile::new(
            origin,
            RunFile {
                format: 1,
                suite: "todo".into(),
                mode: RunMode::Measure,
                configuration: None,
                label: serde_json::Map::new(),
                price: Some(crate::run_file::Price::per_million(2.0, 8.0)),
                judge_price: None,
                cost_usd: None,
                cap_reached: None,
                started_at: started_at.into(),
                repeat: 2,
                live_calls,
                measured: None,
                not_measured: None,
                axes: Axes::of(&runs, 2),
                pass_rates: vec![],
                suite_floor_misses: vec![],
                runs,
                corpus: Some(CorpusVersion::of("{}", vec!["a".into(), "b".into()])),
                floors: vec![
                    DeclaredFloor {
                        name: "valid_after_retry".into(),
                        value: None,
                    },
                    DeclaredFloor {
                        name: "min_valid_ratio".into(),
                        value: Some(0.9),
                    },
                ],
            },
        )
    }

    #[test]
    fn a_merge_recomputes_every_total_from_the_runs_in_corpus_order() {
        let b = shard(
            "b.json",
            "2026-12-06T23:00:05Z",
            1,
            vec![run("b", 0, true, Some(300.0)), run("b", 1, true, None)],
        );
        let a = shard(
            "a.json",
            "2026-12-06T23:00:01Z",
            1,
            vec![run("a", 0, true, Some(100.0)), run("a", 1, false, None)],
        );
        let merged = merge_runs(&[b, a]).unwrap();
        assert_eq!(merged.not_run, Vec::<String>::new());
        let file = &merged.file;
        let order: Vec<(&str, u32)> = file
            .runs
            .iter()
            .map(|r| (r.case_id.as_str(), r.repeat))
            .collect();
        assert_eq!(order, [("a", 0), ("a", 1), ("b", 0), ("b", 1)]);
        assert_eq!(file.started_at, "2026-12-06T23:00:01Z");
        assert_eq!(file.live_calls, 2);
        // Valid in 3 of 4 runs: repeat 0 all, repeat 1 half, so the standard error across
        // the two repeats is sd(1.0, 0.5) / sqrt(2) = 0.25.
        assert_eq!(
            file.axes.valid,
            Mean {
                mean: 0.75,
                standard_error: Some(0.25)
            }
        );
        assert_eq!(
            file.pass_rates,
            [
                PassRate {
                    case_id: "a".into(),
                    passed: 1,
                    runs: 2,
                    rate: 0.5
                },
                PassRate {
                    case_id: "b".into(),
                    passed: 2,
                    runs: 2,
                    rate: 1.0
                },
            ]
        );
        assert_eq!(
            file.suite_floor_misses,
            ["min_valid_ratio: 0.75, floor >= 0.9"]
        );
        assert_eq!(
            file.measured,
            Some(MeasuredTotals {
                runs: 2,
                generate_ms: Percentiles {
                    mean: 200.0,
                    p50: 100.0,
                    p95: 300.0
                },
                judge_ms: Percentiles {
                    mean: 0.0,
                    p50: 0.0,
                    p95: 0.0
                },
                input_tokens: Percentiles {
                    mean: 20.0,
                    p50: 10.0,
                    p95: 30.0
                },
                output_tokens: Percentiles {
                    mean: 10.0,
                    p50: 5.0,
                    p95: 15.0
                },
            })
        );
        assert_eq!(file.not_measured, None);
        // (10 input and 5 output tokens) + (30 and 15) at 2 and 8 USD per million:
        // 60 + 180 millionths of a dollar.
        assert_eq!(file.cost_usd, Some(0.00024));
        assert_eq!(
            merged.to_text(2),
            "\
suite `todo` (measure, repeat 2), 2 shards merged
cases             2 of 2 in the corpus
runs              4
parsed            1.00 \u{b1} 0.00
valid             0.75 \u{b1} 0.25
valid after retry 0.75 \u{b1} 0.25
selection F1      \u{2014}
expected hit      \u{2014}
answerability yes \u{2014}
cases passed      1 of 2

suite floors missed:
  min_valid_ratio: 0.75, floor >= 0.9"
        );
    }

    #[test]
    fn a_merge_without_live_calls_says_why_nothing_was_measured() {
        let only = shard(
            "a.json",
            "2026-12-06T23:00:01Z",
            0,
            vec![run("a", 0, true, None)],
        );
        let merged = merge_runs(&[only]).unwrap();
        assert_eq!(merged.file.measured, None);
        assert_eq!(
            merged.file.not_measured.as_deref(),
            Some(crate::run_file::NO_LIVE_CALL)
        );
        assert_eq!(merged.not_run, ["b"]);
        assert_eq!(merge_runs(&[]).unwrap_err(), MergeError::NoShard);
    }

    #[test]
    fn a_case_outside_the_corpus_version_is_refused() {
        let stray = shard(
            "s.json",
            "2026-12-06T23:00:01Z",
            0,
            vec![run("z", 0, true, None)],
        );
        assert_eq!(
            merge_runs(&[stray]).unwrap_err().to_string(),
            "cannot merge s.json: case `z` is not a case of its corpus version"
        );
        let mut floors = shard(
            "f.json",
            "2026-12-06T23:00:01Z",
            0,
            vec![run("a", 0, true, None)],
        );
        floors.file.floors[1].value = None;
        assert_eq!(
            merge_runs(&[floors]).unwrap_err().to_string(),
            "cannot merge f.json: its floors do not read back: min_valid_ratio: declared with no value, but it takes 0.0..=1.0"
        );
        let a = shard(
            "a.json",
            "2026-12-06T23:00:01Z",
            0,
            vec![run("a", 0, true, None)],
        );
        let mut other = shard(
            "o.json",
            "2026-12-06T23:00:01Z",
            0,
            vec![run("b", 0, true, None)],
        );
        other.file.floors.pop();
        assert_eq!(
            merge_runs(&[a, other]).unwrap_err().to_string(),
            "cannot merge a.json and o.json: they differ in floors ([{\"name\":\"valid_after_retry\"},{\"name\":\"min_valid_ratio\",\"value\":0.9}] in a.json, [{\"name\":\"valid_after_retry\"}] in o.json); the suite floors of the merged run would be ambiguous"
        );
    }
}
