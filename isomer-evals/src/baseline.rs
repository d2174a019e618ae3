//! The baseline of a recorded corpus: what a replayed run produced, as data
//! to commit and compare.
//!
//! A [`Baseline`] holds, for one run of `run_evals` over a corpus replayed from its
//! [`Recordings`]:
//!
//! | part | what | snapshot (suite `slides`) |
//! |---|---|---|
//! | `report` | the [`EvalReport`]: every case's scores and the totals | `slides__report` (JSON) |
//! | `report_text` | [`format_report`] of it | `slides__report_text` |
//! | `prompt_sha256` | SHA-256 (lowercase hex) of the prompt the harness built | `slides__baseline` (JSON) |
//! | `missing_recordings` | attempts asked for with no answer file | `slides__baseline` |
//! | `stale_judgments` | cases whose rendering no longer matches the judged one | `slides__baseline` |
//!
//! and [`check_prompt`] says whether the built prompt equals the corpus's
//! `prompt.txt`, the text every answer was written from.
//!
//! Everything here is pure: this module reads no file and writes none. An
//! eval gate's `totals` trial compares the parts with the committed snapshot
//! files (see [`crate::harness`]), so a change that moves a number fails
//! until the baseline is accepted, and the accepted diff shows what moved.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::recordings::{MissingRecording, Recordings};
use crate::{EvalReport, format_report};

/// The SHA-256 of `prompt`'s UTF-8 bytes, as 64 lowercase hex digits.
pub(crate) fn prompt_sha256(prompt: &str) -> String {
    let digest = Sha256::digest(prompt.as_bytes());
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The part of a baseline that is neither the report nor its text:
/// `{ "promptSha256", "missingRecordings", "staleJudgments" }` (upstream
/// `baseline.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BaselineRecord {
    /// SHA-256 (lowercase hex) of the prompt the harness built.
    pub(crate) prompt_sha256: String,
    /// Attempts the run asked for that have no recording, sorted.
    pub(crate) missing_recordings: Vec<MissingRecording>,
    /// Cases whose text rendering differs from the judged one, or that have
    /// no recorded verdict, sorted.
    pub(crate) stale_judgments: Vec<String>,
}

impl BaselineRecord {
    /// The record of a run that built `prompt` and replayed `recordings`: the prompt's
    /// hash and the recording lists, each case listed once in `staleJudgments`.
    pub(crate) fn new(prompt: &str, recordings: &Recordings) -> Self {
        let mut stale: Vec<String> = recordings
            .stale_judgments()
            .into_iter()
            .map(|stale| stale.case_id)
            .collect();
        stale.dedup();
        BaselineRecord {
            prompt_sha256: prompt_sha256(prompt),
            missing_recordings: recordings.missing_recordings(),
            stale_judgments: stale,
        }
    }
}

/// What a replayed run of a corpus produced; see the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    /// The report: every case's scores, and the totals.
    pub report: EvalReport,
    /// `format_report(&report)`.
    pub report_text: String,
    /// The prompt hash and the two recording lists, committed as the `<suite>__baseline`
    /// snapshot (see the module docs).
    pub(crate) record: BaselineRecord,
}

impl Baseline {
    /// The baseline of a run: its `report`, the `prompt` the harness built
    /// (see [`crate::eval_prompt`]; the same text [`Recordings::prompt`] saw),
    /// and what `recordings` noted while the run went.
    pub fn new(report: EvalReport, prompt: &str, recordings: &Recordings) -> Self {
        let report_text = format_report(&report);
        let record = BaselineRecord::new(prompt, recordings);
        Self {
            report,
            report_text,
            record,
        }
    }

    /// True when every attempt asked for was recorded and every judgment
    /// matches its rendering: the recordings fit the harness.
    pub fn recordings_match(&self) -> bool {
        self.record.missing_recordings.is_empty() && self.record.stale_judgments.is_empty()
    }
}

/// Why the built prompt is not the recorded `prompt.txt`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PromptMismatch {
    /// Occurs when the corpus has no `prompt.txt` (its answers cannot have
    /// been written from the built prompt).
    Missing,
    /// Occurs when `prompt.txt` differs from the built prompt.
    Differs {
        /// The first line (from 1) where they differ (lines split at `\n`).
        line: usize,
        /// The first column (from 1, in characters) where that line differs.
        column: usize,
        /// Up to 60 characters of the built prompt's line from 20 characters
        /// before the difference (`None` past the text's end).
        built: Option<String>,
        /// The same excerpt of `prompt.txt` (`None` past its end).
        recorded: Option<String>,
    },
    /// Occurs when `prompt.txt` and the built prompt have the same text but
    /// end some lines differently (`\r\n` on one side, `\n` on the other):
    /// the answers were written from this text, and a checkout converted the
    /// line endings (git's `core.autocrlf` on Windows, for one).
    LineEndings {
        /// The first line (from 1, lines split at `\n`) whose ending differs.
        line: usize,
        /// True when the recording ends that line with `\r\n` and the built
        /// prompt with `\n`; false for the other way round.
        recorded_crlf: bool,
    },
}

