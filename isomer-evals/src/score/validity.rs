//! The validity axis (evals.md §5.1).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::check::CheckedAttempt;

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

/// Scores validity from the two checked attempts (upstream `scoreValidity`;
/// pure). A retry that was not JSON counts as not valid; a retry given
/// alongside a valid first attempt is ignored.
pub fn score_validity(first: &CheckedAttempt, retry: Option<&CheckedAttempt>) -> ValidityScore {
    let retried = retry
        .and_then(CheckedAttempt::check)
        .filter(|check| check.valid);
    let from_retry = || ValidityScore {
        parsed: false,
        valid: false,
        valid_after_retry: retried.is_some(),
        errors: Vec::new(),
        composition: retried.and_then(|check| check.composition.clone()),
    };
    match first {
        CheckedAttempt::Unparsed { error, .. } => ValidityScore {
            errors: vec![error.clone()],
            ..from_retry()
        },
        CheckedAttempt::Parsed { check, .. } if check.valid => ValidityScore {
            parsed: true,
            valid: true,
            valid_after_retry: true,
            errors: Vec::new(),
            composition: check.composition.clone(),
        },
        CheckedAttempt::Parsed { check, .. } => ValidityScore {
            parsed: true,
            errors: check.errors.clone(),
            ..from_retry()
        },
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::check::CheckedComposition;

    fn parsed(valid: bool, errors: &[&str], composition: Option<Value>) -> CheckedAttempt {
        CheckedAttempt::Parsed {
            raw: "{}".to_owned(),
            value: isomer_sdk::DeepValue::new(json!({})),
            check: CheckedComposition {
                valid,
                errors: errors.iter().map(|e| (*e).to_owned()).collect(),
                composition,
            },
        }
    }

    fn unparsed() -> CheckedAttempt {
        CheckedAttempt::Unparsed {
            raw: "nope".to_owned(),
            error: "expected value at line 1 column 1".to_owned(),
        }
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
