//! The file header: the `RecordIO v1.x` magic line and `Key: value` pairs.

use std::io::Write;

use crate::error::{excerpt, Error, ErrorKind, Position, Result};

/// The magic line's text before the version.
pub(crate) const MAGIC: &[u8] = b"RecordIO v";

/// The header of a RecordIO v1 file: its version and its `Key: value` pairs, in file
/// order. Keys may repeat; every value is kept. Unknown keys are kept untouched.
///
/// ```
/// use hadoop_record::framing::v1::FileHeader;
/// let mut h = FileHeader::new();
/// h.push("Record-Content-Type", "Json: application/json").unwrap();
/// h.push("Record-Content-Type", "Blob: application/octet-stream").unwrap();
/// assert_eq!(h.get("record-content-type"), Some("Json: application/json"));
/// assert_eq!(h.values("Record-Content-Type").count(), 2);
/// assert!(h.push("Bad Key", "x").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHeader {
    major: u32,
    minor: u32,
    pairs: Vec<(String, String)>,
}

impl Default for FileHeader {
    fn default() -> Self {
        Self::new()
    }
}

impl FileHeader {
    /// An empty v1.0 header.
    pub fn new() -> Self {
        FileHeader {
            major: 1,
            minor: 0,
            pairs: Vec::new(),
        }
    }

    /// The version read from the magic line (`(1, 0)` for headers built here; writers always
    /// write `v1.0`).
    pub fn version(&self) -> (u32, u32) {
        (self.major, self.minor)
    }

    /// The pairs in file order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// The first value of `key` (compared ASCII case-insensitively).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// Every value of `key` in order (compared ASCII case-insensitively).
    pub fn values<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.pairs
            .iter()
            .filter(move |(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// Appends a pair after checking that it can be written and read back unchanged: the
    /// key is `[A-Za-z0-9]+(-[A-Za-z0-9]+)*`, the value is ASCII without CR, LF or
    /// surrounding whitespace. (Writers may further insist on the spec's `Word-Word` keys,
    /// see [`super::V1WriteOptions::strict_keys`].)
    pub fn push(&mut self, key: impl Into<String>, value: impl Into<String>) -> Result<()> {
        let (key, value) = (key.into(), value.into());
        if let Err(i) = check_key(key.as_bytes()) {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "header key {} is not Word(-Word)* (byte {i})",
                    excerpt(&key)
                ),
            ));
        }
        check_value(&value)?;
        self.pairs.push((key, value));
        Ok(())
    }

    pub(crate) fn set_version(&mut self, major: u32, minor: u32) {
        self.major = major;
        self.minor = minor;
    }

    pub(crate) fn push_read(&mut self, key: String, value: String) {
        self.pairs.push((key, value));
    }
}

/// Checks a key against the reading grammar `[A-Za-z0-9]+(-[A-Za-z0-9]+)*`; on failure,
/// the index of the offending byte.
pub(crate) fn check_key(key: &[u8]) -> std::result::Result<(), usize> {
    let mut prev_dash = true;
    for (i, &b) in key.iter().enumerate() {
        match b {
            b'-' if !prev_dash => prev_dash = true,
            b if b.is_ascii_alphanumeric() => prev_dash = false,
            _ => return Err(i),
        }
    }
    if prev_dash {
        return Err(key.len().saturating_sub(1));
    }
    Ok(())
}

/// Whether a key has the spec's strict form `Word(-Word)*`, `Word = [A-Z][a-z]*`.
pub(crate) fn is_strict_key(key: &str) -> bool {
    key.split('-').all(|word| {
        let mut bytes = word.bytes();
        bytes.next().is_some_and(|b| b.is_ascii_uppercase())
            && bytes.all(|b| b.is_ascii_lowercase())
    })
}