impl fmt::Display for PromptMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |excerpt: &Option<String>| match excerpt {
            Some(text) => serde_json::Value::String(text.clone()).to_string(),
            None => "end of text".to_owned(),
        };
        match self {
            Self::Missing => f.write_str(
                "prompt.txt is missing; write it from the prompt the harness builds before recording answers",
            ),
            Self::Differs { line, column, built, recorded } => write!(
                f,
                "prompt.txt differs from the prompt the harness builds at line {line}, column {column}: built {}, recorded {}; the answers were written from another prompt, so re-record them",
                show(built),
                show(recorded)
            ),
            Self::LineEndings { line, recorded_crlf: true } => write!(
                f,
                "prompt.txt differs from the prompt the harness builds only in line endings, from line {line}: the recording ends lines with CRLF, the built prompt with LF; the answers need no re-recording: check the corpus out with LF line endings (the repository's .gitattributes marks corpus files -text; after adding it, check the files out again)"
            ),
            Self::LineEndings { line, recorded_crlf: false } => write!(
                f,
                "prompt.txt differs from the prompt the harness builds only in line endings, from line {line}: the built prompt ends lines with CRLF, the recording with LF; the answers need no re-recording: check out the files the prompt is built from (guides, rules) with LF line endings"
            ),
        }
    }
}

impl std::error::Error for PromptMismatch {}

/// Characters of the excerpt shown before the first difference.
const EXCERPT_BEFORE: usize = 20;
/// Characters of the excerpt in all.
const EXCERPT_LEN: usize = 60;

/// Checks that `built` (the prompt the harness builds) equals `recorded`
/// (the corpus's `prompt.txt`, `None` when absent), byte for byte.
///
/// On a difference, names the first differing line and column, with an
/// excerpt of each side around it; when the two differ only in `\r\n`
/// versus `\n` line endings, says so instead ([`PromptMismatch::LineEndings`]),
/// since the answers were then written from the same text.
pub fn check_prompt(built: &str, recorded: Option<&str>) -> Result<(), PromptMismatch> {
    let Some(recorded) = recorded else {
        return Err(PromptMismatch::Missing);
    };
    if built == recorded {
        return Ok(());
    }
    if same_but_line_endings(built, recorded) {
        let (line, recorded_crlf) = built
            .split('\n')
            .zip(recorded.split('\n'))
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map_or((1, false), |(index, (_, b))| (index + 1, b.ends_with('\r')));
        return Err(PromptMismatch::LineEndings {
            line,
            recorded_crlf,
        });
    }
    let mut built_lines = built.split('\n');
    let mut recorded_lines = recorded.split('\n');
    let mut line = 1;
    loop {
        match (built_lines.next(), recorded_lines.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (a, b) => {
                let same = match (a, b) {
                    (Some(a), Some(b)) => {
                        a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
                    }
                    _ => 0,
                };
                let start = same.saturating_sub(EXCERPT_BEFORE);
                let excerpt = |text: &str| text.chars().skip(start).take(EXCERPT_LEN).collect();
                return Err(PromptMismatch::Differs {
                    line,
                    column: same + 1,
                    built: a.map(excerpt),
                    recorded: b.map(excerpt),
                });
            }
        }
    }
}

