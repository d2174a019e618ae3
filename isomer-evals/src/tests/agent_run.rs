//! `run_agent_evals` driven by scripted steps over the real slides tools:
//! every tool called, input the schema refuses, an unknown tool, handlers
//! that panic, a run out of turns, a failing step, repeats. Each test
//! asserts what the model receives and every total.

use std::sync::{Arc, Mutex};

use futures::FutureExt as _;
use isomer_evals::EvalCase;
use isomer_evals::agent::{
    AgentMessage, AgentStep, AgentStepRequest, AgentStepResult, AgentToolCall, AgentToolResult,
    AgentUsage, RunAgentEvalsOptions, format_agent_report, run_agent_evals,
};
use isomer_sdk::{Tool, ToolResult};
use serde_json::{Value, json};

use super::agent_support::{slides_runtime, slides_tools};

fn call(id: &str, name: &str, input: Value) -> AgentToolCall {
    AgentToolCall {
        id: id.to_owned(),
        name: name.to_owned(),
        input,
    }
}

fn turn(text: &str, calls: Vec<AgentToolCall>, input: u64, output: u64) -> AgentStepResult {
    AgentStepResult {
        text: text.to_owned(),
        tool_calls: calls,
        usage: AgentUsage {
            input_tokens: input,
            output_tokens: output,
        },
        raw: None,
    }
}

/// A step that answers `script[turn]` (an empty answer past its end) and
/// keeps every request it was given.
fn scripted(
    script: Vec<AgentStepResult>,
    seen: Arc<Mutex<Vec<AgentStepRequest>>>,
) -> AgentStep<'static> {
    AgentStep::new(move |request: AgentStepRequest| {
        let answer = script
            .get(request.turn as usize)
            .cloned()
            .unwrap_or_default();
        seen.lock().unwrap().push(request);
        async move { Ok(answer) }
    })
}

/// A slide with one statement in its frame: what the slides tools accept.
fn statement_slide() -> Value {
    json!({
        "type": "view",
        "title": "Refunds",
        "body": [{
            "type": "slideFrame",
            "body": [{ "type": "slideStatement", "text": "Refunds settle nightly." }]
        }]
    })
}

/// Two statements side by side in the body, no frame: the deck frame's
/// rule refuses it.
fn unframed_slide() -> Value {
    json!({
        "type": "view",
        "body": [
            { "type": "slideStatement", "text": "One." },
            { "type": "slideStatement", "text": "Two." }
        ]
    })
}

/// A tool that panics while it is called, before any future exists.
fn panics_on_call() -> Tool {
    Tool::new(
        "explode_now",
        "Panics when called.",
        json!({ "type": "object" }),
        |_| panic!("fuse lit"),
    )
}

/// A tool whose future panics when polled.
fn panics_when_polled() -> Tool {
    Tool::new(
        "explode_later",
        "Panics when awaited.",
        json!({ "type": "object" }),
        |_| {
            async {
                panic!("delayed fuse");
                #[allow(unreachable_code)]
                ToolResult::text("never")
            }
            .boxed()
        },
    )
}

fn tool_results(message: &AgentMessage) -> &[AgentToolResult] {
    match message {
        AgentMessage::Tool { results } => results,
        other => panic!("expected tool results, got {other:?}"),
    }
}

fn texts(results: &[AgentToolResult]) -> Vec<(String, bool)> {
    results.iter().map(|r| (r.text(), r.is_error)).collect()
}

