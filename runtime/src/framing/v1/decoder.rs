//! The incremental core of every RecordIO v1 reader: a push parser that takes input in
//! pieces cut anywhere and never needs to look back or ahead.

use super::header::{could_be_magic, error_at, parse_magic, parse_pair, FileHeader};
use super::{V1ReadOptions, MAX_SEGMENT_LEN, MAX_TYPE_LEN};
use crate::error::{excerpt, Error, ErrorKind, Position, Result};

/// What [`Decoder::decode`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The header is complete ([`Decoder::header`]).
    Header,
    /// A record is complete: its type is [`Decoder::record_type`], its payload
    /// [`Decoder::take_payload`] (both valid until the next call to `decode`).
    Record,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Magic,
    HeaderLine,
    SegType,
    SegLen,
    Body { remaining: u64, last: bool },
    BodyLf { last: bool },
    Failed,
}

/// Parses RecordIO v1 input fed in pieces. Shared by [`super::V1Reader`] and the tokio
/// codec, so both accept exactly the same files.
#[derive(Debug, Clone)]
pub struct Decoder {
    options: V1ReadOptions,
    state: State,
    /// Input offset of the next byte to consume.
    offset: u64,
    /// 1-based number of the header line being read.
    line_no: u64,
    line: Vec<u8>,
    header_bytes: usize,
    header: FileHeader,
    /// The segment header being parsed.
    seg_start: u64,
    seg_type: Vec<u8>,
    seg_len: u64,
    seg_digits: u32,
    /// The record being assembled (its type is that of its first segment).
    rec_type: Vec<u8>,
    rec_start: u64,
    /// Whether a partial segment left the record open.
    open: bool,
    /// Whether the record is not delivered (reserved, or before `skip_before`): its bytes
    /// are dropped.
    discard: bool,
    /// Records that start before this offset are passed over, not delivered (a split).
    skip_before: u64,
    /// Records passed over because they start before `skip_before`.
    passed: u64,
    /// Decoding stops at a record boundary at or after this offset (a split's end).
    stop_at: u64,
    payload: Vec<u8>,
    records: u64,
    segments: u64,
    reserved: u64,
}

impl Decoder {
    /// A decoder at the start of a file.
    pub fn new(options: V1ReadOptions) -> Self {
        Decoder {
            options,
            state: State::Magic,
            offset: 0,
            line_no: 1,
            line: Vec::new(),
            header_bytes: 0,
            header: FileHeader::new(),
            seg_start: 0,
            seg_type: Vec::new(),
            seg_len: 0,
            seg_digits: 0,
            rec_type: Vec::new(),
            rec_start: 0,
            open: false,
            discard: false,
            skip_before: 0,
            passed: 0,
            stop_at: u64::MAX,
            payload: Vec::new(),
            records: 0,
            segments: 0,
            reserved: 0,
        }
    }

    /// Passes over (does not deliver) the records that start before `offset`, for a reader
    /// of a byte range of a file. They still count in record numbers.
    pub fn skip_before(&mut self, offset: u64) {
        self.skip_before = offset;
    }

    /// Stops decoding at the first record boundary at or after `offset`, for a reader of a
    /// byte range: [`Self::decode`] consumes nothing more once there.
    pub fn stop_at(&mut self, offset: u64) {
        self.stop_at = offset;
    }

    /// Records passed over because they start before [`Self::skip_before`]'s offset.
    pub fn passed(&self) -> u64 {
        self.passed
    }

    /// Whether the decoder is between records (after the header): the next byte starts a
    /// record, or the input may end.
    pub fn at_record_boundary(&self) -> bool {
        self.state == State::SegType && self.seg_type.is_empty() && !self.open
    }

    /// Consumes `n` bytes of a dropped body without seeing them (a reader that can seek
    /// past them instead of reading). `n` is at most [`Self::body_remaining`], and only a
    /// body that is not kept ([`Self::keeps_body`] is false) may be skipped.
    pub fn skip_body(&mut self, n: u64) {
        let State::Body { remaining, last } = self.state else {
            return;
        };
        debug_assert!(self.discard && n <= remaining);
        self.body_read(n.min(remaining), remaining, last);
    }

    /// `n` of the `remaining` bytes of the current body are consumed.
    fn body_read(&mut self, n: u64, remaining: u64, last: bool) {
        self.offset += n;
        self.state = if n == remaining {
            State::BodyLf { last }
        } else {
            State::Body {
                remaining: remaining - n,
                last,
            }
        };
    }

    /// The header (complete once [`Event::Header`] was returned).
    pub fn header(&self) -> &FileHeader {
        &self.header
    }

