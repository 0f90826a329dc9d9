//! Reading the peers' response files: big-endian integers and length-prefixed blobs.

/// A cursor over a response; every read fails cleanly at the end of the bytes.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Cursor { bytes, at: 0 }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("the response ends early, at byte {}", self.at))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    pub(crate) fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn int(&mut self) -> Result<i32, String> {
        let b = self.take(4)?;
        Ok(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn long(&mut self) -> Result<u64, String> {
        let b = self.take(8)?;
        Ok(u64::from_be_bytes(b.try_into().expect("eight bytes")))
    }

    pub(crate) fn bool(&mut self) -> Result<bool, String> {
        Ok(self.byte()? != 0)
    }

    /// An int length (not negative) and that many bytes.
    pub(crate) fn blob(&mut self) -> Result<Vec<u8>, String> {
        let n = self.int()?;
        let n = usize::try_from(n).map_err(|_| format!("a blob of length {n}"))?;
        Ok(self.take(n)?.to_vec())
    }

    /// A blob of UTF-8.
    pub(crate) fn string(&mut self) -> Result<String, String> {
        String::from_utf8(self.blob()?).map_err(|e| e.to_string())
    }

    /// Fails unless every byte was read.
    pub(crate) fn end(&self) -> Result<(), String> {
        match self.bytes.len() - self.at {
            0 => Ok(()),
            n => Err(format!("{n} bytes after the last answer")),
        }
    }
}
