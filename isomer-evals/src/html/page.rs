//! The layout every HTML report shares: the document, its stylesheet, the totals table
//! beside the baseline, the floors, the recordings, and the table of cases. What goes in
//! each part comes from the report of a suite kind (the single-shot page,
//! [`super::AgentPage`]); this file only lays it out.
//!
//! Every text here is escaped with the sdk's escaping ([`Html::text`]: `&`, `<`, `>`, `"`,
//! `'`), the escaping the runtime's html surface applies to model text; renderings are
//! the html surface's own markup, which escapes and sanitizes as it renders.

use isomer_sdk::{Html, RenderOptions};
use serde_json::Value;

use isomer_corpus::{FloorLevel, FloorSpec, floor_spec};

use crate::floor::{Floor, Scores, misses};
use crate::runtime::EvalRuntime;

/// The report's own stylesheet. System fonts, no web fonts, no images: the page loads
/// nothing.
pub(super) const REPORT_CSS: &str = "\
*{box-sizing:border-box}\
body{margin:0;padding:24px 32px;font:14px/1.45 system-ui,sans-serif;color:#1d232b;background:#f4f5f7}\
h1{font-size:24px;margin:0 0 4px}\
img.picture{display:block;width:100%;height:auto;margin:8px 0;border:1px solid #c9ced6;background:#fff}\
h2{font-size:17px;margin:28px 0 10px}\
h3{font-size:15px;margin:0 0 6px;word-break:break-all}\
h4{font-size:13px;margin:0 0 6px;color:#4a5360}\
.lede{margin:0;color:#4a5360}\
table{border-collapse:collapse;background:#fff}\
.totals th,.totals td{padding:4px 12px;border-bottom:1px solid #e2e5ea;text-align:left}\
.totals thead th{font-weight:600;color:#4a5360}\
.totals tr.moved td{background:#fff4d6}\
ul.plain{margin:0;padding:0;list-style:none}\
ul.plain li{padding:3px 0}\
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;margin-right:4px}\
.pass{background:#dcf3e3;color:#135c2c}\
.fail{background:#fbe0de;color:#8a1c12}\
.note{background:#e6ecf5;color:#27405f}\
nav.index ol{margin:0;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:4px 6px}\
nav.index li a{display:inline-block;padding:2px 8px;border-radius:4px;background:#fff;border:1px solid #d5d9df;color:#1d232b;text-decoration:none;font-size:12px}\
nav.index li.failed a{background:#fbe0de;border-color:#e8a39c;color:#8a1c12;font-weight:600}\
nav.index li.passed a{border-left:3px solid #2f9e55}\
details.case{background:#fff;border:1px solid #d5d9df;border-left:4px solid #c9ced6;border-radius:4px;margin:0 0 8px}\
details.case.failed{border-left-color:#d2463a}\
details.case.passed{border-left-color:#2f9e55}\
details.case>summary{padding:8px 12px;font-size:14px;color:#1d232b}\
details.case>summary h3{display:inline;margin-right:8px}\
details.case:target{outline:2px solid #27405f}\
.case-body{display:grid;grid-template-columns:22% 1fr 1fr;gap:12px;padding:4px 12px 12px;overflow-wrap:anywhere}\
.case-body>div{min-width:0}\
h4.column{color:#6b7480;text-transform:uppercase;font-size:11px;letter-spacing:.04em}\
a{color:#27405f}\
.request{margin:0 0 8px;white-space:pre-wrap;max-height:16em;overflow:auto}\
dl.scores{display:grid;grid-template-columns:auto 1fr;gap:1px 10px;margin:8px 0 0;font-size:12px}\
dl.scores dt{color:#4a5360}\
dl.scores dd{margin:0}\
.attempt,.turn{margin:0 0 12px;padding:8px;background:#fafbfc;border:1px solid #e2e5ea;border-radius:6px}\
.render{background:#fff;max-height:640px;overflow:auto}\
ul.errors{margin:6px 0;padding-left:18px;color:#8a1c12;font-size:12px}\
ul.problems{margin:6px 0;padding-left:18px;font-size:12px}\
pre{margin:4px 0 0;padding:8px;background:#f0f2f5;white-space:pre-wrap;font-size:12px;max-height:360px;overflow:auto}\
details>summary{cursor:pointer;color:#27405f;font-size:12px}\
.none{color:#6b7480;font-style:italic}";

/// The page's Content-Security-Policy: nothing may load and no script may run, so even a
/// rendering that let markup through could not act. Styles are inline.
pub(super) const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/// `text`, escaped as the html surface escapes text.
pub(super) fn esc(text: &str) -> String {
    Html::text(text).as_str().to_owned()
}

