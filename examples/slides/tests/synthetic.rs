//! The synthetic corpus generator (`isomer_slides::synthetic`) makes what it says:
//! deterministic cases whose answers check exactly as their kind claims,
//! and a corpus directory the loader reads back.

use std::collections::BTreeMap;
use std::fs;

use isomer_evals::corpus::Corpus;
use isomer_evals::recordings::Recordings;
use isomer_evals::{RunEvalsOptions, check_attempt, run_evals};
use isomer_slides::synthetic::SyntheticCorpus;
use isomer_slides::synthetic::{AnswerKind, synthetic_corpus};

#[test]
fn the_same_seed_gives_the_same_corpus_and_another_seed_another() {
    let runtime = isomer_slides::runtime().unwrap();
    let a = synthetic_corpus(&runtime, 300, 11);
    let b = synthetic_corpus(&runtime, 300, 11);
    let c = synthetic_corpus(&runtime, 300, 12);
    assert_eq!(a, b);
    assert_ne!(a.answers, c.answers);
    assert_eq!(a.cases[0].id, "case-00000");
    assert_eq!(a.cases[299].id, "case-00299");
}

#[test]
fn every_answer_checks_as_its_kind_says() {
    let runtime = isomer_slides::runtime().unwrap();
    let frame = isomer_slides::slide_deck_frame();
    let corpus = synthetic_corpus(&runtime, 600, 3);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut content_types = std::collections::BTreeSet::new();
    for (case, kind) in corpus.cases.iter().zip(&corpus.kinds) {
        *counts.entry(format!("{kind:?}")).or_default() += 1;
        content_types.insert(case.expected.clone().unwrap()[0].clone());
        let check = |attempt: u32| {
            let text = corpus.answers[&(case.id.clone(), attempt)].clone();
            check_attempt(&runtime, text, Some(&frame))
        };
        let first = check(0);
        assert_eq!(
            first.is_valid(),
            kind.first_is_valid(),
            "{}: {:?}",
            case.id,
            first.failures()
        );
        let failures = first.failures();
        match kind {
            AnswerKind::Bare | AnswerKind::Fenced => {}
            AnswerKind::InvalidThenFixed => assert_eq!(
                failures,
                [
                    "body[0].body[1].type must be one of: slideFrame, slideHeading, \
                  slideStatement, slideQuote, slideTitle, slideSection, slideAgenda, slideClosing, \
                  slideSource, slideSplit, slideStack, slideWindow, slideList, slideBulletList, \
                  slideDefinitions, slideColumns, slideRoadmap, slideTimeline, slidePipeline, \
                  slideSequence, slideLanes, slideGraph, slideFanout, slideTree, slideLayers, \
                  slideTerritoryGroup, slideQuadrant, slideStat, slideStats, slideDelta, \
                  slideBars, slideMatrix, slideTable, slideCode, slideDiff, slideCommand, \
                  slideTranscript, slideRender, slideAnnotatedRender, slideRenderGrid"
                ],
                "{}",
                case.id
            ),
            AnswerKind::TruncatedThenFixed => {
                assert_eq!(failures.len(), 1);
                assert!(failures[0].starts_with("EOF while parsing"), "{failures:?}");
            }
            AnswerKind::TwoSlidesThenFixed => assert_eq!(
                failures,
                [
                    "a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec"
                ]
            ),
            AnswerKind::InvalidTwice => assert_eq!(
                failures,
                ["body[0].body[0].title (in slideHeading) is required"]
            ),
        }
        if kind.has_retry() {
            let retry = check(1);
            assert_eq!(
                retry.is_valid(),
                *kind != AnswerKind::InvalidTwice,
                "{}: {:?}",
                case.id,
                retry.failures()
            );
        } else {
            assert!(!corpus.answers.contains_key(&(case.id.clone(), 1)));
        }
    }
    // Every kind and every content primitive (38 = 40 minus frame and
    // heading) shows up in 600 cases.
    assert_eq!(counts.len(), 6, "{counts:?}");
    assert_eq!(content_types.len(), 38);
}

#[test]
fn a_replayed_run_scores_each_kind_as_expected() {
    let runtime = isomer_slides::runtime().unwrap();
    let frame = isomer_slides::slide_deck_frame();
    let corpus = synthetic_corpus(&runtime, 400, 5);
    let scratch = written(&corpus);
    let replay = Recordings::new(scratch.path());
    let mut options = RunEvalsOptions::new(&runtime, corpus.cases.clone(), replay.generate());
    options.frame = Some(&frame);
    options.concurrency = 8;
    let report = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(run_evals(options));
    let count = |pick: fn(&AnswerKind) -> bool| corpus.kinds.iter().filter(|k| pick(k)).count();
    assert_eq!(report.totals.cases, 400);
    assert_eq!(report.totals.errored, 0);
    assert_eq!(report.totals.valid, count(|k| k.first_is_valid()));
    assert_eq!(
        report.totals.valid_after_retry,
        count(|k| *k != AnswerKind::InvalidTwice)
    );
    assert_eq!(
        report.totals.parsed,
        count(|k| *k != AnswerKind::TruncatedThenFixed)
    );
    // Nothing is missing, and the truncated answers are bare JSON cut off (no fence), so
    // nothing is unusable either.
    assert_eq!(replay.findings().to_string(), "");
}

/// The corpus written to a directory of this call's own (two `cargo test` runs at once
/// must not share one), removed when the returned guard drops.
fn written(corpus: &SyntheticCorpus) -> tempfile::TempDir {
    let scratch = tempfile::Builder::new()
        .prefix("synthetic_corpus-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    for (path, contents) in corpus.files() {
        let path = scratch.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }
    scratch
}

#[test]
fn the_files_load_back_as_a_corpus_directory() {
    let runtime = isomer_slides::runtime().unwrap();
    let corpus = synthetic_corpus(&runtime, 50, 9);
    let scratch = written(&corpus);
    let loaded = Corpus::load(scratch.path()).unwrap();
    assert_eq!(loaded.eval_cases(), corpus.cases);
    let recordings = Recordings::new(scratch.path());
    for ((id, attempt), text) in &corpus.answers {
        assert!(loaded.has_answer(id, *attempt));
        assert_eq!(&recordings.answer(id, *attempt).unwrap(), text);
    }
}
