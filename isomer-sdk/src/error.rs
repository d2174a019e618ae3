//! Findings and errors: [`ValidationError`], [`ValidationWarning`], the upstream
//! [`ErrorCode`]s, the construction-time [`IsomerError`] and
//! [`CompositionValidationError`].
//!
//! Two kinds of failure exist, as upstream:
//! - *findings* about a composition are data ([`ValidationError`] /
//!   [`ValidationWarning`]), collected and returned, never thrown;
//! - *errors* that are the caller's fault (an empty pack list, a duplicate
//!   primitive type, an unknown view) are [`IsomerError`] values with the
//!   upstream code.

use serde::{Deserialize, Serialize};

use crate::js::name_text;

/// The upstream `ISOMER_ERROR_CODES` this crate uses, each printed as its
/// SCREAMING_SNAKE name (`ErrorCode::DuplicatePrimitiveType.as_str()` is
/// `"DUPLICATE_PRIMITIVE_TYPE"`), as upstream names them.
///
/// Only [`ErrorCode::InputOverBudget`] and [`ErrorCode::InputNotPlainData`]
/// ever appear on a [`ValidationError`]; every other code belongs to an
/// [`IsomerError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum ErrorCode {
    /// Two frames and no default frame.
    AmbiguousFrame,
    /// A composition failed validation where a valid one was required.
    CompositionInvalid,
    /// A composition contains itself (only possible with in-memory graphs).
    CyclicComposition,
    /// Two packs share an id.
    DuplicatePackId,
    /// Two primitives share a `type`, within a pack or across packs.
    DuplicatePrimitiveType,
    /// A host format has the name of a runtime format (agent tools).
    DuplicateFormat,
    /// A view id is registered twice.
    DuplicateView,
    /// A pack declares no primitive.
    EmptyPack,
    /// A runtime is built from no pack.
    EmptyPacks,
    /// A frame map is given but empty.
    EmptyFrames,
    /// A page list is empty.
    EmptyPages,
    /// Input exceeds the input budget.
    InputOverBudget,
    /// Input is not plain data (never produced for `serde_json::Value`).
    InputNotPlainData,
    /// A body node is malformed where a node was required.
    InvalidBodyNode,
    /// A frame's body rule refused a composition.
    InvalidFrameBody,
    /// A pack's groups name an unregistered type or one type twice.
    InvalidPackGroups,
    /// A primitive schema declares `id` or `surfaces` itself.
    ReservedNodeField,
    /// A frame name that is not registered.
    UnknownFrame,
    /// A primitive type that is not registered.
    UnknownPrimitiveType,
    /// A surface name that does not exist.
    UnknownSurface,
    /// A view id that is not registered.
    UnknownView,
    /// A child path that is not made of `ident` / `ident[digits]` steps.
    UnsupportedChildPath,
    /// A view's input failed its schema.
    ViewInputInvalid,
    /// A primitive's JSON Schema cannot be used (ours: upstream's Zod schemas
    /// cannot be malformed this way).
    InvalidSchema,
    /// A primitive declaration is incomplete (blank purpose, missing example
    /// or renderer; ours: upstream checks these in its conformance suite).
    InvalidPrimitive,
    /// A lookup asked for more primitive types than one call describes
    /// (`describePrimitives` caps at 100).
    TooManyTypes,
}

