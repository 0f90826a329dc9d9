//! Hadoop Record I/O and Apache Arrow.
//!
//! - [`mapping`]: the one mapping of Hadoop types to Arrow types (byte→Int8, …,
//!   vector→List, map→Map in Hadoop's key order, record→Struct), with the Hadoop types in
//!   the fields' metadata.
//! - [`decode`]: records of any encoding (binary, CSV, XML, jute), from a stream
//!   ([`BatchReader`]) or framed payloads, decoded straight into [`arrow_array::RecordBatch`]es
//!   by a [`BatchDecoder`], with projection (fields left out are skipped, not decoded).
//! - [`encode`]: record batches back to records, byte for byte what the runtime writes for
//!   the same values, with clear errors (row, column path) for what Hadoop cannot hold.
//!
//! ```
//! use std::sync::Arc;
//! use hadoop_record::schema::{FieldDef, FieldType, RecordType, Schema};
//! use hadoop_record::{Format, RecordWriter};
//! use hadoop_record_arrow::{BatchEncoder, BatchReader, DecodeOptions, EncodeOptions};
//!
//! let mut schema = Schema::new();
//! let id = schema.add(RecordType {
//!     module: "m".into(),
//!     name: "P".into(),
//!     fields: vec![
//!         FieldDef::new("name", FieldType::String),
//!         FieldDef::new("scores", FieldType::Map(Box::new(FieldType::String), Box::new(FieldType::Int))),
//!     ],
//! })?;
//! let schema = Arc::new(schema);
//! let csv = b"'ann,m{'b,2,'a,1}\n'bob,m{}\n";
//!
//! // Records → Arrow: one batch; the map's entries come in Hadoop's key order.
//! let batches: Vec<_> = BatchReader::new(&csv[..], Format::Csv, schema.clone(), id,
//!     DecodeOptions::default())?.collect::<Result<_, _>>()?;
//! assert_eq!(batches[0].num_rows(), 2);
//!
//! // Arrow → records: what the runtime writes for these values.
//! let mut encoder = BatchEncoder::new(schema, id, EncodeOptions::default())?;
//! let mut writer = RecordWriter::new(Vec::new(), Format::Csv);
//! encoder.write_batch(&batches[0], &mut writer)?;
//! assert_eq!(writer.into_inner()?, b"'ann,m{'a,1,'b,2}\n'bob,m{}\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod decode;
pub mod encode;
mod error;
pub mod ipc;
pub mod mapping;
mod order;
mod recursive;

pub use decode::{BatchDecoder, BatchReader, DecodeOptions};
pub use encode::{BatchEncoder, EncodeOptions};
pub use error::Error;
pub use order::java_order;