fn check_value(value: &str) -> Result<()> {
    let bad = |what: &str| {
        Err(Error::new(
            ErrorKind::Unsupported,
            format!("header value {} {what}", excerpt(value)),
        ))
    };
    if !value.is_ascii() {
        return bad("is not ASCII");
    }
    if value.bytes().any(|b| b == b'\n' || b == b'\r') {
        return bad("holds CR or LF");
    }
    if value.trim_matches([' ', '\t']).len() != value.len() {
        return bad("starts or ends with whitespace (readers trim it)");
    }
    Ok(())
}

/// Writes `RecordIO v1.0`, the pairs and the blank line.
pub(crate) fn write_header(w: &mut impl Write, header: &FileHeader) -> std::io::Result<()> {
    w.write_all(b"RecordIO v1.0\n")?;
    for (key, value) in &header.pairs {
        w.write_all(key.as_bytes())?;
        w.write_all(b": ")?;
        w.write_all(value.as_bytes())?;
        w.write_all(b"\n")?;
    }
    w.write_all(b"\n")
}

/// A header syntax error at 1-based `line`, 0-based byte `index` in it.
pub(crate) fn error_at(kind: ErrorKind, line: u64, index: usize, message: String) -> Error {
    Error::new(kind, message).at(Position::LineCol {
        line,
        col: index as u64 + 1,
    })
}