    /// Whether the header has been read.
    pub fn header_done(&self) -> bool {
        !matches!(self.state, State::Magic | State::HeaderLine)
    }

    /// Input offset of the next byte to consume.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The type of the record just completed.
    pub fn record_type(&self) -> &str {
        // Types are checked to be ASCII letters, digits and a leading dot.
        std::str::from_utf8(&self.rec_type).unwrap_or_default()
    }

    /// Input offset of the record just completed.
    pub fn record_start(&self) -> u64 {
        self.rec_start
    }

    /// The payload of the record just completed.
    pub fn payload(&self) -> &[u8] {
        &self.payload
    }

    /// Takes the payload of the record just completed.
    pub fn take_payload(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.payload)
    }

    /// Records delivered so far (reserved ones not counted).
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// Segments read so far (partial and terminating, reserved ones included).
    pub fn segments(&self) -> u64 {
        self.segments
    }

    /// Reserved (`.`-typed) records read so far.
    pub fn reserved(&self) -> u64 {
        self.reserved
    }

    /// Bytes of the current segment body still to come, when inside one (lets a reader
    /// copy a large body straight from its source).
    pub fn body_remaining(&self) -> u64 {
        match self.state {
            State::Body { remaining, .. } => remaining,
            _ => 0,
        }
    }

    /// Whether the body being read is kept (not a skipped reserved record).
    pub fn keeps_body(&self) -> bool {
        !self.discard
    }

    /// Consumes input until an event or the end of `input`. Returns the bytes consumed and
    /// the event, if any. After an error the decoder only returns that it failed.
    pub fn decode(&mut self, input: &[u8]) -> Result<(usize, Option<Event>)> {
        let mut i = 0;
        let result = self.run(input, &mut i);
        self.offset += i as u64;
        match result {
            Ok(event) => Ok((i, event)),
            Err(e) => {
                self.state = State::Failed;
                Err(e.in_record(self.passed + self.records))
            }
        }
    }

    /// Reads the rest of the current segment body straight from `source` (as if passed
    /// to [`Self::decode`]), growing the payload only as bytes arrive. Returns the bytes
    /// read: fewer than [`Self::body_remaining`] means the source ended.
    pub fn read_body(&mut self, source: &mut impl std::io::Read) -> std::io::Result<u64> {
        let State::Body { remaining, last } = self.state else {
            return Ok(0);
        };
        let mut body = std::io::Read::take(source, remaining);
        let n = if self.discard {
            std::io::copy(&mut body, &mut std::io::sink())?
        } else {
            std::io::Read::read_to_end(&mut body, &mut self.payload)? as u64
        };
        self.body_read(n, remaining, last);
        Ok(n)
    }

    /// Called at the end of the input: `Ok` when it ends between records.
    pub fn finish(&mut self) -> Result<()> {
        let result = self.check_end();
        if result.is_err() {
            self.state = State::Failed;
        }
        result.map_err(|e| e.in_record(self.passed + self.records))
    }

    fn check_end(&self) -> Result<()> {
        let at = Position::Byte(self.offset);
        match self.state {
            State::Magic | State::HeaderLine => Err(error_at(
                ErrorKind::UnexpectedEof,
                self.line_no,
                self.line.len(),
                "input ends inside the header (it ends with a blank line)".into(),
            )),
            State::SegType if self.seg_type.is_empty() && !self.open => Ok(()),
            State::SegType if self.seg_type.is_empty() => Err(Error::eof(format!(
                "partial segment followed by end of input (record of type {} at byte {})",
                excerpt(&self.rec_type),
                self.rec_start
            ))
            .at(at)),
            State::SegType | State::SegLen => {
                Err(Error::eof("input ends inside a segment header")
                    .at(Position::Byte(self.seg_start)))
            }
            State::Body { remaining, .. } => Err(Error::eof(format!(
                "segment at byte {} runs past the end of the input ({} of {} body bytes missing)",
                self.seg_start, remaining, self.seg_len
            ))
            .at(Position::Byte(self.seg_start))),
            State::BodyLf { .. } => Err(Error::eof("missing LF after segment body").at(at)),
            State::Failed => Err(Error::new(ErrorKind::Syntax, "decoder already failed").at(at)),
        }
    }

    fn run(&mut self, input: &[u8], i: &mut usize) -> Result<Option<Event>> {
        while *i < input.len() {
            if self.offset + *i as u64 >= self.stop_at && self.at_record_boundary() {
                return Ok(None);
            }
            match self.state {
                State::Magic | State::HeaderLine => {
                    if self.header_line(input, i)? {
                        *i += 1;
                        return Ok(Some(Event::Header));
                    }
                }
                State::SegType if self.seg_type.is_empty() => {
                    if let Some(head) = whole_segment_header(&input[*i..]) {
                        self.seg_start = self.offset + *i as u64;
                        self.seg_type
                            .extend_from_slice(&input[*i..*i + head.type_len]);
                        self.seg_len = head.len;
                        self.seg_digits = 1;
                        *i += head.consumed;
                        self.start_body(head.last)?;
                        continue;
                    }
                    self.seg_type_byte(input[*i], *i)?
                }
                State::SegType => self.seg_type_byte(input[*i], *i)?,
                State::SegLen => self.seg_len_byte(input[*i], *i)?,
                State::Body { remaining, last } => {
                    let n = ((input.len() - *i) as u64).min(remaining) as usize;
                    if !self.discard {
                        self.payload.extend_from_slice(&input[*i..*i + n]);
                    }
                    *i += n;
                    let remaining = remaining - n as u64;
                    self.state = if remaining == 0 {
                        State::BodyLf { last }
                    } else {
                        State::Body { remaining, last }
                    };
                    continue;
                }
                State::BodyLf { last } => {
                    if input[*i] != b'\n' {
                        return Err(self.at(
                            *i,
                            ErrorKind::Syntax,
                            "missing LF after segment body",
                        ));
                    }
                    *i += 1;
                    self.state = State::SegType;
                    if last {
                        self.open = false;
                        let reserved = self.rec_type[0] == b'.' && !self.options.deliver_reserved;
                        if self.rec_start < self.skip_before {
                            self.passed += u64::from(!reserved);
                        } else if reserved {
                            self.reserved += 1;
                        } else {
                            self.records += 1;
                            return Ok(Some(Event::Record));
                        }
                    } else {
                        self.open = true;
                    }
                    continue;
                }
                State::Failed => {
                    return Err(self.at(*i, ErrorKind::Syntax, "decoder already failed"));
                }
            }
            *i += 1;
        }
        Ok(None)
    }

    fn at(
        &self,
        i: usize,
        kind: ErrorKind,
        message: impl Into<std::borrow::Cow<'static, str>>,
    ) -> Error {
        Error::new(kind, message).at(Position::Byte(self.offset + i as u64))
    }

    /// Adds header bytes up to a LF; `Ok(true)` when the blank line ends the header.
    /// Leaves `*i` on the last byte consumed (the caller steps past it).
    fn header_line(&mut self, input: &[u8], i: &mut usize) -> Result<bool> {
        let rest = &input[*i..];
        let (piece, complete) = match memchr::memchr(b'\n', rest) {
            Some(n) => (&rest[..n], true),
            None => (rest, false),
        };
        self.header_bytes += piece.len() + complete as usize;
        if self.header_bytes > self.options.max_header_size {
            return Err(error_at(
                ErrorKind::Limit,
                self.line_no,
                self.line.len(),
                format!("header longer than {} bytes", self.options.max_header_size),
            ));
        }
        self.line.extend_from_slice(piece);
        if self.state == State::Magic && !could_be_magic(&self.line) {
            return Err(error_at(
                ErrorKind::Syntax,
                1,
                0,
                "not a RecordIO v1 file: the first line is not `RecordIO v1.x`".into(),
            ));
        }
        *i += piece.len();
        if !complete {
            *i -= 1; // the caller steps past the last byte consumed
            return Ok(false);
        }
        let line = std::mem::take(&mut self.line);
        let done = if self.state == State::Magic {
            let (major, minor) = parse_magic(&line)?;
            self.header.set_version(major, minor);
            self.state = State::HeaderLine;
            false
        } else if line.is_empty() {
            self.state = State::SegType;
            self.seg_start = self.offset + *i as u64 + 1;
            true
        } else {
            let (key, value) = parse_pair(&line, self.line_no)?;
            self.header.push_read(key, value);
            false
        };
        self.line = line;
        self.line.clear();
        self.line_no += 1;
        Ok(done)
    }

    fn seg_type_byte(&mut self, b: u8, i: usize) -> Result<()> {
        if self.seg_type.is_empty() {
            self.seg_start = self.offset + i as u64;
        }
        match b {
            b'.' if self.seg_type.is_empty() => self.seg_type.push(b),
            b if b.is_ascii_alphanumeric() => {
                if self.seg_type.len() >= MAX_TYPE_LEN {
                    return Err(Error::new(
                        ErrorKind::Limit,
                        format!("segment type longer than {MAX_TYPE_LEN} bytes"),
                    )
                    .at(Position::Byte(self.seg_start)));
                }
                self.seg_type.push(b);
            }
            b':' if !self.seg_type.is_empty() && self.seg_type != b"." => {
                self.state = State::SegLen;
                self.seg_len = 0;
                self.seg_digits = 0;
            }
            b':' => return Err(self.at(i, ErrorKind::Syntax, "empty segment type")),
            _ => {
                return Err(self.at(
                    i,
                    ErrorKind::Syntax,
                    format!(
                        "unexpected byte {:?} where a segment type (letters and digits) belongs",
                        char::from(b)
                    ),
                ))
            }
        }
        Ok(())
    }

    fn seg_len_byte(&mut self, b: u8, i: usize) -> Result<()> {
        match b {
            b'0'..=b'9' => {
                if self.seg_digits == 1 && self.seg_len == 0 {
                    return Err(Error::syntax("leading zero in a segment length")
                        .at(Position::Byte(self.offset + i as u64 - 1)));
                }
                self.seg_len = self.seg_len * 10 + (b - b'0') as u64;
                self.seg_digits += 1;
                if self.seg_len > MAX_SEGMENT_LEN {
                    return Err(Error::new(
                        ErrorKind::Limit,
                        format!("segment length above the limit of {MAX_SEGMENT_LEN}"),
                    )
                    .at(Position::Byte(self.seg_start)));
                }
            }
            b':' | b'+' if self.seg_digits > 0 => self.start_body(b == b':')?,
            b':' | b'+' => return Err(self.at(i, ErrorKind::Syntax, "missing segment length")),
            _ => {
                return Err(self.at(
                    i,
                    ErrorKind::Syntax,
                    format!(
                        "unexpected byte {:?} in a segment length (digits, then `:` or `+`)",
                        char::from(b)
                    ),
                ))
            }
        }
        Ok(())
    }

    fn start_body(&mut self, last: bool) -> Result<()> {
        let seg_type = std::mem::take(&mut self.seg_type);
        if self.open {
            if seg_type != self.rec_type {
                return Err(Error::syntax(format!(
                    "partial segment followed by different type ({} then {})",
                    excerpt(&self.rec_type),
                    excerpt(&seg_type)
                ))
                .at(Position::Byte(self.seg_start)));
            }
            self.seg_type = seg_type;
            self.seg_type.clear();
        } else {
            self.seg_type = std::mem::replace(&mut self.rec_type, seg_type);
            self.seg_type.clear();
            self.rec_start = self.seg_start;
            self.discard = (self.rec_type[0] == b'.' && !self.options.deliver_reserved)
                || self.rec_start < self.skip_before;
            self.payload.clear();
        }
        if !self.discard && self.payload.len() as u64 + self.seg_len > self.options.max_record_size
        {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "record longer than the limit of {} bytes",
                    self.options.max_record_size
                ),
            )
            .at(Position::Byte(self.seg_start)));
        }
        if !self.discard {
            // Bounded, so a length claiming more than the input holds allocates little.
            self.payload.reserve(self.seg_len.min(64 << 10) as usize);
        }
        self.segments += 1;
        self.state = if self.seg_len == 0 {
            State::BodyLf { last }
        } else {
            State::Body {
                remaining: self.seg_len,
                last,
            }
        };
        Ok(())
    }
}

