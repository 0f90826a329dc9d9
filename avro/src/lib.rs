//! Avro Object Container Files for Hadoop record data.
//!
//! - [`AvroWriter`] writes record batches (the Hadoop mapping of `hadoop-record-arrow`) as a
//!   container file whose schema is, byte for byte, the `.avsc` that `rcc -l avro` writes for
//!   the record type (`hadoop_record_compiler::backend::avro::schema`), so Java's and every
//!   other Avro reader see its `hadoop.type` marks and docs; blocks in any [`AvroCodec`].
//! - [`AvroReader`] reads a container file that this crate or any Avro tool wrote back into
//!   batches of the record type, by Avro's schema resolution (fields by name, promotions,
//!   defaults; a mismatch refused naming the field and both types).
//!
//! Batches go to records (and back, byte for byte) with `hadoop-record-arrow`'s
//! `BatchEncoder` and `BatchDecoder`.
//!
//! **Why arrow-avro (arrow-rs's own Avro crate) and not apache-avro:** it encodes and decodes
//! Avro straight from and to the Arrow `RecordBatch`es this workspace already makes from
//! records, column by column, with schema resolution built in; apache-avro would go through
//! a `Value` per field of every record. It is the arrow-rs project's, on the workspace's
//! arrow version. What arrow-avro 59 lacks for this crate is written here, small: the
//! container framing (its writer does not put the given schema in the header, its reader
//! neither locates errors nor bounds what a hostile block makes it do; see `container` and
//! `check`), and the mapping's shapes arrow-avro has no types for (see `shape`).
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{Int8Array, RecordBatch};
//! use arrow_schema::{DataType, Field, Schema};
//! use hadoop_record_avro::{AvroCodec, AvroReader, AvroWriter};
//!
//! // What `rcc -l avro` writes for `module m { class B { byte b; } }`.
//! let avsc = r#"{"type": "record", "name": "B", "namespace": "m", "fields": [
//!     {"name": "b", "type": {"type": "int", "hadoop.type": "byte"}}]}"#;
//! let arrow = Arc::new(Schema::new(vec![Field::new("b", DataType::Int8, false)]));
//! let batch = RecordBatch::try_new(arrow.clone(), vec![Arc::new(Int8Array::from(vec![-128, 7]))])?;
//!
//! let mut writer = AvroWriter::new(Vec::new(), avsc, arrow.clone(), AvroCodec::Snappy)?;
//! writer.write(&batch)?;
//! let file = writer.finish()?;
//!
//! let mut reader = AvroReader::new(&file[..], arrow, 1024)?;
//! assert_eq!(reader.avro_schema(), avsc);
//! assert_eq!(reader.next().unwrap()?, batch);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod blocks;
mod check;
mod codec;
mod container;
mod ddl;
mod derived;
mod direct;
mod error;
mod reader;
mod resolve;
mod schema;
mod shape;
mod writer;

pub use codec::AvroCodec;
pub use ddl::{ddl_of_schema, DEFAULT_MODULE};
pub use derived::{derived_schema, TOP_LEVEL_RECORD};
pub use direct::{AvroRecordReader, AvroRecordWriter, Transcoder};
pub use error::{Error, Place, Result};
pub use reader::{file_schema, AvroReader, MAX_BLOCK_BYTES};
pub use writer::AvroWriter;
