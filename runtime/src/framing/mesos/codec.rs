//! tokio-util [`Decoder`] and [`Encoder`] for Mesos RecordIO (feature `tokio`).

use bytes::{Buf, BufMut, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::decoder::{length_line, MesosDecoder, MesosOptions};
use crate::error::{Error, Result};

/// A tokio-util codec for Mesos RecordIO, built on [`MesosDecoder`]: use it with
/// `FramedRead` on a streaming HTTP body or socket, and with `FramedWrite` to send frames.
///
/// Items are `Vec<u8>` records; the encoder takes anything that is `AsRef<[u8]>`.
/// `decode_eof` reports a stream that ends inside a frame as an
/// [`ErrorKind::UnexpectedEof`](crate::ErrorKind::UnexpectedEof) error.
///
/// ```
/// use bytes::BytesMut;
/// use hadoop_record::framing::mesos::MesosCodec;
/// use tokio_util::codec::{Decoder, Encoder};
/// let mut codec = MesosCodec::default();
/// let mut buf = BytesMut::new();
/// codec.encode(&b"hello"[..], &mut buf)?;
/// assert_eq!(&buf[..], b"5\nhello");
/// assert_eq!(codec.decode(&mut buf)?, Some(b"hello".to_vec()));
/// # Ok::<(), hadoop_record::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct MesosCodec {
    decoder: MesosDecoder,
}

impl MesosCodec {
    /// A codec with the given decoding options.
    pub fn new(options: MesosOptions) -> Self {
        MesosCodec {
            decoder: MesosDecoder::new(options),
        }
    }

    /// The decoder's state (offset, records delivered).
    pub fn decoder(&self) -> &MesosDecoder {
        &self.decoder
    }
}

impl Default for MesosCodec {
    fn default() -> Self {
        Self::new(MesosOptions::default())
    }
}

impl Decoder for MesosCodec {
    type Item = Vec<u8>;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Vec<u8>>> {
        // The decoder takes over the bytes of an unfinished record, so `src` is always
        // drained: FramedRead never sees leftover bytes at end of stream.
        let (n, record) = self.decoder.decode(src)?;
        src.advance(n);
        Ok(record)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Vec<u8>>> {
        match self.decode(src)? {
            Some(record) => Ok(Some(record)),
            None => {
                self.decoder.finish()?;
                Ok(None)
            }
        }
    }
}

impl<T: AsRef<[u8]>> Encoder<T> for MesosCodec {
    type Error = Error;

    fn encode(&mut self, item: T, dst: &mut BytesMut) -> Result<()> {
        let payload = item.as_ref();
        let mut line = [0u8; 21];
        let line = length_line(payload.len() as u64, &mut line);
        dst.reserve(line.len() + payload.len());
        dst.put_slice(line);
        dst.put_slice(payload);
        Ok(())
    }
}
