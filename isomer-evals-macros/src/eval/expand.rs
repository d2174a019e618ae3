//! The expansion of `#[isomer_eval]`: the untouched function, a module named
//! `__isomer_eval_<fn>` holding the suite's `SuiteSpec` constant, and (unless
//! `main = false`) the target's `main`.
//!
//! The module is not named after the function itself: a module `mypack` would shadow the
//! crate `mypack` in the file, so a suite fn `mypack` calling `mypack::runtime()` would not
//! compile. [`module_ident`] is the one place that forms the name; `isomer_evals::main!`
//! and `isomer_evals::suite!` reach it through `suite_spec!` below.
//!
//! ```ignore
//! fn slides() -> Runtime { ... }                     // unchanged
//! #[doc(hidden)]
//! mod __isomer_eval_slides {
//!     pub(crate) const SUITE: ::isomer_evals::__private::SuiteSpec = SuiteSpec {
//!         name: "slides",
//!         corpus: CorpusSpec {
//!             path: "corpus/slides",
//!             dir: "/abs/corpus/slides",
//!             manifest: include_str!("/abs/corpus/slides/corpus.json"),
//!             cases: &[CaseSpec { id: "a", start: 120, end: 180 }, ...],
//!         },
//!         build: __build,
//!         floors: &[Floor::number("min_selection_f1", 0.8f64)],
//!         snapshots: "/abs/tests/snapshots",
//!     };
//!     fn __build() -> Suite { into_suite(super::slides()) }
//! }
//! harness_false_guard!("#[isomer_eval]");
//! fn main() -> ExitCode { run(&[__isomer_eval_slides::SUITE]) }
//! ```
//!
//! `harness_false_guard!` (which `isomer_evals::main!` writes too) is a `#[test]` that only
//! libtest's own harness runs, failing with "add `harness = false`": without that key cargo
//! ignores the written `main`, and the target would pass with `running 0 tests`.
//!
//! With `agent`, the constant is an `AgentSuiteSpec` (its floors named from the agent
//! table) and `__build` returns an `AgentSuite` through `into_agent_suite`; `main` is the
//! same.
//! Either constant converts into `AnySuiteSpec`, so `isomer_evals::main!` takes suites of
//! both kinds in one target.
//!
//! All behaviour lives in `isomer_evals::harness`; this only writes data.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ItemFn;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned;

use super::args::{EvalArgs, FloorValue, parse_args};
use super::check::check;
use super::corpus::{Corpus, package_root, read_corpus};
use crate::ctxt::Ctxt;

/// The entry: parses, checks, reads the corpus, and expands or falls back.
pub(crate) fn isomer_eval(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item_fn: ItemFn = match syn::parse2(item.clone()) {
        Ok(item_fn) => item_fn,
        Err(_) => {
            let error = syn::Error::new(
                Span::call_site(),
                "#[isomer_eval] goes on a function that returns the runtime under test",
            );
            return fallback(error, item, true);
        }
    };
    let cx = Ctxt::new();
    let args = parse_args(&cx, attr);
    check(&cx, &args, &item_fn);
    let corpus = match (&args.corpus, package_root()) {
        (Some(corpus), Some(root)) => read_corpus(&cx, &root, corpus),
        (Some(corpus), None) => {
            cx.error_spanned_by(
                corpus,
                "cannot resolve the corpus: CARGO_MANIFEST_DIR is not set (build with cargo)",
            );
            None
        }
        (None, _) => None,
    };
    let emits_main = args.emits_main();
    match (cx.check(), corpus) {
        (Ok(()), Some(corpus)) => expand(&args, &item_fn, &corpus),
        (Err(error), _) => fallback(error, item_fn.into_token_stream_kept(), emits_main),
        (Ok(()), None) => fallback(
            syn::Error::new(Span::call_site(), "the corpus could not be read"),
            item_fn.into_token_stream_kept(),
            emits_main,
        ),
    }
}

/// The name of the module the expansion of `#[isomer_eval]` on `function` writes:
/// `__isomer_eval_<function>` (a raw identifier without its `r#`), at the function name's
/// span so that it resolves where the function is named.
pub(crate) fn module_ident(function: &Ident) -> Ident {
    format_ident!("__isomer_eval_{}", function.unraw(), span = function.span())
}

