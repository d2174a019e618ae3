//! One suite against two model configurations, each at its own loopback server: a
//! `measure` run writes one run file per configuration, named after its label, each with
//! its own label, provenance, price and recordings directory, and each live call, run and
//! whole run priced from the tokens the server answered in `usage`; the two run files
//! then compare side by side as `isomer-report --compare` prints them.

#[path = "../../isomer-evals/tests/gate_support/mod.rs"]
mod gate_support;
mod support;

use std::path::Path;

use isomer_evals::compare::Comparison;
use isomer_evals::run_file::{CallSource, NamedRunFile, Price, RunMode};
use serde_json::json;
use support::{Configurations, Exchange};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn one_suite_against_two_configurations_writes_a_priced_run_file_for_each() {
    let answer = support::pause_answer();
    let gate = Configurations::start(
        gate_support::build_gate("configurations_gate", Path::new(MANIFEST_DIR)),
        // Server A: the five generate calls of `model-a`, in order.
        support::model_a([answer.as_str(); 5]),
        // Server B: the judge (its message holds `## Answer`), then every generate.
        vec![
            Exchange {
                contains: vec!["## Answer".to_owned()],
                messages: None,
                responses: vec![support::completion("yes", 400, 2)],
            },
            support::every(vec![support::completion(&answer, 1500, 300)]),
        ],
    );
    let (a, b) = (&gate.a, &gate.b);
    let (recordings, runs) = (gate.recordings.path(), gate.runs.path());
    let output = gate.command("measure").output().unwrap();
    let text = support::output_text(&output);
    assert!(output.status.success(), "{text}");
    assert_eq!(gate.requests(), (5, 10), "{text}");
    assert_eq!(a.requests()[0]["model"], "gpt-a");
    assert_eq!(b.requests()[0]["model"], "gpt-b");

    // Each configuration recorded into its own directory.
    for (label, repeat) in [("model-a", "pause.r4.0.txt"), ("model-b", "pause.r4.0.txt")] {
        let written =
            std::fs::read_to_string(recordings.join(label).join("answers").join(repeat)).unwrap();
        assert_eq!(written, answer, "{label}");
    }
    assert!(!recordings.join("model-a/judgments.json").exists());
    assert!(recordings.join("model-b/judgments.json").exists());

    // The totals print each configuration's cost under its own heading.
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        stderr.contains(
            "\ncost usd      total 0.038 / 5 priced calls / per call mean 0.0076\ncost per case mean 0.0076 / p50 0.008 / p95 0.01\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "models::totals, configuration `model-a`, the live calls of this run (5 calls):\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "models::totals, configuration `model-b`, the live calls of this run (10 calls):\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "\ncost usd      total 0.0338 / 10 priced calls / per call mean 0.00338\ncost per case mean 0.00676 / p50 0.00676 / p95 0.00676\n"
        ),
        "{stderr}"
    );

    // Measure mode writes each configuration's HTML report beside its run files, the
    // measured part holding the cost rows.
    let page = std::fs::read_to_string(runs.join("models/models-model-a.html")).unwrap();
    assert!(
        page.contains(
            "<tr><th>cost usd</th><td>total 0.038 / 5 priced calls / per call mean 0.0076</td></tr>\n<tr><th>cost per case</th><td>mean 0.0076 / p50 0.008 / p95 0.01</td></tr>\n</tbody></table></section>"
        ),
        "{page}"
    );
    assert!(
        page.contains("<section id=\"measured\"><h2>Measured (the live calls of this run)</h2>")
    );
    assert!(page.contains("<title>models (model-a): eval report</title>"));
    let page = std::fs::read_to_string(runs.join("models/models-model-b.html")).unwrap();
    assert!(
        page.contains("<tr><th>cost usd</th><td>total 0.0338 / 10 priced calls / per call mean 0.00338</td></tr>"),
        "{page}"
    );

    let files = gate.run_files();
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names[0].starts_with("run-model-a-") && names[0].ends_with("Z.json"),
        "{names:?}"
    );
    assert!(
        names[1].starts_with("run-model-b-") && names[1].ends_with("Z.json"),
        "{names:?}"
    );
    let (file_a, file_b) = (&files[0].1, &files[1].1);

    assert_eq!(file_a.suite, "models");
    assert_eq!(file_a.mode, RunMode::Measure);
    assert_eq!(file_a.configuration.as_deref(), Some("model-a"));
    assert_eq!(
        serde_json::Value::Object(file_a.label.clone()),
        json!({"model": "gpt-a", "baseUrl": a.base_url, "temperature": 0.0,
            "client": concat!("isomer-openai ", env!("CARGO_PKG_VERSION"))})
    );
    assert_eq!(file_a.price, Some(Price::per_million(2.0, 8.0)));
    assert_eq!(file_a.judge_price, None);
    assert_eq!(file_a.live_calls, 5);
    assert_eq!(file_a.cap_reached, None);
    // Per call: tokens times the price per million, divided once.
    /// A call as compared: attempt, input and output tokens, cost.
    type Priced = (Option<u32>, Option<u64>, Option<u64>, Option<f64>);
    let calls: Vec<Priced> = file_a
        .runs
        .iter()
        .flat_map(|run| &run.attempts)
        .map(|call| {
            assert_eq!(call.source, CallSource::Live);
            (
                call.attempt,
                call.input_tokens,
                call.output_tokens,
                call.cost_usd,
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            (Some(0), Some(1000), Some(500), Some(0.006)),
            (Some(0), Some(2000), Some(500), Some(0.008)),
            (Some(0), Some(1000), Some(1000), Some(0.01)),
            (Some(0), Some(3000), Some(250), Some(0.008)),
            (Some(0), Some(1000), Some(500), Some(0.006)),
        ]
    );
    assert_eq!(
        support::run_summaries(file_a),
        [
            (1, Some(0.006), None),
            (1, Some(0.008), None),
            (1, Some(0.01), None),
            (1, Some(0.008), None),
            (1, Some(0.006), None),
        ]
    );
    assert_eq!(file_a.cost_usd, Some(0.038));

    assert_eq!(file_b.configuration.as_deref(), Some("model-b"));
    assert_eq!(file_b.label["model"], "gpt-b");
    assert_eq!(file_b.label["baseUrl"], b.base_url.as_str());
    assert_eq!(file_b.price, Some(Price::per_million(1.0, 4.0)));
    assert_eq!(file_b.judge_price, Some(Price::per_million(10.0, 30.0)));
    assert_eq!(file_b.live_calls, 10);
    for run in &file_b.runs {
        // Generate 1500 × 1 + 300 × 4 = 2700 millionths; the judge, at its own price,
        // 400 × 10 + 2 × 30 = 4060.
        assert_eq!(run.attempts.len(), 1, "{run:?}");
        assert_eq!(run.attempts[0].cost_usd, Some(0.0027));
        let judge = run.judge.as_ref().unwrap();
        assert_eq!(
            (
                judge.source,
                judge.input_tokens,
                judge.output_tokens,
                judge.cost_usd
            ),
            (CallSource::Live, Some(400), Some(2), Some(0.00406))
        );
        assert_eq!(run.cost_usd, Some(0.00676));
    }
    assert_eq!(file_b.cost_usd, Some(0.0338));

    // The two run files side by side, as `isomer-report --compare` prints them.
    let comparison = Comparison::new(&[
        NamedRunFile::new("a/run-model-a.json", file_a.clone()),
        NamedRunFile::new("b/run-model-b.json", file_b.clone()),
    ])
    .unwrap();
    // Both answered every repeat validly; model-b's judge said yes to each, model-a has
    // no judge; model-b costs 0.0338 - 0.038 = -0.0042 USD less.
    assert_eq!(
        comparison.to_text(),
        "suite `models`, 2 run files, deltas against the first:
  model-a: a/run-model-a.json
  model-b: b/run-model-b.json

axis              model-a     model-b     \u{394} model-b
parsed            1.00 \u{b1} 0.00 1.00 \u{b1} 0.00 0.00
valid             1.00 \u{b1} 0.00 1.00 \u{b1} 0.00 0.00
valid after retry 1.00 \u{b1} 0.00 1.00 \u{b1} 0.00 0.00
selection F1      1.00 \u{b1} 0.00 1.00 \u{b1} 0.00 0.00
expected hit      1.00 \u{b1} 0.00 1.00 \u{b1} 0.00 0.00
answerability yes \u{2014}           1.00 \u{b1} 0.00 \u{2014}
cases passed      1 of 1      1 of 1      0
cost usd          0.038       0.0338      -0.0042

cases that differ (model-a \u{2192} model-b):
  pause
    answerability \u{2014} \u{2192} yes, yes, yes, yes, yes

verdicts that changed against model-a: none"
    );

    // A replay of each configuration reads its own recordings, calls nothing and prices
    // nothing.
    let replay = gate
        .command("")
        .args(["--exact", "models::totals"])
        .env("ISOMER_EVAL_CONFIGURATIONS", "model-b")
        .output()
        .unwrap();
    let replayed = support::output_text(&replay);
    // `model-b` is not the first configuration: no baseline is compared, and its
    // recordings replay sound, so the trial passes.
    assert!(replay.status.success(), "{replayed}");
    assert_eq!(gate.requests(), (5, 10));
    let files = gate.run_files();
    assert_eq!(files.len(), 3);
    let replayed_b = files
        .iter()
        .map(|(_, file)| file)
        .find(|file| file.mode == RunMode::Replay)
        .unwrap();
    assert_eq!(replayed_b.configuration.as_deref(), Some("model-b"));
    assert_eq!((replayed_b.live_calls, replayed_b.cost_usd), (0, None));
    assert!(
        replayed_b
            .runs
            .iter()
            .all(|run| run.cost_usd.is_none() && run.attempts[0].source == CallSource::Recording)
    );

    // A replay of both: the baseline pins the first configuration, whose answers (all
    // valid) moved it from the committed replay's (one invalid); its failure is led by
    // the configuration, and `model-b`, checked without a baseline, passes.
    let both = gate
        .command("")
        .args(["--exact", "models::totals"])
        .output()
        .unwrap();
    let both_text = support::output_text(&both);
    assert!(!both.status.success(), "{both_text}");
    let stdout = String::from_utf8_lossy(&both.stdout);
    assert!(
        stdout.contains(
            "---- models::totals ----\nconfiguration `model-a`: the baseline moved (models__report, models__report_text):\n"
        ),
        "{both_text}"
    );
    assert!(!stdout.contains("configuration `model-b`"), "{both_text}");
    assert_eq!(gate.requests(), (5, 10));
    let files = gate.run_files();
    let labels: Vec<(Option<&str>, RunMode)> = files
        .iter()
        .map(|(_, file)| (file.configuration.as_deref(), file.mode))
        .collect();
    assert_eq!(
        labels,
        [
            (Some("model-a"), RunMode::Measure),
            (Some("model-a"), RunMode::Replay),
            (Some("model-b"), RunMode::Measure),
            (Some("model-b"), RunMode::Replay),
            (Some("model-b"), RunMode::Replay),
        ]
    );
}