/// A segment header parsed in one go.
struct SegmentHeader {
    type_len: usize,
    len: u64,
    last: bool,
    consumed: usize,
}

/// The fast path: a well-formed segment header wholly at the start of `input`. `None` when
/// it is incomplete or malformed; the byte-by-byte path then takes over (and reports).
#[inline]
fn whole_segment_header(input: &[u8]) -> Option<SegmentHeader> {
    let first = usize::from(input.first() == Some(&b'.'));
    let limit = input.len().min(first + MAX_TYPE_LEN);
    let mut t = first;
    while t < limit && input[t].is_ascii_alphanumeric() {
        t += 1;
    }
    if t == first || input.get(t) != Some(&b':') {
        return None;
    }
    let digits = t + 1;
    let mut j = digits;
    let mut len = 0u64;
    while j < input.len() && j - digits < 10 && input[j].is_ascii_digit() {
        len = len * 10 + u64::from(input[j] - b'0');
        j += 1;
    }
    let n = j - digits;
    if n == 0 || (n > 1 && input[digits] == b'0') || len > MAX_SEGMENT_LEN {
        return None;
    }
    let last = match input.get(j) {
        Some(b':') => true,
        Some(b'+') => false,
        _ => return None,
    };
    Some(SegmentHeader {
        type_len: t,
        len,
        last,
        consumed: j + 1,
    })
}
