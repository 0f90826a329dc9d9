//! Which framing a file is in, told from its first bytes: what `rcc`'s default
//! `--in-framing auto` reads.
//!
//! Framings that open with a header of their own are recognised: SequenceFiles (`SEQ`, a
//! version byte, then the key class's name), Paddle files (the chunk magic `04 03 02 01`;
//! the Go or the C++ layout by which one the first header reads well in), plasma-var files
//! (`PMRV` and a version byte) and RecordIO v1 files (`RecordIO v`). Nothing else is
//! guessed: a Mesos stream's `len\n` is also a line of text, plasma-text is lines of text,
//! and plasma-fixed has no header at all. Input that opens with none of these is taken as
//! records back to back.
//!
//! ```
//! use hadoop_record::framing::detect::{detect, Detected};
//! use hadoop_record::framing::paddle::Layout;
//! assert_eq!(detect(b"SEQ\x06\x21org.apache.hadoop.io.NullWritable"), Some(Detected::SeqFile { version: 6 }));
//! assert_eq!(detect(b"RecordIO v1.0\n\n"), Some(Detected::V1));
//! assert_eq!(detect(b"5\nhello"), None); // Mesos, or a line of CSV: not guessed
//! let e = Detected::SeqFile { version: 6 };
//! assert_eq!(
//!     e.mismatch("paddle", "--in-framing"),
//!     "this is a SequenceFile (SEQ, version 6), not paddle: give --in-framing seqfile (or \
//!      leave --in-framing out)"
//! );
//! ```

use std::fmt;
use std::io::{self, Read};

use super::paddle::{Layout, HEADER_LEN as PADDLE_HEADER_LEN, MAGIC_BYTES as PADDLE_MAGIC};

/// How many first bytes [`detect`] and [`looks_like`] look at: give them this many (or the
/// whole input, when it is shorter). Enough for a SequenceFile's class names.
pub const DETECT_LEN: usize = 4096;

/// A framing recognised from a file's first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Detected {
    /// A Hadoop SequenceFile of this format version.
    SeqFile {
        /// The version byte after `SEQ`.
        version: u8,
    },
    /// A Paddle chunked RecordIO file in this header layout.
    Paddle(Layout),
    /// A plasma-var file of this format version.
    PlasmaVar {
        /// The version byte after `PMRV`.
        version: u8,
    },
    /// A RecordIO v1 file.
    V1,
}

impl Detected {
    /// The framing's name, as `rcc` takes it (`seqfile`, `paddle`, `paddle-cpp`,
    /// `plasma-var`, `v1`).
    pub fn name(self) -> &'static str {
        match self {
            Detected::SeqFile { .. } => "seqfile",
            Detected::Paddle(Layout::Go) => "paddle",
            Detected::Paddle(Layout::Cpp) => "paddle-cpp",
            Detected::PlasmaVar { .. } => "plasma-var",
            Detected::V1 => "v1",
        }
    }

    /// The message for input named as framing `named` (by `flag`: `--in-framing`,
    /// `--from`) that is this framing instead: what it is, and what to give.
    pub fn mismatch(self, named: &str, flag: &str) -> String {
        format!(
            "this is {self}, not {named}: give {flag} {} (or leave {flag} out)",
            self.name()
        )
    }
}

impl fmt::Display for Detected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Detected::SeqFile { version } => write!(f, "a SequenceFile (SEQ, version {version})"),
            Detected::Paddle(Layout::Go) => f.write_str("a Paddle file (Go layout)"),
            Detected::Paddle(Layout::Cpp) => f.write_str("a Paddle file in the C++ layout"),
            Detected::PlasmaVar { version } => {
                write!(f, "a plasma-var file (PMRV, version {version})")
            }
            Detected::V1 => f.write_str("a RecordIO v1 file (RecordIO v…)"),
        }
    }
}

/// The framing `first` (a file's first [`DETECT_LEN`] bytes, or all of a shorter file)
/// opens with; `None`: none recognised (records back to back, or a framing that is never
/// guessed).
pub fn detect(first: &[u8]) -> Option<Detected> {
    if let Some(version) = seqfile_version(first) {
        return Some(Detected::SeqFile { version });
    }
    if let Some(layout) = paddle_layout(first) {
        return Some(Detected::Paddle(layout));
    }
    if let Some(&version) = first
        .strip_prefix(&super::plasma::var::MAGIC[..])
        .and_then(|rest| rest.first())
    {
        return Some(Detected::PlasmaVar { version });
    }
    if first.starts_with(super::v1::MAGIC) {
        return Some(Detected::V1);
    }
    None
}