impl ErrorCode {
    /// The upstream code string, e.g. `"INPUT_OVER_BUDGET"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::AmbiguousFrame => "AMBIGUOUS_FRAME",
            ErrorCode::CompositionInvalid => "COMPOSITION_INVALID",
            ErrorCode::CyclicComposition => "CYCLIC_COMPOSITION",
            ErrorCode::DuplicatePackId => "DUPLICATE_PACK_ID",
            ErrorCode::DuplicatePrimitiveType => "DUPLICATE_PRIMITIVE_TYPE",
            ErrorCode::DuplicateFormat => "DUPLICATE_FORMAT",
            ErrorCode::DuplicateView => "DUPLICATE_VIEW",
            ErrorCode::EmptyPack => "EMPTY_PACK",
            ErrorCode::EmptyPacks => "EMPTY_PACKS",
            ErrorCode::EmptyFrames => "EMPTY_FRAMES",
            ErrorCode::EmptyPages => "EMPTY_PAGES",
            ErrorCode::InputOverBudget => "INPUT_OVER_BUDGET",
            ErrorCode::InputNotPlainData => "INPUT_NOT_PLAIN_DATA",
            ErrorCode::InvalidBodyNode => "INVALID_BODY_NODE",
            ErrorCode::InvalidFrameBody => "INVALID_FRAME_BODY",
            ErrorCode::InvalidPackGroups => "INVALID_PACK_GROUPS",
            ErrorCode::ReservedNodeField => "RESERVED_NODE_FIELD",
            ErrorCode::UnknownFrame => "UNKNOWN_FRAME",
            ErrorCode::UnknownPrimitiveType => "UNKNOWN_PRIMITIVE_TYPE",
            ErrorCode::UnknownSurface => "UNKNOWN_SURFACE",
            ErrorCode::UnknownView => "UNKNOWN_VIEW",
            ErrorCode::UnsupportedChildPath => "UNSUPPORTED_CHILD_PATH",
            ErrorCode::ViewInputInvalid => "VIEW_INPUT_INVALID",
            ErrorCode::InvalidSchema => "INVALID_SCHEMA",
            ErrorCode::InvalidPrimitive => "INVALID_PRIMITIVE",
            ErrorCode::TooManyTypes => "TOO_MANY_TYPES",
        }
    }

    /// True for the two input-refusal codes (`isInputRefusal` upstream).
    pub fn is_input_refusal(self) -> bool {
        matches!(
            self,
            ErrorCode::InputOverBudget | ErrorCode::InputNotPlainData
        )
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding about a composition.
///
/// Serializes as upstream: `{ "path", "message", "nodeType"?, "code"? }`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidationError {
    /// Where the finding is: `body[1].items[0].label`; `""` for the whole
    /// document, a frame rule or a budget refusal. A key appends
    /// `.<key>` (just `<key>` at the start), an array index `[n]`; keys are
    /// printed raw, as upstream prints them.
    pub path: String,
    /// A predicate, so `"<path> <message>"` reads as a sentence (`is required`).
    pub message: String,
    /// The `type` of the innermost registered primitive node the path lands in
    /// (upstream `nodeType`); `None` inside a node of unknown type and at the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_type: Option<String>,
    /// Only on input refusals: [`ErrorCode::InputOverBudget`] or
    /// [`ErrorCode::InputNotPlainData`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<ErrorCode>,
}

impl ValidationError {
    /// A finding at `path` with no node type and no code.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ValidationError {
            path: path.into(),
            message: message.into(),
            node_type: None,
            code: None,
        }
    }

    /// The same finding, naming the primitive it lands in.
    pub fn with_node_type(mut self, node_type: impl Into<String>) -> Self {
        self.node_type = Some(node_type.into());
        self
    }

    /// The same finding, carrying an input-refusal code.
    pub fn with_code(mut self, code: ErrorCode) -> Self {
        self.code = Some(code);
        self
    }

    /// True when this is an input refusal (`code` is `INPUT_OVER_BUDGET` or
    /// `INPUT_NOT_PLAIN_DATA`), as upstream `isInputRefusal`.
    pub fn is_input_refusal(&self) -> bool {
        self.code.is_some_and(ErrorCode::is_input_refusal)
    }
}

/// The surfaces a node can name in its `surfaces` field, in upstream order
/// (upstream's `SURFACE_NAMES`, `snapshot` included).
pub(crate) const SURFACE_NAMES: [&str; 5] = ["react", "snapshot", "text", "markdown", "slack"];

/// An advisory finding about one surface, such as
/// `composition renders no nodes on surface "slack"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidationWarning {
    /// One of `react`, `snapshot`, `text`, `markdown`, `slack`.
    pub surface: String,
    /// Where, when the warning is about one node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The warning text.
    pub message: String,
}

