//! Mesos RecordIO, the framing of Mesos' streaming HTTP API: `<decimal length> LF <bytes>`,
//! repeated, with nothing between records, no magic, no checksum, no trailer.
//!
//! - [`MesosDecoder`]: the incremental decoder every reader here is built on; feed it
//!   pieces of any size, the records do not depend on where the pieces split.
//! - [`MesosReader`] / [`MesosWriter`]: `std::io` reader (an iterator of records) and
//!   writer ([`FrameWrite`](super::FrameWrite)).
//! - `MesosCodec` (feature `tokio`): tokio-util `Decoder`/`Encoder`.
//!
//! Reading is strict by default: the length line is `1*DIGIT LF` (leading zeros allowed),
//! its value at most `u64::MAX` and at most [`MesosOptions::max_record_size`] (4 MiB by
//! default, like mesos-go). [`MesosOptions::lenient`] also accepts the whitespace, CR and
//! `+` that mesos-go and Mesos' Python decoder accept. Empty records are delivered. On
//! damaged or truncated input every complete record comes first, then an error with the
//! byte offset of the frame (or byte) at fault.

#[cfg(feature = "tokio")]
mod codec;
mod decoder;
mod io;

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub use codec::MesosCodec;
pub use decoder::{encode_frame, Feed, MesosDecoder, MesosOptions};
pub use io::{info, MesosInfo, MesosReader, MesosWriter};
