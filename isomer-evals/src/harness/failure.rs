//! Failures that CI readers understand: a failing trial's message begins with a one-line
//! summary, and the trial writes that line to stderr as `Error: <summary>`.
//!
//! cargo-nextest takes a failure's message from the test's stderr, from a `thread '…'
//! panicked at` line or an `Error: ` line, and puts it in its JUnit report's `<failure
//! message="…">`; a trial of this harness fails by returning its message, which
//! libtest-mimic prints to stdout only, so without that line the JUnit message would be
//! empty. The summary is also the first line of the message libtest-mimic prints (pretty,
//! terse, and the `stdout` of a `--format json` failed event), so every reader shows the
//! same text.
//!
//! The summary is the message's first line; when that line is a heading (it ends with
//! `:`) over indented items, the names of the items (each item's text before its first
//! `: `, a path shortened to its file name; the first [`NAMES_SHOWN`], then `+N more`) are
//! put into it, in parentheses:
//!
//! ```text
//! case `good` is below its floors (valid_after_retry, expected_hit):
//!   valid_after_retry: false, floor true
//!   expected_hit: false, floor true
//! ```

use libtest_mimic::Failed;

/// How many item names a summary shows before `+N more`.
const NAMES_SHOWN: usize = 6;

/// `failed` with its message's first line made a summary ([`summarized`]), after writing
/// `Error: <summary>` to stderr.
pub(super) fn ci_native(failed: Failed) -> Failed {
    let message = summarized(failed.message().unwrap_or("the trial failed"));
    eprintln!("Error: {}", message.lines().next().unwrap_or_default());
    Failed::from(message)
}

/// `message` with the names of the items under its first line (a heading ending with `:`
/// over lines indented by two spaces) added to that line in parentheses, each path
/// shortened to its file name; unchanged when the first line is no such heading.
pub(super) fn summarized(message: &str) -> String {
    let first = message.lines().next().unwrap_or_default();
    let Some(heading) = first.strip_suffix(':') else {
        return message.to_owned();
    };
    let names: Vec<&str> = message
        .lines()
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .map(|line| {
            let item = line.trim_start();
            let name = item.split_once(": ").map_or(item, |(name, _)| name);
            name.rsplit(['/', '\\']).next().unwrap_or(name)
        })
        .collect();
    if names.is_empty() {
        return message.to_owned();
    }
    let mut shown = names[..names.len().min(NAMES_SHOWN)].join(", ");
    if names.len() > NAMES_SHOWN {
        shown.push_str(&format!(", +{} more", names.len() - NAMES_SHOWN));
    }
    format!("{heading} ({shown}):{}", &message[first.len()..])
}

#[cfg(test)]
mod tests {
    use super::summarized;

    #[test]
    fn a_heading_names_its_items() {
        assert_eq!(
            summarized(
                "case `good` is below its floors:
  valid_after_retry: false, floor true
  no_invented_types: [sparkline], floor []
missing recordings (strict replay answers them with empty text): answers/good.1.txt
first attempt's validation errors (1):
  body[0] unknown node type \"sparkline\""
            ),
            "case `good` is below its floors (valid_after_retry, no_invented_types):
  valid_after_retry: false, floor true
  no_invented_types: [sparkline], floor []
missing recordings (strict replay answers them with empty text): answers/good.1.txt
first attempt's validation errors (1):
  body[0] unknown node type \"sparkline\""
        );
        assert_eq!(
            summarized(
                "the baseline moved:\n  s__report: totals.valid: 2 -> 1\n  s__report_text: the formatted report differs\nto accept it: ..."
            ),
            "the baseline moved (s__report, s__report_text):\n  s__report: totals.valid: 2 -> 1\n  s__report_text: the formatted report differs\nto accept it: ..."
        );
    }

    #[test]
    fn paths_are_named_by_file_and_long_lists_are_cut() {
        assert_eq!(
            summarized(
                "unusable:\n  /tmp/c/answers/a.0.txt: not UTF-8\n  /tmp/c/answers/b.1.txt: cut off"
            ),
            "unusable (a.0.txt, b.1.txt):\n  /tmp/c/answers/a.0.txt: not UTF-8\n  /tmp/c/answers/b.1.txt: cut off"
        );
        let items: String = (1..=8).map(|n| format!("\n  f{n}: x")).collect();
        assert_eq!(
            summarized(&format!("floors:{items}")),
            format!("floors (f1, f2, f3, f4, f5, f6, +2 more):{items}")
        );
    }

    #[test]
    fn a_line_that_is_no_heading_stays() {
        for message in [
            "case `good` did not complete: generate attempt 0 failed: offline",
            "missing recordings (strict replay answers them with empty text): answers/a.1.txt",
            "a heading with nothing under it:\nnext",
            "",
        ] {
            assert_eq!(summarized(message), message);
        }
    }
}
