//! A pull lexer for the XML that Hadoop's `XmlRecordOutput` writes, over any `Read`.
//!
//! Hand-written rather than built on quick-xml: the accepted language is tiny (a dozen
//! known element names, no attributes, text with the five predefined entities and
//! character references, plus comments, processing instructions and CDATA sections), and
//! the reader needs things a general parser does not give directly — errors at line:col
//! over a streamed input (quick-xml reports byte offsets of data it has already handed
//! back), several root elements in one stream, `]]>` in text, XML's CR/CRLF normalisation,
//! and text handed out without copying when it holds no entity or CR (nearly always).
//! Knowing the element names also lets the hot path match a whole tag such as `<value>`
//! with one comparison.
//!
//! The lexer keeps a window over the input: `buf[pos..end]` is read but not yet consumed.
//! A token is consumed only once it is complete, so a refill (which moves the unconsumed
//! bytes to the front of the buffer) never invalidates offsets counted from `pos`. The
//! buffer grows only to hold one token: a tag (at most [`MAX_TAG`] bytes) or the text of
//! one element, which is as long as the input that holds it.

use std::io::Read;

use super::elem::Elem;
use crate::error::{excerpt, Error, ErrorKind, Position, Result, EXCERPT_CHARS};
use crate::uninterrupted::read_more;

/// How many bytes a read asks for at least (once past the first, smaller buffer of a lexer
/// made for small input).
const MIN_READ: usize = 16 * 1024;
/// Initial buffer size.
const INITIAL: usize = 64 * 1024;
/// The longest tag accepted (`<…>`); Hadoop's longest is `</ex:float>`.
const MAX_TAG: usize = 256;
/// The longest entity reference accepted (`&#x10FFFF;` is 10 bytes).
const MAX_ENTITY: usize = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TagKind {
    Open,
    Close,
    /// `<name/>`
    Empty,
}

#[derive(Debug, Clone, Copy)]
struct Tag {
    kind: TagKind,
    elem: Elem,
    /// Bytes from `<` to `>` inclusive.
    len: usize,
}

impl Tag {
    fn describe(self) -> String {
        match self.kind {
            TagKind::Open => format!("<{}>", self.elem.name()),
            TagKind::Close => format!("</{}>", self.elem.name()),
            TagKind::Empty => format!("<{}/>", self.elem.name()),
        }
    }
}

/// The content of an element: `buf[start..start + len]`, or the lexer's scratch buffer
/// when entities, CRs, CDATA sections or comments had to be resolved. Valid until the next
/// call that reads input.
#[derive(Debug, Clone, Copy)]
pub struct Text {
    start: usize,
    len: usize,
    resolved: bool,
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\t' | b'\r')
}

/// Window over the input plus the line bookkeeping for positions.
pub struct Lexer<R> {
    reader: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    /// Absolute offset of `buf[0]`.
    base_offset: u64,
    /// 1-based line of `buf[0]`.
    base_line: u64,
    /// Absolute offset where the line of `buf[0]` starts.
    base_line_start: u64,
    /// Resolved element text (see [`Text`]).
    scratch: Vec<u8>,
    /// The buffer's first size ([`INITIAL`], or less for input known to be small).
    initial: usize,
}

impl<R> std::fmt::Debug for Lexer<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lexer")
            .field("position", &self.position_at(self.pos))
            .field("buffered", &(self.end - self.pos))
            .field("eof", &self.eof)
            .finish_non_exhaustive()
    }
}

impl<R> Lexer<R> {
    /// Line and column of buffer index `idx`.
    pub fn position_at(&self, idx: usize) -> Position {
        let before = &self.buf[..idx.min(self.end)];
        let lines = memchr::memchr_iter(b'\n', before).count() as u64;
        let line_start = match memchr::memrchr(b'\n', before) {
            Some(i) => self.base_offset + i as u64 + 1,
            None => self.base_line_start,
        };
        Position::LineCol {
            line: self.base_line + lines,
            col: self.base_offset + idx as u64 - line_start + 1,
        }
    }
}

