//! The incremental Mesos RecordIO decoder: a push state machine that any byte source feeds.
//!
//! The length line is parsed byte by byte (it is at most a few bytes long); the record data
//! is copied in bulk. The decoder keeps only the partial record it is assembling, grown as
//! its bytes arrive, so a hostile length never allocates memory that the input has not
//! supplied.

use crate::error::{Error, ErrorKind, Position, Result};
use crate::options::options;

options! {
    /// How strictly a Mesos length line is read, and how large a frame may be.
    ///
    /// ```
    /// use hadoop_record::framing::mesos::MesosOptions;
    /// let opts = MesosOptions::default().with_lenient(true).with_max_record_size(1 << 20);
    /// assert!(opts.lenient());
    /// assert_eq!(opts.max_record_size(), 1 << 20);
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct MesosOptions {
        /// Lenient length lines: also accept what mesos-go and Mesos' Python decoder
        /// accept, namely ASCII whitespace (space, tab, CR, VT, FF) around the number and
        /// one leading `+`. Strict (the default) accepts exactly `1*DIGIT LF`.
        lenient / with_lenient: copy bool = false;
        /// The largest record accepted, in bytes (default 4 MiB, mesos-go's default
        /// buffer); a larger declared length is an [`ErrorKind::Limit`] error before any of
        /// its data is read.
        max_record_size / with_max_record_size: copy u64 = MesosOptions::DEFAULT_MAX_RECORD_SIZE;
        /// The longest length line accepted, in bytes before the LF (default 20, as in
        /// mesos-go, enough for every `u64` in minimal form; at least 1).
        max_length_line / with_max_length_line: copy usize = MesosOptions::DEFAULT_MAX_LENGTH_LINE,
            map |bytes: usize| bytes.max(1);
    }
}

impl MesosOptions {
    /// The default maximum record size: 4 MiB, mesos-go's default buffer.
    pub const DEFAULT_MAX_RECORD_SIZE: u64 = 4 << 20;
    /// The default maximum length-line size in bytes (without the LF): 20, as in mesos-go,
    /// enough for every `u64` in minimal form.
    pub const DEFAULT_MAX_LENGTH_LINE: usize = 20;
}

/// Where in a length line the parser is (lenient mode has leading and trailing blanks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LinePhase {
    /// Nothing but (lenient) blanks so far.
    Start,
    /// A `+` was read (lenient); a digit must follow.
    Sign,
    /// Digits are being read.
    Digits,
    /// Blanks after the digits (lenient); only blanks or LF may follow.
    Trailing,
}

#[derive(Debug, Clone)]
enum State {
    Length {
        phase: LinePhase,
        value: u64,
        /// Bytes of the line read so far (without the LF).
        line_len: usize,
    },
    Data {
        /// Bytes of the record still missing.
        remaining: u64,
        /// The bytes received so far.
        record: Vec<u8>,
    },
    Failed,
}

/// The incremental Mesos RecordIO decoder.
///
/// Feed it bytes in pieces of any size; it returns the same records whatever the split.
/// Records are delivered in order, empty records included. After an error the decoder is
/// failed and returns no more records.
///
/// ```
/// use hadoop_record::framing::mesos::{MesosDecoder, MesosOptions};
/// let mut dec = MesosDecoder::new(MesosOptions::default());
/// let mut records = Vec::new();
/// for piece in [&b"5\nhel"[..], b"lo0\n", b"2\nok"] {
///     for record in dec.feed(piece) {
///         records.push(record?);
///     }
/// }
/// dec.finish()?; // the input ended on a record boundary
/// assert_eq!(records, [&b"hello"[..], b"", b"ok"]);
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct MesosDecoder {
    options: MesosOptions,
    state: State,
    /// Stream offset of the next byte to be consumed.
    offset: u64,
    /// Stream offset where the current frame (its length line) starts.
    frame_start: u64,
    /// Number of records delivered.
    records: u64,
}

impl MesosDecoder {
    /// A decoder at the start of a stream.
    pub fn new(options: MesosOptions) -> Self {
        MesosDecoder {
            options,
            state: State::Length {
                phase: LinePhase::Start,
                value: 0,
                line_len: 0,
            },
            offset: 0,
            frame_start: 0,
            records: 0,
        }
    }

