//! Recorded agent runs: step transcripts on disk, and [`AgentReplay`], a
//! step that answers from them so an agent run is deterministic in CI.
//!
//! # Format
//!
//! An agent corpus directory holds `corpus.json` (the same manifest as a
//! single-shot corpus: `provenance` and `cases` with `id`, `prompt` and
//! optional `expected`) and one transcript per recorded run,
//! `transcripts/<case id>.<repeat>.json`:
//!
//! ```json
//! { "turns": [
//!   { "text": "", "toolCalls": [{ "id": "c1", "name": "isomer_authoring_guide", "input": {} }],
//!     "usage": { "inputTokens": 900, "outputTokens": 40 },
//!     "toolResults": [{ "callId": "c1", "name": "isomer_authoring_guide",
//!                       "content": [{ "type": "text", "text": "..." }] }] },
//!   { "text": "{\"type\":\"view\", ...}", "toolCalls": [], "usage": { ... } }
//! ] }
//! ```
//!
//! Turn `n` of the list is what the model answered on turn `n` (its text,
//! tool calls, usage and optional provider `raw`). `toolResults`, when
//! present, is what the tools answered to that turn's calls when it was
//! recorded: the replay compares it with what the tools answer now.
//!
//! # What a replay notes
//!
//! - **missing turns**: a (case, repeat, turn) the run asked for that has
//!   no recorded turn. The replay answers an empty turn (no text, no tool
//!   call), which ends the run on an empty answer that fails to parse, as a
//!   missing single-shot recording does.
//! - **stale turns**: a turn whose preceding tool results differ from the
//!   recorded `toolResults` of the turn before: the tools changed since the
//!   recording, so the recorded turn answers results the model never saw
//!   this time. The recorded turn is still replayed.
//!
//! Either list going non-empty means the transcripts need re-recording.
//! Both are sorted.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::agent::types::{
    AgentMessage, AgentStep, AgentStepRequest, AgentStepResult, AgentToolCall, AgentToolResult,
};
use crate::case::AgentUsage;
use crate::corpus::NOT_UTF8;
use crate::recordings::RecordingFault;
pub(crate) use isomer_corpus::TRANSCRIPTS_DIR;
use isomer_corpus::{Position, decode_utf8};

/// One recorded model turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RecordedTurn {
    /// The turn's text.
    #[serde(default)]
    pub text: String,
    /// The turn's tool calls; none on the answer.
    #[serde(default)]
    pub tool_calls: Vec<AgentToolCall>,
    /// Tokens the turn spent.
    #[serde(default)]
    pub usage: AgentUsage,
    /// The provider's own value for the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<Value>,
    /// What the tools answered to this turn's calls when it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_results: Option<Vec<AgentToolResult>>,
}

impl RecordedTurn {
    /// The turn as a step answers it.
    pub fn to_step_result(&self) -> AgentStepResult {
        AgentStepResult {
            text: self.text.clone(),
            tool_calls: self.tool_calls.clone(),
            usage: self.usage,
            raw: self.raw.clone(),
        }
    }
}

/// One recorded run: `transcripts/<case id>.<repeat>.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RecordedRun {
    /// The turns, in order.
    pub turns: Vec<RecordedTurn>,
}

