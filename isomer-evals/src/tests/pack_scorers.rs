//! Pack scorers: axes a suite adds beside the built-in ones, scored on each run of the
//! fixture corpus `mini`, added up in the totals, printed in the text report, and gated
//! by their case floors in the case trials.
//!
//! The two scorers here:
//! - `has_stat` (flag): the composition that validated has a `stat` node; not scored for a
//!   case without a golden. `good` answers `[stat]` (true); `retried` answers `[callout]`
//!   on its retry (false); `no-golden` is not scored.
//! - `prompt_words` (number): the words of the case's prompt, 7, 11 and 5.

use super::run_with;
use super::runtime;

use std::path::Path;

use isomer_evals::harness::Suite;
use isomer_evals::recordings::Recordings;
use isomer_evals::scorer::{ScorerScore, ScorerTotal};
use isomer_evals::{
    EvalCase, RunEvalsOptions, Scored, Scorer, ScorerValue, format_report, run_evals,
};
use libtest_mimic::{Arguments, Conclusion};
use runtime::MiniRuntime;
use serde_json::Value;

fn mini() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval/mini")
}

fn cases() -> Vec<EvalCase> {
    let text = std::fs::read_to_string(mini().join("corpus.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    serde_json::from_value(manifest["cases"].clone()).unwrap()
}

fn has_stat() -> Scorer {
    Scorer::flag("has_stat", |input| {
        input.eval_case.golden.as_ref()?;
        let composition = input.result.validity.composition.as_ref()?;
        let types: Vec<&str> = composition["body"]
            .as_array()?
            .iter()
            .filter_map(|node| node["type"].as_str())
            .collect();
        Some(
            Scored::flag(types.contains(&"stat"))
                .with_detail(format!("body [{}]", types.join(", "))),
        )
    })
}

fn prompt_words() -> Scorer {
    Scorer::number("prompt_words", |input| {
        Some(Scored::number(
            input.eval_case.prompt.split_whitespace().count() as f64,
        ))
    })
}

fn score(name: &str, value: ScorerValue, detail: Option<&str>) -> ScorerScore {
    ScorerScore {
        name: name.to_owned(),
        value,
        detail: detail.map(str::to_owned),
    }
}

#[test]
fn each_run_gets_its_scorer_values_and_the_report_prints_them() {
    let runtime = MiniRuntime;
    let recordings = Recordings::new(mini());
    let scorers = [has_stat(), prompt_words()];
    let mut options = RunEvalsOptions::new(&runtime, cases(), recordings.generate());
    options.scorers = &scorers;
    let report = futures::executor::block_on(run_evals(options));

    let values: Vec<(&str, &[ScorerScore])> = report
        .results
        .iter()
        .map(|result| (result.case_id.as_str(), result.scorers.as_slice()))
        .collect();
    assert_eq!(
        values,
        [
            (
                "good",
                &[
                    score("has_stat", ScorerValue::Flag(true), Some("body [stat]")),
                    score("prompt_words", ScorerValue::Number(7.0), None),
                ][..]
            ),
            (
                "retried",
                &[
                    score("has_stat", ScorerValue::Flag(false), Some("body [callout]")),
                    score("prompt_words", ScorerValue::Number(11.0), None),
                ][..]
            ),
            (
                "no-golden",
                &[score("prompt_words", ScorerValue::Number(5.0), None)][..]
            ),
        ]
    );
    assert_eq!(
        report.totals.scorers,
        [
            ScorerTotal {
                name: "has_stat".to_owned(),
                flag: true,
                runs: 2,
                met: 1,
                mean: 0.5,
            },
            ScorerTotal {
                name: "prompt_words".to_owned(),
                flag: false,
                runs: 3,
                met: 3,
                mean: 23.0 / 3.0,
            },
        ]
    );
    assert_eq!(
        format_report(&report),
        "cases             3\n\
         parsed            2 (67%)\n\
         valid             2 (67%)\n\
         valid after retry 3 (100%)\n\
         mean selection F1 0.83\n\
         expected hits     2 / 2 (100%)\n\
         has_stat          1 / 2 (50%)\n\
         mean prompt_words 7.67\n\
         \n\
         invalid:\n  \
         retried: expected value at line 1 column 1\n\
         \n\
         has_stat false:\n  \
         retried: body [callout]"
    );
}

/// The suite the gate below runs: the mini corpus, no declared floor, `has_stat` required
/// in every case that has a golden.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", main = false)]
fn scored_mini() -> Suite {
    Suite::new(MiniRuntime).scorer(has_stat().required())
}

/// The same suite without the scorer's floor.
#[isomer_evals::isomer_eval(corpus = "tests/fixtures/eval/mini", main = false)]
fn unfloored_mini() -> Suite {
    Suite::new(MiniRuntime).scorer(has_stat())
}

#[test]
fn a_scorer_case_floor_fails_the_case_trial_that_misses_it() {
    // The case trials only: `totals` compares a baseline these suites do not have.
    let args = Arguments::from_iter(["gate", "--skip", "totals", "--test-threads", "1"]);
    let floored = run_with(&[isomer_evals::suite!(scored_mini)], &[], &args);
    assert_eq!(
        floored,
        Conclusion {
            num_filtered_out: 1,
            num_passed: 2,
            num_failed: 1,
            num_ignored: 0,
            num_measured: 0,
        }
    );
    let unfloored = run_with(&[isomer_evals::suite!(unfloored_mini)], &[], &args);
    assert_eq!(
        unfloored,
        Conclusion {
            num_filtered_out: 1,
            num_passed: 3,
            num_failed: 0,
            num_ignored: 0,
            num_measured: 0,
        }
    );
}

/// The HTML page shows each scorer's floors met or missed (a case floor's misses linking
/// to their cases), its value among each case's scores, decides the cases by its case
/// floor, and draws pictures through the hook it is given: here a drawing that gives the
/// same four bytes for a `stat` body and refuses any other.
#[test]
fn the_page_shows_scorer_floors_values_and_pictures() {
    let runtime = MiniRuntime;
    let recordings = Recordings::new(mini());
    let cases = cases();
    let scorers = [has_stat().required().min_ratio(0.75), prompt_words()];
    let mut options = RunEvalsOptions::new(&runtime, cases.clone(), recordings.generate());
    options.scorers = &scorers;
    let report = futures::executor::block_on(run_evals(options));
    let draw = |composition: &Value| -> Result<Vec<u8>, String> {
        if composition["body"][0]["type"] == "stat" {
            Ok(vec![0x89, b'P', b'N', b'G'])
        } else {
            Err("only a stat is drawn here".to_owned())
        }
    };
    let page = isomer_evals::html::ReportPage::new("mini", &report, &cases, &runtime)
        .scorers(&scorers)
        .pictures(&draw)
        .to_html();
    assert!(page.contains(
        "<li class=\"floor missed\"><span class=\"badge fail\">missed</span><code>has_stat</code> (every case)<ul class=\"problems\"><li><a href=\"#case-retried\">retried: has_stat: false, floor true (body [callout])</a></li></ul></li>"
    ));
    assert!(page.contains(
        "<li class=\"floor missed\"><span class=\"badge fail\">missed</span><code>min_has_stat_ratio = 0.75</code> (suite)<ul class=\"problems\"><li>min_has_stat_ratio: 0.5, floor &gt;= 0.75</li></ul></li>"
    ));
    assert_eq!(page.matches("<li class=\"floor ").count(), 2);
    // The scorer's case floor decides every case: retried fails, the others pass.
    assert!(page.contains("<details class=\"case failed\" id=\"case-retried\" open>"));
    assert!(page.contains("<details class=\"case passed\" id=\"case-good\">"));
    assert!(page.contains("<details class=\"case passed\" id=\"case-no-golden\">"));
    assert!(page.contains("<dt>has_stat</dt><dd>no (body [callout])</dd>"));
    assert!(page.contains("<dt>prompt_words</dt><dd>11</dd>"));
    // Without answers the page shows the composition each case scored: good's (a stat) and
    // good's golden are drawn; retried's and no-golden's callouts and retried's golden are
    // not.
    assert_eq!(
        page.matches(
            "<img class=\"picture\" alt=\"picture\" src=\"data:image/png;base64,iVBORw==\">"
        )
        .count(),
        2
    );
    assert_eq!(
        page.matches("<p class=\"none\">no picture: only a stat is drawn here</p>")
            .count(),
        3
    );
}
