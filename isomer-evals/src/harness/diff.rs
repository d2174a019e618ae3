//! The human diff of a moved snapshot file, which a `totals` trial writes to stderr (stdout
//! carries libtest's results), capped, with the whole diff in a file.

use std::fmt::Write as _;

use similar::{ChangeTag, TextDiff};

/// Lines of unchanged text shown before and after each changed block.
const CONTEXT: usize = 3;

/// How many lines of one snapshot's diff (its `---`/`+++`/`@@` lines included) a `totals`
/// trial writes to stderr before it cuts the rest, naming the file with the whole diff
/// ([`capped`]). Three moved files then print at most 3 × (20 + 2) lines.
pub(super) const STDERR_LINES: usize = 20;

/// The difference between the committed snapshot text `old` and this run's `new`, as a
/// unified diff: the header names the snapshot (`--- <name>.snap (committed)`,
/// `+++ <name> (this run)`), then one hunk per changed region (similar's LCS line diff,
/// Myers' algorithm), each `@@ -<line>,<count> +<line>,<count> @@` with what the lines
/// count, up to three unchanged lines of context on each side, the committed lines prefixed
/// `-` and the new ones `+`. Hunks closer than twice the context merge, as in `diff -u`.
///
/// `old` and `new` are a snapshot's contents, without the `---` header above them in the
/// `.snap` file, compared without their trailing whitespace (as the baseline compares),
/// and the `@@` numbers are 1-based lines of those contents: line `n` of the hunk is line
/// `n + header_lines` of the committed file. Each `@@` line says so: `@@ -32,7 +32,7 @@
/// lines of the snapshot's contents, after the 3-line header of moved_baseline__report.snap`
/// (with `header_lines` `Some(3)`), or `... after the header of <name>.snap` when the
/// header's length is unknown (`None`). Empty when the texts are equal.
pub(super) fn snapshot_diff(
    name: &str,
    old: &str,
    new: &str,
    header_lines: Option<usize>,
) -> String {
    let old = format!("{}\n", old.trim_end());
    let new = format!("{}\n", new.trim_end());
    if old == new {
        return String::new();
    }
    let diff = TextDiff::from_lines(&old, &new);
    let mut unified = diff.unified_diff();
    unified.context_radius(CONTEXT);
    let header = match header_lines {
        Some(lines) => format!("the {lines}-line header"),
        None => "the header".to_owned(),
    };
    let mut out = String::new();
    let _ = writeln!(out, "--- {name}.snap (committed)");
    let _ = writeln!(out, "+++ {name} (this run)");
    for hunk in unified.iter_hunks() {
        let _ = writeln!(
            out,
            "{} lines of the snapshot's contents, after {header} of {name}.snap",
            hunk.header()
        );
        for change in hunk.iter_changes() {
            let sign = match change.tag() {
                ChangeTag::Equal => ' ',
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
            };
            let line = change.value();
            let _ = writeln!(out, "{sign}{}", line.strip_suffix('\n').unwrap_or(line));
        }
    }
    out
}

/// The first [`STDERR_LINES`] lines of `diff` (a [`snapshot_diff`]) as they are when it
/// is no longer, else those lines then `… <n> more lines of this diff` (`n` the lines cut).
/// Either way the last line is `the whole diff: <whole>` when `whole` (the file the diff was
/// written to) is given.
pub(super) fn capped(diff: &str, whole: Option<&str>) -> String {
    let lines: Vec<&str> = diff.lines().collect();
    let mut out = String::new();
    for line in lines.iter().take(STDERR_LINES) {
        let _ = writeln!(out, "{line}");
    }
    if lines.len() > STDERR_LINES {
        let _ = writeln!(
            out,
            "… {} more lines of this diff",
            lines.len() - STDERR_LINES
        );
    }
    if let Some(whole) = whole {
        let _ = writeln!(out, "the whole diff: {whole}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{STDERR_LINES, capped, snapshot_diff};

    #[test]
    fn changes_far_apart_make_separate_hunks_with_three_lines_of_context() {
        let old: String = (1..=20).map(|n| format!("{n}\n")).collect();
        let new = old
            .replacen("\n3\n", "\nthree\n", 1)
            .replacen("\n17\n", "\nseventeen\n", 1);
        assert_eq!(
            snapshot_diff("s__report", &old, &new, Some(3)),
            "--- s__report.snap (committed)
+++ s__report (this run)
@@ -1,6 +1,6 @@ lines of the snapshot's contents, after the 3-line header of s__report.snap
 1
 2
-3
+three
 4
 5
 6
@@ -14,7 +14,7 @@ lines of the snapshot's contents, after the 3-line header of s__report.snap
 14
 15
 16
-17
+seventeen
 18
 19
 20
"
        );
    }

    #[test]
    fn close_changes_share_one_hunk() {
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
+E
 f
-g
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
            "--- s.snap (committed)\n+++ s (this run)\n@@ -1 +1,2 @@ lines of the snapshot's contents, after the 4-line header of s.snap\n a\n+b\n"
        );
        assert_eq!(
            snapshot_diff("s", "x\ny\n", "y\n", None),
            "--- s.snap (committed)\n+++ s (this run)\n@@ -1,2 +1 @@ lines of the snapshot's contents, after the header of s.snap\n-x\n y\n"
        );
        assert_eq!(snapshot_diff("s", "same\n", "same", Some(3)), "");
    }

    #[test]
    fn a_long_diff_is_cut_and_names_the_whole_one() {
        let diff: String = (0..STDERR_LINES + 5).map(|n| format!("+{n}\n")).collect();
        let shown = capped(&diff, Some("/t/isomer/s/s__report.diff"));
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), STDERR_LINES + 2);
        assert_eq!(lines[STDERR_LINES - 1], format!("+{}", STDERR_LINES - 1));
        assert_eq!(lines[STDERR_LINES], "… 5 more lines of this diff");
        assert_eq!(
            lines[STDERR_LINES + 1],
            "the whole diff: /t/isomer/s/s__report.diff"
        );
        assert_eq!(capped("+a\n", None), "+a\n");
    }
}
