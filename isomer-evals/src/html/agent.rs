//! [`AgentPage`]: the HTML report of an agent run, laid out as the single-shot page with
//! each run of a case (its turns, tool calls and answer) in the middle column.

use super::page::{
    FloorStatus, Page, badge, esc, floor_statuses, totals_rows, write_errors, write_folded,
    write_json, write_rendering, write_scores,
};
use crate::agent::{
    AgentEvalCaseResult, AgentEvalReport, AgentRecordings, RecordedRun, TurnKey,
    agent_report_table, format_agent_report,
};
use crate::case::EvalCase;
use crate::floor::{Floor, Scores, misses};
use crate::parse::{ParsedAttempt, parse_generated};
use crate::runtime::EvalRuntime;
use isomer_corpus::{AGENT_FLOORS, FloorLevel};

/// The HTML report of an agent run; see the [module docs](super).
pub struct AgentPage<'a> {
    suite: &'a str,
    report: &'a AgentEvalReport,
    cases: &'a [EvalCase],
    runtime: &'a dyn EvalRuntime,
    transcripts: Option<&'a AgentRecordings>,
    baseline: Option<&'a AgentEvalReport>,
    floors: &'a [Floor],
    missing: &'a [TurnKey],
    stale: &'a [TurnKey],
    notes: Vec<String>,
}

impl std::fmt::Debug for AgentPage<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentPage")
            .field("suite", &self.suite)
            .field("cases", &self.cases.len())
            .finish_non_exhaustive()
    }
}

impl<'a> AgentPage<'a> {
    /// The page of `report`, a run of `cases` (the corpus: requests and goldens) scored
    /// against `runtime`, whose html surface renders answers and goldens. `suite` titles
    /// the page.
    pub fn new(
        suite: &'a str,
        report: &'a AgentEvalReport,
        cases: &'a [EvalCase],
        runtime: &'a dyn EvalRuntime,
    ) -> Self {
        AgentPage {
            suite,
            report,
            cases,
            runtime,
            transcripts: None,
            baseline: None,
            floors: &[],
            missing: &[],
            stale: &[],
            notes: Vec::new(),
        }
    }

    /// The transcripts the run replayed: each run's turns, with the text, tool calls and
    /// recorded tool results of every turn.
    pub fn transcripts(mut self, transcripts: &'a AgentRecordings) -> Self {
        self.transcripts = Some(transcripts);
        self
    }

    /// The committed report to show the totals beside.
    pub fn baseline(mut self, baseline: &'a AgentEvalReport) -> Self {
        self.baseline = Some(baseline);
        self
    }

    /// The declared floors, each shown met or missed.
    pub fn floors(mut self, floors: &'a [Floor]) -> Self {
        self.floors = floors;
        self
    }

    /// The turns the replay found missing and stale.
    pub fn turns(mut self, missing: &'a [TurnKey], stale: &'a [TurnKey]) -> Self {
        self.missing = missing;
        self.stale = stale;
        self
    }

    /// One more line in the recordings part.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// The page: one self-contained HTML document.
    pub fn to_html(&self) -> String {
        let report = self.report;
        let table = agent_report_table(report);
        let baseline_table = self.baseline.map(agent_report_table);
        let mut css = String::new();
        let case_rows = self
            .cases
            .iter()
            .map(|case| self.case_row(case, &mut css))
            .collect();
        let mut recordings = self.notes.clone();
        if recordings.is_empty() {
            recordings.extend(
                self.missing
                    .iter()
                    .map(|key| format!("missing turn: {key}")),
            );
            recordings.extend(
                self.stale
                    .iter()
                    .map(|key| format!("stale turn (the tools now answer differently): {key}")),
            );
        }
        let totals = &report.totals;
        Page {
            title: format!("{}: agent eval report", self.suite),
            lede: format!(
                "{} cases, {} runs, {} finished, {} valid",
                totals.cases, totals.runs, totals.finished, totals.valid
            ),
            has_baseline: baseline_table.is_some(),
            totals: totals_rows(
                table.rows(),
                baseline_table.as_ref().map(|table| table.rows()),
            ),
            floors: self.floor_statuses(),
            recordings,
            sound: "every turn the replay asked for is recorded, and the tools answer every call as they did when it was recorded",
            answer_heading: "runs",
            case_rows,
            text_report: format_agent_report(report),
            surface_css: css,
        }
        .finish()
    }

    fn floor_statuses(&self) -> Vec<FloorStatus> {
        let units: Vec<(String, &dyn Scores)> = self
            .report
            .results
            .iter()
            .map(|run| {
                (
                    format!("{} run {}", run.case_id, run.repeat),
                    run as &dyn Scores,
                )
            })
            .collect();
        floor_statuses(self.floors, AGENT_FLOORS, &units, &self.report.totals)
    }