/// What `first` looks like when it contradicts the framing named `named` (`none`, the way
/// to ask for records back to back whatever they start with, contradicts nothing).
///
/// ```
/// use hadoop_record::framing::detect::{contradiction, Detected};
/// use hadoop_record::framing::paddle::Layout;
/// let seq = b"SEQ\x06\x05a.Key";
/// assert_eq!(contradiction("paddle", seq), Some(Detected::SeqFile { version: 6 }));
/// assert_eq!(contradiction("seqfile", seq), None);
/// assert_eq!(contradiction("none", seq), None);
/// ```
pub fn contradiction(named: &str, first: &[u8]) -> Option<Detected> {
    if named == "none" {
        return None;
    }
    detect(first).filter(|found| found.name() != named)
}

/// `SEQ`, a known version, then the key class's name (a Java class name: letters, digits,
/// `.`, `_`, `$`), as far as `first` goes.
fn seqfile_version(first: &[u8]) -> Option<u8> {
    use super::seqfile::{MAGIC, VERSION};
    let rest = first.strip_prefix(&MAGIC[..])?;
    let (&version, rest) = rest.split_first()?;
    if !(1..=VERSION).contains(&version) {
        return None;
    }
    // Versions before 4 write the names with `writeUTF` (a 2-byte length), later ones as
    // `Text` (a vint length: one byte up to 127).
    let (len, name) = if version < 4 {
        match rest {
            [hi, lo, name @ ..] => (usize::from(u16::from_be_bytes([*hi, *lo])), name),
            _ => return Some(version).filter(|_| rest.len() < 2),
        }
    } else {
        match rest {
            [len @ 1..=127, name @ ..] => (usize::from(*len), name),
            // A vint of a longer name: its first byte is -113 to -120.
            [0x88..=0x8f, ..] => return Some(version),
            [] => return Some(version),
            _ => return None,
        }
    };
    let class = &name[..len.min(name.len())];
    let java = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'$');
    (len > 0 && class.iter().all(java)).then_some(version)
}

/// The chunk magic, then a header that reads well in one of the layouts (a known
/// compressor); when both do, the one whose checksum matches the first chunk (Go when that
/// cannot be told). A file cut inside its first header counts as Go.
fn paddle_layout(first: &[u8]) -> Option<Layout> {
    if !first.starts_with(&PADDLE_MAGIC) {
        return None;
    }
    let Some(header) = first.get(..PADDLE_HEADER_LEN) else {
        return Some(Layout::Go);
    };
    let field = |i: usize| u32::from_le_bytes(header[i * 4..i * 4 + 4].try_into().unwrap());
    // Go: magic, checksum, compressor, size, records; C++: magic, records, checksum,
    // compressor, size.
    let go = field(2) <= 2;
    let cpp = field(3) <= 2;
    let crc_matches = |checksum: u32, size: u32| {
        let payload = &first[PADDLE_HEADER_LEN..];
        payload
            .get(..size as usize)
            .is_some_and(|p| crc32fast::hash(p) == checksum)
    };
    match (go, cpp) {
        (true, false) => Some(Layout::Go),
        (false, true) => Some(Layout::Cpp),
        (true, true) if !crc_matches(field(1), field(3)) && crc_matches(field(2), field(4)) => {
            Some(Layout::Cpp)
        }
        (true, true) => Some(Layout::Go),
        (false, false) => None,
    }
}

/// What input read as records back to back looks like when it is not binary records:
/// the hint an error decoding it gives ([`looks_like`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Looks {
    /// A Mesos RecordIO stream: a line of digits, then that many bytes, then another.
    Mesos,
    /// Lines of text in this encoding (`csv`, `xml`, `json`).
    Text(&'static str),
}

