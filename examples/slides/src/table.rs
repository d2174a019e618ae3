//! Grids on the text surface: a padded plain-text table, shared by
//! `slideBars` and `slideTable` (and the later `slideMatrix`). Markdown
//! grids use the sdk's `Markdown::table`.

use crate::authored::display_columns;

/// A padded plain-text table: the header row, a row of dashes as wide as
/// each column, then the rows. Columns are left-aligned, padded to their
/// widest cell (wide glyphs count 2) and apart by two spaces; trailing
/// spaces are trimmed from every line. A short row is padded with empty
/// cells.
pub fn text_table(header: &[String], rows: &[Vec<String>]) -> String {
    let columns = header
        .len()
        .max(rows.iter().map(Vec::len).max().unwrap_or(0));
    let mut widths = vec![0; columns];
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        for (index, cell) in row.iter().enumerate() {
            widths[index] = widths[index].max(display_columns(cell));
        }
    }
    let line = |cells: &[String]| {
        let mut out = String::new();
        for (index, width) in widths.iter().enumerate() {
            let cell = cells.get(index).map_or("", String::as_str);
            if index > 0 {
                out.push_str("  ");
            }
            out.push_str(cell);
            out.push_str(&" ".repeat(width - display_columns(cell)));
        }
        out.trim_end().to_owned()
    };
    let dashes: Vec<String> = widths.iter().map(|w| "-".repeat((*w).max(1))).collect();
    let mut lines = vec![line(header), line(&dashes)];
    lines.extend(rows.iter().map(|row| line(row)));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(values: &[&str]) -> Vec<String> {
        values.iter().map(|v| (*v).to_owned()).collect()
    }

    #[test]
    fn pads_and_trims_a_text_table() {
        let table = text_table(
            &cells(&["", "A", "Bee"]),
            &[
                cells(&["Row one", "Yes", "No"]),
                cells(&["日本", "", "Partial"]),
            ],
        );
        assert_eq!(
            table,
            "         A    Bee\n-------  ---  -------\nRow one  Yes  No\n日本          Partial"
        );
    }
}
