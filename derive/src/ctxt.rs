//! Error collection: every problem found in one pass over the input, each with its span,
//! reported together (the pattern of serde_derive's `Ctxt`).

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// Collects errors while the input is checked.
///
/// [`Ctxt::check`] must be called before the context is dropped, so that no error can be
/// lost.
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error spanning the tokens of `obj`.
    pub fn error_spanned_by<T: ToTokens>(&self, obj: T, message: impl Display) {
        self.syn_error(syn::Error::new_spanned(obj.into_token_stream(), message));
    }

    /// Records an error produced by syn.
    pub fn syn_error(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    /// All errors recorded, combined into one, if there are any.
    pub fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let mut errors = errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("Ctxt dropped without check");
        }
    }
}
