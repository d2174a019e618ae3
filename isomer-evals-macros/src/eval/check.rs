//! The rules that look at more than one key, or at the function itself. Each is a
//! `check_*` fn that reports into the [`Ctxt`].

use proc_macro2::Span;
use syn::ItemFn;

use super::args::EvalArgs;
use crate::ctxt::Ctxt;

/// Runs every check.
pub(crate) fn check(cx: &Ctxt, args: &EvalArgs, item: &ItemFn) {
    check_corpus_given(cx, args);
    check_suite_name(cx, args, item);
    check_signature(cx, item);
}

/// `corpus` is the one required key: without it there is nothing to run.
fn check_corpus_given(cx: &Ctxt, args: &EvalArgs) {
    if args.corpus.is_none() {
        cx.syn_error(syn::Error::new(
            Span::call_site(),
            "#[isomer_eval] needs `corpus = \"<dir>\"`: the directory holding corpus.json, relative to the package root",
        ));
    }
}

/// The suite name starts every trial name (`<suite>::<case id>`), so it may not contain
/// `::` or spaces: ASCII letters, digits, `_` and `-`, like a case id. A function named
/// `main` cannot be a suite, because the expansion writes `main` itself.
fn check_suite_name(cx: &Ctxt, args: &EvalArgs, item: &ItemFn) {
    if let Some(name) = &args.name {
        let value = name.value();
        let fine = !value.is_empty()
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !fine {
            cx.error_spanned_by(
                name,
                "a suite name is ASCII letters, digits, `_` and `-`, because trials are named `<suite>::<case id>`",
            );
        }
    }
    if item.sig.ident == "main" {
        cx.error_spanned_by(
            &item.sig.ident,
            "an #[isomer_eval] function cannot be named `main`: the expansion writes `main`; name it after the suite",
        );
    }
}

/// The harness calls the function with no arguments, synchronously, once per trial.
fn check_signature(cx: &Ctxt, item: &ItemFn) {
    if !item.sig.inputs.is_empty() {
        cx.error_spanned_by(
            &item.sig.inputs,
            "an #[isomer_eval] function takes no arguments: it builds the runtime the corpus runs against",
        );
    }
    if let Some(asyncness) = &item.sig.asyncness {
        cx.error_spanned_by(
            asyncness,
            "an #[isomer_eval] function cannot be async: build the runtime synchronously",
        );
    }
    if !item.sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &item.sig.generics,
            "an #[isomer_eval] function cannot be generic",
        );
    }
    if matches!(item.sig.output, syn::ReturnType::Default) {
        cx.error_spanned_by(
            &item.sig.ident,
            "an #[isomer_eval] function returns the runtime under test, or an isomer_evals::harness::Suite",
        );
    }
}