/// Whether `a` and `b` are equal once every `\r\n` is read as `\n`.
fn same_but_line_endings(a: &str, b: &str) -> bool {
    let lf = |text: &str| text.replace("\r\n", "\n");
    lf(a) == lf(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The record of a replay that asked for two attempts without a file, judged one case
    /// against an older rendering and one that has no verdict: the prompt's hash and the
    /// two lists, as the `<suite>__baseline` snapshot holds them.
    #[test]
    fn the_record_holds_the_prompt_hash_and_the_recording_lists() {
        let dir = tempfile::tempdir().unwrap();
        let judgments = serde_json::json!({
            "provenance": {"author": "baseline.rs"},
            "judgments": [{"id": "stale", "verdict": "yes", "rendered": "stat"}]
        });
        std::fs::write(dir.path().join("judgments.json"), judgments.to_string()).unwrap();
        let recordings = Recordings::new(dir.path());
        assert_eq!(recordings.answer("silent", 0).unwrap(), "");
        assert_eq!(recordings.answer("silent", 1).unwrap(), "");
        assert!(recordings.verdict("stale", "stat\nstat").is_ok());
        assert!(recordings.verdict("unjudged", "callout\nstat").is_err());

        let prompt = "Author one view.";
        let record = BaselineRecord::new(prompt, &recordings);
        assert_eq!(record.prompt_sha256, prompt_sha256(prompt));
        assert_eq!(record.prompt_sha256.len(), 64);
        assert_eq!(
            serde_json::to_value(&record).unwrap(),
            serde_json::json!({
                "promptSha256": prompt_sha256(prompt),
                "missingRecordings": [
                    {"caseId": "silent", "attempt": 0},
                    {"caseId": "silent", "attempt": 1}
                ],
                "staleJudgments": ["stale", "unjudged"]
            })
        );
    }

    #[test]
    fn prompt_sha256_is_lowercase_hex_of_the_bytes() {
        // The SHA-256 of the empty string and of "abc" (FIPS 180-2 vectors).
        assert_eq!(
            prompt_sha256(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            prompt_sha256("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn check_prompt_names_the_first_differing_line() {
        assert_eq!(check_prompt("a\nb", Some("a\nb")), Ok(()));
        assert_eq!(check_prompt("a", None), Err(PromptMismatch::Missing));
        let mismatch = check_prompt("a\nb\nc", Some("a\nx\nc")).unwrap_err();
        assert_eq!(
            mismatch,
            PromptMismatch::Differs {
                line: 2,
                column: 1,
                built: Some("b".into()),
                recorded: Some("x".into())
            }
        );
        assert_eq!(
            mismatch.to_string(),
            "prompt.txt differs from the prompt the harness builds at line 2, column 1: built \"b\", recorded \"x\"; the answers were written from another prompt, so re-record them"
        );
        // A long line shows where it differs, not its shared start.
        let long = |tail: &str| format!("{}{tail}", "x".repeat(100));
        assert_eq!(
            check_prompt(&long("abc"), Some(&long("abd"))),
            Err(PromptMismatch::Differs {
                line: 1,
                column: 103,
                built: Some(format!("{}abc", "x".repeat(18))),
                recorded: Some(format!("{}abd", "x".repeat(18))),
            })
        );
        // A trailing newline in the file is a difference too.
        assert_eq!(
            check_prompt("a", Some("a\n")),
            Err(PromptMismatch::Differs {
                line: 2,
                column: 1,
                built: None,
                recorded: Some(String::new())
            })
        );
    }

    #[test]
    fn check_prompt_names_a_line_ending_difference_as_such() {
        let crlf = check_prompt(
            "# View authoring\nUse kpi.\n",
            Some("# View authoring\r\nUse kpi.\r\n"),
        )
        .unwrap_err();
        assert_eq!(
            crlf,
            PromptMismatch::LineEndings {
                line: 1,
                recorded_crlf: true
            }
        );
        assert_eq!(
            crlf.to_string(),
            "prompt.txt differs from the prompt the harness builds only in line endings, from line 1: the recording ends lines with CRLF, the built prompt with LF; the answers need no re-recording: check the corpus out with LF line endings (the repository's .gitattributes marks corpus files -text; after adding it, check the files out again)"
        );
        let built_crlf = check_prompt("a\nb\r\nc", Some("a\nb\nc")).unwrap_err();
        assert_eq!(
            built_crlf,
            PromptMismatch::LineEndings {
                line: 2,
                recorded_crlf: false
            }
        );
        assert_eq!(
            built_crlf.to_string(),
            "prompt.txt differs from the prompt the harness builds only in line endings, from line 2: the built prompt ends lines with CRLF, the recording with LF; the answers need no re-recording: check out the files the prompt is built from (guides, rules) with LF line endings"
        );
        // A text change beside CRLF endings is a text change (re-record), and a lone `\r`
        // is not a line ending: each recording differs from `a\nb` in its first line.
        for (recorded, recorded_line) in [("a\r\nc", "a\r"), ("a\rb", "a\rb")] {
            assert_eq!(
                check_prompt("a\nb", Some(recorded)),
                Err(PromptMismatch::Differs {
                    line: 1,
                    column: 2,
                    built: Some("a".into()),
                    recorded: Some(recorded_line.into())
                }),
                "recorded {recorded:?}"
            );
        }
    }
}