/// The expansion of `suite_spec!(<fn>)`: the path of the `SUITE` constant that
/// `#[isomer_eval]` on `<fn>` wrote (`__isomer_eval_<fn>::SUITE`).
pub(crate) fn suite_spec(input: TokenStream) -> TokenStream {
    match syn::parse2::<Ident>(input) {
        Ok(function) => {
            let module = module_ident(&function);
            quote!(#module::SUITE)
        }
        Err(error) => syn::Error::new(
            error.span(),
            "name the function that carries #[isomer_eval], as in `isomer_evals::main!(slides)`",
        )
        .to_compile_error(),
    }
}

/// Keeps the user's function in the fallback, silenced, so only the real error shows.
trait KeepFn {
    fn into_token_stream_kept(self) -> TokenStream;
}

impl KeepFn for ItemFn {
    fn into_token_stream_kept(self) -> TokenStream {
        quote!(#[allow(dead_code)] #self)
    }
}

/// The errors as `compile_error!`, the item, and an empty `main` (so no second error about
/// a missing `main` hides the real one).
fn fallback(error: syn::Error, item: TokenStream, emits_main: bool) -> TokenStream {
    let errors = error.to_compile_error();
    let main = emits_main.then(|| {
        quote!(
            fn main() {}
        )
    });
    quote! {
        #errors
        #item
        #main
    }
}

fn expand(args: &EvalArgs, item_fn: &ItemFn, corpus: &Corpus) -> TokenStream {
    let krate = match &args.krate {
        Some(path) => quote!(#path),
        None => quote!(::isomer_evals),
    };
    let private = quote!(#krate::__private);
    let ident = &item_fn.sig.ident;
    let module = module_ident(ident);
    let name = args
        .name
        .as_ref()
        .map_or_else(|| ident.to_string(), syn::LitStr::value);
    let corpus_lit = args
        .corpus
        .as_ref()
        .map(syn::LitStr::value)
        .unwrap_or_default();
    let corpus_span = args
        .corpus
        .as_ref()
        .map_or_else(Span::call_site, |lit| lit.span());
    let dir = path_literal(&corpus.dir);
    let manifest_path = path_literal(&corpus.manifest_path);
    let cases = corpus.cases.iter().map(|(id, start, end)| {
        let (id, start, end) = (
            Literal::string(id),
            Literal::usize_unsuffixed(*start),
            Literal::usize_unsuffixed(*end),
        );
        quote!(#private::CaseSpec { id: #id, start: #start, end: #end })
    });
    let snapshots_rel = args
        .snapshots
        .as_ref()
        .map_or_else(|| "tests/snapshots".to_owned(), syn::LitStr::value);
    let snapshots = path_literal(&corpus.root.join(snapshots_rel));
    let (spec_ty, suite_ty, into_suite) = if args.agent {
        (
            quote!(AgentSuiteSpec),
            quote!(AgentSuite),
            quote!(into_agent_suite),
        )
    } else {
        (quote!(SuiteSpec), quote!(Suite), quote!(into_suite))
    };
    let floors = args.floors.iter().filter_map(|floor| {
        let name = Literal::string(&floor.key.to_string());
        let (constructor, value) = match floor.value {
            FloorValue::Flag(false) => return None,
            FloorValue::Flag(true) => (quote!(flag), None),
            FloorValue::Number(n) => (quote!(number), Some(Literal::f64_suffixed(n))),
            FloorValue::Count(n) => (quote!(count), Some(Literal::u64_suffixed(n))),
        };
        let value = value.map(|lit| quote_spanned!(floor.value_span=> , #lit));
        Some(quote_spanned!(floor.key.span()=> #private::Floor::#constructor(#name #value)))
    });
    let output_span = match &item_fn.sig.output {
        syn::ReturnType::Type(_, ty) => ty.span(),
        syn::ReturnType::Default => ident.span(),
    };
    let build_call = quote_spanned!(output_span=> #private::#into_suite(super::#ident()));
    let include = quote_spanned!(corpus_span=> #private::include_str!(#manifest_path));
    let doc = format!(
        "The `{name}` eval suite over `{corpus_lit}`, written by `#[isomer_eval]`: name `{ident}` in `isomer_evals::main!`, or pass `isomer_evals::suite!({ident})` to `isomer_evals::harness::run`."
    );
    let doc = if args.agent {
        format!(
            "The `{name}` agent eval suite over `{corpus_lit}`, written by `#[isomer_eval]`: name `{ident}` in `isomer_evals::main!` (beside single-shot suites too), or pass `isomer_evals::suite!({ident})` to `isomer_evals::harness::run`."
        )
    } else {
        doc
    };
    // The guard is `isomer_evals::main!`'s too: a `#[test]` failing a target built
    // without `harness = false`. `main` itself is written here, so that an unresolved
    // `crate = "..."` path is one error, not also a missing `main`.
    let main = args.emits_main().then(|| {
        quote! {
            #private::harness_false_guard!("#[isomer_eval]");
            /// Runs the eval suite's trials (`#[isomer_eval]` wrote this `main`).
            fn main() -> #private::ExitCode {
                #private::run(&[#module::SUITE])
            }
        }
    });
    quote! {
        #item_fn

        #[doc = #doc]
        #[doc(hidden)]
        mod #module {
            #[doc = #doc]
            pub(crate) const SUITE: #private::#spec_ty = #private::#spec_ty {
                name: #name,
                corpus: #private::CorpusSpec {
                    path: #corpus_lit,
                    dir: #dir,
                    manifest: #include,
                    cases: &[#(#cases),*],
                },
                build: __build,
                floors: &[#(#floors),*],
                snapshots: #snapshots,
            };

            fn __build() -> #private::#suite_ty {
                #build_call
            }
        }

        #main
    }
}

/// A path as a string literal (lossy for non-UTF-8 paths, which cargo does not produce).
fn path_literal(path: &std::path::Path) -> Literal {
    Literal::string(&path.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The expansion of `#[isomer_eval(<attr>)] fn mini() -> R { .. }` over the mini
    /// fixture corpus, as token text.
    fn expansion(attr: TokenStream) -> String {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../isomer-evals");
        let cx = Ctxt::new();
        let args = parse_args(&cx, attr);
        let corpus = read_corpus(&cx, &root, args.corpus.as_ref().unwrap());
        cx.check().unwrap();
        let item_fn: ItemFn = syn::parse_quote!(
            fn mini() -> R {
                R
            }
        );
        expand(&args, &item_fn, &corpus.unwrap()).to_string()
    }

    #[test]
    fn the_main_comes_with_the_harness_false_guard() {
        let single = expansion(quote!(corpus = "tests/fixtures/eval/mini"));
        assert!(
            single.ends_with(
                "} :: isomer_evals :: __private :: harness_false_guard ! (\"#[isomer_eval]\") ; # [doc = r\" Runs the eval suite's trials (`#[isomer_eval]` wrote this `main`).\"] fn main () -> :: isomer_evals :: __private :: ExitCode { :: isomer_evals :: __private :: run (& [__isomer_eval_mini :: SUITE]) }"
            ),
            "{single}"
        );
        assert_eq!(single.matches("harness_false_guard").count(), 1);
        let agent = expansion(quote!(
            corpus = "tests/fixtures/eval/mini-agent",
            agent,
            crate = "::renamed"
        ));
        assert!(
            agent.ends_with(
                "} :: renamed :: __private :: harness_false_guard ! (\"#[isomer_eval]\") ; # [doc = r\" Runs the eval suite's trials (`#[isomer_eval]` wrote this `main`).\"] fn main () -> :: renamed :: __private :: ExitCode { :: renamed :: __private :: run (& [__isomer_eval_mini :: SUITE]) }"
            ),
            "{agent}"
        );
        let no_main = expansion(quote!(corpus = "tests/fixtures/eval/mini", main = false));
        assert!(!no_main.contains("harness_false_guard"), "{no_main}");
        assert!(!no_main.contains("fn main"), "{no_main}");
    }
}
