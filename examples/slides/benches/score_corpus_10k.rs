//! Scoring a 10,000-case slides corpus against merely parsing its answers
//! (the bar: scoring a corpus must stay within a small factor of merely
//! parsing its JSON).
//!
//! The corpus is `isomer_slides::synthetic` with 10,000 cases, seed 42
//! (half bare answers, a fifth fenced, the rest invalid, truncated or
//! breaking the frame rule and answered again by a retry), replayed from
//! memory. The group `score_corpus_10k` measures, over the same answer
//! texts:
//!
//! - `run_evals`: the whole run with the slides frame rule and a judge that
//!   answers at once (prompt, fence stripping, deep-safe parse, schema
//!   parse, validation, frame rule, every axis, the text rendering the
//!   judge reads, totals);
//! - `run_evals_no_judge`: the same run without a judge, so without the
//!   text rendering answerability needs (rendered from the attempt's check,
//!   not validated again);
//! - `check_only`: `check_attempt` of every answer text (its read, then the
//!   check), no scoring (where most of the run's time goes);
//! - `parse_generated`: the read alone, as `check_attempt` reads (the eval
//!   crate's `parse_generated`): an owned copy of the text, the fence
//!   stripping and the sdk's deep-safe parse (`parse_json`);
//! - `serde_json_parse`: `serde_json::from_str::<Value>` of every answer,
//!   its code fence stripped before the loop (the floor: reading the JSON
//!   at all, and nothing else).
//!
//! Each reports 10,000 elements per iteration (the cases); the ratio of
//! `run_evals` to `serde_json_parse` is the factor the quality bar bounds.
//!
//! The runs share one case list (`Arc<EvalCase>`): the routine neither
//! clones nor drops a case. For instruction counts of the same steps under callgrind, see the
//! `score_instructions` bench binary.
//!
//! `cargo bench -p isomer-slides --bench score_corpus_10k -- --warm-up-time 1 --measurement-time 5`

use isomer_slides::synthetic;

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use isomer_evals::{
    AnswerabilityVerdict, BoxError, EvalCase, Generate, GenerateRequest, Judge, RunEvalsOptions,
    check_attempt, run_evals, strip_code_fence,
};
use serde_json::Value;

const CASES: usize = 10_000;

fn score_corpus_10k(c: &mut Criterion) {
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    let frame = isomer_slides::slide_deck_frame();
    let corpus = synthetic::synthetic_corpus(&runtime, CASES, 42);
    let executor = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("tokio runtime");
    let valid_after_retry = corpus
        .kinds
        .iter()
        .filter(|kind| **kind != synthetic::AnswerKind::InvalidTwice)
        .count();

    let cases: Vec<Arc<EvalCase>> = corpus.cases.iter().cloned().map(Arc::new).collect();

    let mut group = c.benchmark_group("score_corpus_10k");
    group.sample_size(10);
    group.throughput(Throughput::Elements(CASES as u64));
    // Each run's list of shared cases is made outside the timed routine.
    group.bench_function("run_evals", |b| {
        b.iter_batched(
            || cases.clone(),
            |cases| {
                let answers = &corpus.answers;
                let generate = Generate::new(move |request: GenerateRequest| {
                    let text = answers
                        .get(&(request.eval_case.id.clone(), request.attempt))
                        .cloned()
                        .unwrap_or_default();
                    async move { Ok::<_, BoxError>(text) }
                });
                let judge = Judge::new(|_| async { Ok::<_, BoxError>(AnswerabilityVerdict::Yes) });
                let mut options = RunEvalsOptions::new(&runtime, Vec::new(), generate);
                options.corpus = cases;
                options.judge = Some(judge);
                options.frame = Some(&frame);
                let report = executor.block_on(run_evals(options));
                assert_eq!(report.totals.valid_after_retry, valid_after_retry);
                black_box(report)
            },
            BatchSize::PerIteration,
        );
    });
    group.bench_function("run_evals_no_judge", |b| {
        b.iter_batched(
            || cases.clone(),
            |cases| {
                let answers = &corpus.answers;
                let generate = Generate::new(move |request: GenerateRequest| {
                    let text = answers
                        .get(&(request.eval_case.id.clone(), request.attempt))
                        .cloned()
                        .unwrap_or_default();
                    async move { Ok::<_, BoxError>(text) }
                });
                let mut options = RunEvalsOptions::new(&runtime, Vec::new(), generate);
                options.corpus = cases;
                options.frame = Some(&frame);
                let report = executor.block_on(run_evals(options));
                assert_eq!(report.totals.valid_after_retry, valid_after_retry);
                black_box(report)
            },
            BatchSize::PerIteration,
        );
    });
    group.bench_function("check_only", |b| {
        b.iter(|| {
            for text in corpus.answer_texts() {
                let attempt = check_attempt(&runtime, text, Some(&frame));
                black_box(attempt);
            }
        });
    });
    group.bench_function("parse_generated", |b| {
        b.iter(|| {
            for text in corpus.answer_texts() {
                let raw = text.to_owned();
                let parsed = isomer_sdk::parse_json(strip_code_fence(&raw));
                black_box((parsed.ok(), raw));
            }
        });
    });
    // The fences come off outside the loop: the floor times serde_json alone.
    let stripped: Vec<&str> = corpus.answer_texts().map(strip_code_fence).collect();
    group.bench_function("serde_json_parse", |b| {
        b.iter(|| {
            for text in &stripped {
                black_box(serde_json::from_str::<Value>(text).ok());
            }
        });
    });
    group.finish();
}

criterion_group!(benches, score_corpus_10k);
criterion_main!(benches);