impl RecordedRun {
    /// The transcript's file text: the format above, two-space indented as `serde_json`'s
    /// pretty printer writes it, with a final newline (what record mode writes, and what
    /// [`read_agent_recordings`] reads back equal).
    pub fn to_text(&self) -> String {
        // A transcript serializes without error: its keys are strings and its numbers
        // finite.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// Recorded runs keyed by (case id, repeat).
pub(crate) type AgentRecordings = BTreeMap<(String, u32), RecordedRun>;

/// A transcript file that could not be read, and why: the one fault type of a recorded
/// file ([`RecordingFault`]), so a transcript that is not UTF-8 reads
/// `transcripts/a.0.json:1:1: is not UTF-8 text (first invalid byte here)`, the words and
/// position a corpus's answers and `judgments.json` get.
pub(crate) type AgentRecordingError = RecordingFault;

/// Reads every `transcripts/<case id>.<repeat>.json` under the corpus
/// directory `dir`. A missing `transcripts` directory reads as no
/// recording.
///
/// # Errors
///
/// Every file that cannot be read, is not named `<id>.<repeat>.json`
/// (`repeat` a decimal number), or is not a transcript (serde's message,
/// with line and column), each with its path.
pub(crate) fn read_agent_recordings(
    dir: &Path,
) -> Result<AgentRecordings, Vec<AgentRecordingError>> {
    let transcripts = dir.join(TRANSCRIPTS_DIR);
    if !transcripts.is_dir() {
        return Ok(AgentRecordings::new());
    }
    let entries = match std::fs::read_dir(&transcripts) {
        Ok(entries) => entries,
        Err(error) => {
            return Err(vec![AgentRecordingError {
                path: transcripts,
                position: None,
                message: error.to_string(),
            }]);
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    // A file listed a moment ago and gone now reads as if it had never been recorded.
    read_transcripts(paths.into_iter().map(|path| match transcript_key(&path) {
        Some(key) => Ok((key, path)),
        None => Err(AgentRecordingError {
            path,
            position: None,
            message: "is not named <case id>.<repeat>.json (repeat a number from 0)".to_owned(),
        }),
    }))
}

/// Reads the transcripts of one case, `transcripts/<case_id>.<r>.json` for
/// `r` in `0..repeat`, opening no other file and listing no directory (a
/// gate's per-case trial reads only its own case). A transcript that does
/// not exist is left out, so its turns replay as missing.
///
/// # Errors
///
/// Every file that exists but cannot be read or is not a transcript, each
/// with its path, as [`read_agent_recordings`] reports them.
pub(crate) fn read_agent_case_recordings(
    dir: &Path,
    case_id: &str,
    repeat: u32,
) -> Result<AgentRecordings, Vec<AgentRecordingError>> {
    let transcripts = dir.join(TRANSCRIPTS_DIR);
    let keyed = (0..repeat.max(1)).map(|r| {
        let path = transcripts.join(isomer_corpus::transcript_file_name(case_id, r));
        Ok(((case_id.to_owned(), r), path))
    });
    read_transcripts(keyed)
}

/// Reads the transcript of each `(key, path)`, in order, leaving out a file that does not
/// exist; fails with every fault: each `Err` given (a file named for no key), each file
/// that cannot be read or is not a transcript.
fn read_transcripts(
    keyed: impl IntoIterator<Item = Result<((String, u32), PathBuf), AgentRecordingError>>,
) -> Result<AgentRecordings, Vec<AgentRecordingError>> {
    let mut recordings = AgentRecordings::new();
    let mut errors = Vec::new();
    for keyed in keyed {
        let read = keyed.and_then(|(key, path)| Ok(read_transcript(&path)?.map(|run| (key, run))));
        match read {
            Ok(Some((key, run))) => {
                recordings.insert(key, run);
            }
            Ok(None) => {}
            Err(error) => errors.push(error),
        }
    }
    if errors.is_empty() {
        Ok(recordings)
    } else {
        Err(errors)
    }
}

/// Reads one transcript file; `Ok(None)` when it does not exist. Fails with the
/// operating system's error when it cannot be read, with the position of the first
/// invalid byte when it is not UTF-8 ([`crate::corpus::decode_utf8`], the decoding and
/// words the corpus files get), and with serde's message (line and column included)
/// when it is not a transcript.
fn read_transcript(path: &Path) -> Result<Option<RecordedRun>, AgentRecordingError> {
    let fault = |position: Option<Position>, message: String| AgentRecordingError {
        path: path.to_owned(),
        position,
        message,
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(fault(None, error.to_string())),
    };
    let text = decode_utf8(bytes).map_err(|position| fault(Some(position), NOT_UTF8.to_owned()))?;
    serde_json::from_str::<RecordedRun>(&text)
        .map(Some)
        .map_err(|error| fault(None, format!("is not a transcript: {error}")))
}

fn transcript_key(path: &Path) -> Option<(String, u32)> {
    let name = path.file_name()?.to_str()?;
    let (id, repeat) = isomer_corpus::parse_transcript_file_name(name)?;
    Some((id.to_owned(), repeat))
}

/// A recorded turn the run asked for and did not find, or one whose
/// preceding tool results no longer match the recording.
///
/// Serialized as `{ "caseId", "repeat", "turn" }`; ordered by case id,
/// repeat, then turn.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TurnKey {
    /// The case's id.
    pub case_id: String,
    /// The run of the case.
    pub repeat: u32,
    /// The turn, from `0`.
    pub turn: u32,
}

impl fmt::Display for TurnKey {
    /// Prints the transcript and the turn: `transcripts/<id>.<repeat>.json turn <n>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{TRANSCRIPTS_DIR}/{}.{}.json turn {}",
            self.case_id, self.repeat, self.turn
        )
    }
}

/// A step over the recorded runs, noting missing and stale turns as it is
/// asked. `Send + Sync`: runs may go concurrently. See the module docs.
#[derive(Debug, Default)]
pub(crate) struct AgentReplay {
    recordings: AgentRecordings,
    missing: Mutex<BTreeSet<TurnKey>>,
    stale: Mutex<BTreeSet<TurnKey>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl AgentReplay {
    /// A replay over `recordings`, with nothing noted yet.
    pub fn new(recordings: AgentRecordings) -> Self {
        AgentReplay {
            recordings,
            ..AgentReplay::default()
        }
    }

    /// The recordings it answers from.
    pub fn recordings(&self) -> &AgentRecordings {
        &self.recordings
    }

    /// The recorded turn for `request` (its case id, repeat and turn); an
    /// empty turn, noted as missing, when there is none. Notes the turn as
    /// stale when the tool results at the end of `request.messages` differ
    /// from the previous turn's recorded `toolResults`.
    pub fn replay_step(&self, request: &AgentStepRequest) -> AgentStepResult {
        let key = TurnKey {
            case_id: request.eval_case.id.clone(),
            repeat: request.repeat,
            turn: request.turn,
        };
        let run = self.recordings.get(&(key.case_id.clone(), key.repeat));
        if let (Some(run), Some(previous)) = (run, request.turn.checked_sub(1)) {
            let recorded = run
                .turns
                .get(previous as usize)
                .and_then(|turn| turn.tool_results.as_ref());
            let received = match request.messages.last() {
                Some(AgentMessage::Tool { results }) => Some(results),
                _ => None,
            };
            if let (Some(recorded), Some(received)) = (recorded, received)
                && recorded != received
            {
                lock(&self.stale).insert(key.clone());
            }
        }
        match run.and_then(|run| run.turns.get(request.turn as usize)) {
            Some(turn) => turn.to_step_result(),
            None => {
                lock(&self.missing).insert(key);
                AgentStepResult::default()
            }
        }
    }

    /// The replay as the step of `run_agent_evals`.
    pub fn step(&self) -> AgentStep<'_> {
        AgentStep::new(move |request| {
            let result = self.replay_step(&request);
            async move { Ok(result) }
        })
    }