/// One row of the totals table: label, this run's value, the baseline's (absent when the
/// baseline has no such row, or there is no baseline).
pub(super) struct TotalsRow {
    pub(super) label: String,
    pub(super) value: String,
    pub(super) baseline: Option<String>,
}

/// Pairs this run's rows with the baseline's by label, in this run's order, then the
/// baseline's rows this run lacks.
pub(super) fn totals_rows(
    rows: &[(String, String)],
    baseline: Option<&[(String, String)]>,
) -> Vec<TotalsRow> {
    let find = |label: &str| {
        baseline.and_then(|rows| {
            rows.iter()
                .find(|(other, _)| other == label)
                .map(|(_, value)| value.clone())
        })
    };
    let mut out: Vec<TotalsRow> = rows
        .iter()
        .map(|(label, value)| TotalsRow {
            label: label.clone(),
            value: value.clone(),
            baseline: find(label),
        })
        .collect();
    for (label, value) in baseline.unwrap_or_default() {
        if !rows.iter().any(|(other, _)| other == label) {
            out.push(TotalsRow {
                label: label.clone(),
                value: "\u{2014}".to_owned(),
                baseline: Some(value.clone()),
            });
        }
    }
    out
}

/// A declared floor and whether it held: `misses` lists each miss (`case: miss` for a
/// case floor, with the anchor of the case's row; a suite floor's miss has none), empty
/// when it held.
pub struct FloorStatus {
    pub(super) declared: String,
    pub(super) case_level: bool,
    pub(super) misses: Vec<(Option<String>, String)>,
}

/// One case of the page, laid out: its anchor (the row is `case-<anchor>`), its title,
/// whether it fails (it then opens, and comes first in the index and the cases), and its
/// markup (a `details.case` element).
pub struct CaseRow {
    pub(super) anchor: String,
    pub(super) title: String,
    pub(super) failed: bool,
    pub(super) html: String,
}

/// The status of each of `floors`, whose kind's floor table is `table`: a case floor
/// checked against each of `units` (`(name, anchor, scores)`, a case or a run, and the
/// anchor of its case's row), each miss named `<name>: <miss>`; a suite floor checked
/// against `totals`.
pub(super) fn floor_statuses(
    floors: &[Floor],
    table: &'static [FloorSpec],
    units: &[(String, String, &dyn Scores)],
    totals: &dyn Scores,
) -> Vec<FloorStatus> {
    floors
        .iter()
        .map(|floor| {
            let one = std::slice::from_ref(floor);
            let case_level =
                floor_spec(table, floor.name()).is_some_and(|spec| spec.level == FloorLevel::Case);
            let misses = if case_level {
                units
                    .iter()
                    .flat_map(|(name, anchor, scores)| {
                        misses(one, table, FloorLevel::Case, *scores)
                            .into_iter()
                            .map(move |miss| (Some(anchor.clone()), format!("{name}: {miss}")))
                    })
                    .collect()
            } else {
                misses(one, table, FloorLevel::Suite, totals)
                    .into_iter()
                    .map(|miss| (None, miss))
                    .collect()
            };
            FloorStatus {
                declared: floor.to_string(),
                case_level,
                misses,
            }
        })
        .collect()
}

/// The parts of a report page, in the order they are shown.
pub(super) struct Page {
    pub(super) title: String,
    pub(super) lede: String,
    pub(super) has_baseline: bool,
    pub(super) totals: Vec<TotalsRow>,
    /// The live calls' measures and cost, `(label, value)`; empty in a replay.
    pub(super) measured: Vec<(String, String)>,
    pub(super) floors: Vec<FloorStatus>,
    /// Lines about the recordings (missing, stale, unusable); empty when all are sound.
    pub(super) recordings: Vec<String>,
    /// What the page says when `recordings` is empty.
    pub(super) sound: &'static str,
    /// One row per case, already laid out, in the order run.
    pub(super) case_rows: Vec<CaseRow>,
    /// The text report, shown at the end.
    pub(super) text_report: String,
    /// The stylesheet of the runtime's html surface (empty when nothing was rendered).
    pub(super) surface_css: String,
}

