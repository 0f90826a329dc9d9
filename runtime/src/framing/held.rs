//! The writer a framing writer writes to, held until `into_inner` takes it.

use std::io::{self, Write};
use std::ops::{Deref, DerefMut};

/// A framing writer's underlying writer. Writers that write what is pending when dropped
/// (as `BufWriter` does) implement `Drop`, and Rust does not let a `Drop` type move a field
/// out: `into_inner` takes the writer from here instead, which also tells `drop` that
/// there is nothing left to finish.
#[derive(Debug)]
pub(crate) struct Held<W>(Option<W>);

impl<W> Held<W> {
    pub(crate) fn new(inner: W) -> Self {
        Held(Some(inner))
    }

    /// Takes the writer, once: by `into_inner(self)`, which consumes its owner.
    pub(crate) fn take(&mut self) -> W {
        self.0
            .take()
            .expect("a framing writer's writer is taken once")
    }

    /// Whether `into_inner` has taken the writer (so `drop` has nothing to finish).
    pub(crate) fn is_taken(&self) -> bool {
        self.0.is_none()
    }
}

impl<W> Deref for Held<W> {
    type Target = W;

    fn deref(&self) -> &W {
        // Only `into_inner(self)` takes the writer, and nothing can use its owner after it.
        self.0
            .as_ref()
            .expect("a framing writer used after into_inner")
    }
}

impl<W> DerefMut for Held<W> {
    fn deref_mut(&mut self) -> &mut W {
        self.0
            .as_mut()
            .expect("a framing writer used after into_inner")
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
/// `inner` and which finishes with `$finish` (writes what is pending and flushes): one
/// behaviour for every writer, as `BufWriter`'s. `$unwrap` turns the held writer into the
/// `W` given back.
macro_rules! finish_on_drop {
    ($ty:ident, $finish:path, $unwrap:expr) => {
        impl<W: std::io::Write> $ty<W> {
            /// Writes what is pending (see `finish`), then gives back the writer. After a
            /// failure the writer is dropped: what it holds is incomplete.
            pub fn into_inner(mut self) -> $crate::error::Result<W> {
                let finished = $finish(&mut self);
                let inner = self.inner.take();
                finished.and_then(|()| $unwrap(inner))
            }
        }

        /// Writes what is pending, ignoring errors, as `BufWriter` does: call `finish` or
        /// `into_inner` to see them.
        impl<W: std::io::Write> Drop for $ty<W> {
            fn drop(&mut self) {
                if !self.inner.is_taken() {
                    let _ = $finish(self);
                }
            }
        }
    };
}
pub(crate) use finish_on_drop;
