//! The slides pack scorer `fits_frame` on its own: a recorded slide that fits its
//! 1920×1080 frame, a statement of forty sentences that runs past its body (every recorded
//! slide fits since the primitives draw their own figures), a slide the snapshot surface
//! refuses, and the scorer run through `run_evals` over those answers, with its suite
//! floor.

use std::path::Path;

use isomer_evals::scorer::{ScorerScore, ScorerTotal};
use isomer_evals::{EvalCase, Generate, RunEvalsOptions, ScorerValue, format_report, run_evals};
use serde_json::{Value, json};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/slides");

/// The recorded answer `answers/<name>.txt` of the slides corpus, as JSON.
fn recorded(name: &str) -> Value {
    let text = std::fs::read_to_string(
        Path::new(CORPUS)
            .join("answers")
            .join(format!("{name}.txt")),
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A statement of forty sentences: more lines than the slide body holds, even at
/// the smallest size step.
fn overflowing() -> Value {
    json!({
        "type": "view",
        "body": [{
            "type": "slideFrame",
            "body": [{ "type": "slideStatement", "text": "Refunds settle nightly. ".repeat(40) }]
        }]
    })
}

#[test]
fn a_slide_fits_or_says_how_far_it_runs_past_its_frame() {
    use isomer_slides::pictures::overflow;
    assert_eq!(overflow(&recorded("ledger-title.0")), Ok(None));
    assert_eq!(
        overflow(&overflowing()),
        Ok(Some(
            "bottom 2184 px, right 0 px past the slide body".to_owned()
        ))
    );
    // A `javascript:` link is refused by the snapshot surface: no picture, and why.
    let refused = json!({
        "type": "view",
        "body": [{
            "type": "slideFrame",
            "url": "javascript:alert(1)",
            "body": [{ "type": "slideStatement", "text": "Hi." }]
        }]
    });
    assert_eq!(
        overflow(&refused),
        Err("the snapshot surface refused it: Invalid Composition:\n  body[0].url (in slideFrame) must be an absolute http or https URL, such as \"https://example.com\"".to_owned())
    );
}

#[test]
fn the_scorer_gives_each_valid_answer_a_flag_and_the_suite_floor_reads_their_ratio() {
    let runtime = isomer_slides::runtime().unwrap();
    let frame = isomer_slides::slide_deck_frame();
    let answers = [
        ("fits", recorded("ledger-title.0").to_string()),
        ("overflows", overflowing().to_string()),
        ("not-json", "Sorry.".to_owned()),
    ];
    let cases: Vec<EvalCase> = answers
        .iter()
        .map(|(id, _)| EvalCase::new(*id, "One slide."))
        .collect();
    let generate = Generate::new(move |request| {
        let answer = answers
            .iter()
            .find(|(id, _)| *id == request.eval_case.id)
            .map(|(_, text)| text.clone())
            .unwrap();
        async move { Ok::<_, isomer_evals::BoxError>(answer) }
    });
    let scorers = isomer_slides::eval_scorers();
    let mut options = RunEvalsOptions::new(&runtime, cases, generate);
    options.retry_on_invalid = false;
    options.frame = Some(&frame);
    options.scorers = &scorers;
    let report = block_on(run_evals(options));
    let scores: Vec<&[ScorerScore]> = report
        .results
        .iter()
        .map(|result| result.scorers.as_slice())
        .collect();
    assert_eq!(
        scores,
        [
            &[ScorerScore {
                name: "fits_frame".into(),
                value: ScorerValue::Flag(true),
                detail: None,
            }][..],
            &[ScorerScore {
                name: "fits_frame".into(),
                value: ScorerValue::Flag(false),
                detail: Some("bottom 2184 px, right 0 px past the slide body".into()),
            }][..],
            // Not JSON: no composition, not scored.
            &[][..],
        ]
    );
    assert_eq!(
        report.totals.scorers,
        [ScorerTotal {
            name: "fits_frame".into(),
            flag: true,
            runs: 2,
            met: 1,
            mean: 0.5,
        }]
    );
    let text = format_report(&report);
    assert!(
        text.ends_with(
            "\n\nfits_frame false:\n  overflows: bottom 2184 px, right 0 px past the slide body"
        ),
        "{text}"
    );
    assert!(text.contains("\nfits_frame        1 / 2 (50%)\n"), "{text}");
    assert_eq!(scorers[0].floor_names(), ["min_fits_frame_ratio = 0.97"]);
}

/// Drives `future` on a current-thread Tokio runtime.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}
