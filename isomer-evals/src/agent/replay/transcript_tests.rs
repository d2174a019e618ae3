//! Recorded agent runs through the real slides agent tools: reading transcripts, replaying
//! them, noting missing and stale turns; and the recording driver of `corpus/slides-agent`
//! (the ignored `record_turns` test, see `corpus/slides-agent/README.md`). The gate itself,
//! replaying the transcripts against the real slides agent tools with floors and a baseline,
//! is the `#[isomer_eval(agent, ...)]` target `tests/slides_agent_eval.rs`:
//!
//! ```sh
//! cargo test -p isomer-evals --test slides_agent_eval
//! ISOMER_EVAL_ACCEPT=1 cargo test -p isomer-evals --test slides_agent_eval -- --exact slides_agent::totals   # accept a moved baseline, then review the diff
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use isomer_sdk::ToolContent;
use serde_json::json;

use super::{
    AgentReplay, RecordedRun, RecordedTurn, TRANSCRIPTS_DIR, TurnKey, read_agent_recordings,
};
use crate::EvalCase;
use crate::agent::{
    AgentEvalReport, AgentMessage, AgentStep, AgentStepRequest, AgentToolCall, AgentToolResult,
    AgentUsage, RunAgentEvalsOptions, format_agent_report, run_agent_evals,
};
use crate::corpus::Corpus;
use crate::tests::agent_support::{slides_runtime, slides_tools};

/// A fresh directory under the system temp dir for one test.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("isomer-agent-replay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("transcripts")).unwrap();
    dir
}

fn guide_turn(tool_results: Option<Vec<AgentToolResult>>) -> RecordedTurn {
    RecordedTurn {
        text: String::new(),
        tool_calls: vec![AgentToolCall {
            id: "g".into(),
            name: "isomer_authoring_guide".into(),
            input: json!({}),
        }],
        usage: AgentUsage {
            input_tokens: 10,
            output_tokens: 2,
        },
        raw: None,
        tool_results,
    }
}

#[test]
fn a_transcript_reads_from_its_documented_wire_form() {
    let text = r#"{ "turns": [
      { "text": "", "toolCalls": [{ "id": "c1", "name": "isomer_authoring_guide", "input": {} }],
        "usage": { "inputTokens": 900, "outputTokens": 40 },
        "toolResults": [{ "callId": "c1", "name": "isomer_authoring_guide",
                          "content": [{ "type": "text", "text": "guide" }] }] },
      { "text": "{}", "toolCalls": [], "usage": { "inputTokens": 950, "outputTokens": 3 } }
    ] }"#;
    let run: RecordedRun = serde_json::from_str(text).unwrap();
    assert_eq!(run.turns.len(), 2);
    assert_eq!(run.turns[0].usage.input_tokens, 900);
    assert_eq!(
        run.turns[0].tool_results.as_ref().unwrap()[0],
        AgentToolResult {
            call_id: "c1".into(),
            name: "isomer_authoring_guide".into(),
            content: vec![ToolContent::Text {
                text: "guide".into()
            }],
            is_error: false,
        }
    );
    assert_eq!(run.turns[1].tool_results, None);
    // Unknown keys are refused, so a misspelt field is not silently dropped.
    let misspelt = serde_json::from_str::<RecordedRun>(r#"{"turns":[{"toolcalls":[]}]}"#)
        .unwrap_err()
        .to_string();
    assert!(
        misspelt.starts_with("unknown field `toolcalls`"),
        "{misspelt}"
    );
}