#[tokio::test]
async fn a_scripted_run_calls_every_tool_and_reads_each_failure_as_a_result() {
    let runtime = slides_runtime();
    let mut tools = slides_tools(&runtime);
    tools.push(panics_on_call());
    tools.push(panics_when_polled());
    let direct_guide = tools[0].call(json!({})).await;
    let direct_describe = tools[1]
        .call(json!({ "types": ["slideFrame", "slideStatement"] }))
        .await;

    let script = vec![
        turn(
            "Reading the guide.",
            vec![
                call("c1", "isomer_authoring_guide", json!({})),
                call(
                    "c2",
                    "isomer_describe_primitives",
                    json!({ "types": ["slideFrame", "slideStatement"] }),
                ),
            ],
            100,
            10,
        ),
        turn(
            "",
            vec![
                call("c3", "isomer_describe_primitives", json!({ "types": [] })),
                call("c4", "isomer_fetch", json!({ "url": "x" })),
                call("c5", "explode_now", json!({})),
                call("c6", "explode_later", json!({})),
            ],
            200,
            20,
        ),
        turn(
            "",
            vec![call(
                "c7",
                "isomer_validate",
                json!({ "composition": unframed_slide() }),
            )],
            300,
            30,
        ),
        turn(
            "",
            vec![call(
                "c8",
                "isomer_render",
                json!({ "composition": statement_slide(), "format": "text" }),
            )],
            400,
            40,
        ),
        turn(
            &format!("```json\n{}\n```", statement_slide()),
            vec![],
            500,
            50,
        ),
    ];
    let seen = Arc::new(Mutex::new(Vec::new()));
    let corpus = vec![
        EvalCase::new("statement", "One slide: refunds settle nightly.")
            .with_expected(["slideStatement"]),
    ];
    let frame = isomer_slides::slide_deck_frame();
    let mut options = RunAgentEvalsOptions::new(
        &*runtime,
        tools,
        corpus,
        scripted(script, Arc::clone(&seen)),
    );
    options.frame = Some(&frame);
    let report = run_agent_evals(options).await;

    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 5);
    let last = &seen[4];
    assert_eq!(last.turn, 4);
    assert_eq!(last.repeat, 0);
    assert_eq!(
        &*last.system,
        "You write Isomer compositions: JSON documents that a host renders for its users. Use \
         the tools to learn the authoring rules and the primitives you need, and to check your \
         composition before you answer. When you are done, answer with the composition alone, \
         as one JSON object, and call no tool in that turn."
    );
    let names: Vec<&str> = last.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "isomer_authoring_guide",
            "isomer_describe_primitives",
            "isomer_validate",
            "isomer_render",
            "explode_now",
            "explode_later"
        ]
    );
    assert_eq!(last.tools[4].parameters, json!({ "type": "object" }));
    // The conversation: the request, then each turn and its results.
    assert_eq!(last.messages.len(), 9);
    assert_eq!(
        last.messages[0],
        AgentMessage::User {
            content: "One slide: refunds settle nightly.".to_owned()
        }
    );
    // Each earlier turn's request saw exactly the conversation up to it.
    for (index, request) in seen.iter().enumerate() {
        assert_eq!(request.messages[..], last.messages[..1 + 2 * index]);
    }

    // Turn 0: the two lookups answer what calling the tools directly does.
    let first = tool_results(&last.messages[2]);
    assert_eq!(first[0].call_id, "c1");
    assert_eq!(first[0].content, direct_guide.content);
    assert!(!first[0].is_error);
    assert_eq!(first[1].content, direct_describe.content);
    assert!(!first[1].is_error);

    // Turn 1: refused input, an unknown tool, two panics: failed results.
    assert_eq!(
        texts(tool_results(&last.messages[4])),
        [
            (
                "the input does not match the input schema of tool \"isomer_describe_primitives\":\n\
                 - at types: [] has less than 1 item"
                    .to_owned(),
                true
            ),
            (
                "unknown tool \"isomer_fetch\"; the tools are: isomer_authoring_guide, \
                 isomer_describe_primitives, isomer_validate, isomer_render, explode_now, \
                 explode_later"
                    .to_owned(),
                true
            ),
            ("the tool \"explode_now\" panicked: fuse lit".to_owned(), true),
            ("the tool \"explode_later\" panicked: delayed fuse".to_owned(), true),
        ]
    );

    // Turn 2: the frame's rule, as the validate tool answers it.
    assert_eq!(
        texts(tool_results(&last.messages[6])),
        [(
            "{\n  \"valid\": false,\n  \"errors\": [\n    \"a snapshot render needs exactly one \\\"slideFrame\\\" node, got 2 nodes; render one slide per spec\"\n  ],\n  \"warnings\": []\n}"
                .to_owned(),
            false
        )]
    );

    // Turn 3: the text render of the slide.
    assert_eq!(
        texts(tool_results(&last.messages[8])),
        [("REFUNDS SETTLE NIGHTLY.".to_owned(), false)]
    );

    // Every byte the model received, counted once.
    let sent: usize = last
        .messages
        .iter()
        .filter_map(|m| match m {
            AgentMessage::Tool { results } => {
                Some(results.iter().map(|r| r.text().len()).sum::<usize>())
            }
            _ => None,
        })
        .sum();
    let result = &report.results[0];
    assert_eq!(result.tool_result_bytes, sent);
    assert!(result.finished);
    assert_eq!(result.turns, 5);
    assert_eq!(
        result.usage,
        AgentUsage {
            input_tokens: 1500,
            output_tokens: 150
        }
    );
    assert!(result.parsed);
    assert!(result.valid);
    assert_eq!(result.errors, Vec::<String>::new());
    assert_eq!(result.expected.as_ref().unwrap().found, ["slideStatement"]);
    let calls: Vec<(u32, &str, bool)> = result
        .calls
        .iter()
        .map(|c| (c.turn, c.name.as_str(), c.is_error))
        .collect();
    assert_eq!(
        calls,
        [
            (0, "isomer_authoring_guide", false),
            (0, "isomer_describe_primitives", false),
            (1, "isomer_describe_primitives", true),
            (1, "isomer_fetch", true),
            (1, "explode_now", true),
            (1, "explode_later", true),
            (2, "isomer_validate", false),
            (3, "isomer_render", false),
        ]
    );

    let totals = &report.totals;
    assert_eq!((totals.cases, totals.repeat, totals.runs), (1, 1, 1));
    assert_eq!((totals.finished, totals.valid, totals.errored), (1, 1, 0));
    let expected = totals.expected.unwrap();
    assert_eq!((expected.hits, expected.cases), (1, 1));
    assert_eq!(totals.turns.mean, 5.0);
    assert_eq!(totals.input_tokens.mean, 1500.0);
    assert_eq!(totals.output_tokens.mean, 150.0);
    assert_eq!(totals.tool_result_bytes.mean, sent as f64);
    assert_eq!(totals.turns.standard_error, None);
    let per_tool: Vec<(&str, f64)> = totals
        .calls
        .iter()
        .map(|t| (t.name.as_str(), t.calls.mean))
        .collect();
    assert_eq!(
        per_tool,
        [
            ("isomer_authoring_guide", 1.0),
            ("isomer_describe_primitives", 2.0),
            ("isomer_validate", 1.0),
            ("isomer_render", 1.0),
            ("explode_now", 1.0),
            ("explode_later", 1.0),
            ("isomer_fetch", 1.0),
        ]
    );
    insta::assert_snapshot!("scripted_run_report", format_agent_report(&report));
}

