//! [`RecordError`]: a record a scan could not read, named as `rcc convert` names it — the
//! file, the record's number, its byte offset, the field path.

use std::fmt;

use hadoop_record::framing::split::Location;
use hadoop_record::Position;

/// A record or frame a scan could not read. It reaches the caller inside
/// [`DataFusionError::External`](datafusion::common::DataFusionError::External); its text
/// names the file, the record (its number in the file when the range knows it, else where
/// the range starts), the byte offset and the field path.
#[derive(Debug)]
pub struct RecordError {
    /// The file, as its object store path.
    pub file: String,
    /// Where in the file.
    pub place: Place,
    /// What went wrong (with the position and field path inside the record).
    pub error: hadoop_record::Error,
}

/// An Avro container file a scan could not read (`--from avro`): the file, and the error
/// naming the block and byte offset. It reaches the caller as a [`RecordError`] does.
#[derive(Debug)]
pub struct AvroFileError {
    /// The file, as its user names it.
    pub file: String,
    /// What went wrong, and where.
    pub error: hadoop_record_avro::Error,
}

impl fmt::Display for AvroFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.error)
    }
}

impl std::error::Error for AvroFileError {}

/// Where a [`RecordError`] happened.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Place {
    /// Reading the framing: the error says where (byte offset).
    Framing {
        /// The framing's name.
        framing: String,
    },
    /// Decoding the record of one payload.
    Payload {
        /// The framing's name (`none` for the lines of a plain CSV file).
        framing: String,
        /// The payload's record number and offset.
        location: Location,
        /// Where the byte range being read starts (record numbers count from it when the
        /// file-wide number is unknown).
        range_start: u64,
        /// The record's number within the range.
        in_range: u64,
    },
    /// Decoding a stream of records back to back: the error carries the record number and
    /// position.
    Stream,
    /// The file as a whole: its first bytes show another framing than the table's.
    File,
}

impl RecordError {
    /// The record's number in the file, when known.
    pub fn record(&self) -> Option<u64> {
        match &self.place {
            Place::Payload { location, .. } => location.record,
            Place::Framing { .. } | Place::Stream | Place::File => self.error.record(),
        }
    }

    /// The field path inside the record (`Outer.tags[3]`), empty when the error is not in a
    /// field.
    pub fn path(&self) -> String {
        self.error.path()
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.error;
        match &self.place {
            Place::Framing { framing } => write!(f, "{}: damaged {framing} input: {e}", self.file),
            Place::Stream => write!(f, "{}: {e}", self.file),
            Place::File => write!(f, "{}: {}", self.file, e.message()),
            Place::Payload {
                framing,
                location,
                range_start,
                in_range,
            } => {
                write!(f, "{}: ", self.file)?;
                match location.record {
                    Some(n) => write!(f, "record {n}")?,
                    None => write!(f, "record {in_range} of the range from byte {range_start}")?,
                }
                let offset = location.offset;
                match (framing.as_str(), e.position()) {
                    // A plain CSV line: the column is a byte of the file.
                    ("none", Some(Position::LineCol { col, .. })) => {
                        write!(f, ", byte {}", offset + col.saturating_sub(1))?
                    }
                    ("none", Some(Position::Byte(b))) => write!(f, ", byte {}", offset + b)?,
                    ("none", None) => write!(f, ", byte {offset}")?,
                    (framing, position) => {
                        let frame = if framing.starts_with("paddle") {
                            "chunk"
                        } else {
                            "frame"
                        };
                        write!(f, " (its {framing} {frame} at byte {offset})")?;
                        if let Some(p) = position {
                            write!(f, ", {p} of its payload")?;
                        }
                    }
                }
                let path = e.path();
                if !path.is_empty() {
                    write!(f, ", in {path}")?;
                }
                write!(f, ": {}", e.message())
            }
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// An error as one message for people: a bad record as its [`RecordError`] says (file,
/// record, byte, field path); anything else without DataFusion's kind prefix (`Execution
/// error: `, `External error: `), which names no fix. SQL syntax and internal errors keep
/// theirs, which say what they are.
pub fn error_message(e: &datafusion::common::DataFusionError) -> String {
    use datafusion::common::DataFusionError;
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(record) = s.downcast_ref::<RecordError>() {
            return record.to_string();
        }
        if let Some(avro) = s.downcast_ref::<AvroFileError>() {
            return avro.to_string();
        }
        source = s.source();
    }
    match e {
        DataFusionError::SQL(..) | DataFusionError::Internal(_) => e.to_string(),
        DataFusionError::External(inner) => match inner.downcast_ref::<DataFusionError>() {
            Some(inner) => error_message(inner),
            None => inner.to_string(),
        },
        e => e.message().into_owned(),
    }
}
