//! Compile-fail tests of `#[isomer_tool]`: one file per mistake under
//! `tests/ui/tool/`, each with the `.stderr` rustc prints for it. The
//! `.stderr` files are pinned for the workspace toolchain (rustc 1.95);
//! another rustc may word or place a note differently. Regenerate with
//! `TRYBUILD=overwrite cargo test -p isomer-evals-macros --test tool_ui` and
//! read the diff.

#[test]
fn tool_ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/tool/*.rs");
}
