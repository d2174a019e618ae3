//! The file formats of an Isomer eval corpus: what a corpus directory holds, how its JSON
//! files are read with every fault placed at a line and column, and the floor table a gate
//! declares its floors from.
//!
//! This crate reads text it is handed and never touches the file system: the eval harness
//! (`isomer-evals`) reads the files, and `#[isomer_eval]` (`isomer-evals-macros`) reads
//! `corpus.json` while it expands. Both parse with this crate, so the macro and the harness
//! agree on what a well-formed corpus and a known floor are.
//!
//! - [`files`]: the file and directory names of a corpus (`corpus.json`, `prompt.txt`,
//!   `answers/<id>.<attempt>.txt`, `judgments.json`, `transcripts/<id>.<repeat>.json`),
//!   and the recording names of repeated runs.
//! - [`manifest`]: `corpus.json`, read by [`parse_manifest`]; [`with_provenance_entry`]
//!   rewrites its provenance.
//! - [`judgments`]: `judgments.json`, read by [`parse_judgments`] and written by
//!   [`Judgments::to_text`].
//! - [`Position`]: 1-based line and byte column, and [`decode_utf8`], which places the
//!   first byte that is not UTF-8.
//! - [`floors`]: the floor table.
//!
//! Both JSON formats are read by one fault-collecting reader, so they share what a fault
//! looks like ([`Fault`]: `<line>:<column>: <message>`) and the checks every file gets (no
//! byte order mark, JSON syntax, a root object, no repeated key).

#![forbid(unsafe_code)]

pub mod files;
pub mod floors;
pub mod judgments;
pub mod manifest;
mod position;
mod reader;

pub use files::{
    ANSWERS_DIR, JUDGMENTS_FILE, MANIFEST_FILE, PROMPT_FILE, TRANSCRIPTS_DIR, answer_file_name,
    is_case_id, parse_answer_file_name, parse_recording_name, parse_transcript_file_name,
    recording_name, transcript_file_name,
};
pub use floors::{
    AGENT_FLOORS, FloorKind, FloorLevel, FloorRange, FloorSpec, SINGLE_SHOT_FLOORS, floor_spec,
};
pub use judgments::{
    AnswerabilityVerdict, JudgmentFault, JudgmentFaultKind, Judgments, RecordedJudgment,
    parse_judgments,
};
pub use manifest::{
    Manifest, ManifestCase, ManifestFault, ManifestFaultKind, parse_manifest, with_provenance_entry,
};
pub use position::{Position, decode_utf8, finding_position};
pub use reader::Fault;
