//! Framings: containers that carry serialized records (opaque payloads, typically one record
//! in binary form each). One module per framing; each has a reader that yields payloads and a
//! writer that frames them. [`split`] reads a byte range of a file in any framing, so that
//! several readers share one large file; [`detect`] tells a file's framing from its first
//! bytes.
//!
//! Readers implement `Iterator<Item = Result<Vec<u8>>>` (after an error they yield nothing
//! more, and every complete payload before the damage is yielded first); writers implement
//! [`FrameWrite`], so tools such as `rcc frame` convert between framings generically.

use crate::error::Result;

pub use pool::BufferPool;

/// A writer that frames payloads.
///
/// Every framing writer's `into_inner` writes what is pending (a chunk, a block, a header)
/// and gives back the writer; when that fails, it returns an [`IntoInnerError`] that says
/// what failed and holds the framing writer, as `std::io::BufWriter` does. Call
/// [`FrameWrite::finish`] to write what is pending and go on.
///
/// A framing writer dropped without `into_inner` writes what is pending, ignoring errors —
/// unless one of its writing methods (`write_payload`, `finish`, …) has returned an error:
/// then it writes nothing more, so that a failed output does not end as a well-formed,
/// shorter file. Call `finish` or `into_inner` to close such an output anyway.
///
/// [`IntoInnerError`]: crate::IntoInnerError
pub trait FrameWrite {
    /// Frames one payload.
    fn write_payload(&mut self, payload: &[u8]) -> Result<()>;

    /// Writes whatever is buffered (a pending chunk, a trailer) and flushes. Writing more
    /// payloads afterwards is allowed and starts afresh where the framing permits it.
    fn finish(&mut self) -> Result<()>;
}

/// What a strict reader's error says to do about a damaged chunk (or record or block) with
/// more input after it: `rcc`'s `--recover` (a reader's `with_recover`).
pub(crate) const RECOVER_HINT: &str = "give --recover to skip the damage and read on";

/// What an error about a record or chunk over the reader's limit says to do: `rcc`'s
/// `--max-record-size` (a reader's `with_max_record_size` or `with_max_chunk_bytes`).
pub(crate) const LIMIT_HINT: &str = "give --max-record-size to raise the limit";

/// A strict reader's error with what to do about it: a larger limit for one over a limit;
/// recovery for damage a recovering reader gets past (`recoverable`), unless the input
/// just ends there.
#[cold]
pub(crate) fn with_remedy(error: crate::Error, recoverable: bool) -> crate::Error {
    match error.kind() {
        crate::ErrorKind::Limit => error.with_hint(LIMIT_HINT),
        crate::ErrorKind::UnexpectedEof | crate::ErrorKind::Io => error,
        _ if recoverable => error.with_hint(RECOVER_HINT),
        _ => error,
    }
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

mod count;
pub mod detect;
mod held;
pub mod mesos;
pub mod paddle;
pub mod plasma;
mod pool;
pub mod seqfile;
pub mod split;
pub mod v1;
