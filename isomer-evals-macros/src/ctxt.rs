//! The error accumulator every macro validates into, after serde_derive's
//! `Ctxt`: each problem is pushed with the span of the token it is about, and
//! [`Ctxt::check`] combines them, so one build shows every mistake at once.

use std::cell::RefCell;
use std::fmt::Display;
use std::thread;

use quote::ToTokens;

/// Collects errors while an attribute and its item are validated. It must be
/// consumed with [`Ctxt::check`]; dropping it unchecked is a bug in the macro
/// and panics (outside an unwinding panic), so no error is ever lost.
pub(crate) struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// An empty accumulator.
    pub(crate) fn new() -> Ctxt {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records `message`, pointing at the tokens of `object`.
    pub(crate) fn error_spanned_by<A: ToTokens, T: Display>(&self, object: A, message: T) {
        self.syn_error(syn::Error::new_spanned(object.into_token_stream(), message));
    }

    /// Records an error `syn` produced (a parse error, say).
    pub(crate) fn syn_error(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    /// Consumes the accumulator: `Ok` when nothing was recorded, else every
    /// error combined into one (each keeps its own span).
    pub(crate) fn check(self) -> Result<(), syn::Error> {
        let mut errors = self
            .errors
            .borrow_mut()
            .take()
            .expect("Ctxt checked twice")
            .into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;

    use super::*;

    #[test]
    fn no_errors_checks_ok() {
        assert!(Ctxt::new().check().is_ok());
    }

    #[test]
    fn every_error_is_kept_in_order() {
        let cx = Ctxt::new();
        cx.syn_error(syn::Error::new(Span::call_site(), "first"));
        cx.error_spanned_by(quote::quote!(x), "second");
        let messages: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|error| error.to_string())
            .collect();
        assert_eq!(messages, ["first", "second"]);
    }

    #[test]
    #[should_panic(expected = "forgot to check for errors")]
    fn an_unchecked_context_panics() {
        let _cx = Ctxt::new();
    }
}
