//! `Runtime::validate` throughput on the recorded slides answers, beside
//! the same work done by ajv 8 in Node (`score_validate_ajv.mjs`, next to
//! this file) with the runtime's exported composition schema.
//!
//! Steps (the first argument):
//! - `export <dir>`: writes `<dir>/composition-schema.json`
//!   ([`Runtime::composition_schema`](isomer_sdk::Runtime::composition_schema))
//!   and `<dir>/answers.json`, the array of every recorded answer
//!   (`corpus/slides/answers/*.txt`, fence stripped as the eval pipeline
//!   does) that is JSON, in file-name order: the input both sides validate;
//! - `validate`: parses the same answers once, then validates all of them
//!   over and over for at least two seconds and prints compositions per
//!   second (`Runtime::validate`, findings and checked copy included).
//!
//! ```sh
//! cargo bench -p isomer-slides --bench score_validate_ajv --no-run
//! BIN=$(ls -t target/release/deps/score_validate_ajv-* | grep -v '\.d$' | head -1)
//! mkdir -p /tmp/ajv && (cd /tmp/ajv && npm init -y >/dev/null && npm install ajv@8)
//! "$BIN" export /tmp/ajv
//! "$BIN" validate
//! NODE_PATH=/tmp/ajv/node_modules node examples/slides/benches/score_validate_ajv.mjs /tmp/ajv
//! ```
//!
//! Wall-clock figures on a shared machine: read the ratio of two runs made
//! one after the other, not the absolute rates.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use isomer_evals::strip_code_fence;
use serde_json::Value;

/// The recorded answers, fence stripped, that are JSON, in file-name order.
fn recorded_answers() -> Vec<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/slides/answers");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("reading {}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).expect("an answer file");
            serde_json::from_str(strip_code_fence(&text)).ok()
        })
        .collect()
}

fn main() {
    // `cargo bench` passes `--bench`; the step is the first other argument.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    let runtime = isomer_slides::runtime().expect("the slides runtime builds");
    let answers = recorded_answers();
    match args.first().map(String::as_str) {
        Some("export") => {
            let dir = Path::new(args.get(1).expect("export <dir>"));
            let write = |name: &str, value: &Value| {
                let path = dir.join(name);
                std::fs::write(&path, value.to_string())
                    .unwrap_or_else(|error| panic!("writing {}: {error}", path.display()));
            };
            write("composition-schema.json", runtime.composition_schema());
            write("answers.json", &Value::Array(answers.clone()));
            println!("wrote {} answers", answers.len());
        }
        Some("validate") | None => {
            let valid = answers
                .iter()
                .filter(|answer| runtime.validate(*answer).valid)
                .count();
            let start = Instant::now();
            let mut checked = 0usize;
            while start.elapsed() < Duration::from_secs(2) {
                for answer in &answers {
                    black_box(runtime.validate(black_box(answer)));
                }
                checked += answers.len();
            }
            let rate = checked as f64 / start.elapsed().as_secs_f64();
            println!(
                "Runtime::validate: {} answers ({valid} valid), {rate:.0} compositions/s",
                answers.len()
            );
        }
        Some(other) => panic!("unknown step {other:?}: export <dir> or validate"),
    }
}
