//! The writer a framing writer writes to, held until `into_inner` takes it, and whether the
//! framing writer has failed.

use std::io::{self, Write};
use std::ops::{Deref, DerefMut};

use crate::error::Result;

/// A framing writer's underlying writer. Writers that write what is pending when dropped
/// (as `BufWriter` does) implement `Drop`, and Rust does not let a `Drop` type move a field
/// out: `into_inner` takes the writer from here instead, which also tells `drop` that
/// there is nothing left to finish. It also remembers whether a write failed (see
/// [`Held::watch`]), so that `drop` does not close a failed output into a well-formed one.
#[derive(Debug)]
pub(crate) struct Held<W> {
    inner: Option<W>,
    failed: bool,
}

impl<W> Held<W> {
    pub(crate) fn new(inner: W) -> Self {
        Held {
            inner: Some(inner),
            failed: false,
        }
    }

    /// Takes the writer, once: by `into_inner(self)`, which consumes its owner.
    pub(crate) fn take(&mut self) -> W {
        self.inner
            .take()
            .expect("a framing writer's writer is taken once")
    }

    /// Whether `into_inner` has taken the writer (so `drop` has nothing to finish).
    pub(crate) fn is_taken(&self) -> bool {
        self.inner.is_none()
    }

    /// Passes on the result of one of the framing writer's public writing methods,
    /// remembering an error: from then on the writer does not finish when dropped.
    pub(crate) fn watch<T>(&mut self, result: Result<T>) -> Result<T> {
        self.failed |= result.is_err();
        result
    }

    /// Whether a writing method has returned an error.
    pub(crate) fn failed(&self) -> bool {
        self.failed
    }
}

impl<W> Deref for Held<W> {
    type Target = W;

    fn deref(&self) -> &W {
        // Only `into_inner(self)` takes the writer, and nothing can use its owner after it.
        self.inner
            .as_ref()
            .expect("a framing writer used after into_inner")
    }
}

impl<W> DerefMut for Held<W> {
    fn deref_mut(&mut self) -> &mut W {
        self.inner
            .as_mut()
            .expect("a framing writer used after into_inner")
    }
}

impl<W: Write> Held<W> {
    /// The end of a framing writer's `finish`: flushes the writer once `pending` (what the
    /// framing writer had left to write) succeeded, passing the result through
    /// [`Held::watch`].
    pub(crate) fn flush_after(&mut self, pending: Result<()>) -> Result<()> {
        let result = pending.and_then(|()| Ok(self.flush()?));
        self.watch(result)
    }
}

impl<W: Write> Write for Held<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        (**self).write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        (**self).write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        (**self).flush()
    }
}

/// `into_inner` and `Drop` for a framing writer `$ty<W>` whose writer is the [`Held`] field
/// `inner`, whose writing methods pass their results through [`Held::watch`], and which
/// finishes with `$finish` (writes what is pending and flushes): one behaviour for every
/// writer. `$what` says what `$finish` does ("writing the pending chunk"), for the error
/// of `into_inner`. With `buffered`, the held writer is a `BufWriter<W>`, whose own `Drop`
/// would write what a failed write left in its buffer.
macro_rules! finish_on_drop {
    ($ty:ident, $finish:path, $what:literal) => {
        $crate::framing::held::finish_on_drop!(@impl $ty, $finish, $what, W, |w: W| w);
    };
    ($ty:ident, $finish:path, $what:literal, buffered) => {
        // After a successful `$finish` (which flushes) the buffer is empty, and after a
        // failure its bytes must not reach the writer: `into_parts` gives them back unwritten.
        $crate::framing::held::finish_on_drop!(
            @impl $ty, $finish, $what, std::io::BufWriter<W>,
            |w: std::io::BufWriter<W>| w.into_parts().0
        );
    };
    (@impl $ty:ident, $finish:path, $what:literal, $held:ty, $unwrap:expr) => {
        impl<W: std::io::Write> $ty<W> {
            #[doc = concat!(
                "Finishes (", $what, ": see `finish`) and gives back the writer.\n\n",
                "When that fails, the error says what failed and holds this writer, as ",
                "`BufWriter::into_inner` does: call `into_inner` on it again, or drop it, ",
                "which then writes nothing more."
            )]
            pub fn into_inner(mut self) -> std::result::Result<W, $crate::IntoInnerError<Self>> {
                let finished = $finish(&mut self);
                if let Err(e) = self.inner.watch(finished) {
                    let e = e.context(concat!(stringify!($ty), "::into_inner failed ", $what));
                    return Err($crate::IntoInnerError::new(self, e));
                }
                let held: $held = self.inner.take();
                Ok($unwrap(held))
            }
        }

        /// Writes what is pending, ignoring errors, as `BufWriter` does (call `finish` or
        /// `into_inner` to see them) — unless a writing method has returned an error: then
        /// it writes nothing, so that a failed output is not closed into a well-formed,
        /// shorter one.
        impl<W: std::io::Write> Drop for $ty<W> {
            fn drop(&mut self) {
                if self.inner.is_taken() {
                    return;
                }
                if !self.inner.failed() {
                    let _ = $finish(self);
                }
                // Unwrapped, a `BufWriter` drops unwritten what a failure left in it.
                let held: $held = self.inner.take();
                drop($unwrap(held));
            }
        }
    };
}
pub(crate) use finish_on_drop;
