//! The comparison page ([`ComparePage`]): two or more run files of one suite side by side,
//! as one self-contained HTML file with the report page's stylesheet and
//! Content-Security-Policy (it loads nothing and runs no script).

use crate::compare::{CASE_VALUES, CaseRow, Comparison, cell_value, verdict};
use crate::report_table::ABSENT;

use super::page::{CSP, REPORT_CSS, esc};

/// The page's own rules, after the report page's stylesheet.
const COMPARE_CSS: &str = "\
table.matrix th,table.matrix td,table.values th,table.values td{padding:3px 10px;border-bottom:1px solid #e2e5ea;text-align:left;vertical-align:top}\
table.matrix thead th,table.values thead th{font-weight:600;color:#4a5360}\
table.matrix tr.changed th{border-left:3px solid #d2463a}\
table.matrix td a{text-decoration:none}\
table.values tr.differs td{background:#fff4d6}\
section.case{background:#fff;border:1px solid #d5d9df;border-radius:4px;margin:0 0 8px;padding:8px 12px}\
section.case:target{outline:2px solid #27405f}\
.delta{color:#4a5360}";

/// A [`Comparison`] laid out as one page:
///
/// - the run files compared, each under its column header;
/// - the axes, each file's value beside the others and each file's delta against the
///   first (as [`Comparison::to_text`] prints them);
/// - the suite floors each file missed;
/// - the verdicts that changed against the first file, each a link to its case;
/// - the matrix, cases × run files: each cell the case's verdict in that file (`passed`,
///   `failed`, with `k of n` over repeats, or `not run`), a link to the case's detail;
///   the cases whose verdict changed first (their rows marked), then those whose values
///   differ, then the rest;
/// - one detail block per case (`#case-<id>`), in the same order: every value in every
///   file, the values that differ marked.
///
/// Every text is escaped with the sdk's escaping, as on the report page.
#[derive(Debug, Clone, Copy)]
pub struct ComparePage<'a> {
    comparison: &'a Comparison,
}

impl<'a> ComparePage<'a> {
    /// The page of `comparison`.
    pub fn new(comparison: &'a Comparison) -> Self {
        ComparePage { comparison }
    }

    /// The whole document.
    pub fn to_html(&self) -> String {
        let comparison = self.comparison;
        let title = format!("comparison of {}", comparison.suite);
        let mut out = String::with_capacity(16 * 1024);
        out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        out.push_str(&format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
        ));
        out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        out.push_str(&format!("<title>{}</title>\n", esc(&title)));
        out.push_str(&format!(
            "<style>{REPORT_CSS}{COMPARE_CSS}</style>\n</head>\n<body>\n"
        ));
        out.push_str(&format!(
            "<header><h1>{}</h1><p class=\"lede\">{} run files, deltas against the first</p></header>\n",
            esc(&title),
            comparison.columns.len()
        ));

        out.push_str("<section id=\"runs\"><h2>Run files</h2><ul class=\"plain\">");
        for column in &comparison.columns {
            out.push_str(&format!(
                "<li><strong>{}</strong>: <code>{}</code></li>",
                esc(&column.header),
                esc(&column.origin)
            ));
        }
        out.push_str("</ul></section>\n");