#[test]
fn reading_names_every_bad_file_and_keys_the_good_ones() {
    let dir = scratch("read");
    let transcripts = dir.join("transcripts");
    std::fs::write(transcripts.join("a.0.json"), r#"{"turns":[]}"#).unwrap();
    std::fs::write(transcripts.join("a.1.json"), r#"{"turns":[{"text":"x"}]}"#).unwrap();
    let recordings = read_agent_recordings(&dir).unwrap();
    let keys: Vec<(String, u32)> = recordings.keys().cloned().collect();
    assert_eq!(keys, [("a".to_owned(), 0), ("a".to_owned(), 1)]);
    assert_eq!(recordings[&("a".to_owned(), 1)].turns[0].text, "x");

    std::fs::write(transcripts.join("b.json"), "{}").unwrap();
    std::fs::write(transcripts.join("c.0.json"), "{\"turns\": [").unwrap();
    let errors = read_agent_recordings(&dir).unwrap_err();
    let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            format!(
                "{}: is not named <case id>.<repeat>.json (repeat a number from 0)",
                transcripts.join("b.json").display()
            ),
            format!(
                "{}: is not a transcript: EOF while parsing a list at line 1 column 11",
                transcripts.join("c.0.json").display()
            ),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // No transcripts directory: no recording, not an error.
    assert_eq!(read_agent_recordings(&dir).unwrap().len(), 0);
}

#[tokio::test]
async fn a_missing_turn_ends_the_run_on_an_empty_answer_and_is_listed() {
    let runtime = slides_runtime();
    let tools = slides_tools(&runtime);
    let recordings = BTreeMap::from([(
        ("cut-short".to_owned(), 0),
        RecordedRun {
            turns: vec![guide_turn(None)],
        },
    )]);
    let replay = AgentReplay::new(recordings);
    let corpus = vec![
        EvalCase::new("cut-short", "A slide."),
        EvalCase::new("never-recorded", "A slide."),
    ];
    let report = run_agent_evals(RunAgentEvalsOptions::new(
        &*runtime,
        tools,
        corpus,
        replay.step(),
    ))
    .await;
    let key = |case_id: &str, turn| TurnKey {
        case_id: case_id.to_owned(),
        repeat: 0,
        turn,
    };
    assert_eq!(
        replay.missing_turns(),
        [key("cut-short", 1), key("never-recorded", 0)]
    );
    assert_eq!(replay.stale_turns(), []);
    assert_eq!(
        replay.missing_turns()[0].to_string(),
        "transcripts/cut-short.0.json turn 1"
    );
    let cut_short = &report.results[0];
    assert!(cut_short.finished);
    assert_eq!(cut_short.turns, 2);
    assert_eq!(cut_short.answer, "");
    assert!(!cut_short.parsed);
    assert_eq!(cut_short.usage.input_tokens, 10);
    assert_eq!(report.results[1].turns, 1);
    assert_eq!(report.results[1].calls, []);
}

#[tokio::test]
async fn a_turn_after_tool_results_that_moved_is_listed_as_stale() {
    let runtime = slides_runtime();
    let tools = slides_tools(&runtime);
    let guide = tools[0].call(json!({})).await;
    let as_recorded = |text: String| {
        Some(vec![AgentToolResult {
            call_id: "g".into(),
            name: "isomer_authoring_guide".into(),
            content: vec![ToolContent::Text { text }],
            is_error: false,
        }])
    };
    let answer = RecordedTurn {
        text: "{}".into(),
        ..RecordedTurn::default()
    };
    let recordings = BTreeMap::from([
        (
            ("current".to_owned(), 0),
            RecordedRun {
                turns: vec![
                    guide_turn(as_recorded(guide.first_text().unwrap().to_owned())),
                    answer.clone(),
                ],
            },
        ),
        (
            ("moved".to_owned(), 0),
            RecordedRun {
                turns: vec![guide_turn(as_recorded("an older guide".into())), answer],
            },
        ),
    ]);
    let replay = AgentReplay::new(recordings);
    let corpus = vec![
        EvalCase::new("current", "A slide."),
        EvalCase::new("moved", "A slide."),
    ];
    let report = run_agent_evals(RunAgentEvalsOptions::new(
        &*runtime,
        tools,
        corpus,
        replay.step(),
    ))
    .await;
    assert_eq!(replay.missing_turns(), []);
    assert_eq!(
        replay.stale_turns(),
        [TurnKey {
            case_id: "moved".into(),
            repeat: 0,
            turn: 1
        }]
    );
    // The stale turn is still replayed.
    assert_eq!(report.results[1].answer, "{}");
    assert!(report.results[1].finished);
}

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
