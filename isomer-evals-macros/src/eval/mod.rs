//! `#[isomer_eval]`: parse the attribute (`args`), read the corpus with the run-time
//! manifest reader (`corpus`), check cross-key rules (`check`), write the expansion
//! (`expand`).

mod args;
mod check;
mod corpus;
pub(crate) mod expand;
