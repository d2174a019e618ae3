//! Peak memory of scoring one hostile model answer with `run_evals`, read
//! from the process's own peak resident set (`VmHWM` in
//! `/proc/self/status`, what `/usr/bin/time -v` reports as "Maximum
//! resident set size").
//!
//! The case's first answer is hostile; its retry answers a small valid
//! composition. The hostile text is made inside the `generate` call, so the
//! run holds the only copy. The run reads each answer under the runtime's
//! input budget, which stops building it at the first value over the
//! budget: the answer is scored invalid with the budget's message, and its
//! payload bytes are counted from the text.
//!
//! Inputs (the first argument), made in `isomer-sdk/examples/hostile/mod.rs`
//! (shared with the sdk's `validate_hostile` example):
//! - `deep-object`: `{"a":{"a":…null…}}`, 1,000,000 objects deep (6 MB);
//! - `wide-array`: `[…]` of 2,000,000 nine-digit numbers (20 MB).
//!
//! ```sh
//! cargo build --release -p isomer-evals --example run_hostile
//! target/release/examples/run_hostile deep-object
//! target/release/examples/run_hostile wide-array
//! ```
//!
//! Each prints the first attempt's findings and payload bytes, then the
//! peak RSS and its ratio to the text's size; it exits with an error when
//! the peak is over 4× the text (the bar the design sets for every path).

#[path = "../../isomer-sdk/examples/hostile/mod.rs"]
mod hostile;

use isomer_evals::{BoxError, EvalCase, Generate, GenerateRequest, RunEvalsOptions, run_evals};

/// The process's peak resident set in kB (`VmHWM`), where Linux reports it.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let (input, make) = hostile::input_from_args();
    let bytes = make().len();
    println!("{input}: {bytes} bytes of JSON text");
    let runtime = hostile::runtime();
    let generate = Generate::new(move |request: GenerateRequest| async move {
        Ok::<_, BoxError>(if request.attempt == 0 {
            make()
        } else {
            r#"{"type":"view","body":[{"type":"note","text":"Ready"}]}"#.to_owned()
        })
    });
    let corpus = vec![EvalCase::new("hostile", "Show me anything.")];
    let options = RunEvalsOptions::new(&runtime, corpus, generate);
    let report = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a tokio runtime")
        .block_on(run_evals(options));
    let result = &report.results[0];
    for error in &result.validity.errors {
        println!("first attempt: {error}");
    }
    println!(
        "payload raw bytes {}, valid after retry {}",
        result.payload.raw_bytes, result.validity.valid_after_retry
    );
    let Some(peak) = peak_rss_kb() else {
        println!("no peak RSS: /proc/self/status has no VmHWM here");
        return;
    };
    let ratio = (peak * 1024) as f64 / bytes as f64;
    println!("peak RSS {peak} kB, {ratio:.2}x the text");
    if ratio > 4.0 {
        eprintln!("peak RSS is over 4x the text");
        std::process::exit(1);
    }
}
