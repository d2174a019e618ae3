//! Printing findings as one line of text: `format_validation_error`
//! (upstream `formatValidationError`) and the agent tools' warning form.
//!
//! The two printers live beside the findings they print (in [`error`](crate::error),
//! whose errors print their findings with them); this module is where a
//! reader of upstream's `formatValidationError` finds them.

pub use crate::error::{format_validation_error, format_validation_warning};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorCode, ValidationError, ValidationWarning};

    fn error(path: &str, message: &str, node_type: Option<&str>) -> ValidationError {
        let finding = ValidationError::new(path, message);
        match node_type {
            Some(node_type) => finding.with_node_type(node_type),
            None => finding,
        }
    }

    #[test]
    fn sdk_2_3_examples() {
        let cases = [
            (
                error("body[0].label", "is required", Some("kpi")),
                "body[0].label (in kpi) is required",
            ),
            (
                error(
                    "body[0].items[0]",
                    "has unrecognized key(s): x; its fields are label, delta",
                    Some("kpi"),
                ),
                "body[0].items[0] (in kpi) has unrecognized key(s): x; its fields are label, delta",
            ),
            (
                error(
                    "body[1].items[0].id",
                    "duplicates id \"a\" first used at body[0]",
                    Some("kpi"),
                ),
                "body[1].items[0].id (in kpi) duplicates id \"a\" first used at body[0]",
            ),
            (
                error("body[0].label", "is required", Some("my kpi")),
                "body[0].label (in \"my kpi\") is required",
            ),
            (
                error(
                    "body[0]",
                    "has unrecognized key(s): \"key\\u2029x\"; its fields are \"line\\nfield\"",
                    Some("odd\u{2028}type"),
                ),
                "body[0] (in \"odd\\u2028type\") has unrecognized key(s): \"key\\u2029x\"; its fields are \"line\\nfield\"",
            ),
            (
                error(
                    "",
                    "a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec",
                    None,
                ),
                "a snapshot render needs exactly one \"slideFrame\" node, got 2 nodes; render one slide per spec",
            ),
            (
                error("", "input nests deeper than 64 levels", None)
                    .with_code(ErrorCode::InputOverBudget),
                "input nests deeper than 64 levels",
            ),
        ];
        for (finding, expected) in cases {
            assert_eq!(format_validation_error(&finding), expected);
        }
    }

    #[test]
    fn path_and_node_type_rules() {
        // Upstream's examples of printed findings.
        assert_eq!(
            format_validation_error(&error("body", "unknown node type \"sparkline\"", None)),
            "body unknown node type \"sparkline\""
        );
        assert_eq!(
            format_validation_error(&error("body[0].title", "is required", None)),
            "body[0].title is required"
        );
        assert_eq!(
            format_validation_error(&error("body[0]", "is wrong", Some("slideFrame"))),
            "body[0] (in slideFrame) is wrong"
        );
        // An empty path wins over a node type; an empty node type is quoted.
        assert_eq!(
            format_validation_error(&error("", "Invalid input", Some("kpi"))),
            "Invalid input"
        );
        assert_eq!(
            format_validation_error(&error("body[0]", "is wrong", Some(""))),
            "body[0] (in \"\") is wrong"
        );
    }

    #[test]
    fn warnings_print_with_their_surface() {
        let warning = |surface: &str, path: Option<&str>, message: &str| ValidationWarning {
            surface: surface.to_owned(),
            path: path.map(str::to_owned),
            message: message.to_owned(),
        };
        assert_eq!(
            format_validation_warning(&warning(
                "snapshot",
                Some("body[0]"),
                "body[0] type \"slideFrame\" declares no snapshotHeight metric"
            )),
            "snapshot: body[0] type \"slideFrame\" declares no snapshotHeight metric"
        );
        assert_eq!(
            format_validation_warning(&warning("slack", Some("body[0].body[1]"), "draws nothing")),
            "slack: body[0].body[1] draws nothing"
        );
        assert_eq!(
            format_validation_warning(&warning("text", None, "is empty")),
            "text: is empty"
        );
    }
}
