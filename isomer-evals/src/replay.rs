//! Replaying recorded model output: a `generate` and a `judge` that answer
//! from files instead of calling a model, so a run is deterministic in CI.
//!
//! A [`Replay`] is built from [`Recordings`] (usually
//! [`crate::corpus::Corpus::read_recordings`]) and handed to `run_evals` as
//! its callbacks ([`Replay::generate`], [`Replay::judge`]). While the run
//! goes it notes where the recordings no longer match what the harness asks:
//!
//! - **missing recordings**: an attempt the harness asked for that has no
//!   answer file. The replay hands back an empty answer, which fails to
//!   parse, so the case scores as a model that said nothing (as the
//!   upstream `@elastic/isomer-evals` corpus test does).
//! - **stale judgments**: a case whose current text rendering differs from
//!   the one its verdict was given for. The recorded verdict is still
//!   returned. A case the harness asks to judge that has no recorded verdict
//!   is listed too, and is answered `no`, so the gap shows in the totals as
//!   well as in the list.
//!
//! Either list going non-empty means the recordings need re-recording (the
//! steps are in `corpus/slides/README.md` of this repository). Both lists
//! are sorted, so they do not depend on the order in which concurrent cases
//! finished.
//!
//! `Replay` is `Send + Sync`: `run_evals` runs cases concurrently and every
//! call goes through `&self`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde::{Deserialize, Serialize};

use crate::case::{AnswerabilityVerdict, Generate, GenerateRequest, Judge, JudgeRequest};
use crate::corpus::RecordedJudgment;

/// The recorded model output a [`Replay`] answers from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recordings {
    answers: BTreeMap<(String, u32), String>,
    judgments: BTreeMap<String, RecordedJudgment>,
}

impl Recordings {
    /// Recordings from answer texts keyed by (case id, attempt) and
    /// judgments keyed by case id.
    pub fn new(
        answers: BTreeMap<(String, u32), String>,
        judgments: BTreeMap<String, RecordedJudgment>,
    ) -> Self {
        Self { answers, judgments }
    }

    /// The recorded answer texts, keyed by (case id, attempt).
    pub fn answers(&self) -> &BTreeMap<(String, u32), String> {
        &self.answers
    }

    /// The recorded judgments, keyed by case id.
    pub fn judgments(&self) -> &BTreeMap<String, RecordedJudgment> {
        &self.judgments
    }
}

/// An attempt the harness asked for that has no recorded answer
/// (`answers/<case id>.<attempt>.txt` does not exist).
///
/// Serialized as `{ "caseId": "...", "attempt": 0 }`; ordered by case id,
/// then attempt.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissingRecording {
    /// The case's id.
    pub case_id: String,
    /// The attempt: `0` first, `1` the retry.
    pub attempt: u32,
}

impl fmt::Display for MissingRecording {
    /// Prints the answer file that is missing: `answers/<id>.<attempt>.txt`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "answers/{}.{}.txt", self.case_id, self.attempt)
    }
}

/// A `generate` and a `judge` over [`Recordings`], noting missing
/// recordings and stale judgments as they are asked for. See the module
/// docs.
#[derive(Debug, Default)]
pub struct Replay {
    recordings: Recordings,
    missing: Mutex<BTreeSet<MissingRecording>>,
    stale: Mutex<BTreeSet<String>>,
    prompt: Mutex<Option<Arc<str>>>,
}

/// Locks a mutex, recovering the data if another thread panicked while
/// holding it (the sets stay consistent: each update is one insert).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Replay {
    /// A replay over `recordings`, with nothing noted yet.
    pub fn new(recordings: Recordings) -> Self {
        Self {
            recordings,
            ..Self::default()
        }
    }

    /// The recorded answer to `request` (its case id and attempt).
    ///
    /// When none is recorded, returns the empty string (which fails to
    /// parse) and notes the pair in [`Replay::missing_recordings`]. Also
    /// keeps the shared prompt of the first request, for
    /// [`Replay::prompt`].
    pub fn replay_generate(&self, request: &GenerateRequest) -> String {
        {
            let mut prompt = lock(&self.prompt);
            if prompt.is_none() {
                *prompt = Some(Arc::clone(&request.prompt));
            }
        }
        self.answer(&request.eval_case.id, request.attempt)
    }

    /// The recorded answer to `attempt` of case `case_id`, or the empty
    /// string with the pair noted as missing.
    pub fn answer(&self, case_id: &str, attempt: u32) -> String {
        match self.recordings.answers.get(&(case_id.to_owned(), attempt)) {
            Some(text) => text.clone(),
            None => {
                lock(&self.missing).insert(MissingRecording {
                    case_id: case_id.to_owned(),
                    attempt,
                });
                String::new()
            }
        }
    }

    /// The recorded verdict for `request`'s case.
    ///
    /// When the recorded rendering differs from `request.rendered`, the
    /// verdict is still returned and the case is noted in
    /// [`Replay::stale_judgments`]. When no verdict is recorded, returns
    /// [`AnswerabilityVerdict::No`] and notes the case as stale.
    pub fn replay_judge(&self, request: &JudgeRequest) -> AnswerabilityVerdict {
        self.verdict(&request.eval_case.id, &request.rendered)
    }

    /// The recorded verdict for case `case_id` judged on `rendered`; see
    /// [`Replay::replay_judge`].
    pub fn verdict(&self, case_id: &str, rendered: &str) -> AnswerabilityVerdict {
        match self.recordings.judgments.get(case_id) {
            Some(judgment) => {
                if judgment.rendered != rendered {
                    lock(&self.stale).insert(case_id.to_owned());
                }
                judgment.verdict
            }
            None => {
                lock(&self.stale).insert(case_id.to_owned());
                AnswerabilityVerdict::No
            }
        }
    }

    /// This replay as `run_evals`' `generate` callback (never fails).
    pub fn generate(&self) -> Generate<'_> {
        Generate::new(move |request: GenerateRequest| {
            let text = self.replay_generate(&request);
            async move { Ok(text) }
        })
    }

    /// This replay as `run_evals`' `judge` callback (never fails).
    pub fn judge(&self) -> Judge<'_> {
        Judge::new(move |request: JudgeRequest| {
            let verdict = self.replay_judge(&request);
            async move { Ok(verdict) }
        })
    }

    /// The attempts asked for so far that have no recording, sorted by case
    /// id then attempt.
    pub fn missing_recordings(&self) -> Vec<MissingRecording> {
        lock(&self.missing).iter().cloned().collect()
    }

    /// The cases judged so far whose rendering differs from the recorded one
    /// or that have no recorded verdict, sorted by id (byte order).
    pub fn stale_judgments(&self) -> Vec<String> {
        lock(&self.stale).iter().cloned().collect()
    }

    /// The shared authoring prompt of the first `generate` request: the exact
    /// text `run_evals` built, which `prompt.txt` must equal. `None` before
    /// any request.
    pub fn prompt(&self) -> Option<Arc<str>> {
        lock(&self.prompt).clone()
    }

    /// The recordings this replay answers from.
    pub fn recordings(&self) -> &Recordings {
        &self.recordings
    }
}
