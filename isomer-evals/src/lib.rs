//! Scoring Isomer compositions written by models.
