//! Record mode for agent suites: `ISOMER_EVAL_RECORD=missing|all` makes a trial call the
//! suite's live `step` for the runs whose transcript is missing (or for all), and write
//! each run's transcript, once the run has ended, in the replay format
//! (`transcripts/<case id>.<repeat>.json`, through [`RecordedRun::to_text`]): written
//! whole and renamed into place, so a run whose step fails leaves the recorded transcript
//! as it was.
//!
//! A run is recorded under its own lock, held from its first turn to its last, so trials of
//! one process running the same case at once record it once: the later one replays it.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde_json::Value;

use super::record::{PROVENANCE_KEY, RecordMode, live_failure, run_lock};
use crate::agent::{
    AgentMessage, AgentReplay, AgentStep, AgentStepRequest, AgentStepResult, RecordedRun,
    RecordedTurn, TRANSCRIPTS_DIR, read_agent_case_recordings,
};
use crate::recordings::Recordings;
use crate::runtime::BoxError;

/// One run of a trial, from its first turn to its last.
enum Run {
    /// Answered from its transcript.
    Replayed(AgentReplay),
    /// Recorded from the live step; the turns so far.
    Live(RecordedRun),
}

struct RunState {
    run: Run,
    /// The run's lock, released when its last turn is answered (the state is dropped).
    _held: tokio::sync::OwnedMutexGuard<()>,
}

/// The live step and the directory one agent trial records with.
pub(super) struct StepRecorder<'a> {
    pub mode: RecordMode,
    pub dir: &'a Path,
    pub live: &'a AgentStep<'static>,
    pub timeout: Duration,
    pub max_turns: u32,
    pub provenance: Value,
    runs: Mutex<HashMap<(String, u32), RunState>>,
    wrote: AtomicBool,
}

impl<'a> StepRecorder<'a> {
    pub fn new(
        mode: RecordMode,
        dir: &'a Path,
        live: &'a AgentStep<'static>,
        timeout: Duration,
        max_turns: u32,
        provenance: Value,
    ) -> Self {
        StepRecorder {
            mode,
            dir,
            live,
            timeout,
            max_turns: max_turns.max(1),
            provenance,
            runs: Mutex::default(),
            wrote: AtomicBool::new(false),
        }
    }

    /// The step of `run_agent_evals`.
    pub fn step(&self) -> AgentStep<'_> {
        AgentStep::new(move |request: AgentStepRequest| self.turn(request))
    }

    async fn turn(&self, request: AgentStepRequest) -> Result<AgentStepResult, BoxError> {
        let key = (request.eval_case.id.clone(), request.repeat);
        if request.turn == 0 {
            self.start(&key).await?;
        }
        {
            let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
            let Some(state) = runs.get_mut(&key) else {
                return Err("the recorder saw no first turn of this run".into());
            };
            match &mut state.run {
                Run::Replayed(replay) => {
                    let result = replay.replay_step(&request);
                    if result.tool_calls.is_empty() || request.turn + 1 >= self.max_turns {
                        runs.remove(&key);
                    }
                    return Ok(result);
                }
                Run::Live(recorded) => {
                    // The tool results of the previous turn end this request.
                    if let (Some(previous), Some(AgentMessage::Tool { results })) =
                        (request.turn.checked_sub(1), request.messages.last())
                        && let Some(turn) = recorded.turns.get_mut(previous as usize)
                    {
                        turn.tool_results = Some(results.clone());
                    }
                }
            }
        }
        let turn = request.turn;
        let answered = self.live.call_within(request, Some(self.timeout)).await;
        let mut runs = self.runs.lock().unwrap_or_else(PoisonError::into_inner);
        let result = match answered {
            Ok(result) => result,
            Err(failure) => {
                runs.remove(&key);
                return Err(live_failure("step", failure));
            }
        };
        let Some(RunState {
            run: Run::Live(recorded),
            ..
        }) = runs.get_mut(&key)
        else {
            return Err("the recorder lost this run".into());
        };
        recorded.turns.push(RecordedTurn {
            text: result.text.clone(),
            tool_calls: result.tool_calls.clone(),
            usage: result.usage,
            raw: result.raw.clone(),
            tool_results: None,
        });
        // The transcript is written once the run has ended, whole: a run whose step fails
        // (or a killed process) leaves the recorded transcript as it was.
        if result.tool_calls.is_empty() || turn + 1 >= self.max_turns {
            let text = recorded.to_text();
            let dir = self.dir.join(TRANSCRIPTS_DIR);
            let path = dir.join(isomer_corpus::transcript_file_name(&key.0, key.1));
            // The run's lock (held by its state) is released only once the file is in
            // place, so a trial waiting on it replays this run instead of recording it.
            let written = std::fs::create_dir_all(&dir)
                .map_err(|error| format!("cannot create {}: {error}", dir.display()))
                .and_then(|()| crate::recordings::write_file(&path, &text));
            if written.is_ok() {
                self.wrote.store(true, Ordering::Relaxed);
                super::record::note_recorded_run(self.dir, &key.0, key.1);
            }
            runs.remove(&key);
            written?;
        }
        Ok(result)
    }

    /// Takes the run's lock, then decides: replay its transcript (`missing` mode and the
    /// file exists, or `all` mode and this process recorded it), or record it live.
    async fn start(&self, key: &(String, u32)) -> Result<(), BoxError> {
        let (case_id, repeat) = (key.0.as_str(), key.1);
        let held = run_lock(self.dir, case_id, repeat).lock_owned().await;
        let path = self
            .dir
            .join(TRANSCRIPTS_DIR)
            .join(isomer_corpus::transcript_file_name(case_id, repeat));
        let replay = match self.mode {
            RecordMode::Missing | RecordMode::Measure => path.is_file(),
            RecordMode::All => super::record::recorded_run(self.dir, case_id, repeat),
        };
        let run = if replay {
            let recordings =
                read_agent_case_recordings(self.dir, case_id, repeat + 1).map_err(|errors| {
                    errors
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; ")
                })?;
            Run::Replayed(AgentReplay::new(recordings))
        } else {
            Run::Live(RecordedRun::default())
        };
        self.runs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key.clone(), RunState { run, _held: held });
        Ok(())
    }

    /// After the run: when this trial recorded a turn, notes the provenance in the
    /// directory's `corpus.json`.
    pub fn finish(&self) -> Result<(), String> {
        if !self.wrote.load(Ordering::Relaxed) {
            return Ok(());
        }
        Recordings::new(self.dir).write_provenance(PROVENANCE_KEY, self.provenance.clone())
    }
}
