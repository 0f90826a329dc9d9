//! Framings: containers that carry serialized records (opaque payloads, typically one record
//! in binary form each). One module per framing; each has a reader that yields payloads and a
//! writer that frames them. [`split`] reads a byte range of a file in any framing, so that
//! several readers share one large file.
//!
//! Readers implement `Iterator<Item = Result<Vec<u8>>>` (after an error they yield nothing
//! more, and every complete payload before the damage is yielded first); writers implement
//! [`FrameWrite`], so tools such as `rcc frame` convert between framings generically.

use crate::error::Result;

pub use pool::BufferPool;

/// A writer that frames payloads.
///
/// Every framing writer writes what is pending (a chunk, a block, a header) when it is
/// dropped, ignoring errors, as `std::io::BufWriter` does; its `into_inner` writes it and
/// reports errors, then gives back the writer. Call [`FrameWrite::finish`] to write it and
/// go on.
pub trait FrameWrite {
    /// Frames one payload.
    fn write_payload(&mut self, payload: &[u8]) -> Result<()>;

    /// Writes whatever is buffered (a pending chunk, a trailer) and flushes. Writing more
    /// payloads afterwards is allowed and starts afresh where the framing permits it.
    fn finish(&mut self) -> Result<()>;
}

/// The error for a codec this build of the crate lacks: `what` needs the crate `feature`.
#[cold]
pub(crate) fn unavailable(what: &str, feature: &str) -> crate::Error {
    crate::Error::new(
        crate::ErrorKind::Unsupported,
        format!("{what} is not compiled in: build hadoop-record with its `{feature}` feature"),
    )
}

/// A reader's next step as an iterator item: `Ok(None)` (the end) and an error both set
/// `done`, so that a reader yields nothing after either.
pub(crate) fn fuse<T>(done: &mut bool, step: Result<Option<T>>) -> Option<Result<T>> {
    let item = step.transpose();
    if !matches!(item, Some(Ok(_))) {
        *done = true;
    }
    item
}

/// Flushes a buffered writer and returns the writer inside.
pub(crate) fn unbuffer<W: std::io::Write>(writer: std::io::BufWriter<W>) -> Result<W> {
    writer
        .into_inner()
        .map_err(|e| crate::error::Error::from(e.into_error()))
}

mod held;
pub mod mesos;
pub mod paddle;
pub mod plasma;
mod pool;
pub mod seqfile;
pub mod split;
pub mod v1;