/// An error that is the caller's fault, raised when a runtime, pack or view
/// is built or looked up (upstream `IsomerError`, identified by its code).
///
/// Messages are lowercase where they are ours and byte-exact where upstream
/// pins them (`Unknown view "x"`). [`IsomerError::code`] returns the upstream
/// code.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum IsomerError {
    /// Occurs when a runtime is built from no pack.
    #[error("a runtime needs at least one primitive pack")]
    EmptyPacks,
    /// Occurs when a pack declares no primitive.
    #[error("pack \"{pack}\" declares no primitive")]
    EmptyPack {
        /// The pack's id.
        pack: String,
    },
    /// Occurs when two primitives share a `type`; every offender is named.
    #[error("duplicate primitive type(s): {}", quoted_list(types))]
    DuplicatePrimitiveType {
        /// Each duplicated type, once, in first-seen order.
        types: Vec<String>,
    },
    /// Occurs when two packs share an id; every offender is named.
    #[error("duplicate pack id(s): {}", quoted_list(ids))]
    DuplicatePackId {
        /// Each duplicated id, once, in first-seen order.
        ids: Vec<String>,
    },
    /// Occurs when a pack's groups name an unregistered type or one type twice.
    #[error("pack \"{pack}\" has invalid groups: {reason}")]
    InvalidPackGroups {
        /// The pack's id.
        pack: String,
        /// What is wrong.
        reason: String,
    },
    /// Occurs when a primitive's schema declares `id` or `surfaces` itself,
    /// or is not an object schema.
    #[error("primitive \"{type_name}\" declares the reserved field \"{field}\"")]
    ReservedNodeField {
        /// The primitive's type.
        type_name: String,
        /// `id` or `surfaces`.
        field: String,
    },
    /// Occurs when a frame map is given but empty.
    #[error("frames were given but none is registered")]
    EmptyFrames,
    /// Occurs when a frame name is not registered.
    #[error("unknown frame \"{name}\"")]
    UnknownFrame {
        /// The name asked for.
        name: String,
    },
    /// Occurs when two or more frames are registered and no default is named.
    #[error("{count} frames are registered and no default frame is named")]
    AmbiguousFrame {
        /// How many frames are registered.
        count: usize,
    },
    /// Occurs when primitive types are looked up that no pack registers.
    /// The message is upstream's (`describePrimitives`).
    #[error("{context}: unknown primitive type(s) {}", quoted_list(types))]
    UnknownPrimitiveType {
        /// The operation that looked them up, e.g. `getAuthoringContext.describePrimitives`.
        context: String,
        /// The unknown types, in the order given.
        types: Vec<String>,
    },
    /// Occurs when a surface name does not exist.
    #[error("unknown surface \"{name}\"")]
    UnknownSurface {
        /// The name asked for.
        name: String,
    },
    /// Occurs when a view id is registered twice (upstream text).
    #[error("View \"{id}\" is already registered")]
    DuplicateView {
        /// The view id.
        id: String,
    },
    /// Occurs when a view id is requested that is not registered (upstream text).
    #[error("Unknown view \"{id}\"")]
    UnknownView {
        /// The view id.
        id: String,
    },
    /// Occurs when a host format has the name of a runtime format.
    #[error("format \"{name}\" is already rendered by the runtime")]
    DuplicateFormat {
        /// The format name.
        name: String,
    },
    /// Occurs when host formats of the agent tools are named like formats the
    /// runtime renders itself; every offender is named, in the order given.
    /// Upstream's message:
    /// `Host formats "html", "text" shadow the runtime's own; rename them.`
    #[error(
        "Host formats {} shadow the runtime's own; rename them.",
        quoted_list(names)
    )]
    HostFormatsShadow {
        /// The shadowing format names.
        names: Vec<String>,
    },
    /// Occurs when a child path is not made of `ident` / `ident[digits]` steps.
    #[error("child path \"{path}\" is not made of field and field[index] steps")]
    UnsupportedChildPath {
        /// The path the hook returned.
        path: String,
    },
    /// Occurs when a primitive's JSON Schema cannot be compiled or is not an
    /// object schema.
    #[error("primitive \"{type_name}\" has an unusable schema: {reason}")]
    InvalidSchema {
        /// The primitive's type.
        type_name: String,
        /// What is wrong.
        reason: String,
    },
    /// Occurs when a primitive declaration is incomplete: an empty type, a
    /// blank purpose, a missing or mistyped catalog example, a missing
    /// `text` or `markdown` renderer.
    #[error("primitive \"{type_name}\" is incomplete: {reason}")]
    InvalidPrimitive {
        /// The primitive's type.
        type_name: String,
        /// What is missing.
        reason: String,
    },
    /// Occurs when a view request's input fails the budget or the view's
    /// input schema (upstream `RegisteredViewInputError`). Display is
    /// upstream's: `Invalid input for view "<id>":` then one line per
    /// finding, indented by two spaces, formatted with
    /// [`format_validation_error`].
    #[error(
        "Invalid input for view {}:{}",
        crate::js::quote_text(view_id),
        indented_lines(errors)
    )]
    ViewInputInvalid {
        /// The view id.
        view_id: String,
        /// The findings (a budget refusal keeps its code).
        errors: Vec<ValidationError>,
    },
    /// Occurs when a lookup names more distinct primitive types than one
    /// call answers (upstream `TOO_MANY_TYPES`; `describePrimitives` allows
    /// 100). Repeats of a type count once. Message:
    /// `getAuthoringContext.describePrimitives: 101 primitive types asked
    /// for, at most 100 per call`.
    #[error("{context}: {count} primitive types asked for, at most {limit} per call")]
    TooManyTypes {
        /// The operation that looked them up, e.g. `getAuthoringContext.describePrimitives`.
        context: String,
        /// How many distinct types were asked for.
        count: usize,
        /// The most one call accepts.
        limit: usize,
    },
}