#[tokio::test]
async fn a_run_out_of_turns_ends_unfinished_and_is_still_scored() {
    let runtime = slides_runtime();
    let tools = slides_tools(&runtime);
    let half_written = tools[2]
        .call(json!({ "composition": { "type": "view" } }))
        .await;
    // Every turn validates a half-written slide and never answers.
    let looping = AgentStep::new(|request: AgentStepRequest| async move {
        Ok(turn(
            &format!("attempt {}", request.turn),
            vec![call(
                &format!("v{}", request.turn),
                "isomer_validate",
                json!({ "composition": { "type": "view" } }),
            )],
            10,
            1,
        ))
    });
    let corpus = vec![EvalCase::new("loops", "A slide.").with_expected(["slideStatement"])];
    let mut options = RunAgentEvalsOptions::new(&*runtime, tools, corpus, looping);
    options.max_turns = 3;
    let report = run_agent_evals(options).await;
    let result = &report.results[0];
    assert!(!result.finished);
    assert_eq!(result.turns, 3);
    assert_eq!(result.answer, "attempt 2");
    assert!(!result.parsed);
    assert!(!result.valid);
    assert_eq!(result.calls.len(), 3);
    assert!(!result.expected.as_ref().unwrap().hit);
    assert_eq!(result.error, None);
    assert_eq!(report.totals.finished, 0);
    assert_eq!(report.totals.turns.mean, 3.0);
    assert_eq!(report.totals.input_tokens.mean, 30.0);
    assert_eq!(report.totals.output_tokens.mean, 3.0);
    assert_eq!(
        half_written.first_text().unwrap(),
        "{\n  \"valid\": false,\n  \"errors\": [\n    \"body is required\"\n  ],\n  \"warnings\": []\n}"
    );
    assert_eq!(half_written.first_text().unwrap().len(), 80);
    assert_eq!(result.tool_result_bytes, 3 * 80);
    assert_eq!(
        format_agent_report(&report),
        "cases                                 1\n\
         runs                                  1 (repeat 1)\n\
         finished                              0 (0%)\n\
         valid                                 0 (0%)\n\
         expected hits                         0 / 1 (0%)\n\
         mean turns                            3.00\n\
         mean input tokens                     30.00\n\
         mean output tokens                    3.00\n\
         mean tool result bytes                240.00\n\
         mean calls isomer_authoring_guide     0.00\n\
         mean calls isomer_describe_primitives 0.00\n\
         mean calls isomer_validate            3.00\n\
         mean calls isomer_render              0.00\n\
         \n\
         unfinished:\n\
         \x20 loops: 3 turns\n\
         \n\
         invalid:\n\
         \x20 loops: expected value at line 1 column 1"
    );
}