impl Looks {
    /// What to give, in the words of `rcc`'s flags (`framing_flag`: `--in-framing` or
    /// `--from`): `it looks like lines of text: give --from csv`.
    pub fn hint(self, framing_flag: &str) -> String {
        match self {
            Looks::Mesos => format!(
                "it looks like Mesos RecordIO (a length line, then that many bytes): give \
                 {framing_flag} mesos"
            ),
            Looks::Text("xml") => "it looks like XML text: give --from xml".to_owned(),
            Looks::Text("json") => "it looks like JSON text: give --from json".to_owned(),
            Looks::Text(encoding) => {
                format!("it looks like lines of text: give --from {encoding}")
            }
        }
    }
}

/// What `first` (the first bytes of input read as records back to back) looks like, when
/// it is a Mesos stream or text rather than binary records. Only a hint: binary records
/// may happen to look like text.
///
/// ```
/// use hadoop_record::framing::detect::{looks_like, Looks};
/// assert_eq!(looks_like(b"5\nhello3\nabc"), Some(Looks::Mesos));
/// assert_eq!(looks_like(b"'a,1\n'b,2\n"), Some(Looks::Text("csv")));
/// assert_eq!(looks_like(b"<value><struct>\n"), Some(Looks::Text("xml")));
/// assert_eq!(looks_like(b"\x05hello\x02"), None);
/// ```
pub fn looks_like(first: &[u8]) -> Option<Looks> {
    if looks_like_mesos(first) {
        return Some(Looks::Mesos);
    }
    if !looks_like_text(first) {
        return None;
    }
    let start = first.iter().find(|b| !b.is_ascii_whitespace());
    Some(Looks::Text(match start {
        Some(b'<') => "xml",
        Some(b'{' | b'[') => "json",
        _ => "csv",
    }))
}

/// What input read as records back to back in `encoding` (its name: `binary`, `csv`, …)
/// looks like when that may be why it does not read: a Mesos stream, or text of another
/// encoding. The hint for an error reading it ([`Looks::hint`]).
///
/// ```
/// use hadoop_record::framing::detect::{plain_looks, Looks};
/// assert_eq!(plain_looks(b"'a,1\n", "binary"), Some(Looks::Text("csv")));
/// assert_eq!(plain_looks(b"'a,1\n", "csv"), None);
/// assert_eq!(plain_looks(b"5\nhello", "csv"), Some(Looks::Mesos));
/// ```
pub fn plain_looks(first: &[u8], encoding: &str) -> Option<Looks> {
    match looks_like(first)? {
        Looks::Text(text) if text == encoding => None,
        looks => Some(looks),
    }
}

/// Printable UTF-8 (tabs and line ends allowed; a character cut at the end allowed) with
/// at least one LF.
fn looks_like_text(first: &[u8]) -> bool {
    let printable = |b: &u8| *b >= 0x20 && *b != 0x7f || matches!(b, b'\t' | b'\n' | b'\r');
    let utf8 = match std::str::from_utf8(first) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    };
    first.contains(&b'\n') && first.iter().all(printable) && utf8
}

/// Frames of a Mesos stream from the start, as far as `first` goes: each a line of 1 to 20
/// digits, then that many bytes; at least one frame whole (or a first frame longer than
/// `first`).
fn looks_like_mesos(first: &[u8]) -> bool {
    let mut at = 0;
    let mut frames = 0;
    while at < first.len() {
        let rest = &first[at..];
        let Some(lf) = rest.iter().take(21).position(|&b| b == b'\n') else {
            // A length line cut by the end of `first`.
            return frames > 0 && rest.len() < 21 && rest.iter().all(u8::is_ascii_digit);
        };
        let digits = &rest[..lf];
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return false;
        }
        let Some(len) = std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse::<usize>().ok())
        else {
            return false;
        };
        at += lf + 1;
        frames += 1;
        match at.checked_add(len) {
            Some(end) if end <= first.len() => at = end,
            // The frame runs on past `first`.
            _ => return true,
        }
    }
    frames > 0
}

