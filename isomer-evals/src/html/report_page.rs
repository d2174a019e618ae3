//! [`ReportPage`]: the HTML page of a run of either suite kind. What every page has (the
//! suite name, the report and the committed baseline beside it, the cases, the runtime
//! that renders, the floors, the notes) and how it becomes a document live here once;
//! a kind adds its own parts and lays out its case rows (the single-shot page in the
//! module root, the agent page in `agent.rs`).

use super::page::{
    CaseRow, FloorStatus, Page, badge, esc, totals_rows, write_picture, write_rendering,
};
use crate::case::EvalCase;
use crate::floor::Floor;
use crate::report_table::ReportTable;
use crate::runtime::EvalRuntime;
use crate::scorer::Scorer;
use kind::Kind;
use serde_json::Value;

/// What a suite kind adds to a page: its own parts, and what it shows in each part of
/// the document. Implemented by [`EvalReport`](crate::EvalReport) and [`AgentEvalReport`](crate::AgentEvalReport) only.
pub(super) mod kind {
    use super::{CaseRow, FloorStatus, ReportPage, ReportTable};

    /// The page of one suite kind, by the report it shows.
    pub trait Kind: Sized {
        /// What a page of this kind holds besides the shared parts (the frame and the
        /// answers of a single-shot run, the transcripts and turns of an agent run).
        type Parts<'a>: Default
        where
            Self: 'a;
        /// The title after the suite name (`eval report`).
        const TITLE: &'static str;
        /// What the recordings part says when nothing is wrong with them.
        const SOUND: &'static str;
        /// The heading of the middle column of the cases table (`answer`, `runs`).
        const ANSWER_HEADING: &'static str;
        /// The rows and sections the text report prints.
        fn table(report: &Self) -> ReportTable;
        /// The line under the title (`8 cases, 7 valid on the first attempt, ...`).
        fn lede(report: &Self) -> String;
        /// Each declared floor, met or missed.
        fn floor_statuses(page: &ReportPage<'_, Self>) -> Vec<FloorStatus>;
        /// The lines of the recordings part; empty when they are sound.
        fn recordings(page: &ReportPage<'_, Self>) -> Vec<String>;
        /// One row per case, in the order run, the surface's stylesheet kept in `css`.
        fn case_rows(page: &ReportPage<'_, Self>, css: &mut String) -> Vec<CaseRow>;
    }
}

/// The HTML report of a run of a suite whose report is `R`: [`EvalReport`](crate::EvalReport)
/// for a single-shot run (whose page also takes [`ReportPage::frame`],
/// [`ReportPage::answers`] and [`ReportPage::findings`]) or
/// [`AgentEvalReport`](crate::AgentEvalReport) for an agent run (whose replayed transcripts
/// and missing or stale turns the harness adds when it writes the page); see the
/// [module docs](super).
///
/// Only the suite name, the report, the cases and the runtime are needed; each setter
/// adds a part.
pub struct ReportPage<'a, R: Kind> {
    pub(super) suite: &'a str,
    pub(super) report: &'a R,
    pub(super) cases: &'a [EvalCase],
    pub(super) runtime: &'a dyn EvalRuntime,
    /// The rows of the committed report, kept as the text report lays them out: all the
    /// page shows of it, so the page does not borrow the report.
    pub(super) baseline: Option<ReportTable>,
    pub(super) floors: &'a [Floor],
    pub(super) scorers: &'a [Scorer],
    pub(super) pictures: Option<&'a DrawPicture<'a>>,
    pub(super) notes: Vec<String>,
    /// The rows of the live calls' measures (latency, tokens, cost); empty in a replay.
    pub(super) measured: Vec<(String, String)>,
    pub(super) parts: R::Parts<'a>,
}

/// What draws a composition as a picture for the page: the PNG's bytes, or why it cannot
/// be drawn ([`ReportPage::pictures`]).
type DrawPicture<'a> = dyn Fn(&Value) -> Result<Vec<u8>, String> + Sync + 'a;

impl<R: Kind> std::fmt::Debug for ReportPage<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReportPage")
            .field("suite", &self.suite)
            .field("cases", &self.cases.len())
            .finish_non_exhaustive()
    }
}

impl<'a, R: Kind> ReportPage<'a, R> {
    /// The page of `report`, a run of `cases` (the corpus, in the order run: its requests
    /// and goldens) scored against `runtime`, whose html surface renders answers and
    /// goldens. `suite` titles the page.
    pub fn new(
        suite: &'a str,
        report: &'a R,
        cases: &'a [EvalCase],
        runtime: &'a dyn EvalRuntime,
    ) -> Self {
        ReportPage {
            suite,
            report,
            cases,
            runtime,
            baseline: None,
            floors: &[],
            scorers: &[],
            pictures: None,
            notes: Vec::new(),
            measured: Vec::new(),
            parts: R::Parts::default(),
        }
    }

    /// The committed report to show the totals beside. The page keeps only its rows, so
    /// `baseline` need not outlive the page.
    pub fn baseline(mut self, baseline: &R) -> Self {
        self.baseline = Some(R::table(baseline));
        self
    }

    /// The declared floors, each shown met or missed.
    pub fn floors(mut self, floors: &'a [Floor]) -> Self {
        self.floors = floors;
        self
    }

    /// The suite's pack scorers ([`crate::scorer`]): their floors are shown met or missed
    /// beside the declared ones, and decide each case as its trial does.
    pub fn scorers(mut self, scorers: &'a [Scorer]) -> Self {
        self.scorers = scorers;
        self
    }

