//! The validity axis (upstream `scoreValidity`): did the first attempt, or the single
//! retry, parse and validate.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::check::{Attempt, CheckedAttempt};

/// Whether the answer was JSON and a valid composition (upstream
/// `ValidityScore`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidityScore {
    /// The first attempt's text was JSON (after fence stripping). Says
    /// nothing about the schema.
    pub parsed: bool,
    /// The first attempt passed the schema parse, validation and the frame.
    pub valid: bool,
    /// `valid`, or the retry passed them. Never false when `valid` is true.
    pub valid_after_retry: bool,
    /// The first attempt's failures only: the parser's message when it was
    /// not JSON, else its formatted findings; empty when `valid`.
    pub errors: Vec<String>,
    /// The composition the selection, expected-primitive and answerability
    /// axes read: only one that validated (the first attempt's when valid,
    /// else the retry's when valid, else absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub composition: Option<Value>,
}

/// Which attempt's composition the validity score holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    First,
    Retry,
    Neither,
}

impl Source {
    /// The attempt the composition comes from.
    fn attempt<A>(self, first: A, retry: Option<A>) -> Option<A> {
        match self {
            Source::First => Some(first),
            Source::Retry => retry,
            Source::Neither => None,
        }
    }

    /// The composition the tree axes read, borrowed from its attempt.
    pub(crate) fn composition<'a>(
        self,
        first: &'a CheckedAttempt,
        retry: Option<&'a CheckedAttempt>,
    ) -> Option<&'a Value> {
        self.attempt(first, retry)
            .and_then(CheckedAttempt::check)
            .and_then(|check| check.composition.as_ref())
    }

    /// Moves that composition out of its attempt instead of copying it (the
    /// run drops both attempts next); the other attempt keeps its own.
    pub(crate) fn take(
        self,
        first: &mut CheckedAttempt,
        retry: Option<&mut CheckedAttempt>,
    ) -> Option<Value> {
        self.attempt(first, retry)
            .and_then(|attempt| match &mut attempt.0 {
                Attempt::Parsed { check, .. } => check.composition.take(),
                Attempt::Unparsed { .. } => None,
            })
    }
}

/// Scores validity from the two checked attempts (upstream `scoreValidity`;
/// pure), with `composition` left `None`, and where the composition comes
/// from. A retry that was not JSON counts as not valid; a retry given
/// alongside a valid first attempt is ignored.
pub(crate) fn validity_without_composition(
    first: &CheckedAttempt,
    retry: Option<&CheckedAttempt>,
) -> (ValidityScore, Source) {
    let retried = retry
        .and_then(CheckedAttempt::check)
        .is_some_and(|check| check.valid);
    let from_retry = if retried {
        Source::Retry
    } else {
        Source::Neither
    };
    let score = |parsed, valid, valid_after_retry, errors| ValidityScore {
        parsed,
        valid,
        valid_after_retry,
        errors,
        composition: None,
    };
    match &first.0 {
        Attempt::Unparsed { error, .. } => (
            score(false, false, retried, vec![error.clone()]),
            from_retry,
        ),
        Attempt::Parsed { check, .. } if check.valid => {
            (score(true, true, true, Vec::new()), Source::First)
        }
        Attempt::Parsed { check, .. } => (
            score(true, false, retried, check.errors.clone()),
            from_retry,
        ),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::check::CheckedComposition;
    use crate::tests::axes::score_validity;

    fn parsed(valid: bool, errors: &[&str], composition: Option<Value>) -> CheckedAttempt {
        CheckedAttempt(Attempt::Parsed {
            raw: "{}".to_owned(),
            value: Some(isomer_sdk::DeepValue::new(json!({}))),
            check: CheckedComposition {
                valid,
                errors: errors.iter().map(|e| (*e).to_owned()).collect(),
                composition,
            },
        })
    }

    fn unparsed() -> CheckedAttempt {
        CheckedAttempt(Attempt::Unparsed {
            raw: "nope".to_owned(),
            error: "expected value at line 1 column 1".to_owned(),
        })
    }

    #[test]
    fn a_valid_first_attempt_ignores_the_retry() {
        let first = parsed(true, &[], Some(json!({"type": "view", "body": []})));
        let retry = parsed(
            true,
            &[],
            Some(json!({"type": "view", "body": [{"type": "x"}]})),
        );
        let score = score_validity(&first, Some(&retry));
        assert_eq!(
            score,
            ValidityScore {
                parsed: true,
                valid: true,
                valid_after_retry: true,
                errors: vec![],
                composition: Some(json!({"type": "view", "body": []})),
            }
        );
    }

    #[test]
    fn an_unparsed_first_attempt_reports_the_parser_message_and_reads_a_valid_retry() {
        let retry = parsed(true, &[], Some(json!({"type": "view", "body": []})));
        let score = score_validity(&unparsed(), Some(&retry));
        assert_eq!(
            score,
            ValidityScore {
                parsed: false,
                valid: false,
                valid_after_retry: true,
                errors: vec!["expected value at line 1 column 1".to_owned()],
                composition: Some(json!({"type": "view", "body": []})),
            }
        );
    }

    #[test]
    fn taking_the_composition_scores_as_copying_it_and_empties_only_its_source() {
        let body = |n: usize| json!({"type": "view", "body": vec![json!({"type": "x"}); n]});
        let cases = [
            (
                parsed(true, &[], Some(body(1))),
                Some(parsed(true, &[], Some(body(2)))),
            ),
            (
                parsed(false, &["e"], Some(body(1))),
                Some(parsed(true, &[], Some(body(2)))),
            ),
            (
                parsed(false, &["e"], Some(body(1))),
                Some(parsed(false, &["f"], Some(body(2)))),
            ),
            (parsed(false, &["e"], None), None),
            (unparsed(), Some(parsed(true, &[], Some(body(3))))),
            (unparsed(), Some(unparsed())),
        ];
        let expected_left = [
            (None, Some(body(2))),
            (Some(body(1)), None),
            (Some(body(1)), Some(body(2))),
            (None, None),
            (None, None),
            (None, None),
        ];
        for ((mut first, mut retry), left) in cases.into_iter().zip(expected_left) {
            let copied = score_validity(&first, retry.as_ref());
            let (mut taken, source) = validity_without_composition(&first, retry.as_ref());
            taken.composition = source.take(&mut first, retry.as_mut());
            assert_eq!(taken, copied);
            let composition = |attempt: Option<&CheckedAttempt>| {
                attempt
                    .and_then(CheckedAttempt::check)
                    .and_then(|check| check.composition.clone())
            };
            assert_eq!(
                (composition(Some(&first)), composition(retry.as_ref())),
                left
            );
        }
    }

    #[test]
    fn an_invalid_first_attempt_keeps_no_composition_when_the_retry_is_invalid_too() {
        let first = parsed(false, &["body is required"], Some(json!({"type": "view"})));
        let retry = parsed(
            false,
            &["body must not be empty"],
            Some(json!({"type": "view"})),
        );
        let score = score_validity(&first, Some(&retry));
        assert_eq!(
            score,
            ValidityScore {
                parsed: true,
                valid: false,
                valid_after_retry: false,
                errors: vec!["body is required".to_owned()],
                composition: None,
            }
        );
        assert!(!score_validity(&first, Some(&unparsed())).valid_after_retry);
        assert!(!score_validity(&first, None).valid_after_retry);
    }
}
