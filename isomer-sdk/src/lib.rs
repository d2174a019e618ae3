//! The Isomer composition contract.
//!
//! (Crate documentation is written as the crate fills in.)

pub mod catalog;
pub mod error;
pub mod js;
pub mod prompt;
pub mod walk;

pub use catalog::{AuthoringContext, CatalogEntry, PrimitiveDescriptions, PrimitiveGroup, ViewSummary};
pub use error::{
    CompositionValidationError, ErrorCode, IsomerError, SURFACE_NAMES, ValidationError,
    ValidationWarning,
};
pub use prompt::{AuthoringProfile, CatalogMode, PromptContext};
pub use walk::{ChildRef, ChildWalker};

/// Formats a finding as upstream `formatValidationError` (sdk.md §2.3).
pub fn format_validation_error(error: &ValidationError) -> String {
    let _ = error;
    todo!("issue 2")
}
