//! ZooKeeper's jute binary encoding (`org.apache.jute.BinaryOutputArchive` and
//! `BinaryInputArchive`): the descendant of Hadoop's record I/O that every ZooKeeper client,
//! server, transaction log and snapshot speaks.
//!
//! The same DDL and the same archive calls as Hadoop's binary encoding; other bytes:
//!
//! | type | jute |
//! | --- | --- |
//! | `byte`, `boolean` | one byte (any non-zero byte reads as `true`) |
//! | `int`, `long` | four and eight bytes, big-endian, two's complement |
//! | `float`, `double` | IEEE 754, big-endian (NaN written as Java's canonical NaN) |
//! | `ustring` | an `int` byte length, then the bytes ([`text`](self) has the UTF-16 details); `-1`: null |
//! | `buffer` | an `int` length, then the bytes; `-1`: null |
//! | `vector` | an `int` count, then the elements; `-1`: null |
//! | `map` | an `int` count, then keys and values alternately |
//! | record | its fields, nothing around them |
//!
//! **Strings.** The writer encodes each UTF-16 unit on its own: UTF-8 inside the Basic
//! Multilingual Plane, but a character beyond it becomes two three-byte surrogates (six bytes,
//! not UTF-8's four). The reader is Java's `new String(bytes, UTF_8)`, which replaces malformed
//! input (a lone surrogate included) with U+FFFD instead of failing, by Java's own rules. So
//! `"😀"` is written as `ed a0 bd ed b8 80` and read back — by ZooKeeper as by us — as two
//! U+FFFD; valid UTF-8 from elsewhere (`f0 9f 98 80`) reads as `"😀"`.
//!
//! **Null.** Java's `String`, `byte[]` and `List` fields may be null, written as a length of
//! `-1`. In Rust a field that may be null is an `Option`: `Option<String>`,
//! `Option<Vec<u8>>`, `Option<Vec<T>>` (see [`crate::field::Nullable`]); `rcc -l rust
//! --nullable` generates them for every `ustring`, `buffer` and `vector`, at any depth, as
//! Java allows. A schema-driven [`crate::Value`] holds it as [`crate::Value::Null`]. Reading
//! `-1` into a plain `String`, `Vec<u8>` or `Vec<T>` is an error (it cannot hold null), and so
//! is writing `None` or `Value::Null` to Hadoop's binary and XML encodings, which have no null;
//! CSV writes an empty field, as jute's `toString()` does.
//!
//! **Java's leniencies, kept.** A vector count below `-1`, and any negative map count, reads
//! as an empty container (Java's `BinaryIndex` is done at once); a string or buffer length
//! below `-1`, or above the limit, is an error (`Unreasonable length = N`). Maps cannot be
//! null (Java's writer throws on one).
//!
//! **`jute.maxbuffer`.** ZooKeeper refuses a string or buffer longer than
//! `jute.maxbuffer + zookeeper.jute.maxbuffer.extrasize` bytes (by default 0xfffff each, the
//! extra at least 1024); [`JuteOptions`] carries both. Vector counts have no limit in Java;
//! here no count or length is trusted for allocation either way.

use crate::options::options;

mod input;
mod output;
mod text;

pub use input::JuteInput;
pub use output::JuteOutput;

/// ZooKeeper's default `jute.maxbuffer`: 0xfffff bytes.
pub const DEFAULT_MAX_BUFFER: i32 = 0xfffff;

options! {
    /// The length limit of strings and buffers, as ZooKeeper configures it with the system
    /// properties `jute.maxbuffer` and `zookeeper.jute.maxbuffer.extrasize`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct JuteOptions {
        /// `jute.maxbuffer` (default [`DEFAULT_MAX_BUFFER`]).
        max_buffer / with_max_buffer: copy i32 = DEFAULT_MAX_BUFFER;
        /// `zookeeper.jute.maxbuffer.extrasize` (default: `max_buffer`; values under 1024
        /// count as 1024, as in ZooKeeper).
        extra_max_buffer / with_extra_max_buffer: copy Option<i32> = None;
    }
}

impl JuteOptions {
    /// The longest string or buffer the reader accepts: `max_buffer` plus the extra size
    /// (at least 1024), at most `i32::MAX` — `BinaryInputArchive`'s `totalBufferSize`.
    ///
    /// ```
    /// use hadoop_record::archive::jute::JuteOptions;
    /// assert_eq!(JuteOptions::default().limit(), 2 * 0xfffff);
    /// assert_eq!(JuteOptions::default().with_max_buffer(10).limit(), 10 + 1024);
    /// assert_eq!(JuteOptions::default().with_max_buffer(i32::MAX).limit(), i32::MAX);
    /// ```
    pub fn limit(&self) -> i32 {
        let extra = self.extra_max_buffer.unwrap_or(self.max_buffer).max(1024);
        let total = i64::from(self.max_buffer) + i64::from(extra);
        i32::try_from(total).unwrap_or(i32::MAX)
    }
}
