//! The outcome of an agent run: per-run [`AgentEvalCaseResult`]s, the
//! [`AgentEvalTotals`], and [`format_agent_report`] (upstream `runAgentEvals`
//! and its report).

use isomer_sdk::Tool;
use isomer_sdk::js_parity::sort_utf16;
use serde::{Deserialize, Serialize};

use crate::agent::types::AgentEvalCaseResult;
use crate::floor::{Score, Scores};
use crate::report::{ExpectedTotals, Mean};
use crate::report_table::{ABSENT, ReportTable, count, first_error, hits, run_name};

/// A per-run mean, with its standard error when the case ran more than once: the
/// single-shot report's [`Mean`], one statistic for both kinds of suite.
pub(crate) type AgentMean = Mean;

/// The mean of `value` over every run, with its standard error across the `repeat`
/// repeats when `repeat > 1` (see [`Mean::over_runs`]); `0` with no standard error when
/// there is no run.
fn mean_over(
    results: &[AgentEvalCaseResult],
    repeat: u32,
    value: impl Fn(&AgentEvalCaseResult) -> f64,
) -> AgentMean {
    Mean::over_runs(results, repeat, |r| r.repeat, |r| Some(value(r))).unwrap_or(Mean {
        mean: 0.0,
        standard_error: None,
    })
}

/// Mean calls per run to one tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AgentToolCalls {
    /// The tool name as called (an offered tool, or a name the model made
    /// up).
    pub name: String,
    /// Calls to it per run.
    pub(crate) calls: AgentMean,
}

/// What an agent run adds up to (upstream `AgentEvalReport.totals`). The mean calls per
/// run to each tool are on the wire as `calls` and in the text report
/// ([`format_agent_report`]: `mean calls <tool>`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentEvalTotals {
    /// Cases in the corpus.
    pub cases: usize,
    /// Runs per case.
    pub repeat: u32,
    /// Runs: `cases × repeat`.
    pub runs: usize,
    /// Runs that ended on an answer (a turn with no tool calls).
    pub finished: usize,
    /// Runs whose answer was valid (schema, validation, frame).
    pub valid: usize,
    /// Expected-primitive hits over the runs of cases that list expected
    /// types; absent when none does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<ExpectedTotals>,
    /// Runs whose calls met the tools their case expects, over the runs of cases that
    /// state some ([`EvalCase::expected_tools`](crate::EvalCase::expected_tools)); absent
    /// when none does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_called: Option<ExpectedTotals>,
    /// Runs whose step failed or panicked; omitted on the wire when `0`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub errored: usize,
    /// Model turns per run.
    pub turns: AgentMean,
    /// Input tokens per run.
    pub input_tokens: AgentMean,
    /// Output tokens per run.
    pub output_tokens: AgentMean,
    /// Tool-result bytes sent per run.
    pub tool_result_bytes: AgentMean,
    /// Calls per run to each tool: every offered tool in offering order
    /// (zeros included), then any other name the model called, in UTF-16
    /// order.
    pub(crate) calls: Vec<AgentToolCalls>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl AgentEvalTotals {
    /// Adds up `results` of a run with `repeat` runs per case over `tools`.
    pub fn from_results(results: &[AgentEvalCaseResult], repeat: u32, tools: &[Tool]) -> Self {
        let repeat = repeat.max(1);
        let count =
            |keep: fn(&AgentEvalCaseResult) -> bool| results.iter().filter(|r| keep(r)).count();
        let mut expected: Option<ExpectedTotals> = None;
        for score in results.iter().filter_map(|r| r.expected.as_ref()) {
            let counts = expected.get_or_insert_with(ExpectedTotals::default);
            counts.cases += 1;
            counts.hits += usize::from(score.hit);
        }
        let mut tools_called: Option<ExpectedTotals> = None;
        for score in results.iter().filter_map(|r| r.tools_called.as_ref()) {
            let counts = tools_called.get_or_insert_with(ExpectedTotals::default);
            counts.cases += 1;
            counts.hits += usize::from(score.met);
        }
        let mut names: Vec<String> = tools.iter().map(|tool| tool.name.clone()).collect();
        let mut invented: Vec<String> = results
            .iter()
            .flat_map(|r| r.calls.iter().map(|call| call.name.clone()))
            .filter(|name| !names.contains(name))
            .collect();
        sort_utf16(&mut invented);
        invented.dedup();
        names.extend(invented);
        let calls = names
            .into_iter()
            .map(|name| {
                let calls = mean_over(results, repeat, |r| {
                    r.calls.iter().filter(|call| call.name == name).count() as f64
                });
                AgentToolCalls { name, calls }
            })
            .collect();
        AgentEvalTotals {
            cases: results.len() / repeat as usize,
            repeat,
            runs: results.len(),
            finished: count(|r| r.finished),
            valid: count(|r| r.valid),
            expected,
            tools_called,
            errored: count(|r| r.error.is_some()),
            turns: mean_over(results, repeat, |r| f64::from(r.turns)),
            input_tokens: mean_over(results, repeat, |r| r.usage.input_tokens as f64),
            output_tokens: mean_over(results, repeat, |r| r.usage.output_tokens as f64),
            tool_result_bytes: mean_over(results, repeat, |r| r.tool_result_bytes as f64),
            calls,
        }
    }
}