#[tokio::test]
async fn the_raw_value_of_a_turn_comes_back_verbatim() {
    let runtime = slides_runtime();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let raw =
        json!([{ "type": "thinking", "signature": "abc" }, { "type": "tool_use", "id": "t1" }]);
    let mut first = turn(
        "",
        vec![call("t1", "isomer_authoring_guide", json!(null))],
        1,
        1,
    );
    first.raw = Some(raw.clone());
    let step = scripted(vec![first, turn("{}", vec![], 1, 1)], Arc::clone(&seen));
    let report = run_agent_evals(RunAgentEvalsOptions::new(
        &*runtime,
        slides_tools(&runtime),
        vec![EvalCase::new("raw", "A slide.")],
        step,
    ))
    .await;
    let seen = seen.lock().unwrap();
    match &seen[1].messages[1] {
        AgentMessage::Assistant {
            text,
            tool_calls,
            raw: handed_back,
        } => {
            assert_eq!(text, "");
            assert_eq!(tool_calls[0].input, json!(null));
            assert_eq!(handed_back.as_ref(), Some(&raw));
        }
        other => panic!("expected the assistant turn, got {other:?}"),
    }
    // `null` arguments read as `{}`: the guide answers.
    assert!(!tool_results(&seen[1].messages[2])[0].is_error);
    // `{}` parses, but is no composition; no expected types, no hit row.
    let result = &report.results[0];
    assert!(result.parsed);
    assert!(!result.valid);
    assert_eq!(result.expected, None);
    assert_eq!(report.totals.expected, None);
    let wire = serde_json::to_value(&seen[1].messages[1]).unwrap();
    assert_eq!(
        wire,
        json!({
            "role": "assistant",
            "text": "",
            "toolCalls": [{ "id": "t1", "name": "isomer_authoring_guide", "input": null }],
            "raw": raw
        })
    );
}

