//! Replay from the recordings store is deterministic, and notes missing recordings and
//! stale judgments; a case without a verdict gets none; the baseline gathers them with the
//! prompt's hash.

use isomer_evals::baseline::Baseline;
use isomer_evals::recordings::Recordings;
use isomer_evals::{
    AnswerabilityVerdict, BoxError, CaseStage, EvalCase, EvalReport, EvalRuntime, RunEvalsOptions,
    TextCheck, eval_prompt, run_evals,
};
use isomer_sdk::{
    AuthoringContext, AuthoringProfile, CatalogEntry, ChildRef, ChildWalker, ValidationError,
};
use serde_json::{Value, json};

/// A runtime that knows `stat` and `callout`; text = body types, one a line.
struct Stub;

impl ChildWalker for Stub {
    fn children<'a>(&self, _node: &'a Value) -> Vec<ChildRef<'a>> {
        Vec::new()
    }
}

impl Stub {
    fn parse(&self, value: &Value) -> Result<Value, Vec<ValidationError>> {
        self.validate(value).map(|()| value.clone())
    }

    fn validate(&self, composition: &Value) -> Result<(), Vec<ValidationError>> {
        let Some(body) = composition.get("body").and_then(Value::as_array) else {
            return Err(vec![ValidationError::new("body", "is required")]);
        };
        let errors: Vec<ValidationError> = body
            .iter()
            .filter_map(|node| {
                let t = node.get("type").and_then(Value::as_str).unwrap_or("");
                (!matches!(t, "stat" | "callout"))
                    .then(|| ValidationError::new("body", format!("unknown node type \"{t}\"")))
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

impl EvalRuntime for Stub {
    fn walker(&self) -> &dyn ChildWalker {
        self
    }

    fn authoring_context(&self) -> AuthoringContext {
        let entry = |t: &str| CatalogEntry {
            type_name: t.to_owned(),
            purpose: format!("A {t}."),
            use_when: vec![],
            avoid_when: vec![],
            example: json!({"type": t}),
            group: None,
        };
        AuthoringContext {
            schema: json!({"type": "object"}),
            primitives: vec![entry("stat"), entry("callout")],
            groups: vec![],
            views: vec![],
        }
    }

    fn check<'a>(&'a self, value: &'a isomer_sdk::Document) -> TextCheck<'a> {
        TextCheck::from_steps(self, self.parse(value), |copy| self.validate(copy))
    }

    fn render_text(&self, composition: &Value) -> Result<String, BoxError> {
        let body = composition
            .get("body")
            .and_then(Value::as_array)
            .ok_or("no body")?;
        Ok(body
            .iter()
            .filter_map(|node| node.get("type").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

fn view(types: &[&str]) -> String {
    json!({"type": "view", "body": types.iter().map(|t| json!({"type": t})).collect::<Vec<_>>()})
        .to_string()
}

fn corpus() -> Vec<EvalCase> {
    let golden = |types: &[&str]| serde_json::from_str::<Value>(&view(types)).unwrap();
    vec![
        EvalCase::new("good", "One number?").with_golden(golden(&["stat"])),
        EvalCase::new("fixed", "A note?").with_golden(golden(&["callout"])),
        EvalCase::new("stale", "Two numbers?").with_golden(golden(&["stat", "stat"])),
        EvalCase::new("unjudged", "A callout and a number?"),
        EvalCase::new("silent", "Anything?"),
    ]
}

/// The recordings of [`corpus`] written to a directory of this call's own, and the store
/// over it; the directory is removed when the guard drops.
fn recordings() -> (tempfile::TempDir, Recordings) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("answers")).unwrap();
    let answer = |id: &str, attempt: u32, text: String| {
        let path = dir.path().join(format!("answers/{id}.{attempt}.txt"));
        std::fs::write(path, text).unwrap();
    };
    answer("good", 0, view(&["stat"]));
    answer("fixed", 0, view(&["sparkline"]));
    answer("fixed", 1, view(&["callout"]));
    answer(
        "stale",
        0,
        format!("```json\n{}\n```", view(&["stat", "stat"])),
    );
    answer("unjudged", 0, view(&["callout", "stat"]));
    // "silent" has no recording at all; "stale" was judged on an older rendering.
    let judgments = json!({
        "provenance": {"author": "corpus_replay.rs"},
        "judgments": [
            {"id": "good", "verdict": "yes", "rendered": "stat"},
            {"id": "fixed", "verdict": "partial", "rendered": "callout"},
            {"id": "stale", "verdict": "yes", "rendered": "stat"}
        ]
    });
    std::fs::write(dir.path().join("judgments.json"), judgments.to_string()).unwrap();
    let recordings = Recordings::new(dir.path());
    (dir, recordings)
}

async fn replay_run(replay: &Recordings, concurrency: usize) -> EvalReport {
    let mut options = RunEvalsOptions::new(&Stub, corpus(), replay.generate());
    options.judge = Some(replay.judge());
    options.concurrency = concurrency;
    run_evals(options).await
}

#[tokio::test]
async fn replay_is_deterministic_across_runs_and_concurrency() {
    let (_first_dir, first) = recordings();
    let (_second_dir, second) = recordings();
    let one_at_a_time = replay_run(&first, 1).await;
    let four_at_once = replay_run(&second, 4).await;
    assert_eq!(
        serde_json::to_string(&one_at_a_time).unwrap(),
        serde_json::to_string(&four_at_once).unwrap()
    );
    assert_eq!(first.findings(), second.findings());

    let totals = &one_at_a_time.totals;
    assert_eq!(
        (
            totals.cases,
            totals.parsed,
            totals.valid,
            totals.valid_after_retry
        ),
        (5, 4, 3, 4)
    );
    let answerability = totals.answerability.unwrap();
    assert_eq!(
        (answerability.yes, answerability.partial, answerability.no),
        (2, 1, 0)
    );
    assert_eq!(totals.errored, 1);
}

#[tokio::test]
async fn missing_recordings_replay_as_empty_answers_and_are_listed() {
    let (_dir, replay) = recordings();
    let report = replay_run(&replay, 2).await;
    // The empty first answer fails to parse, so the retry is asked for too.
    assert_eq!(
        replay.findings().to_string().lines().next(),
        Some(
            "missing recordings (strict replay answers them with empty text): answers/silent.0.txt, answers/silent.1.txt"
        )
    );
    let silent = &report.results[4];
    assert_eq!(silent.case_id, "silent");
    assert!(!silent.validity.parsed);
    assert!(!silent.validity.valid_after_retry);
    assert_eq!(silent.payload.raw_bytes, 0);
}

#[tokio::test]
async fn stale_cases_keep_their_verdict_and_unjudged_ones_get_none() {
    let (_dir, replay) = recordings();
    let report = replay_run(&replay, 3).await;
    assert_eq!(
        replay.findings().to_string(),
        "missing recordings (strict replay answers them with empty text): answers/silent.0.txt, answers/silent.1.txt\n\
         cases without a verdict in judgments.json: unjudged\n\
         verdicts given for another text rendering (re-judge them): stale\n"
    );
    let verdict = |i: usize| report.results[i].answerability.map(|a| a.verdict);
    // The recorded verdict comes back even though the rendering moved on.
    assert_eq!(verdict(2), Some(AnswerabilityVerdict::Yes));
    // A case with no recorded verdict gets none: it is errored at the judge stage.
    assert_eq!(verdict(3), None);
    let error = report.results[3].error.as_ref().unwrap();
    assert_eq!(error.stage, CaseStage::Judge);
    assert_eq!(
        error.message,
        "judgments.json has no verdict for `unjudged`: judge its text rendering and record the verdict"
    );
    assert!(report.results[3].validity.valid);
    // A valid retry is judged on its own rendering, which matches.
    assert_eq!(verdict(1), Some(AnswerabilityVerdict::Partial));
}

#[tokio::test]
async fn the_baseline_hashes_the_prompt_generate_was_handed() {
    let (_dir, replay) = recordings();
    let report = replay_run(&replay, 1).await;
    // The guide `replay_run`'s options hold by default.
    let guide = RunEvalsOptions::new(&Stub, Vec::new(), replay.generate()).guide;
    let prompt = eval_prompt(&Stub, AuthoringProfile::General, &guide, None);
    assert_eq!(replay.prompt().as_deref(), Some(prompt.as_str()));

    // The record the baseline keeps (the prompt's hash and these lists) is checked,
    // value by value, by the unit tests of `baseline.rs`.
    let baseline = Baseline::new(report.clone(), &prompt, &replay);
    assert_eq!(baseline.report_text, isomer_evals::format_report(&report));
    assert!(!baseline.recordings_match());
    assert_eq!(
        replay.findings().to_string(),
        "missing recordings (strict replay answers them with empty text): answers/silent.0.txt, answers/silent.1.txt\n\
         cases without a verdict in judgments.json: unjudged\n\
         verdicts given for another text rendering (re-judge them): stale\n"
    );
}

#[test]
fn replay_is_shared_across_threads() {
    fn shared<T: Send + Sync>(_: &T) {}
    let (_dir, replay) = recordings();
    shared(&replay);
    // Eight threads asking at once: every answer comes back, and each
    // missing pair is listed once.
    std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                assert_eq!(replay.answer("good", 0).unwrap(), view(&["stat"]));
                assert_eq!(replay.answer("silent", 1).unwrap(), "");
                assert_eq!(
                    replay.verdict("stale", "stat\nstat"),
                    Ok(AnswerabilityVerdict::Yes)
                );
            });
        }
    });
    assert_eq!(
        replay.findings().to_string(),
        "missing recordings (strict replay answers them with empty text): answers/silent.1.txt\n\
         verdicts given for another text rendering (re-judge them): stale\n"
    );
}
