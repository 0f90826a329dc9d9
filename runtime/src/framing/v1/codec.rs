//! A tokio-util codec for RecordIO v1 (feature `tokio`), on the same [`Decoder`] core as
//! [`super::V1Reader`].

use bytes::{Buf, BufMut, BytesMut};
use tokio_util::codec;

use super::decoder::{Decoder, Event};
use super::header::{write_header, FileHeader};
use super::writer::{check_record_type, check_writer, write_segments};
use super::{TypedRecord, V1ReadOptions, V1WriteOptions};
use crate::error::{Error, Result};

/// Decodes typed records (the header is read first and kept, see [`V1Codec::header`]) and
/// encodes them (the header goes before the first record).
///
/// ```
/// use bytes::BytesMut;
/// use hadoop_record::framing::v1::{TypedRecord, V1Codec};
/// use tokio_util::codec::{Decoder, Encoder};
/// let mut codec = V1Codec::default();
/// let mut buf = BytesMut::new();
/// codec.encode(TypedRecord::new("Log", "hi"), &mut buf).unwrap();
/// assert_eq!(&buf[..], b"RecordIO v1.0\n\nLog:2:hi\n");
/// let mut reader = V1Codec::default();
/// assert_eq!(reader.decode(&mut buf).unwrap(), Some(TypedRecord::new("Log", "hi")));
/// assert!(reader.header().is_some());
/// ```
#[derive(Debug, Clone)]
pub struct V1Codec {
    decoder: Decoder,
    header: FileHeader,
    write_options: V1WriteOptions,
    header_written: bool,
}

impl Default for V1Codec {
    fn default() -> Self {
        V1Codec {
            decoder: Decoder::new(V1ReadOptions::default()),
            header: FileHeader::new(),
            write_options: V1WriteOptions::default(),
            header_written: false,
        }
    }
}

impl V1Codec {
    /// A codec that decodes with `options` (and encodes with an empty header).
    pub fn new(options: V1ReadOptions) -> Self {
        V1Codec {
            decoder: Decoder::new(options),
            ..Self::default()
        }
    }

    /// A codec that encodes with this header and these options.
    pub fn with_header(header: FileHeader, options: V1WriteOptions) -> Result<Self> {
        check_writer(&header, &options)?;
        Ok(V1Codec {
            header,
            write_options: options,
            ..Self::default()
        })
    }

    /// The decoded header, once it has been read.
    pub fn header(&self) -> Option<&FileHeader> {
        self.decoder.header_done().then(|| self.decoder.header())
    }

    /// Writes the header now, unless already written (for a stream without records).
    pub fn write_header(&mut self, dst: &mut BytesMut) {
        if !self.header_written {
            write_header(&mut dst.writer(), &self.header).expect("BytesMut grows");
            self.header_written = true;
        }
    }
}

impl codec::Decoder for V1Codec {
    type Item = TypedRecord;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<TypedRecord>> {
        while !src.is_empty() {
            let (n, event) = self.decoder.decode(src)?;
            src.advance(n);
            if event == Some(Event::Record) {
                return Ok(Some(TypedRecord {
                    record_type: self.decoder.record_type().to_string(),
                    payload: self.decoder.take_payload(),
                }));
            }
        }
        Ok(None)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<TypedRecord>> {
        if let Some(record) = self.decode(src)? {
            return Ok(Some(record));
        }
        self.decoder.finish()?;
        Ok(None)
    }
}

impl codec::Encoder<(&str, &[u8])> for V1Codec {
    type Error = Error;

    fn encode(&mut self, (record_type, payload): (&str, &[u8]), dst: &mut BytesMut) -> Result<()> {
        check_record_type(record_type)?;
        self.write_header(dst);
        dst.reserve(record_type.len() + payload.len() + 16);
        write_segments(
            &mut dst.writer(),
            record_type,
            payload,
            self.write_options.max_segment_len,
        )
        .expect("BytesMut grows");
        Ok(())
    }
}

impl codec::Encoder<TypedRecord> for V1Codec {
    type Error = Error;

    fn encode(&mut self, record: TypedRecord, dst: &mut BytesMut) -> Result<()> {
        codec::Encoder::<(&str, &[u8])>::encode(self, (&record.record_type, &record.payload), dst)
    }
}