impl Page {
    /// The whole document.
    pub(super) fn finish(self) -> String {
        let mut out = String::with_capacity(64 * 1024);
        out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        out.push_str(&format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
        ));
        out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        out.push_str(&format!("<title>{}</title>\n", esc(&self.title)));
        out.push_str(&format!(
            "<style>{REPORT_CSS}{}</style>\n</head>\n<body>\n",
            self.surface_css
        ));
        out.push_str(&format!(
            "<header><h1>{}</h1><p class=\"lede\">{}</p></header>\n",
            esc(&self.title),
            esc(&self.lede)
        ));
        // Failures first, each group in the order run (the sort is stable).
        let mut rows = self.case_rows;
        rows.sort_by_key(|row| !row.failed);
        let anchors: Vec<&str> = rows.iter().map(|row| row.anchor.as_str()).collect();
        write_index(&mut out, &rows);

        out.push_str("<section id=\"totals\"><h2>Totals</h2><table class=\"totals\"><thead><tr><th></th><th>this run</th>");
        if self.has_baseline {
            out.push_str("<th>baseline</th>");
        }
        out.push_str("</tr></thead><tbody>\n");
        for row in &self.totals {
            let moved = self.has_baseline && row.baseline.as_deref() != Some(row.value.as_str());
            out.push_str(if moved {
                "<tr class=\"moved\">"
            } else {
                "<tr>"
            });
            out.push_str(&format!(
                "<th>{}</th><td>{}</td>",
                esc(&row.label),
                esc(&row.value)
            ));
            if self.has_baseline {
                out.push_str(&format!(
                    "<td>{}</td>",
                    esc(row.baseline.as_deref().unwrap_or("\u{2014}"))
                ));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table>");
        if !self.has_baseline {
            out.push_str("<p class=\"none\">no committed baseline to compare with</p>");
        }
        out.push_str("</section>\n");

        if !self.measured.is_empty() {
            out.push_str("<section id=\"measured\"><h2>Measured (the live calls of this run)</h2><table class=\"totals\"><tbody>\n");
            for (label, value) in &self.measured {
                out.push_str(&format!(
                    "<tr><th>{}</th><td>{}</td></tr>\n",
                    esc(label),
                    esc(value)
                ));
            }
            out.push_str("</tbody></table></section>\n");
        }

        out.push_str("<section id=\"floors\"><h2>Floors</h2>");
        if self.floors.is_empty() {
            out.push_str("<p class=\"none\">no floors declared</p>");
        } else {
            out.push_str("<ul class=\"plain\">\n");
            for floor in &self.floors {
                let level = if floor.case_level {
                    "every case"
                } else {
                    "suite"
                };
                if floor.misses.is_empty() {
                    out.push_str(&format!(
                        "<li class=\"floor met\"><span class=\"badge pass\">met</span><code>{}</code> ({level})</li>\n",
                        esc(&floor.declared)
                    ));
                } else {
                    out.push_str(&format!(
                        "<li class=\"floor missed\"><span class=\"badge fail\">missed</span><code>{}</code> ({level})<ul class=\"problems\">",
                        esc(&floor.declared)
                    ));
                    for (anchor, miss) in &floor.misses {
                        out.push_str(&match anchor {
                            Some(anchor) => format!(
                                "<li><a href=\"#case-{}\">{}</a></li>",
                                esc(anchor),
                                esc(miss)
                            ),
                            None => format!("<li>{}</li>", esc(miss)),
                        });
                    }
                    out.push_str("</ul></li>\n");
                }
            }
            out.push_str("</ul>");
        }
        out.push_str("</section>\n");

        out.push_str("<section id=\"recordings\"><h2>Recordings</h2>");
        if self.recordings.is_empty() {
            out.push_str(&format!(
                "<p><span class=\"badge pass\">sound</span>{}</p>",
                esc(self.sound)
            ));
        } else {
            out.push_str("<ul class=\"problems\">");
            for line in &self.recordings {
                out.push_str(&format!("<li>{}</li>", esc(line)));
            }
            out.push_str("</ul>");
        }
        out.push_str("</section>\n");

        out.push_str("<section id=\"cases\"><h2>Cases</h2>\n");
        for row in &rows {
            out.push_str(&row.html);
            out.push('\n');
        }
        out.push_str("</section>\n");
        out.push_str("<section id=\"text-report\"><h2>Text report</h2><pre>");
        write_linked_report(&mut out, &self.text_report, &anchors);
        out.push_str("</pre></section>\n");
        out.push_str("</body>\n</html>\n");
        out
    }
}

/// The index under the title: one link per case to its row, failures first (`rows` is
/// already in that order), each `li` of class `failed` or `passed` (a case no floor
/// decides counts as passed here).
fn write_index(out: &mut String, rows: &[CaseRow]) {
    let failed = rows.iter().filter(|row| row.failed).count();
    out.push_str(&format!(
        "<nav class=\"index\" id=\"index\"><h2>Index</h2><p class=\"lede\">{} cases, {failed} failing{}</p><ol>",
        rows.len(),
        if failed > 0 { " (first)" } else { "" }
    ));
    for row in rows {
        let state = if row.failed { "failed" } else { "passed" };
        out.push_str(&format!(
            "<li class=\"{state}\"><a href=\"#case-{}\">{}</a></li>",
            esc(&row.anchor),
            esc(&row.title)
        ));
    }
    out.push_str("</ol></nav>\n");
}

/// The text report, escaped, with each section entry that names a case
/// (`  <anchor>: ...`, as under `invalid:`) linking to the case's row.
fn write_linked_report(out: &mut String, text: &str, anchors: &[&str]) {
    for line in text.split_inclusive('\n') {
        let entry = line
            .strip_prefix("  ")
            .and_then(|rest| rest.split_once(": "))
            .map(|(name, _)| name)
            .filter(|name| anchors.contains(name));
        match entry {
            Some(name) => out.push_str(&format!(
                "  <a href=\"#case-{}\">{}</a>{}",
                esc(name),
                esc(name),
                esc(&line[2 + name.len()..])
            )),
            None => out.push_str(&esc(line)),
        }
    }
}

/// The options every rendering in a report uses: framed, at the column's width.
fn render_options() -> RenderOptions {
    RenderOptions {
        framed: true,
        fluid: true,
        ..RenderOptions::default()
    }
}

/// Renders `composition` through the runtime's html surface into `out`, inside a
/// `div.render`, keeping the stylesheet in `css` (once per page). A runtime without an
/// html surface, or a refusal, shows the JSON or the refusal instead.
pub(super) fn write_rendering(
    out: &mut String,
    css: &mut String,
    runtime: &dyn EvalRuntime,
    composition: &Value,
) {
    match runtime.render_html(composition, &render_options()) {
        Some(Ok(rendered)) => {
            out.push_str("<div class=\"render\">");
            out.push_str(&rendered.html_without_style());
            out.push_str("</div>");
            if css.is_empty() {
                css.push_str(&rendered.css);
            }
        }
        Some(Err(error)) => out.push_str(&format!(
            "<p class=\"none\">the html surface refused it: {}</p>",
            esc(&error.to_string())
        )),
        None => write_json(out, composition),
    }
}

/// A picture of a composition (drawn by the function given to [`super::ReportPage::pictures`]): the PNG as an `<img>` with a
/// `data:` URI (the page's Content-Security-Policy allows images from `data:` only), or
/// why there is none.
pub(super) fn write_picture(out: &mut String, picture: Result<Vec<u8>, String>) {
    use base64::Engine as _;
    match picture {
        Ok(png) => out.push_str(&format!(
            "<img class=\"picture\" alt=\"picture\" src=\"data:image/png;base64,{}\">",
            base64::engine::general_purpose::STANDARD.encode(png)
        )),
        Err(why) => out.push_str(&format!("<p class=\"none\">no picture: {}</p>", esc(&why))),
    }
}

/// `value` as indented JSON in a `pre`.
pub(super) fn write_json(out: &mut String, value: &Value) {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    out.push_str(&format!("<pre>{}</pre>", esc(&text)));
}

/// A `details` block holding `text` in a `pre`, under `summary`.
pub(super) fn write_folded(out: &mut String, summary: &str, text: &str) {
    out.push_str(&format!(
        "<details><summary>{}</summary><pre>{}</pre></details>",
        esc(summary),
        esc(text)
    ));
}

/// A list of errors (`ul.errors`), nothing when empty.
pub(super) fn write_errors(out: &mut String, errors: &[String]) {
    if errors.is_empty() {
        return;
    }
    out.push_str("<ul class=\"errors\">");
    for error in errors {
        out.push_str(&format!("<li>{}</li>", esc(error)));
    }
    out.push_str("</ul>");
}

/// A definition list of scores (`dl.scores`).
pub(super) fn write_scores(out: &mut String, scores: &[(&str, String)]) {
    out.push_str("<dl class=\"scores\">");
    for (name, value) in scores {
        out.push_str(&format!("<dt>{}</dt><dd>{}</dd>", esc(name), esc(value)));
    }
    out.push_str("</dl>");
}

/// A badge.
pub(super) fn badge(class: &str, text: &str) -> String {
    format!("<span class=\"badge {class}\">{}</span>", esc(text))
}