    /// The options this decoder was built with.
    pub fn options(&self) -> &MesosOptions {
        &self.options
    }

    /// Stream offset of the next byte the decoder will consume.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Number of records delivered so far.
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// Whether the decoder is between frames (the input may end here cleanly).
    pub fn is_at_boundary(&self) -> bool {
        matches!(
            self.state,
            State::Length {
                phase: LinePhase::Start,
                line_len: 0,
                ..
            }
        )
    }

    /// Whether an error was reported; a failed decoder yields nothing more.
    pub fn is_failed(&self) -> bool {
        matches!(self.state, State::Failed)
    }

    /// Consumes bytes from `input` until one record is complete or `input` is used up.
    ///
    /// Returns how many bytes were consumed and the record, if one was completed. Call it
    /// again with the rest of the input to get further records. An error leaves the decoder
    /// failed; every later call returns an error too.
    pub fn decode(&mut self, input: &[u8]) -> Result<(usize, Option<Vec<u8>>)> {
        let mut pos = 0;
        match &mut self.state {
            State::Failed => Err(Error::new(
                ErrorKind::Syntax,
                "the Mesos RecordIO stream already failed",
            )
            .at(Position::Byte(self.offset))),
            State::Length { .. } => {
                let Some(len) = self.read_length(input, &mut pos)? else {
                    return Ok((pos, None));
                };
                if len == 0 {
                    self.start_frame();
                    return Ok((pos, Some(Vec::new())));
                }
                let available = input.len() - pos;
                if len <= available as u64 {
                    // The whole record is here: one exact allocation.
                    let len = len as usize;
                    let record = input[pos..pos + len].to_vec();
                    pos += len;
                    self.offset += len as u64;
                    self.start_frame();
                    return Ok((pos, Some(record)));
                }
                // Capacity follows the bytes at hand (at most 64 KiB ahead of them), never
                // the declared length alone.
                let ahead = (available as u64).max(64 * 1024);
                let mut record = Vec::with_capacity(len.min(ahead) as usize);
                record.extend_from_slice(&input[pos..]);
                self.offset += available as u64;
                self.state = State::Data {
                    remaining: len - available as u64,
                    record,
                };
                Ok((input.len(), None))
            }
            State::Data { remaining, record } => {
                let available = input.len() - pos;
                if *remaining > available as u64 {
                    record.extend_from_slice(&input[pos..]);
                    *remaining -= available as u64;
                    self.offset += available as u64;
                    return Ok((input.len(), None));
                }
                let take = *remaining as usize;
                record.extend_from_slice(&input[pos..pos + take]);
                let record = std::mem::take(record);
                pos += take;
                self.offset += take as u64;
                self.start_frame();
                Ok((pos, Some(record)))
            }
        }
    }

    /// Decodes every record that `input` completes, as an iterator. Bytes of an unfinished
    /// record stay in the decoder for the next call. Stops after the first error.
    pub fn feed<'d, 'i>(&'d mut self, input: &'i [u8]) -> Feed<'d, 'i> {
        Feed {
            decoder: self,
            input,
            done: false,
        }
    }

    /// Tells the decoder the input has ended: an error if it ends inside a frame (with the
    /// offset where that frame starts), or if the decoder already failed.
    pub fn finish(&mut self) -> Result<()> {
        match &self.state {
            State::Failed => Err(Error::new(
                ErrorKind::Syntax,
                "the Mesos RecordIO stream already failed",
            )
            .at(Position::Byte(self.offset))),
            State::Length {
                phase: LinePhase::Start,
                line_len: 0,
                ..
            } => Ok(()),
            State::Length { line_len, .. } => {
                let message = format!(
                    "input ends inside the length line of record {} ({} byte(s) of it, at byte {})",
                    self.records, line_len, self.offset
                );
                Err(self.fail(Error::eof(message), self.frame_start))
            }
            State::Data { remaining, record } => {
                let message = format!(
                    "input ends inside record {}: {} of {} bytes present (input ends at byte {})",
                    self.records,
                    record.len(),
                    record.len() as u64 + remaining,
                    self.offset
                );
                Err(self.fail(Error::eof(message), self.frame_start))
            }
        }
    }

    fn start_frame(&mut self) {
        self.records += 1;
        self.frame_start = self.offset;
        self.state = State::Length {
            phase: LinePhase::Start,
            value: 0,
            line_len: 0,
        };
    }

