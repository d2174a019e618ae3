//! Agent tools over an Isomer runtime.
