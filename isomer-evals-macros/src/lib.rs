//! Proc macros for Isomer. Filled in by the eval and tool issues.