    #[cold]
    fn fail(&mut self, error: Error, at: u64) -> Error {
        self.state = State::Failed;
        error.at(Position::Byte(at)).in_record(self.records)
    }

    /// Parses (the rest of) a length line from `input[*pos..]`. Returns the record length
    /// once the LF is consumed, `None` when `input` ends first.
    #[inline]
    fn read_length(&mut self, input: &[u8], pos: &mut usize) -> Result<Option<u64>> {
        let State::Length {
            phase,
            value,
            line_len,
        } = &mut self.state
        else {
            unreachable!("read_length is only called in the Length state")
        };
        let (mut ph, mut val, mut n) = (*phase, *value, *line_len);
        let max_line = self.options.max_length_line;
        let lenient = self.options.lenient;
        let mut i = *pos;
        let outcome = loop {
            let Some(&byte) = input.get(i) else {
                break None;
            };
            let at = self.offset + (i - *pos) as u64;
            i += 1;
            if byte == b'\n' {
                if ph == LinePhase::Digits || ph == LinePhase::Trailing {
                    break Some(Ok(val));
                }
                let what = if n == 0 {
                    "empty length line"
                } else {
                    "length line without digits"
                };
                break Some(Err((Error::syntax(what), at)));
            }
            n += 1;
            if n > max_line {
                let msg = format!("length line longer than {max_line} bytes");
                break Some(Err((Error::new(ErrorKind::Limit, msg), self.frame_start)));
            }
            match byte {
                b'0'..=b'9' if ph != LinePhase::Trailing => {
                    ph = LinePhase::Digits;
                    match val
                        .checked_mul(10)
                        .and_then(|v| v.checked_add(u64::from(byte - b'0')))
                    {
                        Some(v) => val = v,
                        None => {
                            let e = Error::new(
                                ErrorKind::Overflow,
                                "record length does not fit in 64 bits",
                            );
                            break Some(Err((e, self.frame_start)));
                        }
                    }
                }
                b'+' if lenient && ph == LinePhase::Start => ph = LinePhase::Sign,
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c if lenient && ph != LinePhase::Sign => {
                    if ph == LinePhase::Digits {
                        ph = LinePhase::Trailing;
                    }
                }
                _ => {
                    let msg = format!(
                        "unexpected byte 0x{byte:02x} in a length line (expected {})",
                        if ph == LinePhase::Digits {
                            "a digit or LF"
                        } else {
                            "a digit"
                        }
                    );
                    // What lenient mode would have taken here (a sign before the digits,
                    // blanks and CR around them): say so.
                    let lenient_takes = match byte {
                        b'+' => ph == LinePhase::Start,
                        b' ' | b'\t' | b'\r' | 0x0b | 0x0c => ph != LinePhase::Sign,
                        _ => false,
                    };
                    let e = Error::syntax(msg);
                    break Some(Err((
                        if lenient_takes {
                            e.with_hint(
                                "give --lenient to accept a sign, blanks and CR around lengths, \
                                 as mesos-go and Mesos' Python decoder do",
                            )
                        } else {
                            e
                        },
                        at,
                    )));
                }
            }
        };
        let consumed = i - *pos;
        *pos = i;
        match outcome {
            None => {
                self.offset += consumed as u64;
                (*phase, *value, *line_len) = (ph, val, n);
                Ok(None)
            }
            Some(Ok(len)) => {
                self.offset += consumed as u64;
                if len > self.options.max_record_size {
                    let msg = format!(
                        "record length {len} exceeds the maximum of {} bytes",
                        self.options.max_record_size
                    );
                    let start = self.frame_start;
                    return Err(self.fail(Error::new(ErrorKind::Limit, msg), start));
                }
                Ok(Some(len))
            }
            Some(Err((error, at))) => {
                self.offset += consumed as u64;
                Err(self.fail(error, at))
            }
        }
    }
}

/// Iterator over the records one input slice completes; see [`MesosDecoder::feed`].
#[derive(Debug)]
pub struct Feed<'d, 'i> {
    decoder: &'d mut MesosDecoder,
    input: &'i [u8],
    done: bool,
}