    fn case_row(&self, case: &EvalCase, css: &mut String) -> String {
        let runs: Vec<&AgentEvalCaseResult> = self
            .report
            .results
            .iter()
            .filter(|run| run.case_id == case.id)
            .collect();
        let mut problems: Vec<String> = Vec::new();
        for run in &runs {
            for miss in misses(self.floors, AGENT_FLOORS, FloorLevel::Case, *run) {
                problems.push(format!("run {}: {miss}", run.repeat));
            }
            if let Some(error) = &run.error {
                problems.push(format!("run {} did not complete: {error}", run.repeat));
            }
        }
        for key in self.missing.iter().filter(|key| key.case_id == case.id) {
            problems.push(format!("missing turn: {key}"));
        }
        for key in self.stale.iter().filter(|key| key.case_id == case.id) {
            problems.push(format!("stale turn: {key}"));
        }
        let state = if problems.is_empty() {
            "passed"
        } else {
            "failed"
        };
        let mut out = format!(
            "<tr class=\"case {state}\" id=\"case-{}\"><td><h3>{}</h3><p class=\"request\">{}</p>",
            esc(&case.id),
            esc(&case.id),
            esc(&case.prompt)
        );
        if !self.floors.is_empty() || !problems.is_empty() {
            out.push_str(&if problems.is_empty() {
                badge("pass", "passes")
            } else {
                badge("fail", "fails")
            });
        }
        if !problems.is_empty() {
            out.push_str("<ul class=\"problems\">");
            for problem in &problems {
                out.push_str(&format!("<li>{}</li>", esc(problem)));
            }
            out.push_str("</ul>");
        }
        out.push_str("</td><td>");
        for run in &runs {
            self.write_run(&mut out, css, run);
        }
        if runs.is_empty() {
            out.push_str("<p class=\"none\">no run</p>");
        }
        out.push_str("</td><td>");
        match &case.golden {
            Some(golden) => write_rendering(&mut out, css, self.runtime, golden),
            None => out.push_str("<p class=\"none\">no golden</p>"),
        }
        out.push_str("</td></tr>");
        out
    }

    /// One run: its scores, each recorded turn with its tool calls, then the answer
    /// rendered with its errors.
    fn write_run(&self, out: &mut String, css: &mut String, run: &AgentEvalCaseResult) {
        let yes_no = |value: bool| if value { "yes" } else { "no" }.to_owned();
        out.push_str(&format!(
            "<div class=\"attempt\"><h4>run {} {}</h4>",
            run.repeat,
            if run.valid {
                badge("pass", "valid")
            } else {
                badge("fail", "invalid")
            }
        ));
        let mut scores = vec![
            ("finished", yes_no(run.finished)),
            ("turns", run.turns.to_string()),
            (
                "tokens",
                format!(
                    "{} in, {} out",
                    run.usage.input_tokens, run.usage.output_tokens
                ),
            ),
            ("tool result bytes", run.tool_result_bytes.to_string()),
        ];
        if let Some(expected) = &run.expected {
            scores.push(("expected hit", yes_no(expected.hit)));
        }
        write_scores(out, &scores);
        let transcript: Option<&RecordedRun> = self
            .transcripts
            .and_then(|transcripts| transcripts.get(&(run.case_id.clone(), run.repeat)));
        if let Some(transcript) = transcript {
            for (index, turn) in transcript.turns.iter().enumerate() {
                out.push_str(&format!("<div class=\"turn\"><h4>turn {index}</h4>"));
                if !turn.text.is_empty() && !turn.tool_calls.is_empty() {
                    out.push_str(&format!("<p class=\"request\">{}</p>", esc(&turn.text)));
                }
                for call in &turn.tool_calls {
                    let result = turn
                        .tool_results
                        .as_ref()
                        .and_then(|results| results.iter().find(|r| r.call_id == call.id));
                    let failed = result.is_some_and(|result| result.is_error);
                    out.push_str(&format!(
                        "<p>{} <code>{}</code></p>",
                        if failed {
                            badge("fail", "call failed")
                        } else {
                            badge("note", "call")
                        },
                        esc(&call.name)
                    ));
                    if call
                        .input
                        .as_object()
                        .is_some_and(|input| !input.is_empty())
                    {
                        write_json(out, &call.input);
                    }
                    if let Some(result) = result {
                        let text = result.text();
                        write_folded(out, &format!("result ({} bytes)", result.bytes()), &text);
                    }
                }
                if turn.tool_calls.is_empty() {
                    out.push_str("<p class=\"none\">the answer (below)</p>");
                }
                out.push_str("</div>");
            }
        }
        // The answer as the model wrote it: the html surface renders what it can of an
        // invalid one. Its errors are the report's.
        match parse_generated(run.answer.clone()) {
            ParsedAttempt::Parsed { value, .. } => {
                write_rendering(out, css, self.runtime, &value);
            }
            ParsedAttempt::Unparsed { .. } => {
                out.push_str("<p class=\"none\">the answer is not JSON</p>");
            }
        }
        write_errors(out, &run.errors);
        if let Some(error) = &run.error {
            write_errors(out, &[error.to_string()]);
        }
        write_folded(
            out,
            &format!("answer text ({} bytes)", run.answer.len()),
            &run.answer,
        );
        out.push_str("</div>");
    }
}