impl<R: Read> Lexer<R> {
    pub fn new(reader: R) -> Self {
        Self::with_capacity(reader, INITIAL)
    }

    /// A lexer whose buffer starts at `capacity` bytes (at least 1, at most [`INITIAL`]).
    pub fn with_capacity(reader: R, capacity: usize) -> Self {
        Lexer {
            reader,
            buf: Vec::new(),
            pos: 0,
            end: 0,
            eof: false,
            base_offset: 0,
            base_line: 1,
            base_line_start: 0,
            scratch: Vec::new(),
            initial: capacity.clamp(1, INITIAL),
        }
    }

    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    pub fn into_inner(self) -> R {
        self.reader
    }

    #[inline]
    fn avail(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// Reads more input after `end`; `false` at the end of input. Offsets from `pos` stay
    /// valid; absolute buffer indices do not.
    #[cold]
    fn fill(&mut self) -> Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.buf.len() - self.end < MIN_READ && self.pos > 0 {
            let dropped = &self.buf[..self.pos];
            let lines = memchr::memchr_iter(b'\n', dropped).count() as u64;
            if let Some(last) = memchr::memrchr(b'\n', dropped) {
                self.base_line_start = self.base_offset + last as u64 + 1;
            }
            self.base_line += lines;
            self.base_offset += self.pos as u64;
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
        }
        if self.buf.len() - self.end < MIN_READ {
            let grown = (self.buf.len() * 2).max(self.initial);
            self.buf.resize(grown, 0);
        }
        read_more(
            &mut self.reader,
            &mut self.buf,
            &mut self.end,
            &mut self.eof,
        )
        .map_err(|e| Error::from(e).at(self.position_at(self.end)))
    }

