//! Framings: containers that carry serialized records (opaque payloads, typically one record
//! in binary form each). One module per framing; each has a reader that yields payloads and a
//! writer that frames them.
//!
//! Readers implement `Iterator<Item = Result<Vec<u8>>>` (after an error they yield nothing
//! more, and every complete payload before the damage is yielded first); writers implement
//! [`FrameWrite`], so tools such as `rcc frame` convert between framings generically.

use crate::error::Result;

/// A writer that frames payloads.
pub trait FrameWrite {
    /// Frames one payload.
    fn write_payload(&mut self, payload: &[u8]) -> Result<()>;

    /// Writes whatever is buffered (a pending chunk, a trailer) and flushes. Writing more
    /// payloads afterwards is allowed and starts afresh where the framing permits it.
    fn finish(&mut self) -> Result<()>;
}

pub mod mesos;
pub mod paddle;
pub mod plasma;
pub mod v1;
