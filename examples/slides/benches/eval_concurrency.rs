//! How well `run_evals` overlaps slow model calls: 200 slides cases whose
//! `generate` waits 20 ms (a stand-in for a model's latency) before
//! answering a valid slide, run at concurrency 1, 8 and 32.
//!
//! The ideal wall time is `200 × 20 ms / concurrency`: 4 s, 500 ms and
//! 125 ms. The measured time over the ideal is the overhead factor (timer
//! granularity and the scoring between waits included). Each case calls
//! `generate` once (every answer validates, so no retry).
//!
//! `cargo bench -p isomer-slides --bench eval_concurrency -- --warm-up-time 1 --measurement-time 5`
//! (concurrency 1 takes 4 s an iteration, so its 10 samples take about
//! 45 s whatever the measurement time).

use isomer_slides::synthetic;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use isomer_evals::{BoxError, Generate, GenerateRequest, RunEvalsOptions, run_evals};

const CASES: usize = 200;
const LATENCY: Duration = Duration::from_millis(20);

fn eval_concurrency(c: &mut Criterion) {
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    let frame = isomer_slides::slide_deck_frame();
    let corpus = synthetic::synthetic_corpus(&runtime, CASES, 42);
    let executor = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("tokio runtime");

    let mut group = c.benchmark_group("eval_concurrency_200x20ms");
    group.sample_size(10);
    for concurrency in [1usize, 8, 32] {
        group.bench_with_input(
            BenchmarkId::from_parameter(concurrency),
            &concurrency,
            |b, &concurrency| {
                b.iter(|| {
                    let generate = Generate::new(|request: GenerateRequest| async move {
                        tokio::time::sleep(LATENCY).await;
                        let golden = request.eval_case.golden.as_ref().expect("a golden");
                        Ok::<_, BoxError>(golden.to_string())
                    });
                    let mut options =
                        RunEvalsOptions::new(&runtime, corpus.cases.clone(), generate);
                    options.frame = Some(&frame);
                    options.concurrency = concurrency;
                    let report = executor.block_on(run_evals(options));
                    assert_eq!(report.totals.valid, CASES);
                    black_box(report)
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, eval_concurrency);
criterion_main!(benches);