    /// Makes at least `n` bytes available after `pos` unless the input ends first.
    #[inline]
    fn ensure(&mut self, n: usize) -> Result<bool> {
        while self.end - self.pos < n {
            if !self.fill()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The position of the next unconsumed byte.
    pub fn here(&self) -> Position {
        self.position_at(self.pos)
    }

    /// An error at `off` bytes after `pos`.
    #[cold]
    fn err_at(&self, off: usize, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(kind, message.into()).at(self.position_at(self.pos + off))
    }

    /// An error at the next unconsumed byte.
    #[cold]
    pub fn err(&self, kind: ErrorKind, message: impl Into<String>) -> Error {
        self.err_at(0, kind, message)
    }

    /// An error at byte `offset` of element text (at its start when the text was resolved).
    #[cold]
    pub fn text_err(&self, text: Text, offset: usize, kind: ErrorKind, message: String) -> Error {
        let idx = if text.resolved {
            text.start
        } else {
            text.start + offset
        };
        Error::new(kind, message).at(self.position_at(idx))
    }

    /// The bytes of element text.
    #[inline]
    pub fn text_bytes(&self, text: Text) -> &[u8] {
        if text.resolved {
            &self.scratch
        } else {
            &self.buf[text.start..text.start + text.len]
        }
    }

    /// Skips whitespace, comments and processing instructions (the XML declaration
    /// included): what may come between elements. Stops at anything else or the end.
    pub fn skip_misc(&mut self) -> Result<()> {
        loop {
            let rest = &self.buf[self.pos..self.end];
            self.pos += rest.iter().position(|&b| !is_ws(b)).unwrap_or(rest.len());
            if self.pos == self.end {
                if self.fill()? {
                    continue;
                }
                return Ok(());
            }
            if self.buf[self.pos] != b'<' {
                if self.base_offset + self.pos as u64 == 0 && self.avail().starts_with(b"\xef") {
                    // A byte order mark at the very start.
                    if self.ensure(3)? && self.avail().starts_with(b"\xef\xbb\xbf") {
                        self.pos += 3;
                        continue;
                    }
                }
                return Ok(());
            }
            if self.pos + 1 < self.end && !matches!(self.buf[self.pos + 1], b'?' | b'!') {
                return Ok(());
            }
            self.ensure(9)?;
            let rest = self.avail();
            if rest.starts_with(b"<?") {
                self.skip_past(2, b"?>", "processing instruction")?;
            } else if rest.starts_with(b"<!--") {
                self.skip_past(4, b"-->", "comment")?;
            } else if rest.starts_with(b"<!DOCTYPE") {
                return Err(self.err(
                    ErrorKind::Unsupported,
                    "document type declarations are not supported",
                ));
            } else {
                return Ok(());
            }
        }
    }

    /// Consumes a construct that starts with `open` bytes at `pos` and ends with
    /// `terminator`. Consumed bytes are dropped as the search goes, so a huge comment does
    /// not grow the buffer.
    fn skip_past(&mut self, open: usize, terminator: &[u8], what: &str) -> Result<()> {
        let start = self.here();
        self.pos += open;
        loop {
            if let Some(i) = memchr::memmem::find(self.avail(), terminator) {
                self.pos += i + terminator.len();
                return Ok(());
            }
            // Keep a possible partial terminator.
            self.pos = self.end.saturating_sub(terminator.len() - 1).max(self.pos);
            if !self.fill()? {
                return Err(Error::eof(format!("input ends inside a {what}")).at(start));
            }
        }
    }

    /// Whether the input is exhausted after skipping what may separate elements.
    pub fn at_end(&mut self) -> Result<bool> {
        self.skip_misc()?;
        Ok(self.pos == self.end)
    }

    /// Whether an end tag (`</`) comes next, after skipping what separates elements.
    /// `what` names the construct being read, for the error at end of input.
    pub fn at_close(&mut self, what: &str) -> Result<bool> {
        self.skip_misc()?;
        if !self.ensure(2)? {
            return Err(self.eof_error(what));
        }
        Ok(self.avail().starts_with(b"</"))
    }

    #[cold]
    fn eof_error(&self, what: &str) -> Error {
        Error::eof(format!("input ends {what}")).at(self.position_at(self.end))
    }

    /// Parses the tag starting `off` bytes after `pos`, without consuming it.
    fn tag_at(&mut self, off: usize) -> Result<Tag> {
        if self.avail().get(off) != Some(&b'<') {
            // Text where markup was expected: up to the next `<`, or a window of it.
            let window = EXCERPT_CHARS * 4;
            self.ensure(off + window)?;
            let mut n = off;
            while self.pos + n < self.end && n - off < window && self.buf[self.pos + n] != b'<' {
                n += 1;
            }
            let text = excerpt(&self.buf[self.pos + off..self.pos + n]);
            let continued = n - off == window && self.buf.get(self.pos + n) != Some(&b'<');
            let text = if continued { text.continued() } else { text };
            return Err(self.err_at(off, ErrorKind::Syntax, format!("unexpected text {text}")));
        }
        let mut scanned = off + 1;
        let gt = loop {
            if let Some(i) = memchr::memchr(b'>', &self.buf[self.pos + scanned..self.end]) {
                break scanned + i;
            }
            scanned = self.end - self.pos;
            if scanned - off > MAX_TAG {
                return Err(self.err_at(
                    off,
                    ErrorKind::Limit,
                    format!("tag longer than {MAX_TAG} bytes"),
                ));
            }
            if !self.fill()? {
                return Err(self.err_at(off, ErrorKind::UnexpectedEof, "input ends inside a tag"));
            }
        };
        let whole = &self.buf[self.pos + off..=self.pos + gt];
        let inner = &whole[1..whole.len() - 1];
        let (kind, body) = match inner.first() {
            Some(b'/') => (TagKind::Close, &inner[1..]),
            Some(b'!') if inner.starts_with(b"![CDATA[") => {
                return Err(self.err_at(off, ErrorKind::Syntax, "unexpected CDATA section"))
            }
            Some(b'!' | b'?') => {
                return Err(self.err_at(off, ErrorKind::Syntax, "unexpected markup declaration"))
            }
            _ => (TagKind::Open, inner),
        };
        let name_len = body
            .iter()
            .position(|&b| is_ws(b) || b == b'/')
            .unwrap_or(body.len());
        let (name, rest) = body.split_at(name_len);
        let rest = &rest[rest.iter().position(|&b| !is_ws(b)).unwrap_or(rest.len())..];
        let kind = match (kind, rest) {
            (_, []) => kind,
            (TagKind::Open, b"/") => TagKind::Empty,
            (TagKind::Open, _) if rest.contains(&b'=') => {
                return Err(self.err_at(
                    off,
                    ErrorKind::Syntax,
                    format!(
                        "attributes are not part of Hadoop's XML encoding: {}",
                        excerpt(whole)
                    ),
                ))
            }
            _ => {
                return Err(self.err_at(
                    off,
                    ErrorKind::Syntax,
                    format!("malformed tag {}", excerpt(whole)),
                ))
            }
        };
        let Some(elem) = Elem::from_name(name) else {
            let message = if name.is_empty() {
                format!("malformed tag {}", excerpt(whole))
            } else {
                format!("unknown element {}", excerpt(name))
            };
            return Err(self.err_at(off, ErrorKind::Syntax, message));
        };
        Ok(Tag {
            kind,
            elem,
            len: gt + 1 - off,
        })
    }

    /// Consumes the start tag of `want`; returns whether it was an empty-element tag
    /// (`<want/>`).
    #[inline]
    pub fn open(&mut self, want: Elem) -> Result<bool> {
        self.open_either(want, None).map(|(_, empty)| empty)
    }

    /// Consumes the start tag of `want` or of `alt`; returns which, and whether it was an
    /// empty-element tag.
    #[inline]
    pub fn open_either(&mut self, want: Elem, alt: Option<Elem>) -> Result<(Elem, bool)> {
        self.skip_misc()?;
        let tag = want.open_tag();
        if self.avail().starts_with(tag) {
            self.pos += tag.len();
            return Ok((want, false));
        }
        self.open_slow(want, alt)
    }

    #[cold]
    fn open_slow(&mut self, want: Elem, alt: Option<Elem>) -> Result<(Elem, bool)> {
        if self.pos == self.end {
            return Err(self.eof_error(&format!("where <{}> was expected", want.name())));
        }
        let tag = self.tag_at(0)?;
        let found = tag.elem == want || Some(tag.elem) == alt;
        match tag.kind {
            TagKind::Open | TagKind::Empty if found => {
                self.pos += tag.len;
                Ok((tag.elem, tag.kind == TagKind::Empty))
            }
            _ => Err(self.err(
                ErrorKind::Syntax,
                format!("expected <{}>, found {}", want.name(), tag.describe()),
            )),
        }
    }

    /// Consumes the end tag of `want`.
    #[inline]
    pub fn close(&mut self, want: Elem) -> Result<()> {
        self.skip_misc()?;
        let tag = want.close_tag();
        if self.avail().starts_with(tag) {
            self.pos += tag.len();
            return Ok(());
        }
        self.close_slow(want)
    }

    #[cold]
    fn close_slow(&mut self, want: Elem) -> Result<()> {
        if self.pos == self.end {
            return Err(self.eof_error(&format!("where </{}> was expected", want.name())));
        }
        let tag = self.tag_at(0)?;
        match tag.kind {
            TagKind::Close if tag.elem == want => {
                self.pos += tag.len;
                Ok(())
            }
            TagKind::Close => Err(self.err(
                ErrorKind::Syntax,
                format!(
                    "mismatched end tag {}: expected </{}>",
                    tag.describe(),
                    want.name()
                ),
            )),
            _ => Err(self.err(
                ErrorKind::Syntax,
                format!("expected </{}>, found {}", want.name(), tag.describe()),
            )),
        }
    }

    /// Reads the content of element `elem` (whose start tag was just consumed) and consumes
    /// its end tag. Entities and character references are resolved and CR/CRLF become LF,
    /// as an XML parser does; CDATA sections contribute their content, comments and
    /// processing instructions nothing. A `]]>` in text is accepted (Java writes it).
    pub fn text(&mut self, elem: Elem) -> Result<Text> {
        // `pos` stays at the start of the text until the end tag is consumed; `i` is how
        // far the scan got and `copied` how much of it is in `scratch` (once resolving).
        let mut i = 0;
        let mut copied = 0;
        let mut resolved = false;
        loop {
            let Some(k) = find_markup(&self.buf[self.pos + i..self.end]) else {
                i = self.end - self.pos;
                if !self.fill()? {
                    return Err(self.eof_error(&format!("inside <{}>", elem.name())));
                }
                continue;
            };
            let at = i + k;
            let b = self.buf[self.pos + at];
            if b == b'<' {
                self.ensure(at + 9)?;
            }
            let rest = &self.buf[self.pos + at..self.end];
            let close = b == b'<' && rest.starts_with(b"</");
            if !close && !resolved {
                resolved = true;
                self.scratch.clear();
            }
            if resolved {
                self.scratch
                    .extend_from_slice(&self.buf[self.pos + copied..self.pos + at]);
            }
            match b {
                b'\r' => {
                    self.ensure(at + 2)?;
                    let next = self.pos + at + 1;
                    let crlf = next < self.end && self.buf[next] == b'\n';
                    self.scratch.push(b'\n');
                    i = at + if crlf { 2 } else { 1 };
                }
                b'&' => {
                    let (c, len) = self.entity(at)?;
                    let mut utf8 = [0u8; 4];
                    self.scratch
                        .extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                    i = at + len;
                }
                _ if close && rest.starts_with(elem.close_tag()) => {
                    let text = Text {
                        start: self.pos,
                        len: at,
                        resolved,
                    };
                    self.pos += at + elem.close_tag().len();
                    return Ok(text);
                }
                _ if close => {
                    let tag = self.tag_at(at)?;
                    if tag.elem != elem {
                        return Err(self.err_at(
                            at,
                            ErrorKind::Syntax,
                            format!(
                                "mismatched end tag {}: expected </{}>",
                                tag.describe(),
                                elem.name()
                            ),
                        ));
                    }
                    let text = Text {
                        start: self.pos,
                        len: at,
                        resolved,
                    };
                    self.pos += at + tag.len;
                    return Ok(text);
                }
                _ if rest.starts_with(b"<![CDATA[") => {
                    let from = at + 9;
                    let len = self.find_from(from, b"]]>", "CDATA section", at)?;
                    let content = self.pos + from..self.pos + from + len;
                    push_normalised(&mut self.scratch, &self.buf[content]);
                    i = from + len + 3;
                }
                _ if rest.starts_with(b"<!--") => {
                    i = at + 4 + self.find_from(at + 4, b"-->", "comment", at)? + 3;
                }
                _ if rest.starts_with(b"<?") => {
                    i = at + 2 + self.find_from(at + 2, b"?>", "processing instruction", at)? + 2;
                }
                _ => {
                    let tag = self.tag_at(at)?;
                    return Err(self.err_at(
                        at,
                        ErrorKind::Syntax,
                        format!("unexpected {} inside <{}>", tag.describe(), elem.name()),
                    ));
                }
            }
            copied = i;
        }
    }

    /// Length of the bytes from `from` (an offset from `pos`) up to `terminator`, reading
    /// more input as needed; `start` is where the construct began, for the error.
    fn find_from(
        &mut self,
        from: usize,
        terminator: &[u8],
        what: &str,
        start: usize,
    ) -> Result<usize> {
        let mut scanned = from;
        loop {
            let hay = &self.buf[self.pos + scanned..self.end];
            if let Some(i) = memchr::memmem::find(hay, terminator) {
                return Ok(scanned + i - from);
            }
            scanned = (self.end - self.pos)
                .saturating_sub(terminator.len() - 1)
                .max(from);
            if !self.fill()? {
                return Err(self.err_at(
                    start,
                    ErrorKind::UnexpectedEof,
                    format!("input ends inside a {what}"),
                ));
            }
        }
    }

    /// Resolves the entity or character reference at offset `at` (a `&`): the character
    /// and the length of the reference.
    fn entity(&mut self, at: usize) -> Result<(char, usize)> {
        self.ensure(at + MAX_ENTITY)?;
        let window = &self.buf[self.pos + at..self.end.min(self.pos + at + MAX_ENTITY)];
        let Some(semi) = memchr::memchr(b';', window) else {
            if self.eof && window.len() < MAX_ENTITY {
                return Err(self.err_at(
                    at,
                    ErrorKind::UnexpectedEof,
                    "input ends inside an entity reference",
                ));
            }
            return Err(self.err_at(
                at,
                ErrorKind::Syntax,
                format!(
                    "unterminated entity reference {}",
                    excerpt(window).continued()
                ),
            ));
        };
        let name = &window[1..semi];
        let c = match name {
            b"lt" => Some('<'),
            b"gt" => Some('>'),
            b"amp" => Some('&'),
            b"quot" => Some('"'),
            b"apos" => Some('\''),
            [b'#', b'x', hex @ ..] => char_ref(hex, 16),
            [b'#', dec @ ..] => char_ref(dec, 10),
            _ => {
                return Err(self.err_at(
                    at,
                    ErrorKind::Syntax,
                    format!("unknown entity {}", excerpt(&window[..=semi])),
                ))
            }
        }
        .ok_or_else(|| {
            self.err_at(
                at,
                ErrorKind::Encoding,
                format!(
                    "character reference {} is not an XML character",
                    excerpt(&window[..=semi])
                ),
            )
        })?;
        Ok((c, semi + 1))
    }
}

/// Position of the first `<`, `&` or CR: a plain loop over the first bytes (element text
/// is usually a short number), then memchr.
#[inline]
fn find_markup(hay: &[u8]) -> Option<usize> {
    const SHORT: usize = 24;
    let head = &hay[..hay.len().min(SHORT)];
    if let Some(i) = head.iter().position(|&b| matches!(b, b'<' | b'&' | b'\r')) {
        return Some(i);
    }
    if hay.len() <= SHORT {
        return None;
    }
    memchr::memchr3(b'<', b'&', b'\r', &hay[SHORT..]).map(|i| i + SHORT)
}

/// A character reference's digits to the character, if it is one XML allows
/// (tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF).
fn char_ref(digits: &[u8], radix: u32) -> Option<char> {
    if digits.is_empty() || digits.len() > 8 {
        return None;
    }
    let text = std::str::from_utf8(digits).ok()?;
    if !text.bytes().all(|b| (b as char).is_digit(radix)) {
        return None;
    }
    let v = u32::from_str_radix(text, radix).ok()?;
    let allowed =
        matches!(v, 0x9 | 0xa | 0xd | 0x20..=0xd7ff | 0xe000..=0xfffd | 0x1_0000..=0x10_ffff);
    allowed.then(|| char::from_u32(v)).flatten()
}

/// Appends CDATA content with XML's line-end normalisation (CRLF and CR become LF).
fn push_normalised(out: &mut Vec<u8>, mut content: &[u8]) {
    while let Some(i) = memchr::memchr(b'\r', content) {
        out.extend_from_slice(&content[..i]);
        out.push(b'\n');
        let skip = if content.get(i + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        content = &content[i + skip..];
    }
    out.extend_from_slice(content);
}
