//! The files of a corpus directory and how they are named.
//!
//! | path | what |
//! |---|---|
//! | `corpus.json` | the cases ([`crate::manifest`]) |
//! | `prompt.txt` | the shared authoring prompt the answers were written from |
//! | `answers/<case id>.<attempt>.txt` | the raw model text of one attempt of a single-shot case |
//! | `judgments.json` | the recorded answerability verdicts ([`crate::judgments`]) |
//! | `transcripts/<case id>.<repeat>.json` | one recorded run of an agent case |
//!
//! An answer file holds the model text exactly as it was sent (code fence and all):
//! attempt `0` is the first try, `1` the single retry a run asks for when the first is not
//! valid. No other attempt exists, so no other answer name is accepted.
//!
//! # Repeats
//!
//! A suite that runs each case several times (`repeat = n`) records each run under its
//! *recording name* ([`recording_name`]): the case id for repeat `0`, and `<id>.r<k>` for
//! repeat `k` from `1`. So repeat 2 of `chart-q3` has its answers in
//! `answers/chart-q3.r2.0.txt` and `answers/chart-q3.r2.1.txt` and its verdict under
//! `"id": "chart-q3.r2"` in `judgments.json`, while repeat 0 keeps the names a corpus
//! without repeats has (`answers/chart-q3.0.txt`, `"id": "chart-q3"`): adding repeats to a
//! recorded corpus moves no file. A case id cannot hold a `.`, so the two never collide.

/// True when `id` can name a case: non-empty ASCII letters, digits, `-` and
/// `_` (safe as a file name on every OS, and in a test name).
pub fn is_case_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// The manifest's file name inside a corpus directory.
pub const MANIFEST_FILE: &str = "corpus.json";
/// The shared prompt's file name inside a corpus directory.
pub const PROMPT_FILE: &str = "prompt.txt";
/// The answers directory's name inside a corpus directory.
pub const ANSWERS_DIR: &str = "answers";
/// The judgments' file name inside a corpus directory.
pub const JUDGMENTS_FILE: &str = "judgments.json";
/// The transcripts directory's name inside an agent corpus directory.
pub const TRANSCRIPTS_DIR: &str = "transcripts";

/// The name run `repeat` of case `id` is recorded under (see [Repeats](self#repeats)):
/// `id` itself for repeat `0`, `<id>.r<repeat>` otherwise.
pub fn recording_name(id: &str, repeat: u32) -> String {
    if repeat == 0 {
        id.to_owned()
    } else {
        format!("{id}.r{repeat}")
    }
}

/// Reads a recording name back into its case id and repeat: `None` unless it is a valid
/// case id (see [`is_case_id`]; repeat `0`) or `<id>.r<k>` with a valid case id and `k` a
/// decimal number from `1` without leading zeros that fits a `u32`.
pub fn parse_recording_name(name: &str) -> Option<(&str, u32)> {
    let Some((id, repeat)) = name.split_once('.') else {
        return is_case_id(name).then_some((name, 0));
    };
    let digits = repeat.strip_prefix('r')?;
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let repeat = digits.parse().ok()?;
    is_case_id(id).then_some((id, repeat))
}

/// The file name of the answer to `attempt` of the run recorded as `recording` (a case
/// id, or a [`recording_name`] of a later repeat): `<recording>.<attempt>.txt`.
pub fn answer_file_name(recording: &str, attempt: u32) -> String {
    format!("{recording}.{attempt}.txt")
}

/// Reads an answer file name back into its recording name and attempt.
///
/// `None` unless the name is `<recording>.<attempt>.txt` with a recording name that
/// [`parse_recording_name`] reads and attempt `0` or `1`.
pub fn parse_answer_file_name(name: &str) -> Option<(&str, u32)> {
    let stem = name.strip_suffix(".txt")?;
    let (recording, attempt) = stem.rsplit_once('.')?;
    let attempt = match attempt {
        "0" => 0,
        "1" => 1,
        _ => return None,
    };
    parse_recording_name(recording).map(|_| (recording, attempt))
}

/// The file name of run `repeat` of agent case `id`: `<id>.<repeat>.json`.
pub fn transcript_file_name(id: &str, repeat: u32) -> String {
    format!("{id}.{repeat}.json")
}

/// Reads a transcript file name back into its case id and repeat: `None` unless the name
/// is `<id>.<repeat>.json` with a non-empty id and a repeat of decimal digits that fits a
/// `u32`.
pub fn parse_transcript_file_name(name: &str) -> Option<(&str, u32)> {
    let stem = name.strip_suffix(".json")?;
    let (id, repeat) = stem.rsplit_once('.')?;
    if id.is_empty() || repeat.is_empty() || !repeat.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((id, repeat.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_ids_are_file_safe() {
        assert!(is_case_id("quarterly-revenue_2"));
        assert!(!is_case_id(""));
        assert!(!is_case_id("a/b"));
        assert!(!is_case_id("a.b"));
        assert!(!is_case_id("naïve"));
    }

    #[test]
    fn names_round_trip() {
        assert_eq!(answer_file_name("kpi-board", 1), "kpi-board.1.txt");
        assert_eq!(
            parse_answer_file_name("kpi-board.1.txt"),
            Some(("kpi-board", 1))
        );
        assert_eq!(
            parse_answer_file_name("kpi_board.0.txt"),
            Some(("kpi_board", 0))
        );
    }

    #[test]
    fn later_repeats_are_recorded_under_their_own_names() {
        assert_eq!(recording_name("kpi-board", 0), "kpi-board");
        assert_eq!(recording_name("kpi-board", 2), "kpi-board.r2");
        assert_eq!(
            answer_file_name(&recording_name("kpi-board", 2), 1),
            "kpi-board.r2.1.txt"
        );
        assert_eq!(parse_recording_name("kpi-board"), Some(("kpi-board", 0)));
        assert_eq!(
            parse_recording_name("kpi-board.r12"),
            Some(("kpi-board", 12))
        );
        assert_eq!(
            parse_answer_file_name("kpi-board.r2.1.txt"),
            Some(("kpi-board.r2", 1))
        );
        for name in [
            "kpi-board.r0",
            "kpi-board.r01",
            "kpi-board.r",
            "kpi-board.2",
            "a.r1.r2",
            ".r1",
        ] {
            assert_eq!(parse_recording_name(name), None, "{name}");
        }
    }

    #[test]
    fn refuses_names_no_replay_reads() {
        for name in [
            "kpi-board.2.txt",
            "kpi-board.txt",
            "kpi-board.0.md",
            ".0.txt",
            "a.b.0.txt",
            ".gitkeep",
            "kpi-board.01.txt",
            "kpi-board.r0.0.txt",
            "kpi-board.r1.2.txt",
        ] {
            assert_eq!(parse_answer_file_name(name), None, "{name}");
        }
    }

    #[test]
    fn transcript_names_carry_the_case_id_and_the_repeat() {
        assert_eq!(transcript_file_name("ledger", 2), "ledger.2.json");
        assert_eq!(
            parse_transcript_file_name("ledger.title.0.json"),
            Some(("ledger.title", 0))
        );
        assert_eq!(parse_transcript_file_name("a.12.json"), Some(("a", 12)));
        for name in ["a.json", "a.x.json", "a.-1.json", ".0.json", "a.0.txt"] {
            assert_eq!(parse_transcript_file_name(name), None, "{name}");
        }
    }
}
