//! The human diff of a moved snapshot file, which a `totals` trial writes to stderr (stdout
//! carries libtest's results).

use std::fmt::Write as _;

/// Lines of unchanged text shown before and after the changed block.
const CONTEXT: usize = 3;

/// The difference between the committed snapshot text `old` and this run's `new`, as one
/// unified-diff hunk: the header names the snapshot (`--- <name>.snap (committed)`,
/// `+++ <name> (this run)`), then `@@ -<line>,<count> +<line>,<count> @@` and what the
/// lines count, up to three unchanged lines of context on each side, the committed lines
/// of the changed block prefixed `-` and the new ones `+`.
///
/// `old` and `new` are a snapshot's contents, without the `---` header above them in the
/// `.snap` file, and the `@@` numbers are 1-based lines of those contents: line `n` of the
/// hunk is line `n + header_lines` of the committed file. The `@@` line says so: `@@ -32,7 +32,7 @@ lines of the snapshot's
/// contents, after the 3-line header of moved_baseline__report.snap` (with `header_lines`
/// `Some(3)`), or `... after the header of <name>.snap` when the header's length is
/// unknown (`None`).
///
/// The changed block runs from the first line that differs to the last one (common lines
/// at both ends are trimmed; lines in between are shown as removed and added even where
/// they agree), so it costs time linear in the text, whatever its size. Empty when the
/// texts are equal.
pub(super) fn snapshot_diff(
    name: &str,
    old: &str,
    new: &str,
    header_lines: Option<usize>,
) -> String {
    if old == new {
        return String::new();
    }
    let old_lines: Vec<&str> = old.lines().collect();
    let new_lines: Vec<&str> = new.lines().collect();
    let prefix = old_lines
        .iter()
        .zip(&new_lines)
        .take_while(|(a, b)| a == b)
        .count();
    let suffix = old_lines[prefix..]
        .iter()
        .rev()
        .zip(new_lines[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let before = prefix.saturating_sub(CONTEXT);
    let old_end = old_lines.len() - suffix;
    let new_end = new_lines.len() - suffix;
    let after = suffix.min(CONTEXT);
    let mut out = String::new();
    let _ = writeln!(out, "--- {name}.snap (committed)");
    let _ = writeln!(out, "+++ {name} (this run)");
    let header = match header_lines {
        Some(lines) => format!("the {lines}-line header"),
        None => "the header".to_owned(),
    };
    let _ = writeln!(
        out,
        "@@ -{},{} +{},{} @@ lines of the snapshot's contents, after {header} of {name}.snap",
        before + 1,
        old_end + after - before,
        before + 1,
        new_end + after - before
    );
    for line in &old_lines[before..prefix] {
        let _ = writeln!(out, " {line}");
    }
    for line in &old_lines[prefix..old_end] {
        let _ = writeln!(out, "-{line}");
    }
    for line in &new_lines[prefix..new_end] {
        let _ = writeln!(out, "+{line}");
    }
    for line in &old_lines[old_end..old_end + after] {
        let _ = writeln!(out, " {line}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::snapshot_diff;

    #[test]
    fn one_hunk_with_three_lines_of_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
        let new = "a\nb\nc\nd\nE\nf\nX\nh\ni\n";
        assert_eq!(
            snapshot_diff("s__report", old, new, Some(3)),
            "--- s__report.snap (committed)
+++ s__report (this run)
@@ -2,8 +2,8 @@ lines of the snapshot's contents, after the 3-line header of s__report.snap
 b
 c
 d
-e
-f
-g
+E
+f
+X
 h
 i
"
        );
    }

    #[test]
    fn added_and_removed_lines_at_the_ends() {
        assert_eq!(
            snapshot_diff("s", "a\n", "a\nb\n", Some(4)),
            "--- s.snap (committed)\n+++ s (this run)\n@@ -1,1 +1,2 @@ lines of the snapshot's contents, after the 4-line header of s.snap\n a\n+b\n"
        );
        assert_eq!(
            snapshot_diff("s", "x\ny\n", "y\n", None),
            "--- s.snap (committed)\n+++ s (this run)\n@@ -1,2 +1,1 @@ lines of the snapshot's contents, after the header of s.snap\n-x\n y\n"
        );
        assert_eq!(snapshot_diff("s", "same\n", "same\n", Some(3)), "");
    }
}