/// Whether `first` (the input's first bytes so far) is enough for [`detect`]: some bytes,
/// and as many as a framing whose magic they may be the start of needs (a SequenceFile's
/// class name, a Paddle file's first chunk for its checksum). Input that cannot be a
/// recognised framing is told at its first byte, so that a stream (Mesos events over HTTP)
/// is not held up waiting for more.
fn enough(first: &[u8]) -> bool {
    const NEEDS: [(&[u8], usize); 4] = [
        (&super::seqfile::MAGIC, 160),
        (&PADDLE_MAGIC, DETECT_LEN),
        (&super::plasma::var::MAGIC, 5),
        (super::v1::MAGIC, 10),
    ];
    !first.is_empty()
        && NEEDS.iter().all(|(magic, need)| {
            let n = first.len().min(magic.len());
            first[..n] != magic[..n] || first.len() >= *need
        })
}

/// A reader whose first bytes were read ahead, so that its framing can be told without
/// consuming them (from a pipe, say): reads give those bytes first, then the rest. It
/// keeps the input's first [`DETECT_LEN`] bytes (those read since too), for [`looks_like`]
/// when reading them fails.
///
/// ```
/// use std::io::Read;
/// use hadoop_record::framing::detect::{Detected, Peeked};
/// let input = &b"RecordIO v1.0\n\nLog:2:hi\n"[..];
/// let mut peeked = Peeked::new(input)?;
/// assert_eq!(peeked.detect(), Some(Detected::V1));
/// let mut all = Vec::new();
/// peeked.read_to_end(&mut all)?;
/// assert_eq!(all, input);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Peeked<R> {
    /// The input's first bytes (at most [`DETECT_LEN`]).
    head: Vec<u8>,
    /// How many of `head` reads have given.
    given: usize,
    inner: R,
}

