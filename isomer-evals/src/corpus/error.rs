//! What can be wrong with a corpus directory: [`CorpusErrors`], every fault one load
//! found, each a `CorpusError` (one fault, with its file and position).

use std::fmt;
use std::io;
use std::path::PathBuf;

use isomer_corpus::{JudgmentFault, ManifestFault, Position};

/// What a text file that is not UTF-8 is told, after its path and the position of the
/// first invalid byte (the agent transcripts say the same, see `agent::replay`).
pub(crate) const NOT_UTF8: &str = "is not UTF-8 text (first invalid byte here)";

/// One fault in a corpus directory: the file it is in and what is wrong.
///
/// `Display` prints `<path>:<line>:<column>: <message>` when the fault has a
/// position, else `<path>: <message>`, the way compilers print diagnostics.
#[derive(Debug)]
pub(crate) struct CorpusError {
    /// The file or directory at fault, as the caller's directory path joined
    /// with the file name (relative when the caller passed a relative path).
    pub(crate) path: PathBuf,
    /// What is wrong.
    pub(crate) kind: CorpusErrorKind,
}

/// What is wrong with a file of a corpus directory. Messages are lowercase,
/// with no trailing period.
#[derive(Debug)]
pub(crate) enum CorpusErrorKind {
    /// Occurs when the corpus directory does not exist or is not a directory.
    NotADirectory,
    /// Occurs when the directory has no `corpus.json`.
    MissingManifest,
    /// Occurs when a file exists but cannot be read (permissions, an I/O
    /// error), or a directory cannot be listed.
    Unreadable {
        /// The operating system's error.
        source: io::Error,
    },
    /// Occurs when a text file (`corpus.json`, `prompt.txt`, an answer,
    /// `judgments.json`) is not valid UTF-8.
    NotUtf8 {
        /// Where the first invalid byte sits.
        position: Position,
    },
    /// Occurs when `corpus.json` breaks a rule of the manifest format (see
    /// [`isomer_corpus::manifest`]): malformed JSON, a case without a string `id` or
    /// `prompt`, a duplicate id, an unknown key.
    Manifest(ManifestFault),
    /// Occurs when `judgments.json` breaks a rule of its format (see
    /// [`isomer_corpus::judgments`]).
    Judgments(JudgmentFault),
    /// Occurs when an entry of `answers/` is not named
    /// `<case id>.<attempt>.txt` with attempt `0` or `1` (the only attempts a
    /// run asks for), so it could never be replayed. Hidden entries (names
    /// starting with `.`, such as `.DS_Store`) are passed over.
    BadAnswerName,
    /// Occurs when an entry of `answers/` is named like an answer but is not
    /// a regular file.
    AnswerNotAFile,
    /// Occurs when an answer file names a case id that `corpus.json` does not
    /// have (a renamed or deleted case whose recordings were left behind).
    AnswerForUnknownCase {
        /// The case id the file name gives.
        id: String,
    },
}

impl fmt::Display for CorpusErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotADirectory => f.write_str(
                "is not a corpus directory (expected a directory holding corpus.json)",
            ),
            Self::MissingManifest => f.write_str(
                "does not exist; a corpus directory holds corpus.json, and optionally prompt.txt, answers/ and judgments.json",
            ),
            Self::Unreadable { source } => write!(f, "cannot be read: {source}"),
            Self::NotUtf8 { position } => {
                write!(f, "{position}: {NOT_UTF8}")
            }
            Self::Manifest(fault) => write!(f, "{fault}"),
            Self::Judgments(fault) => write!(f, "{fault}"),
            Self::BadAnswerName => f.write_str(
                "is not named `<case id>.<attempt>.txt` with attempt 0 or 1, so no replay reads it",
            ),
            Self::AnswerNotAFile => f.write_str("is named like an answer but is not a file"),
            Self::AnswerForUnknownCase { id } => write!(
                f,
                "records an answer for case {}, which corpus.json does not have",
                serde_json::Value::String(id.clone())
            ),
        }
    }
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.path.display())?;
        // Positioned faults print `path:line:column: message`.
        match &self.kind {
            CorpusErrorKind::Manifest(_)
            | CorpusErrorKind::Judgments(_)
            | CorpusErrorKind::NotUtf8 { .. } => write!(f, "{}", self.kind),
            kind => write!(f, " {kind}"),
        }
    }
}

impl std::error::Error for CorpusError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            CorpusErrorKind::Unreadable { source } => Some(source),
            _ => None,
        }
    }
}

impl CorpusError {
    /// A fault in the file at `path`.
    pub(crate) fn new(path: impl Into<PathBuf>, kind: CorpusErrorKind) -> Self {
        Self {
            path: path.into(),
            kind,
        }
    }
}

/// Every fault one load of a corpus directory found, in the order the files
/// were read (`corpus.json`, `prompt.txt`, `answers/` sorted by name,
/// `judgments.json`) and by position within a file. Never empty.
///
/// `Display` prints one fault per line: `<path>:<line>:<column>: <message>` when the
/// fault has a position in its file, else `<path>: <message>`, the way compilers print
/// diagnostics; the path is the caller's directory joined with the file name. Messages
/// are lowercase, with no trailing period. [`Error::source`](std::error::Error::source)
/// is the first fault, whose own source is the operating system's error when a file
/// cannot be read.
#[derive(Debug)]
pub struct CorpusErrors(Vec<CorpusError>);

impl CorpusErrors {
    /// Wraps faults; `None` when there are none.
    pub(crate) fn from_vec(errors: Vec<CorpusError>) -> Option<Self> {
        if errors.is_empty() {
            None
        } else {
            Some(Self(errors))
        }
    }

    /// The faults.
    pub(crate) fn errors(&self) -> &[CorpusError] {
        &self.0
    }
}

impl fmt::Display for CorpusErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, error) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CorpusErrors {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0
            .first()
            .map(|error| error as &(dyn std::error::Error + 'static))
    }
}

impl From<CorpusError> for CorpusErrors {
    fn from(error: CorpusError) -> Self {
        Self(vec![error])
    }
}
