//! Plain-text output of inline runs.

use super::inline::Run;

pub(super) fn write_plain_runs(runs: &[Run], out: &mut String) {
    for run in runs {
        match run {
            Run::Text(text) | Run::Code(text) => out.push_str(text),
            Run::Strong(inner) | Run::Emphasis(inner) => write_plain_runs(inner, out),
            Run::Link { label, .. } => write_plain_runs(label, out),
            Run::HardBreak => out.push(' '),
            Run::Autolink(autolink) => out.push_str(autolink.text()),
        }
    }
}
