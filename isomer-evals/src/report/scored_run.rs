//! What the totals, the repeat statistics and the axes read of one run of a case
//! ([`ScoredRun`]), so that they are computed by one piece of code from either of the two
//! places a run's scores live: the report of the run ([`EvalCaseResult`]) and a run file
//! read back ([`crate::run_file::CaseRun`], for a shard merge).

use super::case::EvalCaseResult;
use super::measured::CaseMeasures;
use crate::case::AnswerabilityVerdict;
use crate::scorer::ScorerValue;

/// One run of one case, as [`EvalTotals`](crate::EvalTotals), [`RepeatTotals`](super::RepeatTotals)
/// and [`Axes`](super::repeats::Axes) read it. Implemented by the report's
/// [`EvalCaseResult`] and by the run file's [`crate::run_file::CaseRun`], which keeps
/// exactly these values.
pub(crate) trait ScoredRun {
    /// The case's id.
    fn case_id(&self) -> &str;
    /// Which run of the case, `0 .. repeat`.
    fn repeat(&self) -> u32;
    /// The first attempt was JSON.
    fn parsed(&self) -> bool;
    /// The first attempt was valid.
    fn valid(&self) -> bool;
    /// Valid on the first attempt or the retry.
    fn valid_after_retry(&self) -> bool;
    /// The selection F1 against the golden, when the run has one.
    fn selection_f1(&self) -> Option<f64>;
    /// Whether an expected type was used, when the case lists some.
    fn expected_hit(&self) -> Option<bool>;
    /// The judge's verdict, when judged.
    fn verdict(&self) -> Option<AnswerabilityVerdict>;
    /// The first attempt's bytes as sent.
    fn raw_bytes(&self) -> usize;
    /// Whether the run did not complete.
    fn errored(&self) -> bool;
    /// What the run's live calls cost, when it made any.
    fn measures(&self) -> Option<CaseMeasures>;
    /// The values its pack scorers gave it, by scorer name ([`crate::scorer`]).
    fn scorer_values(&self) -> Vec<(&str, ScorerValue)>;
}

impl ScoredRun for EvalCaseResult {
    fn case_id(&self) -> &str {
        &self.case_id
    }
    fn repeat(&self) -> u32 {
        self.repeat
    }
    fn parsed(&self) -> bool {
        self.validity.parsed
    }
    fn valid(&self) -> bool {
        self.validity.valid
    }
    fn valid_after_retry(&self) -> bool {
        self.validity.valid_after_retry
    }
    fn selection_f1(&self) -> Option<f64> {
        Some(self.selection.as_ref()?.f1)
    }
    fn expected_hit(&self) -> Option<bool> {
        Some(self.expected.as_ref()?.hit)
    }
    fn verdict(&self) -> Option<AnswerabilityVerdict> {
        Some(self.answerability?.verdict)
    }
    fn raw_bytes(&self) -> usize {
        self.payload.raw_bytes
    }
    fn errored(&self) -> bool {
        self.error.is_some()
    }
    fn measures(&self) -> Option<CaseMeasures> {
        self.measured
    }
    fn scorer_values(&self) -> Vec<(&str, ScorerValue)> {
        self.scorers
            .iter()
            .map(|score| (score.name.as_str(), score.value))
            .collect()
    }
}
