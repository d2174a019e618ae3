//! Scoring a replayed corpus against merely parsing its answers.
//!
//! The bar: scoring a corpus must stay within a small factor of merely
//! parsing its JSON. The group `score_corpus` has two benchmarks over the
//! same synthetic recordings (200 cases over a note/group pack, one in ten
//! invalid on its first attempt and fixed by its retry, every case with a
//! golden, expected types and a judge that answers at once):
//!
//! - `run_evals`: the whole run (prompt, parse, schema parse, validate,
//!   every axis, text rendering for the judge, totals);
//! - `serde_json_parse`: `serde_json::from_str` over every answer text the
//!   run reads (both attempts of the retried cases);
//! - `runtime_parse_validate`: that parse plus the sdk runtime's `parse` and
//!   `validate` of each text, the floor the runtime sets under any scoring.
//!
//! Run with `cargo bench -p isomer-evals -- --quick`.

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use isomer_evals::{
    AnswerabilityVerdict, BoxError, EvalCase, Generate, GenerateRequest, Judge, RunEvalsOptions,
    run_evals,
};
use isomer_sdk::{Markdown, Node, Pack, Primitive, Runtime};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// A short note.
#[derive(Deserialize, JsonSchema)]
struct Note {
    /// The note's text.
    text: String,
}

/// A group of nodes.
#[derive(Deserialize, JsonSchema)]
struct Group {
    /// The group's title.
    title: String,
    /// The nodes in the group.
    items: Vec<Node>,
}

fn bench_runtime() -> Runtime {
    let note = Primitive::builder::<Note>("note")
        .purpose("A short note.")
        .example(json!({"type": "note", "text": "Ready"}))
        .text(|node, _| node.text.clone())
        .markdown(|node, _| Markdown::paragraph(node.text.as_str()))
        .build()
        .expect("note builds");
    let group = Primitive::builder::<Group>("group")
        .purpose("Groups nodes under a title.")
        .example(
            json!({"type": "group", "title": "A", "items": [{"type": "note", "text": "Ready"}]}),
        )
        .text(|node, scope| {
            let items = scope.text_all(node.items.iter().map(|n| &**n), "\n");
            format!("{}\n{items}", node.title)
        })
        .markdown(|node, scope| scope.markdown_all(node.items.iter().map(|n| &**n)))
        .build()
        .expect("group builds");
    let pack = Pack::new("bench")
        .primitives([note, group])
        .build()
        .expect("pack builds");
    Runtime::builder()
        .pack(pack)
        .build()
        .expect("runtime builds")
}

/// An answer of three groups of three notes, with case-specific text.
fn answer(case: usize, invalid: bool) -> Value {
    let groups: Vec<Value> = (0..3)
        .map(|g| {
            let items: Vec<Value> = (0..3)
                .map(|n| {
                    if invalid && g == 0 && n == 0 {
                        json!({"type": "sparkline", "points": [1, 2, 3]})
                    } else {
                        json!({"type": "note", "text": format!("Case {case}: finding {g}.{n} holds at 42.5%.")})
                    }
                })
                .collect();
            json!({"type": "group", "title": format!("Section {g}"), "items": items})
        })
        .collect();
    json!({"type": "view", "title": format!("Case {case}"), "body": groups})
}

struct Recorded {
    /// Shared cases: a run's copy of the list is one `Arc` per case, so the
    /// timed loop neither clones nor drops a golden.
    corpus: Vec<Arc<EvalCase>>,
    answers: HashMap<(String, u32), String>,
}

fn recorded(cases: usize) -> Recorded {
    let mut corpus = Vec::new();
    let mut answers = HashMap::new();
    for case in 0..cases {
        let id = format!("case-{case}");
        let retried = case % 10 == 3;
        answers.insert((id.clone(), 0), answer(case, retried).to_string());
        if retried {
            answers.insert((id.clone(), 1), answer(case, false).to_string());
        }
        corpus.push(Arc::new(
            EvalCase::new(id, format!("What holds for case {case}?"))
                .with_golden(answer(case, false))
                .with_expected(["group"]),
        ));
    }
    Recorded { corpus, answers }
}

fn score_corpus(c: &mut Criterion) {
    let runtime = bench_runtime();
    let recorded = recorded(200);
    let executor = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("tokio runtime");
    let mut group = c.benchmark_group("score_corpus");
    group.bench_function("run_evals", |b| {
        b.iter(|| {
            let answers = &recorded.answers;
            let generate = Generate::new(move |request: GenerateRequest| {
                let text = answers
                    .get(&(request.eval_case.id.clone(), request.attempt))
                    .cloned()
                    .unwrap_or_default();
                async move { Ok::<_, BoxError>(text) }
            });
            let judge = Judge::new(|_| async { Ok::<_, BoxError>(AnswerabilityVerdict::Yes) });
            let mut options = RunEvalsOptions::new(&runtime, Vec::new(), generate);
            options.corpus = recorded.corpus.clone();
            options.judge = Some(judge);
            let report = executor.block_on(run_evals(options));
            assert_eq!(report.totals.valid_after_retry, 200);
            black_box(report)
        });
    });
    group.bench_function("serde_json_parse", |b| {
        b.iter(|| {
            for text in recorded.answers.values() {
                black_box(serde_json::from_str::<Value>(text).expect("recorded JSON"));
            }
        });
    });
    // Where the time goes: the sdk runtime's schema parse and validation of
    // every answer text, with no scoring around them.
    group.bench_function("runtime_parse_validate", |b| {
        b.iter(|| {
            for text in recorded.answers.values() {
                let value: Value = serde_json::from_str(text).expect("recorded JSON");
                let parsed = runtime.parse(&value);
                if let Some(composition) = &parsed.composition {
                    black_box(runtime.validate(composition));
                }
                black_box(parsed);
            }
        });
    });
    group.finish();
}

criterion_group!(benches, score_corpus);
criterion_main!(benches);