/// `"\n  <formatted error>"` per error.
fn indented_lines(errors: &[ValidationError]) -> String {
    errors
        .iter()
        .map(|error| format!("\n  {}", format_validation_error(error)))
        .collect()
}

impl IsomerError {
    /// The upstream code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            IsomerError::EmptyPacks => ErrorCode::EmptyPacks,
            IsomerError::EmptyPack { .. } => ErrorCode::EmptyPack,
            IsomerError::DuplicatePrimitiveType { .. } => ErrorCode::DuplicatePrimitiveType,
            IsomerError::DuplicatePackId { .. } => ErrorCode::DuplicatePackId,
            IsomerError::InvalidPackGroups { .. } => ErrorCode::InvalidPackGroups,
            IsomerError::ReservedNodeField { .. } => ErrorCode::ReservedNodeField,
            IsomerError::EmptyFrames => ErrorCode::EmptyFrames,
            IsomerError::UnknownFrame { .. } => ErrorCode::UnknownFrame,
            IsomerError::AmbiguousFrame { .. } => ErrorCode::AmbiguousFrame,
            IsomerError::UnknownPrimitiveType { .. } => ErrorCode::UnknownPrimitiveType,
            IsomerError::UnknownSurface { .. } => ErrorCode::UnknownSurface,
            IsomerError::DuplicateView { .. } => ErrorCode::DuplicateView,
            IsomerError::UnknownView { .. } => ErrorCode::UnknownView,
            IsomerError::DuplicateFormat { .. } | IsomerError::HostFormatsShadow { .. } => {
                ErrorCode::DuplicateFormat
            }
            IsomerError::UnsupportedChildPath { .. } => ErrorCode::UnsupportedChildPath,
            IsomerError::InvalidSchema { .. } => ErrorCode::InvalidSchema,
            IsomerError::InvalidPrimitive { .. } => ErrorCode::InvalidPrimitive,
            IsomerError::ViewInputInvalid { .. } => ErrorCode::ViewInputInvalid,
            IsomerError::TooManyTypes { .. } => ErrorCode::TooManyTypes,
        }
    }
}

/// `"a", "b"`: each item JSON-quoted, joined by `", "`.
fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|item| crate::js::quote_text(item))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A composition failed validation where a valid one was required: a
/// rendering surface in `throw` mode, or any mode when the input budget
/// refused it (upstream `CompositionValidationError`, code
/// `COMPOSITION_INVALID`).
///
/// Display is upstream's message: `Invalid Composition:` then each error on
/// its own line indented by two spaces, formatted with
/// [`format_validation_error`], or
/// `Invalid Composition:\n  (no detail)` when the list is empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompositionValidationError {
    /// The findings, in validation order.
    pub errors: Vec<ValidationError>,
}

