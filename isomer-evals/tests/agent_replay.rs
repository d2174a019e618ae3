//! Recorded agent runs: reading transcripts, replaying them, and noting
//! missing and stale turns.

mod agent_support;

use std::collections::BTreeMap;
use std::path::PathBuf;

use isomer_evals::EvalCase;
use isomer_evals::agent::{
    AgentReplay, AgentToolCall, AgentToolResult, AgentUsage, RecordedRun, RecordedTurn,
    RunAgentEvalsOptions, TurnKey, read_agent_recordings, run_agent_evals,
};
use isomer_sdk::ToolContent;
use serde_json::json;

use agent_support::{slides_runtime, slides_tools};

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
