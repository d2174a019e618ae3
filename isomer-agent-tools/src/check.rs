//! [`check_composition`]: one parse, one validate and the frame's body rule,
//! reported as the tools print them (upstream
//! `checkComposition`).

use isomer_sdk::{Document, ValidationError, format_validation_error, format_validation_warning};
use serde::Serialize;
use serde_json::Value;

use crate::runtime::{RuntimeFailure, ToolsRuntime};

/// A frame's extra rule over a composition's body (upstream
/// `IsomerToolsFrame`): each returned string is one finding with an empty
/// path. The slides frame requires exactly one `slideFrame` node.
///
/// Any `Fn(&[Value]) -> Vec<String>` is a frame.
pub trait ToolsFrame: Send + Sync {
    /// The messages of every broken rule; empty when the body is fine.
    fn validate_body(&self, body: &[Value]) -> Vec<String>;
}

impl<F> ToolsFrame for F
where
    F: Fn(&[Value]) -> Vec<String> + Send + Sync,
{
    fn validate_body(&self, body: &[Value]) -> Vec<String> {
        self(body)
    }
}

/// What [`check_composition`] found (upstream `IsomerCompositionCheck`).
///
/// Serializes as `{ valid, errors, findings, warnings, composition? }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompositionCheck {
    /// True when there is no finding. The runtime's own `valid` flag is not
    /// used: a frame rule makes an otherwise valid composition invalid.
    pub valid: bool,
    /// Each finding through `format_validation_error`
    /// (`<path> (in <type>) <message>`), in the same order as `findings`.
    pub errors: Vec<String>,
    /// The structured findings: parse errors, or validate errors followed by
    /// the frame's, each frame finding with an empty path.
    pub findings: Vec<ValidationError>,
    /// Each warning as `<surface>: <text>` (the sdk's
    /// `format_validation_warning`: `slack: body[0].body[1] draws nothing`).
    pub warnings: Vec<String>,
    /// The copy the runtime validated, present once the value parsed (and
    /// absent when the input budget refused it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composition: Option<Value>,
}

/// Checks untrusted `composition` with `runtime.parse`, then
/// `runtime.validate` on the parsed composition, then `frame`'s body rule on
/// the validated copy's `body`; each is called at most once, as upstream
/// calls them.
///
/// The composition is read as one [`Document`] that each step takes by
/// value: pass an owned `Value` (or a [`Document`]) and the sdk's runtime
/// checks it in place and hands it on without copying it; a `&Value` is
/// deep-copied into the document first.
///
/// - A parse failure (including an input-budget refusal, one finding with an
///   empty path and code `INPUT_OVER_BUDGET`) answers its findings, no
///   warnings and no composition.
/// - Otherwise the findings are validate's errors followed by one
///   `{ path: "", message }` per frame message, `valid` is "no findings", and
///   `composition` is the copy validate returned.
///
/// # Errors
/// A runtime member's failure, unchanged.
pub fn check_composition<R>(
    runtime: &R,
    frame: Option<&dyn ToolsFrame>,
    composition: impl Into<Document>,
) -> Result<CompositionCheck, RuntimeFailure>
where
    R: ToolsRuntime + ?Sized,
{
    let parsed = runtime.parse(composition.into())?;
    let composition = match parsed.composition {
        Some(composition) if parsed.valid => composition,
        _ => {
            return Ok(CompositionCheck {
                valid: false,
                errors: parsed.errors.iter().map(format_validation_error).collect(),
                findings: parsed.errors,
                warnings: Vec::new(),
                composition: None,
            });
        }
    };
    let validated = runtime.validate(Document::new(composition))?;
    let checked = validated.composition;
    let mut findings = validated.errors;
    if let (Some(frame), Some(copy)) = (frame, &checked) {
        let body = copy
            .get("body")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        findings.extend(
            frame
                .validate_body(body)
                .into_iter()
                .map(|message| ValidationError::new("", message)),
        );
    }
    Ok(CompositionCheck {
        valid: findings.is_empty(),
        errors: findings.iter().map(format_validation_error).collect(),
        findings,
        warnings: validated
            .warnings
            .iter()
            .map(format_validation_warning)
            .collect(),
        composition: checked,
    })
}

/// The lines a tool answer lists: the first `max` of `lines`, then, when
/// some are left out, one more line counting them (`and 9890 more errors,
/// not listed: fix the ones above first`, with `noun` naming them). The
/// tools list a check's `errors` and `warnings` this way, each capped at
/// [`IsomerToolsOptions::max_findings`](crate::IsomerToolsOptions::max_findings);
/// the structured `findings` of a [`CompositionCheck`] are never capped.
pub fn cap_findings(mut lines: Vec<String>, max: usize, noun: &str) -> Vec<String> {
    if lines.len() > max {
        let rest = lines.len() - max;
        lines.truncate(max);
        lines.push(format!(
            "and {rest} more {noun}, not listed: fix the ones above first"
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_past_the_cap_are_counted_on_one_line() {
        let lines: Vec<String> = (0..5).map(|index| format!("e{index}")).collect();
        assert_eq!(cap_findings(lines.clone(), 5, "errors"), lines);
        assert_eq!(
            cap_findings(lines, 2, "errors"),
            [
                "e0",
                "e1",
                "and 3 more errors, not listed: fix the ones above first"
            ]
        );
        assert_eq!(
            cap_findings(vec!["w".to_owned()], 0, "warnings"),
            ["and 1 more warnings, not listed: fix the ones above first"]
        );
    }

    #[test]
    fn a_closure_is_a_frame() {
        let frame = |body: &[Value]| vec![format!("{} nodes", body.len())];
        assert_eq!(
            frame.validate_body(&[Value::Null]),
            vec!["1 nodes".to_owned()]
        );
    }
}