        out.push_str(
            "<section id=\"axes\"><h2>Axes</h2><table class=\"totals\"><thead><tr><th>axis</th>",
        );
        for column in &comparison.columns {
            out.push_str(&format!("<th>{}</th>", esc(&column.header)));
        }
        for column in &comparison.columns[1..] {
            out.push_str(&format!("<th>\u{394} {}</th>", esc(&column.header)));
        }
        out.push_str("</tr></thead><tbody>\n");
        for (label, values, deltas) in comparison.axis_texts() {
            out.push_str(&format!("<tr><th>{}</th>", esc(&label)));
            for value in values {
                out.push_str(&format!("<td>{}</td>", esc(&value)));
            }
            for delta in deltas {
                out.push_str(&format!("<td class=\"delta\">{}</td>", esc(&delta)));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table></section>\n");

        let floor_misses = comparison.suite_floor_misses();
        out.push_str("<section id=\"floors\"><h2>Suite floors</h2>");
        if floor_misses.is_empty() {
            out.push_str("<p class=\"none\">no suite floor missed</p>");
        } else {
            out.push_str("<ul class=\"problems\">");
            for (column, miss) in floor_misses {
                out.push_str(&format!(
                    "<li>{}: {}</li>",
                    esc(&comparison.columns[column].header),
                    esc(miss)
                ));
            }
            out.push_str("</ul>");
        }
        out.push_str("</section>\n");

        let changes = comparison.verdict_changes();
        out.push_str(&format!(
            "<section id=\"changes\"><h2>Verdicts that changed against {}</h2>",
            esc(&comparison.columns[0].header)
        ));
        if changes.is_empty() {
            out.push_str("<p class=\"none\">none</p>");
        } else {
            out.push_str("<ul class=\"plain\">");
            for change in &changes {
                let class = if change.passed { "pass" } else { "fail" };
                out.push_str(&format!(
                    "<li><span class=\"badge {class}\">{} \u{2192} {}</span>{}: <a href=\"#case-{}\">{}</a></li>",
                    verdict(change.was_passed),
                    verdict(change.passed),
                    esc(&comparison.columns[change.column].header),
                    esc(&change.case_id),
                    esc(&change.case_id)
                ));
            }
            out.push_str("</ul>");
        }
        out.push_str("</section>\n");

        // Cases whose verdict changed first, then those whose values differ, then the rest,
        // each group in the comparison's order (the sort is stable).
        let mut cases: Vec<&CaseRow> = comparison.cases.iter().collect();
        cases.sort_by_key(|case| {
            if changes.iter().any(|change| change.case_id == case.case_id) {
                0
            } else if case.differing().is_empty() {
                2
            } else {
                1
            }
        });

        out.push_str(
            "<section id=\"matrix\"><h2>Cases</h2><table class=\"matrix\"><thead><tr><th>case</th>",
        );
        for column in &comparison.columns {
            out.push_str(&format!("<th>{}</th>", esc(&column.header)));
        }
        out.push_str("</tr></thead><tbody>\n");
        for case in &cases {
            let changed = changes.iter().any(|change| change.case_id == case.case_id);
            let id = esc(&case.case_id);
            out.push_str(if changed {
                "<tr class=\"changed\">"
            } else {
                "<tr>"
            });
            out.push_str(&format!("<th><a href=\"#case-{id}\">{id}</a></th>"));
            for cell in &case.cells {
                let badge = match cell {
                    None => "<span class=\"badge note\">not run</span>".to_owned(),
                    Some(cell) => format!(
                        "<span class=\"badge {}\">{}</span>",
                        if cell.passed { "pass" } else { "fail" },
                        esc(&cell_value(Some(cell), "verdict"))
                    ),
                };
                out.push_str(&format!("<td><a href=\"#case-{id}\">{badge}</a></td>"));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table></section>\n");

        out.push_str("<section id=\"cases\"><h2>Case details</h2>\n");
        for case in &cases {
            let differing = case.differing();
            out.push_str(&format!(
                "<section class=\"case\" id=\"case-{0}\"><h3>{0}</h3><table class=\"values\"><thead><tr><th></th>",
                esc(&case.case_id)
            ));
            for column in &comparison.columns {
                out.push_str(&format!("<th>{}</th>", esc(&column.header)));
            }
            out.push_str("</tr></thead><tbody>");
            for name in CASE_VALUES {
                out.push_str(if differing.contains(&name) {
                    "<tr class=\"differs\">"
                } else {
                    "<tr>"
                });
                out.push_str(&format!("<th>{}</th>", esc(name)));
                for cell in &case.cells {
                    let value = cell_value(cell.as_ref(), name);
                    let class = if value == ABSENT || cell.is_none() {
                        " class=\"none\""
                    } else {
                        ""
                    };
                    out.push_str(&format!("<td{class}>{}</td>", esc(&value)));
                }
                out.push_str("</tr>");
            }
            out.push_str(
                "</tbody></table><p><a href=\"#matrix\">back to the cases</a></p></section>\n",
            );
        }
        out.push_str("</section>\n</body>\n</html>\n");
        out
    }
}
