//! Throughput of `Runtime::validate` on slides compositions: the goldens of
//! 2,000 synthetic cases (`isomer_slides::synthetic`, seed 42), each one
//! slide (a `slideFrame` holding a heading and one other primitive's
//! catalog example, every primitive taking its turn), all valid.
//!
//! `validate/compositions` reports compositions per second, and
//! `validate/bytes` the same work in bytes of compact JSON per second.
//! `parse/compositions` is the runtime's schema-only parse (what an eval
//! check runs before `validate`), for comparison.
//!
//! `cargo bench -p isomer-slides --bench validate_throughput -- --warm-up-time 1 --measurement-time 5`

use isomer_slides::synthetic;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;

const COMPOSITIONS: usize = 2_000;

fn validate_throughput(c: &mut Criterion) {
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    let corpus = synthetic::synthetic_corpus(&runtime, COMPOSITIONS, 42);
    let compositions: Vec<Value> = corpus
        .cases
        .iter()
        .map(|case| case.golden.clone().expect("a golden"))
        .collect();
    let bytes: usize = compositions
        .iter()
        .map(|composition| composition.to_string().len())
        .sum();
    for composition in &compositions {
        assert!(runtime.validate(composition).valid, "{composition}");
    }

    let mut group = c.benchmark_group("validate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(COMPOSITIONS as u64));
    group.bench_function("compositions", |b| {
        b.iter(|| {
            for composition in &compositions {
                black_box(runtime.validate(composition));
            }
        });
    });
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("bytes", |b| {
        b.iter(|| {
            for composition in &compositions {
                black_box(runtime.validate(composition));
            }
        });
    });
    group.finish();

    let mut group = c.benchmark_group("parse");
    group.sample_size(10);
    group.throughput(Throughput::Elements(COMPOSITIONS as u64));
    group.bench_function("compositions", |b| {
        b.iter(|| {
            for composition in &compositions {
                black_box(runtime.parse(composition));
            }
        });
    });
    group.finish();
}

criterion_group!(benches, validate_throughput);
criterion_main!(benches);
