//! `isomer-report --corpus` over an agent corpus: it says the corpus is an agent corpus and
//! where that is replayed, instead of reporting a missing `prompt.txt` and every answer
//! as missing.

use std::process::Command;

#[test]
fn an_agent_corpus_is_named_as_such() {
    let output = Command::new(env!("CARGO_BIN_EXE_isomer-report"))
        .args(["--corpus", "../../corpus/slides-agent"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "");
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "error: ../../corpus/slides-agent is an agent corpus (it holds transcripts/): isomer-report replays single-shot corpora; replay an agent corpus with its #[isomer_eval(agent)] gate (corpus/slides-agent: cargo test -p isomer-evals --test slides_agent_eval)\n"
    );
}