/// What the case floors of an agent suite read: one run.
impl Scores for AgentEvalCaseResult {
    fn score(&self, name: &str) -> Option<Score> {
        Some(match name {
            "finished" => Score::flag(self.finished),
            "valid" => Score::flag(self.valid),
            "expected_hit" => self
                .expected
                .as_ref()
                .map_or(Score::Exempt, |expected| Score::flag(expected.hit)),
            "no_failed_calls" => Score::none_of(
                self.calls
                    .iter()
                    .filter(|call| call.is_error)
                    .map(|call| format!("turn {} {}", call.turn, call.name))
                    .collect(),
            ),
            "max_turns" => Score::Count(u64::from(self.turns)),
            "tools_called" => self
                .tools_called
                .as_ref()
                .map_or(Score::Exempt, |score| Score::flag(score.met)),
            _ => return None,
        })
    }

    /// A missed `tools_called` names the calls the run made and what the case expects.
    fn detail(&self, name: &str) -> Option<String> {
        let score = self
            .tools_called
            .as_ref()
            .filter(|_| name == "tools_called")?;
        let called: Vec<&str> = self.calls.iter().map(|call| call.name.as_str()).collect();
        Some(format!(
            "called [{}]; expected {}",
            called.join(", "),
            score.expected
        ))
    }
}

/// What the suite floors of an agent suite read: the totals over every run.
impl Scores for AgentEvalTotals {
    fn score(&self, name: &str) -> Option<Score> {
        Some(match name {
            "min_finished_ratio" => Score::ratio(self.finished, self.runs, "no runs"),
            "min_valid_ratio" => Score::ratio(self.valid, self.runs, "no runs"),
            "min_expected_hit_ratio" => match &self.expected {
                Some(expected) => Score::ratio(
                    expected.hits,
                    expected.cases,
                    "no case lists expected types",
                ),
                None => Score::Missing("no case lists expected types"),
            },
            "min_tools_called_ratio" => match &self.tools_called {
                Some(counts) => {
                    Score::ratio(counts.hits, counts.cases, "no case states expected tools")
                }
                None => Score::Missing("no case states expected tools"),
            },
            "max_mean_turns" if self.runs == 0 => Score::Missing("no runs"),
            "max_mean_turns" => Score::Number(self.turns.mean),
            _ => return None,
        })
    }
}

/// The outcome of [`run_agent_evals`](crate::agent::run_agent_evals)
/// (upstream `AgentEvalReport`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentEvalReport {
    /// One result per run: corpus order, the repeats of a case together.
    pub results: Vec<AgentEvalCaseResult>,
    /// What they add up to.
    pub totals: AgentEvalTotals,
}