impl Iterator for Feed<'_, '_> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.decoder.decode(self.input) {
            Ok((n, record)) => {
                self.input = &self.input[n..];
                if record.is_none() {
                    self.done = true;
                }
                record.map(Ok)
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Appends one Mesos frame (minimal decimal length, LF, the bytes) to `out`.
///
/// ```
/// let mut out = Vec::new();
/// hadoop_record::framing::mesos::encode_frame(b"{}", &mut out);
/// assert_eq!(out, b"2\n{}");
/// ```
pub fn encode_frame(payload: &[u8], out: &mut Vec<u8>) {
    let mut line = [0u8; 21];
    let line = length_line(payload.len() as u64, &mut line);
    out.reserve(line.len() + payload.len());
    out.extend_from_slice(line);
    out.extend_from_slice(payload);
}

/// The length line of an `n`-byte payload (`n` in minimal decimal form, then LF), written
/// into the end of `buf`: every encoder writes it this way, digits and LF in one piece.
#[inline]
pub(crate) fn length_line(mut n: u64, buf: &mut [u8; 21]) -> &[u8] {
    let mut i = buf.len() - 1;
    buf[i] = b'\n';
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_cases::check_each_input;

    fn all(opts: MesosOptions, input: &[u8]) -> (Vec<Vec<u8>>, Option<Error>) {
        let mut dec = MesosDecoder::new(opts);
        let mut out = Vec::new();
        for r in dec.feed(input) {
            match r {
                Ok(r) => out.push(r),
                Err(e) => return (out, Some(e)),
            }
        }
        (out, dec.finish().err())
    }

    #[test]
    fn length_digits_are_minimal() {
        let mut b = [0; 21];
        assert_eq!(length_line(0, &mut b), b"0\n");
        assert_eq!(length_line(1234, &mut b), b"1234\n");
        assert_eq!(length_line(u64::MAX, &mut b), b"18446744073709551615\n");
    }

    #[test]
    fn strict_rejects_what_lenient_accepts() {
        check_each_input(
            &[b" 5\n", b"5 \n", b"\t5\n", b"5\r\n", b"+5\n", b" +5 \r\n"],
            |line| {
                let mut input = line.to_vec();
                input.extend_from_slice(b"hello");
                let (recs, err) = all(MesosOptions::default(), &input);
                assert!(recs.is_empty());
                let err = err.unwrap();
                assert_eq!(err.kind(), ErrorKind::Syntax);
                assert!(
                    err.message().ends_with(
                        ": give --lenient to accept a sign, blanks and CR around lengths, as \
                         mesos-go and Mesos' Python decoder do"
                    ),
                    "{err}"
                );
                let (recs, err) = all(MesosOptions::default().with_lenient(true), &input);
                assert!(err.is_none(), "{err:?}");
                assert_eq!(recs, [b"hello".to_vec()]);
            },
        );
    }

    #[test]
    fn lenient_still_rejects_garbage() {
        check_each_input(
            &[
                b"5 5\n", b"+\n", b"++5\n", b"-1\n", b"0x5\n", b"1_0\n", b" \n",
            ],
            |line| {
                let (_, err) = all(MesosOptions::default().with_lenient(true), line);
                let err = err.unwrap();
                assert_eq!(err.kind(), ErrorKind::Syntax);
                assert!(!err.message().contains("--lenient"), "{err}");
            },
        );
        // Strict, a byte lenient mode does not take either has no remedy.
        check_each_input(&[b"-1\n", b"0x5\n", b"1_0\n", b"5-\n"], |line| {
            let (_, err) = all(MesosOptions::default(), line);
            assert!(!err.unwrap().message().contains("--lenient"));
        });
    }

    #[test]
    fn error_offsets_point_at_the_bad_byte() {
        let (recs, err) = all(MesosOptions::default(), b"1\na12x\n");
        assert_eq!(recs, [b"a".to_vec()]);
        let err = err.unwrap();
        assert_eq!(err.position(), Some(Position::Byte(5)));
        assert_eq!(err.record(), Some(1));
    }

    #[test]
    fn failed_decoder_stays_failed() {
        let mut dec = MesosDecoder::new(MesosOptions::default());
        assert!(dec.decode(b"x").is_err());
        assert!(dec.is_failed());
        assert!(dec.decode(b"1\na").is_err());
        assert!(dec.finish().is_err());
    }
}