#[tokio::test]
async fn an_answer_that_fails_validation_still_scores_its_expected_types() {
    let runtime = slides_runtime();
    let frame = isomer_slides::slide_deck_frame();
    let answer = unframed_slide().to_string();
    let step = AgentStep::new(move |_| {
        let answer = answer.clone();
        async move { Ok(turn(&answer, vec![], 7, 3)) }
    });
    let corpus = vec![
        EvalCase::new("unframed", "Two statements.")
            .with_expected(["slideQuote", "slideStatement"]),
    ];
    let mut options = RunAgentEvalsOptions::new(&*runtime, Vec::new(), corpus, step);
    options.frame = Some(&frame);
    let report = run_agent_evals(options).await;
    let result = &report.results[0];
    assert!(result.finished);
    assert!(result.parsed);
    assert!(!result.valid);
    assert_eq!(
        result.errors,
        [
            "a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec"
        ]
    );
    let expected = result.expected.as_ref().unwrap();
    assert!(expected.hit);
    assert_eq!(expected.found, ["slideStatement"]);
    assert_eq!(report.totals.calls, []);
    assert_eq!(
        format_agent_report(&report),
        "cases                  1\n\
         runs                   1 (repeat 1)\n\
         finished               1 (100%)\n\
         valid                  0 (0%)\n\
         expected hits          1 / 1 (100%)\n\
         mean turns             1.00\n\
         mean input tokens      7.00\n\
         mean output tokens     3.00\n\
         mean tool result bytes 0.00\n\
         \n\
         invalid:\n\
         \x20 unframed: a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec"
    );
}

#[tokio::test]
async fn with_no_tools_a_call_is_answered_as_unknown() {
    let runtime = slides_runtime();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let step = scripted(
        vec![
            turn("", vec![call("a", "isomer_validate", json!({}))], 0, 0),
            turn("done", vec![], 0, 0),
        ],
        Arc::clone(&seen),
    );
    let report = run_agent_evals(RunAgentEvalsOptions::new(
        &*runtime,
        Vec::new(),
        vec![EvalCase::new("bare", "A slide.")],
        step,
    ))
    .await;
    let seen = seen.lock().unwrap();
    assert_eq!(
        texts(tool_results(&seen[1].messages[2])),
        [(
            "unknown tool \"isomer_validate\"; the tools are: none".to_owned(),
            true
        )]
    );
    assert_eq!(report.totals.calls.len(), 1);
    assert_eq!(report.totals.calls[0].name, "isomer_validate");
    assert_eq!(report.results[0].tool_result_bytes, 51);
}