impl AgentEvalReport {
    /// A report over `results` (`repeat` runs per case, `tools` offered),
    /// with its totals.
    pub fn new(results: Vec<AgentEvalCaseResult>, repeat: u32, tools: &[Tool]) -> Self {
        let totals = AgentEvalTotals::from_results(&results, repeat, tools);
        AgentEvalReport { results, totals }
    }
}

/// Formats an agent report as text, laid out like
/// [`format_report`](crate::format_report): lines joined with `\n`, no
/// trailing newline, each label padded with spaces to one more than the
/// longest label.
///
/// ```text
/// cases                      2
/// runs                       4 (repeat 2)
/// finished                   3 (75%)
/// valid                      2 (50%)
/// expected hits              3 / 4 (75%)
/// mean turns                 3.50 ± 0.50
/// mean input tokens          1200.00 ± 100.00
/// mean output tokens         300.00 ± 0.00
/// mean tool result bytes     5120.25 ± 12.25
/// mean calls isomer_validate 1.00 ± 0.00
/// ```
///
/// `expected hits` appears only when a case lists expected types,
/// `tools called` (runs whose calls met their case's expected tools, over the runs of
/// cases that state some) only when a case states expected tools,
/// `errored` only when a run errored. Percentages are JS
/// `Math.round(part / whole * 100)` (an em dash alone when the whole is 0);
/// means are JS `toFixed(2)` (an em dash when there is no run), followed by
/// ` ± <standard error>` when the case ran more than once. One `mean calls
/// <tool>` row per tool: every offered tool in offering order (zeros
/// included), then any other name the model called, in UTF-16 order.
///
/// Then, each only when non-empty, after a blank line: `unfinished:` with
/// `  <run>: <turns> turns`; `invalid:` with `  <run>: <first error>` (plus
/// ` (+<n-1>)`, or `did not parse` when there is no error text);
/// `tools not called as expected:` with `  <run>: called [<names>]; expected in order
/// [<names>]` (or `in any order`);
/// `errored:` with `  <run>: <error>`. A run is named by its case id, then
/// `#<repeat>` when the case ran more than once (`ledger-title#1`).
pub fn format_agent_report(report: &AgentEvalReport) -> String {
    agent_report_table(report).finish()
}