/// Parses a decimal without sign or leading zeros (`0` alone is fine).
fn parse_num(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || (digits.len() > 1 && digits[0] == b'0') {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// Parses the magic line (without LF): `RecordIO v<major>.<minor>`, major 1.
pub(crate) fn parse_magic(line: &[u8]) -> Result<(u32, u32)> {
    if let Some(i) = line.iter().position(|&b| b == b'\r') {
        return Err(error_at(
            ErrorKind::Syntax,
            1,
            i,
            "CR in the magic line (lines end with LF alone)".into(),
        ));
    }
    if !line.starts_with(MAGIC) {
        return Err(error_at(
            ErrorKind::Syntax,
            1,
            0,
            "not a RecordIO v1 file: the first line is not `RecordIO v1.x`".into(),
        ));
    }
    let version = &line[MAGIC.len()..];
    let bad = || {
        error_at(
            ErrorKind::Syntax,
            1,
            MAGIC.len(),
            format!(
                "bad version {} in the magic line (expected <major>.<minor>)",
                excerpt(version)
            ),
        )
    };
    let dot = version.iter().position(|&b| b == b'.').ok_or_else(bad)?;
    let major = parse_num(&version[..dot]).ok_or_else(bad)?;
    let minor = parse_num(&version[dot + 1..]).ok_or_else(bad)?;
    if major != 1 {
        return Err(error_at(
            ErrorKind::Unsupported,
            1,
            MAGIC.len(),
            format!("RecordIO version {major}.{minor}: only major version 1 is read"),
        ));
    }
    Ok((major, minor))
}

/// Whether `prefix` (the first bytes of the input) can still become a magic line.
pub(crate) fn could_be_magic(prefix: &[u8]) -> bool {
    let n = prefix.len().min(MAGIC.len());
    prefix[..n] == MAGIC[..n]
}

/// Parses a `Key: value` line (without LF) at 1-based `line`: a colon, then one or more
/// spaces or tabs; the value is trimmed of spaces and tabs at both ends.
pub(crate) fn parse_pair(text: &[u8], line: u64) -> Result<(String, String)> {
    let err = |i: usize, m: &str| error_at(ErrorKind::Syntax, line, i, m.to_string());
    if let Some(i) = text.iter().position(|&b| b == b'\r') {
        return Err(err(i, "CR in a header line (lines end with LF alone)"));
    }
    let colon = text
        .iter()
        .position(|&b| b == b':')
        .ok_or_else(|| err(0, "header line is not `Key: value` (no colon)"))?;
    let key = &text[..colon];
    if key.is_empty() {
        return Err(err(0, "empty header key"));
    }
    if let Err(i) = check_key(key) {
        return Err(err(
            i,
            "header key is not Word(-Word)* (letters and digits)",
        ));
    }
    let rest = &text[colon + 1..];
    if !matches!(rest.first(), Some(b' ' | b'\t')) {
        if rest.first().is_some_and(u8::is_ascii_digit) {
            return Err(err(
                colon + 1,
                "expected a space after the colon of a header (a segment? the header ends with a blank line)",
            ));
        }
        return Err(err(
            colon + 1,
            "expected a space after the colon of a header",
        ));
    }
    let value = trim(rest);
    let value = std::str::from_utf8(value).map_err(|e| {
        let at = colon + 1 + (value.as_ptr() as usize - rest.as_ptr() as usize) + e.valid_up_to();
        error_at(
            ErrorKind::Encoding,
            line,
            at,
            "header value is not UTF-8".into(),
        )
    })?;
    let key = std::str::from_utf8(key).expect("checked ASCII");
    Ok((key.to_string(), value.to_string()))
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_cases::check_each_input;

    #[test]
    fn magic_lines() {
        assert_eq!(parse_magic(b"RecordIO v1.0").unwrap(), (1, 0));
        assert_eq!(parse_magic(b"RecordIO v1.17").unwrap(), (1, 17));
        check_each_input(
            &[
                b"RecordIO v1.01",
                b"RecordIO v01.0",
                b"RecordIO v1",
                b"RecordIO v1.0 ",
                b"RecordIO V1.0",
                b"RecordIO  v1.0",
                b"RecordIO v1.0\r",
                b"recordio v1.0",
                b"RecordIO v1.99999999999",
            ],
            |bad| assert_eq!(parse_magic(bad).unwrap_err().kind(), ErrorKind::Syntax),
        );
        assert_eq!(
            parse_magic(b"RecordIO v2.0").unwrap_err().kind(),
            ErrorKind::Unsupported
        );
    }

    #[test]
    fn pairs_read_leniently() {
        let pair = |s: &[u8]| parse_pair(s, 3);
        assert_eq!(pair(b"Date: x").unwrap(), ("Date".into(), "x".into()));
        assert_eq!(
            pair(b"Content-MD5:\t  a b  ").unwrap(),
            ("Content-MD5".into(), "a b".into())
        );
        assert_eq!(pair(b"X-UH: ").unwrap(), ("X-UH".into(), "".into()));
        assert_eq!(pair(b"K: a: b").unwrap(), ("K".into(), "a: b".into()));
        let e = pair(b"Key:x").unwrap_err();
        assert_eq!(e.position(), Some(Position::LineCol { line: 3, col: 5 }));
        let e = pair(b"Bad_Key: x").unwrap_err();
        assert_eq!(e.position(), Some(Position::LineCol { line: 3, col: 4 }));
        assert!(pair(b"-Key: x").is_err());
        assert!(pair(b"Key-: x").is_err());
        assert!(pair(b"Ke--y: x").is_err());
        assert!(pair(b"Record").is_err());
        assert!(pair(b": x").is_err());
        assert!(pair(b"Key: x\r").is_err());
        assert_eq!(pair(b"Key: \xff").unwrap_err().kind(), ErrorKind::Encoding);
    }

    #[test]
    fn strict_keys() {
        for good in ["Date", "Content-Type", "X-Uh-Shard", "A"] {
            assert!(is_strict_key(good), "{good}");
        }
        for bad in ["Content-MD5", "X-UH", "date", "A1", "", "A--B"] {
            assert!(!is_strict_key(bad), "{bad}");
        }
    }

    #[test]
    fn values_that_would_not_read_back_are_refused() {
        let mut h = FileHeader::new();
        assert!(h.push("K", " padded").is_err());
        assert!(h.push("K", "two\nlines").is_err());
        assert!(h.push("K", "caf\u{e9}").is_err());
        assert!(h.push("K", "").is_ok());
        assert!(h.push("K", "inner  spaces").is_ok());
    }
}
