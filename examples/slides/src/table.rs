//! Grids on the text surface: a padded plain-text table, shared by
//! `slideBars`, `slideTable` and `slideMatrix`. Markdown
//! grids use the sdk's `Markdown::table`; Slack grids are native `table`
//! blocks ([`crate::slack::table_block`]).

use crate::authored::display_columns;

/// A padded plain-text table: the header row, a row of dashes as wide as
/// each column, then the rows. Columns are left-aligned, padded to their
/// widest cell (wide glyphs count 2, and a column is at least one wide, the
/// one dash under a column of empty cells) and apart by two spaces;
/// trailing spaces are trimmed from every line. A short row is padded with
/// empty cells.
pub fn text_table(header: &[String], rows: &[Vec<String>]) -> String {
    let rows: Vec<TextRow<'_>> = rows.iter().map(|row| TextRow::Cells(row)).collect();
    text_table_rows(header, &rows)
}

/// One row of a text table: cells, or a line of its own (a group's label)
/// that is printed as written and widens no column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextRow<'a> {
    /// Cells, padded to their columns.
    Cells(&'a [String]),
    /// A line between the rows, e.g. an upper-cased group label.
    Line(&'a str),
}

/// [`text_table`] with lines of their own between the rows.
pub fn text_table_rows(header: &[String], rows: &[TextRow<'_>]) -> String {
    let cells = || {
        rows.iter().filter_map(|row| match row {
            TextRow::Cells(cells) => Some(*cells),
            TextRow::Line(_) => None,
        })
    };
    let columns = header
        .len()
        .max(cells().map(<[String]>::len).max().unwrap_or(0));
    // At least one: the dashes row writes one dash under a column whose
    // cells are all empty, and every line pads its cells to these widths.
    let mut widths = vec![1; columns];
    for row in std::iter::once(header).chain(cells()) {
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
    let dashes: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    let mut lines = vec![line(header), line(&dashes)];
    lines.extend(rows.iter().map(|row| match row {
        TextRow::Cells(cells) => line(cells),
        TextRow::Line(text) => (*text).to_owned(),
    }));
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

    #[test]
    fn a_column_of_empty_cells_is_one_dash_wide() {
        // A matrix with no rows: the corner cell is empty.
        let table = text_table(&cells(&["", "Argo CD", "Spinnaker"]), &[]);
        assert_eq!(
            table,
            "   Argo CD  Spinnaker
-  -------  ---------"
        );
        let table = text_table(&cells(&["", "A"]), &[cells(&["", "x"])]);
        assert_eq!(
            table,
            "   A
-  -
   x"
        );
    }

    #[test]
    fn a_line_of_its_own_widens_no_column() {
        let row = cells(&["EU", "14"]);
        let table = text_table_rows(
            &cells(&["Region", "Banks"]),
            &[TextRow::Line("EUROPE AND THE UK"), TextRow::Cells(&row)],
        );
        assert_eq!(
            table,
            "Region  Banks\n------  -----\nEUROPE AND THE UK\nEU      14"
        );
    }
}
