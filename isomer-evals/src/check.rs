//! Checking an attempt once: [`check_composition`] and [`check_attempt`]
//! (evals.md §4.3–4.4, sdk.md §3.4, seed 001).
//!
//! This is the only place parse, validate and the frame rule are combined,
//! so a value that matches the schema but fails a semantic rule (duplicate
//! ids) or the frame is never read as a good composition. The retry
//! decision, the validity score and the payload score all read the one
//! check an attempt gets.

use isomer_sdk::{DeepValue, format_validation_error};
use serde_json::Value;

use crate::parse::ParsedAttempt;
use crate::runtime::{EvalFrame, EvalRuntime};

/// The verdict on one value (upstream `CheckedComposition`).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedComposition {
    /// True when the value passed the schema parse, validation and the
    /// frame's body rule.
    pub valid: bool,
    /// The findings formatted with `format_validation_error` (`<path> (in
    /// <type>) <message>`, a frame finding as its bare message), in the
    /// order parse or validate, then the frame, reported them. Empty when
    /// `valid`; possibly empty when not (a runtime that gives no detail).
    pub errors: Vec<String>,
    /// The sanitized composition the schema parse returned: present whenever
    /// the schema parse succeeded, even when validation or the frame then
    /// failed.
    pub composition: Option<Value>,
}

/// A [`ParsedAttempt`] with its check (upstream `CheckedAttempt`).
#[derive(Debug, Clone, PartialEq)]
pub enum CheckedAttempt {
    /// The text was JSON, and the value was checked.
    Parsed {
        /// The model text as sent.
        raw: String,
        /// The JSON value, unvalidated (the payload walk reads this); dropped
        /// without recursion, whatever its depth.
        value: DeepValue,
        /// The check of `value`.
        check: CheckedComposition,
    },
    /// The text was not JSON; there is nothing to check.
    Unparsed {
        /// The model text as sent.
        raw: String,
        /// The JSON parser's message.
        error: String,
    },
}

impl CheckedAttempt {
    /// The model text as sent.
    pub fn raw(&self) -> &str {
        match self {
            CheckedAttempt::Parsed { raw, .. } | CheckedAttempt::Unparsed { raw, .. } => raw,
        }
    }

    /// True when the text was JSON and its check passed.
    pub fn is_valid(&self) -> bool {
        matches!(self, CheckedAttempt::Parsed { check, .. } if check.valid)
    }

    /// The check, when the text was JSON.
    pub fn check(&self) -> Option<&CheckedComposition> {
        match self {
            CheckedAttempt::Parsed { check, .. } => Some(check),
            CheckedAttempt::Unparsed { .. } => None,
        }
    }

    /// What went wrong, as a retry is told (`previousErrors`): the parser's
    /// message alone when the text was not JSON, else the check's errors.
    pub fn failures(&self) -> Vec<String> {
        match self {
            CheckedAttempt::Parsed { check, .. } => check.errors.clone(),
            CheckedAttempt::Unparsed { error, .. } => vec![error.clone()],
        }
    }
}

/// Checks one value (upstream evals `checkComposition`, plus the seed's
/// frame rule):
///
/// 1. `runtime.parse(value)`; refused → not valid, its findings formatted,
///    no composition.
/// 2. `runtime.validate(&composition)`; its findings formatted.
/// 3. With a frame, `frame.validate_body(body)` on the parsed composition's
///    `body` (an empty slice when it has none); each string is a finding
///    with an empty path, so it prints as the bare message.
///
/// `valid` when steps 2 and 3 found nothing; the composition is kept either
/// way. Never panics unless the runtime does.
pub fn check_composition<R>(
    runtime: &R,
    value: &Value,
    frame: Option<&dyn EvalFrame>,
) -> CheckedComposition
where
    R: EvalRuntime + ?Sized,
{
    let composition = match runtime.parse(value) {
        Ok(composition) => composition,
        Err(findings) => {
            return CheckedComposition {
                valid: false,
                errors: findings.iter().map(format_validation_error).collect(),
                composition: None,
            };
        }
    };
    let mut valid = true;
    let mut errors = Vec::new();
    if let Err(findings) = runtime.validate(&composition) {
        valid = false;
        errors.extend(findings.iter().map(format_validation_error));
    }
    if let Some(frame) = frame {
        let body = composition
            .get("body")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let findings = frame.validate_body(body);
        if !findings.is_empty() {
            valid = false;
            errors.extend(findings);
        }
    }
    CheckedComposition {
        valid,
        errors,
        composition: Some(composition),
    }
}

/// Checks an attempt once (upstream `checkAttempt`): a parsed attempt gains
/// the [`check_composition`] of its value; an unparsed one is returned as is.
pub fn check_attempt<R>(
    runtime: &R,
    attempt: ParsedAttempt,
    frame: Option<&dyn EvalFrame>,
) -> CheckedAttempt
where
    R: EvalRuntime + ?Sized,
{
    match attempt {
        ParsedAttempt::Parsed { raw, value } => {
            let check = check_composition(runtime, &value, frame);
            CheckedAttempt::Parsed { raw, value, check }
        }
        ParsedAttempt::Unparsed { raw, error } => CheckedAttempt::Unparsed { raw, error },
    }
}