    /// Draw each answer that validated and each golden as a picture too, shown under its
    /// rendering (the answer's and the golden's side by side), inline as a PNG `data:` URI
    /// so the page stays one file. Each picture adds its PNG's size and a third to the
    /// page.
    ///
    /// `draw` takes a composition and gives the PNG's bytes, or why it cannot be drawn,
    /// which the page shows in the picture's place (a pack with pictures supplies it: the
    /// slides pack's report command draws each slide at 1920×1080).
    pub fn pictures(
        mut self,
        draw: &'a (dyn Fn(&Value) -> Result<Vec<u8>, String> + Sync),
    ) -> Self {
        self.pictures = Some(draw);
        self
    }

    /// Whether anything decides a case: a declared floor or a pack scorer's case floor.
    pub(super) fn decides(&self) -> bool {
        !self.floors.is_empty() || self.scorers.iter().any(|scorer| scorer.has_floors().0)
    }

    /// Renders `composition` through the html surface, then, when the page draws
    /// pictures, its picture.
    pub(super) fn write_composition(
        &self,
        out: &mut String,
        css: &mut String,
        composition: &Value,
    ) {
        write_rendering(out, css, self.runtime, composition);
        if let Some(draw) = self.pictures {
            write_picture(out, draw(composition));
        }
    }

    /// One more line in the recordings part (a `prompt.txt` that differs, say).
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// What the run's live calls measured, one `(label, value)` row each, as the `totals`
    /// trial prints them (`generate ms`, `mean 394.38 / p50 306.14 / p95 482.62`; `cost
    /// usd`, `total 0.018 / 3 priced calls / per call mean 0.006`): shown under the totals
    /// in a part of its own. No row (a replay) shows no part.
    pub fn measured(mut self, rows: impl IntoIterator<Item = (String, String)>) -> Self {
        self.measured.extend(rows);
        self
    }

    /// The page: one self-contained HTML document.
    pub fn to_html(&self) -> String {
        let table = R::table(self.report);
        let mut css = String::new();
        let case_rows = R::case_rows(self, &mut css);
        let totals = totals_rows(table.rows(), self.baseline.as_ref().map(ReportTable::rows));
        Page {
            title: format!("{}: {}", self.suite, R::TITLE),
            lede: R::lede(self.report),
            has_baseline: self.baseline.is_some(),
            totals,
            measured: self.measured.clone(),
            floors: R::floor_statuses(self),
            recordings: R::recordings(self),
            sound: R::SOUND,
            case_rows,
            text_report: table.finish(),
            surface_css: css,
        }
        .finish()
    }

    /// Opens the row of a case, a `details.case` element (open when the case fails, closed
    /// when it passes), and its first column: the summary holds the heading `title` (the
    /// row's anchor is `case-<anchor>`), the pass or fail badge when anything decides it
    /// (declared floors or `problems`), then `badges` (what the kind adds there); the
    /// column holds the request, when known, then the problems. Returns whether the case
    /// fails.
    pub(super) fn open_case_row(
        &self,
        out: &mut String,
        (anchor, title): (&str, &str),
        request: Option<&str>,
        problems: &[String],
        badges: &str,
    ) -> bool {
        // The row's colour says pass or fail only when something decides it, as the
        // badge below does: with no floors declared and no problem, a row is `undecided`
        // (and open: nothing says it may be skipped).
        let (state, open) = if !problems.is_empty() {
            ("failed", " open")
        } else if !self.decides() {
            ("undecided", " open")
        } else {
            ("passed", "")
        };
        out.push_str(&format!(
            "<details class=\"case {state}\" id=\"case-{}\"{open}><summary><h3>{}</h3>",
            esc(anchor),
            esc(title)
        ));
        // Pass or fail as the case's trial decides, when anything decides it.
        if self.decides() || !problems.is_empty() {
            out.push_str(&if problems.is_empty() {
                badge("pass", "passes")
            } else {
                badge("fail", "fails")
            });
        }
        out.push_str(badges);
        out.push_str("</summary><div class=\"case-body\"><div class=\"meta\">");
        if let Some(request) = request {
            out.push_str(&format!("<p class=\"request\">{}</p>", esc(request)));
        }
        if !problems.is_empty() {
            out.push_str("<ul class=\"problems\">");
            for problem in problems {
                out.push_str(&format!("<li>{}</li>", esc(problem)));
            }
            out.push_str("</ul>");
        }
        !problems.is_empty()
    }

    /// Ends a case row's first column and opens its second, headed by the kind's
    /// [`Kind::ANSWER_HEADING`].
    pub(super) fn answer_column(&self, out: &mut String) {
        out.push_str(&format!(
            "</div><div class=\"answer\"><h4 class=\"column\">{}</h4>",
            esc(R::ANSWER_HEADING)
        ));
    }

    /// Closes a case row with its golden column: `golden` rendered, or `no golden`.
    /// `head` is the row's anchor, title and whether it fails ([`Self::open_case_row`]).
    pub(super) fn close_case_row(
        &self,
        out: &mut String,
        css: &mut String,
        golden: Option<&Value>,
        (anchor, title, failed): (&str, &str, bool),
    ) -> CaseRow {
        out.push_str("</div><div class=\"golden\"><h4 class=\"column\">golden</h4>");
        match golden {
            Some(golden) => self.write_composition(out, css, golden),
            None => out.push_str("<p class=\"none\">no golden</p>"),
        }
        out.push_str("</div></div></details>");
        CaseRow {
            anchor: anchor.to_owned(),
            title: title.to_owned(),
            failed,
            html: std::mem::take(out),
        }
    }
}