#[tokio::test]
async fn a_failing_or_panicking_step_ends_only_its_run() {
    let runtime = slides_runtime();
    let step = AgentStep::new(|request: AgentStepRequest| async move {
        match (request.eval_case.id.as_str(), request.turn) {
            ("offline", 1) => Err("the provider is offline".into()),
            ("buggy", 0) => panic!("adapter bug"),
            (_, 0) => Ok(turn(
                "thinking",
                vec![call("g", "isomer_authoring_guide", json!({}))],
                5,
                5,
            )),
            _ => Ok(turn(&statement_slide().to_string(), vec![], 5, 5)),
        }
    });
    let corpus = vec![
        EvalCase::new("offline", "A slide."),
        EvalCase::new("buggy", "A slide."),
        EvalCase::new("fine", "A slide."),
    ];
    let frame = isomer_slides::slide_deck_frame();
    let mut options = RunAgentEvalsOptions::new(&*runtime, slides_tools(&runtime), corpus, step);
    options.frame = Some(&frame);
    options.concurrency = 3;
    let report = run_agent_evals(options).await;
    let ids: Vec<&str> = report.results.iter().map(|r| r.case_id.as_str()).collect();
    assert_eq!(ids, ["offline", "buggy", "fine"]);
    let offline = &report.results[0];
    assert!(!offline.finished);
    assert_eq!(offline.turns, 1);
    assert_eq!(offline.answer, "thinking");
    assert_eq!(
        offline.error.as_ref().unwrap().to_string(),
        "step turn 1 failed: the provider is offline"
    );
    let buggy = &report.results[1];
    assert_eq!(buggy.turns, 0);
    assert_eq!(buggy.answer, "");
    assert_eq!(
        buggy.error.as_ref().unwrap().to_string(),
        "step turn 0 panicked: adapter bug"
    );
    assert!(report.results[2].valid);
    let totals = &report.totals;
    assert_eq!(
        (totals.runs, totals.finished, totals.valid, totals.errored),
        (3, 1, 1, 2)
    );
    assert_eq!(totals.turns.mean, 1.0);
    // Two of the three runs read the guide once.
    let guide = slides_tools(&runtime)[0].call(json!({})).await;
    let guide_bytes = guide.first_text().unwrap().len() as f64;
    assert_eq!(totals.tool_result_bytes.mean, 2.0 * guide_bytes / 3.0);
    assert_eq!(
        format_agent_report(&report),
        format!(
            "cases                                 3\n\
             runs                                  3 (repeat 1)\n\
             finished                              1 (33%)\n\
             valid                                 1 (33%)\n\
             errored                               2 (67%)\n\
             mean turns                            1.00\n\
             mean input tokens                     5.00\n\
             mean output tokens                    5.00\n\
             mean tool result bytes                {}\n\
             mean calls isomer_authoring_guide     0.67\n\
             mean calls isomer_describe_primitives 0.00\n\
             mean calls isomer_validate            0.00\n\
             mean calls isomer_render              0.00\n\
             \n\
             invalid:\n\
             \x20 offline: expected ident at line 1 column 2\n\
             \x20 buggy: EOF while parsing a value at line 1 column 0\n\
             \n\
             errored:\n\
             \x20 offline: step turn 1 failed: the provider is offline\n\
             \x20 buggy: step turn 0 panicked: adapter bug",
            isomer_sdk::js_parity::to_fixed_2(2.0 * guide_bytes / 3.0)
        )
    );
}

#[tokio::test]
async fn repeats_run_together_and_carry_standard_errors() {
    let runtime = slides_runtime();
    // Repeat 0 answers after one guide call; repeat 1 after two.
    let step = AgentStep::new(|request: AgentStepRequest| async move {
        let calls_before_answer = request.repeat + 1;
        if request.turn < calls_before_answer {
            Ok(turn(
                "",
                vec![call("g", "isomer_authoring_guide", json!({}))],
                100,
                10,
            ))
        } else {
            Ok(turn(&statement_slide().to_string(), vec![], 100, 10))
        }
    });
    let corpus = vec![
        EvalCase::new("a", "A slide.").with_expected(["slideStatement"]),
        EvalCase::new("b", "A slide.").with_expected(["slideQuote"]),
    ];
    let tools = slides_tools(&runtime);
    let guide_bytes = tools[0].call(json!({})).await.first_text().unwrap().len();
    let mut options = RunAgentEvalsOptions::new(&*runtime, tools, corpus, step);
    options.repeat = 2;
    options.concurrency = 4;
    let report = run_agent_evals(options).await;
    let order: Vec<(&str, u32, u32)> = report
        .results
        .iter()
        .map(|r| (r.case_id.as_str(), r.repeat, r.turns))
        .collect();
    assert_eq!(order, [("a", 0, 2), ("a", 1, 3), ("b", 0, 2), ("b", 1, 3)]);
    let totals = &report.totals;
    assert_eq!((totals.cases, totals.repeat, totals.runs), (2, 2, 4));
    let expected = totals.expected.unwrap();
    assert_eq!((expected.hits, expected.cases), (2, 4));
    // Repeat means 2 and 3 turns: mean 2.5, sd sqrt(0.5), SE 0.5.
    assert_eq!(totals.turns.mean, 2.5);
    assert_eq!(totals.turns.standard_error, Some(0.5));
    assert_eq!(totals.input_tokens.mean, 250.0);
    assert_eq!(totals.input_tokens.standard_error, Some(50.0));
    assert_eq!(totals.tool_result_bytes.mean, 1.5 * guide_bytes as f64);
    assert_eq!(
        totals.tool_result_bytes.standard_error,
        Some(0.5 * guide_bytes as f64)
    );
    assert_eq!(totals.calls[0].calls.mean, 1.5);
    assert_eq!(totals.calls[0].calls.standard_error, Some(0.5));
    assert_eq!(totals.calls[1].calls.standard_error, Some(0.0));
    let text = format_agent_report(&report);
    assert!(
        text.starts_with(
            "cases                                 2\n\
         runs                                  4 (repeat 2)\n\
         finished                              4 (100%)\n\
         valid                                 4 (100%)\n\
         expected hits                         2 / 4 (50%)\n\
         mean turns                            2.50 \u{b1} 0.50\n\
         mean input tokens                     250.00 \u{b1} 50.00\n\
         mean output tokens                    25.00 \u{b1} 5.00\n"
        ),
        "{text}"
    );
    assert!(
        text.ends_with(
            "mean calls isomer_authoring_guide     1.50 \u{b1} 0.50\n\
         mean calls isomer_describe_primitives 0.00 \u{b1} 0.00\n\
         mean calls isomer_validate            0.00 \u{b1} 0.00\n\
         mean calls isomer_render              0.00 \u{b1} 0.00"
        ),
        "{text}"
    );
    let json = serde_json::to_value(report.totals.turns).unwrap();
    assert_eq!(json, json!({ "mean": 2.5, "standardError": 0.5 }));
}