    /// The turns asked for that had no recording, sorted.
    pub fn missing_turns(&self) -> Vec<TurnKey> {
        lock(&self.missing).iter().cloned().collect()
    }

    /// The turns whose preceding tool results no longer match the
    /// recording, sorted.
    pub fn stale_turns(&self) -> Vec<TurnKey> {
        lock(&self.stale).iter().cloned().collect()
    }
}

#[cfg(test)]
mod transcript_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_names_carry_the_case_id_and_the_repeat() {
        assert_eq!(
            transcript_key(Path::new("t/ledger.title.0.json")),
            Some(("ledger.title".to_owned(), 0))
        );
        assert_eq!(
            transcript_key(Path::new("t/a.12.json")),
            Some(("a".to_owned(), 12))
        );
        assert_eq!(transcript_key(Path::new("t/a.json")), None);
        assert_eq!(transcript_key(Path::new("t/a.x.json")), None);
        assert_eq!(transcript_key(Path::new("t/a.-1.json")), None);
        assert_eq!(transcript_key(Path::new("t/.0.json")), None);
        assert_eq!(transcript_key(Path::new("t/a.0.txt")), None);
    }

    #[test]
    fn a_case_reader_opens_only_that_cases_transcripts() {
        let dir =
            std::env::temp_dir().join(format!("isomer-case-transcripts-{}", std::process::id()));
        let transcripts = dir.join(TRANSCRIPTS_DIR);
        std::fs::create_dir_all(&transcripts).unwrap();
        std::fs::write(
            transcripts.join("a.0.json"),
            r#"{"turns": [{"text": "{}"}]}"#,
        )
        .unwrap();
        std::fs::write(transcripts.join("a.2.json"), "{").unwrap();
        std::fs::write(transcripts.join("b.0.json"), "not read").unwrap();
        std::fs::write(
            transcripts.join("u.0.json"),
            b"{\"turns\": [\n  {\"text\": \"caf\xe9\"}]}",
        )
        .unwrap();
        let one = read_agent_case_recordings(&dir, "a", 1).unwrap();
        assert_eq!(one.keys().collect::<Vec<_>>(), [&("a".to_owned(), 0)]);
        assert_eq!(one[&("a".to_owned(), 0)].turns[0].text, "{}");
        let errors = read_agent_case_recordings(&dir, "a", 3).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].path, transcripts.join("a.2.json"));
        assert_eq!(
            errors[0].message,
            "is not a transcript: EOF while parsing an object at line 1 column 1"
        );
        assert!(read_agent_case_recordings(&dir, "c", 1).unwrap().is_empty());
        // Not UTF-8: the position of the first invalid byte, in the corpus files' words.
        let errors = read_agent_case_recordings(&dir, "u", 1).unwrap_err();
        assert_eq!(
            errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
            [format!(
                "{}:2:16: is not UTF-8 text (first invalid byte here)",
                transcripts.join("u.0.json").display()
            )]
        );
        let errors = read_agent_recordings(&dir).unwrap_err();
        assert_eq!(
            errors.last().map(ToString::to_string),
            Some(format!(
                "{}:2:16: is not UTF-8 text (first invalid byte here)",
                transcripts.join("u.0.json").display()
            ))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_turns_display_as_the_transcript_and_turn() {
        let key = TurnKey {
            case_id: "a".into(),
            repeat: 1,
            turn: 3,
        };
        assert_eq!(key.to_string(), "transcripts/a.1.json turn 3");
    }
}
