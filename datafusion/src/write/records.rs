//! Part files of Hadoop records (`rcc sql --to records`): each row of the result written as
//! a record of a DDL type, its columns matched to the fields by name
//! ([`hadoop_record_arrow::BatchEncoder`]), in an encoding, back to back or framed — the
//! bytes `rcc convert` writes for the same records
//! ([`RecordSink`](hadoop_record_cli::record_sink::RecordSink)).

use std::io::Write;
use std::sync::Arc;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::{plan_datafusion_err, Result};
use hadoop_record::archive::FloatText;
use hadoop_record::Format;
use hadoop_record_arrow::{BatchEncoder, EncodeOptions};
use hadoop_record_cli::framing::WriteOptions;
use hadoop_record_cli::record_sink::RecordSink;
use serde::{Deserialize, Serialize};

use crate::ddl::load_type;
use crate::options::RecordTableOptions;

/// Records out: the type (its DDL travels as text), the encoding and the framing.
///
/// ```
/// use hadoop_record::Format;
/// use hadoop_record_datafusion::RecordTableOptions;
/// use hadoop_record_datafusion::write::RecordsOut;
/// let out = RecordsOut::new(
///     RecordTableOptions::new("web.jr", "web.Hit").with_encoding(Format::Binary),
///     Some("seqfile".into()),
///     Default::default(),
/// );
/// assert_eq!(out.extension(), "seq");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordsOut {
    /// The record type, its DDL and encoding (and whether jute's nullable types hold
    /// nulls); the rest of a table's options is not used.
    pub record: RecordTableOptions,
    /// The framing, as `--out-framing` names it; `None`: records back to back.
    pub framing: Option<String>,
    /// How the framing writes (`--seqfile-*`, `--compression`, `--chunk-size`, …).
    pub options: WriteOptions,
    /// Which JDK's text floats and doubles are written in, in CSV and XML (`--float-text`;
    /// default [`FloatText::Legacy`], JDK 8 to 18's).
    #[serde(default, with = "float_text_name")]
    pub float_text: FloatText,
}

impl RecordsOut {
    /// Records of `record`'s type and encoding, framed by `framing` written with `options`.
    pub fn new(record: RecordTableOptions, framing: Option<String>, options: WriteOptions) -> Self {
        RecordsOut {
            record,
            framing,
            options,
            float_text: FloatText::default(),
        }
    }

    /// The same, floats and doubles in CSV and XML written as `float_text`'s JDK prints them.
    #[must_use]
    pub fn with_float_text(mut self, float_text: FloatText) -> Self {
        self.float_text = float_text;
        self
    }

    /// The part files' extension: the framing's (`seq`, `paddle`, `mesos`, `v1`,
    /// `plasma`), or without one the encoding's (`bin`, `csv`, `xml`, `jute`).
    pub fn extension(&self) -> &'static str {
        match self.framing.as_deref() {
            Some("seqfile") => "seq",
            Some(f) if f.starts_with("paddle") => "paddle",
            Some("mesos") => "mesos",
            Some("v1") => "v1",
            Some(_) => "plasma",
            None => match self.record.encoding() {
                Format::Csv => "csv",
                Format::Xml => "xml",
                Format::Jute => "jute",
                _ => "bin",
            },
        }
    }

    /// The same with its DDL as text (so that it travels), once the result's columns
    /// `schema` are checked against the type: a column the type does not have, or of a
    /// type its field cannot hold, is an error naming both, before anything is written.
    pub fn checked(&self, schema: &SchemaRef) -> Result<RecordsOut> {
        let loaded = load_type(self.record.schema(), self.record.record_type())?;
        let encoder = encoder(&loaded.schema, loaded.id, &self.record)?;
        encoder
            .prepare(&RecordBatch::new_empty(schema.clone()))
            .map_err(|e| {
                plan_datafusion_err!("the result does not fit {}: {e}", self.record.record_type())
            })?;
        // The framing and its options, checked the same way.
        RecordSink::new(
            std::io::sink(),
            self.record.encoding(),
            self.float_text,
            self.framing.as_deref(),
            &self.options,
        )
        .map_err(|e| plan_datafusion_err!("{e}"))?;
        let mut checked = self.clone();
        checked.record = checked.record.with_schema(loaded.source);
        Ok(checked)
    }
}

fn encoder(
    schema: &Arc<hadoop_record::schema::Schema>,
    id: hadoop_record::schema::RecordId,
    record: &RecordTableOptions,
) -> Result<BatchEncoder> {
    BatchEncoder::new(
        schema.clone(),
        id,
        EncodeOptions::default().with_nullable(record.nullable()),
    )
    .map_err(|e| plan_datafusion_err!("{e}"))
}

/// Batches written as records into an output (the records part of a [`BatchWriter`](super::BatchWriter)).
pub struct RecordsWriter {
    sink: RecordSink,
    encoder: BatchEncoder,
}

impl RecordsWriter {
    pub(crate) fn new<W: Write + Send + 'static>(
        out: &RecordsOut,
        output: W,
    ) -> Result<Self, String> {
        let loaded =
            load_type(out.record.schema(), out.record.record_type()).map_err(|e| e.to_string())?;
        let encoder = encoder(&loaded.schema, loaded.id, &out.record).map_err(|e| e.to_string())?;
        let sink = RecordSink::new(
            output,
            out.record.encoding(),
            out.float_text,
            out.framing.as_deref(),
            &out.options,
        )?;
        Ok(RecordsWriter { sink, encoder })
    }

    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        let rows = self.encoder.prepare(batch).map_err(|e| e.to_string())?;
        for row in 0..rows.num_rows() {
            // The error names the record (the writer's count) and the field.
            self.sink
                .write(|writer| rows.write_to(row, writer))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    pub(crate) fn finish(mut self) -> Result<(), String> {
        self.sink.finish().map_err(|e| e.to_string())
    }
}

/// `FloatText` as its name (`legacy`, `shortest`), as it travels to a cluster's executors.
mod float_text_name {
    use hadoop_record::archive::FloatText;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(float_text: &FloatText, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(float_text.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<FloatText, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The float text travels to the executors by name; a plan without it (from an older
    /// `rcc`) writes JDK 8 to 18's text, the default.
    #[test]
    fn float_text_travels_by_name() {
        let record = RecordTableOptions::new("web.jr", "web.Hit").with_encoding(Format::Csv);
        let out = RecordsOut::new(record, None, WriteOptions::default());
        assert_eq!(out.float_text, FloatText::Legacy);
        let shortest = out.clone().with_float_text(FloatText::Shortest);
        let mut json = serde_json::to_value(&shortest).unwrap();
        assert_eq!(json["float_text"], "shortest");
        assert_eq!(
            serde_json::from_value::<RecordsOut>(json.clone()).unwrap(),
            shortest
        );
        json.as_object_mut().unwrap().remove("float_text");
        assert_eq!(
            serde_json::from_value::<RecordsOut>(json.clone()).unwrap(),
            out
        );
        json["float_text"] = "jdk25".into();
        let e = serde_json::from_value::<RecordsOut>(json).unwrap_err();
        assert!(e.to_string().contains("unknown float text `jdk25`"), "{e}");
    }
}
