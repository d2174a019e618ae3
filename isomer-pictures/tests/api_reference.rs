//! The API reference, `docs/api/isomer-pictures.md`, lists exactly the crate's public names (read
//! from the source; see `docs/api/public_names.rs`).

#[path = "../../docs/api/public_names.rs"]
mod public_names;

#[test]
fn the_api_reference_lists_every_public_name() {
    public_names::check(env!("CARGO_MANIFEST_DIR"), "isomer-pictures");
}
