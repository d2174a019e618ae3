//! Proc macros for Isomer. This crate only parses attributes and emits
//! tokens; the behaviour lives in the runtime crates that re-export the
//! macros (`isomer-agent-tools` re-exports [`macro@isomer_tool`]), and the
//! expansions reach them only through `<crate>::__private`.
//!
//! # `#[isomer_tool]`
//!
//! Declares an agent tool from a handler function. The handler is kept as
//! written; beside it the macro emits `<fn>_tool(context...) -> Tool`, which
//! builds an `isomer_sdk::Tool`: name, title, description, the input JSON
//! Schema, and an erased async handler that never fails outside its result.
//!
//! ```
//! use std::sync::Arc;
//!
//! use isomer_evals_macros::isomer_tool; // isomer_agent_tools::isomer_tool
//! use isomer_sdk::ToolResult;
//!
//! /// What the handlers share.
//! pub struct Catalog {
//!     known: Vec<String>,
//! }
//!
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! pub struct DescribeInput {
//!     /// Primitive types, as the guide lists them.
//!     types: Vec<String>,
//! }
//!
//! /// Describes the primitive types you name.
//! #[isomer_tool(title = "Describe primitives")]
//! async fn describe(catalog: Arc<Catalog>, input: DescribeInput) -> Result<String, String> {
//!     match input.types.iter().find(|name| !catalog.known.contains(name)) {
//!         Some(unknown) => Err(format!("unknown type {unknown:?}")),
//!         None => Ok(input.types.join(", ")),
//!     }
//! }
//!
//! // Generated: fn describe_tool(catalog: Arc<Catalog>) -> isomer_sdk::Tool
//! let tool = describe_tool(Arc::new(Catalog { known: vec!["kpi".into()] }));
//! assert_eq!(tool.title.as_deref(), Some("Describe primitives"));
//! assert_eq!(tool.description, "Describes the primitive types you name.");
//!
//! let call = |input| futures::executor::block_on(tool.call(input));
//! assert_eq!(call(serde_json::json!({ "types": ["kpi"] })), ToolResult::text("kpi"));
//! assert_eq!(
//!     call(serde_json::json!({ "types": ["pie"] })),
//!     ToolResult::error("unknown type \"pie\"")
//! );
//! ```
//!
//! ## Keys
//!
//! | key | type | usage | default |
//! |---|---|---|---|
//! | `name` | string | the name a model calls the tool by: 1 to 64 of `A-Z a-z 0-9 _ -` (what OpenAI and Anthropic accept) | the function's name |
//! | `title` | string | a short human title, not empty | none (`title` omitted) |
//! | `crate` | string path | where the sdk is, for a renamed or re-exported dependency | `"::isomer_sdk"` |
//! | `annotations(...)` | `read_only_hint`, `destructive_hint`, `idempotent_hint`, `open_world_hint`, each `= true` or `= false` | MCP's tool annotations (hints for clients); the `title` key, when given, is also the annotations' title | none (`annotations` omitted) |
//! | `allow_unknown_keys` | flag | calls may carry keys the input type does not declare (they are ignored); without it the input schema closes every object (`additionalProperties: false`) and such a call is refused, naming the key | unknown keys refused |
//!
//! The description is the function's doc comment (not a key): its text with
//! the one space after `///` removed (the further lines of a `/** */` block
//! lose the indentation they share), lines joined with `\n`, blank lines at
//! either end dropped. A tool without a doc comment, or with one written
//! as `#[doc = include_str!(..)]`, does not compile.
//!
//! ## The handler
//!
//! - **Parameters.** The last parameter is the tool's *input*: an owned
//!   type implementing `serde::Deserialize` and `schemars::JsonSchema` whose
//!   schema is a JSON object (a struct with named fields, or a map). Every
//!   parameter before it is *context*: taken by value, `Clone + Send + Sync
//!   + 'static` (wrap shared state in `Arc`), passed to the constructor once
//!   and cloned into every call. A tool without input takes
//!   `_: isomer_sdk::NoInput` last, or has no parameter at all.
//! - **Sync or async.** An `async fn` is awaited; a plain `fn` runs inside
//!   the call's future (keep it short, or hand heavy work to a blocking pool
//!   yourself). The future must be `Send`.
//! - **Return type**, through `isomer_sdk::IntoToolResult`: `ToolResult` as
//!   is; `String` or `&'static str` as a text block; `isomer_sdk::Json<T>`
//!   (`T: Serialize`) or `serde_json::Value` as two-space JSON text (plus
//!   `structuredContent` when the value is an object); and
//!   `Result<T, E: Display>` of any of those, an `Err` answering a failed
//!   result with `e.to_string()`, or `Result<T, ToolResult>`, an `Err`
//!   answered as is.
//! - **Output schema.** A handler returning `Json<T>` or `Result<Json<T>, E>`
//!   (recognised by the type's last path segment, as rmcp's `#[tool]` does)
//!   gets `T`'s JSON Schema as the tool's output schema when `T` is an
//!   object; `T` must then implement `schemars::JsonSchema`.
//! - **Generics** and `where` clauses are copied to the constructor. Methods
//!   (`self`), `unsafe fn` and variadic functions are refused.
//!
//! ## What the constructor builds
//!
//! `isomer_sdk::__private::tool::<Input, _, _>(name, description, closure)`
//! plus `.with_title(title)`, `.with_annotations(...)`,
//! `.allow_unknown_keys()` and the output schema, each when asked for, where the closure clones the
//! context and calls the handler. The input schema is
//! `isomer_sdk::tool_input_schema::<Input>()` (draft 2020-12, inlined, root
//! `type: object`). `Tool::call(arguments)` checks the arguments against the
//! schema, deserializes them, runs the handler, and answers refused input, an
//! `Err` and a panic each as a failed `ToolResult` whose text says what went
//! wrong. The constructor panics when the input type's schema is not an
//! object or is recursive; the obvious cases (`String`, numbers, `Vec`,
//! `Option`, tuples, references) are compile errors instead.
//!
//! ## Compile errors
//!
//! Every mistake is reported at the token it is about, all in one build:
//! unknown or repeated keys, a bad name, a missing doc comment, a `self`
//! parameter, a non-object or borrowed input. A missing derive on the input
//! is reported at the input type with the derive to add. On any error the
//! handler is still emitted unchanged, with a stub constructor, so only the
//! real error shows.
//!
//! ## Known limitations
//!
//! - A handler inside an `impl` block is not supported; use a free function
//!   with a context parameter.
//! - A stack overflow inside a handler aborts the process; only panics are
//!   caught.
//!
//! # `#[isomer_eval]`
//!
//! Turns a function returning the runtime under test (or an
//! `isomer_evals::harness::Suite`) into the `main` of a `harness = false` test
//! target: one test per case of `<corpus>/corpus.json`, named
//! `<suite>::<case id>`, plus `<suite>::totals`. `isomer_evals` re-exports it,
//! and its `harness` module is the manual (trials, replay, baseline, accept
//! flow, limitations); `isomer_evals::floor` documents every floor.
//!
//! ```ignore
//! #[isomer_evals::isomer_eval(corpus = "../../corpus/slides", valid_after_retry, min_mean_selection_f1 = 0.98)]
//! fn slides() -> isomer_sdk::Runtime {
//!     isomer_slides::runtime().unwrap()
//! }
//! ```
//!
//! ## Keys
//!
//! | key | type | usage | default |
//! |---|---|---|---|
//! | `corpus` | string | the directory holding `corpus.json`, relative to the package root | required |
//! | `name` | string | the suite name, first part of every trial name | the function's name |
//! | `main` | bool | `false` emits no `main`; name the suites in `isomer_evals::main!(a, b)` | `true` |
//! | `snapshots` | string | the baseline snapshot directory, relative to the package root | `"tests/snapshots"` |
//! | `crate` | string path | where isomer-evals is, as an absolute path | `"::isomer_evals"` |
//! | `valid_after_retry`, `expected_hit`, `no_invented_types`, `answerability_not_no` | flag | case floors | off |
//! | `min_selection_f1` (0–1), `max_size_vs_golden` (> 0) | number | case floors | off |
//! | `min_valid_ratio`, `min_valid_after_retry_ratio`, `min_mean_selection_f1` (0–1) | number | suite floors | off |
//! | `max_answerability_no` | integer | suite floor | off |
//!
//! ## At compile time
//!
//! The corpus path resolves against `ISOMER_EVAL_MANIFEST_DIR` when set (for
//! trybuild, whose copy of the package has another `CARGO_MANIFEST_DIR`), else
//! against `CARGO_MANIFEST_DIR`. `corpus.json` is read with the same reader the
//! harness uses at run time (`isomer-evals/src/corpus/manifest.rs`, included by
//! path) and tracked with `include_str!`, so editing it rebuilds the target. An
//! unknown floor is an error at its key, a bad value at its literal, and a
//! missing file, malformed JSON (line:column), a case fault or a duplicate case
//! id (both places) at `corpus = "..."`; one build shows every problem, and the
//! fallback still emits the function and an empty `main`, so only the real
//! errors show. The expansion is data: the function unchanged, a module
//! `__isomer_eval_<fn>` (never the function's own name, which would shadow a crate
//! of that name in the file) holding a `SuiteSpec` constant (name, corpus text, case ids and
//! byte ranges, floors, build fn), and `fn main() { harness::run(&[SUITE]) }` with a guard
//! test that fails a target built without `harness = false`.
//!
//! Put the attribute on a module-level function. The generated module calls the function
//! as `super::<name>`, which does not reach a function declared inside another function's
//! body; a proc macro attribute sees only its item, not where it stands, so that case is
//! rustc's ``cannot find function `<name>` in module `super` ``, not an error of its own.

mod ctxt;
mod eval;
mod tool;

/// Declares an agent tool from a handler function; see the
/// [crate documentation](crate#isomer_tool) for keys, parameters, return
/// types and the generated `<fn>_tool` constructor.
#[proc_macro_attribute]
pub fn isomer_tool(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    tool::expand(args.into(), item.into()).into()
}

/// Turns a function returning a runtime into the `main` of a `harness = false` eval gate:
/// one test per case of `corpus.json`, named `<suite>::<case id>`, plus `<suite>::totals`,
/// with the floors given as keys. `isomer_evals` re-exports it; its `harness` module
/// documents every key, the floors, the trials and the baseline.
#[proc_macro_attribute]
pub fn isomer_eval(
    args: proc_macro::TokenStream,
    item: proc_macro::TokenStream,
) -> proc_macro::TokenStream {
    eval::expand::isomer_eval(args.into(), item.into()).into()
}

/// The `SUITE` constant `#[isomer_eval]` wrote for the function named in the input:
/// `suite_spec!(slides)` is `__isomer_eval_slides::SUITE`. Not public API: reached
/// through `isomer_evals::main!` and `isomer_evals::suite!`.
#[doc(hidden)]
#[proc_macro]
pub fn __suite_spec(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    eval::expand::suite_spec(input.into()).into()
}