impl CompositionValidationError {
    /// Always [`ErrorCode::CompositionInvalid`].
    pub fn code(&self) -> ErrorCode {
        ErrorCode::CompositionInvalid
    }
}

impl std::fmt::Display for CompositionValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Invalid Composition:")?;
        if self.errors.is_empty() {
            return f.write_str("\n  (no detail)");
        }
        for error in &self.errors {
            write!(f, "\n  {}", format_validation_error(error))?;
        }
        Ok(())
    }
}

impl std::error::Error for CompositionValidationError {}

/// Prints a finding as upstream `formatValidationError` does:
///
/// 1. empty `path` → the message alone (a frame rule, a budget refusal, a
///    non-object root): `input nests deeper than 64 levels`;
/// 2. no `node_type` → `<path> <message>`: `body[0].title is required`;
/// 3. otherwise `<path> (in <name>) <message>`, where `<name>` is the node
///    type as-is when it is made of ASCII letters, digits, `_`, `$` and `-`,
///    else its JSON literal with U+2028/U+2029 escaped
///    ([`name_text`]): `body[0].label (in "my kpi") is required`.
///
/// The `code` is never printed. The result is one line whenever the path and
/// message are.
pub fn format_validation_error(error: &ValidationError) -> String {
    if error.path.is_empty() {
        return error.message.clone();
    }
    match &error.node_type {
        None => format!("{} {}", error.path, error.message),
        Some(node_type) => format!(
            "{} (in {}) {}",
            error.path,
            name_text(node_type),
            error.message
        ),
    }
}

/// Prints a warning as upstream's agent tools do:
/// `<surface>: <text>`, where `<text>` is the message alone when it already
/// starts with the path (an absent path counts as `""`, so a warning without
/// a path prints its message alone), else `<path> <message>`.
///
/// `{surface:"slack", path:"body[0].body[1]", message:"draws nothing"}` →
/// `slack: body[0].body[1] draws nothing`.
pub fn format_validation_warning(warning: &ValidationWarning) -> String {
    let path = warning.path.as_deref().unwrap_or("");
    let text = if warning.message.starts_with(path) {
        warning.message.clone()
    } else {
        format_validation_error(&ValidationError::new(path, warning.message.clone()))
    };
    format!("{}: {}", warning.surface, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_formats_message_names_every_offender() {
        let error = IsomerError::HostFormatsShadow {
            names: vec!["html".to_owned(), "te\"xt".to_owned()],
        };
        assert_eq!(
            error.to_string(),
            "Host formats \"html\", \"te\\\"xt\" shadow the runtime's own; rename them."
        );
        assert_eq!(error.code(), ErrorCode::DuplicateFormat);
    }

    #[test]
    fn composition_validation_error_message() {
        let empty = CompositionValidationError { errors: Vec::new() };
        assert_eq!(empty.to_string(), "Invalid Composition:\n  (no detail)");
        let two = CompositionValidationError {
            errors: vec![
                ValidationError::new("body[0].label", "is required").with_node_type("kpi"),
                ValidationError::new("", "input nests deeper than 64 levels")
                    .with_code(ErrorCode::InputOverBudget),
            ],
        };
        assert_eq!(
            two.to_string(),
            "Invalid Composition:\n  body[0].label (in kpi) is required\n  input nests deeper than 64 levels"
        );
        assert_eq!(two.code(), ErrorCode::CompositionInvalid);
        assert!(two.errors[1].is_input_refusal());
        assert!(!two.errors[0].is_input_refusal());
    }

    #[test]
    fn validation_error_serializes_as_upstream() {
        let error = ValidationError::new("", "input holds more than 20000 values")
            .with_code(ErrorCode::InputOverBudget);
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"path":"","message":"input holds more than 20000 values","code":"INPUT_OVER_BUDGET"}"#
        );
        let error = ValidationError::new("body[0]", "x").with_node_type("kpi");
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"path":"body[0]","message":"x","nodeType":"kpi"}"#
        );
    }
}
