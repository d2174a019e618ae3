//! Repeats, latency and tokens: a corpus replayed three times from its per-repeat
//! recordings gives the means and standard errors worked out by hand below, a live run
//! over fake callbacks gives exact token means and percentiles, and a replay says it
//! measured nothing.

mod support;

use std::path::Path;
use std::sync::{Arc, Mutex};

use isomer_evals::agent::AgentUsage;
use isomer_evals::recordings::Recordings;
use isomer_evals::run_file::Axes;
use isomer_evals::{
    AnswerabilityVerdict, BoxError, EvalCase, Generate, GenerateRequest, Judge, JudgeRequest, Mean,
    Percentiles, RunEvalsOptions, format_measurements, format_report, run_evals,
};
use serde_json::Value;
use support::{StubRuntime, fixture};

fn mini_repeat() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval/mini-repeat")
}

fn cases() -> Vec<EvalCase> {
    let text = std::fs::read_to_string(mini_repeat().join("corpus.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    serde_json::from_value(manifest["cases"].clone()).unwrap()
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
        .block_on(future)
}

/// The fixture `mini-repeat`: cases `a` (golden `[stat]`, expected `stat`) and `b` (golden
/// `[stat, callout]`), three repeats, no retry. What each run answers, and so scores:
///
/// | run | answer | valid | F1 | verdict |
/// |---|---|---|---|---|
/// | a#0 | `[stat]` | yes | 1 | yes |
/// | a#1 | `[callout]` | yes | 0 | no |
/// | a#2 | `not JSON` | no | none | none |
/// | b#0 | `[stat, callout]` | yes | 1 | yes |
/// | b#1 | `[stat]` | yes | 2/3 | partial |
/// | b#2 | `[stat, callout]` | yes | 1 | yes |
///
/// The standard error is the sample standard deviation of the per-repeat values divided by
/// the square root of the number of repeats `n = 3`:
///
/// - valid (and parsed, valid after retry): per repeat 1, 1, 1/2; mean 5/6 = 0.8333;
///   deviations 1/6, 1/6, -1/3, squares summing to 1/6; variance (1/6)/2 = 1/12; standard
///   error sqrt(1/12)/sqrt(3) = 1/6 = 0.1667.
/// - selection F1 (runs with a selection): per repeat (1+1)/2 = 1, (0+2/3)/2 = 1/3, 1
///   (b#2 alone); mean over the five runs (1+0+1+2/3+1)/5 = 11/15 = 0.7333; per-repeat
///   center 7/9, deviations 2/9, -4/9, 2/9, squares 24/81, variance 12/81; standard error
///   sqrt(12/81)/sqrt(3) = 2/9 = 0.2222.
/// - expected hit (case `a` only): per repeat 1, 0, 0; mean 1/3; deviations 2/3, -1/3,
///   -1/3, squares 2/3, variance 1/3; standard error sqrt(1/3)/sqrt(3) = 1/3.
/// - answerability yes (judged runs): per repeat 2/2 = 1, 0/2 = 0, 1/1 = 1; mean 3/5 =
///   0.6; per-repeat center 2/3, deviations 1/3, -2/3, 1/3, squares 2/3, variance 1/3;
///   standard error 1/3.
#[test]
fn repeat_statistics_of_a_replayed_corpus_match_the_hand_computed_values() {
    let recordings = Recordings::new(mini_repeat());
    let runtime = StubRuntime::new();
    let mut options = RunEvalsOptions::new(&runtime, cases(), recordings.generate());
    options.judge = Some(recordings.judge());
    options.retry_on_invalid = false;
    options.repeat = 3;
    let report = block_on(run_evals(options));
    assert_eq!(recordings.findings().to_string(), "");

    let runs: Vec<(&str, u32)> = report
        .results
        .iter()
        .map(|r| (r.case_id.as_str(), r.repeat))
        .collect();
    assert_eq!(
        runs,
        [("a", 0), ("a", 1), ("a", 2), ("b", 0), ("b", 1), ("b", 2)]
    );
    let close = |mean: Option<Mean>, expected: f64, error: f64| {
        let mean = mean.unwrap();
        assert!(
            (mean.mean - expected).abs() < 1e-12,
            "{mean:?} vs {expected}"
        );
        let se = mean.standard_error.unwrap();
        assert!((se - error).abs() < 1e-12, "{mean:?} vs ± {error}");
    };
    // The repeat statistics, as the report's JSON carries them (`totals.repeats`: the
    // repeat, the runs and the axes in line, read back as the run file's axes).
    let repeats = serde_json::to_value(&report).unwrap()["totals"]["repeats"].clone();
    assert_eq!(
        (&repeats["repeat"], &repeats["runs"]),
        (&3.into(), &6.into())
    );
    let axes: Axes = serde_json::from_value(repeats).unwrap();
    close(Some(axes.valid), 5.0 / 6.0, 1.0 / 6.0);
    close(Some(axes.parsed), 5.0 / 6.0, 1.0 / 6.0);
    close(Some(axes.valid_after_retry), 5.0 / 6.0, 1.0 / 6.0);
    close(axes.selection_f1, 11.0 / 15.0, 2.0 / 9.0);
    close(axes.expected_hit, 1.0 / 3.0, 1.0 / 3.0);
    close(axes.answerability_yes, 0.6, 1.0 / 3.0);
    assert_eq!(report.totals.cases, 2);
    assert_eq!(report.totals.runs(), 6);

    assert_eq!(
        format_report(&report),
        "cases                  2\n\
         runs                   6 (repeat 3)\n\
         parsed                 5 (83%)\n\
         valid                  5 (83%)\n\
         valid after retry      5 (83%)\n\
         mean selection F1      0.73 \u{b1} 0.22\n\
         answerability          yes 3 / partial 1 / no 1\n\
         expected hits          1 / 3 (33%)\n\
         mean parsed            0.83 \u{b1} 0.17\n\
         mean valid             0.83 \u{b1} 0.17\n\
         mean valid after retry 0.83 \u{b1} 0.17\n\
         mean expected hit      0.33 \u{b1} 0.33\n\
         mean answerability yes 0.60 \u{b1} 0.33\n\
         \n\
         invalid:\n\
         \x20 a#2: expected ident at line 1 column 2\n\
         \n\
         spread over repeats (min\u{2013}max per case):\n\
         \x20 a: valid 2/3, valid after retry 2/3, selection F1 0.00\u{2013}1.00, raw bytes 8\u{2013}43\n\
         \x20 b: valid 3/3, valid after retry 3/3, selection F1 0.67\u{2013}1.00, raw bytes 40\u{2013}59"
    );
    // The JSON carries the same, per run and in the totals; a replay measured nothing.
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["results"][0].get("repeat"), None);
    assert_eq!(json["results"][2]["repeat"], 2);
    assert_eq!(
        json["totals"]["repeats"]["spread"][0],
        serde_json::json!({
            "caseId": "a", "runs": 3, "valid": 2, "validAfterRetry": 2,
            "selectionF1": { "min": 0.0, "max": 1.0 },
            "rawBytes": { "min": 8, "max": 43 }
        })
    );
    assert_eq!(json["totals"].get("measured"), None);
    assert_eq!(
        format_measurements(&report),
        "latency and tokens: not measured in replay"
    );
}

/// A later repeat without its recordings is listed under its own recording name.
#[test]
fn a_missing_later_repeat_is_named_by_its_recording() {
    let recordings = Recordings::new(mini_repeat());
    let runtime = StubRuntime::new();
    let mut options = RunEvalsOptions::new(&runtime, cases(), recordings.generate());
    options.retry_on_invalid = false;
    options.repeat = 4;
    let report = block_on(run_evals(options));
    assert_eq!(
        recordings.findings().to_string(),
        "missing recordings (strict replay answers them with empty text): answers/a.r3.0.txt, answers/b.r3.0.txt\n"
    );
    assert_eq!(report.totals.runs(), 8);
    assert_eq!(
        serde_json::to_value(&report).unwrap()["totals"]["repeats"]["repeat"],
        4
    );
}

/// A live run, three repeats over fake callbacks that report known tokens: `generate`
/// spends `100 × (repeat + 1)` in and `10 × (repeat + 1)` out on case `a`, 1000 in and 7
/// out on case `b`; `judge` 5 in and 1 out. Per run (generate + judge):
///
/// - input: a 105, 205, 305; b 1005 three times. Sorted 105, 205, 305, 1005, 1005, 1005;
///   mean 3630/6 = 605; p50 is rank ceil(0.5 × 6) = 3, 305; p95 rank ceil(0.95 × 6) = 6,
///   1005.
/// - output: a 11, 21, 31; b 8 three times. Sorted 8, 8, 8, 11, 21, 31; mean 87/6 = 14.5;
///   p50 8; p95 31.
#[test]
fn a_live_run_with_repeats_measures_exact_tokens_and_percentiles() {
    let runtime = StubRuntime::new();
    let asked: Arc<Mutex<Vec<(String, u32, u32)>>> = Arc::default();
    let log = Arc::clone(&asked);
    let generate = Generate::new(move |request: GenerateRequest| {
        log.lock().unwrap().push((
            request.eval_case.id.clone(),
            request.repeat,
            request.attempt,
        ));
        let usage = if request.eval_case.id == "a" {
            let k = u64::from(request.repeat) + 1;
            AgentUsage {
                input_tokens: 100 * k,
                output_tokens: 10 * k,
            }
        } else {
            AgentUsage {
                input_tokens: 1000,
                output_tokens: 7,
            }
        };
        request.usage.add(usage);
        async move { Ok::<_, BoxError>(fixture(&["stat"])) }
    });
    let judge = Judge::new(|request: JudgeRequest| {
        request.usage.add(AgentUsage {
            input_tokens: 5,
            output_tokens: 1,
        });
        async move { Ok::<_, BoxError>(AnswerabilityVerdict::Yes) }
    });
    let mut options = RunEvalsOptions::new(
        &runtime,
        vec![EvalCase::new("a", "A?"), EvalCase::new("b", "B?")],
        generate,
    );
    options.judge = Some(judge);
    options.repeat = 3;
    options.measure = true;
    options.concurrency = 4;
    let report = block_on(run_evals(options));

    let mut asked = asked.lock().unwrap().clone();
    asked.sort();
    let once_per_repeat: Vec<(String, u32, u32)> = ["a", "b"]
        .into_iter()
        .flat_map(|id| (0..3).map(move |repeat| (id.to_owned(), repeat, 0)))
        .collect();
    assert_eq!(asked, once_per_repeat);

    // Each run's measures, as the report's JSON carries them (`results[*].measured`).
    let json = serde_json::to_value(&report).unwrap();
    let tokens: Vec<(u64, u64)> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let measured = &r["measured"];
            (
                measured["inputTokens"].as_u64().unwrap(),
                measured["outputTokens"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        tokens,
        [
            (105, 11),
            (205, 21),
            (305, 31),
            (1005, 8),
            (1005, 8),
            (1005, 8)
        ]
    );
    let measured = report.totals.measured.unwrap();
    assert_eq!(measured.runs, 6);
    assert_eq!(
        measured.input_tokens,
        Percentiles {
            mean: 605.0,
            p50: 305.0,
            p95: 1005.0
        }
    );
    assert_eq!(
        measured.output_tokens,
        Percentiles {
            mean: 14.5,
            p50: 8.0,
            p95: 31.0
        }
    );
    let text = format_measurements(&report);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "measured runs 6");
    assert!(lines[1].starts_with("generate ms   mean "), "{text}");
    assert!(lines[2].starts_with("judge ms      mean "), "{text}");
    assert_eq!(
        &lines[3..],
        [
            "input tokens  mean 605.00 / p50 305.00 / p95 1005.00",
            "output tokens mean 14.50 / p50 8.00 / p95 31.00",
        ]
    );
    // Wall time is kept out of what a baseline holds.
    let baseline = serde_json::to_value(report.without_measures()).unwrap();
    assert!(!baseline.to_string().contains("measured"), "{baseline}");
}

#[test]
fn percentiles_are_nearest_rank() {
    assert_eq!(
        Percentiles::of([4.0, 1.0, 3.0, 2.0]),
        Percentiles {
            mean: 2.5,
            p50: 2.0,
            p95: 4.0
        }
    );
    assert_eq!(
        Percentiles::of([]),
        Percentiles {
            mean: 0.0,
            p50: 0.0,
            p95: 0.0
        }
    );
}
