//! `#[isomer_tool]`: attribute parsing ([`args`]) and expansion ([`expand`]).

mod args;
mod expand;

pub(crate) use expand::expand;