#[tokio::test]
async fn runs_are_in_flight_together_up_to_the_concurrency() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let runtime = slides_runtime();
    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let step = {
        let (in_flight, most) = (Arc::clone(&in_flight), Arc::clone(&most));
        AgentStep::new(move |_| {
            let (in_flight, most) = (Arc::clone(&in_flight), Arc::clone(&most));
            async move {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                tokio::task::yield_now().await;
                tokio::task::yield_now().await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
                Ok(turn("{}", vec![], 1, 1))
            }
        })
    };
    let corpus: Vec<EvalCase> = (0..6)
        .map(|i| EvalCase::new(format!("c{i}"), "A slide."))
        .collect();
    let mut options = RunAgentEvalsOptions::new(&*runtime, Vec::new(), corpus, step);
    options.concurrency = 3;
    let report = run_agent_evals(options).await;
    assert_eq!(most.load(Ordering::SeqCst), 3);
    let ids: Vec<&str> = report.results.iter().map(|r| r.case_id.as_str()).collect();
    assert_eq!(ids, ["c0", "c1", "c2", "c3", "c4", "c5"]);
}

/// A runtime whose schema parse panics: the run must record it, not
/// unwind.
struct PanickingRuntime;

impl isomer_sdk::ChildWalker for PanickingRuntime {
    fn children<'a>(&self, _node: &'a Value) -> Vec<isomer_sdk::ChildRef<'a>> {
        Vec::new()
    }
}

impl PanickingRuntime {
    fn parse(&self, _value: &Value) -> Result<Value, Vec<isomer_sdk::ValidationError>> {
        panic!("parse bug")
    }

    fn validate(&self, _composition: &Value) -> Result<(), Vec<isomer_sdk::ValidationError>> {
        Ok(())
    }
}

impl isomer_evals::EvalRuntime for PanickingRuntime {
    fn walker(&self) -> &dyn isomer_sdk::ChildWalker {
        self
    }

    fn authoring_context(&self) -> isomer_sdk::AuthoringContext {
        isomer_sdk::AuthoringContext {
            schema: json!({}),
            primitives: vec![],
            groups: vec![],
            views: vec![],
        }
    }

