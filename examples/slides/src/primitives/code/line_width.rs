//! How wide a line of code may be on a slide.
//!
//! Upstream derives the caps from the frame width (1920 px) and the mono
//! font's advance; those theme metrics were not captured, so the figures
//! here are this port's estimates from the same geometry: about 1,680 px of
//! usable width, a 30 px mono face (18 px advance) for normal panels and a
//! 24 px face when a panel holds more than ten lines ("dense"), and a 96 px
//! gap between two panels. Widths are display columns: wide (East Asian)
//! glyphs count 2.

use crate::authored::display_columns;
use crate::check::Issue;

/// Columns that fit one normal panel.
pub const ONE_PANEL_COLUMNS: usize = 88;
/// Columns that fit one dense panel (more than ten lines).
pub const ONE_PANEL_DENSE_COLUMNS: usize = 108;
/// Columns that fit each of two normal panels.
pub const TWO_PANEL_COLUMNS: usize = 42;
/// Columns that fit each of two dense panels.
pub const TWO_PANEL_DENSE_COLUMNS: usize = 52;
/// More lines than this make a panel dense.
pub const DENSE_AFTER_LINES: usize = 10;

/// The message for a code line holding a line break.
pub const ONE_LINE_PER_ENTRY: &str = "one line per entry; split the text at its line breaks";
/// The message for a code line holding a tab.
pub const NO_TABS: &str = "indent with spaces, not tabs";

/// The message for a line wider than its panel.
pub fn too_wide(columns: usize) -> String {
    format!(
        "a line is wider than its panel: at most {columns} columns fit; shorten it or break it over two lines"
    )
}

/// The column cap of a panel among `panels` panels holding `lines` lines.
pub fn panel_columns(panels: usize, lines: usize) -> usize {
    let dense = lines > DENSE_AFTER_LINES;
    match (panels > 1, dense) {
        (false, false) => ONE_PANEL_COLUMNS,
        (false, true) => ONE_PANEL_DENSE_COLUMNS,
        (true, false) => TWO_PANEL_COLUMNS,
        (true, true) => TWO_PANEL_DENSE_COLUMNS,
    }
}

/// The findings for one line of code at `path`: a line break, a tab, or
/// more than `columns` display columns (only the first that applies).
pub fn check_code_line(path: String, line: &str, columns: usize) -> Option<Issue> {
    if line.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
        Some(Issue::new(path, ONE_LINE_PER_ENTRY))
    } else if line.contains('\t') {
        Some(Issue::new(path, NO_TABS))
    } else if display_columns(line) > columns {
        Some(Issue::new(path, too_wide(columns)))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_depend_on_panels_and_density() {
        assert_eq!(panel_columns(1, 10), 88);
        assert_eq!(panel_columns(1, 11), 108);
        assert_eq!(panel_columns(2, 3), 42);
        assert_eq!(panel_columns(2, 16), 52);
    }

    #[test]
    fn checks_breaks_tabs_and_width() {
        assert_eq!(
            check_code_line("l".into(), "a\nb", 5).unwrap().message,
            ONE_LINE_PER_ENTRY
        );
        assert_eq!(
            check_code_line("l".into(), "\ta", 5).unwrap().message,
            NO_TABS
        );
        assert_eq!(
            check_code_line("l".into(), "日本語", 5).unwrap().message,
            too_wide(5)
        );
        assert_eq!(check_code_line("l".into(), "", 5), None);
    }
}
