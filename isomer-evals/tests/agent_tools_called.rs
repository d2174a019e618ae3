//! The `tools_called` axis of agent runs: a case states the tools it expects (in order or
//! as a set), each run's calls are scored against them, the totals count the runs that met
//! them, and the text report names each run that did not. Scripted steps over the real
//! slides tools.

mod agent_support;

use isomer_evals::agent::{
    AgentStep, AgentStepRequest, AgentStepResult, AgentToolCall, RunAgentEvalsOptions,
    ToolsCalledScore, format_agent_report, run_agent_evals,
};
use isomer_evals::{EvalCase, ExpectedTools, ExpectedTotals};
use serde_json::{Value, json};

use agent_support::{slides_runtime, slides_tools};

fn call(id: &str, name: &str, input: Value) -> AgentToolCall {
    AgentToolCall {
        id: id.to_owned(),
        name: name.to_owned(),
        input,
    }
}

fn slide() -> Value {
    json!({
        "type": "view",
        "title": "Refunds",
        "body": [{
            "type": "slideFrame",
            "body": [{ "type": "slideStatement", "text": "Refunds settle nightly." }]
        }]
    })
}

/// Every case's run: validate the slide, render it as text, then answer with it.
fn step() -> AgentStep<'static> {
    AgentStep::new(|request: AgentStepRequest| {
        let answer = match request.turn {
            0 => AgentStepResult {
                tool_calls: vec![call(
                    "c1",
                    "isomer_validate",
                    json!({ "composition": slide() }),
                )],
                ..AgentStepResult::default()
            },
            1 => AgentStepResult {
                tool_calls: vec![call(
                    "c2",
                    "isomer_render",
                    json!({ "composition": slide(), "format": "text" }),
                )],
                ..AgentStepResult::default()
            },
            _ => AgentStepResult {
                text: slide().to_string(),
                ..AgentStepResult::default()
            },
        };
        async move { Ok(answer) }
    })
}

#[tokio::test]
async fn runs_meet_or_miss_the_tools_their_case_expects() {
    let runtime = slides_runtime();
    let tools = slides_tools(&runtime);
    let in_order = ExpectedTools::in_order(["isomer_validate", "isomer_render"]);
    let as_set = ExpectedTools::any_order(["isomer_render", "isomer_authoring_guide"]);
    let corpus = vec![
        EvalCase::new("ordered", "One slide: refunds settle nightly.")
            .with_expected_tools(in_order.clone()),
        EvalCase::new("as-set", "One slide: refunds settle nightly.")
            .with_expected_tools(as_set.clone()),
        EvalCase::new("unstated", "One slide: refunds settle nightly."),
    ];
    let frame = isomer_slides::slide_deck_frame();
    let mut options = RunAgentEvalsOptions::new(&*runtime, tools, corpus, step());
    options.frame = Some(&frame);
    let report = run_agent_evals(options).await;

    let scores: Vec<(&str, Option<&ToolsCalledScore>)> = report
        .results
        .iter()
        .map(|run| (run.case_id.as_str(), run.tools_called.as_ref()))
        .collect();
    assert_eq!(
        scores,
        [
            (
                "ordered",
                Some(&ToolsCalledScore {
                    met: true,
                    expected: in_order.clone()
                })
            ),
            (
                "as-set",
                Some(&ToolsCalledScore {
                    met: false,
                    expected: as_set.clone()
                })
            ),
            ("unstated", None),
        ]
    );
    assert_eq!(
        report.totals.tools_called,
        Some(ExpectedTotals { hits: 1, cases: 2 })
    );
    assert_eq!(
        format_agent_report(&report),
        "cases                                 3\n\
         runs                                  3 (repeat 1)\n\
         finished                              3 (100%)\n\
         valid                                 3 (100%)\n\
         tools called                          1 / 2 (50%)\n\
         mean turns                            3.00\n\
         mean input tokens                     0.00\n\
         mean output tokens                    0.00\n\
         mean tool result bytes                76.00\n\
         mean calls isomer_authoring_guide     0.00\n\
         mean calls isomer_describe_primitives 0.00\n\
         mean calls isomer_validate            1.00\n\
         mean calls isomer_render              1.00\n\
         \n\
         tools not called as expected:\n  \
         as-set: called [isomer_validate, isomer_render]; expected in any order [isomer_render, isomer_authoring_guide]"
    );
    // On the wire the score is `toolsCalled`.
    assert_eq!(
        serde_json::to_value(&report.results[1]).unwrap()["toolsCalled"],
        json!({
            "met": false,
            "expected": { "names": ["isomer_render", "isomer_authoring_guide"], "order": "anyOrder" }
        })
    );
}

#[test]
fn an_order_is_a_subsequence_and_a_set_is_each_name_once_or_more() {
    let called: Vec<String> = ["a", "x", "b", "a"].map(str::to_owned).to_vec();
    assert!(ExpectedTools::in_order(["a", "b"]).met_by(&called));
    assert!(ExpectedTools::in_order(["b", "a"]).met_by(&called));
    assert!(!ExpectedTools::in_order(["b", "x"]).met_by(&called));
    assert!(ExpectedTools::any_order(["b", "x"]).met_by(&called));
    assert!(!ExpectedTools::any_order(["b", "c"]).met_by(&called));
    assert!(ExpectedTools::in_order(Vec::<String>::new()).met_by(&[]));
    assert_eq!(
        ExpectedTools::in_order(["a", "b"]).to_string(),
        "in order [a, b]"
    );
}