    fn check<'a>(&'a self, value: &'a isomer_sdk::Document) -> isomer_evals::TextCheck<'a> {
        isomer_evals::TextCheck::from_steps(self, self.parse(value), |copy| self.validate(copy))
    }

    fn render_text(&self, _composition: &Value) -> Result<String, isomer_evals::BoxError> {
        Ok(String::new())
    }
}

#[tokio::test]
async fn a_runtime_that_panics_while_scoring_marks_only_that_run() {
    let step = AgentStep::new(|_| async { Ok(turn("{\"type\":\"view\"}", vec![], 4, 2)) });
    let corpus = vec![EvalCase::new("p", "A slide.").with_expected(["slideStat"])];
    let report = run_agent_evals(RunAgentEvalsOptions::new(
        &PanickingRuntime,
        Vec::new(),
        corpus,
        step,
    ))
    .await;
    let result = &report.results[0];
    assert!(result.finished);
    assert_eq!(result.turns, 1);
    assert_eq!(result.usage.input_tokens, 4);
    assert!(!result.valid);
    assert!(!result.expected.as_ref().unwrap().hit);
    assert_eq!(
        result.error.as_ref().unwrap().to_string(),
        "scoring panicked: parse bug"
    );
    assert_eq!(report.totals.errored, 1);
}

#[tokio::test]
async fn a_deep_tool_input_is_refused_without_overflowing_the_stack() {
    let runtime = slides_runtime();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let step = {
        let seen = Arc::clone(&seen);
        AgentStep::new(move |request: AgentStepRequest| {
            if request.turn == 1 {
                seen.lock().unwrap().push(request.messages.clone());
                return futures::future::ready(Ok(turn("{}", vec![], 1, 1))).boxed();
            }
            // Built here and handed over: the test never clones or drops it.
            // Built without `json!`, which would serialize (recursively) each
            // value it is handed.
            let mut deep = json!({ "type": "view", "body": [] });
            for _ in 0..10_000 {
                let mut node = serde_json::Map::new();
                node.insert("type".into(), Value::from("slideStack"));
                node.insert("items".into(), Value::Array(vec![deep]));
                deep = Value::Object(node);
            }
            let mut raw = json!(0);
            for _ in 0..10_000 {
                raw = Value::Array(vec![raw]);
            }
            let mut input = serde_json::Map::new();
            input.insert("composition".into(), deep);
            let mut result = turn(
                "",
                vec![
                    call("d", "isomer_validate", Value::Object(input)),
                    call(
                        "s",
                        "isomer_validate",
                        json!({ "composition": statement_slide() }),
                    ),
                ],
                1,
                1,
            );
            result.raw = Some(raw);
            futures::future::ready(Ok(result)).boxed()
        })
    };
    let report = run_agent_evals(RunAgentEvalsOptions::new(
        &*runtime,
        slides_tools(&runtime),
        vec![EvalCase::new("deep", "A slide.")],
        step,
    ))
    .await;
    let seen = seen.lock().unwrap();
    let messages = &seen[0];
    match &messages[1] {
        AgentMessage::Assistant {
            tool_calls, raw, ..
        } => {
            assert_eq!(tool_calls[0].input, json!(null));
            assert_eq!(
                tool_calls[1].input,
                json!({ "composition": statement_slide() })
            );
            assert_eq!(*raw, None);
        }
        other => panic!("expected the assistant turn, got {other:?}"),
    }
    assert_eq!(
        texts(tool_results(&messages[2])),
        [
            (
                "the input of tool \"isomer_validate\" nests deeper than 128 levels; it was not run"
                    .to_owned(),
                true
            ),
            (
                "{\n  \"valid\": true,\n  \"errors\": [],\n  \"warnings\": []\n}".to_owned(),
                false
            ),
        ]
    );
    let calls: Vec<bool> = report.results[0].calls.iter().map(|c| c.is_error).collect();
    assert_eq!(calls, [true, false]);
}
