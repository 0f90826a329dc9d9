//! The peers' request and response files: big-endian integers and length-prefixed blobs,
//! written into a [`Request`] and read back with a [`Cursor`].

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

/// A request file being written for one run of a peer: its header, each operation's code and
/// arguments, and which operations they are, so that their answers can be read in order.
#[derive(Debug, Clone)]
pub(crate) struct Request<Op> {
    bytes: Vec<u8>,
    header: usize,
    ops: Vec<Op>,
}

impl<Op> Request<Op> {
    /// An empty request: `magic`, then `version` (big-endian) where the protocol has one. The
    /// response starts with the same bytes.
    pub(crate) fn new(magic: &[u8; 4], version: Option<i32>) -> Self {
        let mut bytes = magic.to_vec();
        if let Some(version) = version {
            bytes.extend_from_slice(&version.to_be_bytes());
        }
        Request {
            header: bytes.len(),
            bytes,
            ops: Vec::new(),
        }
    }

    /// The bytes of the request file.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The operations asked for so far.
    pub(crate) fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// Starts operation `code`, whose answer is read as `op` says.
    pub(crate) fn op(&mut self, code: u8, op: Op) {
        self.bytes.push(code);
        self.ops.push(op);
    }

    /// Raw bytes: a byte, or an integer's big-endian bytes.
    pub(crate) fn put(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// An int length and the bytes.
    pub(crate) fn blob(&mut self, b: &[u8]) {
        let n = i32::try_from(b.len()).expect("a blob under 2 GiB");
        self.put(&n.to_be_bytes());
        self.put(b);
    }

    /// The answers of `response`, one per operation, each read by `answer`; fails unless the
    /// response starts with the request's header and holds nothing after the last answer.
    pub(crate) fn answers<A>(
        &self,
        response: &[u8],
        mut answer: impl FnMut(&mut Cursor<'_>, &Op) -> Result<A, String>,
    ) -> Result<Vec<A>, String> {
        let mut r = Cursor::new(response);
        let header = &self.bytes[..self.header];
        if r.take(header.len())? != header {
            return Err(format!(
                "the response does not start with the request's header {header:?}"
            ));
        }
        let answers = self
            .ops
            .iter()
            .map(|op| answer(&mut r, op))
            .collect::<Result<Vec<_>, _>>()?;
        r.end()?;
        Ok(answers)
    }
}

impl Cursor<'_> {
    /// A status byte, then on 0 what `ok` reads, else the peer's error message.
    pub(crate) fn or_error<T>(
        &mut self,
        ok: impl FnOnce(&mut Self) -> Result<T, String>,
    ) -> Result<Result<T, String>, String> {
        Ok(match self.byte()? {
            0 => Ok(ok(self)?),
            _ => Err(self.string()?),
        })
    }
}