/// The rows and sections [`format_agent_report`] prints, before they are laid out; the
/// HTML report reads the same rows.
pub(crate) fn agent_report_table(report: &AgentEvalReport) -> ReportTable {
    let totals = &report.totals;
    let mean = |value: &AgentMean| {
        if totals.runs == 0 {
            return ABSENT.to_owned();
        }
        value.text()
    };
    let mut table = ReportTable::default();
    table.row("cases", totals.cases.to_string());
    table.row(
        "runs",
        format!("{} (repeat {})", totals.runs, totals.repeat),
    );
    table.row("finished", count(totals.finished, totals.runs));
    table.row("valid", count(totals.valid, totals.runs));
    if let Some(e) = totals.expected {
        table.row("expected hits", hits(e.hits, e.cases));
    }
    if let Some(t) = totals.tools_called {
        table.row("tools called", hits(t.hits, t.cases));
    }
    if totals.errored > 0 {
        table.row("errored", count(totals.errored, totals.runs));
    }
    table.row("mean turns", mean(&totals.turns));
    table.row("mean input tokens", mean(&totals.input_tokens));
    table.row("mean output tokens", mean(&totals.output_tokens));
    table.row("mean tool result bytes", mean(&totals.tool_result_bytes));
    for tool in &totals.calls {
        table.row(format!("mean calls {}", tool.name), mean(&tool.calls));
    }

    let name = |r: &AgentEvalCaseResult| run_name(&r.case_id, r.repeat, totals.repeat > 1);
    let unfinished: Vec<String> = report
        .results
        .iter()
        .filter(|r| !r.finished && r.error.is_none())
        .map(|r| format!("  {}: {} turns", name(r), r.turns))
        .collect();
    table.section("unfinished:", unfinished);

    let invalid: Vec<String> = report
        .results
        .iter()
        .filter(|r| !r.valid)
        .map(|r| first_error(&name(r), &r.errors))
        .collect();
    table.section("invalid:", invalid);

    let tools: Vec<String> = report
        .results
        .iter()
        .filter(|r| r.tools_called.as_ref().is_some_and(|score| !score.met))
        .filter_map(|r| Some(format!("  {}: {}", name(r), r.detail("tools_called")?)))
        .collect();
    table.section("tools not called as expected:", tools);

    let errored: Vec<String> = report
        .results
        .iter()
        .filter_map(|r| r.error.as_ref().map(|e| format!("  {}: {e}", name(r))))
        .collect();
    table.section("errored:", errored);
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::AgentUsage;

    fn run(case_id: &str, repeat: u32, turns: u32) -> AgentEvalCaseResult {
        AgentEvalCaseResult {
            case_id: case_id.to_owned(),
            repeat,
            finished: true,
            turns,
            usage: AgentUsage::default(),
            tool_result_bytes: 0,
            calls: Vec::new(),
            answer: String::new(),
            parsed: true,
            valid: true,
            errors: Vec::new(),
            expected: None,
            tools_called: None,
            error: None,
        }
    }

    #[test]
    fn the_standard_error_is_taken_across_repeat_means() {
        // Repeat 0 means (2 + 4) / 2 = 3, repeat 1 means (4 + 6) / 2 = 5:
        // sd of [3, 5] is sqrt(2), over sqrt(2) gives 1.
        let results = [
            run("a", 0, 2),
            run("a", 1, 4),
            run("b", 0, 4),
            run("b", 1, 6),
        ];
        let mean = mean_over(&results, 2, |r| f64::from(r.turns));
        assert_eq!(mean.mean, 4.0);
        assert_eq!(mean.standard_error, Some(1.0));
        let single = mean_over(&results[..1], 1, |r| f64::from(r.turns));
        assert_eq!(
            single,
            AgentMean {
                mean: 2.0,
                standard_error: None
            }
        );
    }

    #[test]
    fn an_empty_report_prints_dashes() {
        let report = AgentEvalReport::new(Vec::new(), 1, &[]);
        assert_eq!(
            format_agent_report(&report),
            "cases                  0\n\
             runs                   0 (repeat 1)\n\
             finished               0 (\u{2014})\n\
             valid                  0 (\u{2014})\n\
             mean turns             \u{2014}\n\
             mean input tokens      \u{2014}\n\
             mean output tokens     \u{2014}\n\
             mean tool result bytes \u{2014}"
        );
    }
}

/// The floors of an agent suite, read through [`AgentEvalCaseResult`] and [`AgentEvalTotals`].
#[cfg(test)]
mod floor_tests {
    use super::*;
    use crate::floor::{Floor, misses};
    use isomer_corpus::{AGENT_FLOORS, FloorLevel};
    use serde_json::json;

    fn run(value: serde_json::Value) -> AgentEvalCaseResult {
        serde_json::from_value(value).unwrap()
    }

    /// The totals of `runs` runs of as many cases: `finished` and `valid` of them,
    /// `expected` as (hits, cases listing expected types), `mean_turns` turns per run.
    fn totals_of(
        runs: usize,
        finished: usize,
        valid: usize,
        expected: Option<(usize, usize)>,
        mean_turns: f64,
    ) -> AgentEvalTotals {
        let mut value = json!({
            "cases": runs, "repeat": 1, "runs": runs, "finished": finished, "valid": valid,
            "turns": { "mean": mean_turns }, "inputTokens": { "mean": 1.0 },
            "outputTokens": { "mean": 1.0 }, "toolResultBytes": { "mean": 1.0 }, "calls": []
        });
        if let Some((hits, cases)) = expected {
            value["expected"] = json!({ "hits": hits, "cases": cases });
        }
        serde_json::from_value(value).unwrap()
    }

