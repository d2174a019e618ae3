//! Peak memory of validating hostile JSON text with `Runtime::validate`
//! (`Runtime::validate_json`, which enforces the input budget while reading
//! the text), for `/usr/bin/time -v` ("Maximum resident set size"). The
//! text is made in memory at its exact size, then validated, and the
//! findings are printed.
//!
//! Inputs (the first argument), made in `hostile/mod.rs`:
//! - `deep-object`: `{"a":{"a":…null…}}`, 1,000,000 objects deep (6 MB);
//! - `wide-array`: `[…]` of 2,000,000 nine-digit numbers (20 MB).
//!
//! ```sh
//! cargo build --release -p isomer-sdk --example validate_hostile
//! /usr/bin/time -v target/release/examples/validate_hostile deep-object 2>&1 | grep -E 'refused|Maximum resident'
//! /usr/bin/time -v target/release/examples/validate_hostile wide-array 2>&1 | grep -E 'refused|Maximum resident'
//! ```
//!
//! Measured here (release, rustc 1.95): `deep-object` peaks at 14.2 MB
//! (2.4x its 6 MB), `wide-array` at 29.5 MB (1.5x its 20 MB), each refused
//! with the budget's message (`input nests deeper than 64 levels`,
//! `input holds more than 20000 values`). Parsing the whole text first
//! (`parse_json`, then `Runtime::validate` of the value) peaked at 512.8 MB
//! and 308.3 MB.

mod hostile;

use isomer_sdk::format_validation_error;

fn main() {
    let (input, make) = hostile::input_from_args();
    let text = make();
    println!("{input}: {} bytes of JSON text", text.len());
    let runtime = hostile::runtime();
    let checked = runtime.validate_json(&text).expect("the text is JSON");
    for error in &checked.errors {
        println!("refused: {}", format_validation_error(error));
    }
}