impl<R: Read> Peeked<R> {
    /// Reads ahead as much of `inner` as [`detect`] needs to tell its framing: up to
    /// [`DETECT_LEN`] bytes, fewer when the first bytes already tell or the input ends.
    pub fn new(mut inner: R) -> io::Result<Self> {
        let mut head = Vec::with_capacity(DETECT_LEN);
        while head.len() < DETECT_LEN && !enough(&head) {
            let have = head.len();
            head.resize(DETECT_LEN, 0);
            match inner.read(&mut head[have..]) {
                Ok(n) => head.truncate(have + n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => head.truncate(have),
                Err(e) => return Err(e),
            }
            if head.len() == have {
                break;
            }
        }
        Ok(Peeked {
            head,
            given: 0,
            inner,
        })
    }

    /// The input's first bytes: those read ahead, and those read since, up to
    /// [`DETECT_LEN`].
    pub fn first_bytes(&self) -> &[u8] {
        &self.head
    }

    /// The framing the first bytes show ([`detect`]).
    pub fn detect(&self) -> Option<Detected> {
        detect(&self.head)
    }
}

impl<R: Read> Read for Peeked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.given < self.head.len() {
            let n = (&self.head[self.given..]).read(buf)?;
            self.given += n;
            return Ok(n);
        }
        let n = self.inner.read(buf)?;
        let keep = n.min(DETECT_LEN - self.head.len());
        if keep > 0 {
            self.head.extend_from_slice(&buf[..keep]);
            self.given = self.head.len();
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framing::paddle::{Compressor, PaddleWriteOptions, PaddleWriter};
    use crate::framing::seqfile::{SeqWriteOptions, SeqWriter};
    use crate::framing::FrameWrite;
    use crate::test_cases::check_each_input;

    fn paddle(options: PaddleWriteOptions) -> Vec<u8> {
        let mut w = PaddleWriter::with_options(Vec::new(), options);
        for r in [&b"one"[..], b"two", b""] {
            w.write_payload(r).unwrap();
        }
        w.into_inner().unwrap()
    }

    #[test]
    fn paddle_layouts_are_told_apart() {
        for c in [Compressor::None, Compressor::Snappy, Compressor::Gzip] {
            if !c.is_available() {
                continue;
            }
            let go = paddle(PaddleWriteOptions::default().with_compressor(c));
            assert_eq!(detect(&go), Some(Detected::Paddle(Layout::Go)), "{c:?}");
            let cpp = paddle(PaddleWriteOptions::cpp().with_compressor(c));
            assert_eq!(detect(&cpp), Some(Detected::Paddle(Layout::Cpp)), "{c:?}");
        }
        // Cut inside the first header: still Paddle, for the reader to say what is wrong.
        assert_eq!(
            detect(&PADDLE_MAGIC[..]),
            Some(Detected::Paddle(Layout::Go))
        );
    }

    #[test]
    fn paddle_headers_that_fit_both_layouts_go_by_their_checksum() {
        // A C++ header (1 record, checksum 1, no compression, 4 bytes) whose checksum field
        // is also a compressor id, so that it reads as Go too; the payload's CRC-32 is 1,
        // which says C++.
        let field = |v: u32| v.to_le_bytes();
        let mut both = PADDLE_MAGIC.to_vec();
        for v in [1, 1, 0, 4] {
            both.extend_from_slice(&field(v));
        }
        both.extend_from_slice(&[0xdc, 0x0c, 0xa8, 0xb6]);
        assert_eq!(crc32fast::hash(&both[20..]), 1);
        assert_eq!(detect(&both), Some(Detected::Paddle(Layout::Cpp)));
        // Neither checksum matches: Go, the primary layout.
        both[20] ^= 1;
        assert_eq!(detect(&both), Some(Detected::Paddle(Layout::Go)));
        // An empty Go chunk (CRC 0 of nothing) reads as C++ too: Go's checksum matches.
        let empty: Vec<u8> = PADDLE_MAGIC.iter().copied().chain([0; 16]).collect();
        assert_eq!(detect(&empty), Some(Detected::Paddle(Layout::Go)));
    }

    #[test]
    fn magic_with_no_readable_header_is_not_paddle() {
        let mut bytes = PADDLE_MAGIC.to_vec();
        bytes.extend_from_slice(&[0xff; 16]);
        assert_eq!(detect(&bytes), None);
    }

    #[test]
    fn sequence_files_of_every_version_and_class_name() {
        let mut w = SeqWriter::new(Vec::new(), SeqWriteOptions::new("links.Link"));
        w.append(b"", b"x").unwrap();
        let file = w.into_inner().unwrap();
        assert_eq!(detect(&file), Some(Detected::SeqFile { version: 6 }));
        assert_eq!(detect(&file[..4]), Some(Detected::SeqFile { version: 6 }));
        // Version 3: writeUTF names.
        let mut v3 = b"SEQ\x03\x00\x0eorg.a.LongKey".to_vec();
        assert_eq!(detect(&v3), Some(Detected::SeqFile { version: 3 }));
        v3[6] = b' ';
        assert_eq!(detect(&v3), None);
        // A long class name's vint.
        assert_eq!(
            detect(b"SEQ\x06\x8f\x80"),
            Some(Detected::SeqFile { version: 6 })
        );
        check_each_input(
            &[
                b"SEQ\x07\x05a.Key",
                b"SEQ\x00\x05a.Key",
                b"SEQ\x06\x00",
                b"SEQ\x06\x05a Key",
                b"SEQUENCE,1\n",
                b"SE",
            ],
            |not| assert_eq!(detect(not), None),
        );
    }

    #[test]
    fn v1_and_plasma_var_by_their_magic() {
        assert_eq!(detect(b"RecordIO v1.7\n"), Some(Detected::V1));
        assert_eq!(detect(b"RecordIO"), None);
        assert_eq!(
            detect(b"PMRV\x01\x00\x00\x01"),
            Some(Detected::PlasmaVar { version: 1 })
        );
        assert_eq!(detect(b"PMRV"), None);
    }

    #[test]
    fn nothing_else_is_guessed() {
        check_each_input(
            &[
                b"",
                b"5\nhello",
                b"0\n",
                b"'a,1\n",
                b"<value>",
                b"\x00\x00\x00\x04",
                b"\x04\x03\x02",
            ],
            |plain| assert_eq!(detect(plain), None),
        );
    }

    #[test]
    fn names_and_messages() {
        let all = [
            (Detected::SeqFile { version: 6 }, "seqfile"),
            (Detected::Paddle(Layout::Go), "paddle"),
            (Detected::Paddle(Layout::Cpp), "paddle-cpp"),
            (Detected::PlasmaVar { version: 1 }, "plasma-var"),
            (Detected::V1, "v1"),
        ];
        for (found, name) in all {
            assert_eq!(found.name(), name);
        }
        assert_eq!(
            Detected::Paddle(Layout::Cpp).mismatch("paddle", "--from"),
            "this is a Paddle file in the C++ layout, not paddle: give --from paddle-cpp (or \
             leave --from out)"
        );
    }

    #[test]
    fn contradictions() {
        let cpp = paddle(PaddleWriteOptions::cpp());
        assert_eq!(
            contradiction("paddle", &cpp),
            Some(Detected::Paddle(Layout::Cpp))
        );
        assert_eq!(contradiction("paddle-cpp", &cpp), None);
        assert_eq!(
            contradiction("mesos", &cpp),
            Some(Detected::Paddle(Layout::Cpp))
        );
        assert_eq!(contradiction("none", &cpp), None);
        // Nothing recognised contradicts nothing: the reader says what is wrong.
        assert_eq!(contradiction("seqfile", b"5\nhello"), None);
    }

    #[test]
    fn what_plain_input_looks_like() {
        assert_eq!(looks_like(b"5\nhello"), Some(Looks::Mesos));
        assert_eq!(looks_like(b"14\n{\"type\":\"X\"}"), Some(Looks::Mesos));
        // A first frame longer than what was read.
        assert_eq!(looks_like(b"70004\nLLLL"), Some(Looks::Mesos));
        assert_eq!(looks_like(b"0\n1\na0\n0\n"), Some(Looks::Mesos));
        assert_eq!(looks_like(b"5\nhello3\n"), Some(Looks::Mesos));
        assert_eq!(looks_like(b"5\nhelloX"), Some(Looks::Text("csv")));
        assert_eq!(looks_like(b"1,2\n3,4\n"), Some(Looks::Text("csv")));
        assert_eq!(
            looks_like("'caf\u{e9},1\n".as_bytes()),
            Some(Looks::Text("csv"))
        );
        assert_eq!(looks_like(b"  <value>\n"), Some(Looks::Text("xml")));
        assert_eq!(looks_like(b"{\"a\":1}\n"), Some(Looks::Text("json")));
        // No line end, a control byte, bad UTF-8: not text.
        check_each_input(
            &[b"abc", b"a\x01b\n", b"\xff\xfe\n", b"", b"\x7f\x01\x8c"],
            |binary| assert_eq!(looks_like(binary), None),
        );
        // A character cut by the end of what was read is still text.
        assert_eq!(
            looks_like(&"a\n\u{e9}".as_bytes()[..3]),
            Some(Looks::Text("csv"))
        );
        assert_eq!(
            Looks::Mesos.hint("--in-framing"),
            "it looks like Mesos RecordIO (a length line, then that many bytes): give \
             --in-framing mesos"
        );
        assert_eq!(
            Looks::Text("csv").hint("--in-framing"),
            "it looks like lines of text: give --from csv"
        );
    }

    #[test]
    fn peeking_gives_every_byte_back_and_keeps_the_first() {
        // A reader that gives a byte at a time: the look ahead still gets its bytes.
        let mut w = SeqWriter::new(Vec::new(), SeqWriteOptions::new("links.Link"));
        for i in 0..1000u32 {
            w.append(b"", &i.to_be_bytes()).unwrap();
        }
        let seq = w.into_inner().unwrap();
        let long: Vec<u8> = (0..DETECT_LEN * 2 + 3).map(|i| (i % 251) as u8).collect();
        for (input, peeked_len) in [
            (&seq[..], 160),
            (&long[..], 1),
            (&long[..10], 1),
            (&b"SEQ"[..], 3),
            (&[][..], 0),
        ] {
            let mut peeked = Peeked::new(fixture_harness::Trickle::new(input, 1)).unwrap();
            // As much read ahead as tells the framing: a byte of input no framing starts
            // with, a SequenceFile's class names.
            assert_eq!(peeked.first_bytes(), &input[..peeked_len]);
            assert_eq!(detect(peeked.first_bytes()), detect(input));
            let mut all = Vec::new();
            let mut buf = [0u8; 7];
            loop {
                match peeked.read(&mut buf).unwrap() {
                    0 => break,
                    k => all.extend_from_slice(&buf[..k]),
                }
            }
            assert_eq!(all, input);
            // The first bytes read since are kept too.
            assert_eq!(peeked.first_bytes(), &input[..input.len().min(DETECT_LEN)]);
        }
    }
}
