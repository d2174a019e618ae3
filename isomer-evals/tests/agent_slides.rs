//! The recording driver of `corpus/slides-agent`: the ignored `record_turns` test (see
//! `corpus/slides-agent/README.md`). The gate itself, replaying the transcripts against the
//! real slides agent tools with floors and a baseline, is the `#[isomer_eval(agent, ...)]`
//! target `tests/slides_agent_eval.rs`:
//!
//! ```sh
//! cargo test -p isomer-evals --test slides_agent_eval
//! ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-evals --test slides_agent_eval -- --exact slides_agent::totals   # accept a moved baseline, then review the diff
//! ```

mod agent_support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use isomer_evals::agent::{
    AgentEvalReport, AgentMessage, AgentReplay, AgentStep, AgentStepRequest, AgentUsage,
    RecordedRun, RunAgentEvalsOptions, TRANSCRIPTS_DIR, format_agent_report, run_agent_evals,
};
use isomer_evals::corpus::Corpus;

use agent_support::{slides_runtime, slides_tools};

fn corpus_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/slides-agent"
    ))
}

/// Runs the corpus (or the one case `only`) through `step` with the slides
/// tools, the deck frame and the default system prompt.
async fn run_slides_agent(step: AgentStep<'_>, only: Option<&str>) -> AgentEvalReport {
    let corpus = Corpus::load(corpus_dir()).unwrap_or_else(|errors| panic!("{errors}"));
    let cases = corpus
        .eval_cases()
        .into_iter()
        .filter(|case| only.is_none_or(|id| case.id == id))
        .collect();
    let runtime = slides_runtime();
    let frame = isomer_slides::slide_deck_frame();
    let mut options = RunAgentEvalsOptions::new(&*runtime, slides_tools(&runtime), cases, step);
    options.frame = Some(&frame);
    options.concurrency = 2;
    run_agent_evals(options).await
}

/// A rough token count for recorded usage: a quarter of the UTF-8 bytes,
/// rounded up. The recordings were not made through a tokenizer.
fn estimate_tokens(bytes: usize) -> u64 {
    bytes.div_ceil(4) as u64
}

/// The recording driver. `ISOMER_AGENT_RECORD=<case id>` names the case;
/// its transcript `transcripts/<id>.0.json` holds the turns written so far
/// (each `text` and `toolCalls`). The driver replays them against the real
/// tools, fills in each turn's `toolResults` and estimated `usage`, writes
/// the transcript back, and prints what the tools answered to the last
/// turn, which the next turn is written from.
#[tokio::test]
#[ignore = "the recording driver; run by hand, see corpus/slides-agent/README.md"]
async fn record_turns() {
    let Ok(id) = std::env::var("ISOMER_AGENT_RECORD") else {
        panic!("set ISOMER_AGENT_RECORD to the case id to record");
    };
    let path = corpus_dir()
        .join(TRANSCRIPTS_DIR)
        .join(format!("{id}.0.json"));
    let mut run: RecordedRun = match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text).expect("the draft transcript reads"),
        Err(_) => RecordedRun::default(),
    };
    let replay = AgentReplay::new(BTreeMap::from([((id.clone(), 0), run.clone())]));
    let requests: Mutex<Vec<AgentStepRequest>> = Mutex::new(Vec::new());
    let step = AgentStep::new(|request: AgentStepRequest| {
        requests.lock().unwrap().push(request.clone());
        let answer = replay.replay_step(&request);
        async move { Ok(answer) }
    });
    let report = run_slides_agent(step, Some(&id)).await;
    let requests = requests.into_inner().unwrap();

    for (index, turn) in run.turns.iter_mut().enumerate() {
        let request = &requests[index];
        if turn.usage == AgentUsage::default() {
            let read = request.system.len()
                + serde_json::to_string(&*request.tools).unwrap().len()
                + serde_json::to_string(&request.messages).unwrap().len();
            let written = turn.text.len() + serde_json::to_string(&turn.tool_calls).unwrap().len();
            turn.usage = AgentUsage {
                input_tokens: estimate_tokens(read),
                output_tokens: estimate_tokens(written),
            };
        }
        turn.tool_results = match requests.get(index + 1).and_then(|r| r.messages.last()) {
            Some(AgentMessage::Tool { results }) if !turn.tool_calls.is_empty() => {
                Some(results.clone())
            }
            _ => None,
        };
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_string_pretty(&run).unwrap() + "\n").unwrap();

    let last = requests.last().expect("at least one turn was asked for");
    println!("=== {id}: turn {} asked for ===", last.turn);
    if last.turn == 0 {
        println!("--- system ---\n{}\n--- tools ---", last.system);
        for tool in last.tools.iter() {
            println!(
                "{}: {}\n  parameters: {}",
                tool.name, tool.description, tool.parameters
            );
        }
        if let Some(AgentMessage::User { content }) = last.messages.first() {
            println!("--- user ---\n{content}");
        }
    }
    if let Some(AgentMessage::Tool { results }) = last.messages.last() {
        for result in results {
            println!(
                "--- result {} {}{} ---\n{}",
                result.call_id,
                result.name,
                if result.is_error { " (failed)" } else { "" },
                result.text()
            );
        }
    }
    println!("=== report ===\n{}", format_agent_report(&report));
}
