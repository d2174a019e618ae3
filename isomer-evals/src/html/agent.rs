//! [`AgentPage`], the HTML report of an agent run, laid out as the single-shot page with
//! each run of a case (its turns, tool calls and answer) in the middle column.

use super::page::{
    CaseRow, FloorStatus, badge, esc, floor_statuses, write_errors, write_folded, write_json,
    write_rendering, write_scores,
};
use super::report_page::ReportPage;
use super::report_page::kind::Kind;
use crate::agent::{
    AgentEvalCaseResult, AgentEvalReport, AgentRecordings, RecordedRun, TurnKey, agent_report_table,
};
use crate::case::EvalCase;
use crate::floor::{Scores, misses};
use crate::parse::{ReadAttempt, read_generated};
use crate::report_table::ReportTable;
use isomer_corpus::{AGENT_FLOORS, FloorLevel};

/// The HTML report of an agent run; see the [module docs](super) and
/// [`ReportPage`] for the parts every page has.
pub(crate) type AgentPage<'a> = ReportPage<'a, AgentEvalReport>;

mod parts {
    use super::{AgentRecordings, TurnKey};

    /// The parts only an agent page has (the page's `Kind::Parts`).
    #[derive(Default)]
    pub struct AgentParts<'a> {
        pub(in crate::html) transcripts: Option<&'a AgentRecordings>,
        pub(in crate::html) missing: &'a [TurnKey],
        pub(in crate::html) stale: &'a [TurnKey],
    }
}

impl Kind for AgentEvalReport {
    type Parts<'a> = parts::AgentParts<'a>;
    const TITLE: &'static str = "agent eval report";
    const SOUND: &'static str = "every turn the replay asked for is recorded, and the tools answer every call as they did when it was recorded";
    const ANSWER_HEADING: &'static str = "runs";

    fn table(report: &Self) -> ReportTable {
        agent_report_table(report)
    }

    fn lede(report: &Self) -> String {
        let totals = &report.totals;
        format!(
            "{} cases, {} runs, {} finished, {} valid",
            totals.cases, totals.runs, totals.finished, totals.valid
        )
    }

    fn floor_statuses(page: &AgentPage<'_>) -> Vec<FloorStatus> {
        let units: Vec<(String, String, &dyn Scores)> = page
            .report
            .results
            .iter()
            .map(|run| {
                (
                    format!("{} run {}", run.case_id, run.repeat),
                    run.case_id.clone(),
                    run as &dyn Scores,
                )
            })
            .collect();
        floor_statuses(page.floors, AGENT_FLOORS, &units, &page.report.totals)
    }

    /// The notes; without notes, the turns found missing and stale.
    fn recordings(page: &AgentPage<'_>) -> Vec<String> {
        let mut recordings = page.notes.clone();
        if recordings.is_empty() {
            recordings.extend(
                page.parts
                    .missing
                    .iter()
                    .map(|key| format!("missing turn: {key}")),
            );
            recordings.extend(
                page.parts
                    .stale
                    .iter()
                    .map(|key| format!("stale turn (the tools now answer differently): {key}")),
            );
        }
        recordings
    }

    fn case_rows(page: &AgentPage<'_>, css: &mut String) -> Vec<CaseRow> {
        page.cases
            .iter()
            .map(|case| page.case_row(case, css))
            .collect()
    }
}

impl<'a> AgentPage<'a> {
    /// The transcripts the run replayed: each run's turns, with the text, tool calls and
    /// recorded tool results of every turn.
    pub(crate) fn transcripts(mut self, transcripts: &'a AgentRecordings) -> Self {
        self.parts.transcripts = Some(transcripts);
        self
    }

    /// The turns the replay found missing and stale.
    pub(crate) fn turns(mut self, missing: &'a [TurnKey], stale: &'a [TurnKey]) -> Self {
        self.parts.missing = missing;
        self.parts.stale = stale;
        self
    }

    fn case_row(&self, case: &EvalCase, css: &mut String) -> CaseRow {
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
        for key in self
            .parts
            .missing
            .iter()
            .filter(|key| key.case_id == case.id)
        {
            problems.push(format!("missing turn: {key}"));
        }
        for key in self.parts.stale.iter().filter(|key| key.case_id == case.id) {
            problems.push(format!("stale turn: {key}"));
        }
        let mut out = String::new();
        let failed = self.open_case_row(
            &mut out,
            (&case.id, &case.id),
            Some(&case.prompt),
            &problems,
            "",
        );
        self.answer_column(&mut out);
        for run in &runs {
            self.write_run(&mut out, css, run);
        }
        if runs.is_empty() {
            out.push_str("<p class=\"none\">no run</p>");
        }
        self.close_case_row(
            &mut out,
            css,
            case.golden.as_ref(),
            (&case.id, &case.id, failed),
        )
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
            .parts
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
        // It is read as the run read it, under the runtime's input budget.
        match read_generated(run.answer.clone(), self.runtime.input_budget()) {
            ReadAttempt::Parsed { value, .. } => {
                write_rendering(out, css, self.runtime, &value);
            }
            ReadAttempt::OverBudget { .. } => {
                out.push_str("<p class=\"none\">the answer is over the input budget</p>");
            }
            ReadAttempt::Unparsed { .. } => {
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