    const EVERY: [Floor; 9] = [
        Floor::flag("finished"),
        Floor::flag("valid"),
        Floor::flag("expected_hit"),
        Floor::flag("no_failed_calls"),
        Floor::count("max_turns", 4),
        Floor::number("min_finished_ratio", 0.5),
        Floor::number("min_valid_ratio", 0.5),
        Floor::number("min_expected_hit_ratio", 0.5),
        Floor::number("max_mean_turns", 4.5),
    ];

    #[test]
    fn every_floor_of_the_table_has_a_score() {
        let good = run(json!({
            "caseId": "a", "repeat": 0, "finished": true, "turns": 4,
            "usage": { "inputTokens": 1, "outputTokens": 1 }, "toolResultBytes": 0,
            "calls": [], "answer": "{}", "parsed": true, "valid": true, "errors": []
        }));
        let totals = AgentEvalTotals::from_results(std::slice::from_ref(&good), 1, &[]);
        for spec in AGENT_FLOORS {
            let scores: &dyn Scores = match spec.level {
                FloorLevel::Case => &good,
                FloorLevel::Suite => &totals,
            };
            assert!(scores.score(spec.name).is_some(), "{}", spec.name);
        }
        assert_eq!(
            misses(&EVERY, AGENT_FLOORS, FloorLevel::Case, &good),
            Vec::<String>::new(),
            "a good run without expected types is exempt from expected_hit"
        );
    }

    #[test]
    fn run_floors_read_the_run() {
        let bad = run(json!({
            "caseId": "a", "repeat": 0, "finished": false, "turns": 6,
            "usage": { "inputTokens": 1, "outputTokens": 1 }, "toolResultBytes": 9,
            "calls": [
                { "turn": 0, "name": "isomer_authoring_guide", "isError": false, "resultBytes": 5 },
                { "turn": 2, "name": "isomer_validate", "isError": true, "resultBytes": 4 }
            ],
            "answer": "", "parsed": false, "valid": false, "errors": ["x"],
            "expected": { "hit": false, "found": [] }
        }));
        assert_eq!(
            misses(&EVERY, AGENT_FLOORS, FloorLevel::Case, &bad),
            [
                "finished: false, floor true",
                "valid: false, floor true",
                "expected_hit: false, floor true",
                "no_failed_calls: [turn 2 isomer_validate], floor []",
                "max_turns: 6, floor <= 4",
            ]
        );
    }

    #[test]
    fn suite_floors_read_the_totals_of_every_run() {
        let eight = totals_of(8, 7, 6, Some((7, 8)), 4.375);
        let floors = [
            Floor::number("min_finished_ratio", 1.0),
            Floor::number("min_valid_ratio", 0.8),
            Floor::number("min_expected_hit_ratio", 0.9),
            Floor::number("max_mean_turns", 4.0),
            Floor::number("max_mean_turns", 4.375),
            Floor::number("min_expected_hit_ratio", 0.875),
            Floor::flag("finished"),
        ];
        assert_eq!(
            misses(&floors, AGENT_FLOORS, FloorLevel::Suite, &eight),
            [
                "min_finished_ratio: 0.875, floor >= 1",
                "min_valid_ratio: 0.75, floor >= 0.8",
                "min_expected_hit_ratio: 0.875, floor >= 0.9",
                "max_mean_turns: 4.375, floor <= 4",
            ]
        );
        let none = totals_of(0, 0, 0, None, 0.0);
        let floors = [
            Floor::number("min_valid_ratio", 0.0),
            Floor::number("min_expected_hit_ratio", 0.0),
            Floor::number("max_mean_turns", 1.0),
        ];
        assert_eq!(
            misses(&floors, AGENT_FLOORS, FloorLevel::Suite, &none),
            [
                "min_valid_ratio: none (no runs), floor >= 0",
                "min_expected_hit_ratio: none (no case lists expected types), floor >= 0",
                "max_mean_turns: none (no runs), floor <= 1",
            ]
        );
    }
}
